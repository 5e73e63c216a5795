"""Events particular to Schotten Totten."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import AnyCard
from engine.events import Event
from engine.formations import Formation


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """A card went onto a player's side of a stone."""

    player: int
    card: AnyCard
    stone: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} played {self.card} on stone {self.stone}."


@dataclass(frozen=True, slots=True)
class StoneClaimed(Event):
    """A stone was claimed: with which formation, against which (None: by proof, RULINGS
    ST1-4, the opponent's side being incomplete)."""

    player: int
    stone: int
    formation: Formation
    against: Formation | None

    def describe(self, names: Sequence[str]) -> str:
        who, other = names[self.player], names[1 - self.player]
        head = f"{who} claimed stone {self.stone} with {self.formation.describe()}"
        if self.against is None:
            return f"{head}; {other} cannot beat it, whatever they add."
        return f"{head} against {self.against.describe()}."
