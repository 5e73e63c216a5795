"""Shared by the render tests: the gallery, rendered once, and image comparison."""

from __future__ import annotations

import io
from functools import cache

from PIL import Image, ImageChops, ImageStat

from render.gallery import Picture, pictures

# Fonts render slightly differently across FreeType versions: glyph edges shift by a pixel.
# A real change (a card, a number, a badge) changes whole blocks of pixels.
BLOCK = 16
MAX_BLOCK_MEAN = 32.0  # mean difference (0-255) in the worst 16 x 16 block
MAX_MEAN = 2.0  # mean difference over the whole picture


@cache
def gallery() -> dict[str, Picture]:
    return {p.name: p for p in pictures()}


@cache
def rendered(name: str) -> bytes:
    return gallery()[name].render()


def image(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data))


def difference(a: Image.Image, b: Image.Image) -> tuple[float, float]:
    """(mean difference, worst block's mean difference) of two same-sized pictures."""
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB")).convert("L")
    # Each pixel: the mean of one block; on two grids, the second shifted by half a block,
    # so that a change (a card's digit) is caught wherever it falls across the blocks.
    half = BLOCK // 2
    shifted = diff.crop((half, half, diff.width, diff.height))
    worst = max(diff.reduce(BLOCK).getextrema()[1], shifted.reduce(BLOCK).getextrema()[1])
    return ImageStat.Stat(diff).mean[0], float(worst)


def similar(
    a: Image.Image, b: Image.Image, *, mean: float = MAX_MEAN, block: float = MAX_BLOCK_MEAN
) -> tuple[bool, str]:
    if a.size != b.size:
        return False, f"sizes differ: {a.size} != {b.size}"
    found, worst = difference(a, b)
    ok = found <= mean and worst <= block
    return (
        ok,
        f"mean difference {found:.2f} (max {mean}), worst block {worst:.1f} (max {block})",
    )
