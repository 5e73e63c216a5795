"""Invariants every Schotten Totten 2 state must keep, checked after every move."""

from collections import Counter

from engine.cards import TacticCard, card_code, siege_deck
from engine.st2 import Game
from engine.st2.board import CAULDRONS, tactic_deck


def every_card_once(g: Game) -> None:
    places: list = [*g.deck, *g.tactic_deck, *g.hands[0], *g.hands[1], *g.discard]
    places += g.actions[0] + g.actions[1]
    for t in g.tiles:
        places += t.sides[0] + t.sides[1]
    expected = [card_code(c) for c in siege_deck()]
    if g.options.tactics:
        expected += [card_code(c) for c in tactic_deck()]
    assert sorted(Counter(card_code(c) for c in places).elements()) == sorted(expected)


def limits(g: Game) -> None:
    for t in g.tiles:
        for p in (0, 1):
            assert len(t.sides[p]) <= t.size, f"tile {t.number} over its limit"
            assert (t.completed_at[p] is not None) == t.complete(p)
    assert 0 <= g.cauldrons <= CAULDRONS
    size = g.options.hand_size
    assert all(len(h) <= size for h in g.hands)
    a, b = g.tactics_played
    assert abs(a - b) <= 1
    played = len(g.actions[0]) + len(g.actions[1])
    played += sum(1 for t in g.tiles for s in t.sides for c in s if isinstance(c, TacticCard))
    played += sum(1 for c in g.discard if isinstance(c, TacticCard))
    # Support can shuffle a discarded Elite card back into the tactic deck, so "at most".
    assert played <= a + b


def controls_match_a_fresh_proof(g: Game) -> None:
    """The game's kept answers about control (RULINGS ST2-4) equal a fresh proof on a freshly
    built pool: Support puts discarded cards back into the deck, so the pool can grow."""
    from engine.claims import check_place
    from engine.proof import Pool

    seen = {card_code(c) for t in g.tiles for side in t.sides for c in side}
    seen |= {card_code(c) for c in g.discard}
    pool = Pool(c for c in siege_deck() if card_code(c) not in seen)
    fresh = [t.number for t in g.tiles if check_place(t, g.attacker, pool).allowed]
    assert g.controllable() == fresh


def check_all(g: Game) -> None:
    every_card_once(g)
    limits(g)
    controls_match_a_fresh_proof(g)
