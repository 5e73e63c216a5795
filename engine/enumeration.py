"""The plain enumeration the proof is checked against (tests) and timed against (benchmarks).

It tries every set of missing cards from the pool and every colour and value of every wild
card. Obviously right, and far too slow to run on every move.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations, product

from engine.cards import Card
from engine.formations import FormationRules, Slot, Wild, classify


def completions(
    side: Sequence[Slot], pool: Iterable[Card], rules: FormationRules
) -> Iterator[tuple[int, tuple[Card, ...], tuple[Card, ...]]]:
    """Every (key, cards added, cards the wild cards became) for the side."""
    reals = [s for s in side if isinstance(s, Card)]
    wilds = [s for s in side if isinstance(s, Wild)]
    k = rules.size - len(side)
    wild_choices = [[Card(c, v) for c in w.colors for v in w.values] for w in wilds]
    for added in combinations(sorted(pool, key=lambda c: c.sort_key()), k):
        for as_cards in product(*wild_choices):
            cards = reals + list(added) + list(as_cards)
            values = [c.value for c in cards]
            actual = classify(values, [c.color for c in cards])
            yield rules.key(actual, sum(values)), added, as_cards


def enumerate_best(side: Sequence[Slot], pool: Iterable[Card], rules: FormationRules) -> int | None:
    """The key of the strongest completion, or None when the pool is too small."""
    return max((key for key, _, _ in completions(side, pool, rules)), default=None)


def enumerate_beating(
    side: Sequence[Slot], pool: Iterable[Card], rules: FormationRules, beat: int
) -> tuple[Card, ...] | None:
    """The first completion found whose key is above `beat` (the cards added), or None."""
    for key, added, _ in completions(side, pool, rules):
        if key > beat:
            return added
    return None
