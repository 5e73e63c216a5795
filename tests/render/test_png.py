"""PNG writing (render/png.py): strips of rows in one palette, stacked into one picture, are
a valid PNG with the pixels drawn; the theme's palette maps every board and hand closely."""

from __future__ import annotations

import dataclasses
import io
import struct
import zlib

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from render import DEFAULT_THEME, hand, png
from render.board import board_image
from render.gallery import NAMES, st2_siege_midgame
from render.palette import palette
from tests.render.helpers import gallery, similar


def _chunks(data: bytes) -> dict[bytes, bytes]:
    assert data[:8] == png.SIGNATURE
    found, at = {}, 8
    while at < len(data):
        (size,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + size]
        (crc,) = struct.unpack(">I", data[at + 8 + size : at + 12 + size])
        assert crc == zlib.crc32(kind + body), kind
        found[kind] = found.get(kind, b"") + body
        at += 12 + size
    return found


@given(st.binary(max_size=3000), st.binary(max_size=3000))
def test_checksums_combine_as_zlibs(a, b):
    assert png.adler_combine(zlib.adler32(a), zlib.adler32(b), len(b)) == zlib.adler32(a + b)


@pytest.mark.parametrize("cut", [1, 200, 599])
def test_strips_stacked_are_the_picture_mapped(cut):
    drawn = board_image(st2_siege_midgame().view(None), NAMES, DEFAULT_THEME, None)
    picture = drawn.crop((0, 0, drawn.width, 600))
    colours = palette(DEFAULT_THEME)
    top = png.strip(picture.crop((0, 0, picture.width, cut)), colours)
    bottom = png.strip(picture.crop((0, cut, picture.width, 600)), colours)
    data = png.assemble([top, bottom])
    chunks = _chunks(data)
    # zlib checks the stream's checksum, which Pillow's decoder does not.
    rows = zlib.decompress(chunks[b"IDAT"])
    width, height, depth, kind = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    assert (width, height, depth, kind) == (picture.width, 600, 8, 3)
    assert len(rows) == 600 * (picture.width + 1)
    decoded = Image.open(io.BytesIO(data))
    expected = picture.quantize(palette=colours, dither=Image.Dither.NONE)
    assert decoded.mode == "P" and decoded.size == picture.size
    assert decoded.convert("RGB").tobytes() == expected.convert("RGB").tobytes()


def test_strips_of_another_width_or_palette_are_refused():
    colours = palette(DEFAULT_THEME)
    a = png.strip(Image.new("RGB", (10, 4), "red"), colours)
    b = png.strip(Image.new("RGB", (12, 4), "red"), colours)
    with pytest.raises(ValueError, match="width"):
        png.assemble([a, b])
    with pytest.raises(ValueError, match="at least one"):
        png.assemble([])


@pytest.mark.parametrize("name", sorted(gallery()))
def test_the_themes_palette_draws_every_board_and_hand_closely(name):
    """Mapped to the one palette, a picture is as close to its drawing as when a palette is
    chosen from the picture alone (png.encode, used before issue 32)."""
    p = gallery()[name]
    if p.what == "board":
        drawn = board_image(p.view, p.names, DEFAULT_THEME, None)
    else:
        drawn = hand.render(p.view, p.names[p.view.viewer], DEFAULT_THEME)
    mapped = drawn.quantize(palette=palette(DEFAULT_THEME), dither=Image.Dither.NONE)
    ok, why = similar(mapped.convert("RGB"), drawn, mean=1.0, block=6.0)
    assert ok, why


def test_a_theme_of_other_colours_has_its_own_palette():
    felt = dataclasses.replace(DEFAULT_THEME, background="#1E3326", dim="#1E3326")
    assert palette(felt).getpalette() != palette(DEFAULT_THEME).getpalette()
    drawn = board_image(st2_siege_midgame().view(None), NAMES, felt, None)
    mapped = drawn.quantize(palette=palette(felt), dither=Image.Dither.NONE)
    ok, why = similar(mapped.convert("RGB"), drawn, mean=1.0, block=6.0)
    assert ok, why
    # Sizes alone do not make another palette.
    bigger = dataclasses.replace(DEFAULT_THEME, title_size=40)
    assert palette(bigger) is palette(DEFAULT_THEME)
