"""The tables against plain enumeration: the claim question answered the same, with a real
completion, the strongest there is (RULINGS ST1-4, ST2-4)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import bits_of, clan_deck, siege_deck
from engine.enumeration import completions
from engine.formations import SUM_ONLY, FormationRules
from engine.proof import Pool, evaluate
from engine.proof_tables import table
from engine.st2.board import TILE_RULES

ST1_DECK = tuple(clan_deck())
ST2_DECK = tuple(siege_deck())
# Every rule set of both games that the tables answer (two or three cards, higher sums):
# stones, stones under Blind-Man's Bluff, and the wall tiles' sides.
CASES = [
    (FormationRules(3), ST1_DECK),
    (FormationRules(3, SUM_ONLY), ST1_DECK),
    *((r, ST2_DECK) for r in sorted({r for pair in TILE_RULES for r in pair}, key=repr)),
]
CASES = [(r, deck) for r, deck in CASES if table(r, deck) is not None]


@st.composite
def positions(draw):
    """A rule set, the other side (fewer cards than it needs), the unseen cards, and a bar."""
    rules, deck = draw(st.sampled_from(CASES))
    shuffled = draw(st.permutations(deck))
    n = draw(st.integers(0, rules.size - 1))
    side, rest = shuffled[:n], shuffled[n:]
    pool = rest[: draw(st.one_of(st.just(len(rest)), st.integers(0, len(rest))))]
    # A bar from a real formation of the deck, or just under the strongest completion.
    claimant = evaluate(list(shuffled[-rules.size :]), rules).key
    return rules, deck, list(side), list(pool), draw(st.sampled_from([claimant, claimant - 1]))


@settings(max_examples=600, deadline=None)
@given(positions())
def test_table_answers_as_enumeration(position):
    rules, deck, side, pool, beat = position
    keys = [key for key, _, _ in completions(side, pool, rules)]
    found = table(rules, deck).beating(side, Pool(pool).bits, beat)
    assert (found is not None) == (max(keys, default=beat) > beat)
    if found is not None:
        # A real completion from unseen cards, judged as reported, and the strongest one.
        assert len(found.added) == rules.size - len(side)
        assert set(found.added) <= set(pool)
        assert evaluate([*side, *found.added], rules).key == found.formation.key
        assert found.formation.key == max(keys)


def test_tables_exist_for_every_small_rule_set_and_not_for_four_cards():
    assert table(FormationRules(3), tuple(clan_deck())) is not None
    assert table(FormationRules(4), tuple(clan_deck())) is None
    assert table(FormationRules(3, lower_sum_wins=True), tuple(siege_deck())) is None
    assert len(CASES) >= 6  # both games' three- and two-card rule sets


@settings(max_examples=300, deadline=None)
@given(positions(), st.randoms(use_true_random=False))
def test_going_on_after_a_lost_completion_finds_what_a_fresh_walk_finds(position, rng):
    """As cards of the found completion turn up on the table one by one, the walk resumed
    after it answers as a walk from the start (the cards not face-up only get fewer)."""
    rules, deck, side, pool, beat = position
    tab = table(rules, deck)
    mask = bits_of(side)
    unseen = Pool(pool).bits
    j = tab.first_beating(mask, unseen, beat)
    while j >= 0:
        added = [c for c in deck if c.bit & tab.set_bits(mask, j) & ~mask]
        unseen &= ~rng.choice(added).bit  # one of its cards goes face-up
        resumed = tab.first_beating(mask, unseen, beat, start=j + 1)
        assert resumed == tab.first_beating(mask, unseen, beat)
        assert resumed < 0 or resumed > j
        j = resumed
    assert tab.beating(side, unseen, beat) is None
