"""One palette of 256 colours per theme, for the boards and hands (render/png.py).

A board or hand is drawn from the theme's few colours and their anti-aliased blends, so one
palette chosen once from a handful of reference pictures (`gallery.palette_pictures`) maps
every board and hand as closely as a palette chosen from each picture alone (mean error under
one level per channel on every gallery picture; tests/render/test_palette.py). A fixed
palette is what lets a turn's pictures share their board's compressed rows, and it saves the
octree search of every picture.

The default theme's palette is kept in render/palette_default.py, so that a bot's first
picture does not wait for the reference pictures (a second in a fresh process); after a
change of colours, write it again with `python -m render.palette`. Other themes' palettes
are chosen when first used.
"""

from __future__ import annotations

import dataclasses
import threading
from functools import cache
from pathlib import Path

from PIL import Image

from render.palette_default import DEFAULT_PALETTE
from render.theme import DEFAULT_THEME, Theme

SAMPLE = 3  # one pixel in SAMPLE x SAMPLE of each reference picture
_lock = threading.Lock()


def _colours_only(theme: Theme) -> Theme:
    """The theme with every size at its default: themes that differ only in sizes (a hand
    drawn at the board's width) share a palette."""
    base = Theme()
    sizes = {
        f.name: getattr(base, f.name)
        for f in dataclasses.fields(Theme)
        if not isinstance(getattr(base, f.name), str | tuple) and f.name != "dim_alpha"
    }
    return dataclasses.replace(theme, **sizes)


def palette(theme: Theme) -> Image.Image:
    """The palette of `theme`'s boards and hands, as a "P" image holding it."""
    key = _colours_only(theme)
    if key == _DEFAULT_COLOURS:
        return _kept_palette()
    with _lock:  # drawn once, even when several threads ask for it at first
        return _palette(key)


_DEFAULT_COLOURS = _colours_only(DEFAULT_THEME)


@cache
def _kept_palette() -> Image.Image:
    holder = Image.new("P", (1, 1))
    holder.putpalette(DEFAULT_PALETTE)
    return holder


def chosen(theme: Theme) -> bytes:
    """The 768 bytes of the palette chosen from `theme`'s reference pictures."""
    return bytes(_palette(_colours_only(theme)).getpalette() or b"")[: 3 * 256].ljust(768, b"\0")


@cache
def _palette(theme: Theme) -> Image.Image:
    from lang import speaking
    from render import hand
    from render.board import board_image
    from render.gallery import palette_pictures

    samples = []
    with speaking("en"):
        for p in palette_pictures():
            if p.what == "board":
                image = board_image(p.view, p.names, theme, None)
            else:
                image = hand.render(p.view, p.names[p.view.viewer], theme)
            size = (image.width // SAMPLE, image.height // SAMPLE)
            samples.append(image.resize(size, Image.Resampling.NEAREST))
    size = (max(s.width for s in samples), sum(s.height for s in samples))
    sheet = Image.new("RGB", size, theme.background)
    y = 0
    for s in samples:
        sheet.paste(s, (0, y))
        y += s.height
    return sheet.quantize(256, method=Image.Quantize.FASTOCTREE)


def write_default() -> str:
    """Write render/palette_default.py from the default theme's reference pictures."""
    colours = chosen(DEFAULT_THEME)
    rows = [colours[i : i + 24].hex() for i in range(0, len(colours), 24)]
    body = "\n".join(f'    "{row}"' for row in rows)
    path = Path(__file__).with_name("palette_default.py")
    doc = (
        '"""The default theme\'s palette: 256 colours, RGB.\n\n'
        'Written by `python -m render.palette` (see render/palette.py).\n"""\n\n'
    )
    path.write_text(f"{doc}DEFAULT_PALETTE = bytes.fromhex(\n{body}\n)\n")
    return str(path)


if __name__ == "__main__":
    print(write_default())
