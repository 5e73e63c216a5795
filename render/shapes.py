"""Smooth shapes: colour symbols, rounded panels, rings and hatching.

Pillow draws shapes without anti-aliasing, so every shape here is drawn `supersample` times
larger and shrunk with LANCZOS, once: the results are cached by their arguments (all
hashable values) and shared by every thread. Cached images must never be changed: callers
only paste them.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from render.theme import Symbol

Box = tuple[float, float, float, float]


def symbol_points(symbol: Symbol, box: Box) -> list[tuple[float, float]]:
    """The outline of a polygon symbol inside `box` (not for the circle)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cx, cy = x0 + w / 2, y0 + h / 2
    if symbol is Symbol.TRIANGLE:
        return [(cx, y0), (x1, y1 - h * 0.08), (x0, y1 - h * 0.08)]
    if symbol is Symbol.DIAMOND:
        return [(cx, y0), (x1, cy), (cx, y1), (x0, cy)]
    if symbol is Symbol.SQUARE:
        m = w * 0.1
        return [(x0 + m, y0 + m), (x1 - m, y0 + m), (x1 - m, y1 - m), (x0 + m, y1 - m)]
    if symbol is Symbol.STAR:
        r_out, r_in = w / 2, w / 2 * 0.45
        pts = []
        for i in range(10):
            r = r_out if i % 2 == 0 else r_in
            a = -math.pi / 2 + i * math.pi / 5
            pts.append((cx + r * math.cos(a), cy + 0.06 * h + r * math.sin(a)))
        return pts
    if symbol is Symbol.CROSS:
        t = w * 0.17  # half the bar thickness
        return [
            (cx - t, y0),
            (cx + t, y0),
            (cx + t, cy - t),
            (x1, cy - t),
            (x1, cy + t),
            (cx + t, cy + t),
            (cx + t, y1),
            (cx - t, y1),
            (cx - t, cy + t),
            (x0, cy + t),
            (x0, cy - t),
            (cx - t, cy - t),
        ]
    raise ValueError(symbol)


def draw_symbol(
    d: ImageDraw.ImageDraw, symbol: Symbol, box: Box, fill: str, outline: str | None = None
) -> None:
    """A colour's symbol filling `box`, on an image that will be shrunk afterwards."""
    width = max(1, round((box[2] - box[0]) / 12)) if outline else 0
    if symbol is Symbol.CIRCLE:
        m = (box[2] - box[0]) * 0.04
        d.ellipse((box[0] + m, box[1] + m, box[2] - m, box[3] - m), fill, outline, width)
    else:
        d.polygon(symbol_points(symbol, box), fill, outline, width)


def shrink(image: Image.Image, w: int, h: int) -> Image.Image:
    """A supersampled drawing brought to its final size."""
    return image.resize((w, h), Image.Resampling.LANCZOS)


@lru_cache(maxsize=1024)
def panel(
    w: int,
    h: int,
    radius: int,
    fill: str | None,
    outline: str | None = None,
    width: int = 0,
    scale: int = 3,
) -> Image.Image:
    """A rounded rectangle with smooth corners, as an RGBA image to paste."""
    big = Image.new("RGBA", (w * scale, h * scale), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.rounded_rectangle(
        (0, 0, w * scale - 1, h * scale - 1),
        radius * scale,
        fill=fill,
        outline=outline,
        width=width * scale,
    )
    return shrink(big, w, h)


@lru_cache(maxsize=256)
def hatch(w: int, h: int, color: str, spacing: int = 10, width: int = 2) -> Image.Image:
    """Diagonal stripes over a transparent `w` x `h` image: a pattern that says "not this"
    (a card that cannot be played, a damaged tile) without relying on colour."""
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    for x in range(-h, w, spacing):
        d.line((x, h, x + h, 0), fill=color, width=width)
    return img


@lru_cache(maxsize=64)
def symbol_icon(
    symbol: Symbol, size: int, fill: str, outline: str | None, scale: int = 3
) -> Image.Image:
    """A colour symbol alone, `size` pixels square, for labels and legends."""
    big = Image.new("RGBA", (size * scale, size * scale), (0, 0, 0, 0))
    draw_symbol(
        ImageDraw.Draw(big), symbol, (0, 0, size * scale - 1, size * scale - 1), fill, outline
    )
    return shrink(big, size, size)


def paste(canvas: Image.Image, sprite: Image.Image, xy: tuple[float, float]) -> None:
    """Lay an RGBA sprite on the canvas at `xy` (top-left), blending its edges."""
    canvas.paste(sprite, (round(xy[0]), round(xy[1])), sprite)
