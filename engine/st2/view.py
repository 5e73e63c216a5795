"""What one player may see of a Schotten Totten 2 game, and a text picture of it.

A view holds the viewer's own hand, hand sizes, deck sizes and everything face-up: the wall,
the discard pile (sorted by colour, as the rulebook asks players to keep it), the actions
each player has played and the cauldrons left. Never the deck order or the other hand, and
never the cards set aside in an Exchange before they change hands.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.cards import AnyCard, TacticCard, format_cards, sort_cards
from engine.formations import Formation
from engine.moves import last_public_move
from engine.outcome import Outcome, Termination
from engine.proof import evaluate
from engine.st2.board import GATE

if TYPE_CHECKING:
    # The one import circle left in the engine, on purpose: a view is built from the Game,
    # which imports this module at run time; this import is for the type hints only.
    from engine.st2.game import Game


@dataclass(frozen=True, slots=True)
class TileView:
    """One wall tile as everyone sees it."""

    number: int
    damaged: bool
    sides: tuple[tuple[AnyCard, ...], tuple[AnyCard, ...]]  # in the order played
    size: int
    rules_text: str  # "3 cards, colour and sum"
    lower_sum_wins: bool
    is_gate: bool
    first_complete: int | None
    # Complete sides as they would be judged now (wild cards at their best values).
    formations: tuple[Formation | None, Formation | None]
    # Once the game has ended by taking this tile: the cards that were on it when it was
    # taken (discarded since, but they lay face-up), and whether it was already damaged.
    taken_sides: tuple[tuple[AnyCard, ...], tuple[AnyCard, ...]] | None = None
    breached: bool = False


@dataclass(frozen=True, slots=True)
class RevengeInfo:
    """Where a revenge match stands (RULINGS ST2-9): game 1 or 2 and who won game 1."""

    game: int
    first_winner: int | None


@dataclass(frozen=True, slots=True)
class View:
    """A Schotten Totten 2 game as seen by `viewer` (None: a spectator)."""

    game: str
    variant: str
    viewer: int | None
    attacker: int
    hand: tuple[AnyCard, ...] | None
    hand_sizes: tuple[int, int]
    deck_size: int
    tactic_deck_size: int | None
    tiles: tuple[TileView, ...]
    discard: tuple[AnyCard, ...]  # sorted by colour, then value; tactic cards last
    actions: tuple[tuple[TacticCard, ...], tuple[TacticCard, ...]]
    cauldrons: int
    damaged_tiles: int
    tactics_played: tuple[int, int]
    turn: int
    to_decide: int | None
    phase: str
    legal_moves: tuple[str, ...]
    last_move: tuple[int, str] | None
    outcome: Outcome | None
    revenge: RevengeInfo | None = None

    @property
    def defender(self) -> int:
        return 1 - self.attacker

    def playable(self) -> frozenset[AnyCard]:
        """Cards in the viewer's hand that some legal move plays (or gives) now."""
        named: set[str] = set()
        for text in self.legal_moves:
            words = text.split()
            named.update(words[1:] if words[0] == "give" else words[:1])
        return frozenset(c for c in self.hand or () if str(c) in named)

    def to_text(self, names: Sequence[str] = ("P1", "P2")) -> str:
        a, d = self.attacker, self.defender
        lines = [f"Schotten Totten 2 ({self.variant}): {names[a]} attacks, {names[d]} defends"]
        for t in self.tiles:
            sides = [format_cards(s) if s else "-" for s in (t.sides[a], t.sides[d])]
            state = "damaged" if t.damaged else "intact"
            gate = " gate" if t.is_gate else ""
            lines.append(
                f"tile {t.number}{gate} ({state}, {t.rules_text}): {sides[0]:<16} | {sides[1]:<16}"
            )
        lines.append(f"(left: {names[a]} attacking, right: {names[d]} defending)")
        deck = f"deck {self.deck_size}"
        if self.tactic_deck_size is not None:
            deck += f", tactic deck {self.tactic_deck_size}"
        lines.append(
            f"{deck}; cauldrons left {self.cauldrons}; damaged tiles {self.damaged_tiles}/4"
        )
        if self.discard:
            lines.append(f"discard: {format_cards(self.discard)}")
        for p in (a, d):
            if self.actions[p]:
                lines.append(f"{names[p]} played: {format_cards(self.actions[p])}")
        if self.hand is not None and self.viewer is not None:
            lines.append(f"your hand ({names[self.viewer]}): {format_cards(self.hand)}")
        if self.last_move is not None:
            lines.append(f"last move: {names[self.last_move[0]]} {self.last_move[1]}")
        if self.outcome is not None:
            w = self.outcome.winner
            who = "drawn" if w is None else f"{names[w]} wins"
            lines.append(f"game over: {who} ({self.outcome.termination.value})")
        else:
            deciding = self.to_decide if self.to_decide is not None else self.turn
            lines.append(f"to move: {names[deciding]} ({self.phase})")
        return "\n".join(lines)


def _ending_tile(
    game: Game,
) -> tuple[int, tuple[tuple[AnyCard, ...], tuple[AnyCard, ...]], bool] | None:
    """The tile whose taking ended the game, its cards, and whether that was a breach."""
    o, taken = game.outcome, game.last_taken
    ends = (Termination.DAMAGED_TILE_TAKEN, Termination.FOURTH_TILE_DAMAGED)
    if o is None or taken is None or o.termination not in ends:
        return None
    number, (a, b) = taken
    return number, (tuple(a), tuple(b)), o.termination is Termination.DAMAGED_TILE_TAKEN


def make_view(game: Game, viewer: int | None) -> View:
    tiles = []
    ending = _ending_tile(game)
    for t in game.tiles:
        rules = t.rules
        forms = tuple(evaluate(t.slots(p), rules) if t.complete(p) else None for p in (0, 1))
        tiles.append(
            TileView(
                t.number,
                t.damaged,
                (tuple(t.sides[0]), tuple(t.sides[1])),
                rules.size,
                rules.condition(),
                rules.lower_sum_wins,
                t.number == GATE,
                t.first_complete(),
                (forms[0], forms[1]),
                ending[1] if ending and ending[0] == t.number else None,
                ending is not None and ending[0] == t.number and ending[2],
            )
        )
    hand = None
    if viewer is not None:
        hand = tuple(sort_cards(game.hands[viewer]))
    deciding = viewer is not None and game.to_decide == viewer
    return View(
        game=game.kind,
        variant=game.options.variant,
        viewer=viewer,
        attacker=game.attacker,
        hand=hand,
        hand_sizes=(len(game.hands[0]), len(game.hands[1])),
        deck_size=len(game.deck),
        tactic_deck_size=len(game.tactic_deck) if game.options.tactics else None,
        tiles=tuple(tiles),
        discard=tuple(sort_cards(game.discard)),
        actions=(tuple(game.actions[0]), tuple(game.actions[1])),
        cauldrons=game.cauldrons,
        damaged_tiles=game.damaged_tiles,
        tactics_played=(game.tactics_played[0], game.tactics_played[1]),
        turn=game.turn,
        to_decide=game.to_decide,
        phase=game.phase.value,
        legal_moves=tuple(str(m) for m in game.legal_moves()) if deciding else (),
        last_move=last_public_move(game.log, viewer),
        outcome=game.outcome,
    )
