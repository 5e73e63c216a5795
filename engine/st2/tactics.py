"""The Tactical variant's cards (RULINGS ST2-10): what may be played, and each card's effect.

Elite Troops stand on the wall like siege cards. Actions take effect and are then kept on
their player's side of the table (the rulebook: "Keep them on your side of the table to
track the number of Tactic cards played"), so they are not in the discard pile. Each
`apply_*` checks everything before it changes anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import TYPE_CHECKING

from engine.cardgame import not_in_hand, tactic_limit
from engine.cards import (
    AnyCard,
    Card,
    Tactic,
    TacticCard,
    format_cards,
    sort_cards,
)
from engine.errors import IllegalMoveError
from engine.events import Event
from engine.moves import plays_of
from engine.phrases import say, say_n
from engine.st2.board import ELITE, Phase, Tile
from engine.st2.events import CardPlayed, CardsExchanged, CardsGiven, TacticUsed
from engine.st2.moves import (
    Desert,
    Exchange,
    Explode,
    Give,
    Move,
    Recruit,
    Redeploy,
    Support,
    Treason,
)
from engine.table import locate, pick

if TYPE_CHECKING:
    # The one import circle left in the engine, on purpose: the tactic cards' rules act on
    # the Game (split out of game.py for size), which imports this module at run time; this
    # import is for the type hints only.
    from engine.st2.game import Game

EXCHANGED = 3
SUPPORTED = 2


def limit_allows(game: Game, p: int) -> bool:
    """RULINGS ST2-10: no more than one tactic card ahead of the opponent (as ST1-10)."""
    return game.tactics_played[p] <= game.tactics_played[1 - p]


def tactic_moves(game: Game, p: int) -> list[Move]:
    """Every tactic card play open to player p now."""
    if not game.options.tactics or not limit_allows(game, p):
        return []
    room = [t.number for t in game.tiles if t.has_room(p)]
    moves: list[Move] = []
    seen: set[Tactic] = set()
    for card in sort_cards(c for c in game.hands[p] if isinstance(c, TacticCard)):
        if card.kind in seen:
            continue  # the two Jokers are interchangeable (rules notes R-6)
        seen.add(card.kind)
        kind = card.kind
        if kind in ELITE:
            plays = plays_of(card)
            moves.extend([plays[n] for n in room])
        elif kind is Tactic.REDEPLOY:
            for t in game.tiles:
                for c in t.sides[p]:
                    moves.extend(Redeploy(c, t.number, n) for n in room if n != t.number)
                    moves.append(Redeploy(c, t.number, None))
        elif kind is Tactic.RECRUIT:
            distinct = {str(c): c for c in game.discard}.values()
            moves.extend(Recruit(c, n) for c in sort_cards(distinct) for n in room)
        elif kind is Tactic.DESERT:
            moves.extend(Desert(c, t.number) for t in game.tiles for c in t.sides[1 - p])
        elif kind is Tactic.TREASON:
            for t in game.tiles:
                for c in t.sides[1 - p]:
                    moves.extend(Treason(c, t.number, n) for n in room)
        elif kind is Tactic.EXPLODE:
            moves.extend(Explode(t.number) for t in game.tiles if t.sides[0] or t.sides[1])
        elif kind is Tactic.SUPPORT:
            pile = sort_cards(game.discard)
            moves.extend(Support(pair) for pair in combinations(pile, SUPPORTED))
        elif kind is Tactic.EXCHANGE and len(game.hands[p]) > 1 and game.hands[1 - p]:
            moves.append(Exchange())
    return moves


def _take(game: Game, p: int, kind: Tactic) -> TacticCard:
    if not game.options.tactics:
        raise IllegalMoveError(say("Tactic cards are played only in the Tactical variant."))
    card = next((c for c in game.hands[p] if isinstance(c, TacticCard) and c.kind is kind), None)
    if card is None:
        held = format_cards(sort_cards(game.hands[p]))
        raise IllegalMoveError(not_in_hand(kind.value, held))
    if not limit_allows(game, p):
        mine, theirs = game.tactics_played[p], game.tactics_played[1 - p]
        raise IllegalMoveError(tactic_limit(mine, theirs))
    return card


def _spend(game: Game, p: int, card: TacticCard, *, action: bool) -> None:
    game.hands[p].remove(card)
    game.tactics_played[p] += 1
    if action:
        game.actions[p].append(card)


def find_on_side(
    game: Game, card: AnyCard, side: int, source: int | None, whose: str
) -> tuple[Tile, AnyCard]:
    """Where `card` lies on `side` of the wall (the lower Joker for "joker")."""
    return locate(card, game.tiles, side, source, whose, "tile")


def find_in_discard(game: Game, cards: Sequence[AnyCard]) -> list[AnyCard]:
    """The named cards from the discard pile, each once."""
    pile = list(game.discard)
    found = []
    for card in cards:
        match = pick(card, pile)
        if match is None:
            shown = format_cards(sort_cards(game.discard))
            raise IllegalMoveError(
                say(
                    "{card} is not in the discard pile; it holds {pile}.",
                    card=str(card),
                    pile=shown,
                )
            )
        pile.remove(match)
        found.append(match)
    return found


def apply_elite(game: Game, p: int, card: TacticCard, number: int, events: list[Event]) -> None:
    """Joker, Spy or Shield onto p's side of a tile."""
    card = _take(game, p, card.kind)
    if card.kind not in ELITE:
        raise IllegalMoveError(
            # TRANSLATORS: {card} is a tactic card's name; {example} a move, as `exchange`.
            say(
                "{card} is an action: play it on its own, as `{example}`.",
                card=card.kind.title,
                example=_example(card.kind),
            )
        )
    tile = game.tile(number)
    game.check_room(tile, p)
    _spend(game, p, card, action=False)
    events.append(CardPlayed(p, card, number))
    game.place_card(tile, p, card, events)
    game.after_play()


def _example(kind: Tactic) -> str:
    return {
        Tactic.REDEPLOY: "redeploy 3:R5 6",
        Tactic.RECRUIT: "recruit G5 3",
        Tactic.DESERT: "desert 4:G5",
        Tactic.TREASON: "treason 3:G5 6",
        Tactic.EXPLODE: "explode 4",
        Tactic.SUPPORT: "support G5 R0",
        Tactic.EXCHANGE: "exchange",
    }[kind]


def apply_action(game: Game, p: int, move: Move, events: list[Event]) -> None:
    """Any action card: check it, spend it, then do what it says."""
    if isinstance(move, Redeploy):
        _redeploy(game, p, move, events)
    elif isinstance(move, Recruit):
        _recruit(game, p, move, events)
    elif isinstance(move, Desert):
        _desert(game, p, move, events)
    elif isinstance(move, Treason):
        _treason(game, p, move, events)
    elif isinstance(move, Explode):
        _explode(game, p, move, events)
    elif isinstance(move, Support):
        _support(game, p, move, events)
    elif isinstance(move, Exchange):
        _exchange(game, p, events)
        return  # the turn waits for both players' cards
    game.after_play()


def _redeploy(game: Game, p: int, move: Redeploy, events: list[Event]) -> None:
    card = _take(game, p, Tactic.REDEPLOY)
    source, moved = find_on_side(game, move.card, p, move.source, "your")
    target = None
    if move.target is not None:
        if move.target == source.number:
            raise IllegalMoveError(say("Redeployment moves a card to a different tile."))
        target = game.tile(move.target)
        game.check_room(target, p)
    _spend(game, p, card, action=True)
    source.sides[p].remove(moved)
    source.refresh(game.clock)
    if target is None:
        game.discard.append(moved)
        events.append(TacticUsed(p, card, "discard", (moved,), (source.number,)))
    else:
        events.append(TacticUsed(p, card, "move", (moved,), (source.number, target.number)))
        game.place_card(target, p, moved, events)


def _recruit(game: Game, p: int, move: Recruit, events: list[Event]) -> None:
    card = _take(game, p, Tactic.RECRUIT)
    (taken,) = find_in_discard(game, [move.card])
    target = game.tile(move.target)
    game.check_room(target, p)
    _spend(game, p, card, action=True)
    game.discard.remove(taken)
    events.append(TacticUsed(p, card, "recruit", (taken,), (target.number,)))
    game.place_card(target, p, taken, events)


def _desert(game: Game, p: int, move: Desert, events: list[Event]) -> None:
    card = _take(game, p, Tactic.DESERT)
    source, victim = find_on_side(game, move.card, 1 - p, move.source, "your opponent's")
    _spend(game, p, card, action=True)
    source.sides[1 - p].remove(victim)
    source.refresh(game.clock)
    game.discard.append(victim)
    events.append(TacticUsed(p, card, "desert", (victim,), (source.number,)))


def _treason(game: Game, p: int, move: Treason, events: list[Event]) -> None:
    card = _take(game, p, Tactic.TREASON)
    source, victim = find_on_side(game, move.card, 1 - p, move.source, "your opponent's")
    target = game.tile(move.target)
    game.check_room(target, p)
    _spend(game, p, card, action=True)
    source.sides[1 - p].remove(victim)
    source.refresh(game.clock)
    events.append(TacticUsed(p, card, "treason", (victim,), (source.number, target.number)))
    game.place_card(target, p, victim, events)


def _explode(game: Game, p: int, move: Explode, events: list[Event]) -> None:
    card = _take(game, p, Tactic.EXPLODE)
    tile = game.tile(move.tile)
    if not (tile.sides[0] or tile.sides[1]):
        raise IllegalMoveError(say("Tile {tile} has no cards to blow up.", tile=move.tile))
    _spend(game, p, card, action=True)
    gone = tile.sides[0] + tile.sides[1]
    for side in tile.sides:
        side.clear()
    tile.refresh(game.clock)
    game.discard.extend(gone)
    events.append(TacticUsed(p, card, "explode", tuple(gone), (move.tile,)))


def _support(game: Game, p: int, move: Support, events: list[Event]) -> None:
    card = _take(game, p, Tactic.SUPPORT)
    if len(game.discard) < SUPPORTED:
        raise IllegalMoveError(say("Support needs at least two cards in the discard pile."))
    if len(move.cards) != SUPPORTED:
        raise IllegalMoveError(
            say("Support shuffles exactly two discarded cards back, as `support G5 R0`.")
        )
    chosen = find_in_discard(game, move.cards)
    _spend(game, p, card, action=True)
    for c in chosen:
        game.discard.remove(c)
        # rules notes R-16: each card goes back into its own deck, shuffled by the game's seeded
        # random source so that replays stay identical.
        if isinstance(c, Card):
            game.deck.append(c)
        else:
            game.tactic_deck.append(c)
    game.rng.shuffle(game.deck)
    if any(isinstance(c, TacticCard) for c in chosen):
        game.rng.shuffle(game.tactic_deck)
    events.append(TacticUsed(p, card, "support", tuple(chosen)))


def _exchange(game: Game, p: int, events: list[Event]) -> None:
    card = _take(game, p, Tactic.EXCHANGE)
    if len(game.hands[p]) < 2 or not game.hands[1 - p]:
        raise IllegalMoveError(say("Exchange needs cards in both hands to exchange."))
    _spend(game, p, card, action=True)
    events.append(TacticUsed(p, card, "exchange"))
    game.phase = Phase.EXCHANGE
    game.exchange_giver = p
    game.exchange_first = []


def apply_give(game: Game, p: int, move: Give, events: list[Event]) -> None:
    """One half of an Exchange: the player on turn chooses first, then the other; then the
    cards change hands (the first choice stays hidden until then)."""
    wanted = min(EXCHANGED, len(game.hands[p]))
    if len(move.cards) != wanted:
        raise IllegalMoveError(
            say_n(
                "Give exactly {count} card, as `give R3`.",
                "Give exactly {count} cards, as `give R3 B5 Y7`.",
                wanted,
            )
        )
    hand = list(game.hands[p])
    chosen: list[AnyCard] = []
    for card in move.cards:
        own = game.own_card(card, p, hand=hand)
        hand.remove(own)
        chosen.append(own)
    events.append(CardsGiven(p, len(chosen)))
    if p == game.turn:
        game.exchange_first = chosen
        game.exchange_giver = 1 - p
        return
    first = game.exchange_first
    mover = game.turn
    for c in first:
        game.hands[mover].remove(c)
    for c in chosen:
        game.hands[p].remove(c)
    game.hands[mover].extend(chosen)
    game.hands[p].extend(first)
    counts = [0, 0]
    counts[mover], counts[p] = len(first), len(chosen)
    events.append(CardsExchanged((counts[0], counts[1])))
    game.exchange_first = []
    game.exchange_giver = None
    game.after_play()
