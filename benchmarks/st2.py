"""Schotten Totten 2 figures: random sieges per second, and the control proof against
enumeration on four-card tiles with the Defender's side empty or nearly so."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Iterator

from benchmarks.timing import figure, median_seconds
from engine.cards import Card, siege_deck
from engine.enumeration import enumerate_beating
from engine.formations import FormationRules
from engine.proof import Pool, best_completion, evaluate
from engine.st2 import Control, Game, Options
from engine.st2.board import TILE_RULES


def random_siege(seed: int, options: Options, game: type[Game] = Game) -> Game:
    """A full siege of random legal moves; the Attacker takes every tile it can at once."""
    g = game.new(options, seed)
    rng = random.Random(seed)
    while not g.is_over:
        moves = g.legal_moves()
        controls = [m for m in moves if isinstance(m, Control)]
        g.apply(controls[0] if controls else rng.choice(moves))
    return g


def games_per_second(options: Options, games: int = 40, runs: int = 5) -> float:
    seconds = median_seconds(lambda: [random_siege(s, options) for s in range(games)], runs=runs)
    return games / seconds


def controls_free_games_per_second(options: Options, games: int = 40, runs: int = 5) -> float:
    """The same sieges with every answer on control read from a recording of them: the
    engine's speed were control checks to cost nothing (see `benchmarks.st1`)."""
    answers: dict[tuple[int, int], list[int]] = {}

    class Recording(Game):
        def controllable(self) -> list[int]:
            found = answers[(self.seed, self.clock)] = super().controllable()
            return found

    class Answered(Game):
        def controllable(self) -> list[int]:
            return answers[(self.seed, self.clock)]

    for s in range(games):
        random_siege(s, options, Recording)
    seconds = median_seconds(
        lambda: [random_siege(s, options, Answered) for s in range(games)], runs=runs
    )
    return games / seconds


FOUR_CARD_TILES = [r for pair in TILE_RULES for r in pair if r.size == 4]


def hard_positions(
    count: int = 24,
) -> list[tuple[list[Card], list[Card], Pool, list[Card], FormationRules]]:
    """Strong Attacker sides on four-card tiles (tiles 2 and 6 intact, the damaged gate)
    against a Defender with no card or one, most of the deck unseen."""
    rng = random.Random(2020)
    out = []
    while len(out) < count:
        rules = FOUR_CARD_TILES[len(out) % len(FOUR_CARD_TILES)]
        deck = siege_deck()
        rng.shuffle(deck)
        color = deck[0].color
        if rules.lower_sum_wins:
            lows = sorted((c for c in deck if c.value <= 2), key=lambda c: c.value)
            mine = lows[:4]
        else:
            s = rng.randint(5, 8)
            mine = [Card(color, v) for v in range(s, s + 4)]
        rest = [c for c in deck if c not in mine]
        opp = rest[: 0 if len(out) % 3 == 0 else 1]
        table = rest[len(opp) : len(opp) + rng.randint(0, 6)]
        unseen = [c for c in rest if c not in opp and c not in table]
        out.append((mine, opp, Pool(unseen), unseen, rules))
    return out


def proof_figures(positions: list) -> Iterator[str]:
    per_position = []
    proof_total = enum_total = 0.0
    for mine, opp, pool, unseen, rules in positions:
        key = evaluate(mine, rules).key
        runs = []
        for _ in range(9):
            start = time.perf_counter()
            fast = best_completion(opp, pool, rules, beat=key)
            runs.append(time.perf_counter() - start)
        proof_total += statistics.median(runs)
        per_position.append(statistics.median(runs))
        start = time.perf_counter()
        slow = enumerate_beating(opp, unseen, rules, key)
        enum_total += time.perf_counter() - start
        assert (fast is None) == (slow is None), "proof and enumeration disagree"
    yield figure("st2_proof_hard_us", statistics.median(per_position) * 1e6, "us")
    yield figure("st2_proof_speedup", enum_total / proof_total, "x")


def run() -> Iterator[str]:
    yield figure("st2_random_games_per_s", games_per_second(Options()), "games/s")
    yield figure(
        "st2_random_games_per_s_controls_free",
        controls_free_games_per_second(Options()),
        "games/s",
    )
    yield from proof_figures(hard_positions())
