"""Finding a named card in a hand, on the board or in a pile, for both games.

The two Jokers are interchangeable (README R-6), so a text naming "joker" means the
lowest-numbered Joker where it looks. Always resolving the same way makes every move's
canonical text replay to exactly the same state.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol, TypeVar

from engine.cards import AnyCard, TacticCard
from engine.errors import IllegalMoveError


class HasSides(Protocol):
    number: int
    sides: tuple[list[AnyCard], list[AnyCard]]


P = TypeVar("P", bound=HasSides)


def pick(card: AnyCard, among: Iterable[AnyCard]) -> AnyCard | None:
    """The card in `among` that `card` names: itself, or for a Joker the lowest copy there."""
    if isinstance(card, TacticCard):
        matches = [c for c in among if isinstance(c, TacticCard) and c.kind is card.kind]
        return min(matches, key=lambda c: c.copy) if matches else None
    return card if card in among else None


def locate(
    card: AnyCard, places: Sequence[P], side: int, source: int | None, whose: str, noun: str
) -> tuple[P, AnyCard]:
    """Where `card` lies on `side` of the board; `source` (a place number) when the player
    said where. Raises a player-facing error when it is not there."""
    if source is not None:
        for place in places:
            if place.number == source:
                found = pick(card, place.sides[side])
                if found is not None:
                    return place, found
    for place in places:
        found = pick(card, place.sides[side])
        if found is not None:
            if source is not None:
                raise IllegalMoveError(
                    f"{found} is on {noun} {place.number}, not on {noun} {source}."
                )
            return place, found
    where = f"{noun} {source}" if source is not None else f"any {noun}"
    raise IllegalMoveError(f"{card} is not on {whose} side of {where}.")
