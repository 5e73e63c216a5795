"""The search's view of Schotten Totten: the heuristic's rules and evaluation, for one player."""

from __future__ import annotations

from collections.abc import Sequence

from engine.ai import st1_policy
from engine.ai.st1_eval import DEFAULT, Evaluator, Weights
from engine.cards import AnyCard, card_code
from engine.st1.game import Game
from engine.st1.moves import Move


class St1SearchRules:
    """`engine.ai.search.SearchRules` for Schotten Totten, searching for player `me`."""

    def __init__(self, me: int, hand: Sequence[AnyCard], weights: Weights = DEFAULT) -> None:
        self.judge = Evaluator(me, weights)
        # Positions are judged with the cards held at the root that are still held: cards
        # drawn in a world are chance, already counted by the evaluation's supply.
        self.root_hand = {card_code(c) for c in hand}

    def auto_move(self, game: Game, moves: Sequence[Move]) -> Move | None:
        return st1_policy.auto_move(game, moves)

    def rank(self, game: Game, moves: Sequence[Move]) -> list[tuple[float, Move]]:
        return st1_policy.rank_moves(game, moves, self.judge)

    def order(self, game: Game, moves: Sequence[Move]) -> list[Move]:
        return st1_policy.quick_order(game, moves)

    def value(self, game: Game) -> float:
        kept = [c for c in game.hands[self.judge.p] if card_code(c) in self.root_hand]
        return self.judge.value(game, kept)
