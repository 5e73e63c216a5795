from collections import Counter

import pytest

from engine.cards import (
    Card,
    Color,
    Tactic,
    TacticCard,
    card_code,
    card_from_code,
    clan_deck,
    parse_card,
    shuffled,
    siege_deck,
    sort_cards,
)
from engine.errors import InvalidMoveError
from engine.rng import Rng


@pytest.mark.parametrize("text", ["R7", "r7", "R 7", "red 7", "Red7", " RED 7 ", "r-7"])
def test_forgiving_parsing_of_clan_cards(text):
    # RULINGS "Card notation": r7, R 7, red 7, Red7 all mean R7
    assert parse_card(text) == Card(Color.RED, 7)


def test_canonical_printing_and_repr_round_trip():
    card = Card.parse("purple 9")
    assert str(card) == "P9"
    assert eval(repr(card)) == card
    assert str(parse_card("o1")) == "O1"


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("joker", Tactic.JOKER),
        ("Shield-Bearer", Tactic.SHIELD),
        ("blind man's bluff", Tactic.BLIND),
        ("Mud Fight", Tactic.MUD),
        ("TRAITOR", Tactic.TRAITOR),
        ("recruitment", Tactic.RECRUIT),
        ("recruiter", Tactic.RECRUITER),
    ],
)
def test_tactic_names(text, kind):
    assert parse_card(text).kind is kind


def test_joker_copies_are_told_apart_in_codes_but_print_alike():
    j1, j2 = parse_card("joker1"), parse_card("Joker 2")
    assert j1 != j2
    assert str(j1) == str(j2) == "joker"
    assert (card_code(j1), card_code(j2)) == ("joker1", "joker2")
    assert card_from_code("joker2") == j2
    with pytest.raises(InvalidMoveError):
        parse_card("spy2")


@pytest.mark.parametrize("text", ["", "X7", "R", "seven", "R 7 3"])
def test_unreadable_cards_raise_with_a_hint(text):
    with pytest.raises(InvalidMoveError, match="not a card"):
        parse_card(text)


def test_clan_deck_has_54_distinct_cards_in_six_colours():
    deck = clan_deck()
    assert len(deck) == len(set(deck)) == 54
    assert Counter(c.color for c in deck) == dict.fromkeys(Color, 9)
    assert {c.value for c in deck} == set(range(1, 10))


def test_siege_deck_has_60_cards_in_five_colours_from_0_to_11():
    deck = siege_deck()
    assert len(set(deck)) == 60
    assert Color.ORANGE not in {c.color for c in deck}
    assert {c.value for c in deck} == set(range(12))


def test_shuffles_are_deterministic_from_a_seed():
    a = shuffled(clan_deck(), Rng(42))
    b = shuffled(clan_deck(), Rng(42))
    c = shuffled(clan_deck(), Rng(43))
    assert a == b
    assert a != c
    assert sorted(a, key=Card.sort_key) == sorted(clan_deck(), key=Card.sort_key)


def test_sort_order_puts_tactics_after_clan_cards():
    cards = [parse_card(t) for t in ["spy", "B3", "R9", "joker2", "R1", "joker1"]]
    assert [card_code(c) for c in sort_cards(cards)] == [
        "R1",
        "R9",
        "B3",
        "joker1",
        "joker2",
        "spy",
    ]


def test_cards_hash_by_value_not_identity():
    assert len({Card(Color.RED, 7), parse_card("R7"), parse_card("red 7")}) == 1
    assert TacticCard(Tactic.SPY) == parse_card("spy")
