"""Game service figures on PostgreSQL: the load of `benchmarks/service.py` (50 games making
random legal moves through the service, with their announcements) on a throwaway
PostgreSQL cluster that keeps PostgreSQL's own durability defaults (fsync and
synchronous_commit on: a commit is on disk before it returns, as in a real deployment).

`service_pg_moves_per_s` is the throughput of one process with all 50 games moving flat out;
`service_pg_move_p95_ms` one move's time while they make 300 moves/s between them.
`service_pg2_moves_per_s` is the flat-out load split over 2 processes (as shards would be),
each with its own service and connection pool on the same database playing 25 of the 50
games, started together: all their moves over the wall time from the first start to the
last finish. `service_pg2_speedup` is that over the one-process figure of the same run.

Every measurement gets a new database; runs alternate between one and two processes, so
that the machine's load falls on both, and each figure is the median of the runs. Without
PostgreSQL's server programs nothing is measured (one line on stderr says so).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import queue
import statistics
import sys
import time
import traceback
from collections.abc import Iterator
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Barrier

from benchmarks.service import flat_out, one_run, open_service, p95_ms, start_games
from benchmarks.timing import figure
from tests.pg_cluster import MISSING, Cluster, server_bin

RUNS = 3
PROCESSES = 2
# Seconds a worker may take to start, and the whole two-process run to finish.
START_TIMEOUT = 120
RUN_TIMEOUT = 300

# What a worker reports: (moves made, start, end) on the system-wide monotonic clock
# (CLOCK_MONOTONIC on Linux, the same in every process), or a traceback.
Report = tuple[int, float, float] | str


async def _prepare(url: str) -> list[int]:
    """Migrate a new database and start the 50 games on it: their ids."""
    service = await open_service(url)
    try:
        return await start_games(service)
    finally:
        await service.close()


async def _play_share(url: str, ids: list[int], barrier: Barrier) -> tuple[int, float, float]:
    service = await open_service(url)
    try:
        # Grow the pool to its size before the clock starts, as a running bot's has.
        await asyncio.gather(*(service.match(m) for m in ids))
        barrier.wait(START_TIMEOUT)  # blocks the loop, which has nothing else to do yet
        start = time.monotonic()
        moves, _ = await flat_out(service, ids)
        return moves, start, time.monotonic()
    finally:
        await service.close()


def _worker(url: str, ids: list[int], barrier: Barrier, reports: Queue[Report]) -> None:
    """One process's share of the flat-out load (run in a spawned process)."""
    try:
        reports.put(asyncio.run(_play_share(url, ids, barrier)))
    except BaseException:
        barrier.abort()  # the other process stops waiting
        reports.put(traceback.format_exc())


def _two_processes(url: str, ids: list[int]) -> float:
    """The flat-out load split over PROCESSES processes: moves per second of the whole."""
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(PROCESSES)
    reports: Queue[Report] = ctx.Queue()
    share = -(-len(ids) // PROCESSES)
    processes = [
        ctx.Process(target=_worker, args=(url, ids[i : i + share], barrier, reports))
        for i in range(0, len(ids), share)
    ]
    try:
        for p in processes:
            p.start()
        done: list[Report] = []
        deadline = time.monotonic() + RUN_TIMEOUT
        while len(done) < len(processes):
            try:
                done.append(reports.get(timeout=1))
            except queue.Empty:
                if time.monotonic() > deadline:
                    raise TimeoutError("the worker processes did not finish in time") from None
                if not any(p.is_alive() for p in processes) and reports.empty():
                    raise RuntimeError("a worker process died without a word") from None
        for p in processes:
            p.join(RUN_TIMEOUT)
    finally:
        for p in processes:
            if p.is_alive():
                p.terminate()
                p.join()
    failed = [r for r in done if isinstance(r, str)]
    if failed:
        raise RuntimeError(f"a worker process failed:\n{failed[0]}")
    counts = [r for r in done if not isinstance(r, str)]
    wall = max(end for _, _, end in counts) - min(start for _, start, _ in counts)
    return sum(moves for moves, _, _ in counts) / wall


def run() -> Iterator[str]:
    if server_bin() is None:
        print(f"service_pg: not measured: {MISSING}", file=sys.stderr)
        return
    rates: list[float] = []
    p95s: list[float] = []
    rates2: list[float] = []
    cluster = Cluster(durable=True)
    try:
        cluster.start()
        for i in range(RUNS):
            url = asyncio.run(cluster.create_database(f"bench{i}_one"))
            rate, times = asyncio.run(one_run(url))
            rates.append(rate)
            p95s.append(p95_ms(times))
            url = asyncio.run(cluster.create_database(f"bench{i}_two"))
            rates2.append(_two_processes(url, asyncio.run(_prepare(url))))
    finally:
        cluster.stop()
    one, two = statistics.median(rates), statistics.median(rates2)
    yield figure("service_pg_moves_per_s", one, "moves/s")
    yield figure("service_pg_move_p95_ms", statistics.median(p95s), "ms")
    yield figure("service_pg2_moves_per_s", two, "moves/s")
    yield figure("service_pg2_speedup", two / one, "x")
