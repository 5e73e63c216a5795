"""Schotten Totten moves and their notation.

Every move prints one canonical text and parses forgivingly:

    R7 3                 play R7 on stone 3 (also `play red 7 on stone 3`, `3 R7`)
    joker 3, mud 4       an Elite Troop on your side of stone 3; a Combat Mode on stone 4
    claim 4              claim stone 4
    done / pass          end the turn after claiming / play no card (RULINGS ST1-9)
    draw clan            draw from the clan (or `draw tactic`) deck
    recruiter            play the Recruiter; then three `draw ...`, then `return R3 joker`
    strategist 3:R5 7    move your R5 from stone 3 to stone 7 (or `... discard`)
    banshee 4:G5         discard your opponent's G5 from stone 4
    traitor 3:G5 6       take your opponent's G5 from stone 3 onto your side of stone 6
    resign

The stone before a card (`3:`) may be left out when writing: every card is in one place.
Parsing only reads the text; whether the move is allowed is the game's business.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from engine.cards import AnyCard
from engine.errors import InvalidMoveError, quote

# Done, Draw, Pass, Play and Resign are re-exported (`X as X`): engine.st1 offers them as its own.
from engine.moves import Done as Done
from engine.moves import Draw as Draw
from engine.moves import (
    Notation,
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
from engine.moves import Pass as Pass
from engine.moves import Play as Play
from engine.moves import Resign as Resign
from engine.phrases import say

DECKS = ("clan", "tactic")


@dataclass(frozen=True, slots=True, repr=False)
class Claim(Notation):
    """Claim a stone (RULINGS ST1-2, ST1-4)."""

    stone: int

    def __str__(self) -> str:
        return f"claim {self.stone}"


@dataclass(frozen=True, slots=True, repr=False)
class Recruit(Notation):
    """Play the Recruiter (RULINGS ST1-13): draw three, then return two."""

    def __str__(self) -> str:
        return "recruiter"


@dataclass(frozen=True, slots=True, repr=False)
class Return(Notation):
    """After the Recruiter: put these cards from hand under their own decks."""

    cards: tuple[AnyCard, ...]

    def __str__(self) -> str:
        return "return " + " ".join(str(c) for c in self.cards)


@dataclass(frozen=True, slots=True, repr=False)
class Strategist(Notation):
    """Move one of your cards from an unclaimed stone to another, or discard it (target None)."""

    card: AnyCard
    source: int | None
    target: int | None

    def __str__(self) -> str:
        where = "discard" if self.target is None else str(self.target)
        return f"strategist {at(self.card, self.source)} {where}"


@dataclass(frozen=True, slots=True, repr=False)
class Banshee(Notation):
    """Discard one of your opponent's cards from an unclaimed stone."""

    card: AnyCard
    source: int | None

    def __str__(self) -> str:
        return f"banshee {at(self.card, self.source)}"


@dataclass(frozen=True, slots=True, repr=False)
class Traitor(Notation):
    """Move one of your opponent's clan cards onto your side of an unclaimed stone."""

    card: AnyCard
    source: int | None
    target: int

    def __str__(self) -> str:
        return f"traitor {at(self.card, self.source)} {self.target}"


Move: TypeAlias = (
    Play | Claim | Pass | Done | Draw | Resign | Recruit | Return | Strategist | Banshee | Traitor
)

# TRANSLATORS: example moves, after "Try". Keep the moves in backticks as they are.
_HINT = say("`R7 3` (play R7 on stone 3), `claim 4`, `pass` or `done`")
_RUSE_EXAMPLES = {
    "strategist": say("Write it as `strategist 3:R5 7` (or `strategist 3:R5 discard`)."),
    "banshee": say("Write it as `banshee 4:G5`."),
    "traitor": say("Write it as `traitor 3:G5 6`."),
}


def parse_move(text: str) -> Move:
    """Read a move forgivingly. Raises InvalidMoveError with a hint when it cannot."""
    words = words_of(text)
    if not words:
        raise InvalidMoveError(say("Write a move, for example `R7 3`, `claim 4` or `pass`."))
    head, rest = words[0], [w for w in words[1:] if w not in ("stone", "on", "the")]
    common = parse_common(words)
    if common is not None:
        return common
    if head == "claim":
        n = number(rest[0]) if len(rest) == 1 else None
        if n is not None:
            return Claim(n)
        if len(rest) == 1 and is_number_word(rest[0]):
            raise InvalidMoveError(
                # TRANSLATORS: {number} is what the player wrote, in quotes.
                say("There is no stone {number}; stones are 1 to 9.", number=quote(rest[0], 8))
            )
        raise InvalidMoveError(say("Say which stone to claim, for example `claim 4`."))
    if head == "draw":
        return parse_draw(rest, DECKS)
    if "".join(words) in ("recruiter", "headhunter"):
        return Recruit()
    if head == "return":
        return Return(tuple(card_list(rest, "return")))
    if head in ("strategist", "banshee", "traitor", "traiter"):
        head = "traitor" if head == "traiter" else head
        args = " ".join(words[1:])
        hint = _RUSE_EXAMPLES[head]
        if head == "banshee":
            card, source, _, _ = parse_taking(head, args, target="none", hint=hint, place="stone")
            return Banshee(card, source)
        if head == "traitor":
            card, source, where, _ = parse_taking(
                head, args, target="place", hint=hint, place="stone"
            )
            assert where is not None
            return Traitor(card, source, where)
        card, source, where, discard = parse_taking(
            head,
            args,
            target="place-or-discard",
            hint=hint,
            place="stone",
            discard_words=("discard", "discarded", "bin", "away"),
        )
        return Strategist(card, source, None if discard else where)
    return parse_play(words, "stone", _HINT)
