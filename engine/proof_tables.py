"""The claim question by table, for sides of two or three real cards.

A deck has few sets of two or three cards (24,804 of three among Schotten Totten's 54), so
each rule set's sets can be listed once, judged once, and kept strongest first, each as the
bits of its cards (`Card.bit`). "Can the other side, with these cards, still be completed
from the unseen cards into something stronger than `beat`?" is then a walk down the sets
that contain the side and are stronger than `beat`, looking for one whose other cards are
all unseen: integer operations only. It is the plain enumeration (`engine.enumeration`)
done in advance, so it is exact by construction; `engine.proof` answers every other case
(wild cards, four-card sides, the lower sum).
"""

from __future__ import annotations

import functools
from bisect import bisect_left
from collections.abc import Sequence
from itertools import combinations

from engine.cards import Card
from engine.formations import Formation, FormationRules, classify
from engine.proof import Completion

# Sides larger than this are left to engine.proof: C(60, 4) sets would not fit in memory.
MAX_SIZE = 3


class Table:
    """Every `rules.size`-card set of a deck, strongest first, indexed by each of its parts."""

    def __init__(self, rules: FormationRules, deck: Sequence[Card]) -> None:
        self.rules = rules
        entries = []
        for cards in combinations(deck, rules.size):
            values = [c.value for c in cards]
            actual = classify(values, [c.color for c in cards])
            total = sum(values)
            bits = 0
            for c in cards:
                bits |= c.bit
            entries.append((rules.key(actual, total), bits, cards, rules.counted(actual), total))
        entries.sort(key=lambda e: -e[0])  # stable: the deck's order among equal keys
        self._entries = entries
        # For each part of a set (its bits, from no card to all but one), the sets holding
        # it, strongest first: their negated keys (for bisect), their bits and their index.
        parts: dict[int, tuple[list[int], list[int], list[int]]] = {}
        size = rules.size
        for i, (key, bits, cards, _, _) in enumerate(entries):
            neg = -key
            masks = [0]
            for c in cards:  # every part of the set, the set itself last
                masks += [m | c.bit for m in masks]
            for mask in masks[:-1] if size > 0 else ():
                found = parts.get(mask)
                if found is None:
                    found = parts[mask] = ([], [], [])
                found[0].append(neg)
                found[1].append(bits)
                found[2].append(i)
        self._parts = parts

    def beating(self, side: Sequence[Card], unseen: int, beat: int) -> Completion | None:
        """The strongest completion of `side` (real cards only) from the cards whose bits are
        in `unseen`, if it is stronger than `beat`; else None."""
        mask = 0
        for c in side:
            mask |= c.bit
        found = self._parts.get(mask)
        if found is None:
            return None
        neg_keys, sets, index = found
        stronger = bisect_left(neg_keys, -beat)  # the sets with a key above `beat`
        missing = ~(unseen | mask)
        for j in range(stronger):
            if not sets[j] & missing:
                return self._completion(side, index[j])
        return None

    def _completion(self, side: Sequence[Card], i: int) -> Completion:
        key, _, cards, kind, total = self._entries[i]
        added = tuple(c for c in cards if c not in side)
        ordered = (*side, *added)
        formation = Formation(ordered, kind, total, key, (None,) * len(ordered), False)
        return Completion(added, formation)


@functools.cache
def table(rules: FormationRules, deck: tuple[Card, ...]) -> Table | None:
    """The table of a rule set over a deck, built on first use; None where the proof is
    better (more than three cards, or the lower sum, whose answer needs no search)."""
    if rules.size > MAX_SIZE or rules.lower_sum_wins:
        return None
    return Table(rules, deck)
