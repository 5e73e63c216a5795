"""A game's clock and members' vacations, as pure functions of stored times.

A game with a clock (`matches.clock_hours`, chosen in the challenge) gives the player to
move that long for each decision: the reminder goes out once `REMINDER_SHARE` of it is
used, and the game is lost on time at its end. A game whose challenge chose none takes
the server's forfeit time as its clock (`matches.server_clock`) and is reminded after the
server's `reminder_hours`, as the settings say, if that comes before the forfeit. A game
without a clock (made before clocks existed, a tournament game, or one started while the
server had no forfeit on time) follows the server's `reminder_hours` and `forfeit_hours`.

A member on vacation has their clock stopped: time counts only outside their vacations
(`counted`), so every deadline moves by exactly the time spent on vacation (`deadline`).
Vacations are stored intervals, so the answer is the same in every process and after a
restart, and ending a vacation early moves the deadlines back by the time not taken.
Tournament games ignore vacations (their rounds have deadlines of their own).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

# The reminder goes out when this share of a game's clock is used: with the default
# 72-hour clock, after 24 hours, as the server's default reminder time did before clocks.
REMINDER_SHARE = 1 / 3
# The times per move a challenge offers, in hours.
CLOCK_CHOICES = (1, 12, 24, 72, 168)
# The longest and shortest clock a challenge may set (the server's forfeit time may be any
# number of hours from 12 to 720; a challenge chooses among CLOCK_CHOICES).
MIN_CLOCK_HOURS = 1.0
MAX_CLOCK_HOURS = 720.0
DAY = 86400.0

# A vacation, [start, end) in seconds since the epoch.
Pause = tuple[float, float]


def merged(pauses: Sequence[Pause]) -> list[Pause]:
    """The pauses in order, overlapping ones joined."""
    out: list[Pause] = []
    for start, end in sorted(pauses):
        if end <= start:
            continue
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def counted(since: float, until: float, pauses: Sequence[Pause]) -> float:
    """The seconds of [since, until) outside every pause: the time the clock ran."""
    if until <= since:
        return 0.0
    total = until - since
    for start, end in merged(pauses):
        overlap = min(end, until) - max(start, since)
        if overlap > 0:
            total -= overlap
    return total


def deadline(since: float, budget: float, pauses: Sequence[Pause]) -> float:
    """The instant at which the clock, started at `since`, has run `budget` seconds."""
    t, left = since, budget
    for start, end in merged(pauses):
        if end <= t:
            continue
        if start >= t + left:
            break
        left -= max(0.0, start - t)
        t = end
    return t + left


@dataclass(frozen=True, slots=True)
class Budgets:
    """When a waiting player is reminded and when they lose on time, in seconds of their
    clock (None: never)."""

    reminder: float | None
    forfeit: float | None


def budgets(
    clock_hours: float | None,
    reminder_hours: float,
    forfeit_hours: float,
    server_clock: bool = False,
) -> Budgets:
    """A game's budgets: from its own clock, or (None) from the server's settings. A clock
    that is the server's forfeit time (`server_clock`, none chosen) reminds after
    `reminder_hours`, or never if the forfeit comes first."""
    if clock_hours is not None and clock_hours > 0:
        seconds = clock_hours * 3600
        if server_clock:
            reminder = reminder_hours * 3600
            return Budgets(reminder if reminder < seconds else None, seconds)
        return Budgets(seconds * REMINDER_SHARE, seconds)
    forfeit = forfeit_hours * 3600 if forfeit_hours > 0 else None
    return Budgets(reminder_hours * 3600, forfeit)


@dataclass(frozen=True, slots=True)
class Timing:
    """A running game's clock as of `at`, for what the members read.

    `per_move`: seconds per decision (None: no forfeit on time). `left`: seconds left for
    the player to move (None: no clock, or the computer or nobody to move). `stopped`: that
    player is on vacation, so their clock does not run. `away`: for each seat, the end of
    the vacation under way (None: not on vacation)."""

    at: float
    per_move: float | None
    left: float | None
    stopped: bool = False
    away: tuple[float | None, float | None] = (None, None)


def vacation_days_used(length: float) -> int:
    """Days of a member's allowance a vacation of `length` seconds uses: every day begun."""
    whole = int(length // DAY)
    return whole + (1 if length - whole * DAY > 1e-6 else 0)
