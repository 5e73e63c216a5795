"""The hand's DM picture (render_turn): the board from the player's side with their hand
under it, compact (render/turn.py), one picture that reads at a phone's 390 px and that a
phone shows whole (at most twice as tall as wide: tests/render/test_phone.py)."""

from __future__ import annotations

import pytest
from PIL import Image

from engine.cards import Card
from render import DEFAULT_THEME, hand, render_board, render_turn, text, turn
from render.palette import palette
from render.turn import GAP
from tests.render.helpers import gallery, image
from tests.render.test_phone import MIN_PX, PHONE_WIDTH

# Every seat's view of the gallery: its hands' and its turns'.
HANDS = [name for name, p in gallery().items() if p.what in ("hand", "turn")]


@pytest.mark.parametrize("name", HANDS)
def test_the_board_from_the_players_side_then_the_hand(name):
    p = gallery()[name]
    seat = p.view.viewer
    picture = image(render_turn(p.view, names=p.names, name=p.names[seat])).convert("RGB")
    board = image(render_board(p.view, names=p.names, bottom_seat=seat)).convert("RGB")
    assert picture.width == board.width
    # The board's rows are the board picture's own, byte for byte.
    assert picture.crop((0, 0, board.width, board.height)).tobytes() == board.tobytes()
    # The hand under it, drawn at the board's width: what hand.render draws that wide, in the
    # same palette, framed with the rest.
    bottom = picture.crop((0, board.height + GAP, picture.width, picture.height))
    wide = hand.render(p.view, p.names[seat], DEFAULT_THEME, board.width)
    mapped = wide.quantize(palette=palette(DEFAULT_THEME), dither=Image.Dither.NONE)
    assert bottom.tobytes() == mapped.convert("RGB").tobytes()
    # Compact (issue 39): a row of cards under the line saying what to do, not the hand
    # picture's two rows of tall cards under a title.
    rows = -(-len(p.view.hand) // turn.PER_ROW)
    assert bottom.height <= 150 + rows * 150, bottom.height


def test_a_hand_stands_in_one_row_the_recruiters_ten_in_two():
    places = [turn.per_row(n) for n in (1, 6, 7, 8, 9, 10)]
    assert places == [1, 6, 7, 4, 5, 5]
    assert turn.card_size(10, 728) == turn.card_size(7, 728)
    assert turn.card_size(7, 728).w * 7 + 6 * turn.CARD_GAP <= 728


@pytest.mark.parametrize("name", HANDS)
def test_every_line_reads_at_phone_width(name):
    """At 390 px wide, the turn picture's lines, board's and hand's, are at least 9 px tall
    (a card's words are recorded at the size they are drawn)."""
    p = gallery()[name]
    seat = p.view.viewer
    with text.recording() as lines:
        picture = image(render_turn(p.view, names=p.names, name=p.names[seat]))
    with text.recording() as board_lines:
        render_board(p.view, names=p.names, bottom_seat=seat)
    scale = PHONE_WIDTH / picture.width
    small = [(ln.text, ln.size * scale) for ln in lines if ln.size * scale < MIN_PX]
    # The board's lines, then at least the line saying what to do and each card's words.
    tactics = sum(1 for c in p.view.hand if not isinstance(c, Card))
    assert len(lines) >= len(board_lines) + 1 + len(p.view.hand)
    assert len(lines) >= len(board_lines) + 1 + tactics
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
