"""An analysis's board says which move it is before, marks the move made and the better one,
and shows nobody "to play" (issue 28, item 6); a replay's single frame for stepping."""

from __future__ import annotations

import io
import random

from PIL import Image

from engine.api import MatchSpec, new_match
from render import render_board, text
from render.analysis import BETTER, PLAYED, render_analysis_board
from render.replay import render_replay_frame, replay_frame, replay_frames
from render.theme import DEFAULT_THEME
from render.words import phase_badge
from tests.render.test_phone import too_small

NAMES = ("Alice", "Bob")


def _position(variant: str, moves: int = 20):
    """A midgame position where a card is to be played: the deciding seat's view, that seat,
    a card play and another one."""
    game = new_match(MatchSpec(variant), 5)
    rng = random.Random(2)
    while True:
        seat = game.to_decide if game.to_decide is not None else game.turn
        legal = [str(m) for m in game.legal_moves()]
        plays = [m for m in legal if m[0] in "ROYGBP" and m[1].isdigit()]
        if moves <= 0 and plays:
            return game.view(seat), seat, plays[0], plays[-1]
        game.play(rng.choice(legal), seat)
        moves -= 1


def _draw(fn, **kw):
    with text.recording() as lines:
        data = fn(**kw)
    return Image.open(io.BytesIO(data)).convert("RGB"), [ln.text for ln in lines]


def count_colour(img: Image.Image, colour: str) -> int:
    """Pixels of about `colour` (the PNG's palette moves colours by a few levels)."""
    r, g, b = Image.new("RGB", (1, 1), colour).getpixel((0, 0))
    return sum(
        n
        for n, (x, y, z) in img.getcolors(img.width * img.height)
        if abs(x - r) + abs(y - g) + abs(z - b) <= 12
    )


def test_the_analysis_board_names_its_move_and_nobody_is_to_play():
    view, seat, played, better = _position("tactics")
    badge = phase_badge(view.phase)
    # The same position as a board of the game: the badge is there (so the test can fail).
    _img, plain = _draw(render_board, view=view, names=NAMES, bottom_seat=seat)
    assert badge in plain
    _img, drawn = _draw(
        render_analysis_board,
        view=view,
        names=NAMES,
        bottom_seat=seat,
        number=25,
        total=61,
        played=played,
        better=better,
    )
    assert badge not in drawn
    assert "Move 25 of 61" in drawn
    assert f"{NAMES[seat]} played {played}" in drawn and f"Better: {better}" in drawn
    assert PLAYED in drawn and BETTER in drawn  # the badges beside the lines and on the board


def test_the_analysis_board_marks_both_moves_on_the_board():
    view, seat, played, better = _position("tactics")
    plain, _ = _draw(render_board, view=view, names=NAMES, bottom_seat=seat)
    for colour in (DEFAULT_THEME.mark_played, DEFAULT_THEME.mark_better):
        assert count_colour(plain, colour) == 0
    img, drawn = _draw(
        render_analysis_board,
        view=view,
        names=NAMES,
        bottom_seat=seat,
        number=3,
        total=40,
        played=played,
        better=better,
    )
    # Each mark: its badge in the band and on the card, and a ring round the card.
    for colour in (DEFAULT_THEME.mark_played, DEFAULT_THEME.mark_better):
        assert count_colour(img, colour) > 200
    assert drawn.count(PLAYED) == 2 and drawn.count(BETTER) == 2


def test_a_claim_marks_its_stone_and_a_siege_board_works_too():
    view, seat, played, _better = _position("siege")
    img, drawn = _draw(
        render_analysis_board,
        view=view,
        names=NAMES,
        bottom_seat=seat,
        number=9,
        total=30,
        played=played,
        better="retreat 9",  # not a move here: named, not marked
    )
    assert "Better: retreat 9" in drawn and drawn.count(BETTER) == 1
    assert count_colour(img, DEFAULT_THEME.mark_played) > 400
    assert phase_badge(view.phase) not in drawn


def test_the_analysis_board_reads_on_a_phone_in_french():
    view, seat, played, better = _position("tactics")
    with text.recording() as lines:
        data = render_analysis_board(
            view,
            names=NAMES,
            bottom_seat=seat,
            number=25,
            total=61,
            played=played,
            better=better,
            locale="fr",
        )
    width = Image.open(io.BytesIO(data)).width
    assert too_small(lines, width) == []
    drawn = [ln.text for ln in lines]
    assert "Coup 25 sur 61" in drawn
    assert not any(line.startswith(("Move ", "Better")) for line in drawn)


def test_a_replay_frame_is_the_gifs_frame_and_clamps_at_the_ends():
    start = new_match(MatchSpec("classic"), 11)
    game = new_match(MatchSpec("classic"), 11)
    log = []
    while len(log) < 12:
        seat = game.to_decide if game.to_decide is not None else game.turn
        move = str(game.legal_moves()[0])
        game.play(move, seat)
        log.append((seat, move))
    frames = replay_frames(start, log, NAMES)
    for number in (0, 1, 5, 12):
        frame = replay_frame(start, log, NAMES, number)
        assert (frame.number, frame.words, frame.view) == (
            number,
            frames[number].words,
            frames[number].view,
        )
    assert replay_frame(start, log, NAMES, 99).number == 12
    assert replay_frame(start, log, NAMES, -3).number == 0
    with text.recording() as lines:
        data = render_replay_frame(frames[5], NAMES)
    assert "5/12" in [ln.text for ln in lines]
    assert Image.open(io.BytesIO(data)).format == "PNG"
