"""The computer players: each chooses a move from a player's view, and from nothing else.

A player's input is `match.view(seat)` and a seed; its output is one of the view's
`legal_moves`. Every player is deterministic: the same view and seed give the same move.
To look ahead, players deal the cards they cannot see at random (`engine.ai.worlds`), so
no hidden card can change a choice except through that seeded deal.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Protocol

from engine.ai import st1_eval, st1_heuristic, st2_eval, st2_heuristic
from engine.ai.search import Budget, SearchRules, search
from engine.ai.st1_search import St1SearchRules
from engine.ai.st2_search import St2SearchRules
from engine.ai.worlds import AnyView, WorldError, sample_world
from engine.st1.game import Game as St1Game


class NotYourMoveError(ValueError):
    """The view shows no decision for its viewer to make."""


class Player(Protocol):
    """Anything that picks a move for the viewer of a view."""

    name: str

    def decide(self, view: AnyView, *, seed: int) -> str:
        """The move's text, straight from the player's reasoning."""
        ...


def choose(player: Player, view: AnyView, *, seed: int) -> str:
    """The player's move for this view: always one of `view.legal_moves`.

    A player that cannot rebuild a game from the view (which would be a bug) falls back to
    a random legal move rather than leave a game stuck.
    """
    if view.viewer is None or not view.legal_moves:
        raise NotYourMoveError("There is no decision for this player to make now.")
    try:
        text = player.decide(view, seed=seed)
    except WorldError:
        text = ""
    if text not in view.legal_moves:
        return RandomPlayer().decide(view, seed=seed)
    return text


class RandomPlayer:
    """A uniformly random legal move."""

    name = "random"

    def decide(self, view: AnyView, *, seed: int) -> str:
        # Sorted, so that the choice does not depend on the order of the hand.
        return random.Random(seed).choice(sorted(view.legal_moves))


class HeuristicPlayer:
    """Rules of thumb, one move at a time (`st1_heuristic`, `st2_heuristic`)."""

    name = "heuristic"

    def decide(self, view: AnyView, *, seed: int) -> str:
        world = sample_world(view, random.Random(seed))
        if isinstance(world, St1Game):
            return str(st1_heuristic.choose(world, world.legal_moves()))
        return str(st2_heuristic.choose(world, world.legal_moves()))


class SearchPlayer:
    """Information-set Monte Carlo tree search (`engine.ai.search`) with a fixed budget (or
    one for each game, by `view.game`), and the evaluations' weights for each game."""

    name = "search"

    def __init__(self, budget: Budget | Mapping[str, Budget], weights: Weights = None) -> None:
        self.budget = budget
        self.weights = weights

    def decide(self, view: AnyView, *, seed: int) -> str:
        rules = search_rules(view, self.weights)
        budget = self.budget if isinstance(self.budget, Budget) else self.budget[view.game]
        return search(view, rules, budget, random.Random(seed))


# The evaluations' weights for each game (None: their defaults).
Weights = tuple[st1_eval.Weights, st2_eval.Weights] | None


def search_rules(view: AnyView, weights: Weights = None) -> SearchRules:
    """The search's rules for the viewer, judging with the given weights."""
    assert view.viewer is not None and view.hand is not None
    if view.game == "st1":
        w1 = st1_eval.DEFAULT if weights is None else weights[0]
        return St1SearchRules(view.viewer, view.hand, w1)
    w2 = st2_eval.DEFAULT if weights is None else weights[1]
    return St2SearchRules(view.viewer, view.hand, w2)
