"""What a stone (Schotten Totten) and a wall tile (Schotten Totten 2) have in common: two
sides of cards judged under one rule set, and the moment each side became complete."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from engine.cards import AnyCard, bits_of
from engine.formations import FormationRules, Slot

# Versions come from one counter, so a place that changes and changes back still gets a new
# one: a cache keyed by version is never fooled by a restored side.
_versions = itertools.count(1)


@dataclass(slots=True)
class Place:
    """Subclasses say how many cards a side needs (`size`), under which `rules`, and what
    a card on a side stands for (`slot_of`: a wild card's choices)."""

    number: int
    sides: tuple[list[AnyCard], list[AnyCard]] = field(default_factory=lambda: ([], []))
    completed_at: list[int | None] = field(default_factory=lambda: [None, None])
    # Changes with every change of the sides (or of what the place is): `refresh` and
    # `touch` give it a new value. Caches of proofs and of `mask` are keyed by it.
    version: int = field(default=0, repr=False, compare=False)
    _mask: tuple[int, int] = field(default=(-1, 0), repr=False, compare=False)

    @property
    def size(self) -> int:
        return self.rules.size

    @property
    def rules(self) -> FormationRules:
        raise NotImplementedError

    def slot_of(self, card: AnyCard) -> Slot:
        raise NotImplementedError

    def complete(self, player: int) -> bool:
        return len(self.sides[player]) >= self.size

    def has_room(self, player: int) -> bool:
        return len(self.sides[player]) < self.size

    def slots(self, player: int) -> list[Slot]:
        return [self.slot_of(c) for c in self.sides[player]]

    def touch(self) -> None:
        """Say that the place changed (`refresh` does it too): proofs about it are redone."""
        self.version = next(_versions)

    @property
    def mask(self) -> int:
        """The clan (or siege) cards on both sides, as bits (`Card.bit`): face-up cards
        that no proof may use."""
        version, bits = self._mask
        if version != self.version:
            bits = bits_of(self.sides[0]) | bits_of(self.sides[1])
            self._mask = (self.version, bits)
        return bits

    def refresh(self, clock: int) -> None:
        """Record when each side became complete. A side that lost a card, or has a new
        place to fill, is incomplete again, and its completion is decided afresh (RULINGS
        ST1-14, ST2-3)."""
        self.version = next(_versions)
        for p in (0, 1):
            if self.complete(p):
                if self.completed_at[p] is None:
                    self.completed_at[p] = clock
            else:
                self.completed_at[p] = None

    def first_complete(self) -> int | None:
        """Who completed first, when both sides are complete."""
        a, b = self.completed_at
        if a is None or b is None:
            return None
        return 0 if a < b else 1

    def shape(self) -> tuple[object, ...]:
        """Everything a proof about this place depends on, besides the unseen cards."""
        return (*self.sides[0], None, *self.sides[1])
