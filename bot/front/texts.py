"""The words the bot says. Kept in one place so the voice stays the same everywhere."""

from __future__ import annotations

from collections.abc import Sequence

import discord
from babel.lists import format_list

from bot.aborted import why_aborted
from bot.front import game_clock_words
from bot.front.links import jump_link
from bot.records import ChallengeInfo, MatchInfo, Member, MoveResult, RatingChange, Reminder
from bot.wording import SHOW_HAND_BUTTON
from engine.api import Playable
from engine.events import CardDrawn
from engine.outcome import Outcome
from engine.st2.match import Match as St2Match
from lang import N_, _, current, fill, localise, mention, ngettext


def _who(info: MatchInfo, seat: int, *, by_mention: bool = False) -> str:
    """A player's name (with their role in Schotten Totten 2); with `by_mention`, a member
    is named by their mention instead (the computer keeps its name)."""
    name = localise(info.names[seat])  # the computer's name is a Phrase
    if by_mention and seat != info.ai_seat:
        name = f"<@{info.players[seat]}>"
    if info.spec.game == "st2":
        attacker = info.match.view(None).attacker
        if seat == attacker:
            return fill(_("{name} (Attacker)"), name=name)
        return fill(_("{name} (Defender)"), name=name)
    return name


def _why(outcome: Outcome) -> str:
    """Why the game ended, in the current language."""
    return localise(outcome.termination.reason)


def turn_line(info: MatchInfo, *, by_mention: bool = False) -> str:
    """Who the game waits for and what they are doing, or how it ended; with `by_mention`,
    the member it waits for is named by their mention."""
    outcome = info.match.outcome
    if info.aborted:
        # TRANSLATORS: {why} says who resigned or ran out of time before both had moved.
        return fill(
            _("**The game is aborted** ({why}): no winner, no rating change."),
            why=localise(why_aborted(info.match, info.names)),
        )
    if outcome is not None:
        why = _why(outcome)
        if outcome.winner is None:
            return fill(_("**The game is drawn** ({why})."), why=why)
        return fill(_("🏆 **{player} wins** ({why})."), player=info.names[outcome.winner], why=why)
    seat = info.to_decide
    if seat is None:
        return ""
    if info.ai_seat == seat:
        return fill(_("**{player}** is thinking…"), player=info.names[seat])
    phase = info.match.view(None).phase
    # TRANSLATORS: {player} is the name of the player the game waits for (in Schotten
    # Totten 2 followed by their role), the rest what they are doing now.
    line = _(_PHASE_LINES.get(phase, _PHASE_LINES["prepare"]))
    return fill(line, player=_who(info, seat, by_mention=by_mention))


# What the player the game waits for is doing, in the words of the picture's badge
# (render/words.py _PHASE_BADGES), so that the text and the picture agree.
_PHASE_WORDS = {
    "play": N_("to play"),
    "claim": N_("claiming: claim stones, or end the turn"),
    "draw": N_("to draw"),
    "recruit-draw": N_("playing the Recruiter: to draw"),
    "recruit-return": N_("playing the Recruiter: to return two cards"),
    "prepare": N_("to move"),
    "after-play": N_("may control a tile, or end the turn"),
    "exchange": N_("in the Exchange: to give cards"),
}
# The turn line: the same words, as a sentence about the player.
_PHASE_LINES = {
    "play": N_("**{player}** to play."),
    "claim": N_("**{player}** claiming: claim stones, or end the turn."),
    "draw": N_("**{player}** to draw."),
    "recruit-draw": N_("**{player}** playing the Recruiter: to draw."),
    "recruit-return": N_("**{player}** playing the Recruiter: to return two cards."),
    "prepare": N_("**{player}** to move."),
    "after-play": N_("**{player}** may control a tile, or end the turn."),
    "exchange": N_("**{player}** in the Exchange: to give cards."),
}


def phase_words(phase: str) -> str:
    return _(_PHASE_WORDS.get(phase, _PHASE_WORDS["prepare"]))


def revenge_line(match: Playable, names: Sequence[str]) -> str:
    """In game 2 of a revenge match, the figure the loser of game 1 must beat (RULINGS
    ST2-9), or "" when there is none to give."""
    if not isinstance(match, St2Match) or len(match.results) != 1 or match.is_over:
        return ""
    first = match.results[0]
    winner = first.outcome.winner
    if winner is None:
        return ""
    other = names[1 - winner]
    if winner == first.attacker:
        left = first.deck_left
        # TRANSLATORS: a revenge match of Schotten Totten 2; {count} cards were left in the
        # siege deck when {winner} (the Attacker of game 1) took the wall.
        return fill(
            ngettext(
                "To beat: {winner} took the wall in game 1 with {count} card left in the deck;"
                " {other} wins the match by taking it with more than {count} left ({count}"
                " exactly: a draw).",
                "To beat: {winner} took the wall in game 1 with {count} cards left in the deck;"
                " {other} wins the match by taking it with more than {count} left ({count}"
                " exactly: a draw).",
                left,
            ),
            winner=names[winner],
            other=other,
            count=left,
        )
    held = first.defender_score
    # TRANSLATORS: a revenge match of Schotten Totten 2; {held} is the Defender's score of
    # game 1 (intact wall tiles plus unused oil cauldrons).
    return fill(
        _(
            "To beat: {winner} held the wall in game 1 with {held} intact tiles and unused"
            " cauldrons; {other} wins the match by holding it with more than {held}"
            " ({held} exactly: a draw)."
        ),
        winner=names[winner],
        other=other,
        held=held,
    )


def board_caption(info: MatchInfo, lines: Sequence[str], *, mentions: bool = False) -> str:
    """The words of a board message. With `mentions` (the turn's board in the game's
    channel), the member to move is named by their mention, and both members in the first
    line once the game is over."""
    over = mentions and info.is_over
    a, b = (_who(info, 0, by_mention=over), _who(info, 1, by_mention=over))
    # TRANSLATORS: the board's first line: {game} is the game and its variant, {first} and
    # {second} the players, {id} the game's number.
    head = fill(
        _("**{game}** · {first} vs {second} · game #{id}"),
        game=localise(info.spec.describe()),
        first=a,
        second=b,
        id=info.id,
    )
    if info.spec.revenge:
        head = "\n".join(p for p in (head, revenge_line(info.match, info.names)) if p)
    events = [f"• {localise(line)}" for line in lines if line]
    # Under the turn: the clock of the player to move, and who is on vacation.
    tail = [turn_line(info, by_mention=mentions), *game_clock_words.board_lines(info)]
    return fit_message(head, events, "\n".join(p for p in tail if p))


# Discord's limit on a message's text (discord_loopback/limits.py has its docs page).
MESSAGE_LIMIT = 2000


def fit_message(head: str, events: Sequence[str], tail: str, limit: int = MESSAGE_LIMIT) -> str:
    """`head`, the event lines and `tail` on lines of their own, in at most `limit` characters:
    when they do not fit (a long turn of passes against the computer), the oldest events give
    way to "• …", so the first line and the result or the turn's line are always read."""
    shown = list(events)
    dropped = False
    while True:
        body = (["• …"] if dropped else []) + shown
        text = "\n".join(part for part in (head, *body, tail) if part)
        if len(text) <= limit:
            return text
        if not shown:
            return text[: limit - 1] + "…"
        shown.pop(0)
        dropped = True


def hand_caption(info: MatchInfo, seat: int, note: str = "") -> str:
    opponent = info.names[1 - seat]
    where = thread_link(info)
    if info.is_over:
        state = turn_line(info)
    elif info.to_decide == seat:
        # TRANSLATORS: {move} is the command /schotten move (a mention in English; in French and
        # German its localised name, as code).
        state = fill(_("**Your move.** Choose below, or type {move}."), move=mention("move"))
    else:
        state = fill(_("Waiting for {player}."), player=opponent)
    # TRANSLATORS: {channel} is a link to the game's channel; {state} one of "**Your move.**
    # Choose below...", "Waiting for Bob." or how the game ended.
    text = _("Your hand in game #{id} against {opponent} ({channel}). {state}")
    parts = [note, fill(text, id=info.id, opponent=opponent, channel=where, state=state)]
    parts += game_clock_words.hand_lines(info, seat)
    return "\n".join(p for p in parts if p)


def thread_link(info: MatchInfo) -> str:
    """The game's thread as a link for a DM: a `<#id>` mention opens only inside its server
    (a DM shows it, but a click there does nothing), a full link opens from anywhere."""
    # TRANSLATORS: a link's text in a DM, to the thread (or channel) where a game is played.
    text = _("the game's thread")
    return f"[{text}]({jump_link(info.guild_id, info.channel_id)})"


def hand_moved_on(info: MatchInfo) -> str:
    # TRANSLATORS: {button} is the label of the board's button (Show my hand).
    return fill(
        _(
            "This hand of game #{id} is from an earlier position: you have moved since."
            " Your current hand comes in a newer message, or use **{button}** on the board."
        ),
        id=info.id,
        button=localise(SHOW_HAND_BUTTON),
    )


def dm_failed(user_id: int) -> str:
    # TRANSLATORS: posted in the game's channel; <@{user}> mentions the player. {button} is
    # the label of the board's button (Show my hand).
    return fill(
        _(
            "<@{user}>, it is your move, but I cannot send you direct messages. For the rest"
            " of this game, use the **{button}** button on the board to see your hand"
            " privately; I will not repeat this notice."
        ),
        user=user_id,
        button=localise(SHOW_HAND_BUTTON),
    )


def games_elsewhere(games: Sequence[MatchInfo], user_id: int) -> str:
    """To a member who used a game's command where none of their games is played: where
    they are (a thread's or channel's mention, which opens it)."""
    if len(games) == 1:
        info = games[0]
        # TRANSLATORS: {channel} is a link to the thread (or channel) of the game.
        return fill(
            _(
                "There is no game in this channel: yours, game #{id} against {opponent}, is"
                " played in {channel}. Use the command there."
            ),
            id=info.id,
            opponent=_opponent(info, user_id),
            channel=f"<#{info.channel_id}>",
        )
    # TRANSLATORS: one item of a list of games: {channel} is a link to its thread.
    item = _("{channel} (game #{id} against {opponent})")
    shown = [
        fill(item, channel=f"<#{g.channel_id}>", id=g.id, opponent=_opponent(g, user_id))
        for g in games[:MAX_LISTED]
    ]
    # TRANSLATORS: {games} lists the member's games, each with a link to its thread.
    return fill(
        _(
            "There is no game in this channel; yours are played in {games}. Use the command in"
            " the game's thread."
        ),
        games=format_list(shown, locale=current()),
    )


# How many games a message lists at most.
MAX_LISTED = 10


def _opponent(info: MatchInfo, user_id: int) -> str:
    seat = info.seat_of(user_id)
    return info.names[1 - seat] if seat is not None else info.names[1]


def turn_ping(info: MatchInfo, user_id: int) -> str:
    """In the game's channel, to a player whose DMs are closed, when the turn came back to
    them in an edit (the computer's reply), which notifies nobody."""
    # TRANSLATORS: <@{user}> mentions the player; {button} is the label of the board's
    # button (Show my hand).
    return fill(
        _("<@{user}>, your move in game #{id}: **{button}** on the board above."),
        user=user_id,
        id=info.id,
        button=localise(SHOW_HAND_BUTTON),
    )


def board_without_picture() -> str:
    # TRANSLATORS: added under a board posted as text only, when Discord refused its picture.
    # TRANSLATORS: {board} is the command /schotten board (a mention in English; in French and
    # German its localised name, as code).
    return "\n" + fill(
        _("*(Discord refused the picture here; {board} shows it.)*"), board=mention("board")
    )


# What a game needs of the bot in its channel, with Discord's names for them (as its client
# shows them, in the reader's language).
PERMISSIONS = (
    ("send_messages", N_("Send Messages")),
    ("send_messages_in_threads", N_("Send Messages in Threads")),
    ("create_public_threads", N_("Create Public Threads")),
    ("attach_files", N_("Attach Files")),
    ("embed_links", N_("Embed Links")),
)


def missing_permissions(have: discord.Permissions, *, in_thread: bool, use_threads: bool) -> str:
    """One sentence naming what the bot lacks to run a game here and who can grant it, or
    "" if nothing. In a thread a game needs to send there; in a channel, to send there and,
    when the server plays in threads, to open one and send in it."""
    needed = {"attach_files", "embed_links"}
    if in_thread:
        needed.add("send_messages_in_threads")
    else:
        needed.add("send_messages")
        if use_threads:
            needed |= {"create_public_threads", "send_messages_in_threads"}
    missing = [_(name) for flag, name in PERMISSIONS if flag in needed and not getattr(have, flag)]
    if not have.view_channel:
        missing.insert(0, _("View Channel"))
    if not missing:
        return ""
    # TRANSLATORS: {permissions} lists Discord's permission names ("Attach Files and Embed
    # Links"), as the client shows them.
    return fill(
        _(
            "I cannot host a game in this channel: I lack {permissions} here, which a member who"
            " can manage this channel's permissions (or the server's roles) can grant me."
        ),
        permissions=format_list(missing, locale=current()),
    )


def moved_here(info: MatchInfo) -> str:
    # TRANSLATORS: the first line of a board brought to a new channel by /schotten board.
    return fill(_("Game #{id} lost its channel, so it goes on here."), id=info.id)


# Discord's codes for a channel that is gone or out of the bot's sight.
CHANNEL_GONE = (10003, 50001)
MISSING_PERMISSIONS = 50013
THREAD_LOCKED = 160005  # a moderator locked the game's thread


def board_refused(info: MatchInfo, code: int) -> str:
    """A DM to each player when Discord refused a board of their game for good."""
    if code in CHANNEL_GONE:
        # TRANSLATORS: sent by DM; {channel} is a link to the game's channel (or thread).
        text = _(
            "I cannot reach {channel} any more (it was deleted, or I can no longer see"
            " it), so the board of game #{id} cannot be posted there. The game goes on: your"
            " hand and its buttons come here, and {board} in any channel of the"
            " server moves the game there."
        )
    elif code == THREAD_LOCKED:
        # TRANSLATORS: sent by DM; {channel} is a link to the game's thread.
        text = _(
            "A moderator locked {channel}, so I can no longer post the board of game #{id}"
            " there. The game goes on: your hand and its buttons come here, and {board} in"
            " another channel of the server moves the game there."
        )
    elif code == MISSING_PERMISSIONS:
        text = _(
            "I am no longer allowed to post in {channel}, so the board of game #{id}"
            " cannot be shown there. The game goes on: your hand and its buttons come here,"
            " and {board} there still shows you the board. A server manager can"
            " give me back Send Messages, Send Messages in Threads, Attach Files and Embed"
            " Links in that channel."
        )
    else:
        # TRANSLATORS: {code} is Discord's error number.
        text = _(
            "Discord refused the board of game #{id} in {channel} (error {code}). The game"
            " goes on: your hand and its buttons come here, and {board} shows the"
            " board."
        )
    # TRANSLATORS (above): {board} is the command /schotten board (a mention in English; in French
    # and German its localised name, as code).
    link = jump_link(info.guild_id, info.channel_id)  # a DM: a <#id> mention would not open
    return fill(text, channel=link, id=info.id, code=code, board=mention("board"))


def _challenged(info: ChallengeInfo) -> Member:
    """The member a challenge was made to, or who took it: these texts are never of an open
    challenge nobody has taken (None)."""
    assert info.opponent is not None
    return info.opponent


def challenge_text(info: ChallengeInfo) -> str:
    # TRANSLATORS: {challenge} is "Alice challenges Bob to Schotten Totten, Tactics";
    # <t:{expires}:R> is shown by Discord as "in 10 minutes"; {accept} is the command
    # /schotten accept (a mention in English; in French and German its localised name, as code).
    text = fill(
        _(
            "<@{user}>: {challenge}! Accept or decline below (or {accept})."
            " The challenge expires <t:{expires}:R>."
        ),
        user=_challenged(info).id,
        challenge=localise(info.describe()),
        expires=int(info.expires_at),
        accept=mention("accept"),
    )
    return f"{text}\n{game_clock_words.clock_line(info.clock_hours)}"


def computer_game(info: ChallengeInfo) -> str:
    text = fill(
        _("{challenge}. The computer is ready: good luck!"), challenge=localise(info.describe())
    )
    return f"{text}\n{game_clock_words.clock_line(info.clock_hours)}"


def accepted(info: ChallengeInfo, thread: str | None = None) -> str:
    """The challenge message once accepted; `thread`: the mention of the game's thread."""
    challenge = localise(info.describe())
    if thread is not None:
        return fill(
            _("{player} accepted: {challenge}. The game is on in {thread}!"),
            player=_challenged(info).name,
            challenge=challenge,
            thread=thread,
        )
    return fill(
        _("{player} accepted: {challenge}. The game is on!"),
        player=_challenged(info).name,
        challenge=challenge,
    )


def declined(info: ChallengeInfo) -> str:
    return fill(
        _("{player} declined: {challenge}."),
        player=_challenged(info).name,
        challenge=localise(info.describe()),
    )


def expired(info: ChallengeInfo) -> str:
    return fill(
        _("{challenge}: nobody answered in time, so the challenge has expired."),
        challenge=localise(info.describe()),
    )


def started(info: MatchInfo) -> str:
    return fill(
        _("The game begins: {first} against {second}."), first=info.names[0], second=info.names[1]
    )


def thread_name(info: ChallengeInfo) -> str:
    # TRANSLATORS: the name of a game's thread: "Alice vs Bob", "Alice vs Computer".
    if info.ai_level:
        name = fill(_("{challenger} vs Computer"), challenger=info.challenger.name)
    else:
        name = fill(
            _("{challenger} vs {opponent}"),
            challenger=info.challenger.name,
            opponent=_challenged(info).name,
        )
    return name[:90]


def reminder(r: Reminder) -> str:
    waited = game_clock_words.duration(r.waiting_hours * 3600)
    if r.forfeit_in_hours is not None:
        # TRANSLATORS: {waited} and {left} are lengths of time, e.g. "1 day 1 h", "20 min".
        return fill(
            _(
                "<@{user}>, game #{id} has been waiting for your move for {waited}."
                " The game is lost on time in {left}."
            ),
            user=r.user_id,
            id=r.match_id,
            waited=waited,
            left=game_clock_words.duration(r.forfeit_in_hours * 3600),
        )
    return fill(
        _("<@{user}>, game #{id} has been waiting for your move for {waited}."),
        user=r.user_id,
        id=r.match_id,
        waited=waited,
    )


def rating_lines(info: MatchInfo, changes: Sequence[RatingChange]) -> list[str]:
    """The ratings line of a finished game's board."""
    if not info.is_over:
        return []
    names = dict(zip(info.players, info.names, strict=True))
    shown = [localise(c.describe(names[c.user_id])) for c in changes]
    if not shown:
        if info.ai_seat is not None:
            return [_("Games against the computer do not change ratings.")]
        return []
    # TRANSLATORS: {changes} is a list like "Alice: 1032 (+32), Bob: 968 (-32)".
    return [fill(_("Ratings: {changes}"), changes=", ".join(shown))]


def what_you_did(result: MoveResult) -> str:
    """The mover's own reply: what their move did, said to them ("You drew a tactic card.",
    "You played R7 on stone 3."), then how the game ended if it did. In the current
    language (the mover's)."""
    info = result.info
    said: list[str] = []
    events = list(result.events)
    while events:
        event = events.pop(0)
        # Cards drawn together (the Recruiter's three) are counted once, not told one by one.
        if isinstance(event, CardDrawn) and event.player == result.seat:
            count = 1
            while events and events[0] == event:
                events.pop(0)
                count += 1
            if count > 1:
                said.append(_drawn_together(event.deck, count))
                continue
        said.append(localise(event.describe(info.names, you=result.seat)))
    return " ".join(said) or fill(_("You played `{move}`."), move=result.text)


def _drawn_together(deck: str, count: int) -> str:
    # A call per deck, each with its literal sentences: the extractor reads ngettext's arguments.
    if deck == "clan":
        return fill(
            ngettext("You drew {count} clan card.", "You drew {count} clan cards.", count),
            count=count,
        )
    if deck == "tactic":
        return fill(
            ngettext("You drew {count} tactic card.", "You drew {count} tactic cards.", count),
            count=count,
        )
    return fill(
        ngettext("You drew {count} siege card.", "You drew {count} siege cards.", count),
        count=count,
    )
