"""Worlds consistent with a view: the hidden cards dealt at random, everything else as seen.

A computer player only ever gets a view (`match.view(seat)`). To look ahead it needs whole
games, so it *determinizes*: the cards it cannot see (the other hand, the order of each
deck, and in an Exchange the cards the other player has set aside) are drawn at random
from the cards that could be there, and a `Game` is built around them the way
`engine/st1/position.py` and `engine/st2/position.py` build one. Everything else, the
table, the discard pile, the counts, whose decision it is, comes straight from the view,
so every world gives the viewer the very view it was built from.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeAlias

from engine.cards import AnyCard, Card, TacticCard
from engine.st1 import board as st1_board
from engine.st1.game import Game as St1Game
from engine.st1.view import View as St1View
from engine.st2 import board as st2_board
from engine.st2.game import Game as St2Game
from engine.st2.view import View as St2View
from engine.unseen import out_of_sight

AnyView: TypeAlias = St1View | St2View
AnyGame: TypeAlias = St1Game | St2Game


class WorldError(ValueError):
    """The view cannot be rebuilt into a game (it is over, or it is a spectator's)."""


def sample_world(view: AnyView, rng: random.Random) -> AnyGame:
    """One game consistent with `view`, the hidden cards dealt from `rng`."""
    if view.viewer is None or view.hand is None:
        raise WorldError("a spectator's view has no hand to play from")
    if view.outcome is not None:
        raise WorldError("the game is over")
    if isinstance(view, St1View):
        return _st1_world(view, rng)
    return _st2_world(view, rng)


def hidden_cards(view: AnyView) -> tuple[list[Card], list[TacticCard]]:
    """The cards the viewer cannot see: in the other hand, in a deck, or out of the game.

    Both lists are in a fixed order (the decks' own order), so that a seeded shuffle of
    them depends only on what the viewer knows. (`engine.unseen` says the same to a player.)
    """
    return out_of_sight(view)


def _deal(view: AnyView, rng: random.Random) -> tuple[list[AnyCard], list[Card], list[TacticCard]]:
    """The other hand, the deck and the tactic deck (top card last), dealt at random.

    How many tactic cards the other player holds is public: every tactic card not on the
    table, in the discard pile or in the viewer's hand is in their hand or in the tactic
    deck, whose size everyone sees. Cards left over once the other hand and the decks are
    full are out of the game (only hand-written positions have such cards).
    """
    assert view.viewer is not None
    clan, tactics = hidden_cards(view)
    rng.shuffle(clan)
    rng.shuffle(tactics)
    tactic_deck_size = view.tactic_deck_size or 0
    other = 1 - view.viewer
    their_tactics = max(0, min(len(tactics) - tactic_deck_size, view.hand_sizes[other]))
    their_clan = view.hand_sizes[other] - their_tactics
    if their_clan > len(clan) or their_tactics + tactic_deck_size > len(tactics):
        raise WorldError("the view shows more hidden cards than there are")
    hand: list[AnyCard] = [*clan[:their_clan], *tactics[:their_tactics]]
    deck = clan[their_clan : their_clan + view.deck_size]
    tactic_deck = tactics[their_tactics : their_tactics + tactic_deck_size]
    return hand, deck, tactic_deck


def _completion_times(
    sides: Sequence[Sequence[AnyCard]], size: int, first: int | None
) -> list[int | None]:
    """Times at which each side became complete that agree with the view: only their order
    is ever compared, and the game's clock starts after them."""
    complete = [len(sides[p]) >= size for p in (0, 1)]
    if all(complete):
        return [0, 1] if first != 1 else [1, 0]
    return [0 if complete[p] else None for p in (0, 1)]


def _st1_world(view: St1View, rng: random.Random) -> St1Game:
    assert view.viewer is not None and view.hand is not None
    me = view.viewer
    game = St1Game(st1_board.Options.from_variant(view.variant), rng.getrandbits(63))
    for stone, sv in zip(game.stones, view.stones, strict=True):
        stone.sides = (list(sv.sides[0]), list(sv.sides[1]))
        stone.set_modes(list(sv.modes))
        stone.claimed_by = sv.claimed_by
        stone.completed_at = _completion_times(sv.sides, stone.size, sv.first_complete)
    game.discard = list(view.discard)
    their_hand, game.deck, game.tactic_deck = _deal(view, rng)
    game.hands[me].extend(view.hand)
    game.hands[1 - me].extend(their_hand)
    game.first_player = view.turn
    game.turn = view.turn
    game.phase = st1_board.Phase(view.phase)
    game.tactics_played = list(view.tactics_played)
    game.joker_played = list(view.jokers_played)
    game.last_claimer = view.last_claimer
    game.recruit_left = view.recruit_left
    game.recruited = list(view.recruited)  # the viewer's own cards, if it is their Recruiter
    game.clock = 2  # after every completion time above
    return game


def _st2_world(view: St2View, rng: random.Random) -> St2Game:
    assert view.viewer is not None and view.hand is not None
    me = view.viewer
    options = st2_board.Options.from_variant(view.variant, attacker=view.attacker)
    game = St2Game(options, rng.getrandbits(63))
    game.attacker = view.attacker
    for tile, tv in zip(game.tiles, view.tiles, strict=True):
        tile.damaged = tv.damaged
        tile.sides = (list(tv.sides[0]), list(tv.sides[1]))
        tile.completed_at = _completion_times(tv.sides, tile.size, tv.first_complete)
    game.discard = list(view.discard)
    game.actions = (list(view.actions[0]), list(view.actions[1]))
    game.cauldrons = view.cauldrons
    their_hand, game.deck, game.tactic_deck = _deal(view, rng)
    game.hands[me].extend(view.hand)
    game.hands[1 - me].extend(their_hand)
    game.turn = view.turn
    game.phase = st2_board.Phase(view.phase)
    game.tactics_played = list(view.tactics_played)
    if game.phase is st2_board.Phase.EXCHANGE:
        game.exchange_giver = view.to_decide
        if view.to_decide != view.turn:
            # The player on turn has chosen, unseen: any of their cards may be the ones.
            mover = game.hands[view.turn]
            game.exchange_first = rng.sample(mover, min(3, len(mover)))
    game.clock = 2
    return game
