"""Moves shared by both games, and the pieces of forgiving move parsing.

A move is a small frozen value with one canonical text (`str(move)`), and its repr is code
that rebuilds it. Each game's `moves` module adds its own moves and its `parse_move`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import itemgetter

from engine.cards import AnyCard, Card, parse_card
from engine.errors import CardValueError, InvalidMoveError, quote
from engine.phrases import Phrase, say, say_in


class Notation:
    """Moves repr as code that rebuilds them, like python-chess's `Move.from_uci('g1f3')`."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"parse_move({str(self)!r})"


@dataclass(frozen=True, slots=True, repr=False)
class Play(Notation):
    """Play a card from hand at a place: a stone (Schotten Totten) or a wall tile (2)."""

    card: AnyCard
    place: int

    def __str__(self) -> str:
        return f"{self.card} {self.place}"


@dataclass(frozen=True, slots=True, repr=False)
class Pass(Notation):
    """Play no card this turn."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True, repr=False)
class Done(Notation):
    """End the turn (drawing if there is a card to draw)."""

    def __str__(self) -> str:
        return "done"


@dataclass(frozen=True, slots=True, repr=False)
class Draw(Notation):
    """Draw from a named deck ("clan", "siege" or "tactic")."""

    deck: str

    def __str__(self) -> str:
        return f"draw {self.deck}"


@dataclass(frozen=True, slots=True, repr=False)
class Resign(Notation):
    """Give up the game (or lose it on time, when the bot's timer says so)."""

    timeout: bool = False

    def __str__(self) -> str:
        return "timeout" if self.timeout else "resign"


_PLAYS: dict[AnyCard, tuple[Play, ...]] = {}


def plays_of(card: AnyCard) -> tuple[Play, ...]:
    """Play moves of a card, indexed by place number (0 unused). Moves are immutable and
    listed on every turn, so they are made once and shared."""
    moves = _PLAYS.get(card)
    if moves is None:
        moves = _PLAYS[card] = tuple(Play(card, n) for n in range(10))
    return moves


def real_card_plays(hand: Iterable[AnyCard], places: Sequence[int]) -> list[Play]:
    """Every play of a real (clan or siege) card of `hand` to one of `places`, by card."""
    out: list[Play] = []
    if places:
        # Listed on every turn: each card's moves are made once (`plays_of`) and picked out
        # for the places in one step.
        pick = itemgetter(*places)
        one = len(places) == 1  # itemgetter of one index gives the item, not a tuple
        for card in hand:
            if card.__class__ is Card:
                if one:
                    out.append(pick(plays_of(card)))
                else:
                    out += pick(plays_of(card))
    return out


# Moves whose cards only their player may see: which cards are put back (Recruiter) or given
# away (Exchange) stays private; others see how many.
_PRIVATE = ("give", "return")


def public_text(text: str, mover: int, viewer: int | None) -> str:
    """A logged move as `viewer` may see it (None: a spectator)."""
    head, *rest = text.split()
    if viewer == mover or head not in _PRIVATE:
        return text
    return f"{head} {len(rest)} card{'s' if len(rest) != 1 else ''}"


def last_public_move(log: list[tuple[int, str]], viewer: int | None) -> tuple[int, str] | None:
    """The last logged move as `viewer` may see it."""
    if not log:
        return None
    mover, text = log[-1]
    return mover, public_text(text, mover, viewer)


FILLER = {"play", "on", "to", "at", "the", "stone", "tile", "onto", "a", "wall"}
# Place numbers are small; a longer run of digits is no place (and converting thousands of
# digits would trip Python's integer-string limit).
MAX_NUMBER_DIGITS = 3
_NUMBER = re.compile(rf"[0-9]{{1,{MAX_NUMBER_DIGITS}}}")


def number(word: str) -> int | None:
    """A place number written in ASCII digits (`3`, `07`), or None. Unicode digits such as
    `③` or `٣` are not numbers here: Python's `str.isdigit` accepts them, `int` does not
    always, and no player writes them on purpose."""
    return int(word) if _NUMBER.fullmatch(word) else None


def is_number_word(word: str) -> bool:
    """Digits only, however many (to say "there is no such place" rather than misread)."""
    return bool(word) and all("0" <= ch <= "9" for ch in word)


DONE_WORDS = {"done", "end", "endturn", "finish", "noclaim", "nothing", "stop"}


def words_of(text: str) -> list[str]:
    return [w for w in re.split(r"\s+", text.strip().lower()) if w]


def parse_common(words: list[str]) -> Pass | Done | Resign | None:
    """The moves both games write the same way, or None."""
    squashed = "".join(words)
    if squashed == "pass":
        return Pass()
    if squashed in DONE_WORDS:
        return Done()
    if squashed == "resign":
        return Resign()
    if squashed == "timeout":
        return Resign(timeout=True)
    return None


def parse_draw(rest: list[str], decks: tuple[str, str]) -> Draw:
    """`draw clan`, `draw tactic` (or the first letters)."""
    if len(rest) == 1:
        word = rest[0].rstrip("s")
        for deck in decks:
            if word == deck or word == deck[0]:
                return Draw(deck)
    raise InvalidMoveError(
        # TRANSLATORS: {first} and {second} are deck names in notation (clan, tactic, siege).
        say(
            "Say which deck to draw from: `draw {first}` or `draw {second}`.",
            first=decks[0],
            second=decks[1],
        )
    )


def no_such_value(card: str, place: str) -> Phrase:
    """ "R12 is not a Schotten Totten 2 card; values run 0 to 11." Stones are Schotten
    Totten's places and tiles Schotten Totten 2's."""
    if place == "tile":
        return say("{card} is not a Schotten Totten 2 card; values run 0 to 11.", card=card)
    return say("{card} is not a Schotten Totten card; values run 1 to 9.", card=card)


def no_place(place: str, word: str) -> Phrase:
    """ "There is no stone '99'." """
    # TRANSLATORS: {number} is what the player wrote, in quotes.
    if place == "tile":
        return say("There is no tile {number}.", number=quote(word, 8))
    if place == "stone":
        return say("There is no stone {number}.", number=quote(word, 8))
    return say("There is no place {number}.", number=quote(word, 8))


def parse_play(words: list[str], place: str, hint: str) -> Play:
    """`R7 3`, `red 7 3`, `R 7 3`, `3 R7`, `play R7 on stone 3`."""
    words = [w for w in words if w not in FILLER]
    if not words:
        raise InvalidMoveError(say("Say which card to play and where. Try {hint}.", hint=hint))
    for card_words, where in ((words[:-1], words[-1]), (words[1:], words[0])):
        if card_words and is_number_word(where):
            try:
                card = parse_card(" ".join(card_words))
            except CardValueError as e:
                raise InvalidMoveError(no_such_value(e.text, place)) from None
            except InvalidMoveError:
                continue
            n = number(where)
            if n is None:
                raise InvalidMoveError(no_place(place, where))
            return Play(card, n)
    card_text = " ".join(words)
    try:
        card = parse_card(card_text)
    except CardValueError as e:
        raise InvalidMoveError(no_such_value(e.text, place)) from None
    except InvalidMoveError:
        raise InvalidMoveError(
            # TRANSLATORS: {text} is what the player wrote, in quotes; {hint} example moves.
            say("I cannot read {text} as a move. Try {hint}.", text=quote(card_text), hint=hint)
        ) from None
    if place == "tile":
        raise InvalidMoveError(
            say("Say where to play {card}: for example `{card} 3` for tile 3.", card=str(card))
        )
    raise InvalidMoveError(
        say("Say where to play {card}: for example `{card} 3` for stone 3.", card=str(card))
    )


def card_list(words: list[str], what: str) -> list[AnyCard]:
    """Cards written one after another ("R3 joker", "red 3 joker")."""
    out: list[AnyCard] = []
    i = 0
    while i < len(words):
        for width in (1, 2):
            try:
                out.append(parse_card(" ".join(words[i : i + width])))
            except CardValueError:
                raise
            except InvalidMoveError:
                continue
            i += width
            break
        else:
            raise InvalidMoveError(
                # TRANSLATORS: {text} is what the player wrote; {move} a move keyword (give).
                say("I cannot read {text} as a card in `{move}`.", text=quote(words[i]), move=what)
            )
    if not out:
        raise InvalidMoveError(_which_cards(what))
    return out


def _which_cards(what: str) -> Phrase:
    """ "Say which cards to return, for example `return R3 joker`." """
    match what:
        case "return":
            return say("Say which cards to return, for example `return R3 joker`.")
        case "give":
            return say("Say which cards to give, for example `give R3 joker`.")
        case "support":
            return say("Say which cards to support, for example `support R3 joker`.")
    return say("Say which cards, for example `{move} R3 joker`.", move=what)


def at(card: AnyCard, place: int | None) -> str:
    """`3:G5`: a card and the place it lies, as moves that take a card from the table write it."""
    return f"{place}:{card}" if place is not None else str(card)


def parse_taking(
    head: str,
    args: str,
    *,
    target: str,
    hint: str,
    place: str = "place",
    discard_words: tuple[str, ...] = (),
) -> tuple[AnyCard, int | None, int | None, bool]:
    """Read `<place>:<card> [<target>]` forgivingly: `3:G5 6`, `G5 from 3 to 6`, `3 G5 6`.

    `target` is "none" (no destination), "place" (a number), or "place-or-discard"; `place`
    names a place in errors ("stone", "tile"). Returns (card, source place or None, target
    place or None, discard?)."""
    text = re.sub(r"\b(stone|tile|to|onto|on|the|of|at|wall)\b", " ", args.lower())
    text = re.sub(r"\s*:\s*", ":", text).strip()
    source: int | None = None
    m = re.search(r"\bfrom\s+([0-9]+)\b", text)
    if m:
        source = _place_number(m.group(1), place, hint)
        text = (text[: m.start()] + " " + text[m.end() :]).strip()
    words = text.split()
    where: int | None = None
    discard = False
    if target != "none":
        if not words:
            raise InvalidMoveError(say("Say which card and where. {hint}", hint=hint))
        last = words.pop()
        if is_number_word(last):
            where = _place_number(last, place, hint)
        elif target == "place-or-discard" and last in discard_words:
            discard = True
        else:
            raise InvalidMoveError(say("Say where the card goes. {hint}", hint=hint))
    card_text = " ".join(words)
    m = re.fullmatch(r"([0-9]+):(.+)", card_text)
    if m:
        source = _place_number(m.group(1), place, hint)
        card_text = m.group(2)
    elif len(words) >= 2 and is_number_word(words[0]):
        source = _place_number(words[0], place, hint)
        card_text = " ".join(words[1:])
    if not card_text or is_number_word(card_text):
        taker = _TAKERS.get(head, head.title())
        # TRANSLATORS: {card} is the tactic card played ("Traitor"); {hint} an example move.
        raise InvalidMoveError(
            say("Say which card the {card} takes. {hint}", card=taker, hint=hint)
        )
    try:
        card = parse_card(card_text)
    except CardValueError as e:
        raise InvalidMoveError(no_such_value(e.text, place)) from None
    except InvalidMoveError:
        raise InvalidMoveError(
            say("I cannot read {text} as a card. {hint}", text=quote(card_text), hint=hint)
        ) from None
    return card, source, where, discard


# The cards that take a card from the table, as "Say which card the ... takes" names them
# (the move's keyword, capitalised).
_TAKERS: dict[str, str] = {
    "strategist": say_in("tactic card", "Strategist"),
    "banshee": say_in("tactic card", "Banshee"),
    "traitor": say_in("tactic card", "Traitor"),
    "treason": say_in("tactic card", "Treason"),
    # TRANSLATORS: the Desertion card, named after its move `desert`.
    "desert": say_in("tactic card", "Desert"),
    # TRANSLATORS: the Redeployment card, named after its move `redeploy`.
    "redeploy": say_in("tactic card", "Redeploy"),
    # TRANSLATORS: the Recruitment card, named after its move `recruit`.
    "recruit": say_in("tactic card", "Recruit"),
}


def _place_number(word: str, place: str, hint: str) -> int:
    n = number(word)
    if n is None:
        # TRANSLATORS: two sentences: there is no such place; then an example move.
        raise InvalidMoveError(say("{refusal} {hint}", refusal=no_place(place, word), hint=hint))
    return n
