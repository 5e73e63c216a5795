"""Names from Discord: drawable, and never wider than their place."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw, ImageFont

from render import text
from render.theme import DEFAULT_THEME as T


def test_accents_and_other_scripts_are_kept():
    assert text.printable("Zoë Ødegård", T.font_bold) == "Zoë Ødegård"
    assert text.printable("Женя", T.font_bold) == "Женя"


def test_letters_the_font_lacks_become_question_marks_and_emoji_go():
    assert text.printable("李 Ann", T.font_bold) == "? Ann"
    assert text.printable("Ann 🐉🏽 Bo", T.font_bold) == "Ann Bo"
    assert text.printable("A\u200db\x07\ue000", T.font_bold) == "Ab"  # joiners, controls go
    assert text.printable("Zoe\u0308", T.font_bold) == "Zoë"  # a decomposed accent


def test_fit_shortens_with_an_ellipsis():
    f = text.bold(T, 20)
    long = "Bartholomew the Magnificent of Greater Schottenland"
    short = text.fit(long, f, 200)
    assert short.endswith("…") and f.getlength(short) <= 200
    assert text.fit("Ann", f, 200) == "Ann"


def test_wrap_keeps_non_breaking_spaces_together():
    f = text.regular(T, 14)
    lines = text.wrap("any colour, 1\u00a0to\u00a09", f, 90, 3)
    assert any("1\u00a0to\u00a09" in line for line in lines)


def test_fonts_are_private_to_each_thread():
    import threading

    seen = []
    t = threading.Thread(target=lambda: seen.append(text.bold(T, 20)))
    t.start()
    t.join()
    assert seen[0] is not text.bold(T, 20)
    assert text.bold(T, 20) is text.bold(T, 20)


@pytest.mark.parametrize("budget", [None, 1])
def test_a_kept_mask_draws_the_same_pixels_as_a_fresh_one(budget, monkeypatch):
    """Fonts keep the masks of the lines they rasterised (issue 32): a line drawn again,
    at the same or another (fractional) position, in another colour or anchor, comes out
    exactly as a font that keeps nothing draws it."""
    if budget is not None:  # every mask over the budget: kept masks are dropped at once
        monkeypatch.setattr(text, "MASK_BYTES", budget)
    kept = text.bold(T, 23)
    fresh = ImageFont.truetype(
        io.BytesIO(text._font_bytes(T.font_bold)), 23, layout_engine=ImageFont.Layout.BASIC
    )
    lines = [
        ((10, 10), "Aurélie's hand", "#ffffff", "la"),
        ((10.5, 40.25), "Aurélie's hand", "#ffffff", "la"),
        ((150, 80), "Stone 7", "#ff0000", "mm"),
        ((150.75, 110), "Stone 7", "#00ff00", "mm"),
        ((290, 140), "Stone 7", "#00ff00", "rm"),
    ]

    def drawn(f: ImageFont.FreeTypeFont) -> bytes:
        img = Image.new("RGB", (300, 170), "#202020")
        d = ImageDraw.Draw(img)
        for xy, words, fill, anchor in lines * 2:  # the second time from the kept masks
            text.draw(d, xy, words, f, fill, anchor)
        return img.tobytes()

    assert drawn(kept) == drawn(fresh)
    assert drawn(kept) != drawn(text.bold(T, 22))
