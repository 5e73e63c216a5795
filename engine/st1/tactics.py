"""The Tactics variant's cards (RULINGS ST1-10 to ST1-14): what may be played, and its effect.

Each `apply_*` checks everything first and raises a GameError before it changes anything,
so a refused move leaves the game as it was. The game calls these from its own `apply`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING

from engine.cardgame import not_in_hand, tactic_limit
from engine.cards import (
    AnyCard,
    Card,
    Tactic,
    TacticCard,
    card_name,
    card_named,
    format_cards,
    sort_cards,
)
from engine.errors import IllegalMoveError
from engine.events import Event
from engine.moves import plays_of
from engine.phrases import Phrase, say, say_n
from engine.st1.board import ELITE, MODES, Phase, Stone, claimed_by, side_full
from engine.st1.moves import Banshee, Move, Recruit, Return, Strategist, Traitor
from engine.table import locate

if TYPE_CHECKING:
    # The one import circle left in the engine, on purpose: the tactic cards' rules act on
    # the Game (split out of game.py for size), which imports this module at run time; this
    # import is for the type hints only.
    from engine.st1.game import Game

RECRUIT_DRAWS = 3
RECRUIT_RETURNS = 2


# Events ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ModePlayed(Event):
    """A combat mode went onto a stone (RULINGS ST1-12)."""

    player: int
    card: TacticCard
    stone: int

    def describe(self, names: Sequence[str], *, you: int | None = None) -> str:
        mud = self.card.kind is Tactic.MUD
        if self.player == you:
            if mud:
                return say(
                    "You played {tactic} on stone {stone}: each side now needs four cards.",
                    tactic=card_named(self.card),
                    stone=self.stone,
                )
            return say(
                "You played {tactic} on stone {stone}: only totals count there now.",
                tactic=card_named(self.card),
                stone=self.stone,
            )
        if mud:
            return say(
                # TRANSLATORS: {tactic} is the card with its article (the Mud Fight).
                "{player} played {tactic} on stone {stone}: each side now needs four cards.",
                player=names[self.player],
                tactic=card_named(self.card),
                stone=self.stone,
            )
        return say(
            # TRANSLATORS: {tactic} is the card with its article (the Blind-Man's Bluff).
            "{player} played {tactic} on stone {stone}: only totals count there now.",
            player=names[self.player],
            tactic=card_named(self.card),
            stone=self.stone,
        )


@dataclass(frozen=True, slots=True)
class RecruiterPlayed(Event):
    player: int

    def describe(self, names: Sequence[str], *, you: int | None = None) -> str:
        if self.player == you:
            return say("You played the Recruiter: you draw three cards, then put two back.")
        return say(
            "{player} played the Recruiter: they draw three cards and return two.",
            player=names[self.player],
        )


@dataclass(frozen=True, slots=True)
class CardsReturned(Event):
    """Cards went back under their decks; only which decks is public."""

    player: int
    decks: tuple[str, ...]

    def describe(self, names: Sequence[str], *, you: int | None = None) -> str:
        clan, tactic = self.decks.count("clan"), self.decks.count("tactic")
        parts: list[Phrase] = []
        if clan:
            parts.append(say_n("{count} clan card", "{count} clan cards", clan))
        if tactic:
            parts.append(say_n("{count} tactic card", "{count} tactic cards", tactic))
        if len(parts) == 2:
            # TRANSLATORS: {first} and {second} are "1 clan card" and "1 tactic card".
            what = say("{first} and {second}", first=parts[0], second=parts[1])
        else:
            what = parts[0] if parts else say("no cards")
        if self.player == you:
            return say("You put {cards} back under the decks.", cards=what)
        return say(
            # TRANSLATORS: {cards} is "2 clan cards", "1 clan card and 1 tactic card"...
            "{player} put {cards} back under the decks.",
            player=names[self.player],
            cards=what,
        )


@dataclass(frozen=True, slots=True)
class StrategistPlayed(Event):
    player: int
    card: AnyCard
    source: int
    target: int | None

    def describe(self, names: Sequence[str], *, you: int | None = None) -> str:
        card = card_name(self.card)
        if self.player == you:
            if self.target is None:
                return say(
                    "You played the Strategist: moved your {card} from stone {source} to the"
                    " discard pile.",
                    card=card,
                    source=self.source,
                )
            return say(
                "You played the Strategist: moved your {card} from stone {source} to stone"
                " {target}.",
                card=card,
                source=self.source,
                target=self.target,
            )
        if self.target is None:
            return say(
                "{player} played the Strategist: moved their {card} from stone {source} to the"
                " discard pile.",
                player=names[self.player],
                card=card,
                source=self.source,
            )
        return say(
            "{player} played the Strategist: moved their {card} from stone {source} to stone"
            " {target}.",
            player=names[self.player],
            card=card,
            source=self.source,
            target=self.target,
        )


@dataclass(frozen=True, slots=True)
class BansheePlayed(Event):
    player: int
    card: AnyCard
    source: int

    def describe(self, names: Sequence[str], *, you: int | None = None) -> str:
        other = names[1 - self.player]
        card = card_name(self.card)
        if self.player == you:
            return say(
                "You played the Banshee: {other}'s {card} on stone {source} is discarded.",
                other=other,
                card=card,
                source=self.source,
            )
        return say(
            "{player} played the Banshee: {other}'s {card} on stone {source} is discarded.",
            player=names[self.player],
            other=other,
            card=card,
            source=self.source,
        )


@dataclass(frozen=True, slots=True)
class TraitorPlayed(Event):
    player: int
    card: AnyCard
    source: int
    target: int

    def describe(self, names: Sequence[str], *, you: int | None = None) -> str:
        other = names[1 - self.player]
        card = card_name(self.card)
        if self.player == you:
            return say(
                "You played the Traitor: took {other}'s {card} from stone {source} onto your"
                " side of stone {target}.",
                other=other,
                card=card,
                source=self.source,
                target=self.target,
            )
        return say(
            "{player} played the Traitor: took {other}'s {card} from stone {source} onto"
            " {player}'s side of stone {target}.",
            player=names[self.player],
            other=other,
            card=card,
            source=self.source,
            target=self.target,
        )


# What may be played -----------------------------------------------------------------------------


def limit_allows(game: Game, p: int) -> bool:
    """RULINGS ST1-10: no more than one tactic card ahead of the opponent."""
    return game.tactics_played[p] <= game.tactics_played[1 - p]


def limit_message(game: Game, p: int) -> str:
    mine, theirs = game.tactics_played[p], game.tactics_played[1 - p]
    return tactic_limit(mine, theirs)


def tactic_moves(game: Game, p: int) -> list[Move]:
    """Every tactic card play open to player p now (in the play phase)."""
    if not game.options.tactics or not limit_allows(game, p):
        return []
    stones = game.stones
    open_stones = [s for s in stones if s.claimed_by is None]
    room = [s.number for s in open_stones if s.has_room(p)]
    moves: list[Move] = []
    kinds_seen: set[Tactic] = set()
    for card in sort_cards(c for c in game.hands[p] if isinstance(c, TacticCard)):
        if card.kind in kinds_seen:
            continue  # the two Jokers are interchangeable (rules notes R-6)
        kinds_seen.add(card.kind)
        kind = card.kind
        if kind in ELITE:
            if kind is Tactic.JOKER and game.joker_played[p]:
                continue
            plays = plays_of(card)
            moves.extend([plays[n] for n in room])
        elif kind in MODES:
            plays = plays_of(card)
            moves.extend([plays[s.number] for s in open_stones])
        elif kind is Tactic.RECRUITER:
            if game.deck or game.tactic_deck:
                moves.append(Recruit())
        elif kind is Tactic.STRATEGIST:
            for s in open_stones:
                for c in s.sides[p]:
                    moves.extend(Strategist(c, s.number, n) for n in room if n != s.number)
                    moves.append(Strategist(c, s.number, None))
        elif kind is Tactic.BANSHEE:
            moves.extend(Banshee(c, s.number) for s in open_stones for c in s.sides[1 - p])
        elif kind is Tactic.TRAITOR:
            for s in open_stones:
                for c in s.sides[1 - p]:
                    if isinstance(c, Card):
                        moves.extend(Traitor(c, s.number, n) for n in room)
    return moves


# Effects ----------------------------------------------------------------------------------------


def _take_tactic(game: Game, p: int, kind: Tactic) -> TacticCard:
    """The tactic card of this kind from p's hand, once the play is allowed."""
    if not game.options.tactics:
        raise IllegalMoveError(say("Tactic cards are played only in the Tactics variant."))
    card = next((c for c in game.hands[p] if isinstance(c, TacticCard) and c.kind is kind), None)
    if card is None:
        held = format_cards(sort_cards(game.hands[p]))
        raise IllegalMoveError(not_in_hand(kind.value, held))
    if not limit_allows(game, p):
        raise IllegalMoveError(limit_message(game, p))
    return card


def _played(game: Game, p: int, card: TacticCard) -> None:
    game.hands[p].remove(card)
    game.tactics_played[p] += 1


def _open_stone(game: Game, number: int, p: int) -> Stone:
    stone = game.stone(number)
    if stone.claimed_by is not None:
        raise IllegalMoveError(claimed_by(number, stone.claimed_by == p))
    return stone


def find_on_side(
    game: Game, card: AnyCard, side: int, source: int | None, whose: str
) -> tuple[Stone, AnyCard]:
    """Where `card` lies on `side` (the lower Joker for "joker"), checking a stated stone."""
    return locate(card, game.stones, side, source, whose, "stone")


def apply_tactic_card(
    game: Game, p: int, card: TacticCard, number: int, events: list[Event]
) -> None:
    """An Elite Troop onto p's side, or a Combat Mode onto a stone."""
    card = _take_tactic(game, p, card.kind)
    if card.kind in ELITE:
        if card.kind is Tactic.JOKER and game.joker_played[p]:
            raise IllegalMoveError(
                # RULINGS ST1-11: one Joker per side of the border.
                say("You have already played a Joker; the second one stays in your hand.")
            )
        stone = _open_stone(game, number, p)
        if not stone.has_room(p):
            raise IllegalMoveError(side_full(number, stone.size))
        _played(game, p, card)
        if card.kind is Tactic.JOKER:
            game.joker_played[p] = True
        stone.sides[p].append(card)
        stone.refresh(game.clock)
        from engine.st1.events import CardPlayed

        events.append(CardPlayed(p, card, number))
    elif card.kind in MODES:
        stone = _open_stone(game, number, p)
        _played(game, p, card)
        stone.set_modes([*stone.modes, card])
        stone.refresh(game.clock)  # with Mud Fight, three cards are no longer complete
        events.append(ModePlayed(p, card, number))
    else:
        example = _RUSE_EXAMPLES.get(card.kind)
        if example is None:
            raise IllegalMoveError(
                # TRANSLATORS: {card} is a tactic card's name; {move} its move, as `recruiter`.
                say(
                    "{card} is a Ruse: play it on its own, for example `{move}`.",
                    card=card.kind.title,
                    move=card.kind.value,
                )
            )
        raise IllegalMoveError(
            # TRANSLATORS: {example} is a whole move, as `strategist 3:R5 7`.
            say(
                "{card} is a Ruse: play it on its own, for example `{move}` as `{example}`.",
                card=card.kind.title,
                move=card.kind.value,
                example=example,
            )
        )
    game.after_play()


_RUSE_EXAMPLES = {
    Tactic.STRATEGIST: "strategist 3:R5 7",
    Tactic.BANSHEE: "banshee 4:G5",
    Tactic.TRAITOR: "traitor 3:G5 6",
}


def apply_recruit(game: Game, p: int, move: Recruit, events: list[Event]) -> None:
    card = _take_tactic(game, p, Tactic.RECRUITER)
    if not game.deck and not game.tactic_deck:
        raise IllegalMoveError(say("Both decks are empty: the Recruiter would draw nothing."))
    _played(game, p, card)
    game.discard.append(card)
    events.append(RecruiterPlayed(p))
    game.recruit_left = RECRUIT_DRAWS
    game.recruited = []
    game.phase = Phase.RECRUIT_DRAW


def return_count(game: Game, p: int) -> int:
    return min(RECRUIT_RETURNS, len(game.hands[p]))


def return_moves(game: Game, p: int) -> list[Move]:
    hand = sort_cards(game.hands[p])
    return [Return(pair) for pair in combinations(hand, return_count(game, p))]


def apply_return(game: Game, p: int, move: Return, events: list[Event]) -> None:
    if game.phase is not Phase.RECRUIT_RETURN:
        raise IllegalMoveError(say("You return cards only after drawing three with the Recruiter."))
    wanted = return_count(game, p)
    if len(move.cards) != wanted:
        raise IllegalMoveError(
            say_n(
                "Return exactly {count} card, for example `{example}`.",
                "Return exactly {count} cards, for example `{example}`.",
                wanted,
                example=str(return_moves(game, p)[0]),
            )
        )
    hand = list(game.hands[p])
    chosen: list[AnyCard] = []
    for card in move.cards:
        own = game.own_card(card, p, hand=hand)
        hand.remove(own)
        chosen.append(own)
    for card in chosen:
        game.hands[p].remove(card)
        # RULINGS ST1-13: under its own deck (the top of a deck is the end of the list).
        if isinstance(card, Card):
            game.deck.insert(0, card)
        else:
            game.tactic_deck.insert(0, card)
    decks = tuple("clan" if isinstance(c, Card) else "tactic" for c in chosen)
    events.append(CardsReturned(p, decks))
    game.recruited = []
    game.after_play()


def apply_strategist(game: Game, p: int, move: Strategist, events: list[Event]) -> None:
    card = _take_tactic(game, p, Tactic.STRATEGIST)
    source, moved = find_on_side(game, move.card, p, move.source, "your")
    if source.claimed_by is not None:
        raise IllegalMoveError(
            say("Stone {stone} is claimed: its cards cannot move.", stone=source.number)
        )
    target = None
    if move.target is not None:
        if move.target == source.number:
            raise IllegalMoveError(say("The Strategist moves a card to a different stone."))
        target = _open_stone(game, move.target, p)
        if not target.has_room(p):
            raise IllegalMoveError(side_full(move.target, target.size))
    _played(game, p, card)
    game.discard.append(card)
    source.sides[p].remove(moved)
    source.refresh(game.clock)
    if target is None:
        game.discard.append(moved)
    else:
        target.sides[p].append(moved)
        target.refresh(game.clock)
    events.append(StrategistPlayed(p, moved, source.number, move.target))
    game.after_play()


def apply_banshee(game: Game, p: int, move: Banshee, events: list[Event]) -> None:
    card = _take_tactic(game, p, Tactic.BANSHEE)
    source, victim = find_on_side(game, move.card, 1 - p, move.source, "your opponent's")
    if source.claimed_by is not None:
        raise IllegalMoveError(
            say("Stone {stone} is claimed: its cards cannot be touched.", stone=source.number)
        )
    _played(game, p, card)
    game.discard.append(card)
    source.sides[1 - p].remove(victim)
    source.refresh(game.clock)
    game.discard.append(victim)
    events.append(BansheePlayed(p, victim, source.number))
    game.after_play()


def apply_traitor(game: Game, p: int, move: Traitor, events: list[Event]) -> None:
    card = _take_tactic(game, p, Tactic.TRAITOR)
    source, victim = find_on_side(game, move.card, 1 - p, move.source, "your opponent's")
    if not isinstance(victim, Card):
        raise IllegalMoveError(say("The Traitor takes only clan cards, not tactic cards."))
    if source.claimed_by is not None:
        raise IllegalMoveError(
            say("Stone {stone} is claimed: its cards cannot be touched.", stone=source.number)
        )
    target = _open_stone(game, move.target, p)
    if not target.has_room(p):
        raise IllegalMoveError(side_full(move.target, target.size))
    _played(game, p, card)
    game.discard.append(card)
    source.sides[1 - p].remove(victim)
    source.refresh(game.clock)
    target.sides[p].append(victim)
    target.refresh(game.clock)
    events.append(TraitorPlayed(p, victim, source.number, move.target))
    game.after_play()
