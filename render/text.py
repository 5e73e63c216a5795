"""Fonts and text: the shipped fonts, loaded once per thread, and text that always fits.

FreeType faces are not documented as safe to share between threads, so each thread loads
its own (a few hundred microseconds, once per size). Player names come from Discord and may
hold characters the font lacks; those are replaced rather than drawn as empty boxes.
"""

from __future__ import annotations

import io
import threading
import unicodedata
from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from PIL import ImageDraw, ImageFont

from render.theme import Theme

_local = threading.local()


Box = tuple[float, float, float, float]

# How a line was shortened to fit, in `Drawn.cut`.
ELLIPSIS = "ellipsis"  # words cut off, an ellipsis in their place
NAME = "name"  # a player's name cut off with an ellipsis (`name`)
BROKEN = "broken"  # a word too long for a line, split without a hyphen


@dataclass(frozen=True, slots=True)
class Drawn:
    """One line of text as drawn: its words and its font's size in final pixels; and, for
    the fitting check (tests/render/test_languages.py), where its ink went (`ink`), the room
    the layout gave it (`room`, when the code drawing it knows), the size of the image it was
    drawn on (a card sprite, a caption band or the whole picture), all in final pixels, and
    whether it was shortened to fit (`cut`, with the words it had before in `whole`)."""

    text: str
    size: float
    ink: Box | None = None
    room: Box | None = None
    image: tuple[float, float] | None = None
    cut: str = ""
    whole: str = ""


# The recorder (tests/render/test_phone.py): None when off, which costs one lookup per line.
# A ContextVar, so that a test recording in one thread sees nothing another thread draws.
_recorder: ContextVar[list[Drawn] | None] = ContextVar("render_text_recorder", default=None)
# While recording: the lines shortened to fit, by their shortened words: (how, the words
# before). `draw` marks the lines it finds here.
_cuts: ContextVar[dict[str, tuple[str, str]] | None] = ContextVar("render_text_cuts", default=None)


@contextmanager
def recording() -> Iterator[list[Drawn]]:
    """Record every line drawn inside the block, with its size in final pixels, its ink's
    box and its room (see `Drawn`). Sprite caches are bypassed while recording (see
    `is_recording`), so that text drawn once and cached is seen too."""
    lines: list[Drawn] = []
    token = _recorder.set(lines)
    cuts_token = _cuts.set({})
    try:
        yield lines
    finally:
        _cuts.reset(cuts_token)
        _recorder.reset(token)


def _note_cut(shown: str, how: str, whole: str) -> None:
    cuts = _cuts.get()
    if cuts is not None:
        cuts[shown] = (how, whole)


def note_cut(shown: str, whole: str) -> None:
    """Tell the recorder that `shown` is `whole` shortened with an ellipsis (for text
    shortened outside this module, such as a replay's caption)."""
    _note_cut(shown, ELLIPSIS, whole)


def is_recording() -> bool:
    return _recorder.get() is not None


_MISSING = "\U0010fffd"  # a private-use code point no font has: its mask is the "no glyph" box


@lru_cache(maxsize=8)
def _font_bytes(filename: str) -> bytes:
    # The files are read once per process; bytes are immutable, so threads may share them.
    return resources.files("render").joinpath("fonts").joinpath(filename).read_bytes()


# The mask bytes a font keeps at most (a board's some 70 lines, most of them drawn again at
# every turn, take about 200 KB over a dozen fonts; the whole gallery 1.5 MB over 26).
MASK_BYTES = 192 * 1024


class _Font(ImageFont.FreeTypeFont):
    """A font that keeps the masks of the lines it rasterised: a board draws the same names,
    labels and card values at every turn, and rasterising them was a third of its drawing
    time (issue 32). A mask is only read when drawn, so the same one serves every picture;
    like the font, it belongs to one thread. Past MASK_BYTES it starts afresh."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._masks: dict[Hashable, Any] = {}
        self._mask_bytes = 0

    def getmask2(self, text: Any, mode: str = "", *args: Any, **kwargs: Any) -> Any:
        if mode == "RGBA":  # its colour bands are filled in by the caller: never shared
            return super().getmask2(text, mode, *args, **kwargs)
        try:
            key = (text, mode, args, tuple(sorted(kwargs.items())))
            found = self._masks.get(key)
        except TypeError:  # an unhashable argument (a list of features): not kept
            return super().getmask2(text, mode, *args, **kwargs)
        if found is None:
            found = super().getmask2(text, mode, *args, **kwargs)
            width, height = found[0].size
            if self._mask_bytes + width * height > MASK_BYTES:
                self._masks.clear()
                self._mask_bytes = 0
            self._masks[key] = found
            self._mask_bytes += width * height
        return found


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
        f = cache[key] = _Font(
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
    whole = text
    while text and f.getlength(text + "…") > width:
        text = text[:-1]
    shown = text.rstrip() + "…"
    _note_cut(shown, ELLIPSIS, whole)
    return shown


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


_VOWELS = frozenset("aeiouyàâäéèêëîïôöûüùœæ")
# Consonants that begin a syllable together (French and German), longest first: a word is
# hyphenated before the longest of these that follows its consonants ("Schlamm-schlacht").
_ONSETS = sorted(
    (
        *("schl", "schm", "schn", "schr", "schw", "spr", "str", "sch", "chr", "ch", "ck"),
        *("ph", "th", "qu", "bl", "br", "cl", "cr", "dr", "fl", "fr", "gl", "gr", "kl"),
        *("kn", "kr", "pf", "pl", "pr", "sp", "st", "tr", "zw", "gn"),
    ),
    key=len,
    reverse=True,
)


def _hyphen_points(word: str) -> list[int]:
    """Where `word` may be hyphenated: between syllables, where consonants meet vowels;
    at least two letters either side. A rough rule, good for the long compounds of card
    names and labels (no dictionary is shipped)."""
    low = word.lower()
    points = []
    i = 0
    n = len(low)
    while i < n:
        if low[i] in _VOWELS or not low[i].isalpha():
            i += 1
            continue
        j = i
        while j < n and low[j].isalpha() and low[j] not in _VOWELS:
            j += 1
        # Consonants low[i:j], between two vowels: the next syllable takes the longest
        # onset they end with, else the last consonant.
        if i > 0 and j < n and low[i - 1] in _VOWELS and low[j] in _VOWELS:
            run = low[i:j]
            onset = next((o for o in _ONSETS if run.endswith(o)), run[-1])
            cut = j - len(onset)
            if 2 <= cut <= n - 3:
                points.append(cut)
        i = j
    return points


def _hyphenate(word: str, f: ImageFont.FreeTypeFont, width: int) -> list[str] | None:
    """A word too long for a line, hyphenated into pieces that fit, or None if it has no
    place to break that helps."""
    pieces = []
    rest = word
    while f.getlength(rest) > width:
        fitting = [p for p in _hyphen_points(rest) if f.getlength(rest[:p] + "-") <= width]
        if not fitting:
            return None
        cut = fitting[-1]
        pieces.append(rest[:cut] + "-")
        rest = rest[cut:]
    return [*pieces, rest]


def wrap_all(
    text: str, f: ImageFont.FreeTypeFont, width: int, *, hyphenate: bool = False
) -> list[str]:
    """`text` broken into as many lines of `width` as it needs: never shortened. A word
    longer than a line is split: with `hyphenate` (words, not names) at a syllable with a
    hyphen where it can be, else where the line is full."""
    out: list[str] = []
    broken: set[int] = set()  # lines holding a piece of a word split without a hyphen
    current = ""
    for word in [w for w in text.replace("-", "- ").split(" ") if w]:
        joined = word if not current else current + ("" if current.endswith("-") else " ") + word
        if f.getlength(joined) <= width:
            current = joined
            continue
        if current:
            out.append(current)
        pieces = _hyphenate(word, f, width) if hyphenate else None
        if pieces is None:
            pieces = _break_word(word, f, width)
            if len(pieces) > 1:
                broken.update(range(len(out), len(out) + len(pieces)))
        out.extend(pieces[:-1])
        current = pieces[-1]
    if current:
        out.append(current)
    for i in broken:
        _note_cut(out[i], BROKEN, text)
    return out


def lines(
    text_: str,
    theme: Theme,
    sizes: tuple[int, ...],
    width: int,
    max_lines: int,
    *,
    strong: bool,
    hyphenate: bool = False,
) -> tuple[ImageFont.FreeTypeFont, list[str]]:
    """The largest of `sizes` at which `text_` fits in `max_lines` lines of `width`; at the
    smallest size it takes the lines it needs. Nothing is cut off: a picture must not hide a
    name or a fact behind an ellipsis. `hyphenate`: see `wrap_all`."""
    filename = theme.font_bold if strong else theme.font_regular
    if is_recording():
        # Laid out afresh, so that the recorder hears of words split to fit.
        size, out = _lines.__wrapped__(text_, filename, sizes, width, max_lines, hyphenate)
    else:
        size, out = _lines(text_, filename, sizes, width, max_lines, hyphenate)
    return font(filename, size), list(out)


@lru_cache(maxsize=4096)
def _lines(
    text_: str,
    filename: str,
    sizes: tuple[int, ...],
    width: int,
    max_lines: int,
    hyphenate: bool,
) -> tuple[int, tuple[str, ...]]:
    # Cached by value: the same words are laid out on every board (labels, card names,
    # tiles' rules), in every language. Sizes, not fonts, are kept: fonts are per thread.
    shown = printable(text_, filename) or "?"
    for size in sizes:
        out = wrap_all(shown, font(filename, size), width, hyphenate=hyphenate)
        if len(out) <= max_lines:
            return size, tuple(out)
    return size, tuple(out)


def name(text: str, theme: Theme, size: int, width: int, *, strong: bool = True) -> str:
    """A player's name, drawable and fitting in `width`."""
    filename = theme.font_bold if strong else theme.font_regular
    whole = printable(text, filename) or "?"
    shown = fit(whole, font(filename, size), width)
    if shown != whole:
        _note_cut(shown, NAME, whole)
    return shown


def draw(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    f: ImageFont.FreeTypeFont,
    fill: str,
    anchor: str = "la",
    *,
    scale: float = 1,
    room: Box | None = None,
) -> None:
    """Text at `xy` (Pillow anchors: "la" left-top, "mm" centre, "rm" right-middle...). Every
    line of every picture is drawn here; `scale` is how much larger than its final size the
    drawing is (sprites are supersampled), so that the recorder sees final pixel sizes.
    `room` is the box (in the drawing's pixels) the text was laid out to stay inside, for
    the recorder's fitting check."""
    rec = _recorder.get()
    if rec is not None and text.strip():
        rec.append(_drawn(d, xy, text, f, anchor, scale, room))
    d.text(xy, text, font=f, fill=fill, anchor=anchor)


def _drawn(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    f: ImageFont.FreeTypeFont,
    anchor: str,
    scale: float,
    room: Box | None,
) -> Drawn:
    """What the recorder keeps of a line, in final pixels."""
    x0, y0, x1, y1 = d.textbbox(xy, text, font=f, anchor=anchor)
    w, h = d.im.size
    how, whole = (_cuts.get() or {}).get(text, ("", ""))
    return Drawn(
        text,
        f.size / scale,
        ink=(x0 / scale, y0 / scale, x1 / scale, y1 / scale),
        room=None
        if room is None
        else (room[0] / scale, room[1] / scale, room[2] / scale, room[3] / scale),
        image=(w / scale, h / scale),
        cut=how,
        whole=whole,
    )


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
