"""Computer players for both games, chosen by level.

    from engine.ai import choose_move
    text = choose_move(match.view(seat), "normal", seed=42)   # one of view.legal_moves
    match.play(text, seat)

Levels, weakest first:

- `easy`: the heuristic player, rules of thumb one move at a time.
- `normal`: a short information-set Monte Carlo tree search over the heuristic evaluation;
  it answers in a fraction of a second.
- `hard`: the same search with many more trials and more moves considered at the root.

Players see only the view (the seat's own hand, what is face-up, and counts), and are
deterministic: the same view and seed give the same move.
"""

from __future__ import annotations

from engine.ai.players import (
    HeuristicPlayer,
    NotYourMoveError,
    Player,
    RandomPlayer,
    SearchPlayer,
    choose,
)
from engine.ai.search import Budget
from engine.ai.worlds import AnyView

LEVELS = ("easy", "normal", "hard")

# Iteration budgets rather than time limits, so that a move depends only on view and seed.
# The strength is the evaluation's: a search judging every move with a few trials plays as
# well as one with twenty times more, or one looking at the opponent's answers (measured,
# README), so hard searches a little longer and normal weighs fewer moves.
SEARCH = Budget(iterations=16)  # every move judged: what analyses and hints use as "normal"
HARD = Budget(iterations=300, root_width=12)
# Normal judges only the moves that look most natural by the quick ordering (how well a card
# fits its side), as many as keep it clearly stronger than easy and clearly weaker than hard
# in each game (the benchmark's figures).
NORMAL = {"st1": Budget(iterations=16, consider=4), "st2": Budget(iterations=16, consider=6)}


def player_for(level: str) -> Player:
    """The player behind a level."""
    if level == "easy":
        return HeuristicPlayer()
    if level == "normal":
        return SearchPlayer(NORMAL)
    if level == "hard":
        return SearchPlayer(HARD)
    raise ValueError(f"{level!r} is not a level; choose one of {', '.join(LEVELS)}.")


def choose_move(view: AnyView, level: str, *, seed: int) -> str:
    """The computer's move for the viewer of `view` at this level: one of its legal moves."""
    return choose(player_for(level), view, seed=seed)


__all__ = [
    "HARD",
    "LEVELS",
    "NORMAL",
    "SEARCH",
    "Budget",
    "HeuristicPlayer",
    "NotYourMoveError",
    "Player",
    "RandomPlayer",
    "SearchPlayer",
    "choose",
    "choose_move",
    "player_for",
]
