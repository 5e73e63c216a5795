"""Tuning the evaluations' weights by self-play: `python -m benchmarks.tune st1|st2`.

A coordinate search. The evaluation alone decides (a search of no trials over the eight
best-judged moves: the strength of every level comes from it), and each candidate weight
set plays the best one so far over `--games` games on fresh deals, each deal twice with the
seats swapped. A candidate replaces the best when it scores at least one standard error
above one half; each round tries every weight up and down by its step, and the steps halve
after every round. The result is checked once more against the defaults on deals no round
has seen, and printed as the `Weights(...)` to keep in engine/ai/st1_eval.py or st2_eval.py.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from collections.abc import Sequence
from multiprocessing import Pool
from typing import Any

from engine.ai import choose, st1_eval, st2_eval
from engine.ai.players import SearchPlayer
from engine.ai.search import Budget
from engine.api import MatchSpec, new_match

GAMES = {"st1": "classic", "st2": "siege"}
JUDGE = Budget(iterations=0, root_width=8)
# The weights tried, with their first step.
STEPS = {
    "st1": {"hand": 0.1, "reach": 0.1, "stones": 0.1},
    "st2": {"hand": 0.1, "reach": 0.1, "tiles": 0.1, "pace": 0.5},
}
DEFAULTS: dict[str, Any] = {"st1": st1_eval.DEFAULT, "st2": st2_eval.DEFAULT}


def _weights(game: str, w: Any) -> tuple[st1_eval.Weights, st2_eval.Weights]:
    return (w, st2_eval.DEFAULT) if game == "st1" else (st1_eval.DEFAULT, w)


def play(job: tuple[str, Any, Any, int, int]) -> float:
    """One game of weights `a` against `b`: a's score (1, 0.5 or 0)."""
    game, a, b, deal, seat = job
    match = new_match(MatchSpec(GAMES[game], first=0), seed=deal)
    players = [SearchPlayer(JUDGE, _weights(game, b)), SearchPlayer(JUDGE, _weights(game, b))]
    players[seat] = SearchPlayer(JUDGE, _weights(game, a))
    turn = 0
    while not match.is_over:
        s = match.to_decide
        assert s is not None
        match.play(choose(players[s], match.view(s), seed=deal * 1000 + turn), s)
        turn += 1
    w = match.winner
    return 0.5 if w is None else 1.0 if w == seat else 0.0


def duel(pool: Any, game: str, a: Any, b: Any, games: int, first_deal: int) -> float:
    deals = range(first_deal, first_deal + (games + 1) // 2)
    jobs = [(game, a, b, d, s) for d in deals for s in (0, 1)][:games]
    return statistics.fmean(pool.map(play, jobs, chunksize=1))


def tune(game: str, games: int, rounds: int, workers: int) -> Any:
    best = DEFAULTS[game]
    steps = dict(STEPS[game])
    deal = 50_000
    margin = 0.5 / games**0.5  # one standard error of a score near one half
    with Pool(workers) as pool:
        for r in range(rounds):
            for name, step in steps.items():
                for sign in (1, -1):
                    value = getattr(best, name)
                    candidate = dataclasses.replace(best, **{name: round(value + sign * step, 3)})
                    started = time.perf_counter()
                    score = duel(pool, game, candidate, best, games, deal)
                    deal += games
                    kept = score >= 0.5 + margin
                    print(
                        f"round {r + 1} {name}={getattr(candidate, name)}: {score:.3f}"
                        f"{' kept' if kept else ''} ({time.perf_counter() - started:.0f} s)",
                        flush=True,
                    )
                    if kept:
                        best = candidate
                        break
            steps = {k: v / 2 for k, v in steps.items()}
        check = duel(pool, game, best, DEFAULTS[game], 2 * games, 90_000)
    print(f"best {best!r}: {check:.3f} against the defaults over {2 * games} new games")
    return best


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.tune", description=__doc__)
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    tune(args.game, args.games, args.rounds, args.workers)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
