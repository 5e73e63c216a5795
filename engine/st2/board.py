"""The parts of a Schotten Totten 2 siege: options, phases, wall tiles and their rules."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.cards import ST2_COLORS, ST2_VALUES, AnyCard, Card, Tactic, TacticCard
from engine.errors import InvalidMoveError
from engine.formations import ALL_TYPES, SUM_ONLY, FormationRules, FormationType, Slot, Wild
from engine.phrases import say
from engine.places import Place

TILES = 7
PLAYERS = (0, 1)
CAULDRONS = 3
DAMAGED_TO_WIN = 4  # RULINGS ST2-7: damaging a fourth tile wins for the Attacker

VARIANTS = ("siege", "siege-tactics")

T = FormationType
_SAME = frozenset({T.SAME_STRENGTH})
_COLOR = frozenset({T.COLOR})
_RUN = frozenset({T.RUN})

# RULINGS "The seven wall tiles": (intact side, damaged side) for tiles 1..7.
TILE_RULES: tuple[tuple[FormationRules, FormationRules], ...] = (
    (FormationRules(3, SUM_ONLY), FormationRules(3, _RUN)),
    (FormationRules(4, ALL_TYPES), FormationRules(2, _SAME)),
    (FormationRules(3, ALL_TYPES), FormationRules(3, _COLOR)),
    (FormationRules(2, ALL_TYPES), FormationRules(4, lower_sum_wins=True)),
    (FormationRules(3, ALL_TYPES), FormationRules(3, _COLOR)),
    (FormationRules(4, ALL_TYPES), FormationRules(2, _SAME)),
    (FormationRules(3, lower_sum_wins=True), FormationRules(3, _RUN)),
)
GATE = 4


@dataclass(frozen=True, slots=True)
class Options:
    """The variant, and which seat attacks (None: drawn from the seed)."""

    tactics: bool = False
    attacker: int | None = None

    @property
    def variant(self) -> str:
        return "siege-tactics" if self.tactics else "siege"

    @property
    def hand_size(self) -> int:
        return 7 if self.tactics else 6  # RULINGS ST2-10

    @staticmethod
    def from_variant(name: str, *, attacker: int | None = None) -> Options:
        key = name.strip().lower().replace(" ", "-").replace("_", "-").replace("+", "-")
        key = {"tactical": "siege-tactics", "siege-tactical": "siege-tactics", "base": "siege"}.get(
            key, key
        )
        if key not in VARIANTS:
            raise InvalidMoveError(
                f"{name!r} is not a Schotten Totten 2 variant; choose siege or siege-tactics"
            )
        return Options(key == "siege-tactics", attacker)

    def to_json(self) -> dict[str, object]:
        return {"variant": self.variant, "attacker": self.attacker}

    @staticmethod
    def from_json(data: dict[str, object]) -> Options:
        attacker = data.get("attacker")
        # The stored value is what `to_json` wrote from an `int | None`.
        return Options.from_variant(str(data["variant"]), attacker=attacker)  # type: ignore[arg-type]


class Phase(enum.Enum):
    """Where the player on turn is within their turn (RULINGS ST2-1)."""

    PREPARE = "prepare"  # retreat (Attacker) or oil (Defender), or straight to playing
    PLAY = "play"  # play one card (the Attacker may still declare control)
    AFTER_PLAY = "after-play"  # Attacker only: declare control, or `done`
    DRAW = "draw"  # choose the deck to draw from (Tactical variant)
    EXCHANGE = "exchange"  # Exchange: each player gives three cards, mover first
    OVER = "over"


def wild_for(card: TacticCard) -> Wild | None:
    """The choice an Elite Troop gives its owner (RULINGS ST2-10), or None."""
    if card.kind is Tactic.JOKER:
        return Wild(card, ST2_COLORS, tuple(reversed(ST2_VALUES)))
    if card.kind is Tactic.SPY:
        return Wild(card, ST2_COLORS, (10,))
    if card.kind is Tactic.SHIELD:
        return Wild(card, ST2_COLORS, (3, 2, 1))
    return None


ELITE = frozenset({Tactic.JOKER, Tactic.SPY, Tactic.SHIELD})
ACTIONS = frozenset(
    {
        Tactic.REDEPLOY,
        Tactic.RECRUIT,
        Tactic.DESERT,
        Tactic.TREASON,
        Tactic.EXPLODE,
        Tactic.SUPPORT,
        Tactic.EXCHANGE,
    }
)
ST2_TACTICS = ELITE | ACTIONS


def tactic_deck() -> list[TacticCard]:
    """The eleven Schotten Totten 2 tactic cards in a fixed order."""
    kinds = [Tactic.SPY, Tactic.SHIELD, *sorted(ACTIONS, key=lambda k: k.value)]
    jokers = [TacticCard(Tactic.JOKER, 1), TacticCard(Tactic.JOKER, 2)]
    return jokers + [TacticCard(k) for k in kinds]


def as_slot(card: AnyCard) -> Slot:
    if isinstance(card, Card):
        return card
    wild = wild_for(card)
    if wild is None:
        raise ValueError(f"{card} cannot stand on a side")
    return wild


@dataclass(slots=True)
class Tile(Place):
    """One wall tile: which side is up, the cards on each side in the order played (the first
    is the closest to the wall, RULINGS ST2-6), and when each side became complete."""

    damaged: bool = False

    @property
    def rules(self) -> FormationRules:
        return TILE_RULES[self.number - 1][self.damaged]

    @property
    def size(self) -> int:
        return TILE_RULES[self.number - 1][self.damaged].size

    def slot_of(self, card: AnyCard) -> Slot:
        return as_slot(card)

    def shape(self) -> tuple[object, ...]:
        return (*self.sides[0], None, *self.sides[1], self.damaged)

    def describe(self) -> str:
        """For players: "tile 4 (gate, damaged): 4 cards, lower sum wins" (a Phrase)."""
        v: dict[str, str | int] = {"tile": self.number, "rules": self.rules.describe()}
        # TRANSLATORS: {rules} is what a side needs, as "3 cards, colour and sum".
        if self.number == GATE:
            if self.damaged:
                return say("tile {tile} (gate, damaged): {rules}", **v)
            return say("tile {tile} (gate, intact): {rules}", **v)
        if self.damaged:
            return say("tile {tile} (damaged): {rules}", **v)
        return say("tile {tile} (intact): {rules}", **v)
