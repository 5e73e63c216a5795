"""The cards a player has not seen: every card of the game minus what their view shows.

A player who tracks the cards keeps a list of what is still out of sight: the clan (siege)
cards and the tactic cards that are neither face-up on the table, nor in the discard pile,
nor in their own hand. Those are in the deck or in the other hand (or, for the tactic
cards, in the tactic deck), and nothing else tells them apart. This is computed from a
view alone, so it holds only what the viewer may know: two games that differ only in cards
the viewer never saw give the same answer.

A card that was seen and went back out of sight (returned under the deck by the Recruiter,
given away in an Exchange, shuffled back in by Support) counts as unseen again: the view
does not say where it went, and the point of the list is where a card may be now.

    unseen(match.view(0)).by_color()    # ((Color.RED, (1, 4, 9)), (Color.BLUE, (2, 3)), ...)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from engine.cards import (
    ST1_COLORS,
    ST2_COLORS,
    AnyCard,
    Card,
    Color,
    TacticCard,
    clan_deck,
    siege_deck,
)
from engine.st1 import board as st1_board
from engine.st1.view import View as St1View
from engine.st2 import board as st2_board
from engine.st2.view import View as St2View

AnyView: TypeAlias = St1View | St2View

# Every card of each game, in the decks' fixed order (cards are immutable values).
ST1_CARDS: tuple[tuple[Card, ...], tuple[TacticCard, ...]] = (
    tuple(clan_deck()),
    tuple(st1_board.tactic_deck()),
)
ST2_CARDS: tuple[tuple[Card, ...], tuple[TacticCard, ...]] = (
    tuple(siege_deck()),
    tuple(st2_board.tactic_deck()),
)


@dataclass(frozen=True, slots=True)
class Unseen:
    """What one viewer has not seen, from their view: `cards` (clan or siege cards, by colour
    then value) and `tactics` (tactic cards, empty without the Tactics variant)."""

    game: str  # "st1" or "st2"
    cards: tuple[Card, ...]
    tactics: tuple[TacticCard, ...]
    with_tactics: bool  # the variant has tactic cards at all
    # Where they are, as everyone knows: the deck's size and the other hand's size.
    deck_size: int
    tactic_deck_size: int
    other_hand: int

    @property
    def colors(self) -> tuple[Color, ...]:
        """The colours of this game's clan or siege cards (no orange in Schotten Totten 2)."""
        return ST1_COLORS if self.game == "st1" else ST2_COLORS

    def by_color(self) -> tuple[tuple[Color, tuple[int, ...]], ...]:
        """The unseen values of each colour that has some, in the colours' order."""
        out = []
        for color in self.colors:
            values = tuple(c.value for c in self.cards if c.color is color)
            if values:
                out.append((color, values))
        return tuple(out)

    def to_text(self) -> str:
        """English and compact, for logs and tests: `R 1 4 9 · B 2 3 · 7 tactic cards`."""
        parts = [f"{c.letter} " + " ".join(map(str, values)) for c, values in self.by_color()]
        if self.with_tactics:
            parts.append(f"{len(self.tactics)} tactic cards")
        return " · ".join(parts) or "-"


def face_up(view: AnyView) -> list[AnyCard]:
    """Every card the view shows on the table or in the discard pile (not the hand)."""
    cards: list[AnyCard] = list(view.discard)
    if isinstance(view, St1View):
        for s in view.stones:
            cards.extend(s.sides[0])
            cards.extend(s.sides[1])
            cards.extend(s.modes)
    else:
        for t in view.tiles:
            cards.extend(t.sides[0])
            cards.extend(t.sides[1])
        cards.extend(view.actions[0])
        cards.extend(view.actions[1])
    return cards


def all_cards(view: AnyView) -> tuple[tuple[Card, ...], tuple[TacticCard, ...]]:
    """Every clan (siege) card and every tactic card of the view's game, in the decks' fixed
    order; no tactic cards without the Tactics variant."""
    clan, tactics = ST1_CARDS if isinstance(view, St1View) else ST2_CARDS
    return clan, tactics if view.tactic_deck_size is not None else ()


def out_of_sight(view: AnyView) -> tuple[list[Card], list[TacticCard]]:
    """The cards the viewer cannot see (not face-up, not in their hand), in the decks'
    fixed order: what `Unseen` lists, and what a computer player deals its worlds from."""
    seen: set[AnyCard] = set(face_up(view))  # cards are equal by value
    seen.update(view.hand or ())
    clan, tactics = all_cards(view)
    return [c for c in clan if c not in seen], [t for t in tactics if t not in seen]


def unseen(view: AnyView) -> Unseen:
    """The cards `view`'s viewer has not seen (a spectator: every card not face-up)."""
    clan, tactics = out_of_sight(view)
    other = view.hand_sizes[1 - view.viewer] if view.viewer is not None else sum(view.hand_sizes)
    return Unseen(
        game=view.game,
        cards=tuple(sorted(clan, key=Card.sort_key)),
        tactics=tuple(tactics),
        with_tactics=view.tactic_deck_size is not None,
        deck_size=view.deck_size,
        tactic_deck_size=view.tactic_deck_size or 0,
        other_hand=other,
    )
