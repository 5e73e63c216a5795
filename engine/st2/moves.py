"""Schotten Totten 2 moves and their notation.

    R7 3                play R7 on wall tile 3 (also `play red 7 on tile 3`)
    joker 3             an Elite Troop on your side of tile 3 (Tactical variant)
    retreat 2 5         Attacker, start of turn: discard your cards from tiles 2 and 5
    oil 4               Defender, start of turn: pour an oil cauldron on tile 4
    control 4           Attacker, any time in their turn: declare control of tile 4
    done                Attacker: end the turn after playing (drawing as usual)
    draw siege          draw from the siege (or `draw tactic`) deck
    pass                play no card, when none can be played
    redeploy 3:R5 6     move your R5 from tile 3 to tile 6 (or `redeploy 3:R5 discard`)
    recruit G5 3        play the discarded G5 on your side of tile 3
    desert 4:G5         discard your opponent's G5 from tile 4
    treason 3:G5 6      take your opponent's G5 from tile 3 onto your side of tile 6
    explode 4           discard every card on both sides of tile 4
    support G5 R0       shuffle the discarded G5 and R0 back into their decks
    exchange            each player then gives three cards: `give R3 B5 joker`
    resign

The place before a card (`3:`) may be left out when writing: every card is in one place.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from engine.cards import AnyCard
from engine.errors import InvalidMoveError
from engine.moves import (
    Done,
    Draw,
    Notation,
    Pass,
    Play,
    Resign,
    at,
    card_list,
    is_number_word,
    number,
    parse_common,
    parse_draw,
    parse_play,
    parse_taking,
    words_of,
)
from engine.phrases import say

DECKS = ("siege", "tactic")


@dataclass(frozen=True, slots=True, repr=False)
class Retreat(Notation):
    """The Attacker's preparation: discard all their cards from these tiles (RULINGS ST2-1)."""

    tiles: tuple[int, ...]

    def __str__(self) -> str:
        return "retreat " + " ".join(str(t) for t in self.tiles)


@dataclass(frozen=True, slots=True, repr=False)
class Oil(Notation):
    """The Defender's preparation: throw an oil cauldron on a tile (RULINGS ST2-6)."""

    tile: int

    def __str__(self) -> str:
        return f"oil {self.tile}"


@dataclass(frozen=True, slots=True, repr=False)
class Control(Notation):
    """The Attacker declares control of a tile (RULINGS ST2-4, ST2-7)."""

    tile: int

    def __str__(self) -> str:
        return f"control {self.tile}"


@dataclass(frozen=True, slots=True, repr=False)
class Redeploy(Notation):
    """Move one of your cards to another tile, or discard it (target None)."""

    card: AnyCard
    source: int | None
    target: int | None

    def __str__(self) -> str:
        where = "discard" if self.target is None else str(self.target)
        return f"redeploy {at(self.card, self.source)} {where}"


@dataclass(frozen=True, slots=True, repr=False)
class Recruit(Notation):
    """Play a card from the discard pile on your side of a tile."""

    card: AnyCard
    target: int

    def __str__(self) -> str:
        return f"recruit {self.card} {self.target}"


@dataclass(frozen=True, slots=True, repr=False)
class Desert(Notation):
    """Discard one of your opponent's cards from the wall."""

    card: AnyCard
    source: int | None

    def __str__(self) -> str:
        return f"desert {at(self.card, self.source)}"


@dataclass(frozen=True, slots=True, repr=False)
class Treason(Notation):
    """Take one of your opponent's cards and play it on your side of a tile."""

    card: AnyCard
    source: int | None
    target: int

    def __str__(self) -> str:
        return f"treason {at(self.card, self.source)} {self.target}"


@dataclass(frozen=True, slots=True, repr=False)
class Explode(Notation):
    """Discard every card on both sides of a tile."""

    tile: int

    def __str__(self) -> str:
        return f"explode {self.tile}"


@dataclass(frozen=True, slots=True, repr=False)
class Support(Notation):
    """Shuffle two discarded cards back into their decks."""

    cards: tuple[AnyCard, ...]

    def __str__(self) -> str:
        return "support " + " ".join(str(c) for c in self.cards)


@dataclass(frozen=True, slots=True, repr=False)
class Exchange(Notation):
    """Play Exchange: then each player gives the other three cards."""

    def __str__(self) -> str:
        return "exchange"


@dataclass(frozen=True, slots=True, repr=False)
class Give(Notation):
    """The cards a player gives in an Exchange (a decision owed even out of turn)."""

    cards: tuple[AnyCard, ...]

    def __str__(self) -> str:
        return "give " + " ".join(str(c) for c in self.cards)


Move: TypeAlias = (
    Play
    | Retreat
    | Oil
    | Control
    | Done
    | Draw
    | Pass
    | Resign
    | Redeploy
    | Recruit
    | Desert
    | Treason
    | Explode
    | Support
    | Exchange
    | Give
)

# TRANSLATORS: example moves, after "Try". Keep the moves in backticks as they are.
_HINT = say("`R7 3` (play R7 on tile 3), `control 4`, `retreat 2`, `oil 4` or `done`")
_EXAMPLES = {
    "redeploy": say("Write it as `redeploy 3:R5 6` (or `redeploy 3:R5 discard`)."),
    "desert": say("Write it as `desert 4:G5`."),
    "treason": say("Write it as `treason 3:G5 6`."),
    "recruit": say("Write it as `recruit G5 3` (the discarded G5 onto tile 3)."),
}
_ALIASES = {
    "redeployment": "redeploy",
    "desertion": "desert",
    "recruitment": "recruit",
    "explosion": "explode",
    "claim": "control",
    "declare": "control",
}


def _tile_numbers(words: list[str], example: str) -> list[int]:
    numbers = [w for w in words if w not in ("and", ",", "from", "tiles", "tile")]
    numbers = [n for w in numbers for n in w.split(",") if n]
    if not numbers or not all(is_number_word(n) for n in numbers):
        raise InvalidMoveError(say("Say which tile, for example `{move}`.", move=example))
    read = [number(n) for n in numbers]
    if None in read:
        raise InvalidMoveError(
            say("There is no such tile; tiles are 1 to 7, as in `{move}`.", move=example)
        )
    return [n for n in read if n is not None]


def parse_move(text: str) -> Move:
    """Read a move forgivingly. Raises InvalidMoveError with a hint when it cannot."""
    words = words_of(text)
    if not words:
        raise InvalidMoveError(say("Write a move, for example `R7 3`, `control 4` or `done`."))
    common = parse_common(words)
    if common is not None:
        return common
    head = _ALIASES.get(words[0], words[0])
    rest = [w for w in words[1:] if w not in ("control", "of", "on", "the", "tile")]
    if head == "control":
        numbers = _tile_numbers(rest, "control 4")
        if len(numbers) != 1:
            raise InvalidMoveError(say("Declare control of one tile at a time, as `control 4`."))
        return Control(numbers[0])
    if head == "retreat":
        return Retreat(tuple(sorted(set(_tile_numbers(rest, "retreat 2 5")))))
    if head == "oil":
        numbers = _tile_numbers(rest, "oil 4")
        if len(numbers) != 1:
            raise InvalidMoveError(say("One oil cauldron at a time, as `oil 4`."))
        return Oil(numbers[0])
    if head == "explode":
        numbers = _tile_numbers(rest, "explode 4")
        if len(numbers) != 1:
            raise InvalidMoveError(say("Explosion destroys one tile's cards, as `explode 4`."))
        return Explode(numbers[0])
    if head == "draw":
        return parse_draw(rest, DECKS)
    if "".join(words) == "exchange":
        return Exchange()
    if head in ("give", "support"):
        cards = tuple(card_list([w for w in words[1:] if w != "and"], head))
        return Give(cards) if head == "give" else Support(cards)
    args = " ".join(words[1:])
    if head == "desert":
        card, source, _, _ = parse_taking(
            head, args, target="none", hint=_EXAMPLES[head], place="tile"
        )
        return Desert(card, source)
    if head == "treason":
        card, source, where, _ = parse_taking(
            head, args, target="place", hint=_EXAMPLES[head], place="tile"
        )
        assert where is not None
        return Treason(card, source, where)
    if head == "recruit":
        card, _, where, _ = parse_taking(
            head, args, target="place", hint=_EXAMPLES[head], place="tile"
        )
        assert where is not None
        return Recruit(card, where)
    if head == "redeploy":
        card, source, where, discard = parse_taking(
            head,
            args,
            target="place-or-discard",
            hint=_EXAMPLES[head],
            place="tile",
            discard_words=("discard", "discarded", "bin", "away"),
        )
        return Redeploy(card, source, None if discard else where)
    return parse_play(words, "tile", _HINT)
