"""Invariants every Schotten Totten state must keep, checked after every move of random games."""

from collections import Counter

from engine.cards import card_code, clan_deck
from engine.st1 import Game
from engine.st1.board import tactic_deck


def every_card_once(g: Game) -> None:
    places: list = [*g.deck, *g.tactic_deck, *g.hands[0], *g.hands[1], *g.discard]
    for s in g.stones:
        places += s.sides[0] + s.sides[1] + s.modes
    counts = Counter(card_code(c) for c in places)
    expected = [card_code(c) for c in clan_deck()]
    if g.options.tactics:
        expected += [card_code(c) for c in tactic_deck()]
    assert sorted(counts.elements()) == sorted(expected), "a card is lost or doubled"


def hand_sizes(g: Game) -> None:
    size = g.options.hand_size
    for p in (0, 1):
        assert len(g.hands[p]) <= size
    # At the start of a turn, while the decks can refill them, hands are full.
    if g.outcome is None and g.phase.value == "play" and g.deck:
        assert len(g.hands[1 - g.turn]) == size


def sides_within_limits(g: Game) -> None:
    for s in g.stones:
        for p in (0, 1):
            assert len(s.sides[p]) <= s.size
            assert (s.completed_at[p] is not None) == s.complete(p)


def claims_match_a_fresh_proof(g: Game) -> None:
    """The game's cached claim answers equal a fresh proof on a freshly built pool."""
    from engine.proof import Pool
    from engine.st1.claims import check_claim

    seen = {card_code(c) for s in g.stones for side in s.sides for c in side}
    seen |= {card_code(c) for c in g.discard}
    pool = Pool(c for c in clan_deck() if card_code(c) not in seen)
    for p in (0, 1):
        fresh = [s.number for s in g.stones if check_claim(s, p, pool).allowed]
        assert g.claimable(p) == fresh


def check_all(g: Game) -> None:
    every_card_once(g)
    hand_sizes(g)
    sides_within_limits(g)
    claims_match_a_fresh_proof(g)


def claimed_stones(g: Game) -> dict[int, tuple]:
    """A snapshot of every claimed stone, to check that nothing changes on them."""
    return {
        s.number: (
            s.claimed_by,
            tuple(map(card_code, s.sides[0])),
            tuple(map(card_code, s.sides[1])),
        )
        for s in g.stones
        if s.claimed_by is not None
    }
