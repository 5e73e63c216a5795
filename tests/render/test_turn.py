"""The hand's DM picture (render_turn): the board from the player's side with their hand
under it, one picture that reads at a phone's 390 px like each picture alone."""

from __future__ import annotations

import pytest
from PIL import Image

from render import render_board, render_hand, render_turn, text
from render.turn import GAP
from tests.render.helpers import gallery, image, similar
from tests.render.test_phone import MIN_PX, PHONE_WIDTH

HANDS = [name for name, p in gallery().items() if p.what == "hand"]


@pytest.mark.parametrize("name", HANDS)
def test_the_board_from_the_players_side_then_the_hand(name):
    p = gallery()[name]
    seat = p.view.viewer
    turn = image(render_turn(p.view, names=p.names, name=p.names[seat]))
    board = image(render_board(p.view, names=p.names, bottom_seat=seat))
    hand = image(render_hand(p.view, name=p.names[seat]))
    assert turn.width == board.width
    top = turn.crop((0, 0, board.width, board.height))
    ok, why = similar(top, board)
    assert ok, why
    # The hand under it, enlarged to the board's width.
    scale = board.width / hand.width
    bottom = turn.crop((0, board.height + GAP, turn.width, turn.height))
    assert abs(bottom.height - hand.height * scale) <= 1
    ok, why = similar(bottom, hand.convert("RGB").resize(bottom.size, Image.Resampling.LANCZOS))
    assert ok, why


@pytest.mark.parametrize("name", HANDS)
def test_every_line_reads_at_phone_width(name):
    """At 390 px wide, the board's lines and the hand's (enlarged) are at least 9 px tall."""
    p = gallery()[name]
    seat = p.view.viewer
    with text.recording() as lines:
        board = image(render_board(p.view, names=p.names, bottom_seat=seat))
    with text.recording() as hand_lines:
        hand = image(render_hand(p.view, name=p.names[seat]))
    width = image(render_turn(p.view, names=p.names, name=p.names[seat])).width
    board_scale = PHONE_WIDTH / width
    hand_scale = board_scale * board.width / hand.width
    small = [(ln.text, ln.size * board_scale) for ln in lines if ln.size * board_scale < MIN_PX]
    small += [(ln.text, ln.size * hand_scale) for ln in hand_lines if ln.size * hand_scale < MIN_PX]
    assert len(lines) >= 10 and len(hand_lines) >= 3
    assert small == []


def test_the_same_view_gives_the_same_picture_and_a_spectator_none():
    p = gallery()[HANDS[0]]
    seat = p.view.viewer
    first = render_turn(p.view, names=p.names, name=p.names[seat], locale="fr")
    assert first == render_turn(p.view, names=p.names, name=p.names[seat], locale="fr")
    assert first != render_turn(p.view, names=p.names, name=p.names[seat])
    spectator = next(q for q in gallery().values() if q.what == "board")
    with pytest.raises(ValueError, match="player's view"):
        render_turn(spectator.view, names=spectator.names)
