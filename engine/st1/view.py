"""What one player may see of a Schotten Totten game, and a text picture of it.

The renderer and the bot only ever get a view, so a hand cannot leak by accident: the view
holds the viewer's own hand, the number of cards in the other hand, the sizes of the decks,
and everything face-up on the table. It never holds the deck order or the opponent's cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.cards import AnyCard, TacticCard, format_cards, sort_cards
from engine.formations import Formation
from engine.moves import last_public_move
from engine.outcome import Outcome
from engine.proof import evaluate

if TYPE_CHECKING:
    # The one import circle left in the engine, on purpose: a view is built from the Game,
    # which imports this module at run time; this import is for the type hints only.
    from engine.st1.game import Game


@dataclass(frozen=True, slots=True)
class StoneView:
    """One stone as everyone sees it."""

    number: int
    sides: tuple[tuple[AnyCard, ...], tuple[AnyCard, ...]]
    modes: tuple[TacticCard, ...]
    size: int  # cards each side needs: 3, or 4 with Mud Fight
    rules_text: str
    claimed_by: int | None
    # For a claimed stone: the winner's formation, wild cards with their chosen values
    # (RULINGS ST1-11), and the loser's when it was complete.
    won_with: Formation | None
    lost_against: Formation | None
    first_complete: int | None  # who completed first, when both sides are complete


@dataclass(frozen=True, slots=True)
class MatchInfo:
    """Where a match stands: its length, the round being played, and the points so far."""

    length: str  # "3 rounds", "first to 12 points"
    round: int
    scores: tuple[int, int]


@dataclass(frozen=True, slots=True)
class View:
    """A Schotten Totten game as seen by `viewer` (None: a spectator)."""

    game: str
    variant: str
    viewer: int | None
    hand: tuple[AnyCard, ...] | None  # the viewer's own hand, in a stable order
    hand_sizes: tuple[int, int]
    deck_size: int
    tactic_deck_size: int | None  # None without the Tactics variant
    stones: tuple[StoneView, ...]
    discard: tuple[AnyCard, ...]
    tactics_played: tuple[int, int]
    turn: int
    to_decide: int | None
    phase: str
    legal_moves: tuple[str, ...]  # the viewer's, when the decision is theirs
    last_move: tuple[int, str] | None
    outcome: Outcome | None
    stones_held: tuple[int, int]
    match: MatchInfo | None = None
    # Public facts that a computer player needs to rebuild a game consistent with this view
    # (everyone saw them happen, but the table alone no longer shows them):
    jokers_played: tuple[bool, bool] = (False, False)  # RULINGS ST1-11, rules notes R-9
    last_claimer: int | None = None  # who claimed the most recent stone (RULINGS ST1-9)
    recruit_left: int = 0  # Recruiter draws still to make (RULINGS ST1-13)
    # The viewer's own cards drawn by their Recruiter, until they return two (marked as new).
    recruited: tuple[AnyCard, ...] = ()

    def playable(self) -> frozenset[AnyCard]:
        """Cards in the viewer's hand that some legal move plays now."""
        hand = self.hand or ()
        named: set[str] = set()
        for text in self.legal_moves:
            words = text.split()
            # A card played is the first word; `return` names the cards it returns.
            named.update(words[1:] if words[0] == "return" else words[:1])
        return frozenset(c for c in hand if str(c) in named)

    def to_text(self, names: Sequence[str] = ("P1", "P2")) -> str:
        """A plain-text picture of the board, for logs and debugging."""
        lines = [f"Schotten Totten ({self.variant})"]
        if self.match is not None:
            a, b = self.match.scores
            lines[0] += f", match of {self.match.length}: round {self.match.round}, {a}-{b}"
        width = max(len(names[0]), len(names[1]))
        for s in self.stones:
            sides = [format_cards(side) if side else "-" for side in s.sides]
            line = f"stone {s.number}: {sides[0]:<18} | {sides[1]:<18}"
            if s.modes:
                line += " [" + " ".join(str(m) for m in s.modes) + "]"
            if s.claimed_by is not None and s.won_with is not None:
                line += f"  claimed by {names[s.claimed_by]}: {s.won_with.describe(article=False)}"
            lines.append(line)
        lines.append(f"(left: {names[0]}, right: {names[1]})")
        deck = f"deck {self.deck_size}"
        if self.tactic_deck_size is not None:
            deck += f", tactic deck {self.tactic_deck_size}"
        lines.append(deck)
        if self.discard:
            lines.append(f"discard: {format_cards(self.discard)}")
        for p in (0, 1):
            held = self.stones_held[p]
            lines.append(f"{names[p]:<{width}}: {held} stones, {self.hand_sizes[p]} cards in hand")
        if self.hand is not None and self.viewer is not None:
            lines.append(f"your hand ({names[self.viewer]}): {format_cards(self.hand)}")
        if self.last_move is not None:
            lines.append(f"last move: {names[self.last_move[0]]} {self.last_move[1]}")
        if self.outcome is not None:
            w = self.outcome.winner
            who = "drawn" if w is None else f"{names[w]} wins"
            lines.append(f"game over: {who} ({self.outcome.termination.value})")
        else:
            lines.append(f"to move: {names[self.turn]} ({self.phase})")
        return "\n".join(lines)


def make_view(game: Game, viewer: int | None) -> View:
    stones = []
    for s in game.stones:
        won = lost = None
        if s.claimed_by is not None:
            won = evaluate(s.slots(s.claimed_by), s.rules)
            loser = 1 - s.claimed_by
            if s.complete(loser):
                lost = evaluate(s.slots(loser), s.rules)
        stones.append(
            StoneView(
                s.number,
                (tuple(s.sides[0]), tuple(s.sides[1])),
                tuple(s.modes),
                s.size,
                s.rules.describe(),
                s.claimed_by,
                won,
                lost,
                s.first_complete(),
            )
        )
    deciding = viewer is not None and game.to_decide == viewer
    held = tuple(sum(1 for s in game.stones if s.claimed_by == p) for p in (0, 1))
    return View(
        game=game.kind,
        variant=game.options.variant,
        viewer=viewer,
        hand=tuple(sort_cards(game.hands[viewer])) if viewer is not None else None,
        hand_sizes=(len(game.hands[0]), len(game.hands[1])),
        deck_size=len(game.deck),
        tactic_deck_size=len(game.tactic_deck) if game.options.tactics else None,
        stones=tuple(stones),
        discard=tuple(game.discard),
        tactics_played=(game.tactics_played[0], game.tactics_played[1]),
        turn=game.turn,
        to_decide=game.to_decide,
        phase=game.phase.value,
        legal_moves=tuple(str(m) for m in game.legal_moves()) if deciding else (),
        last_move=last_public_move(game.log, viewer),
        outcome=game.outcome,
        stones_held=(held[0], held[1]),
        jokers_played=(game.joker_played[0], game.joker_played[1]),
        last_claimer=game.last_claimer,
        recruit_left=game.recruit_left,
        recruited=tuple(game.recruited) if viewer is not None and viewer == game.turn else (),
    )
