"""Formations, judged under a rule set shared by both games.

A rule set says how many cards a side needs, which formation types count and whether the
lower sum wins (RULINGS ST1-3, ST1-12, ST2-2 and the wall tiles). A formation's strength is
one integer key, so that comparing two formations is comparing two ints; equal keys are
broken by who completed first, which the game tracks.

Wild cards (Joker, Spy, Shield-Bearer) are `Wild` values: a set of colours and a set of
values the owner may choose from. `engine.proof.evaluate` picks their best choice.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card, Color, TacticCard
from engine.phrases import Phrase, Value, say_in, say_n


class FormationType(enum.IntEnum):
    """Formation types, weakest first, so that a higher value is a stronger type."""

    SUM = 0
    RUN = 1
    COLOR = 2
    SAME_STRENGTH = 3
    COLOR_RUN = 4

    def label(self, size: int = 3) -> Phrase:
        """The type's name for players (a Phrase): "colour run", "three of a kind"."""
        if self is FormationType.SAME_STRENGTH:
            return _SAME_LABELS.get(size, SAME_STRENGTH)
        return _TYPE_LABELS[self]


_TYPE_LABELS: dict[FormationType, Phrase] = {
    FormationType.SUM: say_in("formation", "sum"),
    FormationType.RUN: say_in("formation", "run"),
    FormationType.COLOR: say_in("formation", "colour"),
    FormationType.COLOR_RUN: say_in("formation", "colour run"),
}
# Same strength, by the number of cards.
_SAME_LABELS: dict[int, Phrase] = {
    2: say_in("formation", "pair"),
    3: say_in("formation", "three of a kind"),
    4: say_in("formation", "four of a kind"),
}
# The wall tiles' word for it, whatever the size (RULINGS' table).
SAME_STRENGTH = say_in("formation", "same strength")

# The same names with an article, as a sentence's object ("both sides make a run"; German
# accusative) and after "with" ("claimed with a run"; German dative), by type and size.
# TRANSLATORS: a formation's type with its article, as the object of a verb ("both sides
# make a colour run", "could add R3 and make three of a kind").
_OBJECT_LABELS: dict[tuple[FormationType, int], Phrase] = {
    (FormationType.SUM, 0): say_in("formation with article", "a sum"),
    (FormationType.RUN, 0): say_in("formation with article", "a run"),
    (FormationType.COLOR, 0): say_in("formation with article", "a colour"),
    (FormationType.COLOR_RUN, 0): say_in("formation with article", "a colour run"),
    (FormationType.SAME_STRENGTH, 2): say_in("formation with article", "a pair"),
    (FormationType.SAME_STRENGTH, 3): say_in("formation with article", "three of a kind"),
    (FormationType.SAME_STRENGTH, 4): say_in("formation with article", "four of a kind"),
}
# TRANSLATORS: a formation's type with its article, after "with" ("claimed stone 3 with a
# colour run"): German dative ("mit einem Farblauf").
_WITH_LABELS: dict[tuple[FormationType, int], Phrase] = {
    (FormationType.SUM, 0): say_in("formation after with", "a sum"),
    (FormationType.RUN, 0): say_in("formation after with", "a run"),
    (FormationType.COLOR, 0): say_in("formation after with", "a colour"),
    (FormationType.COLOR_RUN, 0): say_in("formation after with", "a colour run"),
    (FormationType.SAME_STRENGTH, 2): say_in("formation after with", "a pair"),
    (FormationType.SAME_STRENGTH, 3): say_in("formation after with", "three of a kind"),
    (FormationType.SAME_STRENGTH, 4): say_in("formation after with", "four of a kind"),
}

ALL_TYPES: frozenset[FormationType] = frozenset(FormationType)
SUM_ONLY: frozenset[FormationType] = frozenset({FormationType.SUM})

# Key layout: type rank * _RANK + total. Totals stay below 4 * 11 + 1, so ranks never overlap.
_RANK = 100


@dataclass(frozen=True, slots=True)
class FormationRules:
    """How a side is judged: cards needed, types that count, and whether lower sums win."""

    size: int = 3
    types: frozenset[FormationType] = ALL_TYPES
    lower_sum_wins: bool = False

    def __post_init__(self) -> None:
        if not 2 <= self.size <= 4:
            raise ValueError("a formation has 2 to 4 cards")
        # A sum is always possible, so it always counts.
        object.__setattr__(self, "types", frozenset(self.types) | SUM_ONLY)

    def counted(self, actual: FormationType) -> FormationType:
        """The type a formation counts as here: types that are not considered count as sums."""
        if self.lower_sum_wins or actual not in self.types:
            return FormationType.SUM
        return actual

    def key(self, actual: FormationType, total: int) -> int:
        """Strength as one int: a bigger key is a stronger formation under these rules."""
        if self.lower_sum_wins:
            return -total
        return self.counted(actual) * _RANK + total

    def describe(self) -> Phrase:
        """What a side needs, for players: "3 cards, all formations", "4 cards, lower sum wins"."""
        # TRANSLATORS: what a side of a wall tile needs; {kinds} is "all formations", "sum
        # only", "lower sum wins", "colour and sum"...
        return say_n(
            "{count} card, {kinds}", "{count} cards, {kinds}", self.size, kinds=self.condition()
        )

    def condition(self) -> Phrase:
        """Which formations count, for players: "all formations", "colour and sum"."""
        if self.lower_sum_wins:
            kinds = say_in("tile rules", "lower sum wins")
        elif self.types == ALL_TYPES:
            kinds = say_in("tile rules", "all formations")
        elif self.types == SUM_ONLY:
            kinds = say_in("tile rules", "sum only")
        else:
            # The tile's own words (RULINGS' table): "same strength", whatever the size.
            labels = [
                SAME_STRENGTH if t is FormationType.SAME_STRENGTH else t.label(self.size)
                for t in sorted(self.types, reverse=True)
                if t is not FormationType.SUM
            ]
            types = labels[0]
            for label in labels[1:]:
                # TRANSLATORS: two formation types a wall tile counts ("colour and run").
                types = say_in("tile rules", "{first} and {second}", first=types, second=label)
            # TRANSLATORS: {types} is a formation type, such as "colour" or "run".
            kinds = say_in("tile rules", "{types} and sum", types=types)
        return kinds


def split_key(key: int) -> tuple[FormationType, int]:
    """(counted type, total) of a key made under rules where the higher sum wins."""
    return FormationType(key // _RANK), key % _RANK


@dataclass(frozen=True, slots=True)
class Wild:
    """A wild card on a side: the owner picks one colour and one value from these."""

    card: TacticCard
    colors: tuple[Color, ...]
    values: tuple[int, ...]  # strongest first

    def __str__(self) -> str:
        return str(self.card)


Slot = Card | Wild


@dataclass(frozen=True, slots=True)
class Formation:
    """A complete side as judged: the cards (wild cards as the card they became), the type it
    counts as under the rules, its total and its key."""

    cards: tuple[Card, ...]
    type: FormationType
    total: int
    key: int
    # Parallel to `cards`: the wild card that became this card, or None for a real card.
    wilds: tuple[TacticCard | None, ...]
    lower_sum_wins: bool = False

    @property
    def wild_values(self) -> dict[TacticCard, Card]:
        """The card each wild card stands for (RULINGS ST1-11: shown once a stone is claimed)."""
        return {w: c for c, w in zip(self.cards, self.wilds, strict=True) if w is not None}

    def describe(self, *, article: bool = True, after_with: bool = False) -> Phrase:
        """For players: "a colour run G5 G6 G7 (18)", "the lower sum R1 B2 Y0 G3 (6)"; with
        `after_with` in the form that follows "with" (German dative: "einem Farblauf");
        without `article`: "colour run G5 G6 G7 (18)", after "your". A wild card shows the
        card it became and its name: "Y7(Spy)", said in the reader's language."""
        shown = self.shown_cards()
        if self.lower_sum_wins:
            if after_with:
                # TRANSLATORS: after "with" (German dative); {cards} are card codes.
                return say_in(
                    "formation after with",
                    "the lower sum {cards} ({total})",
                    cards=shown,
                    total=self.total,
                )
            if article:
                # TRANSLATORS: a formation on a tile where the lower sum wins; {cards} are card
                # codes ("R1 B2 Y0 G3"), {total} their sum.
                return say_in(
                    "formation", "the lower sum {cards} ({total})", cards=shown, total=self.total
                )
            return say_in("formation", "lower sum {cards} ({total})", cards=shown, total=self.total)
        size = len(self.cards) if self.type is FormationType.SAME_STRENGTH else 0
        kind: Phrase = self.type.label(len(self.cards))
        if after_with:
            kind = _WITH_LABELS.get((self.type, size), kind)
        elif article:
            kind = _OBJECT_LABELS.get((self.type, size), kind)
        # TRANSLATORS: a formation: {kind} is its type ("a colour run", "three of a kind"),
        # {cards} card codes ("G5 G6 G7"), {total} their sum: "a colour run G5 G6 G7 (18)".
        return say_in(
            "formation", "{kind} {cards} ({total})", kind=kind, cards=shown, total=self.total
        )

    def shown_cards(self) -> Value:
        """The cards in value order, as players lay a run out (G3 G4 G5, not G4 G5 G3); a
        wild card as the card it became with its name ("Y7(Spy)", a Phrase)."""
        pairs = sorted(zip(self.cards, self.wilds, strict=True), key=lambda p: p[0].value)
        shown: Value = ""
        for c, w in pairs:
            # TRANSLATORS: a wild card in a formation: the card it became and the tactic
            # card's name ("Y7(Spy)"). Keep {card} as it is.
            one: Value = (
                str(c)
                if w is None
                else say_in("wild card", "{card}({tactic})", card=str(c), tactic=w.kind.title)
            )
            if shown == "":
                shown = one
            elif isinstance(one, Phrase) or isinstance(shown, Phrase):
                # TRANSLATORS: cards one after the other, with a space ("G5 Y7(Spy)").
                shown = say_in("card list", "{first} {second}", first=shown, second=one)
            else:
                shown = f"{shown} {one}"
        return shown


def classify(values: Sequence[int], colors: Sequence[Color]) -> FormationType:
    """The actual (strongest) type of a complete set of cards, before the rules say what counts."""
    lo, hi = min(values), max(values)
    mono = all(c is colors[0] for c in colors)
    if lo == hi:
        return FormationType.SAME_STRENGTH
    run = hi - lo == len(values) - 1 and len(set(values)) == len(values)
    if run:
        return FormationType.COLOR_RUN if mono else FormationType.RUN
    return FormationType.COLOR if mono else FormationType.SUM
