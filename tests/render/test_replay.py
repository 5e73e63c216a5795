"""The animated GIF replay (render/replay.py): one frame per move, boards as render_board
draws them, true flat colours, nothing hidden shown, longer holds where it matters, and a
size limit kept by shrinking."""

from __future__ import annotations

import copy
import io
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from functools import cache

import pytest
from PIL import Image, ImageColor

from engine.ai import choose_move
from engine.api import MatchSpec, Playable, load_match, new_match
from engine.cards import Card
from render import render_board, st1_board, text
from render.cards import BOARD, card_sprite
from render.frame import FRAME_WIDTH
from render.gallery import LONG_NAMES, NAMES
from render.replay import (
    HOLD_MS,
    MAX_CAPTION_CHARS,
    caption_height,
    caption_words,
    render_replay,
    replay_frames,
    replay_gif,
)
from render.theme import DEFAULT_THEME
from tests.render.helpers import image, similar

MAX_MOVES = 70  # short games keep the file quick


def play_out(match: Playable, level: str = "easy") -> Playable:
    """Computer players on both sides until the match is over."""
    n = 0
    while not match.is_over:
        seat = match.to_decide
        match.play(choose_move(match.view(seat), level, seed=n), seat)
        n += 1
    return match


def _twin_cards(spec: MatchSpec, seed: int) -> dict[str, tuple[int, str, str]] | None:
    """Hidden cards a twin deal can swap without changing the public game: for each deck
    ("deck", "tactic_deck"), a card some hand holds at the end that came from it and was
    never played, and a card of that deck never drawn. None if a deck has no such pair."""
    first = new_match(spec, seed).to_json()["current"]
    last = play_out(new_match(spec, seed)).to_json()["current"]
    swaps = {}
    for deck in ("deck", "tactic_deck"):
        held = [
            (seat, c)
            for seat in (0, 1)
            for c in last["hands"][seat]
            if c in first[deck] or (deck == "deck" and c in first["hands"][seat])
        ]
        # Decks are drawn from the end: the first card of the deal still there at the end
        # was never drawn (one drawn and put back would have come from further up).
        undrawn = [c for c in first[deck] if c in last[deck]]
        if not held or not undrawn:
            return None
        seat, card = held[0]
        swaps[deck] = (seat, card, undrawn[0])
    return swaps


@cache
def finished(variant: str) -> tuple[MatchSpec, int, tuple[tuple[int, str], ...]]:
    """A finished single game of `variant` (the first seed with at most MAX_MOVES moves
    whose hidden cards a twin can swap), as spec, seed and log."""
    spec = MatchSpec(variant)
    for seed in range(60):
        match = play_out(new_match(spec, seed))
        if len(match.log) <= MAX_MOVES and _twin_cards(spec, seed) is not None:
            return spec, seed, tuple(match.log)
    raise AssertionError(f"no short {variant} game found")


@cache
def gif(variant: str) -> bytes:
    spec, seed, log = finished(variant)
    return replay_gif(spec, seed, log, NAMES).data


def frames_of(data: bytes) -> list[tuple[Image.Image, int]]:
    """Each frame of a GIF as shown (RGB), with its duration in ms."""
    out = []
    with Image.open(io.BytesIO(data)) as im:
        for i in range(im.n_frames):
            im.seek(i)
            out.append((im.convert("RGB"), im.info["duration"]))
    return out


def colour_counts(img: Image.Image) -> Counter[tuple[int, int, int]]:
    return Counter({c: n for n, c in img.getcolors(img.width * img.height)})


def board_area(frame: Image.Image, board: Image.Image) -> Image.Image:
    top = caption_height(DEFAULT_THEME)
    return frame.crop((0, top, board.width, top + board.height))


@pytest.mark.parametrize("variant", ["tactics", "siege-tactics"])
def test_one_frame_per_move_and_the_opening(variant):
    spec, seed, log = finished(variant)
    replay = replay_gif(spec, seed, log, NAMES)
    assert replay.frames == len(log) + 1
    with Image.open(io.BytesIO(replay.data)) as im:
        assert im.n_frames == len(log) + 1
        assert im.size == replay.size
        assert im.info["loop"] == 0
    assert replay.scale == 1.0
    assert replay.data == gif(variant)  # deterministic


@pytest.mark.parametrize("variant", ["tactics", "siege-tactics"])
def test_first_and_last_frames_are_the_boards(variant):
    spec, seed, log = finished(variant)
    shown = frames_of(gif(variant))
    opening = new_match(spec, seed)
    end = play_out(new_match(spec, seed))
    assert end.log == list(log)
    for (frame, _), match in ((shown[0], opening), (shown[-1], end)):
        board = image(render_board(match.view(None), names=NAMES)).convert("RGB")
        # Without the bottom edge of its frame: a shorter board's is drawn lower.
        board = board.crop((0, 0, board.width, board.height - FRAME_WIDTH))
        ok, why = similar(board_area(frame, board), board)
        assert ok, why
    # And the frames are not all alike: the opening is not the final board.
    final_board = image(render_board(end.view(None), names=NAMES))
    assert not similar(board_area(shown[0][0], final_board), final_board)[0]


def test_flat_colours_stay_exact():
    """Every theme colour and every card's fill, plain or dimmed, keeps at least as many
    exact pixels in the last frame as the board drawn in full colour has: no dithering, no
    colour moved to a neighbour."""
    spec, seed, _ = finished("tactics")
    view = play_out(new_match(spec, seed)).view(None)
    rgb = st1_board.render(view, NAMES, DEFAULT_THEME, None)
    frame = board_area(frames_of(gif("tactics"))[-1][0], rgb)
    want, got = colour_counts(rgb), colour_counts(frame)
    t = DEFAULT_THEME
    colours = {ImageColor.getrgb(c)[:3] for c in (t.background, t.surface, t.text, *t.seat)}
    colours |= {ImageColor.getrgb(look.fill)[:3] for _, look in t.card_colors}
    # (The slot outline, #47505E, shares Pillow's 4-level colour cell with the frame's
    # #46505F: it is drawn in the frame's colour, as render/replay.py explains.)
    for stone in view.stones:
        for side in stone.sides:
            for card in side:
                if isinstance(card, Card):
                    dimmed = card_sprite(card, BOARD, t, dim=True).convert("RGB")
                    colours |= {c for c, _ in colour_counts(dimmed).most_common(2)}
    checked = [c for c in colours if want[c] >= 200]
    assert len(checked) >= 12
    assert ImageColor.getrgb(t.background)[:3] in checked
    lost = {c: (want[c], got[c]) for c in checked if got[c] < want[c]}
    assert lost == {}


def test_claims_and_the_end_hold_longer():
    spec, seed, log = finished("tactics")
    frames = replay_frames(new_match(spec, seed), log, NAMES)
    durations = [d for _, d in frames_of(gif("tactics"))]
    assert durations == [HOLD_MS[f.hold] for f in frames]
    holds = Counter(f.hold for f in frames)
    assert holds["claim"] >= 1 and holds["draw"] >= 1 and holds["final"] == 1
    assert frames[-1].hold == "final"
    by_hold = {f.hold: d for f, d in zip(frames, durations, strict=True)}
    assert by_hold["draw"] < by_hold["move"] < by_hold["claim"] < by_hold["final"]
    # Three moves: the opening and two moves as before, then the third as the last frame.
    replay = replay_gif(spec, seed, log[:3], NAMES)
    assert replay.duration_ms == sum(HOLD_MS[f.hold] for f in frames[:3]) + HOLD_MS["final"]


def _twin(spec: MatchSpec, seed: int) -> Playable:
    """The same deal with hidden cards swapped: a card held in hand all game (a tactic card
    among them) changes places with one never drawn from its deck."""
    data = new_match(spec, seed).to_json()
    twin = copy.deepcopy(data)
    current = twin["current"]
    for deck, (seat, held, undrawn) in (_twin_cards(spec, seed) or {}).items():
        source = "hands" if held in current["hands"][seat] else deck
        where = current["hands"][seat] if source == "hands" else current[deck]
        i, j = where.index(held), current[deck].index(undrawn)
        where[i], current[deck][j] = undrawn, held
    assert twin != data
    return load_match(twin)


@pytest.mark.parametrize("variant", ["tactics", "siege-tactics"])
def test_hidden_cards_never_change_the_gif(variant):
    spec, seed, log = finished(variant)
    twin = _twin(spec, seed)
    twin_end = load_match(twin.to_json())
    for seat, move in log:  # the same moves are legal in the twin deal
        twin_end.play(move, seat)
    assert twin_end.is_over
    real_end = play_out(new_match(spec, seed))
    hidden = ("hands", "deck", "tactic_deck")
    real, other = real_end.to_json()["current"], twin_end.to_json()["current"]
    assert [real[k] for k in hidden] != [other[k] for k in hidden]
    assert real["hands"] != other["hands"]
    # A tactic card that one hand holds at the end is not in the twin's hands at all.
    swaps = _twin_cards(spec, seed)
    assert swaps is not None
    seat, tactic, _ = swaps["tactic_deck"]
    assert tactic in real["hands"][seat] and tactic not in other["hands"][seat]
    assert render_replay(twin, log, NAMES).data == gif(variant)


def test_the_start_is_not_changed():
    spec, seed, log = finished("tactics")
    start = new_match(spec, seed)
    before = start.to_json()
    frames = replay_frames(start, log, NAMES)
    assert start.to_json() == before
    assert [f.number for f in frames] == list(range(len(log) + 1))
    assert all(f.view.viewer is None and f.view.hand is None for f in frames)


def test_a_round_end_shows_the_finished_round():
    """A match deals the next round within the move that ends one: the frame shows the
    finished board with its result and the score after it, the next frame the new round."""
    spec = MatchSpec("classic", rounds=3)
    end = play_out(new_match(spec, 5))
    frames = replay_frames(new_match(spec, 5), end.log, NAMES)
    ends = [i for i, f in enumerate(frames[:-1]) if f.view.outcome is not None]
    assert ends, "a three-round match has rounds ending before the last move"
    for i in ends:
        done, after = frames[i].view, frames[i + 1].view
        assert frames[i].hold == "claim"
        assert sum(s.claimed_by is not None for s in done.stones) >= 3
        assert done.match is not None and after.match is not None
        assert after.match.round == done.match.round + 1
        assert done.match.scores == after.match.scores  # the points of the round just won
        assert after.outcome is None
    # Replaying to that move, the match itself already shows the next round's deal.
    first = ends[0]
    again = new_match(spec, 5)
    for seat, move in end.log[:first]:
        again.play(move, seat)
    assert again.view(None).outcome is None
    assert again.view(None).match.round == frames[first].view.match.round + 1


def test_the_revenge_match_shows_the_first_siege_ending():
    spec = MatchSpec("siege", revenge=True)
    end = play_out(new_match(spec, 5))
    frames = replay_frames(new_match(spec, 5), end.log, NAMES)
    ends = [f for f in frames[:-1] if f.view.outcome is not None]
    assert len(ends) == 1
    assert ends[0].view.revenge.game == 1 and ends[0].hold == "claim"
    later = frames[frames.index(ends[0]) + 1].view
    assert later.revenge.game == 2 and later.attacker != ends[0].view.attacker


def test_a_small_limit_shrinks_and_an_impossible_one_raises():
    spec, seed, log = finished("tactics")
    short = log[:12]
    full = replay_gif(spec, seed, short, NAMES)
    small = replay_gif(spec, seed, short, NAMES, max_bytes=int(len(full.data) * 0.8))
    assert small.scale < 1.0
    assert len(small.data) <= len(full.data) * 0.8
    assert small.frames == full.frames == len(short) + 1
    assert small.size[0] < full.size[0]
    with Image.open(io.BytesIO(small.data)) as im:
        assert im.size == small.size and im.n_frames == small.frames
    with pytest.raises(ValueError, match="KiB"):
        replay_gif(spec, seed, short, NAMES, max_bytes=2000)


def test_threads_give_the_same_bytes():
    spec, seed, log = finished("siege-tactics")
    short = log[:6]
    alone = replay_gif(spec, seed, short, NAMES).data
    with ThreadPoolExecutor(max_workers=3) as pool:
        results = list(pool.map(lambda _: replay_gif(spec, seed, short, NAMES).data, range(3)))
    assert results == [alone] * 3


def test_captions_are_short_and_readable_on_a_phone():
    spec, seed, log = finished("tactics")
    frames = replay_frames(new_match(spec, seed), log, LONG_NAMES)
    assert frames[5].caption.startswith(f"5/{len(log)} · ")
    assert all(len(f.words) <= MAX_CAPTION_CHARS for f in frames)
    claims = [f for f in frames if f.hold == "claim"]
    assert any("claimed" in f.words for f in claims)
    with text.recording() as lines:
        replay = replay_gif(spec, seed, log[:4], LONG_NAMES)
    smallest = min(line.size for line in lines) * 390 / replay.size[0]
    assert smallest >= 9.0
    assert any(line.text.startswith("4/4") for line in lines)


def test_caption_words_keep_the_most_important_events():
    spec = MatchSpec("classic", rounds=3)
    match = new_match(spec, 5)
    end = play_out(new_match(spec, 5))
    for seat, move in end.log:
        events = match.play(move, seat)
        said = caption_words(events, LONG_NAMES, seat, move)
        assert len(said) <= MAX_CAPTION_CHARS
        kinds = [e.kind for e in events]
        if "MatchEnded" in kinds:
            assert "wins the match" in said
        elif "GameEnded" in kinds:
            assert "wins the game" in said
        elif kinds == ["CardDrawn"]:
            assert said.endswith("drew a clan card.")


@pytest.mark.parametrize("variant", ["tactics", "siege-tactics"])
def test_no_frame_ends_in_an_empty_strip(variant):
    """Boards grow during a game (discards, the result banner) and a GIF's frames share one
    size: a shorter board's frame reaches the bottom of the picture, so no frame ends in a
    strip of bare table below the board (issue 39, item 13)."""
    frame_rgb = ImageColor.getrgb(DEFAULT_THEME.frame)[:3]
    shown = frames_of(gif(variant))
    heights = set()
    for number, (frame, _) in enumerate(shown):
        w, h = frame.size
        bottom = [frame.getpixel((x, h - 1)) for x in range(0, w, 7)]
        assert all(c == frame_rgb for c in bottom), f"frame {number}: no frame at the bottom"
        sides = {frame.getpixel((x, y)) for x in (0, w - 1) for y in range(0, h, 5)}
        assert sides == {frame_rgb}, f"frame {number}: the frame's sides stop short"
        heights.add(h)
    assert len(heights) == 1
