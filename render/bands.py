"""A board drawn in bands, for render/board.py: each row of stones or tiles is drawn on a
band of its own (the row and half the gap above and below it), mapped to the theme's
palette and compressed (a png.Strip), and kept by what the row shows. A move changes one or
two rows, so the others come from what was kept rather than being drawn, mapped and
compressed again; the header and the footer, which change at every move, are cut from the
picture drawn around the rows.

The bands tile the picture exactly: tests/render/test_board_rows.py checks that the board
written from bands has the very pixels of the board drawn whole.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from lang import current
from render import frame, png
from render.frame import ROW_GAP, Row, draw_row, row_height
from render.kept import Kept
from render.theme import Theme

HALF_GAP = ROW_GAP // 2
# Rows: nine stones or seven tiles, from either side, of a few dozen games at a time.
kept: Kept[png.Strip] = Kept(1024)


@dataclass
class Bands:
    """Where the rows of a board drawn in bands went: (top, bottom, strip) in the picture's
    coordinates, top to bottom. The picture itself leaves their place empty."""

    palette: Image.Image
    rows: list[tuple[int, int, png.Strip]] = field(default_factory=list)
    height: int = 0  # the board's, which its canvas is not cut to (see `tall_enough`)


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
    strip = kept.get(key)
    if strip is None:
        band = Image.new("RGB", (img.width, bottom - top), theme.background)
        draw_row(band, ImageDraw.Draw(band), theme, HALF_GAP, row, game)
        frame.frame_sides(band, theme)
        strip = png.strip(band, bands.palette)
        kept.put(key, strip)
    bands.rows.append((top, bottom, strip))
    return y + h + ROW_GAP


def tall_enough(
    draw: Callable[[int], tuple[Image.Image, int]], theme: Theme, bands: Bands | None
) -> Image.Image:
    """A board drawn by `draw(canvas height)` as frame.tall_enough says, then finished:
    cut and framed (frame.finish); drawn in bands, framed but not cut, since only what is
    above and below the rows is cut from it (`bands.height` says where it ends)."""

    def afresh(height: int) -> tuple[Image.Image, int]:
        if bands is not None:
            bands.rows.clear()  # the rows of a try on a canvas too short
        return draw(height)

    img, y = frame.tall_enough(afresh, (frame.FIRST_HEIGHT, frame.MAX_HEIGHT))
    if bands is None:
        return frame.finish(img, y, theme)
    frame.frame(img, y, theme)
    bands.height = y
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
