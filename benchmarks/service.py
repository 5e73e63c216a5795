"""Game service figures: random legal moves through the service on 50 games at once, with
SQLite on disk, in one process (as the bot runs).

`service_moves_per_s` is the throughput with all 50 games moving as fast as they can.
`service_move_p95_ms` is the time one move takes while the 50 games make moves at a steady
300 per second between them (the throughput target, and far more than Discord lets one bot
answer): with every game moving flat out, a move's time would be mostly its wait in line.
Each move also writes its announcements (the outbox), as in the bot.

The load itself (`start_games`, `flat_out`, `paced`, `one_run`) takes any database that
`GameService.open` does; `benchmarks/service_pg.py` runs it on PostgreSQL.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from benchmarks.timing import figure
from bot.records import Member
from bot.service import GameService
from bot.time_source import ManualClock
from engine.api import MatchSpec

GAMES = 50
MOVES_PER_GAME = 24
VARIANTS = ["classic", "tactics", "expert", "siege", "siege-tactics"]
PACE = 300  # moves per second, all games together
PACED_MOVES = 10


async def open_service(database: str | Path, **options: Any) -> GameService:
    """A service on `database` whose new matches get the seeds 1, 2, 3... (the same games
    on every database)."""
    seeds = iter(range(1, 10**6))
    return await GameService.open(
        database, clock=ManualClock(), seeds=lambda: next(seeds), **options
    )


async def start_games(service: GameService) -> list[int]:
    """The 50 matches, challenged and accepted in order: their ids."""
    ids = []
    for g in range(GAMES):
        a, b = Member(2 * g + 1, f"p{2 * g + 1}"), Member(2 * g + 2, f"p{2 * g + 2}")
        spec = MatchSpec(VARIANTS[g % len(VARIANTS)])
        ch = await service.challenge(1, 1000 + g, a, b, spec)
        ids.append((await service.accept(ch.id, b.id)).id)
    return ids


async def random_move(service: GameService, match_id: int, rng: random.Random) -> float | None:
    """One random legal move in this game: the seconds `play` took, or None if it is over.
    As the bot's `/schotten move` does, the game is read and then played as read."""
    info = await service.match(match_id)
    if info.is_over:
        return None
    seat = info.match.to_decide
    move = str(rng.choice(info.match.legal_moves()))
    start = time.perf_counter()
    await service.play(match_id, info.players[seat], move, info=info)
    return time.perf_counter() - start


async def flat_out(service: GameService, ids: list[int]) -> tuple[int, float]:
    """These games each make up to MOVES_PER_GAME random legal moves as fast as they can,
    all at once: (moves made, seconds taken)."""
    latencies: list[float] = []

    async def player(match_id: int, rng: random.Random) -> None:
        for _ in range(MOVES_PER_GAME):
            took = await random_move(service, match_id, rng)
            if took is None:
                return
            latencies.append(took)

    start = time.perf_counter()
    await asyncio.gather(*(player(m, random.Random(m)) for m in ids))
    return len(latencies), time.perf_counter() - start


async def paced(service: GameService, ids: list[int]) -> list[float]:
    """Each game moves every GAMES / PACE seconds, the games evenly staggered: every move's
    time in seconds."""
    times: list[float] = []
    period = GAMES / PACE

    async def paced_player(index: int, match_id: int, rng: random.Random) -> None:
        await asyncio.sleep(index * period / GAMES)
        for _ in range(PACED_MOVES):
            tick = time.perf_counter()
            took = await random_move(service, match_id, rng)
            if took is None:
                return
            times.append(took)
            await asyncio.sleep(max(0.0, period - (time.perf_counter() - tick)))

    await asyncio.gather(*(paced_player(i, m, random.Random(m + 1)) for i, m in enumerate(ids)))
    return times


async def one_run(database: str | Path, **options: Any) -> tuple[float, list[float]]:
    """The 50 games on a new database, flat out then paced: (moves per second, the paced
    moves' times). `options` go to `GameService.open`."""
    service = await open_service(database, **options)
    try:
        ids = await start_games(service)
        moves, elapsed = await flat_out(service, ids)
        return moves / elapsed, await paced(service, ids)
    finally:
        await service.close()


def p95_ms(times: list[float]) -> float:
    return statistics.quantiles(times, n=20)[-1] * 1000


def run() -> Iterator[str]:
    """Both durability levels, runs interleaved so that the machine's load falls on both:
    FULL (the default: a commit is on disk before it returns) and NORMAL (`_sync_normal`)."""
    rates: dict[str, list[float]] = {"full": [], "normal": []}
    p95s: dict[str, list[float]] = {"full": [], "normal": []}
    for i in range(3):
        for synchronous in ("full", "normal"):
            with tempfile.TemporaryDirectory() as d:
                path = Path(d) / f"bench{i}.sqlite3"
                rate, latencies = asyncio.run(one_run(path, synchronous=synchronous))
            rates[synchronous].append(rate)
            p95s[synchronous].append(p95_ms(latencies))
    for synchronous, suffix in (("full", ""), ("normal", "_sync_normal")):
        yield figure(
            f"service_moves_per_s{suffix}", statistics.median(rates[synchronous]), "moves/s"
        )
        yield figure(f"service_move_p95_ms{suffix}", statistics.median(p95s[synchronous]), "ms")
