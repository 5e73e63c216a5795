"""Cards and their notation (RULINGS "Card notation").

Clan cards (Schotten Totten, R1..P9) and siege cards (Schotten Totten 2, R0..P11) are both
`Card`: a colour and a value. Tactic cards are `TacticCard`. Parsing is forgiving ("r7",
"R 7", "red 7", "Red7" all give R7); `str()` is the one canonical form.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, TypeAlias, TypeVar

from engine.errors import CardValueError, InvalidMoveError, quote
from engine.phrases import Phrase, say, say_in
from engine.rng import Rng


class Color(enum.Enum):
    """The six clan colours; Schotten Totten 2 uses all but orange."""

    RED = "R"
    ORANGE = "O"
    YELLOW = "Y"
    GREEN = "G"
    BLUE = "B"
    PURPLE = "P"

    @property
    def letter(self) -> str:
        return self.value

    @property
    def label(self) -> str:
        return self.name.lower()

    @property
    def index(self) -> int:
        # `_index` is set on each member after the enum is built (below), so mypy cannot see it.
        return self._index  # type: ignore[attr-defined,no-any-return]


_COLOR_INDEX = {c: i for i, c in enumerate(Color)}
for _color, _i in _COLOR_INDEX.items():
    # Enum hashing and dict lookups are slow in the proof's inner loops; a plain attribute isn't.
    object.__setattr__(_color, "_index", _i)
T = TypeVar("T")
_CARDS: dict[tuple[Color, int], Card] = {}
ST1_COLORS: tuple[Color, ...] = tuple(Color)
ST2_COLORS: tuple[Color, ...] = (Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE, Color.PURPLE)
ST1_VALUES = range(1, 10)
ST2_VALUES = range(0, 12)


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """A clan or siege card: a colour and a value. Equal cards share `code`, which is also the
    hash, because cards are hashed in every set of the proof."""

    color: Color
    value: int
    # A small integer unique to this card, for the proof's inner loops.
    code: int = field(init=False, repr=False, compare=False, hash=False)
    # 1 << code: sets of cards as one integer (the cards face-up, a proof's witnesses).
    bit: int = field(init=False, repr=False, compare=False, hash=False)

    def __new__(cls, color: Color, value: int) -> Card:
        # One object per card: equal cards are the same object, so the lookups of every move
        # (a card in a hand, a card's moves) are settled by identity, not by __eq__.
        card = _CARDS.get((color, value))
        if card is None:
            card = _CARDS[(color, value)] = object.__new__(cls)
        return card

    def __post_init__(self) -> None:
        code = _COLOR_INDEX[self.color] * 16 + self.value
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "bit", 1 << code)

    def __reduce__(self) -> tuple[type[Card], tuple[Color, int]]:
        # Pickled and copied by value, and unpickled as the one object of that card.
        return (Card, (self.color, self.value))

    # Equality is identity (object's own, the fastest there is): there is one object per card.
    def __hash__(self) -> int:
        return self.code  # not the id: sets of cards iterate in the same order in every run

    def __str__(self) -> str:
        return f"{self.color.letter}{self.value}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    @staticmethod
    def parse(text: str) -> Card:
        card = parse_card(text)
        if not isinstance(card, Card):
            raise InvalidMoveError(say("{card} is a tactic card, not a clan card", card=str(card)))
        return card

    def sort_key(self) -> tuple[int, int]:
        return (self.color.index, self.value)


class Tactic(enum.Enum):
    """Kinds of tactic card. The value is the canonical name (RULINGS "Card notation")."""

    # Shared by both games.
    JOKER = "joker"
    SPY = "spy"
    SHIELD = "shield"
    # Schotten Totten only.
    BLIND = "blind"
    MUD = "mud"
    RECRUITER = "recruiter"
    STRATEGIST = "strategist"
    BANSHEE = "banshee"
    TRAITOR = "traitor"
    # Schotten Totten 2 only.
    REDEPLOY = "redeploy"
    RECRUIT = "recruit"
    DESERT = "desert"
    TREASON = "treason"
    EXPLODE = "explode"
    SUPPORT = "support"
    EXCHANGE = "exchange"

    @property
    def title(self) -> Phrase:
        """The card's name for people: its English text ("Shield-Bearer") as a Phrase, which
        `lang.localise` says in a reader's language (the value stays the notation)."""
        return _TACTIC_TITLES[self]


# Tactic cards sort after clan cards, in the order of `Tactic`.
_TACTIC_ORDER = {kind: i for i, kind in enumerate(Tactic)}

# The printed names of the tactic cards (see lang/GLOSSARY.md for the editions' words).
_TACTIC_TITLES: dict[Tactic, Phrase] = {
    Tactic.JOKER: say_in("tactic card", "Joker"),
    Tactic.SPY: say_in("tactic card", "Spy"),
    Tactic.SHIELD: say_in("tactic card", "Shield-Bearer"),
    Tactic.BLIND: say_in("tactic card", "Blind-Man's Bluff"),
    Tactic.MUD: say_in("tactic card", "Mud Fight"),
    Tactic.RECRUITER: say_in("tactic card", "Recruiter"),
    Tactic.STRATEGIST: say_in("tactic card", "Strategist"),
    Tactic.BANSHEE: say_in("tactic card", "Banshee"),
    Tactic.TRAITOR: say_in("tactic card", "Traitor"),
    Tactic.REDEPLOY: say_in("tactic card", "Redeployment"),
    Tactic.RECRUIT: say_in("tactic card", "Recruitment"),
    Tactic.DESERT: say_in("tactic card", "Desertion"),
    Tactic.TREASON: say_in("tactic card", "Treason"),
    Tactic.EXPLODE: say_in("tactic card", "Explosion"),
    Tactic.SUPPORT: say_in("tactic card", "Support"),
    Tactic.EXCHANGE: say_in("tactic card", "Exchange"),
}

# Forgiving spellings, compared after lower-casing and removing everything but letters.
_TACTIC_ALIASES: dict[str, Tactic] = {
    "joker": Tactic.JOKER,
    "spy": Tactic.SPY,
    "shield": Tactic.SHIELD,
    "shieldbearer": Tactic.SHIELD,
    "blind": Tactic.BLIND,
    "blindmansbluff": Tactic.BLIND,
    "blindmansbuff": Tactic.BLIND,
    "bluff": Tactic.BLIND,
    "mud": Tactic.MUD,
    "mudfight": Tactic.MUD,
    "recruiter": Tactic.RECRUITER,
    "headhunter": Tactic.RECRUITER,
    "strategist": Tactic.STRATEGIST,
    "banshee": Tactic.BANSHEE,
    "traitor": Tactic.TRAITOR,
    "traiter": Tactic.TRAITOR,
    "redeploy": Tactic.REDEPLOY,
    "redeployment": Tactic.REDEPLOY,
    "recruit": Tactic.RECRUIT,
    "recruitment": Tactic.RECRUIT,
    "desert": Tactic.DESERT,
    "desertion": Tactic.DESERT,
    "treason": Tactic.TREASON,
    "explode": Tactic.EXPLODE,
    "explosion": Tactic.EXPLODE,
    "support": Tactic.SUPPORT,
    "exchange": Tactic.EXCHANGE,
}


@dataclass(frozen=True, slots=True, eq=False)
class TacticCard:
    """A tactic card. Only the Joker exists twice; `copy` tells the two apart."""

    kind: Tactic
    copy: int = 1
    # Not a clan or siege card: no proof draws tactic cards, so they have no bit (`Card.bit`).
    bit: ClassVar[int] = 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TacticCard) and other.kind is self.kind and other.copy == self.copy

    def __hash__(self) -> int:
        return hash((self.kind.value, self.copy))

    def __str__(self) -> str:
        # The two Jokers are interchangeable in play, so both print as "joker".
        return self.kind.value

    @property
    def code(self) -> str:
        """Unique text used in JSON and positions: "joker1", "joker2", "spy", ..."""
        return f"{self.kind.value}{self.copy}" if self.kind is Tactic.JOKER else self.kind.value

    def __repr__(self) -> str:
        return f"parse_card({self.code!r})"

    def sort_key(self) -> tuple[int, int]:
        return (len(Color) + _TACTIC_ORDER[self.kind], self.copy)


AnyCard: TypeAlias = Card | TacticCard


def card_name(card: AnyCard) -> str:
    """A card as sentences name it: "R7", "Joker", "Mud Fight" (after "their", "'s"); a
    tactic card's name is a Phrase."""
    return card.kind.title if isinstance(card, TacticCard) else str(card)


def card_named(card: AnyCard) -> str:
    """A card as the object of a sentence: "R7", "the Joker", "Redeployment" (a Phrase, with
    the article each language puts before that card: "le Combat de Boue", "la carte
    Recrutement", German accusative "den Spion")."""
    if isinstance(card, TacticCard):
        return _TACTIC_OBJECTS[card.kind]
    return str(card)


# TRANSLATORS: a tactic card as the object of a sentence ("Alice played the Joker on stone
# 3", "took the Spy from the discard pile"), with its article (German accusative). Schotten
# Totten 2's actions are named without an article in English ("Alice played Redeployment");
# say them the way your language names a card ("la carte Redéploiement").
_TACTIC_OBJECTS: dict[Tactic, Phrase] = {
    Tactic.JOKER: say_in("card as object", "the Joker"),
    Tactic.SPY: say_in("card as object", "the Spy"),
    Tactic.SHIELD: say_in("card as object", "the Shield-Bearer"),
    Tactic.BLIND: say_in("card as object", "the Blind-Man's Bluff"),
    Tactic.MUD: say_in("card as object", "the Mud Fight"),
    Tactic.RECRUITER: say_in("card as object", "the Recruiter"),
    Tactic.STRATEGIST: say_in("card as object", "the Strategist"),
    Tactic.BANSHEE: say_in("card as object", "the Banshee"),
    Tactic.TRAITOR: say_in("card as object", "the Traitor"),
    Tactic.REDEPLOY: say_in("card as object", "Redeployment"),
    Tactic.RECRUIT: say_in("card as object", "Recruitment"),
    Tactic.DESERT: say_in("card as object", "Desertion"),
    Tactic.TREASON: say_in("card as object", "Treason"),
    Tactic.EXPLODE: say_in("card as object", "Explosion"),
    Tactic.SUPPORT: say_in("card as object", "Support"),
    Tactic.EXCHANGE: say_in("card as object", "Exchange"),
}


_COLOR_WORDS = {c.label: c for c in Color} | {c.letter.lower(): c for c in Color}
_CLAN_RE = re.compile(r"^([a-z]+)([0-9]{1,2})$")
_TACTIC_RE = re.compile(r"^([a-z]+?)([12])?$")


def parse_card(text: str) -> AnyCard:
    """Read a card forgivingly: "r7", "R 7", "red 7", "Red7", "joker", "Joker2", "mud fight"."""
    squashed = re.sub(r"[\s\-_'’.]", "", text.lower())
    m = _CLAN_RE.match(squashed)
    if m and m.group(1) in _COLOR_WORDS:
        color, value = _COLOR_WORDS[m.group(1)], int(m.group(2))
        if value > max(ST2_VALUES):
            raise CardValueError(f"{color.letter}{value}")
        return Card(color, value)
    m = _TACTIC_RE.match(squashed)
    if m and m.group(1) in _TACTIC_ALIASES:
        kind = _TACTIC_ALIASES[m.group(1)]
        copy = int(m.group(2) or 1)
        if kind is not Tactic.JOKER and m.group(2):
            raise InvalidMoveError(say("there is only one {card} card", card=kind.title))
        return TacticCard(kind, copy)
    raise InvalidMoveError(
        # TRANSLATORS: {text} is what the player typed, in quotes. R7, B3 and joker are
        # notation: keep them as they are.
        say(
            "{text} is not a card; write a colour letter and a value like R7 or B3,"
            " or a tactic card's name like joker",
            text=quote(text),
        )
    )


_BY_CODE: dict[str, AnyCard] = {}


def card_from_code(code: str) -> AnyCard:
    """The inverse of `card_code` for stored data. Games are loaded from JSON on every move,
    so known codes come from a table rather than the forgiving parser."""
    card = _BY_CODE.get(code)
    if card is None:
        card = parse_card(code)
        if code == card_code(card):
            _BY_CODE[code] = card
    return card


def card_code(card: AnyCard) -> str:
    """The unique text of a card in stored data: "R7", "joker2", "spy"."""
    return card.code if isinstance(card, TacticCard) else str(card)


def bits_of(cards: Iterable[AnyCard]) -> int:
    """Cards as one integer (`Card.bit`; tactic cards have none)."""
    bits = 0
    for c in cards:
        bits |= c.bit
    return bits


def format_cards(cards: Iterable[AnyCard]) -> str:
    """Cards in canonical text separated by spaces, or "nothing" (a Phrase)."""
    # TRANSLATORS: in place of a list of cards, when there is none ("you hold nothing").
    return " ".join(str(c) for c in cards) or say_in("no cards", "nothing")


def sort_cards(cards: Iterable[T]) -> list[T]:
    """Stable display order: by colour, then value; tactic cards after clan cards."""
    # T is a card type (Card or TacticCard), both with `sort_key`; T stays unbound to keep the type.
    return sorted(cards, key=lambda c: c.sort_key())  # type: ignore[attr-defined]


_CLAN_DECK = tuple(Card(c, v) for c in ST1_COLORS for v in ST1_VALUES)
_SIEGE_DECK = tuple(Card(c, v) for c in ST2_COLORS for v in ST2_VALUES)


def clan_deck() -> list[Card]:
    """The 54 Schotten Totten clan cards in a fixed order."""
    return list(_CLAN_DECK)


def siege_deck() -> list[Card]:
    """The 60 Schotten Totten 2 siege cards in a fixed order."""
    return list(_SIEGE_DECK)


def shuffled(cards: Sequence[T], rng: Rng) -> list[T]:
    """A shuffled copy, from the game's seeded random source."""
    out = list(cards)
    rng.shuffle(out)
    return out
