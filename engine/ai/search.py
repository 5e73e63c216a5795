"""Information-set Monte Carlo tree search (single observer), for both games.

One tree is grown over the searching player's information set. Every iteration deals a
fresh world from the view (`engine.ai.worlds`: the other hand and the decks at random,
everything seen as seen), walks down the tree choosing among the moves legal *in that
world* (so the opponent's moves are the ones their dealt hand allows), adds one node, and
scores the position reached with the game's evaluation from the searcher's side. A child's
statistics count the iterations in which it was available, so that a move legal in few
worlds is not judged against the others as if it were always there (Cowling, Powley and
Whitehouse, "Information Set Monte Carlo Tree Search", 2012).

The game-specific parts come from a `SearchRules`: which moves are made by rule without
search (claims, ending the turn, ...), the order in which moves are worth trying, and the
evaluation. At the root, the evaluation of the position each move leaves counts as
`prior_visits` trials beside the move's search results, so that a small budget still plays
sensibly.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from engine.ai.worlds import AnyGame, AnyView, sample_world


@dataclass(frozen=True, slots=True)
class Budget:
    """How much to search: iterations (deterministic, unlike a time limit), how many moves
    to consider at the root and below it, and how many decisions deep to go."""

    iterations: int = 200
    root_width: int = 8
    width: int = 4
    depth: int = 4
    exploration: float = 0.15
    prior_visits: float = 1.0
    # How many moves, by the quick ordering, are judged at the root (0: all of them): a
    # player who weighs only the moves that look natural.
    consider: int = 0


class SearchRules(Protocol):
    """What the search needs to know about a game, for one searching player."""

    def auto_move(self, game: Any, moves: Sequence[Any]) -> Any | None:
        """The move made by rule without search, or None."""

    def rank(self, game: Any, moves: Sequence[Any]) -> list[tuple[float, Any]]:
        """The searcher's moves with the value of the position each leaves, best first."""

    def order(self, game: Any, moves: Sequence[Any]) -> list[Any]:
        """Any player's moves, most promising first, cheaply."""

    def value(self, game: Any) -> float:
        """The searcher's chance of winning in this position, from their own knowledge."""


class Node:
    """Statistics of one move in the tree, from the searcher's side."""

    __slots__ = ("available", "children", "total", "visits")

    def __init__(self, visits: float = 0.0, total: float = 0.0) -> None:
        self.visits = visits
        self.total = total
        self.available = visits
        # Keyed by the move itself: moves are small frozen values, equal across worlds.
        self.children: dict[Any, Node] = {}


@dataclass(frozen=True, slots=True)
class RootResult:
    """What the search concluded at the root: the move it chose and, when it weighed moves
    rather than making one by rule, each weighed move's estimated chance of winning for the
    searcher (by its text)."""

    move: str
    values: dict[str, float]


def search(view: AnyView, rules: SearchRules, budget: Budget, rng: random.Random) -> str:
    """The searcher's move for this view, as its text."""
    return search_root(view, rules, budget, rng).move


def search_root(
    view: AnyView,
    rules: SearchRules,
    budget: Budget,
    rng: random.Random,
    *,
    include: str | None = None,
) -> RootResult:
    """The searcher's move for this view, with the values of the moves it weighed.

    The root's moves share the iterations by sequential halving (Karnin, Koren and Somekh,
    2013): in each round every move still in the running is tried in the same freshly
    dealt worlds, so that they are compared on equal luck, and the worse half drops out.
    Below the root, each trial grows the move's subtree as ISMCTS does.

    `include` (a legal move's text) is weighed even if the ranking would leave it out, so
    that an analysis can value the move a player actually made.
    """
    me = view.viewer
    world = sample_world(view, rng)
    moves = world.legal_moves()
    chosen = rules.auto_move(world, moves)
    if chosen is not None:
        return RootResult(str(chosen), {})
    if budget.consider and include is None:
        moves = rules.order(world, moves)[: budget.consider]
    everything = rules.rank(world, moves)
    ranked = everything[: budget.root_width]
    if include is not None and all(str(m) != include for _, m in ranked):
        ranked += [(v, m) for v, m in everything if str(m) == include]
    if len(ranked) == 1 or budget.iterations <= 0:
        return RootResult(str(ranked[0][1]), {str(m): v for v, m in ranked})
    root = Node()
    prior = {m: v for v, m in ranked}
    alive = [m for _, m in ranked]
    for m in alive:
        root.children[m] = Node()
    rounds = max(1, math.ceil(math.log2(len(alive))))
    spent = 0
    for r in range(rounds):
        per = max(1, (budget.iterations - spent) // ((rounds - r) * len(alive)))
        for _ in range(per):
            seed = rng.getrandbits(64)
            for m in alive:
                _iterate(sample_world(view, random.Random(seed)), me, root, m, rules, budget)
                spent += 1
        alive.sort(key=lambda m: -_blend(root.children[m], prior[m], budget.prior_visits))
        if r < rounds - 1:
            alive = alive[: (len(alive) + 1) // 2]
    values = {str(m): _blend(root.children[m], prior[m], budget.prior_visits) for m in prior}
    return RootResult(str(alive[0]), values)


def _blend(node: Node, prior: float, weight: float) -> float:
    """A move's mean value, with its direct judgement counting as `weight` trials."""
    return (node.total + weight * prior) / (node.visits + weight)


def _iterate(
    world: AnyGame,
    me: int | None,
    root: Node,
    first: Any,
    rules: SearchRules,
    budget: Budget,
) -> None:
    """One trial of the root move `first` in this world."""
    node = root.children[first]
    node.available += 1
    world.apply(first)
    path = [node]
    depth = 1
    while True:
        if not _auto(world, rules):
            break
        if world.is_over or depth >= budget.depth:
            break
        player = world.to_decide
        moves = rules.order(world, world.legal_moves())[: budget.width]
        if not moves:
            break
        fresh = None
        for m in moves:
            child = node.children.get(m)
            if child is None:
                if fresh is None:
                    fresh = m
            else:
                child.available += 1
        if fresh is not None:
            child = node.children[fresh] = Node()
            child.available = 1
            world.apply(fresh)
            path.append(child)
            _auto(world, rules)
            break
        mine = player == me
        pick = max(moves, key=lambda m: _ucb(node.children[m], mine, budget.exploration))
        world.apply(pick)
        node = node.children[pick]
        path.append(node)
        depth += 1
    value = rules.value(world)
    for n in path:
        n.visits += 1
        n.total += value


def _auto(world: AnyGame, rules: SearchRules) -> bool:
    """Make the moves made by rule; False once the game is over."""
    while not world.is_over:
        moves = world.legal_moves()
        chosen = rules.auto_move(world, moves)
        if chosen is None:
            return True
        world.apply(chosen)
    return False


def _mean(node: Node) -> float:
    return node.total / node.visits if node.visits else 0.5


def _ucb(node: Node, mine: bool, c: float) -> float:
    """UCB1 counting the iterations in which the move was available (ISMCTS)."""
    if node.visits <= 0:
        return math.inf
    mean = _mean(node) if mine else 1.0 - _mean(node)
    return mean + c * math.sqrt(math.log(max(node.available, 1.0)) / node.visits)
