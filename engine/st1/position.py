"""A Schotten Totten position written by hand, for tests and for explaining a ruling.

    # lines are "key: value"; blank lines and everything after # are ignored
    variant: classic              # classic | tactics | expert | tactics-expert
    seed: 7                       # shuffles the cards not placed anywhere (default 0)
    turn: P1                      # who is to move, and optionally the phase:
                                  #   play (default) | claim | draw
    hand P1: R7 B5 G2
    hand P2: Y1 Y2 Y3 Y4 Y5 Y6
    stone 3: G7 P4 B3 | G5 R5     # P1's cards | P2's cards, in the order played
    stone 5: R1 R2 R3 | B1 B2 B3 | claimed P1
    stone 6: R4 R5 R6 | B4 B5 B6 | first P2    # both complete: P2 completed first
    stone 7: R8 | - | mud blind   # combat modes on the stone (Tactics)
    deck: O9 O8                   # the top of the deck, top card first; or `deck: empty`
    last claim: P2                # who claimed the most recent stone (RULINGS ST1-9)
    tactic deck: spy              # (Tactics) likewise
    discard: traitor G1           # (Tactics) the face-up discard pile, oldest first
    tactics played: 1 0           # (Tactics) tactic cards each player has played (default:
                                  #   those on their side); a Joker on a side counts as
                                  #   that player's one Joker (RULINGS ST1-11)

Stones not listed are empty. Every clan card not written anywhere goes to the bottom of the
deck, shuffled by the seed, and so does every tactic card (Tactics variant). With
`deck: empty` the deck is empty and cards written nowhere are out of the game; proofs still
count them as unseen, as they would cards in a hand. `-` is an empty side. Jokers are
`joker1` and `joker2` when both appear. Anything that needs no decision (drawing from the
only deck, a forced pass) happens at once, as in play.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import (
    AnyCard,
    Card,
    Tactic,
    TacticCard,
    card_code,
    clan_deck,
    shuffled,
)
from engine.errors import InvalidMoveError, PositionError
from engine.position_text import PositionText, player, whole
from engine.position_text import cards as read_cards
from engine.rng import Rng
from engine.st1.board import ELITE, MODES, STONES, Options, Phase, tactic_deck
from engine.st1.game import Game


def parse_position(text: str) -> Game:
    """Build a game from the position format above. Raises PositionError when it is not
    well formed or puts a card in two places."""
    known = {"variant", "seed", "turn", "hand p1", "hand p2", "deck", "tactic deck", "discard"}
    known |= {"tactics played", "last claim"}
    pos = PositionText(text, place="stone", count=STONES, known=known)
    fields, stones, value = pos.fields, pos.places, pos.value

    try:
        options = Options.from_variant(value("variant", "classic"))
    except InvalidMoveError as e:
        raise PositionError(str(e)) from None
    game = Game(options, pos.seed())

    turn_words = value("turn", "P1").split()
    game.turn = player(turn_words[0], fields.get("turn", "turn"))
    game.first_player = game.turn
    try:
        game.phase = Phase(turn_words[1].lower()) if len(turn_words) > 1 else Phase.PLAY
    except ValueError:
        raise PositionError(f"{fields['turn']!r}: the phase is play, claim or draw") from None

    placed: list[AnyCard] = []
    for p, key in enumerate(("hand p1", "hand p2")):
        game.hands[p].extend(read_cards(value(key), fields.get(key, key)))
        placed.extend(game.hands[p])
    for n, line in sorted(stones.items()):
        _parse_stone(game, n, line)
        stone = game.stones[n - 1]
        placed.extend([*stone.sides[0], *stone.sides[1], *stone.modes])
    game.discard = read_cards(value("discard"), fields.get("discard", ""))
    placed.extend(game.discard)
    empty_deck = value("deck").lower() == "empty"
    top = read_cards(value("deck"), pos.line("deck"))  # "empty" reads as no cards
    empty_tactics = value("tactic deck").lower() == "empty"
    tactic_top = read_cards(value("tactic deck"), pos.line("tactic deck"))
    placed.extend(top + tactic_top)

    codes = [card_code(c) for c in placed]
    doubles = sorted({c for c in codes if codes.count(c) > 1})
    if doubles:
        raise PositionError(f"a card is in two places: {' '.join(doubles)}")
    for c in placed:
        if isinstance(c, Card) and not 1 <= c.value <= 9:
            raise PositionError(f"{c} is not a Schotten Totten card; values run 1 to 9")
        if isinstance(c, TacticCard) and not options.tactics:
            raise PositionError(f"{c} is a tactic card; use `variant: tactics`")
    rng = Rng(game.seed)
    rest = shuffled([c for c in clan_deck() if c not in placed], rng)
    # The deck's top card is the end of the list.
    game.deck = ([] if empty_deck else rest) + [c for c in reversed(top) if isinstance(c, Card)]
    if any(not isinstance(c, Card) for c in top):
        raise PositionError("the clan deck holds only clan cards")
    if options.tactics:
        rest_t = shuffled([c for c in tactic_deck() if c not in placed], rng)
        game.tactic_deck = ([] if empty_tactics else rest_t) + [
            c for c in reversed(tactic_top) if isinstance(c, TacticCard)
        ]
    elif tactic_top:
        raise PositionError("a tactic deck needs `variant: tactics`")
    game.rng = rng

    if "tactics played" in fields:
        counts = value("tactics played").split()
        played = [whole(c, digits=3) for c in counts]
        if len(played) != 2 or None in played:
            raise PositionError("`tactics played` takes two numbers, for P1 and P2")
        game.tactics_played = [n for n in played if n is not None]
    else:
        game.tactics_played = [
            sum(1 for s in game.stones for c in s.sides[p] if isinstance(c, TacticCard))
            for p in (0, 1)
        ]
    # RULINGS ST1-11: a Joker on a player's side means that player has played their Joker.
    game.joker_played = [
        any(
            isinstance(c, TacticCard) and c.kind is Tactic.JOKER
            for s in game.stones
            for c in s.sides[p]
        )
        for p in (0, 1)
    ]
    if "last claim" in fields:
        game.last_claimer = player(value("last claim"), fields["last claim"])
    game.clock = 2  # after every completion written in the position
    game._advance([])
    return game


def _parse_stone(game: Game, n: int, line: str) -> None:
    body = line.split(":", 1)[1]
    parts = body.split("|")
    if len(parts) < 2 or len(parts) > 3:
        raise PositionError(f"{line!r}: write `stone {n}: P1's cards | P2's cards [| flags]`")
    stone = game.stones[n - 1]
    flags = parts[2].split() if len(parts) == 3 else []
    modes: list[TacticCard] = []
    first: int | None = None
    i = 0
    while i < len(flags):
        word = flags[i].lower()
        if word in ("claimed", "first"):
            if i + 1 >= len(flags):
                raise PositionError(f"{line!r}: say who, as in `{word} P1`")
            who = player(flags[i + 1], line)
            if word == "claimed":
                stone.claimed_by = who
            else:
                first = who
            i += 2
            continue
        card = read_cards(word, line)[0]
        if not (isinstance(card, TacticCard) and card.kind in MODES):
            raise PositionError(
                f"{line!r}: {flags[i]!r} is not a flag (claimed, first, mud, blind)"
            )
        modes.append(card)
        i += 1
    stone.set_modes(modes)
    for p in (0, 1):
        cards = read_cards(parts[p], line)
        for c in cards:
            if isinstance(c, TacticCard) and c.kind not in ELITE:
                raise PositionError(f"{line!r}: {c} cannot stand on a side of a stone")
        if len(cards) > stone.size:
            raise PositionError(f"{line!r}: a side holds at most {stone.size} cards")
        stone.sides[p].extend(cards)
    complete = [stone.complete(p) for p in (0, 1)]
    if all(complete):
        if first is None and stone.claimed_by is None:
            raise PositionError(
                f"{line!r}: both sides are complete; add `first P1` or `first P2` to say who"
                " completed first"
            )
        first = 0 if first is None else first
        stone.completed_at = [0, 1] if first == 0 else [1, 0]
    else:
        stone.completed_at = [0 if complete[p] else None for p in (0, 1)]
    if stone.claimed_by is not None and not stone.complete(stone.claimed_by):
        raise PositionError(f"{line!r}: a stone can be claimed only with a complete side")


def format_position(game: Game) -> str:
    """The position of a game in the format above; parsing it gives the same table."""
    names = ("P1", "P2")
    lines = [f"variant: {game.options.variant}", f"seed: {game.seed}"]
    phase = "" if game.phase in (Phase.PLAY, Phase.OVER) else f" {game.phase.value}"
    lines.append(f"turn: {names[game.turn]}{phase}")
    for p in (0, 1):
        lines.append(f"hand {names[p]}: {_codes(game.hands[p])}")
    for s in game.stones:
        if not (s.sides[0] or s.sides[1] or s.modes):
            continue
        flags = [card_code(m) for m in s.modes]
        if s.claimed_by is not None:
            flags += ["claimed", names[s.claimed_by]]
        first = s.first_complete()
        if first is not None:
            flags += ["first", names[first]]
        line = f"stone {s.number}: {_codes(s.sides[0])} | {_codes(s.sides[1])}"
        lines.append(line + (f" | {' '.join(flags)}" if flags else ""))
    lines.append(f"deck: {_codes(list(reversed(game.deck))) if game.deck else 'empty'}")
    if game.last_claimer is not None:
        lines.append(f"last claim: {names[game.last_claimer]}")
    if game.options.tactics:
        tactics = _codes(list(reversed(game.tactic_deck))) if game.tactic_deck else "empty"
        lines.append(f"tactic deck: {tactics}")
        lines.append(f"discard: {_codes(game.discard)}")
        lines.append(f"tactics played: {game.tactics_played[0]} {game.tactics_played[1]}")
    return "\n".join(lines) + "\n"


def _codes(cards: Sequence[AnyCard]) -> str:
    return " ".join(card_code(c) for c in cards) or "-"
