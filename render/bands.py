"""A board drawn in bands, for render/board.py: each row of stones or tiles is drawn on a
band of its own (the row and half the gap above and below it), mapped to the theme's
palette and compressed (a png.Strip), and kept by what the row shows. A move changes one or
two rows, so the others come from what was kept rather than being drawn, mapped and
compressed again; the header and the footer, which change at every move, are cut from the
picture drawn around the rows.

The bands tile the picture exactly: tests/render/test_bands.py checks that the board
written from bands has the very pixels of the board drawn whole.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from lang import current
from render import png
from render.frame import FIRST_HEIGHT, MAX_HEIGHT, ROW_GAP, Row, draw_row, finish, row_height
from render.theme import Theme

KEPT = 1024  # rows: nine stones or seven tiles, two sides, a few dozen games at a time
FRAME = 3  # the frame's width, as frame.finish draws it
HALF_GAP = ROW_GAP // 2

_kept: OrderedDict[Hashable, png.Strip] = OrderedDict()
_lock = threading.Lock()


@dataclass
class Bands:
    """Where the rows of a board drawn in bands went: (top, bottom, strip) in the picture's
    coordinates, top to bottom. The picture itself leaves their place empty."""

    palette: Image.Image
    rows: list[tuple[int, int, png.Strip]] = field(default_factory=list)
    height: int = 0  # the board's, which its canvas is not cut to (see `done`)


def place_row(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    theme: Theme,
    y: int,
    row: Row,
    game: str,
    bands: Bands | None,
) -> int:
    """One row from `y`, as frame.draw_row: drawn on `img`, or, with `bands`, as a band of
    its own (kept, or drawn and kept). Returns the y below it."""
    if bands is None:
        return draw_row(img, d, theme, y, row, game)
    h = row_height(row, theme)
    top, bottom = y - HALF_GAP, y + h + ROW_GAP - HALF_GAP
    # A row's repr names everything it draws (frozen dataclasses of words, colours and
    # cards); its words are already in the current language, which the key names too for
    # what draw_row writes itself.
    key = (repr(row), game, theme, img.width, current())
    with _lock:
        strip = _kept.get(key)
        if strip is not None:
            _kept.move_to_end(key)
    if strip is None:
        band = Image.new("RGB", (img.width, bottom - top), theme.background)
        draw_row(band, ImageDraw.Draw(band), theme, HALF_GAP, row, game)
        sides = ImageDraw.Draw(band)
        sides.rectangle((0, 0, FRAME - 1, band.height - 1), fill=theme.frame)
        sides.rectangle((band.width - FRAME, 0, band.width - 1, band.height - 1), fill=theme.frame)
        strip = png.strip(band, bands.palette)
        with _lock:
            _kept[key] = strip
            while len(_kept) > KEPT:
                _kept.popitem(last=False)
    bands.rows.append((top, bottom, strip))
    return y + h + ROW_GAP


def tall_enough(
    draw: Callable[[int], tuple[Image.Image, int]], theme: Theme, bands: Bands | None
) -> Image.Image:
    """A board drawn by `draw(canvas height)` (which returns the canvas and the height it
    needs) first on a canvas most boards fit, again on the tallest if it did not fit."""
    for height in (FIRST_HEIGHT, MAX_HEIGHT):
        if bands is not None:
            bands.rows.clear()
        img, y = draw(height)
        if y <= height:
            break
    return done(img, y, theme, bands)


def done(img: Image.Image, height: int, theme: Theme, bands: Bands | None) -> Image.Image:
    """`finish`; for a board drawn in bands, the frame drawn but the canvas not cut, since
    only what is above and below the rows is cut from it (`bands.height` says where it ends)."""
    if bands is None:
        return finish(img, height, theme)
    ImageDraw.Draw(img).rectangle((0, 0, img.width - 1, height - 1), outline=theme.frame, width=3)
    bands.height = height
    return img


def strips(picture: Image.Image, bands: Bands) -> list[png.Strip]:
    """The whole board as strips: what is above the rows and below them cut from `picture`
    (drawn with the rows' place left empty), the rows' bands between."""
    out = []
    at = 0
    for top, bottom, strip in bands.rows:
        if top != at:
            out.append(png.strip(picture.crop((0, at, picture.width, top)), bands.palette))
        out.append(strip)
        at = bottom
    if at < bands.height:
        out.append(png.strip(picture.crop((0, at, picture.width, bands.height)), bands.palette))
    return out
