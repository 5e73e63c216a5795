"""PNG encoding: the one place that decides how pictures are compressed.

Measured on the Schotten Totten Tactics mid-game board (1394 x 880), median of 15 runs:

    RGB, compress_level 6          37 ms   136 KB
    RGB, compress_level 1          29 ms   161 KB
    octree palette on all pixels   12 ms + 6 ms encode, 43 KB
    octree palette on a 1/3 sample  5 ms + 6 ms encode, 44 KB   <- `encode`
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

Boards and hands (`Strip`, `assemble`): a turn's pictures share their board, the channel's
board alone and the player's board with their hand under it. So these are drawn in one
palette per theme (render/palette.py) and written by hand here as strips of rows, each
mapped and compressed once: a strip's compressed rows end on a byte boundary with no
reference to what follows (a zlib sync flush), so the turn picture is the board's strip,
as compressed for the channel, followed by the hand's. The 760 x 1,860 turn picture went
from 38 ms (draw, enlarge the hand, octree, map, zlib) to what its hand costs alone.
"""

from __future__ import annotations

import io
import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

SAMPLE = 3  # palette chosen from one pixel in SAMPLE x SAMPLE
COMPRESS_LEVEL = 3
ADLER_BASE = 65521  # the modulus of zlib's Adler-32 checksum
SIGNATURE = b"\x89PNG\r\n\x1a\n"


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


@dataclass(frozen=True, slots=True)
class Strip:
    """Rows of a picture in a fixed palette, compressed: a raw deflate stream that ends on a
    sync flush, so that another strip's stream may follow it. `adler` is the Adler-32 of the
    `size` uncompressed bytes (each row a filter byte and its palette indices)."""

    width: int
    height: int
    palette: bytes  # 768 bytes: 256 colours, RGB
    deflated: bytes
    adler: int
    size: int


def strip(image: Image.Image, palette: Image.Image) -> Strip:
    """`image` (RGB) mapped to `palette` (a "P" image holding the colours) and compressed."""
    mapped = image.quantize(palette=palette, dither=Image.Dither.NONE)
    w = image.width
    # Each row is filtered with "None" (type 0): for palette indices the other filters only
    # cost time (the PNG specification's advice for palette images). The rows with their
    # filter byte are the picture pasted one pixel right on a column of zeros (half the
    # time of joining the rows in Python).
    rows = Image.new("P", (w + 1, image.height), 0)
    rows.paste(mapped, (1, 0))
    raw = rows.tobytes()
    packer = zlib.compressobj(COMPRESS_LEVEL, zlib.DEFLATED, -15)
    deflated = packer.compress(raw) + packer.flush(zlib.Z_SYNC_FLUSH)
    colours = bytes(palette.getpalette() or b"")[: 3 * 256].ljust(3 * 256, b"\x00")
    return Strip(w, image.height, colours, deflated, zlib.adler32(raw), len(raw))


def adler_combine(first: int, second: int, second_size: int) -> int:
    """The Adler-32 of A + B from A's and B's (zlib's adler32_combine, which Python's zlib
    module lacks): B's running sum started from 1, not from A's."""
    a1, b1 = first & 0xFFFF, first >> 16
    a2, b2 = second & 0xFFFF, second >> 16
    a = (a1 + a2 - 1) % ADLER_BASE
    b = (b1 + b2 + second_size * (a1 - 1)) % ADLER_BASE
    return (b << 16) | a


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def assemble(strips: Sequence[Strip]) -> bytes:
    """One PNG of `strips` stacked top to bottom (same width and palette), with no metadata."""
    if not strips:
        raise ValueError("a picture needs at least one strip")
    width, palette = strips[0].width, strips[0].palette
    if any(s.width != width or s.palette != palette for s in strips):
        raise ValueError("strips of one picture share its width and palette")
    height = sum(s.height for s in strips)
    adler = strips[0].adler
    for s in strips[1:]:
        adler = adler_combine(adler, s.adler, s.size)
    # zlib's header (deflate, 32 KB window, the "fast" level flag; 0x785E is a multiple of
    # 31 as the format requires), the strips, an empty final block, the checksum.
    stream = b"\x78\x5e" + b"".join(s.deflated for s in strips) + b"\x03\x00"
    stream += struct.pack(">I", adler)
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit palette
    return (
        SIGNATURE
        + _chunk(b"IHDR", header)
        + _chunk(b"PLTE", palette)
        + _chunk(b"IDAT", stream)
        + _chunk(b"IEND", b"")
    )
