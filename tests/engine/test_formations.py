import pytest

from engine.formations import (
    ALL_TYPES,
    SUM_ONLY,
    FormationRules,
    FormationType,
    classify,
)
from engine.proof import evaluate
from tests.engine.helpers import cards, wild

ST1 = FormationRules(3)
T = FormationType


def judge(text: str, rules: FormationRules = ST1):
    return evaluate(cards(text), rules)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("G5 G6 G7", T.COLOR_RUN),
        ("R7 B7 Y7", T.SAME_STRENGTH),
        ("P1 P5 P9", T.COLOR),
        ("R3 B4 Y5", T.RUN),
        ("R1 B5 Y9", T.SUM),
        ("G7 G5 G6", T.COLOR_RUN),  # RULINGS ST1-3: order of play does not matter
        ("B5 R3 Y4", T.RUN),
        ("R8 R9 R1", T.COLOR),  # no wrap-around: 8 9 1 is not a run
    ],
)
def test_types(text, kind):
    assert judge(text).type is kind


def test_ranking_strongest_first():
    # RULINGS ST1-3: colour run, three of a kind, colour, run, sum
    ladder = ["R1 R2 R3", "B1 G1 Y1", "P1 P2 P4", "R7 B8 Y9", "R9 B9 Y8"]
    keys = [judge(t).key for t in ladder]
    assert keys == sorted(keys, reverse=True)
    # Type beats total: a weak colour run beats the strongest three of a kind.
    assert judge("R1 R2 R3").key > judge("R9 B9 Y9").key


def test_same_type_higher_total_wins():
    assert judge("R7 B8 Y9").key > judge("R6 B7 Y8").key
    assert judge("G9 G8 G6").key > judge("P9 P8 P5").key


def test_same_type_and_total_tie():
    assert judge("R7 B8 Y9").key == judge("G9 P8 B7").key


def test_sum_only_rules_ignore_formations():
    # Blind-Man's Bluff (RULINGS ST1-12) and sum-only tiles: totals only.
    rules = FormationRules(3, SUM_ONLY)
    assert judge("R1 R2 R3", rules).type is T.SUM
    assert judge("R9 B8 Y2", rules).key > judge("R5 R6 R7", rules).key


def test_four_card_formations():
    rules = FormationRules(4)
    assert judge("G3 G4 G5 G6", rules).type is T.COLOR_RUN
    assert judge("R4 B4 Y4 G4", rules).type is T.SAME_STRENGTH
    assert judge("R4 B4 Y4 G5", rules).type is T.SUM


def test_lower_sum_wins():
    rules = FormationRules(4, lower_sum_wins=True)
    assert judge("R1 R2 R3 R4", rules).key > judge("B1 B2 B3 B5", rules).key


def test_colour_run_counts_as_sum_on_a_colour_only_tile():
    # RULINGS ST2-2: a colour run is a sum on a colour-only tile, and a colour beats it.
    rules = FormationRules(3, frozenset({T.COLOR}))
    run = judge("G4 G5 G6", rules)
    assert run.type is T.SUM
    assert judge("B1 B2 B4", rules).key > run.key


def test_rules_describe_themselves():
    assert FormationRules(3).describe() == "3 cards, all formations"
    assert FormationRules(4, lower_sum_wins=True).describe() == "4 cards, lower sum wins"
    assert FormationRules(3, SUM_ONLY).describe() == "3 cards, sum only"
    same = FormationRules(2, frozenset({T.SAME_STRENGTH}))
    assert same.describe() == "2 cards, same strength and sum"
    assert FormationRules(3, ALL_TYPES).types == ALL_TYPES


def test_rules_refuse_impossible_sizes():
    with pytest.raises(ValueError):
        FormationRules(5)


def test_wild_cards_take_their_best_value():
    # RULINGS ST1-11: a Joker becomes whatever makes its owner's formation strongest.
    side = [*cards("G8 G9"), wild("joker")]
    f = evaluate(side, ST1)
    assert f.type is T.COLOR_RUN
    assert f.total == 24
    assert str(f.wild_values[wild("joker").card]) == "G7"
    spy = evaluate([*cards("R7 B7"), wild("spy")], ST1)
    assert spy.type is T.SAME_STRENGTH
    shield = evaluate([*cards("Y1 Y2"), wild("shield")], ST1)
    assert (shield.type, shield.total) == (T.COLOR_RUN, 6)


def test_classify_by_values_and_colours():
    from engine.cards import Color

    assert classify([3, 4, 5], [Color.RED] * 3) is T.COLOR_RUN
    assert classify([3, 3, 3], [Color.RED, Color.BLUE, Color.GREEN]) is T.SAME_STRENGTH


def test_describe_for_players():
    assert judge("G5 G6 G7").describe() == "a colour run G5 G6 G7 (18)"
    assert judge("G5 G6 G7").describe(article=False) == "colour run G5 G6 G7 (18)"
    f = evaluate([*cards("G8 G9"), wild("joker")], ST1)
    assert f.describe() == "a colour run G7(Joker) G8 G9 (24)"
