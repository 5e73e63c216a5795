"""A Schotten Totten 2 position written by hand, for tests and for explaining a ruling.

    variant: siege                # siege | siege-tactics
    seed: 7                       # shuffles the cards not placed anywhere (default 0)
    attacker: P1                  # which player attacks (default P1)
    turn: P1                      # who is to move, and optionally the phase:
                                  #   prepare (default) | play | after-play | draw
    hand P1: R7 B5 G2
    hand P2: Y1 Y2 Y3
    tile 4: R10 R11 | B10 | first P1      # P1's cards | P2's cards, first played first
    tile 5: - | Y5 Y0 | damaged           # damaged: the tile shows its damaged side
    deck: P9 P8                   # the top of the deck, top card first; or `deck: empty`
    tactic deck: spy              # (Tactical) likewise
    discard: G0 B0                # the face-up discard pile
    cauldrons: 2                  # oil cauldrons left (default 3)
    actions P1: desert            # (Tactical) action cards each player has played
    tactics played: 1 0           # (Tactical) default: elite cards on their side + actions

Sides are written for P1 | P2 whatever the roles. Tiles not listed are empty and intact.
Cards written nowhere go to the bottom of the deck, shuffled by the seed (with
`deck: empty` they are out of the game, but proofs still count them as unseen). Anything
that needs no decision happens at once, as in play.
"""

from __future__ import annotations

from engine.cards import AnyCard, Card, TacticCard, card_code, shuffled, siege_deck
from engine.errors import InvalidMoveError, PositionError
from engine.position_text import PositionText, player, whole
from engine.position_text import cards as read_cards
from engine.rng import Rng
from engine.st2.board import ACTIONS, CAULDRONS, ELITE, TILES, Options, Phase, tactic_deck
from engine.st2.game import Game

_KNOWN = {
    "variant",
    "seed",
    "attacker",
    "turn",
    "hand p1",
    "hand p2",
    "deck",
    "tactic deck",
    "discard",
    "cauldrons",
    "actions p1",
    "actions p2",
    "tactics played",
}


def parse_position(text: str) -> Game:
    """Build a game from the format above; PositionError says what is wrong."""
    pos = PositionText(text, place="tile", count=TILES, known=_KNOWN)
    fields, tiles, value = pos.fields, pos.places, pos.value

    try:
        options = Options.from_variant(value("variant", "siege"))
    except InvalidMoveError as e:
        raise PositionError(str(e)) from None
    game = Game(options, pos.seed())
    game.attacker = player(value("attacker", "P1"), fields.get("attacker", "attacker"))
    turn = value("turn", "P1").split()
    game.turn = player(turn[0], fields.get("turn", "turn"))
    try:
        game.phase = Phase(turn[1].lower()) if len(turn) > 1 else Phase.PREPARE
    except ValueError:
        raise PositionError("the phase is prepare, play, after-play or draw") from None

    placed: list[AnyCard] = []
    for p, key in enumerate(("hand p1", "hand p2")):
        game.hands[p].extend(read_cards(value(key), fields.get(key, key)))
    placed += game.hands[0] + game.hands[1]
    for n, line in sorted(tiles.items()):
        _parse_tile(game, n, line)
        placed += game.tiles[n - 1].sides[0] + game.tiles[n - 1].sides[1]
    game.discard = read_cards(value("discard"), fields.get("discard", ""))
    placed += game.discard
    for p, key in enumerate(("actions p1", "actions p2")):
        acts = read_cards(value(key), fields.get(key, key))
        if any(not (isinstance(c, TacticCard) and c.kind in ACTIONS) for c in acts):
            raise PositionError(f"{fields[key]!r}: only action cards are kept beside a player")
        # Only action TacticCards here (checked just above).
        game.actions[p].extend(acts)  # type: ignore[arg-type]
        placed += acts
    deck_text, tactic_text = value("deck"), value("tactic deck")
    top = read_cards(deck_text, fields.get("deck", ""))
    tactic_top = read_cards(tactic_text, fields.get("tactic deck", ""))
    placed += top + tactic_top

    codes = [card_code(c) for c in placed]
    doubles = sorted({c for c in codes if codes.count(c) > 1})
    if doubles:
        raise PositionError(f"a card is in two places: {' '.join(doubles)}")
    for c in placed:
        if isinstance(c, Card) and (c.value > 11 or c.color.letter == "O"):
            raise PositionError(f"{c} is not a siege card (R, Y, G, B, P from 0 to 11)")
        if isinstance(c, TacticCard) and not options.tactics:
            raise PositionError(f"{c} is a tactic card; use `variant: siege-tactics`")
    if any(not isinstance(c, Card) for c in top):
        raise PositionError("the siege deck holds only siege cards")
    rng = Rng(game.seed)
    rest = shuffled([c for c in siege_deck() if c not in placed], rng)
    # Only siege Cards here (`top` checked above; `rest` from the siege deck).
    game.deck = ([] if deck_text == "empty" else rest) + [c for c in reversed(top)]  # type: ignore[misc]
    if options.tactics:
        rest_t = shuffled([c for c in tactic_deck() if c not in placed], rng)
        game.tactic_deck = ([] if tactic_text == "empty" else rest_t) + [
            c for c in reversed(tactic_top) if isinstance(c, TacticCard)
        ]
    game.rng = rng

    cauldrons = whole(value("cauldrons", str(CAULDRONS)), digits=3)
    if cauldrons is None or cauldrons > CAULDRONS:
        raise PositionError("cauldrons: a number from 0 to 3")
    game.cauldrons = cauldrons
    if "tactics played" in fields:
        counts = value("tactics played").split()
        played = [whole(c, digits=3) for c in counts]
        if len(played) != 2 or None in played:
            raise PositionError("`tactics played` takes two numbers, for P1 and P2")
        game.tactics_played = [n for n in played if n is not None]
    else:
        game.tactics_played = [
            len(game.actions[p])
            + sum(1 for t in game.tiles for c in t.sides[p] if isinstance(c, TacticCard))
            for p in (0, 1)
        ]
    game.clock = 2
    game._advance([])
    return game


def _parse_tile(game: Game, n: int, line: str) -> None:
    parts = line.split(":", 1)[1].split("|")
    if not 2 <= len(parts) <= 3:
        raise PositionError(f"{line!r}: write `tile {n}: P1's cards | P2's cards [| flags]`")
    tile = game.tiles[n - 1]
    flags = parts[2].split() if len(parts) == 3 else []
    first = None
    i = 0
    while i < len(flags):
        word = flags[i].lower()
        if word == "damaged":
            tile.damaged = True
            i += 1
        elif word == "first" and i + 1 < len(flags):
            first = player(flags[i + 1], line)
            i += 2
        else:
            raise PositionError(f"{line!r}: {flags[i]!r} is not a flag (damaged, first P1)")
    for p in (0, 1):
        cards = read_cards(parts[p], line)
        for c in cards:
            if isinstance(c, TacticCard) and c.kind not in ELITE:
                raise PositionError(f"{line!r}: {c} cannot stand on the wall")
        if len(cards) > tile.size:
            raise PositionError(f"{line!r}: this side of tile {n} holds at most {tile.size} cards")
        tile.sides[p].extend(cards)
    complete = [tile.complete(p) for p in (0, 1)]
    if all(complete):
        if first is None:
            raise PositionError(
                f"{line!r}: both sides are complete; add `first P1` or `first P2` to say who"
                " completed first"
            )
        tile.completed_at = [0, 1] if first == 0 else [1, 0]
    else:
        tile.completed_at = [0 if complete[p] else None for p in (0, 1)]


def format_position(game: Game) -> str:
    """The position in the format above; parsing it gives the same table."""
    names = ("P1", "P2")

    def codes(cards: list[AnyCard] | list[Card] | list[TacticCard]) -> str:
        return " ".join(card_code(c) for c in cards) or "-"

    phase = "" if game.phase in (Phase.PREPARE, Phase.OVER) else f" {game.phase.value}"
    lines = [
        f"variant: {game.options.variant}",
        f"seed: {game.seed}",
        f"attacker: {names[game.attacker]}",
        f"turn: {names[game.turn]}{phase}",
        f"hand P1: {codes(game.hands[0])}",
        f"hand P2: {codes(game.hands[1])}",
    ]
    for t in game.tiles:
        flags = ["damaged"] if t.damaged else []
        first = t.first_complete()
        if first is not None:
            flags += ["first", names[first]]
        if t.sides[0] or t.sides[1] or flags:
            line = f"tile {t.number}: {codes(t.sides[0])} | {codes(t.sides[1])}"
            lines.append(line + (f" | {' '.join(flags)}" if flags else ""))
    lines.append(f"deck: {codes(list(reversed(game.deck))) if game.deck else 'empty'}")
    lines.append(f"discard: {codes(game.discard)}")
    lines.append(f"cauldrons: {game.cauldrons}")
    if game.options.tactics:
        tactics = codes(list(reversed(game.tactic_deck))) if game.tactic_deck else "empty"
        lines.append(f"tactic deck: {tactics}")
        for p in (0, 1):
            if game.actions[p]:
                lines.append(f"actions {names[p]}: {codes(game.actions[p])}")
        lines.append(f"tactics played: {game.tactics_played[0]} {game.tactics_played[1]}")
    return "\n".join(lines) + "\n"
