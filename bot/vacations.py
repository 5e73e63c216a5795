"""Members' vacations: while one runs, the member's clocks stop in every game they play on
that server, tournament games apart (bot/game_clock.py says how the deadlines move).

A vacation starts now and lasts a number of whole days; the member may end it early. A
server allows `Settings.vacation_days` days a year: each vacation uses every day it began
(a vacation ended after 30 hours used 2), counted in the calendar year (UTC) it started
in. Each start and end is one transaction under the member's lock, so two requests at
once cannot both start a vacation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from bot.errors import Refused
from bot.game_clock import DAY, vacation_days_used
from bot.store import Row, Store
from bot.time_source import Clock
from engine.phrases import say, say_n
from lang import command


@dataclass(frozen=True, slots=True)
class VacationStatus:
    """A member's vacation on a server: the end of the one under way (None: not on
    vacation), and this year's days used and allowed."""

    until: float | None
    used: int
    allowed: int

    @property
    def left(self) -> int:
        return max(0, self.allowed - self.used)


def year_start(t: float) -> float:
    """The first instant (UTC) of the calendar year of `t`."""
    year = datetime.fromtimestamp(t, UTC).year
    return datetime(year, 1, 1, tzinfo=UTC).timestamp()


class Vacations:
    def __init__(self, store: Store, clock: Clock) -> None:
        self.store = store
        self.clock = clock

    async def status(self, guild_id: int, user_id: int) -> VacationStatus:
        now = self.clock.now()
        allowed = (await self.store.settings(guild_id)).vacation_days
        async with self.store.transaction() as tx:
            rows = await self.store.vacations_in(tx, guild_id, user_id, year_start(now))
        return _status(rows, now, allowed)

    async def start(self, guild_id: int, user_id: int, days: int) -> VacationStatus:
        """Start a vacation of `days` days now. Refused: vacations off on this server, a
        vacation already under way, fewer days left this year."""
        allowed = (await self.store.settings(guild_id)).vacation_days
        if allowed <= 0:
            raise Refused(say("This server allows no vacation."))
        if days < 1 or days != int(days):
            raise Refused(say("A vacation lasts a whole number of days, at least 1."))
        async with self.store.transaction() as tx:
            await self.store.lock_vacations(tx, guild_id, user_id)
            now = self.clock.now()
            rows = await self.store.vacations_in(tx, guild_id, user_id, year_start(now))
            before = _status(rows, now, allowed)
            if before.until is not None:
                until = f"<t:{int(before.until)}:f>"
                raise Refused(
                    # TRANSLATORS: {until} is a date Discord shows in the reader's own time
                    # zone; {end} the command /schotten vacation end (a mention in English; in
                    # French and German its localised name, as code).
                    say(
                        "You are already on vacation until {until}; to change it, end it first"
                        " with {end}.",
                        until=until,
                        end=command("vacation end"),
                    )
                )
            if days > before.left:
                if before.left == 0:
                    raise Refused(
                        say(
                            "You have used all your vacation for this year: this server allows"
                            " {allowed} days a year.",
                            allowed=allowed,
                        )
                    )
                raise Refused(
                    say_n(
                        "You have {count} day of vacation left this year (this server allows"
                        " {allowed} a year): ask for {count} day or fewer.",
                        "You have {count} days of vacation left this year (this server allows"
                        " {allowed} a year): ask for {count} days or fewer.",
                        before.left,
                        allowed=allowed,
                    )
                )
            await self.store.add_vacation(tx, guild_id, user_id, now, now + days * DAY)
        return VacationStatus(now + days * DAY, before.used + days, allowed)

    async def end(self, guild_id: int, user_id: int) -> VacationStatus:
        """End the vacation under way now: the clocks run again from now on, and only the
        days begun count against this year's allowance."""
        allowed = (await self.store.settings(guild_id)).vacation_days
        async with self.store.transaction() as tx:
            await self.store.lock_vacations(tx, guild_id, user_id)
            now = self.clock.now()
            rows = await self.store.vacations_in(tx, guild_id, user_id, year_start(now))
            under_way = [r for r in rows if r["starts_at"] <= now < r["ends_at"]]
            if not under_way:
                raise Refused(say("You are not on vacation."))
            for r in under_way:
                await self.store.end_vacation(tx, r["id"], now)
            rows = await self.store.vacations_in(tx, guild_id, user_id, year_start(now))
        return _status(rows, now, allowed)


def _status(rows: Sequence[Row], now: float, allowed: int) -> VacationStatus:
    """From a member's vacations of this year (and one under way since last year)."""
    first = year_start(now)
    used = 0
    until = None
    for r in rows:
        start, end = r["starts_at"], r["ends_at"]
        if start <= now < end:
            until = end
        if start >= first:
            # A vacation under way uses the days it will take, unless ended early.
            used += vacation_days_used(end - start)
    return VacationStatus(until, used, allowed)
