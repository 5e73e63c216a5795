"""The quick move scores (the search's ordering): the side summaries worked out once per
decision score exactly as `fit` does."""

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ai import st1_policy, st2_policy
from engine.cards import clan_deck, siege_deck
from engine.formations import ALL_TYPES, SUM_ONLY
from engine.st1.board import tactic_deck
from engine.st2.board import TILE_RULES

ST1_CARDS = [*clan_deck(), *tactic_deck()[:3]]  # clan cards, two Jokers and the Spy


@settings(max_examples=400)
@given(
    st.permutations(ST1_CARDS),
    st.integers(0, 3),
    st.integers(0, 4),
    st.sampled_from([3, 4]),
    st.sampled_from([ALL_TYPES, SUM_ONLY]),
)
def test_st1_side_summary_fits_as_fit(cards, mine, theirs, size, types):
    side, other, rest = cards[:mine], cards[mine : mine + theirs], cards[mine + theirs :]
    summary = st1_policy.Side(side, other, size, types)
    for card in [c for c in rest if c in clan_deck()][:12]:
        assert summary.fit(card) == st1_policy.fit(side, other, card, size, types)


@settings(max_examples=400)
@given(
    st.permutations(siege_deck()),
    st.integers(0, 3),
    st.integers(0, 4),
    st.sampled_from([r for pair in TILE_RULES for r in pair]),
)
def test_st2_side_summary_fits_as_fit(cards, mine, theirs, rules):
    side, other, rest = cards[:mine], cards[mine : mine + theirs], cards[mine + theirs :]
    summary = st2_policy.Side(side, other, rules)
    for card in rest[:12]:
        assert summary.fit(card) == st2_policy.fit(side, other, card, rules)
