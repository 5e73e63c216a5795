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

import re
from dataclasses import dataclass
from typing import TypeAlias

from engine.cards import AnyCard, parse_card
from engine.errors import InvalidMoveError

DECKS = ("clan", "tactic")


class _Notation:
    """Moves repr as code that rebuilds them, like python-chess's `Move.from_uci('g1f3')`."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"parse_move({str(self)!r})"


@dataclass(frozen=True, slots=True, repr=False)
class Play(_Notation):
    """Play a card from hand on a stone (a combat mode goes on the stone itself)."""

    card: AnyCard
    stone: int

    def __str__(self) -> str:
        return f"{self.card} {self.stone}"


@dataclass(frozen=True, slots=True, repr=False)
class Claim(_Notation):
    """Claim a stone (RULINGS ST1-2, ST1-4)."""

    stone: int

    def __str__(self) -> str:
        return f"claim {self.stone}"


@dataclass(frozen=True, slots=True, repr=False)
class Pass(_Notation):
    """Play no card this turn (RULINGS ST1-9)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True, repr=False)
class Done(_Notation):
    """Stop claiming and end the turn (drawing if there is a card to draw)."""

    def __str__(self) -> str:
        return "done"


@dataclass(frozen=True, slots=True, repr=False)
class Draw(_Notation):
    """Draw from the clan or the tactic deck (Tactics variant, RULINGS ST1-10)."""

    deck: str

    def __str__(self) -> str:
        return f"draw {self.deck}"


@dataclass(frozen=True, slots=True, repr=False)
class Resign(_Notation):
    """Give up the game (or lose it on time, when the bot's timer says so)."""

    timeout: bool = False

    def __str__(self) -> str:
        return "timeout" if self.timeout else "resign"


@dataclass(frozen=True, slots=True, repr=False)
class Recruit(_Notation):
    """Play the Recruiter (RULINGS ST1-13): draw three, then return two."""

    def __str__(self) -> str:
        return "recruiter"


@dataclass(frozen=True, slots=True, repr=False)
class Return(_Notation):
    """After the Recruiter: put these cards from hand under their own decks."""

    cards: tuple[AnyCard, ...]

    def __str__(self) -> str:
        return "return " + " ".join(str(c) for c in self.cards)


def _at(card: AnyCard, stone: int | None) -> str:
    return f"{stone}:{card}" if stone is not None else str(card)


@dataclass(frozen=True, slots=True, repr=False)
class Strategist(_Notation):
    """Move one of your cards from an unclaimed stone to another, or discard it (target None)."""

    card: AnyCard
    source: int | None
    target: int | None

    def __str__(self) -> str:
        where = "discard" if self.target is None else str(self.target)
        return f"strategist {_at(self.card, self.source)} {where}"


@dataclass(frozen=True, slots=True, repr=False)
class Banshee(_Notation):
    """Discard one of your opponent's cards from an unclaimed stone."""

    card: AnyCard
    source: int | None

    def __str__(self) -> str:
        return f"banshee {_at(self.card, self.source)}"


@dataclass(frozen=True, slots=True, repr=False)
class Traitor(_Notation):
    """Move one of your opponent's clan cards onto your side of an unclaimed stone."""

    card: AnyCard
    source: int | None
    target: int

    def __str__(self) -> str:
        return f"traitor {_at(self.card, self.source)} {self.target}"


Move: TypeAlias = (
    Play | Claim | Pass | Done | Draw | Resign | Recruit | Return | Strategist | Banshee | Traitor
)

_FILLER = {"play", "on", "to", "at", "the", "stone", "onto", "a"}
_DONE_WORDS = {"done", "end", "endturn", "finish", "noclaim", "nothing", "stop"}


def _words(text: str) -> list[str]:
    return [w for w in re.split(r"\s+", text.strip().lower()) if w]


def parse_move(text: str) -> Move:
    """Read a move forgivingly. Raises InvalidMoveError with a hint when it cannot."""
    words = _words(text)
    if not words:
        raise InvalidMoveError("Write a move, for example `R7 3`, `claim 4` or `pass`.")
    head, rest = words[0], [w for w in words[1:] if w not in _FILLER]
    squashed = "".join(words)
    if head == "claim":
        if len(rest) == 1 and rest[0].isdigit():
            return Claim(int(rest[0]))
        raise InvalidMoveError("Say which stone to claim, for example `claim 4`.")
    if squashed == "pass":
        return Pass()
    if squashed in _DONE_WORDS:
        return Done()
    if squashed == "resign":
        return Resign()
    if squashed == "timeout":
        return Resign(timeout=True)
    if head == "draw":
        if len(rest) == 1 and rest[0] in ("clan", "tactic", "tactics", "c", "t"):
            return Draw("clan" if rest[0].startswith("c") else "tactic")
        raise InvalidMoveError("Say which deck to draw from: `draw clan` or `draw tactic`.")
    if squashed in ("recruiter", "headhunter"):
        return Recruit()
    if head == "return":
        return Return(tuple(_card_list(rest, "return")))
    if head in ("strategist", "banshee", "traitor", "traiter"):
        return _parse_ruse(head, " ".join(words[1:]))
    return _parse_play(words)


def _card_list(words: list[str], what: str) -> list[AnyCard]:
    """Cards written one after another ("R3 joker", "red 3 joker")."""
    out: list[AnyCard] = []
    i = 0
    while i < len(words):
        for width in (1, 2):
            try:
                out.append(parse_card(" ".join(words[i : i + width])))
            except InvalidMoveError:
                continue
            i += width
            break
        else:
            raise InvalidMoveError(f"I cannot read {words[i]!r} as a card in `{what}`.")
    if not out:
        raise InvalidMoveError(f"Say which cards to {what}, for example `{what} R3 joker`.")
    return out


_RUSE_EXAMPLES = {
    "strategist": "`strategist 3:R5 7` (or `strategist 3:R5 discard`)",
    "banshee": "`banshee 4:G5`",
    "traitor": "`traitor 3:G5 6`",
}


def _parse_ruse(head: str, args: str) -> Strategist | Banshee | Traitor:
    head = "traitor" if head == "traiter" else head
    hint = f"Write it as {_RUSE_EXAMPLES[head]}."
    text = re.sub(r"\b(stone|to|onto|on|the|of|at)\b", " ", args.lower())
    text = re.sub(r"\s*:\s*", ":", text).strip()
    source: int | None = None
    m = re.search(r"\bfrom\s+(\d+)\b", text)
    if m:
        source = int(m.group(1))
        text = (text[: m.start()] + " " + text[m.end() :]).strip()
    words = text.split()
    target: int | None = None
    discard = False
    if head != "banshee":
        if not words:
            raise InvalidMoveError(f"Say which card and where. {hint}")
        last = words.pop()
        if last.isdigit():
            target = int(last)
        elif head == "strategist" and last in ("discard", "discarded", "bin", "away"):
            discard = True
        else:
            raise InvalidMoveError(f"Say where the card goes. {hint}")
    card_text = " ".join(words)
    m = re.fullmatch(r"(\d+):(.+)", card_text)
    if m:
        source = int(m.group(1))
        card_text = m.group(2)
    elif len(words) >= 2 and words[0].isdigit():
        source = int(words[0])
        card_text = " ".join(words[1:])
    if not card_text or card_text.isdigit():
        raise InvalidMoveError(f"Say which card the {head.title()} takes. {hint}")
    try:
        card = parse_card(card_text)
    except InvalidMoveError:
        raise InvalidMoveError(f"I cannot read {card_text!r} as a card. {hint}") from None
    if head == "banshee":
        return Banshee(card, source)
    if head == "traitor":
        assert target is not None
        return Traitor(card, source, target)
    return Strategist(card, source, None if discard else target)


def _parse_play(words: list[str]) -> Play:
    words = [w for w in words if w not in _FILLER]
    # "R7 3", "red 7 3", "R 7 3", and also "3 R7".
    for card_words, stone in ((words[:-1], words[-1]), (words[1:], words[0])):
        if card_words and stone.isdigit():
            try:
                return Play(parse_card(" ".join(card_words)), int(stone))
            except InvalidMoveError:
                pass
    card_text = " ".join(words)
    try:
        card = parse_card(card_text)
    except InvalidMoveError:
        raise InvalidMoveError(
            f"I cannot read {card_text!r} as a move. Try `R7 3` (play R7 on stone 3),"
            " `claim 4`, `pass` or `done`."
        ) from None
    raise InvalidMoveError(f"Say where to play {card}: for example `{card} 3` for stone 3.")
