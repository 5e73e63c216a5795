"""Schotten Totten figures: random games per second, and the claim proof against enumeration."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Iterator

from benchmarks.timing import figure, median_seconds
from engine.cards import Card, clan_deck
from engine.enumeration import enumerate_beating
from engine.formations import FormationRules
from engine.proof import Pool, best_completion, evaluate
from engine.st1 import Claim, Game, Options

RULES = FormationRules(3)


def random_game(seed: int, options: Options, game: type[Game] = Game) -> Game:
    """A full game of random legal moves, making every legal claim as soon as it can."""
    g = game.new(options, seed)
    rng = random.Random(seed)
    while not g.is_over:
        moves = g.legal_moves()
        claims = [m for m in moves if isinstance(m, Claim)]
        g.apply(claims[0] if claims else rng.choice(moves))
    return g


def games_per_second(options: Options, games: int = 60, runs: int = 5) -> float:
    seconds = median_seconds(lambda: [random_game(s, options) for s in range(games)], runs=runs)
    return games / seconds


def claims_free_games_per_second(options: Options, games: int = 60, runs: int = 5) -> float:
    """The same random games with every claim answer read from a recording of them: the
    engine's speed were claim checks to cost nothing, the most that work on claims can give."""
    answers: dict[tuple[int, int, int], list[int]] = {}

    class Recording(Game):
        def claimable(self, player: int) -> list[int]:
            found = answers[(self.seed, self.clock, player)] = super().claimable(player)
            return found

    class Answered(Game):
        def claimable(self, player: int) -> list[int]:
            return answers[(self.seed, self.clock, player)]

    for s in range(games):
        random_game(s, options, Recording)
    seconds = median_seconds(
        lambda: [random_game(s, options, Answered) for s in range(games)], runs=runs
    )
    return games / seconds


def hard_positions(count: int = 40) -> list[tuple[list[Card], list[Card], Pool, list[Card]]]:
    """Fixed positions where the proof must rule out (or find) a beating completion while the
    opponent has 0 or 1 card on the stone and most of the deck is unseen."""
    rng = random.Random(2024)
    out = []
    while len(out) < count:
        deck = clan_deck()
        rng.shuffle(deck)
        mine = _strong_side(rng)
        rest = [c for c in deck if c not in mine]
        opp = rest[: rng.choice([0, 1])]
        table = rest[len(opp) : len(opp) + rng.randint(0, 8)]  # other cards face-up
        unseen = [c for c in rest if c not in opp and c not in table]
        out.append((mine, opp, Pool(unseen), unseen))
    return out


def _strong_side(rng: random.Random) -> list[Card]:
    """Colour runs, three of a kind and high colours: the sides worth claiming early."""
    color = rng.choice(clan_deck()).color
    kind = rng.choice(["run", "three", "colour"])
    if kind == "run":
        s = rng.randint(1, 7)
        return [Card(color, v) for v in (s, s + 1, s + 2)]
    if kind == "three":
        v = rng.randint(5, 9)
        return [c for c in clan_deck() if c.value == v][:3]
    return [Card(color, v) for v in (9, 8, 6)]


def proof_figures(positions: list) -> Iterator[str]:
    per_position = []
    proof_total = 0.0
    enum_total = 0.0
    for mine, opp, pool, unseen in positions:
        key = evaluate(mine, RULES).key
        runs = []
        for _ in range(15):
            start = time.perf_counter()
            fast = best_completion(opp, pool, RULES, beat=key)
            runs.append(time.perf_counter() - start)
        per_position.append(statistics.median(runs))
        proof_total += statistics.median(runs)
        start = time.perf_counter()
        slow = enumerate_beating(opp, unseen, RULES, key)
        enum_total += time.perf_counter() - start
        assert (fast is None) == (slow is None), "proof and enumeration disagree"
    yield figure("st1_proof_hard_us", statistics.median(per_position) * 1e6, "us")
    yield figure("st1_proof_speedup", enum_total / proof_total, "x")


def run() -> Iterator[str]:
    yield figure("st1_random_games_per_s", games_per_second(Options()), "games/s")
    yield figure(
        "st1_random_games_per_s_claims_free", claims_free_games_per_second(Options()), "games/s"
    )
    yield from proof_figures(hard_positions())
    tactics = Options(tactics=True)
    yield figure("st1t_random_games_per_s", games_per_second(tactics, games=40), "games/s")
    yield from tactics_proof_figures(tactics_hard_positions())


def tactics_hard_positions(
    count: int = 24,
) -> list[tuple[list, list, Pool, list[Card], FormationRules]]:
    """Mud Fight stones (four cards a side), with Elite Troops on the opponent's side, one or
    no clan card beside them, and most of the deck unseen."""
    from engine.cards import Tactic, TacticCard
    from engine.st1.board import Stone, wild_for

    rng = random.Random(77)
    out = []
    shapes = [
        (1, ["joker"]),
        (1, ["spy"]),
        (0, ["joker", "shield"]),
        (1, ["shield"]),
        (0, ["spy", "joker"]),
    ]
    while len(out) < count:
        n_real, elite = shapes[len(out) % len(shapes)]
        stone = Stone(1)
        modes = [TacticCard(Tactic.MUD)] + (
            [TacticCard(Tactic.BLIND)] if rng.random() < 0.25 else []
        )
        stone.set_modes(modes)
        rules = stone.rules
        deck = clan_deck()
        rng.shuffle(deck)
        color = deck[0].color
        s = rng.randint(3, 6)
        if rng.random() < 0.6:
            mine = [Card(color, v) for v in range(s, s + 4)]
        else:
            value = rng.randint(6, 9)
            mine = [c for c in clan_deck() if c.value == value][:4]
        rest = [c for c in deck if c not in mine]
        opp_cards = rest[:n_real]
        table = rest[n_real : n_real + rng.randint(0, 6)]
        unseen = [c for c in rest if c not in opp_cards and c not in table]
        opp = opp_cards + [wild_for(TacticCard(Tactic(k))) for k in elite]
        out.append((mine, opp, Pool(unseen), unseen, rules))
    return out


def tactics_proof_figures(positions: list) -> Iterator[str]:
    per_position = []
    proof_total = enum_total = 0.0
    for mine, opp, pool, unseen, rules in positions:
        key = evaluate(mine, rules).key
        runs = []
        for _ in range(9):
            start = time.perf_counter()
            fast = best_completion(opp, pool, rules, beat=key)
            runs.append(time.perf_counter() - start)
        per_position.append(statistics.median(runs))
        proof_total += statistics.median(runs)
        start = time.perf_counter()
        slow = enumerate_beating(opp, unseen, rules, key)
        enum_total += time.perf_counter() - start
        assert (fast is None) == (slow is None), "proof and enumeration disagree"
    yield figure("st1t_proof_hard_us", statistics.median(per_position) * 1e6, "us")
    yield figure("st1t_proof_speedup", enum_total / proof_total, "x")
