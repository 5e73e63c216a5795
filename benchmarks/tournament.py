"""Tournament pairing: the time to pair one round of a simulated 8-round Swiss (random
results, a few withdrawals). `tournament_pairing_ms`: 200 players, the median of the late
rounds, where score groups are small and the no-rematch rule bites.
`tournament_pairing_ms_1000`: 1,000 players (the most a tournament takes), the worst round
of an event (the first rounds have the biggest score groups), the median over 3 events."""

from __future__ import annotations

import random
import statistics
from collections.abc import Iterator
from functools import partial

from benchmarks.timing import figure, median_seconds
from bot.tournament.pairing import Game, swiss_round

PLAYERS = 200
LARGEST = 1000  # bot/tournament/service.py MAX_PLAYERS
ROUNDS = 8
LATE = range(5, ROUNDS + 1)  # the rounds timed
RESULTS = [(1.0, 0.0), (0.0, 1.0), (0.5, 0.5)]


def _play(
    history: list[Game], pairs: list[tuple[int, int | None]], rnd: int, rng: random.Random
) -> None:
    for first, second in pairs:
        points = (1.0, 0.0) if second is None else rng.choice(RESULTS)
        history.append(Game(rnd, first, second, points))


def _round_seconds(seed: int, size: int = PLAYERS, timed: range = LATE) -> list[float]:
    """The median time of pairing each `timed` round of one simulated event."""
    rng = random.Random(seed)
    players = list(range(1, size + 1))
    history: list[Game] = []
    times = []
    for rnd in range(1, ROUNDS + 1):
        if rnd in timed:
            times.append(median_seconds(partial(swiss_round, players, history, rnd), runs=3))
        _play(history, swiss_round(players, history, rnd), rnd, rng)
        if rng.random() < 0.5:
            players.remove(rng.choice(players))  # someone left the server
    return times


def run() -> Iterator[str]:
    times = [t for seed in range(3) for t in _round_seconds(seed)]
    yield figure("tournament_pairing_ms", statistics.median(times) * 1000, "ms")
    every = range(1, ROUNDS + 1)
    worst = [max(_round_seconds(seed, LARGEST, every)) for seed in range(3)]
    yield figure("tournament_pairing_ms_1000", statistics.median(worst) * 1000, "ms")


if __name__ == "__main__":
    for line in run():
        print(line)
