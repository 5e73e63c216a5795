"""What the pictures say in words: tactic cards, formations, moves and results.

Moves are read back with each game's own parser (the log holds canonical text), so that the
board can both phrase the last move for people and find the cards and places it touched.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import AnyCard, Tactic, TacticCard
from engine.errors import GameError
from engine.formations import Formation
from engine.moves import Done, Draw, Pass, Play, Resign
from engine.outcome import Outcome, Termination
from engine.st1 import moves as st1
from engine.st2 import moves as st2

# What a tactic card does, short enough for a card (game -> kind -> words).
_HINTS: dict[str, dict[Tactic, str]] = {
    "st1": {
        Tactic.JOKER: "any colour, 1\u00a0to\u00a09",
        Tactic.SPY: "any colour, value\u00a07",
        Tactic.SHIELD: "any colour, 1,\u00a02\u00a0or\u00a03",
        Tactic.BLIND: "on a stone: sums only",
        Tactic.MUD: "on a stone: 4 cards a side",
        Tactic.RECRUITER: "draw 3, put 2 back",
        Tactic.STRATEGIST: "move or discard one of your cards",
        Tactic.BANSHEE: "discard an opponent's card",
        Tactic.TRAITOR: "take an opponent's card",
    },
    "st2": {
        Tactic.JOKER: "any colour, 0\u00a0to\u00a011",
        Tactic.SPY: "any colour, value\u00a010",
        Tactic.SHIELD: "any colour, 1,\u00a02\u00a0or\u00a03",
        Tactic.REDEPLOY: "move or discard one of your cards",
        Tactic.RECRUIT: "play a discarded card",
        Tactic.DESERT: "discard an opponent's card",
        Tactic.TREASON: "take an opponent's card",
        Tactic.EXPLODE: "discard every card on a tile",
        Tactic.SUPPORT: "shuffle 2 discarded cards back",
        Tactic.EXCHANGE: "swap 3 cards with your opponent",
    },
}
_ELITE = frozenset({Tactic.JOKER, Tactic.SPY, Tactic.SHIELD})
_MODES = frozenset({Tactic.BLIND, Tactic.MUD})
_RUSES = frozenset({Tactic.RECRUITER, Tactic.STRATEGIST, Tactic.BANSHEE, Tactic.TRAITOR})


# Shorter words for Elite troops on the board, where a card is one line wide.
_SHORT = {
    "st1": {Tactic.JOKER: "any colour, 1 to 9", Tactic.SPY: "any colour, 7"},
    "st2": {Tactic.JOKER: "any colour, 0 to 11", Tactic.SPY: "any colour, 10"},
}


def hint(kind: Tactic, game: str, *, short: bool = False) -> str:
    """What a tactic card does, in a few words (`short`: for one line on the board)."""
    if short:
        if kind is Tactic.SHIELD:
            return "any colour, 1 to 3"
        if kind in _SHORT[game]:
            return _SHORT[game][kind]
    return _HINTS[game].get(kind, "")


# What an Elite troop may become, in the fewest characters: on a board chip under its name.
_RANGES = {
    "st1": {Tactic.JOKER: "1–9", Tactic.SPY: "7", Tactic.SHIELD: "1–3"},
    "st2": {Tactic.JOKER: "0–11", Tactic.SPY: "10", Tactic.SHIELD: "1–3"},
}


def value_range(kind: Tactic, game: str) -> str:
    """ "1-9" for a Joker: the values an Elite troop may take (any colour); "" for others."""
    return _RANGES[game].get(kind, "")


def short_title(kind: Tactic) -> str:
    """A tactic card's name where room is short: "Shield" for the Shield-Bearer."""
    return "Shield" if kind is Tactic.SHIELD else kind.title


def category(kind: Tactic) -> str:
    """The family a tactic card belongs to, as the rulebooks name it."""
    if kind in _ELITE:
        return "Elite troop"
    if kind in _MODES:
        return "Combat mode"
    if kind in _RUSES:
        return "Ruse"
    return "Action"


def formation_label(f: Formation, *, short: bool = False) -> str:
    """ "colour run 18", "three of a kind 21" ("3 of a kind 21" if `short`), "lower sum 9"."""
    kind = "lower sum" if f.lower_sum_wins else f.type.label(len(f.cards))
    if short:
        kind = kind.replace("three of", "3 of").replace("four of", "4 of")
    return f"{kind} {f.total}"


def wild_label(card: TacticCard, stands_for: AnyCard) -> str:
    """ "Joker = G7": the card a wild card became (RULINGS ST1-11, ST2-10)."""
    return f"{short_title(card.kind)} = {stands_for}"


def wild_labels(f: Formation) -> list[str]:
    """The wild cards of a judged formation, as `wild_label` writes them."""
    return [wild_label(w, c) for w, c in f.wild_values.items()]


def result_text(outcome: Outcome, names: tuple[str, str]) -> str:
    """ "Alice wins: three adjacent stones", "Drawn game"."""
    why = outcome.termination.value
    if outcome.winner is None:
        return f"Drawn game: {why}" if outcome.termination is not Termination.NO_MOVES else why
    return f"{names[outcome.winner]} wins: {why}"


def _listing(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


@dataclass(frozen=True, slots=True)
class LastMove:
    """The last move, for people (`text`) and for the board: the places it acted on, the
    cards it put on the table as (place, seat, card text), and cards it discarded."""

    text: str
    places: frozenset[int] = frozenset()
    cards: frozenset[tuple[int, int, str]] = frozenset()
    discarded: frozenset[str] = frozenset()


def last_move(game: str, move: tuple[int, str] | None) -> LastMove | None:
    """Read a view's `last_move` (seat, canonical text)."""
    if move is None:
        return None
    seat, text = move
    parse = st1.parse_move if game == "st1" else st2.parse_move
    place = "stone" if game == "st1" else "tile"
    try:
        parsed = parse(text)
    except GameError:
        # Cards hidden from this viewer ("return 2 cards", "give 3 cards").
        head, _, rest = text.partition(" ")
        if head == "return":
            return LastMove(f"put {rest} back under the decks")
        return LastMove(f"{'gave' if head == 'give' else head} {rest}".strip())
    return _describe(parsed, seat, place)


def _describe(m: object, seat: int, place: str) -> LastMove:
    if isinstance(m, Play):
        if isinstance(m.card, TacticCard) and m.card.kind in _MODES:
            return LastMove(f"put {m.card.kind.title} on {place} {m.place}", frozenset({m.place}))
        name = f"the {m.card.kind.title}" if isinstance(m.card, TacticCard) else str(m.card)
        return LastMove(
            f"played {name} on {place} {m.place}",
            frozenset({m.place}),
            frozenset({(m.place, seat, str(m.card))}),
        )
    if isinstance(m, Pass):
        return LastMove("passed")
    if isinstance(m, Done):
        return LastMove("ended the turn")
    if isinstance(m, Draw):
        return LastMove(f"drew from the {m.deck} deck")
    if isinstance(m, Resign):
        return LastMove("ran out of time" if m.timeout else "resigned")
    if isinstance(m, st1.Claim):
        return LastMove(f"claimed stone {m.stone}", frozenset({m.stone}))
    if isinstance(m, st2.Control):
        return LastMove(f"took control of tile {m.tile}", frozenset({m.tile}))
    if isinstance(m, st2.Retreat):
        tiles = _listing([str(t) for t in m.tiles])
        plural = "s" if len(m.tiles) > 1 else ""
        return LastMove(f"retreated from tile{plural} {tiles}", frozenset(m.tiles))
    if isinstance(m, st2.Oil):
        return LastMove(f"threw oil on tile {m.tile}", frozenset({m.tile}))
    if isinstance(m, st2.Explode):
        return LastMove(f"used Explosion on tile {m.tile}", frozenset({m.tile}))
    if isinstance(m, st1.Recruit):
        return LastMove("played the Recruiter")
    if isinstance(m, st2.Exchange):
        return LastMove("played Exchange")
    if isinstance(m, st1.Return | st2.Give):
        cards = _listing([str(c) for c in m.cards])
        if isinstance(m, st1.Return):
            return LastMove(f"put {cards} back under the decks")
        return LastMove(f"gave {cards}")
    if isinstance(m, st2.Support):
        cards = _listing([str(c) for c in m.cards])
        return LastMove(f"used Support: shuffled {cards} back into the decks")
    return _describe_taking(m, seat, place)


def _describe_taking(m: object, seat: int, place: str) -> LastMove:
    """Moves that take a card from the table and put it somewhere (or discard it)."""
    if isinstance(m, st1.Strategist | st2.Redeploy):
        title = "the Strategist" if isinstance(m, st1.Strategist) else "Redeployment"
        return _moved(title, m.card, m.source, m.target, seat, place)
    if isinstance(m, st1.Traitor | st2.Treason):
        title = "the Traitor" if isinstance(m, st1.Traitor) else "Treason"
        return _moved(title, m.card, m.source, m.target, seat, place)
    if isinstance(m, st1.Banshee | st2.Desert):
        title = "the Banshee" if isinstance(m, st1.Banshee) else "Desertion"
        return _moved(title, m.card, m.source, None, seat, place)
    if isinstance(m, st2.Recruit):
        return LastMove(
            f"used Recruitment: {m.card} from the discard to tile {m.target}",
            frozenset({m.target}),
            frozenset({(m.target, seat, str(m.card))}),
        )
    return LastMove(str(m))


def _moved(
    title: str,
    card: AnyCard,
    source: int | None,
    target: int | None,
    seat: int,
    place: str,
) -> LastMove:
    """A card taken from `source`, discarded (no `target`) or put on the mover's side of
    `target`: the Strategist and Traitor (and their Schotten Totten 2 cousins) both land it
    on the side of the player who played them."""
    origin = f" from {place} {source}" if source is not None else ""
    if target is None:
        return LastMove(
            f"used {title}: discarded {card}{origin}",
            frozenset({source} if source is not None else ()),
            discarded=frozenset({str(card)}),
        )
    return LastMove(
        f"used {title}: moved {card}{origin} to {place} {target}",
        frozenset({target}),
        frozenset({(target, seat, str(card))}),
    )


_PHASE_BADGES = {
    "play": "TO PLAY",
    "claim": "CLAIMING",
    "draw": "TO DRAW",
    "recruit-draw": "RECRUITER",
    "recruit-return": "RECRUITER",
    "prepare": "TO MOVE",
    "after-play": "MAY CONTROL",
    "exchange": "EXCHANGE",
}


def phase_badge(phase: str) -> str:
    """The word on the banner of the player the game waits for."""
    return _PHASE_BADGES.get(phase, "TO MOVE")


def plural(n: int, word: str) -> str:
    """ "1 stone", "2 stones"."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
