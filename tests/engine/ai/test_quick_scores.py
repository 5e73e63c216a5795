"""The quick move scores (the search's ordering and the heuristics' placing): a side's
summary, worked out once per decision, scores every card as the rule written out plainly
below does."""

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ai import st1_policy, st2_policy
from engine.cards import Card, clan_deck, siege_deck
from engine.formations import ALL_TYPES, SUM_ONLY, FormationType
from engine.st1.board import tactic_deck
from engine.st2.board import TILE_RULES

ST1_CARDS = [*clan_deck(), *tactic_deck()[:3]]  # clan cards, two Jokers and the Spy


def plain_fit(side, other, card, size, types, *, scale, lower_sum=False):
    """The fit rule as it reads: colour runs, then same strength, colour, runs, the rest;
    sums only favour high cards (low ones where the lower sum wins); a card beside a
    complete other side counts less. `scale` is 30 in Schotten Totten, 35 in its sequel."""
    reals = [c for c in side if isinstance(c, Card)]
    v = card.value
    if lower_sum:
        score = 0.2 + (11 - v) / 15
    elif types == frozenset({FormationType.SUM}):
        score = 0.2 + 2 * (v / 30) if scale == 30 else 0.2 + v / 15
    elif not reals:
        score = 0.35 + v / scale
    else:
        values = [c.value for c in reals]
        mono = {c.color for c in reals} == {card.color}
        runs = v not in values and max(*values, v) - min(*values, v) < size
        if runs and mono and FormationType.COLOR_RUN in types:
            score = 1.0
        elif all(x == v for x in values) and FormationType.SAME_STRENGTH in types:
            score = 0.85 + v / scale
        elif mono and FormationType.COLOR in types:
            score = 0.6 + v / scale
        elif runs and FormationType.RUN in types:
            score = 0.5 + v / scale / 2
        else:
            score = 0.1 + v / scale / 2
    if len(side) + 1 >= size and len(other) >= size:
        score -= 0.2
    return score


@settings(max_examples=400)
@given(
    st.permutations(ST1_CARDS),
    st.integers(0, 3),
    st.integers(0, 4),
    st.sampled_from([3, 4]),
    st.sampled_from([ALL_TYPES, SUM_ONLY]),
)
def test_st1_side_summary_fits_as_the_plain_rule(cards, mine, theirs, size, types):
    side, other, rest = cards[:mine], cards[mine : mine + theirs], cards[mine + theirs :]
    summary = st1_policy.Side(side, other, size, types)
    for card in [c for c in rest if c in clan_deck()][:12]:
        expected = plain_fit(side, other, card, size, types, scale=30)
        assert summary.fit(card) == expected
        assert st1_policy.fit(side, other, card, size, types) == expected


@settings(max_examples=400)
@given(
    st.permutations(siege_deck()),
    st.integers(0, 3),
    st.integers(0, 4),
    st.sampled_from([r for pair in TILE_RULES for r in pair]),
)
def test_st2_side_summary_fits_as_the_plain_rule(cards, mine, theirs, rules):
    side, other, rest = cards[:mine], cards[mine : mine + theirs], cards[mine + theirs :]
    summary = st2_policy.Side(side, other, rules)
    for card in rest[:12]:
        expected = plain_fit(
            side, other, card, rules.size, rules.types, scale=35, lower_sum=rules.lower_sum_wins
        )
        assert summary.fit(card) == expected
        assert st2_policy.fit(side, other, card, rules) == expected
