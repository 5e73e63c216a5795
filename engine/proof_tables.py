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

from engine.cards import Card, bits_of
from engine.formations import Formation, FormationRules, FormationType, classify
from engine.proof import Completion

# Sides larger than this are left to engine.proof: C(60, 4) sets would not fit in memory.
MAX_SIZE = 3


class Table:
    """Every `rules.size`-card set of a deck, strongest first, indexed by each of its parts."""

    def __init__(self, rules: FormationRules, deck: tuple[Card, ...]) -> None:
        self.rules = rules
        sets = _sets(deck, rules.size)
        key = rules.key
        # Strongest first; among equal keys, the deck's order (a stable sort).
        order = sorted(range(len(sets)), key=lambda i: -key(sets[i][2], sets[i][3]))
        self._sets = [sets[i] for i in order]
        self._neg_keys = [-key(s[2], s[3]) for s in self._sets]
        self._bits = [s[1] for s in self._sets]
        # For each part of a set (its bits, from no card to all but one), the sets holding
        # it, by their place in the order above.
        parts: dict[int, list[int]] = {}
        for i, (cards, _, _, _) in enumerate(self._sets):
            masks = [0]
            for c in cards:  # every part of the set, the whole set last
                masks += [m | c.bit for m in masks]
            for mask in masks[:-1]:
                found = parts.get(mask)
                if found is None:
                    found = parts[mask] = []
                found.append(i)
        self._parts = parts

    def beating(self, side: Sequence[Card], unseen: int, beat: int) -> Completion | None:
        """The strongest completion of `side` (real cards only) from the cards whose bits are
        in `unseen`, if it is stronger than `beat`; else None."""
        mask = bits_of(side)
        j = self.first_beating(mask, unseen, beat)
        return None if j < 0 else self._completion(side, self._parts[mask][j])

    def first_beating(self, mask: int, unseen: int, beat: int, start: int = 0) -> int:
        """Among the sets holding the side `mask` (strongest first), the place of the first
        one from `start` on that is stronger than `beat` and whose other cards are all in
        `unseen`; -1 if none is.

        While the unseen cards only get fewer, the sets before a found one stay ruled out,
        so that a caller whose completion loses a card may go on from the place after it.
        """
        found = self._parts.get(mask)
        if found is None:
            return -1
        # The sets with a key above `beat` come first.
        stronger = bisect_left(found, -beat, key=self._neg_keys.__getitem__)
        missing = ~(unseen | mask)
        bits = self._bits
        for j in range(start, stronger):
            if not bits[found[j]] & missing:
                return j
        return -1

    def set_bits(self, mask: int, j: int) -> int:
        """The cards (as bits) of the set at place `j` among those holding the side `mask`."""
        return self._bits[self._parts[mask][j]]

    def _completion(self, side: Sequence[Card], i: int) -> Completion:
        cards, _, actual, total = self._sets[i]
        rules = self.rules
        added = tuple(c for c in cards if c not in side)
        ordered = (*side, *added)
        key = rules.key(actual, total)
        formation = Formation(ordered, rules.counted(actual), total, key, (None,) * len(ordered))
        return Completion(added, formation)


# A set of cards: the cards, their bits, its type (before rules count it) and its total.
Set = tuple[tuple[Card, ...], int, FormationType, int]


@functools.cache
def _sets(deck: tuple[Card, ...], size: int) -> list[Set]:
    """Every `size`-card set of a deck, judged once for every rule set of that size."""
    out: list[Set] = []
    for cards in combinations(deck, size):
        values = [c.value for c in cards]
        bits = 0
        for c in cards:
            bits |= c.bit
        out.append((cards, bits, classify(values, [c.color for c in cards]), sum(values)))
    return out


@functools.cache
def table(rules: FormationRules, deck: tuple[Card, ...]) -> Table | None:
    """The table of a rule set over a deck, built on first use; None where the proof is
    better (more than three cards, or the lower sum, whose answer needs no search)."""
    if rules.size > MAX_SIZE or rules.lower_sum_wins:
        return None
    return Table(rules, deck)
