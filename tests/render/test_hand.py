"""The hand: stable order, and playable cards told apart from the others."""

from __future__ import annotations

from engine.cards import parse_card
from engine.st1.position import parse_position
from render import render_hand
from render.gallery import ST1_TACTICS_MIDGAME
from render.hand import card_places
from render.theme import DEFAULT_THEME as T
from tests.render.helpers import image


def test_cards_that_cannot_be_played_are_lowered_and_dimmed():
    # Aurélie has played a Joker: her second one stays in hand (RULINGS ST1-11).
    view = parse_position(ST1_TACTICS_MIDGAME).view(0)
    places = card_places(view, T)
    assert [str(p.card) for p in places] == [str(c) for c in view.hand]
    joker = next(p for p in places if p.card == parse_card("joker2"))
    assert joker.dim and not joker.raised and joker.dy > 0
    others = [p for p in places if p is not joker]
    assert all(p.raised and not p.dim and p.dy < 0 for p in others)
    xs = [p.x for p in places]
    assert xs == sorted(xs) and len(set(xs)) == len(xs)


def test_waiting_player_sees_every_card_level():
    view = parse_position(ST1_TACTICS_MIDGAME).view(1)
    assert view.to_decide == 0
    assert all(p.dy == 0 and not p.dim and not p.raised for p in card_places(view, T))


def test_hand_order_is_stable():
    a = parse_position(ST1_TACTICS_MIDGAME).view(0)
    assert [str(c) for c in a.hand] == ["R7", "O4", "G2", "B5", "P1", "joker", "traitor"]
    assert render_hand(a, name="Ann") == render_hand(a, name="Ann")


def test_hand_width_follows_the_number_of_cards():
    few = parse_position("hand P1: R1 R2\nhand P2: B1 B2").view(0)
    many = parse_position(ST1_TACTICS_MIDGAME).view(0)
    assert image(render_hand(few)).width < image(render_hand(many)).width
