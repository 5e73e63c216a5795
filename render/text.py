"""Fonts and text: the shipped fonts, loaded once per thread, and text that always fits.

FreeType faces are not documented as safe to share between threads, so each thread loads
its own (a few hundred microseconds, once per size). Player names come from Discord and may
hold characters the font lacks; those are replaced rather than drawn as empty boxes.
"""

from __future__ import annotations

import io
import threading
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from PIL import ImageDraw, ImageFont

from render.theme import Theme

_local = threading.local()


@dataclass(frozen=True, slots=True)
class Drawn:
    """One line of text as drawn: its words and its font's size in final pixels."""

    text: str
    size: float


# The recorder (tests/render/test_phone.py): None when off, which costs one lookup per line.
# A ContextVar, so that a test recording in one thread sees nothing another thread draws.
_recorder: ContextVar[list[Drawn] | None] = ContextVar("render_text_recorder", default=None)


@contextmanager
def recording() -> Iterator[list[Drawn]]:
    """Record every line drawn inside the block, with its size in final pixels. Sprite
    caches are bypassed while recording (see `is_recording`), so that text drawn once and
    cached is seen too."""
    lines: list[Drawn] = []
    token = _recorder.set(lines)
    try:
        yield lines
    finally:
        _recorder.reset(token)


def is_recording() -> bool:
    return _recorder.get() is not None


_MISSING = "\U0010fffd"  # a private-use code point no font has: its mask is the "no glyph" box


@lru_cache(maxsize=8)
def _font_bytes(filename: str) -> bytes:
    # The files are read once per process; bytes are immutable, so threads may share them.
    return resources.files("render").joinpath("fonts").joinpath(filename).read_bytes()


def font(filename: str, size: int) -> ImageFont.FreeTypeFont:
    """The font in render/fonts/`filename` at `size` pixels, private to this thread."""
    cache: dict[tuple[str, int], ImageFont.FreeTypeFont] | None = getattr(_local, "fonts", None)
    if cache is None:
        cache = _local.fonts = {}
    key = (filename, size)
    f = cache.get(key)
    if f is None:
        # BASIC layout: always available, whereas Raqm depends on libraries installed beside
        # Pillow, and the two place glyphs differently; the same view must give the same
        # picture everywhere.
        f = cache[key] = ImageFont.truetype(
            io.BytesIO(_font_bytes(filename)), size, layout_engine=ImageFont.Layout.BASIC
        )
    return f


def regular(theme: Theme, size: int) -> ImageFont.FreeTypeFont:
    return font(theme.font_regular, size)


def bold(theme: Theme, size: int) -> ImageFont.FreeTypeFont:
    return font(theme.font_bold, size)


@lru_cache(maxsize=4096)
def _has_glyph(filename: str, char: str) -> bool:
    # Compared at one size: whether a glyph exists does not depend on the size.
    f = font(filename, 20)
    missing = f.getmask(_MISSING)
    mask = f.getmask(char)
    return not (mask.size == missing.size and bytes(mask) == bytes(missing))


def printable(text: str, filename: str) -> str:
    """`text` as the font can draw it: emoji and other symbols it lacks are left out, a
    letter it lacks loses its accent if that helps, or else becomes "?" (DejaVu Sans covers
    Latin, Greek and Cyrillic, not CJK)."""
    out = []
    for ch in unicodedata.normalize("NFC", text):
        category = unicodedata.category(ch)
        if ch == "\u00a0":
            out.append(ch)  # a no-break space: kept, so that wrapping does not break there
        elif ch.isspace():
            out.append(" ")
        elif category in ("Cc", "Cf", "Co", "Cn"):
            continue  # controls, zero-width joiners, emoji selectors, unassigned
        elif _has_glyph(filename, ch):
            out.append(ch)
        elif category[0] in "SM":
            continue  # an emoji, a symbol or a mark the font lacks: decoration
        else:
            base = unicodedata.normalize("NFKD", ch)[:1]
            out.append(base if base and base != ch and _has_glyph(filename, base) else "?")
    return " ".join(w for w in "".join(out).split(" ") if w)


def fit(text: str, f: ImageFont.FreeTypeFont, width: int) -> str:
    """`text` shortened with an ellipsis until it is at most `width` pixels wide."""
    if f.getlength(text) <= width:
        return text
    while text and f.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def wrap(text: str, f: ImageFont.FreeTypeFont, width: int, lines: int) -> list[str]:
    """`text` broken at spaces (and after hyphens) into at most `lines` lines of `width`."""
    # Only ordinary spaces break a line: "1\u00a0to\u00a09" stays together.
    words = [w for w in text.replace("-", "- ").split(" ") if w]
    out: list[str] = []
    current = ""
    for word in words:
        joined = word if not current else current + ("" if current.endswith("-") else " ") + word
        if f.getlength(joined) <= width or not current:
            current = joined
        else:
            out.append(current)
            current = word
    if current:
        out.append(current)
    if len(out) > lines:
        out = [*out[: lines - 1], fit(" ".join(out[lines - 1 :]), f, width)]
    return [fit(line, f, width) for line in out]


def _break_word(word: str, f: ImageFont.FreeTypeFont, width: int) -> list[str]:
    """A word too long for a line, cut into pieces that fit (a 32-letter name)."""
    pieces = [""]
    for ch in word:
        if pieces[-1] and f.getlength(pieces[-1] + ch) > width:
            pieces.append("")
        pieces[-1] += ch
    return pieces


def wrap_all(text: str, f: ImageFont.FreeTypeFont, width: int) -> list[str]:
    """`text` broken into as many lines of `width` as it needs: never shortened."""
    out: list[str] = []
    current = ""
    for word in [w for w in text.replace("-", "- ").split(" ") if w]:
        joined = word if not current else current + ("" if current.endswith("-") else " ") + word
        if f.getlength(joined) <= width:
            current = joined
            continue
        if current:
            out.append(current)
        pieces = _break_word(word, f, width)
        out.extend(pieces[:-1])
        current = pieces[-1]
    if current:
        out.append(current)
    return out


def lines(
    text_: str, theme: Theme, sizes: tuple[int, ...], width: int, max_lines: int, *, strong: bool
) -> tuple[ImageFont.FreeTypeFont, list[str]]:
    """The largest of `sizes` at which `text_` fits in `max_lines` lines of `width`; at the
    smallest size it takes the lines it needs. Nothing is cut off: a picture must not hide a
    name or a fact behind an ellipsis."""
    filename = theme.font_bold if strong else theme.font_regular
    shown = printable(text_, filename) or "?"
    for size in sizes:
        f = font(filename, size)
        out = wrap_all(shown, f, width)
        if len(out) <= max_lines:
            return f, out
    return f, out


def name(text: str, theme: Theme, size: int, width: int, *, strong: bool = True) -> str:
    """A player's name, drawable and fitting in `width`."""
    filename = theme.font_bold if strong else theme.font_regular
    return fit(printable(text, filename) or "?", font(filename, size), width)


def draw(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    f: ImageFont.FreeTypeFont,
    fill: str,
    anchor: str = "la",
    *,
    scale: int = 1,
) -> None:
    """Text at `xy` (Pillow anchors: "la" left-top, "mm" centre, "rm" right-middle...). Every
    line of every picture is drawn here; `scale` is how much larger than its final size the
    drawing is (sprites are supersampled), so that the recorder sees final pixel sizes."""
    rec = _recorder.get()
    if rec is not None and text.strip():
        rec.append(Drawn(text, f.size / scale))
    d.text(xy, text, font=f, fill=fill, anchor=anchor)


def shrink_to_fit(
    text_: str, theme: Theme, sizes: tuple[int, ...], width: int, *, strong: bool = True
) -> tuple[ImageFont.FreeTypeFont, str]:
    """The largest of `sizes` at which `text_` fits in `width`, or the smallest, shortened."""
    filename = theme.font_bold if strong else theme.font_regular
    shown = printable(text_, filename) or "?"
    for size in sizes:
        f = font(filename, size)
        if f.getlength(shown) <= width:
            return f, shown
    return f, fit(shown, f, width)
