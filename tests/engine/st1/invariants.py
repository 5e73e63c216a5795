"""Invariants every Schotten Totten state must keep, checked after every move of random games."""

from collections import Counter

from engine.cards import Tactic, TacticCard, card_code, clan_deck
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
        # The Recruiter holds two extra cards until they are returned.
        recruiting = p == g.turn and g.phase.value.startswith("recruit")
        assert len(g.hands[p]) <= size + (2 if recruiting else 0)
    # At the start of a turn, while the deck can refill them, hands are full. (With Tactics a
    # Recruiter played on a nearly empty deck can leave a hand short for good.)
    if g.outcome is None and g.phase.value == "play" and g.deck and not g.options.tactics:
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


def tactic_limits(g: Game) -> None:
    """RULINGS ST1-10 and ST1-11: never two tactic cards ahead; one Joker per side."""
    a, b = g.tactics_played
    assert abs(a - b) <= 1
    out = [c for s in g.stones for side in s.sides for c in side if isinstance(c, TacticCard)]
    out += [m for s in g.stones for m in s.modes]
    out += [c for c in g.discard if isinstance(c, TacticCard)]
    assert len(out) == a + b, "every tactic card out of the decks and hands was played by someone"
    for p in (0, 1):
        jokers = [c for s in g.stones for c in s.sides[p] if _is_joker(c)]
        assert len(jokers) <= 1
        if jokers:
            assert g.joker_played[p]


def _is_joker(card: object) -> bool:
    return isinstance(card, TacticCard) and card.kind is Tactic.JOKER


def check_all(g: Game) -> None:
    every_card_once(g)
    hand_sizes(g)
    sides_within_limits(g)
    tactic_limits(g)
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
