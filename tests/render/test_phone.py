"""Every picture reads on a phone (issue 13): Discord shows a picture about 390 pixels wide
there, and a line of text under 9 pixels tall at that width cannot be read.

Measured, not estimated: `render.text.recording()` records every line drawn, with its font's
size in the picture's own pixels (sprites are drawn larger and shrunk: the recorder is given
the factor), and here each size is scaled by 390 / the picture's width.
"""

from __future__ import annotations

import ast
import dataclasses
import io
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from lang import speaking
from render import st1_board, st2_board, text
from render.gallery import LANGUAGES, Picture, st2_siege_midgame
from render.theme import DEFAULT_THEME, Theme
from tests.render.helpers import gallery

PHONE_WIDTH = 390
MIN_PX = 9.0
RENDER = Path(__file__).parents[2] / "render"
# Discord's chat backgrounds: the dark theme's and the light theme's.
DISCORD_BACKGROUNDS = {"dark": "#313338", "light": "#FFFFFF"}


def measure(picture: Picture, theme: Theme = DEFAULT_THEME) -> tuple[Image.Image, list[text.Drawn]]:
    with text.recording() as lines:
        data = picture.render(theme)
    return Image.open(io.BytesIO(data)), lines


def too_small(lines: list[text.Drawn], width: int) -> list[tuple[str, float]]:
    """The lines under MIN_PX tall once the picture is shown PHONE_WIDTH pixels wide."""
    scale = PHONE_WIDTH / width
    return [(ln.text, round(ln.size * scale, 2)) for ln in lines if ln.size * scale < MIN_PX]


def test_gallery_has_every_picture_kind():
    kinds = set()
    for p in gallery().values():
        v = p.view
        kinds.add((v.game, p.what))
        if v.outcome is not None and p.what == "board":
            kinds.add((v.game, "end"))
    assert kinds >= {(g, k) for g in ("st1", "st2") for k in ("board", "hand", "end")}
    assert kinds <= {(g, k) for g in ("st1", "st2") for k in ("board", "hand", "end", "turn")}
    assert any(len(p.names[1]) == 32 and " " not in p.names[1] for p in gallery().values())


@pytest.mark.parametrize("name", list(gallery()))
def test_every_line_is_readable_at_phone_width(name):
    img, lines = measure(gallery()[name])
    assert len(lines) >= 10  # the recorder saw the picture's words
    assert too_small(lines, img.width) == []


@pytest.mark.parametrize("name", list(gallery()))
@pytest.mark.parametrize("chat", list(DISCORD_BACKGROUNDS))
def test_picture_is_the_same_on_either_discord_theme(name, chat):
    # Opaque: laid over Discord's dark or light chat, not a pixel of the chat shows through,
    # so what the text check measured is what either theme shows.
    img = Image.open(io.BytesIO(gallery()[name].render())).convert("RGBA")
    over = Image.new("RGBA", img.size, DISCORD_BACKGROUNDS[chat])
    over.alpha_composite(img)
    assert ImageChops.difference(over, img).getbbox() is None


def test_the_words_a_player_needs_are_recorded():
    _, st1 = measure(gallery()["st1-tactics-midgame-board"])
    _, st2 = measure(gallery()["st2-tactical-damaged-gate-board"])
    drawn1 = {ln.text for ln in st1}
    drawn2 = {ln.text for ln in st2}
    assert {"Mud Fight", "colour run 18", "Joker", "Spy", "Clan deck: 19 · Tactic deck: 2"} <= (
        drawn1
    )
    assert {"sum only", "DAMAGED", "GATE", "Explosion", "Desertion"} <= drawn2
    assert any("Blind-Man" in t for t in drawn1)
    assert "INTACT" not in drawn2


def test_the_check_flags_a_line_too_small():
    # The same board with the smallest text at 12 px instead of 18: 12 x 390 / 760 = 6.2 px.
    small = dataclasses.replace(DEFAULT_THEME, small_size=12)
    img, lines = measure(gallery()["st2-siege-midgame-board"], small)
    flagged = too_small(lines, img.width)
    assert flagged and all(size < MIN_PX for _, size in flagged)
    assert too_small([text.Drawn("sum 16", 18)], 760) == []
    assert too_small([text.Drawn("sum 16", 18)], 1318) == [("sum 16", 5.33)]


def test_the_recorder_is_off_outside_a_recording():
    with text.recording() as lines:
        pass
    st2_siege_midgame().view(None)
    gallery()["st2-siege-midgame-board"].render()
    assert lines == [] and not text.is_recording()


@pytest.mark.parametrize("path", sorted(RENDER.glob("*.py")), ids=lambda p: p.name)
def test_every_line_is_drawn_through_the_recorder(path):
    # Pillow's d.text anywhere else would draw words the check never sees.
    if path.name == "text.py":
        return
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            assert node.func.attr not in ("text", "multiline_text"), (
                f"{path.name}:{node.lineno} draws text without text.draw"
            )


# Every language of the gallery, English first.
LOCALES = ["en", *LANGUAGES]
# The pictures the bot posts that hold a board: the channel's board and the hand's DM.
WITH_BOARD = [n for n, p in gallery().items() if p.what in ("board", "turn")]


def banner_facts(picture: Picture) -> list[list[str]]:
    """The words of each player's banner facts ("6 in hand · 5 tactics played"), in the
    current language, as the banner joins them."""
    view = picture.view
    board = st2_board if view.game == "st2" else st1_board
    out = []
    for seat in (0, 1):
        facts = board._banner(view, seat, picture.names, DEFAULT_THEME).facts
        out.append("  ·  ".join(facts).split())
    return out


def holds_run(words: list[str], run: list[str]) -> bool:
    return any(words[i : i + len(run)] == run for i in range(len(words) - len(run) + 1))


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("name", WITH_BOARD)
def test_banner_facts_are_never_split_inside_a_word(name, locale):
    # Issue 39: beside four action cards and the oil cauldrons, the Defender's facts were
    # squeezed into a column 35 px wide and broken mid-word ("Ta / kti / kk / art / en"):
    # the facts' words must be drawn whole and in order, lines breaking only between words.
    picture = gallery()[name]
    with speaking(locale):
        facts = banner_facts(picture)
    with text.recording() as lines:
        picture.render(DEFAULT_THEME, locale)
    drawn = [w for ln in lines for w in ln.text.split()]
    for run in facts:
        assert holds_run(drawn, run), f"{' '.join(run)!r} is not drawn whole"


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("name", WITH_BOARD)
def test_a_picture_is_at_most_twice_as_tall_as_wide(name, locale):
    # Issue 39: a phone shows a picture 390 px wide and not much more than 780 px tall: a
    # board and the hand's DM (the board with the hand) must be seen whole, their text still
    # 9 px tall there.
    img, lines = measure_in(gallery()[name], locale)
    assert img.height <= 2 * img.width, f"{img.width} x {img.height}"
    assert too_small(lines, img.width) == []


def measure_in(picture: Picture, locale: str) -> tuple[Image.Image, list[text.Drawn]]:
    with text.recording() as lines:
        data = picture.render(DEFAULT_THEME, locale)
    return Image.open(io.BytesIO(data)), lines
