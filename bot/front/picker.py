"""Turning a player's legal moves into controls: choose a card, then where; or a button.

Pure: it reads move texts (the engine's notation) and returns what to show, so it is tested
without Discord. Every control ends in one legal move's text, which goes to the service as
if typed. Labels are in the current language (the member's, who sees the controls); the
move texts stay notation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.cards import Tactic, TacticCard, card_from_code, card_named
from engine.errors import GameError
from lang import N_, _, fill, localise, pgettext

# Moves that choose a set of things at once: the player ticks them in one menu.
SET_FAMILIES = ("give", "return", "support", "retreat")
# Moves that name one place: one button per place.
PLACE_FAMILIES = ("claim", "control", "oil", "explode")
# Moves that take a card from somewhere and (mostly) put it somewhere: first the card, then
# where it goes.
TAKING_FAMILIES = ("strategist", "banshee", "traitor", "redeploy", "desert", "treason", "recruit")
WORDS = ("done", "pass", "draw", "recruiter", "exchange")

# Families named after their tactic card take the card's own name (the engine's), so that the
# menu, the buttons, the pictures and the log name a card alike.
_TITLES = {
    "claim": N_("Claim stone"),
    "control": N_("Take tile"),
    "oil": N_("Oil on tile"),
    "explode": N_("Explode tile"),
    "give": N_("Cards to give"),
    "return": N_("Cards to put back"),
    "support": N_("Cards to shuffle back"),
    "retreat": N_("Tiles to retreat from"),
}
# A button that makes a move on one place: its title and the place's number.
_PLACE_LABELS = {
    "claim": N_("Claim stone {place}"),
    "control": N_("Take tile {place}"),
    "oil": N_("Oil on tile {place}"),
    "explode": N_("Explode tile {place}"),
}


@dataclass(frozen=True, slots=True)
class Choice:
    label: str
    move: str


@dataclass(frozen=True, slots=True)
class SetChoice:
    family: str
    title: str
    items: tuple[str, ...]
    least: int
    most: int


@dataclass(slots=True)
class Picker:
    place_noun: str
    cards: dict[str, list[Choice]] = field(default_factory=dict)  # card -> where it can go
    words: list[Choice] = field(default_factory=list)  # done, pass, draw...
    places: dict[str, list[Choice]] = field(default_factory=dict)  # claim -> [claim 3, ...]
    taking: dict[str, dict[str, list[Choice]]] = field(default_factory=dict)
    sets: dict[str, SetChoice] = field(default_factory=dict)

    @property
    def empty(self) -> bool:
        return not (self.cards or self.words or self.places or self.taking or self.sets)


def title(family: str) -> str:
    """A move family's name for people, in the current language: a tactic card's family by
    the card's name ("Traître", "Umgruppierung")."""
    known = _TITLES.get(family)
    if known is not None:
        return _(known)
    if family in _TACTIC_CODES:
        return localise(Tactic(family).title)
    return family.title()


_TACTIC_CODES = frozenset(t.value for t in Tactic)


def card_label(code: str) -> str:
    """A card as a member reads it in the current language: a clan or siege card by its code
    ("R7", the same in every language), a tactic card by its name ("Espion", "Schlammschlacht");
    "3:spy" (a card on a place) as "3:Espion". Anything else is left as it is."""
    place, colon, card = code.rpartition(":")
    try:
        parsed = card_from_code(card)
    except (GameError, ValueError):
        return code
    shown = localise(parsed.kind.title) if isinstance(parsed, TacticCard) else card
    return f"{place}{colon}{shown}"


def tactic_as_object(code: str) -> str | None:
    """A tactic card's code as the object of a sentence, with the article the reader's
    language puts there ("l'Espion", German accusative "den Spion"); None for any other
    card (a clan or siege card's code takes no article)."""
    try:
        parsed = card_from_code(code)
    except (GameError, ValueError):
        return None
    return localise(card_named(parsed)) if isinstance(parsed, TacticCard) else None


_DRAW_LABELS = {
    "clan": N_("Draw a clan card"),
    "tactic": N_("Draw a tactic card"),
    "siege": N_("Draw a siege card"),
}
_WORD_LABELS = {
    "done": N_("Done: end my turn"),
    "pass": N_("Pass"),
    "recruiter": N_("Play the Recruiter"),
    "exchange": N_("Play Exchange"),
}


def _word_label(words: list[str]) -> str:
    head = words[0]
    if head == "draw":
        known = _DRAW_LABELS.get(words[1])
        return _(known) if known else fill(_("Draw a {deck} card"), deck=words[1])
    label = _WORD_LABELS.get(head)
    return _(label) if label is not None else " ".join(words)


def place_label(noun: str, place: str) -> str:
    """A button that puts a card on a place: "Stone 3", "Tile 5"."""
    if noun == "stone":
        return fill(pgettext("button", "Stone {place}"), place=place)
    return fill(pgettext("button", "Tile {place}"), place=place)


def onto_label(noun: str, place: str) -> str:
    """A button that moves a taken card to a place: "Onto stone 6"."""
    if noun == "stone":
        return fill(_("Onto stone {place}"), place=place)
    return fill(_("Onto tile {place}"), place=place)


def build_picker(game: str, legal: Sequence[str]) -> Picker:
    """Group legal move texts into the controls that make them."""
    picker = Picker("stone" if game == "st1" else "tile")
    set_moves: dict[str, list[list[str]]] = {}
    # The two Jokers print alike, so "treason 2:joker 5" can be legal twice: one control
    # each (Discord refuses a view with two identical custom ids).
    for text in dict.fromkeys(legal):
        words = text.split()
        head = words[0]
        if head in SET_FAMILIES:
            set_moves.setdefault(head, []).append(words[1:])
        elif head in PLACE_FAMILIES:
            label = fill(_(_PLACE_LABELS[head]), place=words[1])
            picker.places.setdefault(head, []).append(Choice(label, text))
        elif head in WORDS:
            picker.words.append(Choice(_word_label(words), text))
        elif head in TAKING_FAMILIES:
            what = words[1]
            rest = words[2:]
            if rest == ["discard"]:
                label = _("Discard it")
            elif rest:
                label = onto_label(picker.place_noun, rest[0])
            else:
                # TRANSLATORS: a button: a tactic card's name and the card it takes ("3:G5").
                label = fill(_("{tactic} {card}"), tactic=title(head), card=card_label(what))
            picker.taking.setdefault(head, {}).setdefault(what, []).append(Choice(label, text))
        else:  # a card played from the hand: `R7 3`, `joker 3`, `mud 4`
            card, place = words[0], words[1]
            label = place_label(picker.place_noun, place)
            picker.cards.setdefault(card, []).append(Choice(label, text))
    for family, arg_lists in set_moves.items():
        items = sorted({a for args in arg_lists for a in args}, key=_item_order)
        sizes = [len(args) for args in arg_lists]
        picker.sets[family] = SetChoice(family, title(family), tuple(items), min(sizes), max(sizes))
    return picker


def _item_order(item: str) -> tuple[int, str]:
    return (0, item.zfill(3)) if item.isdigit() else (1, item)


def set_move(family: str, chosen: Sequence[str]) -> str:
    """The move text for a set of ticked items (the engine puts them in canonical order)."""
    return " ".join([family, *chosen])
