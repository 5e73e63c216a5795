"""How a game ended, as data (like python-chess's `Outcome`)."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Termination(enum.Enum):
    """Why a game ended."""

    # Schotten Totten (RULINGS ST1-7, ST1-9)
    THREE_ADJACENT = "three adjacent stones"
    FIVE_STONES = "five stones"
    NO_MOVES = "neither player can play or claim"
    # Schotten Totten 2 (RULINGS ST2-7, ST2-8)
    DAMAGED_TILE_TAKEN = "control of a damaged wall tile"
    FOURTH_TILE_DAMAGED = "a fourth wall tile damaged"
    DECK_EMPTY = "the deck ran out"
    DEFENDER_CANNOT_PLAY = "every space on the Defender's side is full: the wall holds"
    # Either game
    RESIGNED = "resignation"
    TIMEOUT = "time ran out"


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: who won (None for a draw) and why."""

    winner: int | None
    termination: Termination

    def to_json(self) -> dict[str, object]:
        return {"winner": self.winner, "termination": self.termination.name}

    @staticmethod
    def from_json(data: dict[str, object]) -> Outcome:
        winner = data["winner"]
        return Outcome(
            winner if isinstance(winner, int) else None, Termination[str(data["termination"])]
        )
