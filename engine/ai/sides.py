"""What a card's fit with a side depends on (`st1_policy.Side`, `st2_policy.Side`), worked
out once per side so that every card a decision judges there reuses it."""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import AnyCard, Card


class SideFacts:
    """The real cards' values on a side, their one colour and one value if they share one,
    their range, and whether the other side is complete (`done`: little left to gain)."""

    __slots__ = ("color", "done", "hi", "lo", "same", "values")

    def __init__(self, side: Sequence[AnyCard], other: Sequence[AnyCard], size: int) -> None:
        reals = [c for c in side if c.__class__ is Card]
        values = [c.value for c in reals]
        self.values = values
        first = reals[0].color if reals else None
        self.color = first if all(c.color is first for c in reals) else None
        self.lo = min(values, default=0)
        self.hi = max(values, default=0)
        self.same = values[0] if values and all(v == values[0] for v in values) else None
        self.done = len(side) + 1 >= size and len(other) >= size
