"""Finding a named card in a hand, on the board or in a pile, for both games.

The two Jokers are interchangeable (rules notes R-6), so a text naming "joker" means the
lowest-numbered Joker where it looks. Always resolving the same way makes every move's
canonical text replay to exactly the same state.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol, TypeVar

from engine.cards import AnyCard, TacticCard
from engine.errors import IllegalMoveError
from engine.phrases import Phrase, say


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
    said where. Raises a player-facing error when it is not there. `whose` is "your" or
    "your opponent's" (whose side it is, for the reader), `noun` "stone" or "tile"."""
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
                raise IllegalMoveError(_elsewhere(str(found), noun, place.number, source))
            return place, found
    raise IllegalMoveError(_missing(str(card), whose == "your", noun, source))


def _elsewhere(card: str, noun: str, place: int, source: int) -> Phrase:
    values: dict[str, str | int] = {"card": card, "place": place, "source": source}
    if noun == "tile":
        return say("{card} is on tile {place}, not on tile {source}.", **values)
    return say("{card} is on stone {place}, not on stone {source}.", **values)


def _missing(card: str, mine: bool, noun: str, source: int | None) -> Phrase:
    """ "G5 is not on your opponent's side of stone 3." """
    v: dict[str, str | int] = {"card": card}
    if source is not None:
        v["place"] = source
    match (noun == "tile", mine, source is None):
        case (False, True, False):
            return say("{card} is not on your side of stone {place}.", **v)
        case (False, True, True):
            return say("{card} is not on your side of any stone.", **v)
        case (False, False, False):
            return say("{card} is not on your opponent's side of stone {place}.", **v)
        case (False, False, True):
            return say("{card} is not on your opponent's side of any stone.", **v)
        case (True, True, False):
            return say("{card} is not on your side of tile {place}.", **v)
        case (True, True, True):
            return say("{card} is not on your side of any tile.", **v)
        case (True, False, False):
            return say("{card} is not on your opponent's side of tile {place}.", **v)
    return say("{card} is not on your opponent's side of any tile.", **v)
