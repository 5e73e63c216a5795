"""How strong a side of a stone or wall tile will probably end up, as a distribution.

The computer players judge a place by comparing what each side is likely to become. A side
already holds some cards; the missing ones will come from cards its owner may still get,
each with an *availability*: near 1 for a card in the evaluating player's own hand, a
smaller chance for a card nobody has shown (in the other hand or a deck), 0 for a card
face-up on the table. A `Supply` holds one player's availabilities, indexed by `Card.code`.

For every formation the side could still become (each colour run, each value for same
strength, each run, each colour, and a sum, under the place's `FormationRules`) we estimate
the chance its missing cards arrive, treating cards as independent. Taking the strongest
formation reached gives a distribution over formation keys, `[(key, probability), ...]`.
It is an estimate, not the exact proof (`engine.proof` is that), and cheap enough to run
thousands of times a move: a `Supply` remembers every outlook it has worked out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card, Color
from engine.formations import FormationRules, FormationType, Slot, Wild
from engine.proof import evaluate

Dist = list[tuple[int, float]]  # (formation key, probability); the probabilities sum to 1

CODES = 6 * 16  # Card.code is colour index * 16 + value
_RUN, _SAME, _COLOR, _COLOR_RUN = (
    FormationType.RUN,
    FormationType.SAME_STRENGTH,
    FormationType.COLOR,
    FormationType.COLOR_RUN,
)


@dataclass(frozen=True, slots=True)
class Palette:
    """The cards of one game: its colours and values."""

    colors: tuple[Color, ...]
    values: tuple[int, ...]

    @property
    def colors_by_index(self) -> dict[int, Color]:
        return {c.index: c for c in self.colors}

    def codes(self) -> list[int]:
        return [c.index * 16 + v for c in self.colors for v in self.values]


class Supply:
    """One player's availabilities, with what every outlook reuses worked out once."""

    __slots__ = (
        "_at_least",
        "_colors",
        "_memo",
        "any_value",
        "avail",
        "by_color",
        "empties",
        "empty_key",
        "high",
        "low",
        "palette",
    )

    def __init__(
        self,
        avail: list[float],
        palette: Palette,
        *,
        empties: dict[tuple[object, FormationRules], Dist] | None = None,
        empty_key: object = None,
    ) -> None:
        """`empties` may be shared by supplies that differ only slightly (positions a few
        moves apart): an empty side's outlook, the dearest to work out, is then worked out
        once for every supply with the same `empty_key`."""
        self.avail = avail
        self.palette = palette
        self.empties = {} if empties is None else empties
        self.empty_key = empty_key
        present = [(code & 15, avail[code]) for code in palette.codes() if avail[code] > 0.0]
        self.high = sorted(present, key=lambda t: -t[0])
        self.low = self.high[::-1]
        # Per colour: (value, availability), highest value first.
        self.by_color = {
            c: [
                (v, avail[c.index * 16 + v])
                for v in reversed(palette.values)
                if avail[c.index * 16 + v] > 0.0
            ]
            for c in palette.colors
        }
        # Per value: the chance that at least one card of that value arrives.
        self.any_value = [0.0] * 16
        for v in palette.values:
            miss = 1.0
            for c in palette.colors:
                miss *= 1.0 - avail[c.index * 16 + v]
            self.any_value[v] = 1.0 - miss
        self._at_least: dict[tuple[int, int], float] = {}
        self._colors: dict[tuple[Color, int], tuple[float, float]] = {}
        self._memo: dict[tuple[tuple[Slot, ...], FormationRules], Dist] = {}

    def same_value(self, value: int, m: int) -> float:
        """P(at least m more cards of this value arrive)."""
        key = (value, m)
        found = self._at_least.get(key)
        if found is None:
            probs = [self.avail[c.index * 16 + value] for c in self.palette.colors]
            found = self._at_least[key] = at_least(probs, m)
        return found

    def color(self, color: Color, m: int) -> tuple[float, float]:
        """P(at least m more cards of this colour arrive), and their likely total."""
        key = (color, m)
        found = self._colors.get(key)
        if found is None:
            cands = self.by_color[color]
            p = at_least([q for _, q in cands], m)
            found = self._colors[key] = (p, expected_top(cands, m))
        return found

    def outlook(self, side: Sequence[Slot], rules: FormationRules) -> Dist:
        """The distribution of the key this side ends with (see the module docstring)."""
        key = (tuple(side), rules)
        found = self._memo.get(key)
        if found is None:
            if side:
                found = _outlook(side, rules, self)
            else:
                shared = (self.empty_key, rules)
                found = self.empties.get(shared)
                if found is None:
                    found = self.empties[shared] = self._empty(rules)
            self._memo[key] = found
        return found

    def _empty(self, rules: FormationRules) -> Dist:
        """An empty side: its first card is one of those that may arrive, each as likely as
        it is available, and the side then looks as it would with that card.

        Judging an empty side by every formation it could become, as if each were an
        independent chance, would make it look better than any side already begun (which
        has few formations left) and keep a player from ever starting a stone.
        """
        mixed: dict[int, float] = {}
        weight = 0.0
        for code in self.palette.codes():
            w = self.avail[code]
            if w <= 0.0:
                continue
            weight += w
            card = Card(self.palette.colors_by_index[code >> 4], code & 15)
            for k, q in _outlook([card], rules, self):
                mixed[k] = mixed.get(k, 0.0) + w * q
        if weight <= 0.0:
            return _outlook([], rules, self)
        return sorted(((k, q / weight) for k, q in mixed.items()), reverse=True)


def split_supplies(
    mine: frozenset[int],
    hidden: Sequence[int],
    deck: int,
    theirs_in_hand: int,
    *,
    hand: float,
    reach: float,
    palette: Palette,
    empties: dict[tuple[object, FormationRules], Dist],
) -> tuple[Supply, Supply]:
    """The evaluating player's supply and the opponent's, as the evaluating player sees
    them: `mine` are the codes of the cards in their hand (availability `hand`), `hidden`
    the codes of cards nobody has shown, shared out between the opponent's hand
    (`theirs_in_hand` cards) and the `deck` cards still to be drawn, of which a share
    `reach` arrives while it still matters, half to each player."""
    u = max(1, len(hidden))
    draws = deck * 0.5 * reach
    q_me = min(1.0, draws / u)
    q_op = min(1.0, (theirs_in_hand + draws) / u)
    a_me = [0.0] * CODES
    a_op = [0.0] * CODES
    for code in hidden:
        a_me[code] = q_me
        a_op[code] = q_op
    for code in mine:
        a_me[code] = hand
    # Empty sides are judged once per hand of the evaluating player's (see Supply).
    return (
        Supply(a_me, palette, empties=empties, empty_key=mine),
        Supply(a_op, palette, empties=empties, empty_key="theirs"),
    )


def _outlook(side: Sequence[Slot], rules: FormationRules, supply: Supply) -> Dist:
    missing = rules.size - len(side)
    if missing <= 0:
        return [(evaluate(side, rules).key, 1.0)]
    reals = [s for s in side if isinstance(s, Card)]
    wilds = [s for s in side if isinstance(s, Wild)]
    if rules.lower_sum_wins:
        return _sum_atoms(reals, wilds, missing, rules, supply, low=True)
    targets: list[tuple[int, float]] = []
    types = rules.types
    if _COLOR_RUN in types:
        _color_runs(reals, wilds, rules, supply, targets)
    if _SAME in types:
        _same_strength(reals, wilds, rules, supply, targets)
    if _COLOR in types:
        _colors(reals, wilds, missing, rules, supply, targets)
    if _RUN in types:
        _runs(reals, wilds, rules, supply, targets)
    targets.sort(key=lambda t: -t[0])
    dist: Dist = []
    left = 1.0
    for key, p in targets:
        mass = left * p
        dist.append((key, mass))
        left -= mass
        if left < 1e-3:
            return dist
    for key, p in _sum_atoms(reals, wilds, missing, rules, supply, low=False):
        dist.append((key, left * p))
    return dist


def win_chance(mine: Dist, theirs: Dist, tie: float) -> float:
    """P(my key beats theirs), counting `tie` for equal keys (who completed first decides)."""
    other = sorted(theirs)
    n = len(other)
    total = below = 0.0
    j = 0
    for key, p in sorted(mine):
        while j < n and other[j][0] < key:
            below += other[j][1]
            j += 1
        equal = 0.0
        k = j
        while k < n and other[k][0] == key:
            equal += other[k][1]
            k += 1
        total += p * (below + tie * equal)
    return total


def at_least(probs: list[float], m: int) -> float:
    """P(at least m of these independent events happen)."""
    if m <= 0:
        return 1.0
    if m > len(probs):
        return 0.0
    dist = [1.0] + [0.0] * m  # dist[j] = P(exactly j so far), the last entry meaning "m or more"
    for q in probs:
        if q <= 0.0:
            continue
        for j in range(m, 0, -1):
            dist[j] = dist[j] * (1.0 if j == m else 1.0 - q) + dist[j - 1] * q
        dist[0] *= 1.0 - q
    return dist[m]


def expected_top(cands: list[tuple[int, float]], m: int) -> float:
    """Roughly the total of the m best cards that arrive: walk down the (value, chance) list,
    taking each card's chance as a share of one card, until m cards' worth is taken."""
    need = float(m)
    total = 0.0
    for v, q in cands:
        take = q if q < need else need
        total += take * v
        need -= take
        if need <= 1e-9:
            return total
    # Not enough cards are likely to arrive: count the rest as the lowest ones.
    return total + need * (cands[-1][0] if cands else 0)


# Targets --------------------------------------------------------------------------------------


def _fill(needed: list[int], wilds: list[Wild], probs: list[float]) -> float:
    """P(all needed values arrive) when each wild card may stand in for one of them: the
    wild cards take the least likely values they can."""
    if not wilds:
        p = 1.0
        for q in probs:
            p *= q
        return p
    if len(needed) < len(wilds):
        return 0.0
    order = sorted(range(len(needed)), key=lambda i: probs[i])
    used = [False] * len(needed)
    for w in wilds:
        for i in order:
            if not used[i] and needed[i] in w.values:
                used[i] = True
                break
        else:
            return 0.0
    p = 1.0
    for i, q in enumerate(probs):
        if not used[i]:
            p *= q
    return p


def _starts(values: list[int], n: int, palette: Palette) -> range:
    """Start values of the runs of n cards that contain all these values."""
    lo_v, hi_v = palette.values[0], palette.values[-1]
    if not values:
        return range(lo_v, hi_v - n + 2)
    return range(max(lo_v, max(values) - n + 1), min(min(values), hi_v - n + 1) + 1)


def _color_runs(
    reals: list[Card],
    wilds: list[Wild],
    rules: FormationRules,
    supply: Supply,
    out: list[tuple[int, float]],
) -> None:
    colors = {c.color for c in reals}
    if len(colors) > 1:
        return
    values = [c.value for c in reals]
    if len(set(values)) != len(values):
        return
    n = rules.size
    avail = supply.avail
    starts = _starts(values, n, supply.palette)
    for color in colors or supply.palette.colors:
        if wilds and not all(color in w.colors for w in wilds):
            continue
        base = color.index * 16
        for s in starts:
            needed = [v for v in range(s, s + n) if v not in values]
            p = _fill(needed, wilds, [avail[base + v] for v in needed])
            if p > 0.0:
                out.append((rules.key(_COLOR_RUN, n * s + n * (n - 1) // 2), p))


def _same_strength(
    reals: list[Card],
    wilds: list[Wild],
    rules: FormationRules,
    supply: Supply,
    out: list[tuple[int, float]],
) -> None:
    values = {c.value for c in reals}
    if len(values) > 1:
        return
    n = rules.size
    m = n - len(reals) - len(wilds)
    for v in values or supply.palette.values:
        if wilds and not all(v in w.values for w in wilds):
            continue
        p = supply.same_value(v, m)
        if p > 0.0:
            out.append((rules.key(_SAME, n * v), p))


def _runs(
    reals: list[Card],
    wilds: list[Wild],
    rules: FormationRules,
    supply: Supply,
    out: list[tuple[int, float]],
) -> None:
    values = [c.value for c in reals]
    if len(set(values)) != len(values):
        return
    n = rules.size
    any_value = supply.any_value
    for s in _starts(values, n, supply.palette):
        needed = [v for v in range(s, s + n) if v not in values]
        p = _fill(needed, wilds, [any_value[v] for v in needed])
        if p > 0.0:
            out.append((rules.key(_RUN, n * s + n * (n - 1) // 2), p))


def _colors(
    reals: list[Card],
    wilds: list[Wild],
    missing: int,
    rules: FormationRules,
    supply: Supply,
    out: list[tuple[int, float]],
) -> None:
    colors = {c.color for c in reals}
    if len(colors) > 1:
        return
    base_total = sum(c.value for c in reals) + sum(max(w.values) for w in wilds)
    for color in colors or supply.palette.colors:
        if wilds and not all(color in w.colors for w in wilds):
            continue
        p, top = supply.color(color, missing)
        if p > 0.0:
            out.append((rules.key(_COLOR, round(base_total + top)), p))


def _sum_atoms(
    reals: list[Card],
    wilds: list[Wild],
    missing: int,
    rules: FormationRules,
    supply: Supply,
    *,
    low: bool,
) -> Dist:
    """A sum: its likely total, spread over three atoms because sums vary most."""
    wild_part = sum((min(w.values) if low else max(w.values)) for w in wilds)
    cards = supply.low if low else supply.high
    total = sum(c.value for c in reals) + wild_part + expected_top(cards, missing)
    spread = 1.5 * missing
    if low:  # lower totals are stronger: keys are minus the total
        return [
            (-round(total - spread), 0.25),
            (-round(total), 0.5),
            (-round(total + spread), 0.25),
        ]
    return [
        (rules.key(FormationType.SUM, max(0, round(total + spread))), 0.25),
        (rules.key(FormationType.SUM, max(0, round(total))), 0.5),
        (rules.key(FormationType.SUM, max(0, round(total - spread))), 0.25),
    ]
