"""Schotten Totten moves and their notation.

Every move prints one canonical text (`R7 3`, `claim 4`, `pass`, `done`, `draw tactic`) and
parses forgivingly (`play red 7 on stone 3`, `Claim stone 4`). Parsing only reads the text;
whether the move is allowed is the game's business.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TypeAlias

from engine.cards import AnyCard, parse_card
from engine.errors import InvalidMoveError

DECKS = ("clan", "tactic")


class _Notation:
    """Moves repr as code that rebuilds them, like python-chess's `Move.from_uci('g1f3')`."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"parse_move({str(self)!r})"


@dataclass(frozen=True, slots=True, repr=False)
class Play(_Notation):
    """Play a card from hand on a stone (a combat mode goes on the stone itself)."""

    card: AnyCard
    stone: int

    def __str__(self) -> str:
        return f"{self.card} {self.stone}"


@dataclass(frozen=True, slots=True, repr=False)
class Claim(_Notation):
    """Claim a stone (RULINGS ST1-2, ST1-4)."""

    stone: int

    def __str__(self) -> str:
        return f"claim {self.stone}"


@dataclass(frozen=True, slots=True, repr=False)
class Pass(_Notation):
    """Play no card this turn (RULINGS ST1-9)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True, repr=False)
class Done(_Notation):
    """Stop claiming and end the turn (drawing if there is a card to draw)."""

    def __str__(self) -> str:
        return "done"


@dataclass(frozen=True, slots=True, repr=False)
class Draw(_Notation):
    """Draw from the clan or the tactic deck (Tactics variant, RULINGS ST1-10)."""

    deck: str

    def __str__(self) -> str:
        return f"draw {self.deck}"


@dataclass(frozen=True, slots=True, repr=False)
class Resign(_Notation):
    """Give up the game (or lose it on time, when the bot's timer says so)."""

    timeout: bool = False

    def __str__(self) -> str:
        return "timeout" if self.timeout else "resign"


Move: TypeAlias = Play | Claim | Pass | Done | Draw | Resign

_FILLER = {"play", "on", "to", "at", "the", "stone", "onto", "a"}
_DONE_WORDS = {"done", "end", "endturn", "finish", "noclaim", "nothing", "stop"}


def _words(text: str) -> list[str]:
    return [w for w in re.split(r"\s+", text.strip().lower()) if w]


def parse_move(text: str) -> Move:
    """Read a move forgivingly. Raises InvalidMoveError with a hint when it cannot."""
    words = _words(text)
    if not words:
        raise InvalidMoveError("Write a move, for example `R7 3`, `claim 4` or `pass`.")
    head, rest = words[0], [w for w in words[1:] if w not in _FILLER]
    squashed = "".join(words)
    if head == "claim":
        if len(rest) == 1 and rest[0].isdigit():
            return Claim(int(rest[0]))
        raise InvalidMoveError("Say which stone to claim, for example `claim 4`.")
    if squashed == "pass":
        return Pass()
    if squashed in _DONE_WORDS:
        return Done()
    if squashed == "resign":
        return Resign()
    if squashed == "timeout":
        return Resign(timeout=True)
    if head == "draw":
        if len(rest) == 1 and rest[0] in ("clan", "tactic", "tactics", "c", "t"):
            return Draw("clan" if rest[0].startswith("c") else "tactic")
        raise InvalidMoveError("Say which deck to draw from: `draw clan` or `draw tactic`.")
    return _parse_play(words)


def _parse_play(words: list[str]) -> Play:
    words = [w for w in words if w not in _FILLER]
    # "R7 3", "red 7 3", "R 7 3", and also "3 R7".
    for card_words, stone in ((words[:-1], words[-1]), (words[1:], words[0])):
        if card_words and stone.isdigit():
            try:
                return Play(parse_card(" ".join(card_words)), int(stone))
            except InvalidMoveError:
                pass
    card_text = " ".join(words)
    try:
        card = parse_card(card_text)
    except InvalidMoveError:
        raise InvalidMoveError(
            f"I cannot read {card_text!r} as a move. Try `R7 3` (play R7 on stone 3),"
            " `claim 4`, `pass` or `done`."
        ) from None
    raise InvalidMoveError(f"Say where to play {card}: for example `{card} 3` for stone 3.")
