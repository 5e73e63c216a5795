"""An analysis's board says which move it is before, marks the move made and the better one,
and shows nobody "to play" (issue 28, item 6); a replay's single frame for stepping."""

from __future__ import annotations

import io
import math
import random

import pytest
from PIL import Image

from engine.api import MatchSpec, new_match
from engine.cards import parse_card
from lang import speaking
from render import render_board, text
from render.analysis import BETTER, PLAYED, render_analysis_board
from render.cards import BOARD, card_sprite
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


# ---- a move and its better alternative on the same side of one stone (issue 39) ----------


def _same_stone(tactic: str):
    """A tactics position where the deciding seat could play `tactic` or a clan card on a
    stone holding one of its cards (of three places): the view, the seat, the clan card
    move (played), the tactic move (better) and the stone."""
    for seed in range(200):
        game = new_match(MatchSpec("tactics"), seed)
        rng = random.Random(seed)
        for _ in range(60):
            if game.is_over:
                break
            seat = game.to_decide if game.to_decide is not None else game.turn
            legal = [str(m) for m in game.legal_moves()]
            view = game.view(seat)
            for move in legal:
                if not move.startswith(tactic + " "):
                    continue
                number = int(move.split()[-1])
                stone = view.stones[number - 1]
                plain = [m for m in legal if m[0] in "ROYGBP" and m.endswith(f" {number}")]
                if len(stone.sides[seat]) == 1 and stone.size == 3 and plain:
                    return view, seat, plain[0], move, number
            game.play(rng.choice(legal), seat)
    raise AssertionError(f"no position to play {tactic} found")


def _ring_box(img: Image.Image, colour: str) -> tuple[int, int, int, int]:
    """The card box a mark's ring is drawn around, found below the band (whose badges share
    the colour): the ring's bottom edge (rings stand 4 pixels off the card; its badge is at
    the top) is centred under the card, 3 pixels below it."""
    top = 250
    r, g, b = Image.new("RGB", (1, 1), colour).getpixel((0, 0))
    px = img.load()
    hits = [
        (x, y)
        for y in range(top, img.height)
        for x in range(img.width)
        if abs(px[x, y][0] - r) + abs(px[x, y][1] - g) + abs(px[x, y][2] - b) <= 12
    ]
    bottom = max(y for _x, y in hits)
    edge = [x for x, y in hits if y == bottom]
    card = DEFAULT_THEME.board_card
    assert max(edge) - min(edge) < card.w, "one ring of this colour, around one card"
    x0 = round((min(edge) + max(edge)) / 2 - card.w / 2 + 0.5)
    y0 = bottom - 3 - card.h
    return x0, y0, x0 + card.w, y0 + card.h


def _labels(card: str, locale: str) -> list[tuple[float, float, float, float]]:
    """The ink boxes of the words on `card`'s board sprite, in the sprite's pixels."""
    with speaking(locale), text.recording() as lines:
        card_sprite(parse_card(card), BOARD, DEFAULT_THEME, game="st1")
    return [ln.ink for ln in lines if ln.ink is not None and ln.text.strip()]


@pytest.mark.parametrize("locale", ["en", "fr", "de"])
@pytest.mark.parametrize("tactic", ["shield", "spy", "joker"])
def test_no_mark_covers_a_cards_label(tactic, locale):
    """The German review: the ✓ badge covered "Schil(d)". Neither badge may cover any word
    of the card it marks, in every language (the longest names: Schild, Porte-bouclier...)."""
    view, seat, played, better, _number = _same_stone(tactic)
    data = render_analysis_board(
        view,
        names=NAMES,
        bottom_seat=seat,
        number=25,
        total=61,
        played=played,
        better=better,
        locale=locale,
    )
    img = Image.open(io.BytesIO(data)).convert("RGB")
    for colour, card in (
        (DEFAULT_THEME.mark_played, played.split()[0]),
        (DEFAULT_THEME.mark_better, tactic),
    ):
        x0, y0, _x1, _y1 = _ring_box(img, colour)
        for a, b, c, d in _labels(card, locale):
            label = img.crop(
                (x0 + math.floor(a), y0 + math.floor(b), x0 + math.ceil(c), y0 + math.ceil(d))
            )
            assert count_colour(label, colour) == 0, f"the {colour} badge covers {card}'s label"


def test_a_move_and_its_better_alternative_share_one_slot():
    """Issue 39: the ✗ and ✓ cards took two of the stone's three places, beside its one
    card, which read as three cards on the stone. They share one place: the stone still
    shows its last free place as an empty outline, beyond the pair."""
    view, seat, played, better, _number = _same_stone("shield")
    data = render_analysis_board(
        view, names=NAMES, bottom_seat=seat, number=25, total=61, played=played, better=better
    )
    img = Image.open(io.BytesIO(data)).convert("RGB")
    first = _ring_box(img, DEFAULT_THEME.mark_played)
    second = _ring_box(img, DEFAULT_THEME.mark_better)
    card, gap = DEFAULT_THEME.board_card, DEFAULT_THEME.gap
    step = second[0] - first[0]
    assert abs(step) == card.w + gap  # side by side, the played card nearer the stone
    assert (first[0] < img.width / 2) == (step < 0)
    # Beyond the pair, the stone's third place: an empty slot's outline.
    x0 = second[0] + step
    outline = img.crop((x0, second[1], x0 + card.w, second[3]))
    assert count_colour(outline, DEFAULT_THEME.slot) >= 2 * card.h
    # The pair stands on one outlined panel of its own, beyond its outer card's ring.
    outer = (second[0] - 8, second[0] - 4) if step < 0 else (second[2] + 4, second[2] + 8)
    edge = img.crop((outer[0], second[1] + 10, outer[1], second[3] - 10))
    assert count_colour(edge, DEFAULT_THEME.text_muted) >= second[3] - second[1] - 20
