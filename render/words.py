"""What the pictures say in words: tactic cards, formations, moves and results.

Moves are read back with each game's own parser (the log holds canonical text), so that the
board can both phrase the last move for people and find the cards and places it touched.

Everything is said in the current language (`lang.speaking`, set by the public entry points in
render/): words of the pictures' own come from the `render` catalog, and text from the engine
(tactic titles, formation types, reasons a game ended) passes through `engine_words`.
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
from lang import N_, Phrase, _, localise, ngettext, pgettext


def engine_words(words: object) -> str:
    """Text from the engine in the current language: a Phrase translated; a plain constant
    (a tactic title, a formation type, a variant's name) looked up in the catalogs, or kept
    in English if none has it."""
    if isinstance(words, Phrase):
        return localise(words)
    shown = "" if words is None else str(words)
    return _(shown) if shown else ""


# What a tactic card does, short enough for a card (game -> kind -> words).
_HINTS: dict[str, dict[Tactic, str]] = {
    "st1": {
        # TRANSLATORS: what a tactic card does, on a card in the hand (3 short lines of
        # about 15 letters); keep the no-break spaces between numbers.
        Tactic.JOKER: N_("any colour, 1\u00a0to\u00a09"),
        Tactic.SPY: N_("any colour, value\u00a07"),
        Tactic.SHIELD: N_("any colour, 1,\u00a02\u00a0or\u00a03"),
        Tactic.BLIND: N_("on a stone: sums only"),
        Tactic.MUD: N_("on a stone: 4 cards a side"),
        Tactic.RECRUITER: N_("draw 3, put 2 back"),
        Tactic.STRATEGIST: N_("move or discard one of your cards"),
        Tactic.BANSHEE: N_("discard an opponent's card"),
        Tactic.TRAITOR: N_("take an opponent's card"),
    },
    "st2": {
        Tactic.JOKER: N_("any colour, 0\u00a0to\u00a011"),
        Tactic.SPY: N_("any colour, value\u00a010"),
        Tactic.SHIELD: N_("any colour, 1,\u00a02\u00a0or\u00a03"),
        Tactic.REDEPLOY: N_("move or discard one of your cards"),
        Tactic.RECRUIT: N_("play a discarded card"),
        Tactic.DESERT: N_("discard an opponent's card"),
        Tactic.TREASON: N_("take an opponent's card"),
        Tactic.EXPLODE: N_("discard every card on a tile"),
        Tactic.SUPPORT: N_("shuffle 2 discarded cards back"),
        Tactic.EXCHANGE: N_("swap 3 cards with your opponent"),
    },
}
_ELITE = frozenset({Tactic.JOKER, Tactic.SPY, Tactic.SHIELD})
_MODES = frozenset({Tactic.BLIND, Tactic.MUD})
_RUSES = frozenset({Tactic.RECRUITER, Tactic.STRATEGIST, Tactic.BANSHEE, Tactic.TRAITOR})


# Shorter words for Elite troops on the board, where a card is one line wide.
_SHORT = {
    "st1": {Tactic.JOKER: N_("any colour, 1 to 9"), Tactic.SPY: N_("any colour, 7")},
    "st2": {Tactic.JOKER: N_("any colour, 0 to 11"), Tactic.SPY: N_("any colour, 10")},
}


def hint(kind: Tactic, game: str, *, short: bool = False) -> str:
    """What a tactic card does, in a few words (`short`: for one line on the board)."""
    if short:
        if kind is Tactic.SHIELD:
            return _("any colour, 1 to 3")
        if kind in _SHORT[game]:
            return _(_SHORT[game][kind])
    words = _HINTS[game].get(kind, "")
    return _(words) if words else ""


# What an Elite troop may become, in the fewest characters: on a board chip under its name.
_RANGES = {
    "st1": {Tactic.JOKER: "1–9", Tactic.SPY: "7", Tactic.SHIELD: "1–3"},
    "st2": {Tactic.JOKER: "0–11", Tactic.SPY: "10", Tactic.SHIELD: "1–3"},
}


def value_range(kind: Tactic, game: str) -> str:
    """ "1-9" for a Joker: the values an Elite troop may take (any colour); "" for others."""
    return _RANGES[game].get(kind, "")


def title(kind: Tactic) -> str:
    """A tactic card's name, as the engine's catalog says it in the current language."""
    return engine_words(kind.title)


def card_text(card: AnyCard) -> str:
    """A card as a sentence of the picture names it: a clan card by its code ("R7", the same
    in every language), a tactic card by its name in the current language ("Espion")."""
    return title(card.kind) if isinstance(card, TacticCard) else str(card)


def short_title(kind: Tactic) -> str:
    """A tactic card's name where room is short: "Shield" for the Shield-Bearer."""
    if kind is Tactic.SHIELD:
        # TRANSLATORS: the Shield-Bearer's name on a card 68 pixels wide (and on chips):
        # at most 6 letters, shortened if need be ("Schild").
        return pgettext("tactic card, short name", "Shield")
    return title(kind)


def category(kind: Tactic) -> str:
    """The family a tactic card belongs to, as the rulebooks name it."""
    if kind in _ELITE:
        return pgettext("tactic card family", "Elite troop")
    if kind in _MODES:
        return pgettext("tactic card family", "Combat mode")
    if kind in _RUSES:
        return pgettext("tactic card family", "Ruse")
    return pgettext("tactic card family", "Action")


def formation_label(f: Formation, *, short: bool = False) -> str:
    """ "colour run 18", "three of a kind 21" ("3 of a kind 21" if `short`), "lower sum 9"."""
    size = len(f.cards)
    if f.lower_sum_wins:
        kind = pgettext("formation", "lower sum")
    elif short and size == 3 and f.type.label(size) == "three of a kind":
        kind = pgettext("formation, short", "3 of a kind")
    elif short and size == 4 and f.type.label(size) == "four of a kind":
        kind = pgettext("formation, short", "4 of a kind")
    else:
        kind = engine_words(f.type.label(size))
    # TRANSLATORS: a formation and its total under a stone or a tile: "colour run 18".
    return pgettext("formation and total", "{formation} {total}").format(
        formation=kind, total=f.total
    )


def wild_label(card: TacticCard, stands_for: AnyCard) -> str:
    """ "Joker = G7": the card a wild card became (RULINGS ST1-11, ST2-10)."""
    return f"{short_title(card.kind)} = {stands_for}"


def wild_labels(f: Formation) -> list[str]:
    """The wild cards of a judged formation, as `wild_label` writes them."""
    return [wild_label(w, c) for w, c in f.wild_values.items()]


def result_text(outcome: Outcome, names: tuple[str, str]) -> str:
    """ "Alice wins: three adjacent stones", "Drawn game"."""
    why = localise(outcome.termination.reason)
    if outcome.termination is Termination.ABORTED:
        # TRANSLATORS: the banner of a game aborted before both players moved (no result).
        return _("Game aborted: no winner, unrated")
    if outcome.winner is None:
        if outcome.termination is Termination.NO_MOVES:
            return why
        # TRANSLATORS: the banner of a drawn game; {reason} says why it ended.
        return _("Drawn game: {reason}").format(reason=why)
    # TRANSLATORS: the banner of a finished game; {reason}: "three adjacent stones".
    return _("{player} wins: {reason}").format(player=names[outcome.winner], reason=why)


def listing(items: list[str]) -> str:
    """ "R3, G5 and B7" in the current language."""
    if len(items) <= 1:
        return "".join(items)
    # TRANSLATORS: the end of a list: "R3, G5 and B7" ({items} is "R3, G5").
    return pgettext("list", "{items} and {last}").format(
        items=", ".join(items[:-1]), last=items[-1]
    )


@dataclass(frozen=True, slots=True)
class LastMove:
    """The last move, for people and for the board: its sentence (`message`, already in the
    current language, with `{player}` and its `values` still to fill: see `line`), the
    places it acted on, the cards it put on the table as (place, seat, card text), and
    cards it discarded."""

    message: str
    values: tuple[tuple[str, str | int], ...] = ()
    places: frozenset[int] = frozenset()
    cards: frozenset[tuple[int, int, str]] = frozenset()
    discarded: frozenset[str] = frozenset()

    def line(self, player: str) -> str:
        """ "Last move: Alice played R7 on stone 3"."""
        return self.message.format(player=player, **dict(self.values))


def _said(message: str, **values: str | int) -> tuple[str, tuple[tuple[str, str | int], ...]]:
    return message, tuple(values.items())


def last_move(game: str, move: tuple[int, str] | None) -> LastMove | None:
    """Read a view's `last_move` (seat, canonical text)."""
    if move is None:
        return None
    seat, notation = move
    parse = st1.parse_move if game == "st1" else st2.parse_move
    try:
        parsed = parse(notation)
    except GameError:
        return _hidden(notation)
    return _describe(parsed, seat, game)


def _hidden(notation: str) -> LastMove:
    """A move whose cards are hidden from this viewer ("return 2 cards", "give 3 cards")."""
    head, _sep, rest = notation.partition(" ")
    number = rest.split(" ")[0]
    if head in ("return", "give") and number.isdigit():
        n = int(number)
        if head == "return":
            message = ngettext(
                "Last move: {player} put {count} card back under the decks",
                "Last move: {player} put {count} cards back under the decks",
                n,
            )
        else:
            message = ngettext(
                "Last move: {player} gave {count} card", "Last move: {player} gave {count} cards", n
            )
        return LastMove(*_said(message, count=n))
    # TRANSLATORS: a move the board cannot describe; {move} is its notation ("foo 3").
    return LastMove(*_said(_("Last move: {player} {move}"), move=notation.strip()))


def _describe(m: object, seat: int, game: str) -> LastMove:
    stone = game == "st1"
    if isinstance(m, Play):
        here = frozenset({m.place})
        if isinstance(m.card, TacticCard) and m.card.kind in _MODES:
            message = _("Last move: {player} put {tactic} on stone {place}")
            return LastMove(*_said(message, tactic=title(m.card.kind), place=m.place), here)
        put = frozenset({(m.place, seat, str(m.card))})
        if isinstance(m.card, TacticCard):
            if stone:
                message = _("Last move: {player} played the {tactic} on stone {place}")
            else:
                message = _("Last move: {player} played the {tactic} on tile {place}")
            return LastMove(*_said(message, tactic=title(m.card.kind), place=m.place), here, put)
        if stone:
            # TRANSLATORS: under the board; {card} is a card code (R7), {place} a number.
            message = _("Last move: {player} played {card} on stone {place}")
        else:
            message = _("Last move: {player} played {card} on tile {place}")
        return LastMove(*_said(message, card=card_text(m.card), place=m.place), here, put)
    if isinstance(m, Pass):
        return LastMove(_("Last move: {player} passed"))
    if isinstance(m, Done):
        return LastMove(_("Last move: {player} ended the turn"))
    if isinstance(m, Draw):
        if m.deck == "tactic":
            return LastMove(_("Last move: {player} drew from the tactic deck"))
        if m.deck == "siege":
            return LastMove(_("Last move: {player} drew from the siege deck"))
        return LastMove(_("Last move: {player} drew from the clan deck"))
    if isinstance(m, Resign):
        if m.timeout:
            return LastMove(_("Last move: {player} ran out of time"))
        return LastMove(_("Last move: {player} resigned"))
    if isinstance(m, st1.Claim):
        message = _("Last move: {player} claimed stone {place}")
        return LastMove(*_said(message, place=m.stone), frozenset({m.stone}))
    if isinstance(m, st2.Control):
        message = _("Last move: {player} took control of tile {place}")
        return LastMove(*_said(message, place=m.tile), frozenset({m.tile}))
    if isinstance(m, st2.Retreat):
        message = ngettext(
            "Last move: {player} retreated from tile {tiles}",
            "Last move: {player} retreated from tiles {tiles}",
            len(m.tiles),
        )
        tiles = listing([str(t) for t in m.tiles])
        return LastMove(*_said(message, tiles=tiles), frozenset(m.tiles))
    if isinstance(m, st2.Oil):
        message = _("Last move: {player} threw oil on tile {place}")
        return LastMove(*_said(message, place=m.tile), frozenset({m.tile}))
    if isinstance(m, st2.Explode):
        message = _("Last move: {player} used {tactic} on tile {place}")
        explosion = title(Tactic.EXPLODE)
        return LastMove(*_said(message, tactic=explosion, place=m.tile), frozenset({m.tile}))
    if isinstance(m, st1.Recruit):
        message = _("Last move: {player} played the {tactic}")
        return LastMove(*_said(message, tactic=title(Tactic.RECRUITER)))
    if isinstance(m, st2.Exchange):
        message = _("Last move: {player} played {tactic}")
        return LastMove(*_said(message, tactic=title(Tactic.EXCHANGE)))
    if isinstance(m, st1.Return | st2.Give):
        cards = listing([card_text(c) for c in m.cards])
        if isinstance(m, st1.Return):
            message = _("Last move: {player} put {cards} back under the decks")
        else:
            message = _("Last move: {player} gave {cards}")
        return LastMove(*_said(message, cards=cards))
    if isinstance(m, st2.Support):
        message = _("Last move: {player} used {tactic}: shuffled {cards} back into the decks")
        cards = listing([card_text(c) for c in m.cards])
        return LastMove(*_said(message, tactic=title(Tactic.SUPPORT), cards=cards))
    return _describe_taking(m, seat, game)


def _describe_taking(m: object, seat: int, game: str) -> LastMove:
    """Moves that take a card from the table and put it somewhere (or discard it)."""
    if isinstance(m, st1.Strategist | st2.Redeploy):
        kind = Tactic.STRATEGIST if isinstance(m, st1.Strategist) else Tactic.REDEPLOY
        return _moved(kind, m.card, m.source, m.target, seat, game)
    if isinstance(m, st1.Traitor | st2.Treason):
        kind = Tactic.TRAITOR if isinstance(m, st1.Traitor) else Tactic.TREASON
        return _moved(kind, m.card, m.source, m.target, seat, game)
    if isinstance(m, st1.Banshee | st2.Desert):
        kind = Tactic.BANSHEE if isinstance(m, st1.Banshee) else Tactic.DESERT
        return _moved(kind, m.card, m.source, None, seat, game)
    if isinstance(m, st2.Recruit):
        message = _("Last move: {player} used {tactic}: {card} from the discard to tile {place}")
        values = _said(
            message, tactic=title(Tactic.RECRUIT), card=card_text(m.card), place=m.target
        )
        return LastMove(
            *values,
            frozenset({m.target}),
            frozenset({(m.target, seat, str(m.card))}),
        )
    return LastMove(*_said(_("Last move: {player} {move}"), move=str(m)))


def _moved(
    kind: Tactic,
    card: AnyCard,
    source: int | None,
    target: int | None,
    seat: int,
    game: str,
) -> LastMove:
    """A card taken from `source`, discarded (no `target`) or put on the mover's side of
    `target`: the Strategist and Traitor (and their Schotten Totten 2 cousins) both land it
    on the side of the player who played them. Schotten Totten's ruses are "the Strategist",
    Schotten Totten 2's actions are named without an article ("Redeployment")."""
    st1_card = game == "st1"
    values: dict[str, str | int] = {"tactic": title(kind), "card": card_text(card)}
    if source is not None:
        values["source"] = source
    if target is None:
        if source is None:
            message = _("Last move: {player} used {tactic}: discarded {card}")
        elif st1_card:
            message = _(
                "Last move: {player} used the {tactic}: discarded {card} from stone {source}"
            )
        else:
            message = _("Last move: {player} used {tactic}: discarded {card} from tile {source}")
        return LastMove(
            *_said(message, **values),
            frozenset({source} if source is not None else ()),
            discarded=frozenset({str(card)}),
        )
    values["target"] = target
    if source is None:
        if st1_card:
            message = _("Last move: {player} used the {tactic}: moved {card} to stone {target}")
        else:
            message = _("Last move: {player} used {tactic}: moved {card} to tile {target}")
    elif st1_card:
        message = _(
            "Last move: {player} used the {tactic}: moved {card} from stone {source}"
            " to stone {target}"
        )
    else:
        message = _(
            "Last move: {player} used {tactic}: moved {card} from tile {source} to tile {target}"
        )
    return LastMove(
        *_said(message, **values),
        frozenset({target}),
        frozenset({(target, seat, str(card))}),
    )


# The badge on the banner of the player the game waits for, translated where it is drawn
# (short words in capitals: a badge is one line on a banner).
_PHASE_BADGES = {
    # TRANSLATORS: badges on the banner of the player the game waits for: short, in capitals.
    "play": N_("TO PLAY"),
    "claim": N_("CLAIMING"),
    "draw": N_("TO DRAW"),
    "recruit-draw": N_("RECRUITER"),
    "recruit-return": N_("RECRUITER"),
    "prepare": N_("TO MOVE"),
    "after-play": N_("MAY CONTROL"),
    "exchange": N_("EXCHANGE"),
}


def phase_badge(phase: str) -> str:
    """The word on the banner of the player the game waits for."""
    return _(_PHASE_BADGES.get(phase, "TO MOVE"))


def winner_badge() -> str:
    """The badge on the winner's banner."""
    return pgettext("board badge", "WINNER")
