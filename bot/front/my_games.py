"""`/schotten games`, and the **My games** button of the hand message: a member's games
under way and open challenges, privately, in their language (bot/my_games.py orders them).

One embed field per game or challenge, 25 to a page, with ◀ Previous and Next ▶ buttons
past that. The buttons carry the page's owner, its scope (a server, or 0: every server, as
from a DM) and the page to show in their `custom_id`, so they work after a restart; each
click reads the list again from the database (a page goes stale as games move on) and
answers only the member whose list it is.

Each entry links to its game's thread or channel: a channel mention in a server (it opens
the thread), a full jump link from a DM (where a mention of a server's channel does not
open). A challenge links to its message, where its buttons are; an open challenge (no
opponent yet) is listed as one, with the role that may take it.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any, Protocol

import discord

from bot.durations import duration
from bot.errors import Refused
from bot.front.links import jump_link
from bot.front.one_at_a_time import OneAtATime
from bot.front.replies import QUIET, acknowledge, on_click
from bot.my_games import ChallengeEntry, GameEntry, MyGames, my_games
from bot.open_challenges import role_mention
from bot.service import GameService
from bot.store import valid_id
from bot.wording import the_computer
from lang import _, command, fill, localise, mention, ngettext, pgettext, say

# Discord's limits on an embed's field, and on an embed's text in all; the shortest a field's
# name is cut to, to fit the total.
NAME_LIMIT, VALUE_LIMIT, EMBED_LIMIT = 256, 1024, 6000
MIN_NAME = 24


class GamesFront(Protocol):
    """What the list needs of the front."""

    service: GameService
    # Held by a member's challenge until its message's id is stored (bot/front/app.py).
    posting_challenge: OneAtATime


# Links ----------------------------------------------------------------------------------------


def _game_link(entry: GameEntry, *, in_dm: bool) -> str:
    info = entry.info
    if not in_dm:
        return f"<#{info.channel_id}>"
    # TRANSLATORS: a link's text, to a game's thread; {id} is the game's number.
    text = fill(_("game #{id}"), id=info.id)
    return f"[{text}]({jump_link(info.guild_id, info.channel_id)})"


def _challenge_link(entry: ChallengeEntry) -> str:
    c = entry.info
    # TRANSLATORS: a link's text, to a challenge's message (where its buttons are).
    text = _("the challenge")
    return f"[{text}]({jump_link(c.guild_id, c.channel_id, c.message_id)})"


# Words ----------------------------------------------------------------------------------------


def _opponent(entry: GameEntry) -> str:
    info = entry.info
    other = 1 - entry.seat
    if info.ai_seat == other:
        return localise(the_computer(info.ai_level))
    return localise(info.names[other])


def _game_field(entry: GameEntry, *, in_dm: bool) -> tuple[str, str]:
    info = entry.info
    opponent = _opponent(entry)
    # TRANSLATORS: a game in a member's list; {game} is the game and its variant
    # ("Schotten Totten, Tactics"), {opponent} a member's name or "Computer (normal)" (a name).
    game = localise(info.spec.describe())
    name = fill(_("{game} against {opponent}"), game=game, opponent=opponent)
    if entry.mine:
        turn = _("**Your move**")
    elif info.to_decide is None:
        turn = _("**Waiting for nobody**")
    else:
        # TRANSLATORS: the game waits for {opponent}: a name, or "Computer (normal)" (the
        # computer's name as a player).
        turn = fill(_("**{opponent} to move**"), opponent=localise(info.names[1 - entry.seat]))
    parts = [
        turn,
        # TRANSLATORS: the number of the move the game waits for.
        fill(_("move {number}"), number=entry.move_number),
        # TRANSLATORS: how long the game has waited since its last move, e.g. "2 days 3 h".
        fill(_("waiting {duration}"), duration=localise(duration(entry.waited))),
    ]
    if entry.left is not None:
        if entry.left > 0:
            # TRANSLATORS: the time left on the game's clock, e.g. "1 day 5 h".
            parts.append(fill(_("{duration} left"), duration=localise(duration(entry.left))))
        else:
            parts.append(_("time is up"))
    parts.append(_game_link(entry, in_dm=in_dm))
    return name, " · ".join(parts)


def _challenge_field(entry: ChallengeEntry) -> tuple[str, str]:
    c = entry.info
    game = localise(c.spec.describe())
    parts = [_("**Challenge sent**") if entry.made else _("**Challenge received**")]
    if c.ai_level is not None:
        opponent: str | None = localise(the_computer(c.ai_level))
    elif not entry.made:
        opponent = c.challenger.name
    else:  # an open challenge has no opponent until someone takes it
        opponent = c.opponent.name if c.opponent is not None else None
    if opponent is not None:
        name = fill(_("{game} against {opponent}"), game=game, opponent=opponent)
    else:
        # TRANSLATORS: a challenge in a member's list that any member may take; {game} is the
        # game and its variant ("Schotten Totten, Tactics").
        name = fill(_("{game}, open challenge"), game=game)
        if c.for_role_id is not None:
            # A role's mention shows in a field's value (not in its name).
            # TRANSLATORS: who may take an open challenge; {role} is a Discord role ("@Experts").
            parts.append(fill(_("for members of {role}"), role=role_mention(c.for_role_id)))
    parts += [
        fill(_("waiting {duration}"), duration=localise(duration(entry.waited))),
        # TRANSLATORS: how long the challenge stays open, e.g. "21 h".
        fill(_("open {duration} more"), duration=localise(duration(entry.left))),
        _challenge_link(entry),
    ]
    return name, " · ".join(parts)


def _summary(listed: MyGames) -> str:
    parts = []
    if listed.mine:
        parts.append(
            fill(
                ngettext("{count} game waits on you", "{count} games wait on you", listed.mine),
                count=listed.mine,
            )
        )
    if listed.theirs:
        parts.append(
            fill(
                ngettext(
                    "{count} game waits on your opponent",
                    "{count} games wait on your opponents",
                    listed.theirs,
                ),
                count=listed.theirs,
            )
        )
    if listed.challenges:
        parts.append(
            fill(
                # TRANSLATORS: challenges waiting for an answer (sent or received); not
                # "open", the word for a challenge that anyone may take.
                ngettext(
                    "{count} challenge pending", "{count} challenges pending", listed.challenges
                ),
                count=listed.challenges,
            )
        )
    return " · ".join(parts)


def games_embed(listed: MyGames, page: int, *, in_dm: bool) -> tuple[discord.Embed, int]:
    """Page `page` of the list (clamped), as an embed in the current language; and the page
    shown."""
    number, entries = listed.page(page)
    title = _("Your games in every server") if in_dm else _("Your games in this server")
    embed = discord.Embed(title=title, colour=discord.Colour.blurple())
    if not listed.entries:
        if in_dm:
            empty = _(
                "You have no game under way and no challenge pending. Start one with {challenge}!"
            )
        else:
            empty = _(
                "You have no game under way and no challenge pending in this server. Start one"
                " with {challenge}!"
            )
        # TRANSLATORS: {challenge} is the command /schotten challenge (a mention in English; in
        # French and German its localised name, as code).
        embed.description = fill(empty, challenge=mention("challenge"))
        return embed, number
    embed.description = _summary(listed)
    footer = ""
    if listed.pages > 1:
        # TRANSLATORS: under a list of games shown a page at a time.
        footer = fill(_("Page {page} of {pages}"), page=number, pages=listed.pages)
        embed.set_footer(text=footer)
    made = [
        _game_field(e, in_dm=in_dm) if isinstance(e, GameEntry) else _challenge_field(e)
        for e in entries
    ]
    room = EMBED_LIMIT - len(title) - len(embed.description) - len(footer)
    for name, value in _fitted(made, room):
        embed.add_field(name=name, value=value, inline=False)
    return embed, number


def _fitted(fields: list[tuple[str, str]], room: int) -> list[tuple[str, str]]:
    """The fields within Discord's limits: each name and value within its own, and all of
    them within `room` characters (an embed's total), the longest names shortened first
    (the values, with their links, are kept whole)."""
    fields = [(n[:NAME_LIMIT], v[:VALUE_LIMIT]) for n, v in fields]
    over = sum(len(n) + len(v) for n, v in fields) - room
    while over > 0:
        longest = max(range(len(fields)), key=lambda i: len(fields[i][0]))
        name, value = fields[longest]
        if len(name) <= MIN_NAME:
            break  # not reached: a value is a line of under 300 characters
        cut = max(MIN_NAME, len(name) - over)
        fields[longest] = (name[: cut - 1] + "…", value)
        over -= len(name) - cut
    return fields


# Controls -------------------------------------------------------------------------------------


class GamesPageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"sch:G:(?P<owner>[0-9]+):(?P<scope>[0-9]+):(?P<page>[0-9]+):(?P<tag>[pn])",
):
    """◀ Previous or Next ▶ under a page of a member's list: shows page `page` of it, read
    again now, in the same message; for that member only."""

    def __init__(self, owner: int, scope: int, page: int, tag: str) -> None:
        self.owner, self.scope, self.page, self.tag = owner, scope, page, tag
        if tag == "p":
            label = "◀ " + pgettext("games button", "Previous")
        else:
            label = pgettext("games button", "Next") + " ▶"
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"sch:G:{owner}:{scope}:{page}:{tag}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> GamesPageButton:
        return cls(int(match["owner"]), int(match["scope"]), int(match["page"]), match["tag"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await on_click(interaction, self.custom_id, lambda front: self._turn(front, interaction))

    async def _turn(self, front: GamesFront, interaction: discord.Interaction) -> None:
        if interaction.user.id != self.owner:
            raise Refused(
                # TRANSLATORS: {games} is the command /schotten games (a mention in English; in
                # French and German its localised name, as code).
                say(
                    "This list belongs to another member; {games} shows yours.",
                    games=command("games"),
                )
            )
        if not (valid_id(self.scope) and valid_id(self.page)):
            raise Refused(say("This control names a game or challenge that does not exist."))
        await interaction.response.defer()  # then the message itself shows the page
        embed, view = await games_page(front, self.owner, self.scope, self.page)
        await interaction.edit_original_response(embed=embed, view=view)


class MyGamesButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"sch:y:(?P<match>[0-9]+)"
):
    """**My games**, on a hand message: the clicking member's list, privately (from a DM,
    their games in every server; from a server, in that server)."""

    def __init__(self, match_id: int) -> None:
        self.match_id = match_id
        super().__init__(
            discord.ui.Button(
                label=my_games_label(),
                emoji="📋",
                style=discord.ButtonStyle.secondary,
                custom_id=f"sch:y:{match_id}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> MyGamesButton:
        return cls(int(match["match"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await on_click(interaction, self.custom_id, lambda front: show(front, interaction))


def my_games_label() -> str:
    return pgettext("button", "My games")


GAMES_CONTROLS = (GamesPageButton, MyGamesButton)


def understood(custom_id: str) -> bool:
    """Whether one of the list's controls reads this custom_id."""
    return any(c.__discord_ui_compiled_template__.fullmatch(custom_id) for c in GAMES_CONTROLS)


def with_my_games(view: discord.ui.View | None, match_id: int) -> discord.ui.View:
    """A hand's controls with **My games** added where a row has room (a hand whose
    controls fill all five rows goes without it)."""
    view = view or discord.ui.View(timeout=None)
    with contextlib.suppress(ValueError):  # no room left
        view.add_item(MyGamesButton(match_id))
    return view


# Answering --------------------------------------------------------------------------------------


async def games_page(
    front: GamesFront, user_id: int, scope: int, page: int
) -> tuple[discord.Embed, discord.ui.View | None]:
    """Page `page` of a member's list in server `scope` (0: every server), read now, in the
    current language, with its paging buttons."""
    # A challenge posted a moment ago may not have its message's id stored yet: wait for it,
    # so that its entry links the message (its buttons), not only its channel.
    async with front.posting_challenge.hold(user_id):
        pass
    listed = await my_games(front.service, user_id, scope or None)
    embed, number = games_embed(listed, page, in_dm=not scope)
    if listed.pages == 1:
        return embed, None
    view = discord.ui.View(timeout=None)
    before = GamesPageButton(user_id, scope, max(1, number - 1), "p")
    before.item.disabled = number == 1
    after = GamesPageButton(user_id, scope, min(listed.pages, number + 1), "n")
    after.item.disabled = number == listed.pages
    view.add_item(before)
    view.add_item(after)
    return embed, view


async def show(front: GamesFront, interaction: discord.Interaction) -> None:
    """`/schotten games` and the My games button: page 1, privately. In a server, that
    server's games; in a DM, every server's."""
    await acknowledge(interaction, private=True)
    scope = interaction.guild_id or 0
    embed, view = await games_page(front, interaction.user.id, scope, 1)
    await interaction.followup.send(
        embed=embed,
        view=view or discord.utils.MISSING,
        ephemeral=True,
        allowed_mentions=QUIET,
    )


__all__ = [
    "GAMES_CONTROLS",
    "GamesPageButton",
    "MyGamesButton",
    "games_embed",
    "games_page",
    "jump_link",
    "show",
    "understood",
    "with_my_games",
]
