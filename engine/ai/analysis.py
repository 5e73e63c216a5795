"""The analysis of a finished game: every decision judged from its player's own view.

    judgements = analyse(new_match(spec, seed), log, level="normal")
    worst = costliest(judgements, seat=0, count=3)

Each decision a player weighed is searched again from `match.view(seat)` at that moment,
exactly what the computer opponent would see in their place: their own hand, the board,
counts. The search gives the chance of winning the player could expect with its preferred
move (`before`) and with the move they made (`after`); the difference is what the move
cost, in the player's own estimation. Decisions made by rule (a single legal move, a claim
or a declaration of control, which is never wrong, drawing) are not judged.

The search's seed comes from the decision's place in the log only, never from the game's
seed, so the same game always gets the same analysis, and cards the player could not see
cannot change it (tests/engine/ai/test_analysis.py plays a twin game to check).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from engine.ai import HARD, SEARCH
from engine.ai.search import Budget, RootResult, search_root
from engine.ai.st1_search import St1SearchRules
from engine.ai.st2_search import St2SearchRules
from engine.ai.worlds import AnyView, WorldError, sample_world
from engine.api import Playable, load_match

# The levels an analysis can run at (the easy player does not search, so it has no values).
# (Every move judged: an analysis weighs what was played, whatever looked natural.)
BUDGETS: dict[str, Budget] = {"normal": SEARCH, "hard": HARD}
_SALT = 0x5C0770  # decisions' seeds: the same for every game, never the game's own seed


@dataclass(frozen=True, slots=True)
class Decision:
    """A logged move made by the seat the game waited for, with that seat's view before it."""

    index: int  # its place in the match's log, from 0
    seat: int
    view: AnyView
    played: str


@dataclass(frozen=True, slots=True)
class Judgement:
    """One weighed decision: the player's estimated chance of winning with the search's
    preferred move (`before`) and with the move they made (`after`)."""

    index: int
    seat: int
    played: str
    best: str
    before: float
    after: float

    @property
    def cost(self) -> float:
        """How much the move lowered the player's chance (never below 0: a move the search
        valued above its own choice cost nothing)."""
        return max(0.0, self.before - self.after)

    def to_json(self) -> list[object]:
        return [self.index, self.seat, self.played, self.best, self.before, self.after]

    @staticmethod
    def from_json(data: Sequence[Any]) -> Judgement:
        index, seat, played, best, before, after = data
        return Judgement(int(index), int(seat), str(played), str(best), float(before), float(after))


def decisions(start: Playable, log: Iterable[tuple[int, str]]) -> Iterator[Decision]:
    """Replay `log` on a copy of `start`, yielding each move made by the seat to decide
    (a resignation, made out of turn, is no decision)."""
    match = load_match(start.to_json())
    for index, (seat, text) in enumerate(log):
        if match.to_decide == seat:
            view = match.view(seat)
            if text in view.legal_moves:
                yield Decision(index, seat, view, text)
        match.play(text, seat)


def seed_for(index: int) -> int:
    """The search seed of the decision at `index` in the log."""
    return _SALT * 1_000_003 + index


def _rules(view: AnyView) -> St1SearchRules | St2SearchRules:
    assert view.viewer is not None and view.hand is not None
    if view.game == "st1":
        return St1SearchRules(view.viewer, view.hand)
    return St2SearchRules(view.viewer, view.hand)


def judge(decision: Decision, level: str = "normal") -> Judgement | None:
    """The search's verdict on one decision, or None if it is made by rule."""
    try:
        root: RootResult = search_root(
            decision.view,
            _rules(decision.view),
            BUDGETS[level],
            random.Random(seed_for(decision.index)),
            include=decision.played,
        )
    except WorldError:  # a view no world fits (a bug): nothing to say about it
        return None
    if not root.values or decision.played not in root.values:
        return None
    before = _chance(root.values[root.move])
    after = _chance(root.values[decision.played])
    return Judgement(decision.index, decision.seat, decision.played, root.move, before, after)


@dataclass(frozen=True, slots=True)
class Hint:
    """The search's preferred move for a view, and the viewer's estimated chance of winning
    with it."""

    move: str
    chance: float


HINT_WORLDS = 16  # deals averaged to value a move made by rule (the search weighs none)


def hint(view: AnyView, level: str = "normal", *, seed: int = 0) -> Hint:
    """What the computer would play in the viewer's place, from the viewer's view only."""
    if view.viewer is None or not view.legal_moves:
        raise ValueError("There is no decision for this player to make now.")
    rules = _rules(view)
    rng = random.Random(seed)
    root = search_root(view, rules, BUDGETS[level], rng)
    if root.move in root.values:
        return Hint(root.move, _chance(root.values[root.move]))
    # Made by rule (a claim, a draw, the only move): the value of the position it leaves,
    # over several deals of the unseen cards.
    total = 0.0
    for _ in range(HINT_WORLDS):
        world = sample_world(view, rng)
        move = next(m for m in world.legal_moves() if str(m) == root.move)
        # `move` is one of this world's own legal moves, and `rules` this world's game's.
        world.apply(move)  # type: ignore[arg-type]
        total += rules.value(world)  # type: ignore[arg-type]
    return Hint(root.move, _chance(total / HINT_WORLDS))


def _chance(value: float) -> float:
    return min(1.0, max(0.0, value))


def analyse(
    start: Playable,
    log: Sequence[tuple[int, str]],
    *,
    level: str = "normal",
    indices: Iterable[int] | None = None,
) -> list[Judgement]:
    """Judge every weighed decision of both players (or those at `indices` in the log)."""
    if level not in BUDGETS:
        raise ValueError(f"{level!r} is not an analysis level; choose one of {', '.join(BUDGETS)}.")
    wanted = None if indices is None else set(indices)
    out = []
    for d in decisions(start, log):
        if wanted is not None and d.index not in wanted:
            continue
        j = judge(d, level)
        if j is not None:
            out.append(j)
    return out


def costliest(judgements: Iterable[Judgement], seat: int, count: int = 3) -> list[Judgement]:
    """The `count` decisions of `seat` that cost the most, costliest first (those that cost
    nothing left out); ties go to the earlier move."""
    mine = [j for j in judgements if j.seat == seat and j.cost > 0 and j.played != j.best]
    return sorted(mine, key=lambda j: (-j.cost, j.index))[:count]
