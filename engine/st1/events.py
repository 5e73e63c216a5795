"""Events particular to Schotten Totten."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import AnyCard, card_named
from engine.events import Event
from engine.formations import Formation


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """A card went onto a player's side of a stone."""

    player: int
    card: AnyCard
    stone: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} played {card_named(self.card)} on stone {self.stone}."


@dataclass(frozen=True, slots=True)
class StoneClaimed(Event):
    """A stone was claimed: with which formation, against which (None: by proof, RULINGS
    ST1-4, the opponent's side being incomplete)."""

    player: int
    stone: int
    formation: Formation
    against: Formation | None
    modes: tuple[str, ...] = ()  # the combat modes on the stone, by title

    def describe(self, names: Sequence[str]) -> str:
        who, other = names[self.player], names[1 - self.player]
        where = f"stone {self.stone}"
        if self.modes:
            where += f" (with {' and '.join(self.modes)})"
        head = f"{who} claimed {where} with {self.formation.describe()}"
        if self.against is None:
            return f"{head}; {other} cannot beat it, whatever they add."
        if self.against.key == self.formation.key:
            return (
                f"{head} against {self.against.describe()}: a tie, won by {who}, who completed"
                " their side first."
            )
        return f"{head} against {self.against.describe()}."
