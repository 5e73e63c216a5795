"""The parts of a Schotten Totten table: options, phases and stones."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from engine.cards import ST1_COLORS, ST1_VALUES, AnyCard, Card, Tactic, TacticCard
from engine.errors import InvalidMoveError
from engine.formations import ALL_TYPES, SUM_ONLY, FormationRules, FormationType, Slot, Wild
from engine.phrases import Phrase, say
from engine.places import Place

STONES = 9
PLAYERS = (0, 1)

VARIANTS = ("classic", "tactics", "expert", "tactics-expert")


@dataclass(frozen=True, slots=True)
class Options:
    """What was agreed before the game: variants, and who starts (None: drawn from the seed)."""

    tactics: bool = False
    expert: bool = False
    first_player: int | None = None

    @property
    def variant(self) -> str:
        if self.tactics and self.expert:
            return "tactics-expert"
        return "tactics" if self.tactics else "expert" if self.expert else "classic"

    @property
    def hand_size(self) -> int:
        return 7 if self.tactics else 6  # RULINGS ST1-10

    @staticmethod
    def from_variant(name: str, *, first_player: int | None = None) -> Options:
        key = name.strip().lower().replace(" ", "-").replace("+", "-").replace("_", "-")
        key = {"base": "classic", "expert-tactics": "tactics-expert"}.get(key, key)
        if key not in VARIANTS:
            raise InvalidMoveError(
                f"{name!r} is not a Schotten Totten variant; choose one of {', '.join(VARIANTS)}"
            )
        return Options("tactics" in key, "expert" in key, first_player)

    def to_json(self) -> dict[str, object]:
        return {"variant": self.variant, "first_player": self.first_player}

    @staticmethod
    def from_json(data: dict[str, object]) -> Options:
        first = data.get("first_player")
        # The stored value is what `to_json` wrote from an `int | None`.
        return Options.from_variant(str(data["variant"]), first_player=first)  # type: ignore[arg-type]


class Phase(enum.Enum):
    """Where the player on turn is within their turn."""

    PLAY = "play"  # play a card or pass (Expert variant: claims come first, in this phase)
    CLAIM = "claim"  # after playing: claim stones, then `done`
    DRAW = "draw"  # choose the deck to draw from (Tactics variant)
    RECRUIT_DRAW = "recruit-draw"  # Recruiter: draw three, one at a time
    RECRUIT_RETURN = "recruit-return"  # Recruiter: put two cards back
    OVER = "over"


def wild_for(card: TacticCard) -> Wild | None:
    """The choice an Elite Troop card gives its owner (RULINGS ST1-11), or None."""
    if card.kind is Tactic.JOKER:
        return Wild(card, ST1_COLORS, tuple(reversed(ST1_VALUES)))
    if card.kind is Tactic.SPY:
        return Wild(card, ST1_COLORS, (7,))
    if card.kind is Tactic.SHIELD:
        return Wild(card, ST1_COLORS, (3, 2, 1))
    return None


ELITE = frozenset({Tactic.JOKER, Tactic.SPY, Tactic.SHIELD})
MODES = frozenset({Tactic.BLIND, Tactic.MUD})
RUSES = frozenset({Tactic.RECRUITER, Tactic.STRATEGIST, Tactic.BANSHEE, Tactic.TRAITOR})
ST1_TACTICS = ELITE | MODES | RUSES


def tactic_deck() -> list[TacticCard]:
    """The ten Schotten Totten tactic cards in a fixed order."""
    kinds = [Tactic.JOKER, Tactic.JOKER, Tactic.SPY, Tactic.SHIELD, Tactic.BLIND, Tactic.MUD]
    kinds += [Tactic.RECRUITER, Tactic.STRATEGIST, Tactic.BANSHEE, Tactic.TRAITOR]
    return [TacticCard(Tactic.JOKER, 1), TacticCard(Tactic.JOKER, 2)] + [
        TacticCard(k) for k in kinds[2:]
    ]


def as_slot(card: AnyCard) -> Slot:
    if isinstance(card, Card):
        return card
    wild = wild_for(card)
    if wild is None:
        raise ValueError(f"{card} cannot stand on a side")
    return wild


@dataclass(slots=True)
class Stone(Place):
    """One stone: the cards on each side, combat modes on it, who claimed it, and when each
    side was last completed (RULINGS ST1-3, ST1-14)."""

    modes: list[TacticCard] = field(default_factory=list)
    claimed_by: int | None = None
    # Derived from `modes` by `set_modes`; kept as attributes because every move reads them.
    rules: FormationRules = field(default_factory=lambda: _RULES[(3, ALL_TYPES)])
    size: int = 3

    def set_modes(self, modes: list[TacticCard]) -> None:
        """Put combat modes on the stone (RULINGS ST1-12)."""
        self.modes = modes
        self.touch()
        kinds = {m.kind for m in modes}
        self.size = 4 if Tactic.MUD in kinds else 3
        self.rules = _RULES[(self.size, SUM_ONLY if Tactic.BLIND in kinds else ALL_TYPES)]

    def has_room(self, player: int) -> bool:
        return self.claimed_by is None and len(self.sides[player]) < self.size

    def slot_of(self, card: AnyCard) -> Slot:
        return as_slot(card)

    def shape(self) -> tuple[object, ...]:
        return (*self.sides[0], None, *self.sides[1], None, *self.modes)


_RULES: dict[tuple[int, frozenset[FormationType]], FormationRules] = {
    (size, types): FormationRules(size, types) for size in (3, 4) for types in (ALL_TYPES, SUM_ONLY)
}
STONE_RULES = tuple(_RULES.values())  # every rule set a stone may have


def claimed_by(number: int, mine: bool) -> Phrase:
    """ "Stone 3 is already claimed by you." """
    if mine:
        return say("Stone {stone} is already claimed by you.", stone=number)
    return say("Stone {stone} is already claimed by your opponent.", stone=number)


def side_full(number: int, size: int) -> Phrase:
    """ "Your side of stone 3 is full (3 cards)." """
    return say("Your side of stone {stone} is full ({size} cards).", stone=number, size=size)
