"""PNG encoding: the one place that decides how pictures are compressed.

Measured on the Schotten Totten Tactics mid-game board (1394 x 880), median of 15 runs:

    RGB, compress_level 6          37 ms   136 KB
    RGB, compress_level 1          29 ms   161 KB
    octree palette on all pixels   12 ms + 6 ms encode, 43 KB
    octree palette on a 1/3 sample  5 ms + 6 ms encode, 44 KB   <- used
    palette, compress_level 9      34 ms encode, 40 KB (not worth it)

The pictures are flat colours plus anti-aliased edges, so 256 colours chosen from every third
pixel in each direction lose nothing visible (mean error under 1 level per channel), and the
palette image compresses three times smaller than RGB in a sixth of the time. Octree
quantisation is deterministic, so the same picture always gives the same bytes.

Then zlib's level (issue 32: a board and a hand's DM are drawn at every turn, and their
compression was the largest single cost of a move). The first twelve gallery pictures'
palette images, saved (best of 9 runs each, summed):

    compress_level 1   28 ms   399 KB
    compress_level 3   30 ms   369 KB   <- used: zlib's fast matcher, half level 6's time
    compress_level 4   42 ms   326 KB
    compress_level 6   60 ms   307 KB   (the default, used until issue 32)

A fifth more bytes to upload (a board about 45 KB) for half the encoding time.
"""

from __future__ import annotations

import io

from PIL import Image

SAMPLE = 3  # palette chosen from one pixel in SAMPLE x SAMPLE
COMPRESS_LEVEL = 3


def quantize(image: Image.Image) -> Image.Image:
    """`image` in 256 colours, the palette chosen from a sample of its pixels."""
    small = image.resize(
        (max(1, image.width // SAMPLE), max(1, image.height // SAMPLE)), Image.Resampling.NEAREST
    )
    palette = small.quantize(256, method=Image.Quantize.FASTOCTREE)
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


def encode(image: Image.Image) -> bytes:
    """`image` (RGB) as palette PNG bytes, with no metadata."""
    out = io.BytesIO()
    quantize(image).save(out, format="PNG", compress_level=COMPRESS_LEVEL)
    return out.getvalue()
