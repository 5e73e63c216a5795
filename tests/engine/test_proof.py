"""The proof against plain enumeration (RULINGS ST1-4, ST1-5: exact, never a guess)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Card, Tactic, clan_deck, siege_deck
from engine.enumeration import completions, enumerate_beating, enumerate_best
from engine.formations import SUM_ONLY, FormationRules, FormationType
from engine.proof import Pool, best_completion, evaluate
from tests.engine.helpers import cards, wild

ST1 = FormationRules(3)
T = FormationType


@st.composite
def st1_claims(draw):
    """A complete side, the opponent's partial side (often empty), and the unseen cards."""
    deck = draw(st.permutations(clan_deck()))
    opp_n = draw(st.sampled_from([0, 0, 1, 1, 2, 2]))
    mine, opp, rest = deck[:3], deck[3 : 3 + opp_n], deck[3 + opp_n :]
    pool_n = draw(st.one_of(st.just(len(rest)), st.integers(0, len(rest))))
    return mine, opp, rest[:pool_n]


def check_against_enumeration(side, pool, rules, beat):
    keys = [key for key, _, _ in completions(side, pool, rules)]
    best = best_completion(side, pool, rules)
    if not keys:
        assert best is None
        assert best_completion(side, pool, rules, beat=beat) is None
        return
    # The strongest completion is found exactly, and it is a real completion.
    assert best is not None
    assert best.formation.key == max(keys)
    assert_valid_completion(side, pool, rules, best)
    # The claim question: a completion strictly above `beat` exists iff one is returned.
    beating = best_completion(side, pool, rules, beat=beat)
    assert (beating is not None) == (max(keys) > beat)
    if beating is not None:
        assert beating.formation.key > beat
        assert_valid_completion(side, pool, rules, beating)


def assert_valid_completion(side, pool, rules, completion):
    added = completion.added
    assert len(added) == rules.size - len(side)
    assert len(set(added)) == len(added)
    assert set(added) <= set(pool)
    # Re-judging the side with the added cards gives the formation reported.
    assert evaluate([*side, *added], rules).key == completion.formation.key


@settings(max_examples=1000)
@given(st1_claims())
def test_st1_claim_proof_equals_enumeration(position):
    mine, opp, pool = position
    my_key = evaluate(mine, ST1).key
    check_against_enumeration(opp, pool, ST1, my_key)
    # The same answer as the plain claim checker the benchmark times.
    fast = best_completion(opp, Pool(pool), ST1, beat=my_key)
    assert (fast is None) == (enumerate_beating(opp, pool, ST1, my_key) is None)


RULE_SETS = [
    FormationRules(3),
    FormationRules(4),
    FormationRules(3, SUM_ONLY),
    FormationRules(4, SUM_ONLY),
    FormationRules(2, frozenset({T.SAME_STRENGTH})),
    FormationRules(3, frozenset({T.COLOR})),
    FormationRules(3, frozenset({T.RUN})),
    FormationRules(2),
    FormationRules(4, lower_sum_wins=True),
    FormationRules(3, lower_sum_wins=True),
]


@st.composite
def general_positions(draw):
    """Either game's cards, any rule set, with wild cards on the side."""
    siege = draw(st.booleans())
    rules = draw(st.sampled_from(RULE_SETS))
    deck = draw(st.permutations(siege_deck() if siege else clan_deck()))
    n_wild = draw(st.integers(0, min(2, rules.size)))
    n_real = draw(st.integers(0, rules.size - n_wild))
    kinds = draw(
        st.lists(st.sampled_from(["joker", "spy", "shield"]), min_size=n_wild, max_size=n_wild)
    )
    side = list(deck[:n_real]) + [wild(k, siege=siege, copy=i + 1) for i, k in enumerate(kinds)]
    side = draw(st.permutations(side))
    missing = rules.size - len(side)
    rest = deck[n_real:]
    # Keep enumeration affordable: fewer unseen cards when many are missing.
    most = {0: 60, 1: 60, 2: 40, 3: 24, 4: 14}[missing]
    pool = rest[: draw(st.integers(0, min(most, len(rest))))]
    beat = draw(st.integers(-45, 450))
    return list(side), pool, rules, beat


@settings(max_examples=600)
@given(general_positions())
def test_proof_with_wild_cards_and_every_rule_set_equals_enumeration(position):
    side, pool, rules, beat = position
    check_against_enumeration(side, pool, rules, beat)


def test_rulebook_style_claim_by_proof():
    # RULINGS ST1-4: the opponent's two cards plus anything unseen cannot beat a 7-8-9 colour run.
    mine = evaluate(cards("R7 R8 R9"), ST1)
    assert best_completion(cards("B1 G5"), Pool(cards("B2 B3 Y9 O9")), ST1, beat=mine.key) is None


def test_equal_is_not_enough_for_the_player_completing_later():
    # RULINGS ST1-4: the claimant completed first, so the opponent must beat them strictly.
    mine = evaluate(cards("R5 R6 R7"), ST1)
    # B5 would tie R5 R6 R7 exactly: not enough.
    assert best_completion(cards("B6 B7"), Pool(cards("B5")), ST1, beat=mine.key) is None
    beaten = best_completion(cards("B6 B7"), Pool(cards("B5 B8")), ST1, beat=mine.key)
    assert beaten is not None
    assert [str(c) for c in beaten.added] == ["B8"]
    assert beaten.formation.describe() == "a colour run B6 B7 B8 (21)"


def test_rejected_claim_returns_the_strongest_completion():
    mine = evaluate(cards("R1 B5 Y9"), ST1)
    found = best_completion(cards("G2"), Pool(cards("G3 G4 P9 O9 P8")), ST1, beat=mine.key)
    assert found is not None
    assert found.formation.type is T.COLOR_RUN
    assert sorted(str(c) for c in found.added) == ["G3", "G4"]


def test_opponent_with_no_card_and_most_of_the_deck_unseen():
    mine = evaluate(cards("G7 G8 G9"), ST1)
    unseen = [c for c in clan_deck() if c not in cards("G7 G8 G9")]
    # The strongest possible formation, and nothing unseen can beat it strictly.
    assert best_completion([], Pool(unseen), ST1, beat=mine.key) is None
    assert enumerate_best([], unseen, ST1) == mine.key  # other 7-8-9 colour runs only tie it


def test_too_few_unseen_cards_cannot_complete_anything():
    assert best_completion(cards("R1"), Pool(cards("B2")), ST1) is None


def test_pool_accepts_any_iterable_and_ignores_order():
    pool_cards = cards("B9 R1 G5")
    a = best_completion([], pool_cards, ST1)
    b = best_completion([], Pool(reversed(pool_cards)), ST1)
    assert a is not None and b is not None
    assert a.formation.key == b.formation.key
    assert Card.parse("R1") in Pool(pool_cards)


@st.composite
def st1_tactics_claims(draw):
    """Tactics positions: combat modes on the stone and Elite Troops on the opponent's side."""
    from engine.cards import TacticCard
    from engine.st1.board import Stone, wild_for

    stone = Stone(5)
    modes = draw(st.sampled_from([[], ["mud"], ["blind"], ["mud", "blind"]]))
    stone.set_modes([TacticCard(Tactic(m)) for m in modes])
    rules = stone.rules
    deck = draw(st.permutations(clan_deck()))
    mine = deck[: rules.size]
    elite = draw(st.lists(st.sampled_from(["joker", "spy", "shield"]), max_size=2, unique=True))
    n_real = draw(st.integers(0, rules.size - 1 - len(elite)))
    opp = list(deck[rules.size : rules.size + n_real]) + [
        wild_for(TacticCard(Tactic(k))) for k in elite
    ]
    rest = deck[rules.size + n_real :]
    missing = rules.size - len(opp)
    most = {1: 45, 2: 30, 3: 16, 4: 10}[missing]
    pool = rest[: draw(st.integers(0, min(most, len(rest))))]
    return mine, draw(st.permutations(opp)), pool, rules


@settings(max_examples=300)
@given(st1_tactics_claims())
def test_st1_tactics_proof_equals_enumeration(position):
    # RULINGS ST1-4 with tactics: unplayed clan cards only; wild cards take best values.
    mine, opp, pool, rules = position
    check_against_enumeration(opp, pool, rules, evaluate(mine, rules).key)


@st.composite
def st2_controls(draw):
    """A wall tile (either side up), the Attacker's complete side, the Defender's partial side
    (possibly with Elite Troops), and the siege cards neither on the wall nor discarded."""
    from engine.cards import TacticCard
    from engine.st2.board import TILE_RULES, wild_for

    rules = draw(st.sampled_from([r for pair in TILE_RULES for r in pair]))
    deck = draw(st.permutations(siege_deck()))
    mine = deck[: rules.size]
    elite = draw(st.lists(st.sampled_from(["joker", "spy", "shield"]), max_size=1))
    n_real = draw(st.integers(0, rules.size - 1 - len(elite)))
    theirs = list(deck[rules.size : rules.size + n_real])
    theirs += [wild_for(TacticCard(Tactic(k))) for k in elite]
    rest = deck[rules.size + n_real :]
    missing = rules.size - len(theirs)
    most = {1: 50, 2: 40, 3: 20, 4: 12}[missing]
    pool = rest[: draw(st.integers(0, min(most, len(rest))))]
    return mine, theirs, pool, rules


@settings(max_examples=400)
@given(st2_controls())
def test_st2_control_proof_equals_enumeration(position):
    # RULINGS ST2-2, ST2-4: types per tile, lower sum wins, colour runs as sums.
    mine, theirs, pool, rules = position
    check_against_enumeration(theirs, pool, rules, evaluate(mine, rules).key)
