"""Analysis figures: seconds to judge every decision of the stored 60-move Tactics game
(benchmarks/recorded_games.py), at the normal level (target: 60 s) and at the hard level, in this
process, and at the normal level as the bot runs it: in chunks, in a process pool of one
worker (the default `[computer] workers`)."""

from __future__ import annotations

import functools
import statistics
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor

from benchmarks.recorded_games import tactics_60
from benchmarks.timing import figure, median_seconds
from bot.front.lookback import CHUNK
from bot.lookback import analyse_chunk, chunks
from engine.ai.analysis import analyse, decisions

RUNS = 3


def _in_pool(start: dict[str, object], log: list[tuple[int, str]], indices: list[int]) -> float:
    with ProcessPoolExecutor(max_workers=1) as pool:
        pool.submit(int).result()  # the worker is up, as in a running bot
        began = time.perf_counter()
        jobs = [
            pool.submit(analyse_chunk, start, log, part, "normal")
            for part in chunks(indices, CHUNK)
        ]
        for job in jobs:
            job.result()
        return time.perf_counter() - began


def run() -> Iterator[str]:
    start, log = tactics_60()
    for level, name in (("normal", "analysis_60_moves_s"), ("hard", "analysis_60_moves_hard_s")):
        seconds = median_seconds(functools.partial(analyse, start, log, level=level), runs=RUNS)
        yield figure(name, seconds, "s")
    indices = [d.index for d in decisions(start, log)]
    state = start.to_json()
    pooled = statistics.median(_in_pool(state, log, indices) for _ in range(RUNS))
    yield figure("analysis_60_moves_pool_s", pooled, "s")
    judged = analyse(start, log)
    yield figure("analysis_60_moves_decisions", len(judged), "decisions")
