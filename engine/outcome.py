"""How a game ended, as data (like python-chess's `Outcome`)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.phrases import Phrase, say_in


class Termination(enum.Enum):
    """Why a game ended."""

    # Schotten Totten (RULINGS ST1-7, ST1-9)
    THREE_ADJACENT = "three adjacent stones"
    FIVE_STONES = "five stones"
    NO_MOVES = "neither player can play or claim"  # a draw, or a game stored before the two below
    NO_MOVES_MORE_STONES = "neither player can play or claim: more stones"
    NO_MOVES_LAST_CLAIM = "neither player can play or claim, stones equal: last stone claimed"
    # Schotten Totten 2 (RULINGS ST2-7, ST2-8)
    DAMAGED_TILE_TAKEN = "control of a damaged wall tile"
    FOURTH_TILE_DAMAGED = "a fourth wall tile damaged"
    DECK_EMPTY = "the deck ran out"
    DEFENDER_CANNOT_PLAY = "every space on the Defender's side is full: the wall holds"
    # Either game
    RESIGNED = "resignation"
    TIMEOUT = "time ran out"
    # Never reached by a game: what the bot's pictures show of a game it aborted (resigned
    # or lost on time before both players moved, rules notes R-28), which the engine lost.
    ABORTED = "aborted, unrated"

    @property
    def reason(self) -> Phrase:
        """Why the game ended, for players (a Phrase: its English text is `value`, which
        stays English because it is stored and compared)."""
        return _REASONS[self]


# TRANSLATORS: why a game ended, shown in brackets after the result: "Alice wins (five stones)".
_REASONS: dict[Termination, Phrase] = {
    Termination.THREE_ADJACENT: say_in("game end", "three adjacent stones"),
    Termination.FIVE_STONES: say_in("game end", "five stones"),
    Termination.NO_MOVES: say_in("game end", "neither player can play or claim"),
    # The deciding rule of RULINGS ST1-9, when the game has a winner.
    Termination.NO_MOVES_MORE_STONES: say_in(
        "game end", "neither player can play or claim: more stones"
    ),
    Termination.NO_MOVES_LAST_CLAIM: say_in(
        "game end", "neither player can play or claim, stones equal: last stone claimed"
    ),
    Termination.DAMAGED_TILE_TAKEN: say_in("game end", "control of a damaged wall tile"),
    Termination.FOURTH_TILE_DAMAGED: say_in("game end", "a fourth wall tile damaged"),
    Termination.DECK_EMPTY: say_in("game end", "the deck ran out"),
    Termination.DEFENDER_CANNOT_PLAY: say_in(
        "game end", "every space on the Defender's side is full: the wall holds"
    ),
    Termination.RESIGNED: say_in("game end", "resignation"),
    Termination.TIMEOUT: say_in("game end", "time ran out"),
    Termination.ABORTED: say_in("game end", "aborted, unrated"),
}
assert all(_REASONS[t] == t.value for t in Termination)


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
