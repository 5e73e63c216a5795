"""Events particular to Schotten Totten 2. Public: no hidden card appears in them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.cards import AnyCard, TacticCard, card_name, card_named, format_cards
from engine.events import Event
from engine.formations import Formation
from engine.phrases import Phrase, say, say_n


def _cards(cards: Sequence[AnyCard]) -> str:
    """Cards in a sentence, separated by spaces: codes, and tactic cards by name (Phrases)."""
    names = [card_name(c) for c in sorted(cards, key=lambda c: c.sort_key())]
    if not any(isinstance(n, Phrase) for n in names):
        return " ".join(names)
    out = names[0]
    for name in names[1:]:
        # TRANSLATORS: cards listed one after another, separated by a space ("R3 G5 Joker").
        out = say("{cards} {card}", cards=out, card=name)
    return out


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    player: int
    card: AnyCard
    tile: int

    def describe(self, names: Sequence[str], *, you: int | None = None) -> str:
        card = card_named(self.card)
        if self.player == you:
            return say("You played {card} on tile {tile}.", card=card, tile=self.tile)
        return say(
            # TRANSLATORS: {card} is a card code (R7) or a tactic card ("the Joker").
            "{player} played {card} on tile {tile}.",
            player=names[self.player],
            card=card,
            tile=self.tile,
        )


@dataclass(frozen=True, slots=True)
class Retreated(Event):
    """The Attacker discarded their cards from some tiles (RULINGS ST2-1)."""

    player: int
    tiles: tuple[int, ...]
    cards: tuple[AnyCard, ...]

    def describe(self, names: Sequence[str], *, you: int | None = None) -> str:
        where = ", ".join(str(t) for t in self.tiles)
        cards = _cards(self.cards)
        n = len(self.tiles)
        if self.player == you:
            return say_n(
                "You retreated from tile {tiles}, discarding {cards}.",
                "You retreated from tiles {tiles}, discarding {cards}.",
                n,
                tiles=where,
                cards=cards,
            )
        return say_n(
            # TRANSLATORS: {tiles} are tile numbers ("2, 5"), {cards} the cards discarded.
            "{player} retreated from tile {tiles}, discarding {cards}.",
            "{player} retreated from tiles {tiles}, discarding {cards}.",
            n,
            player=names[self.player],
            tiles=where,
            cards=cards,
        )


@dataclass(frozen=True, slots=True)
class OilThrown(Event):
    """An oil cauldron discarded the Attacker's card closest to the wall (RULINGS ST2-6)."""

    player: int
    tile: int
    card: AnyCard
    left: int

    def describe(self, names: Sequence[str], *, you: int | None = None) -> str:
        card = card_name(self.card)
        if self.left == 0:
            if self.player == you:
                return say(
                    "You poured boiling oil on tile {tile}: {card} is discarded (no cauldron"
                    " left).",
                    tile=self.tile,
                    card=card,
                )
            return say(
                # TRANSLATORS: the Defender's last oil cauldron ("plus aucun Chaudron").
                "{player} poured boiling oil on tile {tile}: {card} is discarded (no cauldron"
                " left).",
                player=names[self.player],
                tile=self.tile,
                card=card,
            )
        if self.player == you:
            return say_n(
                "You poured boiling oil on tile {tile}: {card} is discarded ({count} cauldron"
                " left).",
                "You poured boiling oil on tile {tile}: {card} is discarded ({count} cauldrons"
                " left).",
                self.left,
                tile=self.tile,
                card=card,
            )
        return say_n(
            # TRANSLATORS: {count} is the number of oil cauldrons the Defender has left.
            "{player} poured boiling oil on tile {tile}: {card} is discarded ({count} cauldron"
            " left).",
            "{player} poured boiling oil on tile {tile}: {card} is discarded ({count} cauldrons"
            " left).",
            self.left,
            player=names[self.player],
            tile=self.tile,
            card=card,
        )


@dataclass(frozen=True, slots=True)
class ChickenVersusChef(Event):
    """A 0 met the 11 of its colour across a tile: both are discarded (RULINGS ST2-5)."""

    tile: int
    cards: tuple[AnyCard, AnyCard]

    def describe(self, names: Sequence[str], *, you: int | None = None) -> str:
        a, b = self.cards
        return say(
            # TRANSLATORS: a 0 (the Chicken) met the 11 (the Chef) of its colour on a tile.
            "Chicken versus Chef on tile {tile}: {first} and {second} are both discarded.",
            tile=self.tile,
            first=str(a),
            second=str(b),
        )


@dataclass(frozen=True, slots=True)
class ControlDeclared(Event):
    """The Attacker took a tile: it flips to its damaged side and its cards are discarded
    (RULINGS ST2-7). `against` is the Defender's formation, or None when it was proven that no
    completion could beat the Attacker's (RULINGS ST2-4)."""

    player: int
    tile: int
    formation: Formation
    against: Formation | None
    was_damaged: bool
    damaged_tiles: int

    def describe(self, names: Sequence[str], *, you: int | None = None) -> str:
        values: dict[str, str | int] = {
            "player": names[self.player],
            "other": names[1 - self.player],
            "tile": self.tile,
            "formation": self.formation.describe(after_with=True),
        }
        if self.against is None:
            how = "proof"
        else:
            how = "tie" if self.against.key == self.formation.key else "beats"
            values["against"] = self.against.describe()
        taken = _TAKEN[(how, self.player == you)](values)
        if self.was_damaged:
            after = say("It was already damaged: the wall is breached!")
        else:
            after = say("The tile is damaged ({damaged} of 4).", damaged=self.damaged_tiles)
        # TRANSLATORS: two sentences one after the other: how a tile was taken, then what
        # became of it.
        return say("{taken} {after}", taken=taken, after=after)


# How a tile was taken: (how it was won, said to the Attacker?) -> the sentence. "proof": the
# Defender's side is incomplete and no completion beats it; "tie": equal, won by completing
# first; "beats": the stronger formation. {formation} and {against} are formations ("colour
# run G5 G6 G7 (18)").
_Say = Callable[[dict[str, "str | int"]], Phrase]
_TAKEN: dict[tuple[str, bool], _Say] = {
    ("proof", False): lambda v: say(
        "{player} took control of tile {tile} with {formation}; {other} cannot beat it,"
        " whatever they add.",
        **v,
    ),
    ("proof", True): lambda v: say(
        "You took control of tile {tile} with {formation}; {other} cannot beat it, whatever"
        " they add.",
        **v,
    ),
    ("tie", False): lambda v: say(
        "{player} took control of tile {tile} with {formation} against {against}: a tie, won"
        " by {player}, who completed their side first.",
        **v,
    ),
    ("tie", True): lambda v: say(
        "You took control of tile {tile} with {formation} against {against}: a tie, won by"
        " you: you completed first.",
        **v,
    ),
    ("beats", False): lambda v: say(
        "{player} took control of tile {tile} with {formation} against {against}.", **v
    ),
    ("beats", True): lambda v: say(
        "You took control of tile {tile} with {formation} against {against}.", **v
    ),
}


@dataclass(frozen=True, slots=True)
class TacticUsed(Event):
    """An action card was played (RULINGS ST2-10), with what it did: `effect` names it
    ("discard", "move", "recruit", "desert", "treason", "explode", "support", "exchange"),
    `cards` are the cards it moved and `tiles` the tiles it touched, in the order the
    sentence names them."""

    player: int
    card: AnyCard
    effect: str
    cards: tuple[AnyCard, ...] = ()
    tiles: tuple[int, ...] = ()

    def describe(self, names: Sequence[str], *, you: int | None = None) -> str:
        assert isinstance(self.card, TacticCard)
        mine = self.player == you
        tiles = self.tiles
        card = card_name(self.cards[0]) if self.cards else ""
        v: dict[str, str | int] = {
            "player": names[self.player],
            "other": names[1 - self.player],
            "tactic": card_named(self.card),
        }
        match self.effect:
            case "discard":
                if mine:
                    return say(
                        "You played {tactic}: discarded your {card} from tile {tile}.",
                        card=card,
                        tile=tiles[0],
                        **v,
                    )
                return say(
                    # TRANSLATORS: {tactic} is the tactic card as an object ("Redeployment").
                    "{player} played {tactic}: discarded their {card} from tile {tile}.",
                    card=card,
                    tile=tiles[0],
                    **v,
                )
            case "move":
                if mine:
                    return say(
                        "You played {tactic}: moved your {card} from tile {source} to tile"
                        " {target}.",
                        card=card,
                        source=tiles[0],
                        target=tiles[1],
                        **v,
                    )
                return say(
                    "{player} played {tactic}: moved their {card} from tile {source} to tile"
                    " {target}.",
                    card=card,
                    source=tiles[0],
                    target=tiles[1],
                    **v,
                )
            case "recruit":
                taken = card_named(self.cards[0])
                if mine:
                    return say(
                        "You played {tactic}: took {card} from the discard pile onto your side"
                        " of tile {tile}.",
                        card=taken,
                        tile=tiles[0],
                        **v,
                    )
                return say(
                    "{player} played {tactic}: took {card} from the discard pile onto"
                    " {player}'s side of tile {tile}.",
                    card=taken,
                    tile=tiles[0],
                    **v,
                )
            case "desert":
                if mine:
                    return say(
                        "You played {tactic}: {other}'s {card} on tile {tile} is discarded.",
                        card=card,
                        tile=tiles[0],
                        **v,
                    )
                return say(
                    "{player} played {tactic}: {other}'s {card} on tile {tile} is discarded.",
                    card=card,
                    tile=tiles[0],
                    **v,
                )
            case "treason":
                if mine:
                    return say(
                        "You played {tactic}: took {other}'s {card} from tile {source} onto"
                        " your side of tile {target}.",
                        card=card,
                        source=tiles[0],
                        target=tiles[1],
                        **v,
                    )
                return say(
                    "{player} played {tactic}: took {other}'s {card} from tile {source} onto"
                    " {player}'s side of tile {target}.",
                    card=card,
                    source=tiles[0],
                    target=tiles[1],
                    **v,
                )
            case "explode":
                cards = format_cards(self.cards)
                if mine:
                    return say(
                        "You played {tactic}: every card on tile {tile} is discarded: {cards}.",
                        cards=cards,
                        tile=tiles[0],
                        **v,
                    )
                return say(
                    "{player} played {tactic}: every card on tile {tile} is discarded: {cards}.",
                    cards=cards,
                    tile=tiles[0],
                    **v,
                )
            case "support":
                cards = format_cards(self.cards)
                if mine:
                    return say(
                        "You played {tactic}: {cards} go back into the deck, shuffled.",
                        cards=cards,
                        **v,
                    )
                return say(
                    "{player} played {tactic}: {cards} go back into the deck, shuffled.",
                    cards=cards,
                    **v,
                )
        if mine:
            return say("You played {tactic}: each player now gives the other three cards.", **v)
        return say("{player} played {tactic}: each player now gives the other three cards.", **v)


@dataclass(frozen=True, slots=True)
class CardsGiven(Event):
    """One player chose the cards to give in an Exchange (which stays private)."""

    player: int
    count: int

    def describe(self, names: Sequence[str], *, you: int | None = None) -> str:
        if self.player == you:
            return say_n(
                "You chose {count} card to give.", "You chose {count} cards to give.", self.count
            )
        return say_n(
            "{player} chose {count} card to give.",
            "{player} chose {count} cards to give.",
            self.count,
            player=names[self.player],
        )


@dataclass(frozen=True, slots=True)
class CardsExchanged(Event):
    counts: tuple[int, int]

    def describe(self, names: Sequence[str], *, you: int | None = None) -> str:
        a, b = self.counts
        if you in (0, 1):
            gave, got = (a, b) if you == 0 else (b, a)
            return say_n(
                "You gave {count} card to {other} and received {received}.",
                "You gave {count} cards to {other} and received {received}.",
                gave,
                other=names[1 - you],
                received=got,
            )
        return say_n(
            # TRANSLATORS: {count} cards went from {player} to {other}, and {received} back.
            "{player} gave {count} card to {other} and received {received}.",
            "{player} gave {count} cards to {other} and received {received}.",
            a,
            player=names[0],
            other=names[1],
            received=b,
        )
