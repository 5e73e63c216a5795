"""The hand's DM picture (render_turn): the board from the player's side with their hand
under it, one picture that reads at a phone's 390 px like each picture alone."""

from __future__ import annotations

import pytest
from PIL import Image

from render import DEFAULT_THEME, hand, render_board, render_hand, render_turn, text
from render.palette import palette
from render.turn import GAP
from tests.render.helpers import gallery, image, similar
from tests.render.test_phone import MIN_PX, PHONE_WIDTH

HANDS = [name for name, p in gallery().items() if p.what == "hand"]


@pytest.mark.parametrize("name", HANDS)
def test_the_board_from_the_players_side_then_the_hand(name):
    p = gallery()[name]
    seat = p.view.viewer
    turn = image(render_turn(p.view, names=p.names, name=p.names[seat])).convert("RGB")
    board = image(render_board(p.view, names=p.names, bottom_seat=seat)).convert("RGB")
    alone = image(render_hand(p.view, name=p.names[seat]))
    assert turn.width == board.width
    # The board's rows are the board picture's own, byte for byte.
    assert turn.crop((0, 0, board.width, board.height)).tobytes() == board.tobytes()
    # The hand under it, drawn at the board's width: what hand.render draws that wide, in the
    # same palette, framed with the rest.
    bottom = turn.crop((0, board.height + GAP, turn.width, turn.height))
    wide = hand.render(p.view, p.names[seat], DEFAULT_THEME, board.width)
    mapped = wide.quantize(palette=palette(DEFAULT_THEME), dither=Image.Dither.NONE)
    assert bottom.tobytes() == mapped.convert("RGB").tobytes()
    # About as tall as the hand alone enlarged to that width (the drawing is the same,
    # larger): within 2 %, or a line more of a long name's title.
    enlarged = alone.height * board.width / alone.width
    assert abs(bottom.height - enlarged) <= max(0.02 * enlarged, 14)
    # And like it, once both are brought down to a quarter (where a line shifted by a
    # pixel or two by the rounding of the enlarged sizes no longer counts).
    if "long-names" not in name:  # there a title wraps at a different letter
        ok, why = similar(
            bottom.reduce(4),
            alone.convert("RGB").resize(bottom.size, Image.Resampling.LANCZOS).reduce(4),
            mean=5.0,
            block=40.0,
        )
        assert ok, why


@pytest.mark.parametrize("name", HANDS)
def test_every_line_reads_at_phone_width(name):
    """At 390 px wide, the turn picture's lines, board's and hand's, are at least 9 px tall
    (a card's words are recorded at the card's size alone, smaller than they are drawn)."""
    p = gallery()[name]
    seat = p.view.viewer
    with text.recording() as lines:
        turn = image(render_turn(p.view, names=p.names, name=p.names[seat]))
    with text.recording() as hand_lines:
        render_hand(p.view, name=p.names[seat])
    scale = PHONE_WIDTH / turn.width
    small = [(ln.text, ln.size * scale) for ln in lines if ln.size * scale < MIN_PX]
    assert len(lines) >= 10 + len(hand_lines) and len(hand_lines) >= 3
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
