"""The quick scores and playouts: the fast side summaries score exactly as `fit` does, and a
playout policy always returns one of the moves it was given."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ai import st1_policy, st2_policy
from engine.cards import clan_deck, siege_deck
from engine.formations import ALL_TYPES, SUM_ONLY
from engine.st1.board import tactic_deck
from engine.st2.board import TILE_RULES
from tests.engine.ai.positions import sample_positions

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


def test_playout_moves_are_legal_in_every_kind_of_position():
    rng = random.Random(3)
    for _variant, game in sample_positions(4):
        moves = game.legal_moves()
        policy = st1_policy if game.kind == "st1" else st2_policy
        assert policy.playout_move(game, moves, rng) in moves
