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
# Strength grows little beyond a few dozen trials with this evaluation (measured: 200
# against 60 trials won about half), so normal keeps a short search and hard adds both
# trials and a wider choice at the root (README, the computer opponent).
NORMAL = Budget(iterations=16)
HARD = Budget(iterations=300, root_width=12)


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
