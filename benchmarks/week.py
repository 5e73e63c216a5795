"""A week on two servers, simulated (issue 38): the real bot (discord.py, in this process)
on the loopback Discord, its clock and the loopback's advanced together through seven days
of 40 members, 60 games and a Swiss tournament, with closed DMs, an archived and a locked
thread, Send Messages taken and given back, members leaving, a two-hour Discord outage and
the bot removed from one server on day 5 (benchmarks/week_scenario.py plays it).

`python -m benchmarks week` runs it on a SQLite file; `python -m benchmarks week --store
postgresql` (or `WEEK_STORE=postgresql`) on a throwaway PostgreSQL cluster (tests/pg_cluster.py).

- `week_stalled_games`: games under way at the end whose next announcement is overdue (an
  outbox row still pending `OVERDUE` after it was written), or whose clock ran out without
  the forfeit being applied (servers the bot was removed from aside: it owes them nothing).
- `week_lost_announcements`: outbox rows given up (not pending, sent or skipped) for a
  failure that could pass, i.e. anything but a refusal that cannot: the relay's set-aside
  4xx (`refused 4xx/...`, 429 excepted), closed DMs, an unknown message, a server the bot
  was removed from.
- `week_orphan_threads`: threads the bot created that hold no game.
- `week_invalid_requests_per_10min_max`: the most 401/403/429 answers in any 10 minutes of
  the week's clock (emu.invalid_requests; Discord bans at 10,000, the target is 1% of it).
- `week_requests_per_move`: REST requests the bot sent (interaction callbacks included)
  per move the members played.
- `week_games_finished`: games that ended (played out, resigned, on time, abandoned).
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from benchmarks.timing import figure
from benchmarks.week_scenario import Table, Week, WeekPlan
from bot.sandbox import running_bot
from bot.service import GameService
from bot.store import DMS_CLOSED
from bot.time_source import ManualClock
from discord_loopback import Emulator
from discord_loopback.ratelimits import route_of

OVERDUE = 15 * 60.0  # an announcement pending longer than this after it was written
WINDOW = 600.0  # Discord's Invalid Request Limit counts 10 minutes
# A relay's set-aside refusal: "refused STATUS/CODE route: text" (bot/front/relay.py).
REFUSED = re.compile(r"^refused (4\d\d)/")
UNKNOWN_MESSAGE = "(error code: 10008)"
# What the store writes on what a server owed once the bot was removed from it.
REMOVED = "removed from the server"
STORE_VARIABLE = "WEEK_STORE"


def cannot_pass(error: str | None) -> bool:
    """Whether an announcement set aside with this error was refused for good: a 4xx other
    than 429 (the relay's own verdict), closed DMs, a message deleted meanwhile, a server
    the bot was removed from."""
    text = error or ""
    found = REFUSED.match(text)
    if found:
        return found.group(1) != "429"
    if text == DMS_CLOSED or "DMs are closed" in text:
        return True
    return UNKNOWN_MESSAGE in text or REMOVED in text


async def lost_announcements(service: GameService) -> list[str]:
    """Outbox rows ended for a failure that could pass: "kind: error" of each (the store
    has no listing of ended rows by status: this one read-only query)."""
    rows = await service.store._all(
        "SELECT kind, status, error FROM outbox WHERE status NOT IN ('pending', 'sent', 'skipped')"
    )
    return [f"{r['kind']}: {r['error']}" for r in rows if not cannot_pass(r["error"])]


async def stalled_games(
    service: GameService, tables: Sequence[Table], removed_guilds: set[int]
) -> int:
    """Games under way with an announcement overdue, or a clock run out unapplied."""
    now = service.clock.now()
    stalled = 0
    for table in tables:
        info = await service.match(table.match_id)
        if info.status != "active":
            continue
        pending = await service.store.pending_announcements(float("inf"), info.id)
        late = any(now - r["created_at"] > OVERDUE for r in pending)
        if not late and info.guild_id not in removed_guilds:
            timing = await service.timing(info)
            late = timing.left is not None and not timing.stopped and timing.left < -OVERDUE
        stalled += late
    return stalled


async def orphan_threads(emu: Emulator, service: GameService) -> int:
    """Threads the bot created (and did not delete) in which no game was ever played."""
    bot_id = emu.bot.id
    threads = [c for c in emu.world.channels.values() if c.is_thread and c.owner_id == bot_id]
    return sum([await service.last_match(t.id) is None for t in threads])


def invalid_per_window_max(times: Sequence[float], window: float = WINDOW) -> int:
    """The most of these instants within any `window` seconds."""
    ordered = sorted(times)
    most, first = 0, 0
    for last, t in enumerate(ordered):
        while t - ordered[first] >= window:
            first += 1
        most = max(most, last - first + 1)
    return most


def requests_by_route(emu: Emulator) -> Counter[str]:
    """The bot's REST requests by route template and answer ("POST /channels/{channel_id}
    /messages 200"): where the requests per move go."""
    counted: Counter[str] = Counter()
    for r in emu.requests:
        if r.path.startswith("/api/"):
            route = route_of(r.method, r.path.removeprefix("/api/v10"))[0]
            counted[f"{route} {r.status}"] += 1
    return counted


def bot_requests(emu: Emulator) -> int:
    """REST requests the bot sent (the members act inside the loopback, not over HTTP)."""
    return sum(1 for r in emu.requests if r.path.startswith("/api/"))


async def games_finished(service: GameService, tables: Sequence[Table]) -> int:
    """Games that ended: played out, resigned, lost on time, or abandoned (by the status;
    an abandoned game's rules never reached their end)."""
    return sum([(await service.match(t.match_id)).status != "active" for t in tables])


async def count(week: Week, service: GameService, emu: Emulator) -> dict[str, Any]:
    """Every figure, read from the bot's database and the loopback's records (the lost
    announcements' reasons join the week's troubles)."""
    tables = list(week.tables.values())
    lost = await lost_announcements(service)
    week.troubles += [f"lost {reason}"[:300] for reason in lost]
    return {
        "week_stalled_games": await stalled_games(service, tables, week.removed),
        "week_lost_announcements": len(lost),
        "week_orphan_threads": await orphan_threads(emu, service),
        "week_invalid_requests_per_10min_max": invalid_per_window_max(
            [r.time for r in emu.invalid_requests]
        ),
        "week_requests_per_move": bot_requests(emu) / max(1, week.moves),
        "week_games_finished": await games_finished(service, tables),
        "week_games": len(tables),
        "week_moves": week.moves,
        # The outage's 503s and the refusals the bot met (the events did happen).
        "week_outage_answers": sum(1 for r in emu.requests if r.status == 503),
        "week_invalid_requests": len(emu.invalid_requests),
        "routes": requests_by_route(emu),
    }


async def run_week(plan: WeekPlan, database: Path | str) -> dict[str, Any]:
    """The whole week on `database` (a SQLite file or a PostgreSQL URL): its figures
    (`counts`), what went wrong for the members (`troubles`) and the wall time it took."""
    for name in ("discord", "schotten.bot"):
        logging.getLogger(name).setLevel(logging.CRITICAL)
    wall = time.perf_counter()
    clock = ManualClock()
    async with Emulator(clock=clock.now) as emu, emu.point_discord():
        week = Week(plan, emu, clock)
        async with running_bot(emu, database, clock, seed=plan.seed) as bot:
            week.bot = bot
            week.service = bot.service
            await week.setup()
            await week.play()
            counts = await count(week, bot.service, emu)
    return {
        "counts": counts,
        "troubles": list(week.troubles),
        "missed": list(week.missed),
        "notes": list(week.notes),
        "wall_seconds": time.perf_counter() - wall,
    }


UNITS = {
    "week_stalled_games": "games",
    "week_lost_announcements": "announcements",
    "week_orphan_threads": "threads",
    "week_invalid_requests_per_10min_max": "requests",
    "week_requests_per_move": "requests",
    "week_games_finished": "games",
}


async def _on_postgresql(plan: WeekPlan) -> dict[str, Any]:
    from tests.pg_cluster import Cluster

    cluster = Cluster()
    try:
        await asyncio.to_thread(cluster.start)
        url = await cluster.create_database("week")
        return await run_week(plan, url)
    finally:
        await asyncio.to_thread(cluster.stop)


async def measure(plan: WeekPlan, store: str) -> dict[str, Any]:
    """The week on `store` ("sqlite" or "postgresql"): its figures and notes."""
    if store == "postgresql":
        return await _on_postgresql(plan)
    with tempfile.TemporaryDirectory() as tmp:
        return await run_week(plan, Path(tmp) / "week.sqlite3")


def run() -> Iterator[str]:
    store = os.environ.get(STORE_VARIABLE, "sqlite")
    found = asyncio.run(measure(WeekPlan(), store))
    counts = found["counts"]
    print(
        f"# week on {store}: {counts['week_games']} games, {counts['week_moves']} moves,"
        f" {counts['week_invalid_requests']} invalid requests in all,"
        f" {counts['week_outage_answers']} answered 503 during the outage,"
        f" {found['wall_seconds']:.0f} s of wall time; troubles: {len(found['troubles'])}",
        file=sys.stderr,
    )
    moves = max(1, counts["week_moves"])
    for route, n in counts["routes"].most_common(8):
        print(f"#   {n / moves:.3f} a move: {route}", file=sys.stderr)
    for trouble in found["troubles"][:10]:
        print(f"#   {trouble}", file=sys.stderr)
    for name, unit in UNITS.items():
        yield figure(name, counts[name], unit)
