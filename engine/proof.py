"""The exact proof: the strongest way to complete a side, without enumerating completions.

`best_completion(side, pool, rules)` returns the strongest formation that the cards already on
a side (real and wild) can become when the missing cards are drawn from `pool`. With
`beat=key` it answers the claim question of RULINGS ST1-4 / ST2-4: is there a completion
strictly stronger than `key`, and if so, which one?

Why it is exact: formations compare by (type counted, total). The strongest completion is
therefore the highest-total completion of the strongest type that any completion reaches. We
try the considered types strongest first. For each type we find the highest total directly:
colour runs, same strength and runs have a fixed total per start value, so we walk the start
values downwards and stop at the first one the pool and wild cards can fill; colour and
"counts as a sum" are found by branch and bound over cards sorted by value, which visits only
completions whose total could still be the answer. Wild cards choose their colour last, by
what the type needs (all one colour, or not all one colour). `engine.enumeration` holds the
plain enumeration these answers are checked against.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations, permutations, product
from typing import cast

from engine.cards import Card, Color, TacticCard, bits_of
from engine.formations import (
    Formation,
    FormationRules,
    FormationType,
    Slot,
    Wild,
    classify,
    split_key,
)

NO_BOUND = -(10**9)


class Pool:
    """Cards a completion may draw from, indexed once so that many proofs can share it.
    `bits` holds the same cards as one integer (`Card.bit`)."""

    __slots__ = ("bits", "by_color", "by_value", "codes", "desc")

    def __init__(self, cards: Iterable[Card], *, _sorted: bool = False) -> None:
        # Deterministic order: value descending, then colour.
        self._index(list(cards) if _sorted else sorted(set(cards), key=_pool_order))
        self.bits = bits_of(self.desc)

    def _index(self, desc: list[Card]) -> None:
        self.desc = desc
        self.by_value: dict[int, list[Card]] = {}
        self.by_color: dict[Color, list[Card]] = {}
        self.codes: dict[int, Card] = {}
        for c in desc:
            self.by_value.setdefault(c.value, []).append(c)
            self.by_color.setdefault(c.color, []).append(c)
            self.codes[c.code] = c

    @classmethod
    def presorted(cls, cards: list[Card]) -> Pool:
        """A pool from distinct cards already sorted by value descending, then colour."""
        return cls(cards, _sorted=True)

    @classmethod
    def of_bits(cls, bits: int, deck_by_value: Sequence[Card]) -> Pool:
        """The cards of `deck_by_value` (sorted as pools are) whose bits are in `bits`; the
        indexes are only built if a proof asks for them (`proof_tables` needs the bits)."""
        pool = _LazyPool.__new__(_LazyPool)
        pool.bits = bits
        pool._deck = deck_by_value
        return pool

    def __len__(self) -> int:
        return len(self.desc)

    def __contains__(self, card: Card) -> bool:
        return card.code in self.codes

    def get(self, color: Color, value: int) -> Card | None:
        return self.codes.get(color.index * 16 + value)


class _LazyPool(Pool):
    """A pool known by its bits until a proof reads its cards (`Pool.of_bits`)."""

    __slots__ = ("_deck",)
    _deck: Sequence[Card]

    def __getattr__(self, name: str) -> object:
        # Only called for a slot not yet filled: fill them all, then answer.
        if name not in ("desc", "by_value", "by_color", "codes"):
            raise AttributeError(name)
        bits = self.bits
        self._index([c for c in self._deck if c.bit & bits])
        return getattr(self, name)


def _pool_order(card: Card) -> tuple[int, int]:
    return (-card.value, card.color.index)


@dataclass(frozen=True, slots=True)
class Completion:
    """Cards added to a side from the pool, and the formation the side then makes."""

    added: tuple[Card, ...]
    formation: Formation


@dataclass(slots=True)
class _Found:
    """An inner answer: the type reached, its total, the pool cards added and the wild cards'
    values and colours (parallel to the side's wild cards)."""

    type: FormationType
    total: int
    added: list[Card]
    wild_values: list[int]
    wild_colors: list[Color]
    plan: object = None  # what the acceptance test of a branch and bound decided


def best_completion(
    side: Sequence[Slot],
    pool: Pool | Iterable[Card],
    rules: FormationRules,
    *,
    beat: int | None = None,
) -> Completion | None:
    """The strongest completion of `side` from `pool`, or None if the pool is too small.

    With `beat`, only a completion whose key is strictly greater than `beat` is returned,
    and None means no completion beats it.
    """
    if not isinstance(pool, Pool):
        pool = Pool(pool)
    reals = [s for s in side if isinstance(s, Card)]
    wilds = [s for s in side if isinstance(s, Wild)]
    k = rules.size - len(side)
    if k < 0:
        raise ValueError(f"a side of {len(side)} cards is over the {rules.size} allowed")
    if k > len(pool):
        return None
    search = _Search(reals, wilds, k, pool, rules)
    found = search.lower_sum(beat) if rules.lower_sum_wins else search.strongest(beat)
    if found is None:
        return None
    return Completion(tuple(found.added), _formation(side, found, rules))


def evaluate(side: Sequence[Slot], rules: FormationRules) -> Formation:
    """A complete side as its owner would have it judged: wild cards take their best values."""
    key = (*side, rules)
    found = _JUDGED.get(key)
    if found is None:
        if len(_JUDGED) >= _JUDGED_MAX:
            _JUDGED.clear()
        found = _JUDGED[key] = _evaluate(side, rules)
    return found


# Sides judged lately: every move asks again about the sides of the stones it left unchanged.
_JUDGED: dict[tuple[object, ...], Formation] = {}
_JUDGED_MAX = 50_000


def _evaluate(side: Sequence[Slot], rules: FormationRules) -> Formation:
    if len(side) != rules.size:
        raise ValueError(f"a complete side has {rules.size} cards, not {len(side)}")
    if all(isinstance(s, Card) for s in side):
        # Every slot is a Card (checked just above); the list cannot narrow to say so.
        cards: list[Card] = list(side)  # type: ignore[arg-type]
        values = [c.value for c in cards]
        actual = classify(values, [c.color for c in cards])
        total = sum(values)
        return Formation(
            tuple(cards),
            rules.counted(actual),
            total,
            rules.key(actual, total),
            (None,) * len(cards),
            rules.lower_sum_wins,
        )
    done = best_completion(side, (), rules)
    assert done is not None  # nothing is missing, so a completion always exists
    return done.formation


def _formation(side: Sequence[Slot], found: _Found, rules: FormationRules) -> Formation:
    cards: list[Card] = []
    wilds: list[TacticCard | None] = []
    wild_i = 0
    for s in side:
        if isinstance(s, Wild):
            cards.append(Card(found.wild_colors[wild_i], found.wild_values[wild_i]))
            wilds.append(s.card)
            wild_i += 1
        else:
            cards.append(s)
            wilds.append(None)
    cards.extend(found.added)
    wilds.extend([None] * len(found.added))
    values = [c.value for c in cards]
    actual = classify(values, [c.color for c in cards])
    if not rules.lower_sum_wins:
        # The search chose colours to reach exactly this type; check it did.
        assert rules.counted(actual) == rules.counted(found.type), (actual, found.type)
    total = sum(values)
    return Formation(
        tuple(cards),
        rules.counted(actual),
        total,
        rules.key(actual, total),
        tuple(wilds),
        rules.lower_sum_wins,
    )


_RANKED = sorted(FormationType, reverse=True)


class _Search:
    """One proof: the side's real and wild cards, how many pool cards are missing, the pool."""

    def __init__(
        self, reals: list[Card], wilds: list[Wild], k: int, pool: Pool, rules: FormationRules
    ) -> None:
        self.reals = reals
        self.wilds = wilds
        self.k = k
        self.pool = pool
        self.rules = rules
        self.n = rules.size
        self.real_values = [c.value for c in reals]
        self.real_colors = {c.color for c in reals}
        values = set(self.real_values) | set(pool.by_value)
        colors = set(self.real_colors) | set(pool.by_color)
        for w in wilds:
            values.update(w.values)
            colors.update(w.colors)
        self.lo = min(values, default=0)
        self.hi = max(values, default=0)
        self.colors = sorted(colors, key=lambda c: c.index)

    # The two kinds of rule set -------------------------------------------------------------

    def lower_sum(self, beat: int | None) -> _Found | None:
        """Lower sum wins: the completion with the smallest total."""
        added = self.pool.desc[len(self.pool.desc) - self.k :] if self.k else []
        wild_values = [min(w.values) for w in self.wilds]
        total = sum(self.real_values) + sum(c.value for c in added) + sum(wild_values)
        if beat is not None and -total <= beat:
            return None
        colors = [w.colors[0] for w in self.wilds]
        return _Found(FormationType.SUM, total, list(added), wild_values, colors)

    def strongest(self, beat: int | None) -> _Found | None:
        # Keys of these rules are never negative, so a negative bar is no bar.
        beat_type, beat_total = split_key(beat) if beat is not None and beat >= 0 else (None, 0)
        finders: dict[FormationType, Callable[[int], _Found | None]] = {
            FormationType.COLOR_RUN: self.color_run,
            FormationType.SAME_STRENGTH: self.same_strength,
            FormationType.COLOR: self.color,
            FormationType.RUN: self.run,
            FormationType.SUM: self.counts_as_sum,
        }
        for t in _RANKED:
            if t is not FormationType.SUM and t not in self.rules.types:
                continue
            if beat_type is not None and t < beat_type:
                return None
            min_total = beat_total + 1 if t == beat_type else NO_BOUND
            found = finders[t](min_total)
            if found is not None:
                return found
        return None

    # Types with a fixed total per start value ----------------------------------------------

    def _run_starts(self, min_total: int) -> Iterable[tuple[int, list[int]]]:
        """Start values of runs, highest first, with the values the real cards leave missing."""
        n = self.n
        if len(set(self.real_values)) != len(self.real_values):
            return
        have = set(self.real_values)
        for s in range(self.hi - n + 1, self.lo - 1, -1):
            if n * s + n * (n - 1) // 2 < min_total:
                return
            needed = range(s, s + n)
            if have.issubset(needed):
                yield s, [v for v in needed if v not in have]

    def _wild_splits(
        self, missing: list[int], fillable: Callable[[int], bool]
    ) -> Iterable[tuple[list[int], list[int]]]:
        """Ways to give the wild cards distinct missing values (each within its own values),
        leaving the rest to the pool. Yields (value per wild card, values left to the pool)."""
        w = len(self.wilds)
        forced = [m for m in missing if not fillable(m)]
        if len(forced) > w:
            return
        free = [m for m in missing if fillable(m)]
        for extra in combinations(free, w - len(forced)):
            chosen = forced + list(extra)
            for order in permutations(chosen):
                if all(v in wild.values for v, wild in zip(order, self.wilds, strict=True)):
                    yield list(order), [m for m in free if m not in extra]
                    break

    def color_run(self, min_total: int) -> _Found | None:
        if len(self.real_colors) > 1:
            return None
        colors = list(self.real_colors) or self.colors
        for s, missing in self._run_starts(min_total):
            for color in colors:
                if not all(color in w.colors for w in self.wilds):
                    continue

                def fillable(v: int, c: Color = color) -> bool:
                    return self.pool.get(c, v) is not None

                for wild_values, rest in self._wild_splits(missing, fillable):
                    added = [self.pool.get(color, v) for v in rest]
                    return _Found(
                        FormationType.COLOR_RUN,
                        sum(range(s, s + self.n)),
                        # `fillable` found each of these values in the pool: no None.
                        added,  # type: ignore[arg-type]
                        wild_values,
                        [color] * len(self.wilds),
                    )
        return None

    def same_strength(self, min_total: int) -> _Found | None:
        if len(set(self.real_values)) > 1:
            return None
        candidates = self.real_values[:1] or range(self.hi, self.lo - 1, -1)
        for v in candidates:
            if self.n * v < min_total:
                return None
            if not all(v in w.values for w in self.wilds):
                continue
            cards = self.pool.by_value.get(v, [])
            if len(cards) < self.k:
                continue
            added = cards[: self.k]
            return _Found(
                FormationType.SAME_STRENGTH,
                self.n * v,
                list(added),
                [v] * len(self.wilds),
                self._colors_for(self.reals + added, mono=None),
            )
        return None

    def run(self, min_total: int) -> _Found | None:
        """A run that is not a colour run: its cards must not all share one colour."""
        for s, missing in self._run_starts(min_total):
            for wild_values, rest in self._wild_splits(missing, lambda v: v in self.pool.by_value):
                added = self._mixed_pick(rest)
                if added is not None:
                    return _Found(
                        FormationType.RUN,
                        sum(range(s, s + self.n)),
                        added,
                        wild_values,
                        self._colors_for(self.reals + added, mono=False),
                    )
        return None

    def _mixed_pick(self, values: list[int]) -> list[Card] | None:
        """One pool card per value such that the whole side can avoid being one colour."""
        options = [self.pool.by_value[v] for v in values]
        if self.wilds or len(self.real_colors) > 1:
            return [cards[0] for cards in options]  # a wild card can take another colour
        # Only the colour matters, so try each value's distinct colours.
        per_value = [list({c.color: c for c in cards}.values()) for cards in options]
        for pick in product(*per_value):
            if len(self.real_colors | {c.color for c in pick}) > 1:
                return list(pick)
        return None

    # Types found by branch and bound --------------------------------------------------------

    def color(self, min_total: int) -> _Found | None:
        """All one colour, but neither a run nor same strength."""
        if len(self.real_colors) > 1:
            return None
        best: _Found | None = None
        for color in list(self.real_colors) or self.colors:
            if not all(color in w.colors for w in self.wilds):
                continue
            cands = self.pool.by_color.get(color, [])
            floor = min_total if best is None else best.total + 1
            found = self._branch_and_bound(cands, floor, _plain_color)
            if found is not None:
                found.type = FormationType.COLOR
                found.wild_colors = [color] * len(self.wilds)
                best = found
        return best

    def counts_as_sum(self, min_total: int) -> _Found | None:
        """The highest total among completions whose type is not considered (or is a sum)."""
        w = len(self.wilds)
        counted = self.rules.counted
        real_colors = self.real_colors

        def accept(
            values: list[int], picks: list[Card]
        ) -> tuple[FormationType, bool | None] | None:
            if _is_same(values):
                # Colours cannot change a same-strength formation.
                same = FormationType.SAME_STRENGTH
                return (same, None) if counted(same) is FormationType.SUM else None
            colors = real_colors.union(c.color for c in picks)
            mono_ok = len(colors) <= 1  # wild cards can join the one colour
            mixed_ok = len(colors) > 1 or (w > 0 and len(colors) + w > 1)
            if _is_run(values):
                options = [(FormationType.COLOR_RUN, mono_ok), (FormationType.RUN, mixed_ok)]
            else:
                options = [(FormationType.COLOR, mono_ok), (FormationType.SUM, mixed_ok)]
            for t, possible in options:
                if possible and counted(t) is FormationType.SUM:
                    return t, t in (FormationType.COLOR_RUN, FormationType.COLOR)
            return None

        found = self._branch_and_bound(self.pool.desc, min_total, accept)
        if found is not None:
            # `plan` is what `accept` above returned for this branch (never None once found).
            t, mono = cast(tuple[FormationType, bool | None], found.plan)
            found.type = t
            found.wild_colors = self._colors_for(self.reals + found.added, mono=mono)
        return found

    def _branch_and_bound(
        self,
        cands: list[Card],
        min_total: int,
        accept: Callable[[list[int], list[Card]], object],
    ) -> _Found | None:
        """The highest-total choice of `k` cards from `cands` (sorted by value, highest first)
        and one value per wild card, that `accept` takes, with a total of at least min_total."""
        k = self.k
        if len(cands) < k:
            return None
        wilds = self.wilds
        cand_values = [c.value for c in cands]
        wild_best = [w.values[0] for w in wilds]
        wild_rest = [sum(wild_best[j:]) for j in range(len(wilds) + 1)]
        base_values = self.real_values
        base_total = sum(base_values)
        best_total = min_total - 1
        best: _Found | None = None
        picks: list[Card] = []
        pick_values: list[int] = []
        wild_values: list[int] = []

        def over_wilds(j: int, total: int) -> None:
            nonlocal best_total, best
            if j == len(wilds):
                if total <= best_total:
                    return
                values = base_values + pick_values + wild_values
                plan = accept(values, picks)
                if plan is not None:
                    best_total = total
                    best = _Found(
                        FormationType.SUM, total, list(picks), list(wild_values), [], plan
                    )
                return
            for v in wilds[j].values:
                if total + v + wild_rest[j + 1] <= best_total:
                    return
                wild_values.append(v)
                over_wilds(j + 1, total + v)
                wild_values.pop()

        def over_pool(i: int, left: int, total: int) -> None:
            if left == 0:
                over_wilds(0, total)
                return
            for j in range(i, len(cands) - left + 1):
                if total + sum(cand_values[j : j + left]) + wild_rest[0] <= best_total:
                    return  # later cards are no higher, so nothing further can do better
                picks.append(cands[j])
                pick_values.append(cand_values[j])
                over_pool(j + 1, left - 1, total + cand_values[j])
                picks.pop()
                pick_values.pop()

        over_pool(0, k, base_total)
        return best

    def _colors_for(self, cards: list[Card], *, mono: bool | None) -> list[Color]:
        """Colours for the wild cards: all the side's colour (mono), not all one colour
        (mono=False), or, when it does not matter, a colour that keeps the side looking
        natural."""
        present = [c.color for c in cards]
        out: list[Color] = []
        for w in self.wilds:
            if mono:
                pick = present[0] if present else w.colors[0]
            else:
                # A colour not yet on the side: mixes the colours, and reads naturally.
                pick = next((c for c in w.colors if c not in present), w.colors[0])
            present.append(pick)
            out.append(pick)
        return out


# Type tests on complete value lists ---------------------------------------------------------


def _plain_color(values: list[int], picks: list[Card]) -> bool | None:
    """Accepts a one-colour side that is neither a run nor same strength."""
    return None if _is_run(values) or _is_same(values) else True


def _is_same(values: list[int]) -> bool:
    return min(values) == max(values)


def _is_run(values: list[int]) -> bool:
    return max(values) - min(values) == len(values) - 1 and len(set(values)) == len(values)
