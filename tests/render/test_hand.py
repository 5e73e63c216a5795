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
    # The order of the hand is kept: reading rows left to right, top to bottom.
    spots = [(p.y, p.x) for p in places]
    assert spots == sorted(spots) and len(set(spots)) == len(spots)
    assert [p.y for p in places] == [0, 0, 0, 0, *[places[4].y] * 3] and places[4].y > 0


def test_waiting_player_sees_every_card_level():
    view = parse_position(ST1_TACTICS_MIDGAME).view(1)
    assert view.to_decide == 0
    assert all(p.dy == 0 and not p.dim and not p.raised for p in card_places(view, T))


def test_hand_order_is_stable():
    a = parse_position(ST1_TACTICS_MIDGAME).view(0)
    assert [str(c) for c in a.hand] == ["R7", "O4", "G2", "B5", "P1", "joker", "traitor"]
    assert render_hand(a, name="Ann") == render_hand(a, name="Ann")


def test_hand_wraps_after_four_cards_at_one_width():
    # Phone-sized (issue 13): the width stays, a fifth card starts a second row.
    few = image(render_hand(parse_position("hand P1: R1 R2\nhand P2: B1 B2").view(0)))
    many = image(render_hand(parse_position(ST1_TACTICS_MIDGAME).view(0)))
    assert few.width == many.width
    assert many.height - few.height >= T.hand_card.h
