"""Computer player figures: win rates between levels, and how long moves take.

Each pairing plays `AI_BENCH_GAMES` games (default 200) of Schotten Totten (classic) and
of Schotten Totten 2 (siege). Every deal is played twice with the seats swapped, so each
player starts (or attacks) as often as the other and luck of the deal cancels out. Draws
count as half. Games run in `AI_BENCH_WORKERS` processes (default 2). Each win rate comes
with its standard error (`..._se`) and its number of games (`..._games`).

    python -m benchmarks ai                      # the full run
    AI_BENCH_GAMES=20 python -m benchmarks ai    # a quick look
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from multiprocessing import Pool

from benchmarks.timing import figure
from engine.ai import RandomPlayer, choose, player_for
from engine.ai.players import Player
from engine.api import MatchSpec, new_match

GAMES = {"st1": "classic", "st2": "siege"}
PAIRINGS = (("normal", "random"), ("normal", "easy"), ("hard", "normal"))
# Figure names call the easy level by the player behind it.
NAMES = {"easy": "heuristic"}
# Levels whose move times are reported (a 95th percentile over every move they made).
TIMED = ("normal", "hard")


@dataclass(frozen=True, slots=True)
class Job:
    """One game: who plays, on which deal, and the seat of the first-named level."""

    variant: str
    first: str
    second: str
    deal: int
    seat: int


@dataclass(frozen=True, slots=True)
class Result:
    score: float  # for the first-named level: 1 win, 0.5 draw, 0 loss
    times: dict[str, list[float]]  # seconds per decision, by level


def _player(level: str) -> Player:
    return RandomPlayer() if level == "random" else player_for(level)


def play(job: Job) -> Result:
    """Play one game to its end."""
    match = new_match(MatchSpec(job.variant, first=0), seed=job.deal)
    levels = [job.second, job.second]
    levels[job.seat] = job.first
    players = [_player(level) for level in levels]
    times: dict[str, list[float]] = {job.first: [], job.second: []}
    turn = 0
    while not match.is_over:
        seat = match.to_decide
        assert seat is not None
        view = match.view(seat)
        start = time.perf_counter()
        move = choose(players[seat], view, seed=job.deal * 1000 + turn)
        if len(view.legal_moves) > 1:  # a forced move is no decision: it would flatter p95
            times[levels[seat]].append(time.perf_counter() - start)
        match.play(move, seat)
        turn += 1
    winner = match.winner
    score = 0.5 if winner is None else 1.0 if winner == job.seat else 0.0
    return Result(score, times)


def jobs(game: str, first: str, second: str, games: int) -> list[Job]:
    variant = GAMES[game]
    deals = range(10_000, 10_000 + (games + 1) // 2)
    return [Job(variant, first, second, deal, seat) for deal in deals for seat in (0, 1)][:games]


def run(games: int | None = None, workers: int | None = None) -> Iterator[str]:
    games = games or int(os.environ.get("AI_BENCH_GAMES", "200"))
    workers = workers or int(os.environ.get("AI_BENCH_WORKERS", "2"))
    started = time.perf_counter()
    with Pool(workers) as pool:
        for game in GAMES:
            times: dict[str, list[float]] = {level: [] for level in TIMED}
            for first, second in PAIRINGS:
                results = pool.map(play, jobs(game, first, second, games), chunksize=1)
                scores = [r.score for r in results]
                rate = statistics.fmean(scores)
                se = (statistics.pvariance(scores) / len(scores)) ** 0.5
                name = f"ai_{first}_vs_{NAMES.get(second, second)}_winrate"
                yield figure(f"{name}_{game}", rate, "fraction")
                yield figure(f"{name}_se_{game}", se, "fraction")
                yield figure(f"{name}_games_{game}", len(scores), "games")
                for r in results:
                    for level, spent in r.times.items():
                        times.get(level, []).extend(spent)
            for level in TIMED:
                if len(times[level]) >= 2:
                    p95 = statistics.quantiles(times[level], n=20)[-1] * 1000
                    yield figure(f"ai_{level}_move_p95_ms_{game}", p95, "ms")
    yield figure("ai_suite_minutes", (time.perf_counter() - started) / 60, "min")


if __name__ == "__main__":
    for line in run(int(sys.argv[1]) if len(sys.argv) > 1 else None):
        print(line, flush=True)
