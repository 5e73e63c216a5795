"""Turning a player's legal moves into controls: choose a card, then where; or a button.

Pure: it reads move texts (the engine's notation) and returns what to show, so it is tested
without Discord. Every control ends in one legal move's text, which goes to the service as
if typed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

# Moves that choose a set of things at once: the player ticks them in one menu.
SET_FAMILIES = ("give", "return", "support", "retreat")
# Moves that name one place: one button per place.
PLACE_FAMILIES = ("claim", "control", "oil", "explode")
# Moves that take a card from somewhere and (mostly) put it somewhere: first the card, then
# where it goes.
TAKING_FAMILIES = ("strategist", "banshee", "traitor", "redeploy", "desert", "treason", "recruit")
WORDS = ("done", "pass", "draw", "recruiter", "exchange")

_TITLES = {
    "claim": "Claim stone",
    "control": "Take tile",
    "oil": "Oil on tile",
    "explode": "Explode tile",
    "strategist": "Strategist",
    "banshee": "Banshee",
    "traitor": "Traitor",
    "redeploy": "Redeployment",
    "desert": "Desertion",
    "treason": "Treason",
    "recruit": "Recruitment",
    "give": "Cards to give",
    "return": "Cards to put back",
    "support": "Cards to shuffle back",
    "retreat": "Tiles to retreat from",
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
    return _TITLES.get(family, family.title())


def _word_label(words: list[str]) -> str:
    head = words[0]
    if head == "draw":
        return f"Draw a {words[1]} card"
    return {
        "done": "Done: end my turn",
        "pass": "Pass",
        "recruiter": "Play the Recruiter",
        "exchange": "Play Exchange",
    }.get(head, " ".join(words))


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
            label = f"{title(head)} {words[1]}"
            picker.places.setdefault(head, []).append(Choice(label, text))
        elif head in WORDS:
            picker.words.append(Choice(_word_label(words), text))
        elif head in TAKING_FAMILIES:
            what = words[1]
            rest = words[2:]
            label = (
                "Discard it"
                if rest == ["discard"]
                else (f"Onto {picker.place_noun} {rest[0]}" if rest else f"{title(head)} {what}")
            )
            picker.taking.setdefault(head, {}).setdefault(what, []).append(Choice(label, text))
        else:  # a card played from the hand: `R7 3`, `joker 3`, `mud 4`
            card, place = words[0], words[1]
            label = f"{picker.place_noun.title()} {place}"
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
