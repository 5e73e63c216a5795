"""Open challenges in Discord (bot/open_challenges.py has their rules): what the post says
(who may take it, the game, the challenger's seat if they chose one, when it expires; then
who took it), in the current language (the server's, for the channel); and the roles a
member holds, which decide whether they may take one named for a role."""

from __future__ import annotations

from collections.abc import Collection

import discord

from bot.front.game_clock_words import clock_line
from bot.open_challenges import role_mention
from bot.records import ChallengeInfo
from bot.wording import ACCEPT_BUTTON
from lang import _, fill, localise, mention


def post(info: ChallengeInfo) -> str:
    """The open challenge as posted in the channel, with its Accept button under it."""
    # TRANSLATORS: {challenge} is "Alice challenges anyone to Schotten Totten, Tactics" (or
    # "... any member of @Experts ..."); {role} is a Discord role (shown as "@Experts");
    # {button} is the label of the challenge's button (Accept); <t:{expires}:R> is shown by
    # Discord as "in 10 hours"; {cancel} is the command /schotten cancel (a mention in English; in
    # French and German its localised name, as code).
    if info.for_role_id is not None:
        text = _(
            "{challenge}! The first member of {role} to press **{button}** plays. The"
            " challenge expires <t:{expires}:R>; {challenger} can take it back with {cancel}."
        )
    else:
        text = _(
            "{challenge}! The first member to press **{button}** plays. The challenge"
            " expires <t:{expires}:R>; {challenger} can take it back with {cancel}."
        )
    lines = [
        fill(
            text,
            challenge=localise(info.describe()),
            role=role_mention(info.for_role_id) if info.for_role_id is not None else "",
            button=localise(ACCEPT_BUTTON),
            expires=int(info.expires_at),
            challenger=info.challenger.name,
            cancel=mention("cancel"),
        )
    ]
    seat = seat_line(info)
    if seat:
        lines.append(seat)
    lines.append(clock_line(info.clock_hours))  # its time per move
    return "\n".join(lines)


def seat_line(info: ChallengeInfo) -> str | None:
    """The seat the challenger chose (they are seat 0), so a taker knows theirs."""
    first = info.spec.first
    if first is None:
        return None
    name = info.challenger.name
    if info.spec.game == "st2":
        if first == 0:
            return fill(_("{challenger} will be the Attacker."), challenger=name)
        return fill(_("{challenger} will be the Defender."), challenger=name)
    if first == 0:
        return fill(_("{challenger} will play first."), challenger=name)
    return fill(_("{challenger} will play second."), challenger=name)


def taken(info: ChallengeInfo, thread: str | None = None) -> str:
    """The post once a member took it; `info.opponent` is the taker, `thread` the mention
    of the game's thread."""
    assert info.opponent is not None
    game = localise(info.spec.describe())
    if thread is not None:
        # TRANSLATORS: {game} is "Schotten Totten, Tactics, 3 rounds"; {thread} the game's
        # thread (a link).
        return fill(
            _("{player} took {challenger}'s open challenge to {game}. The game is on in {thread}!"),
            player=info.opponent.name,
            challenger=info.challenger.name,
            game=game,
            thread=thread,
        )
    return fill(
        _("{player} took {challenger}'s open challenge to {game}. The game is on!"),
        player=info.opponent.name,
        challenger=info.challenger.name,
        game=game,
    )


def roles_of(user: discord.abc.User) -> Collection[int]:
    """The ids of the Discord roles a member holds (none outside a server)."""
    return [role.id for role in getattr(user, "roles", ())]
