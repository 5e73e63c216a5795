"""Looking at the opponent's answer: each candidate move is tried in dealt worlds, the
opponent answers it as they judge best with the hand that world gave them, and the
position after their answer is judged.

The one-move judgement (`rank`) sees a move's worth for the mover's own formations; what it
misses is the answer: the card the opponent puts against a stone just contested, the stone
they can now prove. Here the opponent plays their own judgement's best move, among the
moves their quick ordering puts first, in every world; the candidate moves are compared in
the same worlds, and a move's judgement before the answer counts as `prior` worlds.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from engine.ai.search import RootResult, SearchRules, _auto
from engine.ai.worlds import AnyGame, AnyView, sample_world


@dataclass(frozen=True, slots=True)
class Replies:
    """How much to look at: candidate moves, worlds each, the opponent's moves weighed per
    answer, and the weight of a candidate's own judgement (in worlds)."""

    worlds: int = 16
    width: int = 8
    answers: int = 8
    prior: float = 2.0


def replies_root(
    view: AnyView,
    rules: SearchRules,
    opponent: SearchRules,
    budget: Replies,
    rng: random.Random,
    *,
    include: str | None = None,
) -> RootResult:
    """The searcher's move, with each weighed move's estimated chance of winning."""
    me = view.viewer
    world = sample_world(view, rng)
    moves = world.legal_moves()
    chosen = rules.auto_move(world, moves)
    if chosen is not None:
        return RootResult(str(chosen), {})
    everything = rules.rank(world, moves)
    ranked = everything[: budget.width]
    if include is not None and all(str(m) != include for _, m in ranked):
        ranked += [(v, m) for v, m in everything if str(m) == include]
    if len(ranked) == 1 or budget.worlds <= 0:
        return RootResult(str(ranked[0][1]), {str(m): v for v, m in ranked})
    totals = {m: budget.prior * v for v, m in ranked}
    for _ in range(budget.worlds):
        seed = rng.getrandbits(64)
        for _, m in ranked:
            game = sample_world(view, random.Random(seed))  # the same deal for every move
            game.apply(m)
            _answer(game, me, rules, opponent, budget)
            totals[m] += rules.value(game)
    weight = budget.prior + budget.worlds
    values = {str(m): t / weight for m, t in totals.items()}
    best = max(ranked, key=lambda vm: (totals[vm[1]], vm[0]))[1]
    return RootResult(str(best), values)


def _answer(
    game: AnyGame, me: int | None, rules: SearchRules, opponent: SearchRules, budget: Replies
) -> None:
    """Play on until the opponent has made one decision of their own (and whatever follows
    it by rule); the searcher's own decisions on the way go to their judgement's best."""
    for _ in range(8):  # a Recruiter, an Exchange: a few decisions at most
        if not _auto(game, rules):
            return
        mover = game.to_decide
        moves = game.legal_moves()
        side = rules if mover == me else opponent
        short = side.order(game, moves)[: budget.answers]
        best: Any = side.rank(game, short)[0][1]
        game.apply(best)
        if mover != me:
            _auto(game, rules)
            return
