"""Events particular to Schotten Totten 2. Public: no hidden card appears in them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import AnyCard, card_name, card_named
from engine.events import Event
from engine.formations import Formation


def _cards(cards: Sequence[AnyCard]) -> str:
    return " ".join(card_name(c) for c in sorted(cards, key=lambda c: c.sort_key()))


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    player: int
    card: AnyCard
    tile: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} played {card_named(self.card)} on tile {self.tile}."


@dataclass(frozen=True, slots=True)
class Retreated(Event):
    """The Attacker discarded their cards from some tiles (RULINGS ST2-1)."""

    player: int
    tiles: tuple[int, ...]
    cards: tuple[AnyCard, ...]

    def describe(self, names: Sequence[str]) -> str:
        where = ", ".join(str(t) for t in self.tiles)
        noun = "tile" if len(self.tiles) == 1 else "tiles"
        return (
            f"{names[self.player]} retreated from {noun} {where}, discarding {_cards(self.cards)}."
        )


@dataclass(frozen=True, slots=True)
class OilThrown(Event):
    """An oil cauldron discarded the Attacker's card closest to the wall (RULINGS ST2-6)."""

    player: int
    tile: int
    card: AnyCard
    left: int

    def describe(self, names: Sequence[str]) -> str:
        return (
            f"{names[self.player]} poured boiling oil on tile {self.tile}: {self.card} is"
            f" discarded ({self.left} cauldron{'s' if self.left != 1 else ''} left)."
        )


@dataclass(frozen=True, slots=True)
class ChickenVersusChef(Event):
    """A 0 met the 11 of its colour across a tile: both are discarded (RULINGS ST2-5)."""

    tile: int
    cards: tuple[AnyCard, AnyCard]

    def describe(self, names: Sequence[str]) -> str:
        a, b = self.cards
        return f"Chicken versus Chef on tile {self.tile}: {a} and {b} are both discarded."


@dataclass(frozen=True, slots=True)
class ControlDeclared(Event):
    """The Attacker took a tile: it flips to its damaged side and its cards are discarded
    (RULINGS ST2-7). `against` is the Defender's formation, or None when it was proven that no
    completion could beat the Attacker's (RULINGS ST2-4)."""

    player: int
    tile: int
    formation: Formation
    against: Formation | None
    was_damaged: bool
    damaged_tiles: int

    def describe(self, names: Sequence[str]) -> str:
        who, other = names[self.player], names[1 - self.player]
        head = f"{who} took control of tile {self.tile} with {self.formation.describe()}"
        if self.against is None:
            head += f"; {other} cannot beat it, whatever they add"
        elif self.against.key == self.formation.key:
            head += (
                f" against {self.against.describe()}: a tie, won by {who}, who completed"
                " their side first"
            )
        else:
            head += f" against {self.against.describe()}"
        if self.was_damaged:
            return head + ". It was already damaged: the wall is breached!"
        return f"{head}. The tile is damaged ({self.damaged_tiles} of 4)."


@dataclass(frozen=True, slots=True)
class TacticUsed(Event):
    """An action card was played (RULINGS ST2-10), with what it did, in words."""

    player: int
    card: AnyCard
    effect: str

    def describe(self, names: Sequence[str]) -> str:
        other = names[1 - self.player]
        return f"{names[self.player]} played {self.card.kind.title}: " + self.effect.format(  # type: ignore[union-attr]
            other=other, player=names[self.player]
        )


@dataclass(frozen=True, slots=True)
class CardsGiven(Event):
    """One player chose the cards to give in an Exchange (which stays private)."""

    player: int
    count: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} chose {self.count} cards to give."


@dataclass(frozen=True, slots=True)
class CardsExchanged(Event):
    counts: tuple[int, int]

    def describe(self, names: Sequence[str]) -> str:
        a, b = self.counts
        return f"{names[0]} gave {a} cards to {names[1]} and received {b}."
