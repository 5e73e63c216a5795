"""Game service figures: random legal moves through the service on 50 games at once, with
SQLite on disk, in one process (as the bot runs).

`service_moves_per_s` is the throughput with all 50 games moving as fast as they can.
`service_move_p95_ms` is the time one move takes while the 50 games make moves at a steady
300 per second between them (the throughput target, and far more than Discord lets one bot
answer): with every game moving flat out, a move's time would be mostly its wait in line.
Each move also writes its announcements (the outbox), as in the bot.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from benchmarks.timing import figure
from bot.clock import ManualClock
from bot.records import Member
from bot.service import GameService
from engine.api import MatchSpec

GAMES = 50
MOVES_PER_GAME = 24
VARIANTS = ["classic", "tactics", "expert", "siege", "siege-tactics"]


async def _one_run(path: Path, synchronous: str) -> tuple[float, list[float]]:
    seeds = iter(range(1, 10**6))
    service = await GameService.open(
        path, clock=ManualClock(), seeds=lambda: next(seeds), synchronous=synchronous
    )
    try:
        ids = []
        for g in range(GAMES):
            a, b = Member(2 * g + 1, f"p{2 * g + 1}"), Member(2 * g + 2, f"p{2 * g + 2}")
            spec = MatchSpec(VARIANTS[g % len(VARIANTS)])
            ch = await service.challenge(1, 1000 + g, a, b, spec)
            ids.append((await service.accept(ch.id, b.id)).id)
        latencies: list[float] = []

        async def player(match_id: int, rng: random.Random) -> None:
            for _ in range(MOVES_PER_GAME):
                info = await service.match(match_id)
                if info.is_over:
                    return
                seat = info.match.to_decide
                move = str(rng.choice(info.match.legal_moves()))
                start = time.perf_counter()
                await service.play(match_id, info.players[seat], move)
                latencies.append(time.perf_counter() - start)

        start = time.perf_counter()
        await asyncio.gather(*(player(m, random.Random(m)) for m in ids))
        elapsed = time.perf_counter() - start
        rate = len(latencies) / elapsed

        # Paced: each game moves every GAMES / PACE seconds, the games evenly staggered.
        paced: list[float] = []
        period = GAMES / PACE

        async def paced_player(index: int, match_id: int, rng: random.Random) -> None:
            await asyncio.sleep(index * period / GAMES)
            for _ in range(PACED_MOVES):
                tick = time.perf_counter()
                info = await service.match(match_id)
                if info.is_over:
                    return
                seat = info.match.to_decide
                move = str(rng.choice(info.match.legal_moves()))
                start = time.perf_counter()
                await service.play(match_id, info.players[seat], move)
                paced.append(time.perf_counter() - start)
                await asyncio.sleep(max(0.0, period - (time.perf_counter() - tick)))

        await asyncio.gather(*(paced_player(i, m, random.Random(m + 1)) for i, m in enumerate(ids)))
        return rate, paced
    finally:
        await service.close()


PACE = 300  # moves per second, all games together
PACED_MOVES = 10


def run() -> Iterator[str]:
    """Both durability levels, runs interleaved so that the machine's load falls on both:
    FULL (the default: a commit is on disk before it returns) and NORMAL (`_sync_normal`)."""
    rates: dict[str, list[float]] = {"full": [], "normal": []}
    p95s: dict[str, list[float]] = {"full": [], "normal": []}
    for i in range(3):
        for synchronous in ("full", "normal"):
            with tempfile.TemporaryDirectory() as d:
                path = Path(d) / f"bench{i}.sqlite3"
                rate, latencies = asyncio.run(_one_run(path, synchronous))
            rates[synchronous].append(rate)
            p95s[synchronous].append(statistics.quantiles(latencies, n=20)[-1] * 1000)
    for synchronous, suffix in (("full", ""), ("normal", "_sync_normal")):
        yield figure(
            f"service_moves_per_s{suffix}", statistics.median(rates[synchronous]), "moves/s"
        )
        yield figure(f"service_move_p95_ms{suffix}", statistics.median(p95s[synchronous]), "ms")
