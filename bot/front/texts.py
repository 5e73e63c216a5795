"""The words the bot says. Kept in one place so the voice stays the same everywhere."""

from __future__ import annotations

from collections.abc import Sequence

from bot.records import ChallengeInfo, MatchInfo, MoveResult, RatingChange, Reminder
from bot.wording import plural
from engine.api import Playable
from engine.st2.match import Match as St2Match


def _who(info: MatchInfo, seat: int) -> str:
    name = info.names[seat]
    if info.spec.game == "st2":
        attacker = info.match.view(None).attacker
        return f"{name} ({'Attacker' if seat == attacker else 'Defender'})"
    return name


def turn_line(info: MatchInfo) -> str:
    outcome = info.match.outcome
    if outcome is not None:
        why = outcome.termination.value
        if outcome.winner is None:
            return f"**The game is drawn** ({why})."
        return f"🏆 **{info.names[outcome.winner]} wins** ({why})."
    seat = info.to_decide
    if seat is None:
        return ""
    if info.ai_seat == seat:
        return f"**{info.names[seat]}** is thinking…"
    return f"**{_who(info, seat)}** {phase_words(info.match.view(None).phase)}."


# What the player the game waits for is doing, in the words of the picture's badge
# (render/words.py _PHASE_BADGES), so that the text and the picture agree.
_PHASE_WORDS = {
    "play": "to play",
    "claim": "claiming: claim stones, or end the turn",
    "draw": "to draw",
    "recruit-draw": "playing the Recruiter: to draw",
    "recruit-return": "playing the Recruiter: to return two cards",
    "prepare": "to move",
    "after-play": "may control a tile, or end the turn",
    "exchange": "in the Exchange: to give cards",
}


def phase_words(phase: str) -> str:
    return _PHASE_WORDS.get(phase, "to move")


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
        return (
            f"To beat: {names[winner]} took the wall in game 1 with"
            f" {plural(left, 'card')} left in the deck; {other} wins the match by taking it"
            f" with more than {left} left ({left} exactly: a draw)."
        )
    held = first.defender_score
    return (
        f"To beat: {names[winner]} held the wall in game 1 with {held} intact tiles and unused"
        f" cauldrons; {other} wins the match by holding it with more than {held}"
        f" ({held} exactly: a draw)."
    )


def board_caption(info: MatchInfo, lines: Sequence[str]) -> str:
    a, b = (_who(info, 0), _who(info, 1))
    head = f"**{info.spec.describe()}** · {a} vs {b} · game #{info.id}"
    if info.spec.revenge:
        head = "\n".join(p for p in (head, revenge_line(info.match, info.names)) if p)
    body = "\n".join(f"• {line}" for line in lines if line)
    return "\n".join(part for part in (head, body, turn_line(info)) if part)[:2000]


def hand_caption(info: MatchInfo, seat: int, note: str = "") -> str:
    opponent = info.names[1 - seat]
    where = f"<#{info.channel_id}>"
    if info.is_over:
        state = turn_line(info)
    elif info.to_decide == seat:
        state = "**Your move.** Choose below, or type `/schotten move`."
    else:
        state = f"Waiting for {opponent}."
    parts = [note, f"Your hand in game #{info.id} against {opponent} ({where}). {state}"]
    return "\n".join(p for p in parts if p)


def hand_moved_on(info: MatchInfo) -> str:
    return (
        f"This hand of game #{info.id} is from an earlier position: you have moved since."
        " Your current hand comes in a newer message, or use **Show my hand** on the board."
    )


def dm_failed(user_id: int) -> str:
    return (
        f"<@{user_id}>, it is your move, but I cannot send you direct messages. For the rest"
        " of this game, use the **Show my hand** button on the board to see your hand"
        " privately; I will not repeat this notice."
    )


def challenge_text(info: ChallengeInfo) -> str:
    return (
        f"<@{info.opponent.id}>: {info.describe()}! Accept or decline below (or"
        f" `/schotten accept`). The challenge expires <t:{int(info.expires_at)}:R>."
    )


def computer_game(info: ChallengeInfo) -> str:
    return f"{info.describe()}. The computer is ready: good luck!"


def accepted(info: ChallengeInfo, where: str) -> str:
    return f"{info.opponent.name} accepted: {info.describe()}. The game is on{where}!"


def declined(info: ChallengeInfo) -> str:
    return f"{info.opponent.name} declined: {info.describe()}."


def expired(info: ChallengeInfo) -> str:
    return f"{info.describe()}: nobody answered in time, so the challenge has expired."


def started(info: MatchInfo) -> str:
    return f"The game begins: {info.names[0]} against {info.names[1]}."


def thread_name(info: ChallengeInfo) -> str:
    against = "Computer" if info.ai_level else info.opponent.name
    return f"{info.challenger.name} vs {against}"[:90]


def reminder(r: Reminder) -> str:
    hours = round(r.waiting_hours)
    tail = ""
    if r.forfeit_in_hours is not None:
        tail = f" The game is forfeited on time in about {max(1, round(r.forfeit_in_hours))} h."
    return f"<@{r.user_id}>, game #{r.match_id} has been waiting for your move for {hours} h.{tail}"


def rating_lines(info: MatchInfo, changes: Sequence[RatingChange]) -> list[str]:
    """The ratings line of a finished game's board."""
    if not info.is_over:
        return []
    names = dict(zip(info.players, info.names, strict=True))
    shown = [c.describe(names[c.user_id]) for c in changes]
    if not shown:
        if info.ai_seat is not None:
            return ["Games against the computer do not change ratings."]
        return []
    return ["Ratings: " + ", ".join(shown)]


def what_you_did(result: MoveResult) -> str:
    """The mover's own reply: what their move did, said to them ("You drew a tactic card.",
    "You played R7 on stone 3."), then how the game ended if it did."""
    info = result.info
    names = list(info.names)
    names[result.seat] = "You"
    said = []
    for event in result.events:
        if event.kind == "GameEnded":
            said.append(event.describe(info.names))
            continue
        line = event.describe(names)
        # Events speak of a player in the third person; "You" needs the plural verb.
        for third, second in (
            ("You passes", "You pass"),
            ("and passes", "and pass"),
            ("You's", "your"),
            ("won by You, who completed their side first", "won by you: you completed first"),
        ):
            line = line.replace(third, second)
        said.append(line)
    return " ".join(said) or f"You played `{result.text}`."
