"""A turn's pictures share their board's compressed rows (render/board.py): the channel's
board and the player's turn picture. What a board shows decides whether it is shared, so a
private move's cards, drawn on its player's board, never reach the spectators' board."""

from __future__ import annotations

import dataclasses

import pytest
from PIL import Image

from engine.st1.position import parse_position
from lang import speaking
from render import DEFAULT_THEME, bands, board, render_board, render_turn
from render.board import board_image
from render.gallery import (
    RECRUITER_POSITION,
    ST1_TACTICS_MIDGAME,
    st1_tactics_midgame,
    st2_siege_midgame,
)
from render.palette import palette
from tests.render.helpers import gallery, image

NAMES = ("Ann", "Bo")


def _fresh(draw):
    """`draw()` with no board kept from before."""
    board.kept.clear()
    return draw()


def _top(turn: bytes, height: int) -> bytes:
    picture = image(turn).convert("RGB")
    return picture.crop((0, 0, picture.width, height)).tobytes()


def test_the_spectators_board_is_the_players_turn_board_drawn_once():
    for game, seat in ((st1_tactics_midgame(), 0), (st2_siege_midgame(), 0)):
        spectators = _fresh(lambda g=game: render_board(g.view(None), names=NAMES))
        assert len(board.kept) == 1
        turn = render_turn(game.view(seat), names=NAMES, name=NAMES[seat])
        assert len(board.kept) == 1  # the same rows, not drawn again
        height = image(spectators).height
        assert _top(turn, height) == image(spectators).convert("RGB").tobytes()
        # The same bytes as when each is drawn afresh.
        again = _fresh(lambda g=game, s=seat: render_turn(g.view(s), names=NAMES, name=NAMES[s]))
        assert turn == again
        # From the other seat's side, it is another board.
        render_turn(game.view(1), names=NAMES, name=NAMES[1])
        assert len(board.kept) == 2


def test_a_private_move_on_the_players_board_never_reaches_the_spectators():
    game = parse_position(RECRUITER_POSITION)
    for move in ("recruiter", "draw clan", "draw tactic", "draw clan", "return R1 R2"):
        game.play(move)
    mine, theirs = game.view(0), game.view(None)
    assert mine.last_move != theirs.last_move  # the player sees which cards went back
    # The player's board first, so that it is kept, then the spectators' from that side.
    turn = _fresh(lambda: render_turn(mine, names=NAMES, name=NAMES[0]))
    spectators = render_board(theirs, names=NAMES, bottom_seat=0)
    assert spectators == _fresh(lambda: render_board(theirs, names=NAMES, bottom_seat=0))
    height = image(spectators).height
    assert _top(turn, height) != image(spectators).convert("RGB").tobytes()


def test_what_only_the_hand_holds_does_not_change_the_board_kept():
    game = st1_tactics_midgame()
    view = game.view(0)
    other = dataclasses.replace(view, hand=view.hand[:2], legal_moves=())
    first = _fresh(lambda: render_board(view, names=NAMES))
    assert render_board(other, names=NAMES) == first
    assert len(board.kept) == 1


def test_boards_in_two_languages_are_two_boards():
    game = st1_tactics_midgame()
    english = _fresh(lambda: render_board(game.view(None), names=NAMES))
    french = render_board(game.view(None), names=NAMES, locale="fr")
    assert english != french and len(board.kept) == 2
    assert english == render_board(game.view(None), names=NAMES, locale="en")


def test_no_more_than_kept_boards_are_kept():
    game = st1_tactics_midgame()
    _fresh(lambda: None)
    for i in range(board.kept.most + 5):
        render_board(game.view(None), names=(f"Ann {i}", "Bo"))
    assert len(board.kept) == board.kept.most


@pytest.mark.parametrize("locale", ["en", "fr", "de"])
def test_a_board_written_in_bands_has_the_pixels_of_the_board_drawn_whole(locale):
    """Every gallery board, from both sides: its rows' bands (kept or drawn) and what is cut
    around them tile the picture exactly."""
    palette_ = palette(DEFAULT_THEME)
    for p in gallery().values():
        sides = [None] if p.view.viewer is None else [p.view.viewer, 1 - p.view.viewer]
        for seat in sides:
            with speaking(locale):
                whole = board_image(p.view, p.names, DEFAULT_THEME, seat)
            expected = whole.quantize(palette=palette_, dither=Image.Dither.NONE)
            for fresh in (True, False):  # rows drawn now, then rows kept
                if fresh:
                    _fresh(lambda: None)
                    bands.kept.clear()
                got = image(render_board(p.view, names=p.names, bottom_seat=seat, locale=locale))
                assert got.size == whole.size, p.name
                assert got.convert("RGB").tobytes() == expected.convert("RGB").tobytes(), p.name


def _kept(kind: str) -> set[object]:
    """The bands kept of one kind ("row", "banner", "sides")."""
    keys = bands.kept.keys()  # a list (Kept is no mapping)
    return {key for key in keys if key[0][0] == kind}  # type: ignore[index]


def test_a_changed_row_is_drawn_again_and_the_others_are_kept():
    game = parse_position(ST1_TACTICS_MIDGAME)
    _fresh(lambda: None)
    bands.kept.clear()
    render_board(game.view(None), names=NAMES)
    rows, banners, sides = _kept("row"), _kept("banner"), _kept("sides")
    assert (len(rows), len(banners), len(sides)) == (9, 2, 1)
    game.play("R7 3")
    after_move = render_board(game.view(None), names=NAMES)
    assert len(_kept("row") - rows) == 1  # the stone played on
    # The mover's banner changed (a card fewer in hand, now to draw); the other's was kept.
    assert len(_kept("banner") - banners) == 1
    assert _kept("sides") == sides
    assert after_move == _fresh(lambda: render_board(game.view(None), names=NAMES))
    # The first position again (as the next move's board often shows a banner seen before):
    # nothing new is drawn.
    game = parse_position(ST1_TACTICS_MIDGAME)
    count = len(bands.kept)
    again = render_board(game.view(None), names=NAMES)
    assert len(bands.kept) == count
    assert again == _fresh(lambda: render_board(game.view(None), names=NAMES))


def test_a_board_or_hand_taller_than_the_first_canvas_is_drawn_again_whole(monkeypatch):
    """Boards and hands are drawn first on a canvas most fit, then on a taller one: the
    second try gives the same picture as a canvas tall enough at once."""
    import render.frame
    import render.hand

    games = [(st1_tactics_midgame(), 0), (st2_siege_midgame(), 1)]
    expected = [
        _fresh(lambda g=g, s=s: render_turn(g.view(s), names=NAMES, name=NAMES[s]))
        for g, s in games
    ]
    monkeypatch.setattr(render.frame, "FIRST_HEIGHT", 300)
    monkeypatch.setattr(render.hand, "FIRST_HEIGHT", 200)
    bands.kept.clear()
    got = [
        _fresh(lambda g=g, s=s: render_turn(g.view(s), names=NAMES, name=NAMES[s]))
        for g, s in games
    ]
    assert got == expected
