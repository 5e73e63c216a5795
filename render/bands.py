"""A board drawn in bands, for render/board.py: each row of stones or tiles is drawn on a
band of its own (the row and half the gap above and below it), mapped to the theme's
palette and compressed (a png.Strip), and kept by what the row shows; so are the players'
banners and the line naming the sides. A move changes one or two rows and a banner or two,
so the others come from what was kept rather than being drawn, mapped and compressed again;
the header and the footer, which change at every move, are cut from the picture drawn
around the bands.

The bands tile the picture exactly: tests/render/test_board_rows.py checks that the board
written from bands has the very pixels of the board drawn whole.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from lang import current
from render import frame, png
from render.frame import ROW_GAP, Banner, Row, banner, draw_row, row_height, sides_line
from render.kept import Kept
from render.theme import Theme

HALF_GAP = ROW_GAP // 2
# Rows (nine stones or seven tiles) and banners, from either side, of a few dozen games at
# a time.
kept: Kept[png.Strip] = Kept(1536)
SCRATCH = (400, 1600)  # heights of the band a part is drawn on: most fit the first


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
    """One row from `y`, as frame.draw_row, its band holding half the gap above and below
    it. Returns the y below it."""

    def drawn(band: Image.Image, bd: ImageDraw.ImageDraw, top: int) -> int:
        return draw_row(band, bd, theme, top + HALF_GAP, row, game) - HALF_GAP

    # A row's repr names everything it draws (frozen dataclasses of words, colours and
    # cards); its words are already in the current language, which `place` adds to the key
    # for what draw_row writes itself.
    key = ("row", repr(row), game)
    height = row_height(row, theme) + ROW_GAP
    return place(img, d, theme, y - HALF_GAP, key, drawn, bands, height) + HALF_GAP


def place(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    theme: Theme,
    y: int,
    key: Hashable,
    draw: Callable[[Image.Image, ImageDraw.ImageDraw, int], int],
    bands: Bands | None,
    height: int | None = None,
) -> int:
    """What `draw(picture, its ImageDraw, top)` draws from `top` down to the y it returns,
    from `y`: drawn on `img` (`d`) as it is, or, with `bands`, as a band kept by `key`
    (which must name everything it draws, but for the theme, the width and the language),
    or drawn on a band of its own (`height` tall when known) and kept. Returns the y below
    it."""
    if bands is None:
        return draw(img, d, y)
    full = (key, theme, img.width, current())
    strip = kept.get(full)
    if strip is None:
        for room in (height,) if height is not None else SCRATCH:
            band = Image.new("RGB", (img.width, room), theme.background)
            bottom = draw(band, ImageDraw.Draw(band), 0)
            if bottom <= room:
                break
        else:
            raise ValueError(f"a band taller than {room} px")
        if bottom < band.height:
            band = band.crop((0, 0, img.width, bottom))
        frame.frame_sides(band, theme)
        strip = png.strip(band, bands.palette)
        kept.put(full, strip)
    bands.rows.append((y, y + strip.height, strip))
    return y + strip.height


def place_banner(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    theme: Theme,
    y: int,
    b: Banner,
    bands: Bands | None,
) -> int:
    """A player's banner from `y`, as frame.banner, its band kept by what it shows (it
    changes when the turn or the player's stones, hand or actions do)."""

    def drawn(i: Image.Image, bd: ImageDraw.ImageDraw, top: int) -> int:
        return banner(i, bd, theme, top, b)

    return place(img, d, theme, y, ("banner", repr(b)), drawn, bands)


def place_sides_line(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    theme: Theme,
    y: int,
    names: tuple[str, str],
    left: int,
    roles: tuple[str, str],
    bands: Bands | None,
) -> int:
    """frame.sides_line from `y`, its band kept by the names, sides and roles. The band
    stops half a row gap short of the line's end: the first row's band holds that."""

    def drawn(i: Image.Image, bd: ImageDraw.ImageDraw, top: int) -> int:
        return sides_line(i, bd, theme, top, names, left, roles) - HALF_GAP

    return place(img, d, theme, y, ("sides", names, left, roles), drawn, bands) + HALF_GAP


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
