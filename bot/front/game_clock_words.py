"""A game's clock in words (bot/game_clock.py): durations ("2 days 3 h"), the time per move of
a challenge ("1 day per move"), and the lines of a board and of a hand: the time left to
the player to move, and who is on vacation. In the current language."""

from __future__ import annotations

from bot import durations
from bot.records import MatchInfo
from lang import _, fill, localise, ngettext


def duration(seconds: float) -> str:
    """A length of time as members read it ("2 days 3 h", "5 h 20 min", "20 min"; bot/durations.py
    says it), to the nearest minute: a board posted a moment after the move that started the
    clock shows the whole clock ("1 h"), not "59 min"."""
    return localise(durations.duration(round(max(0.0, seconds) / 60) * 60))


def per_move(clock_hours: float | None) -> str:
    """A challenge's clock: "1 day per move", "12 hours per move", or no time limit."""
    if clock_hours is None or clock_hours <= 0:
        return _("no time limit per move")
    if clock_hours % 24 == 0:
        days = int(clock_hours // 24)
        return fill(ngettext("{count} day per move", "{count} days per move", days), count=days)
    if clock_hours == int(clock_hours):
        hours = int(clock_hours)
        return fill(ngettext("{count} hour per move", "{count} hours per move", hours), count=hours)
    # TRANSLATORS: {time} is a length of time such as "1 h 30 min".
    return fill(_("{time} per move"), time=duration(clock_hours * 3600))


def clock_line(clock_hours: float | None) -> str:
    """The challenge's line about its clock."""
    return f"⏱ {per_move(clock_hours)}"


def _until(t: float) -> str:
    """A date and time that Discord shows in the reader's own time zone and language."""
    return f"<t:{int(t)}:f>"


def away_lines(info: MatchInfo, *, skip: int | None = None) -> list[str]:
    """A line for each player on vacation (but `skip`'s seat): their clock is stopped."""
    timing = info.timing
    if timing is None or info.is_over:
        return []
    lines = []
    for seat, until in enumerate(timing.away):
        if until is None or seat == skip:
            continue
        # TRANSLATORS: {until} is a date Discord shows in the reader's own time zone.
        text = _("🌴 {player} is on vacation until {until}: their clock is stopped.")
        lines.append(fill(text, player=info.names[seat], until=_until(until)))
    return lines


def board_lines(info: MatchInfo) -> list[str]:
    """The board's lines under whose turn it is: the time left on the clock of the player
    to move, and who is on vacation."""
    timing = info.timing
    if timing is None or info.is_over:
        return []
    lines = []
    if timing.left is not None:
        if timing.stopped:
            # TRANSLATORS: {time} is e.g. "2 days 3 h"; the clock of the player to move.
            text = _("⏸ {time} left on the clock, stopped.")
        else:
            # TRANSLATORS: {time} is e.g. "2 days 3 h"; the clock of the player to move.
            text = _("⏱ {time} left on the clock.")
        lines.append(fill(text, time=duration(timing.left)))
    return lines + away_lines(info)


def hand_lines(info: MatchInfo, seat: int) -> list[str]:
    """The hand's lines for the player in `seat`: their own time left when it is their
    move, and the opponent's vacation."""
    timing = info.timing
    if timing is None or info.is_over:
        return []
    lines = []
    if timing.left is not None and info.to_decide == seat:
        if timing.stopped:
            text = _("⏸ You have {time} left to move; your clock is stopped while you are away.")
        else:
            # TRANSLATORS: {time} is e.g. "2 days 3 h".
            text = _("⏱ You have {time} left to move.")
        lines.append(fill(text, time=duration(timing.left)))
    return lines + away_lines(info, skip=seat)
