"""Tiny image helpers: a valid PNG for avatars/tests, and reading a PNG's size.

Discord reports ``width``/``height`` for image attachments; reading the IHDR chunk is enough
to do the same for PNGs, which is what the bot sends.
"""

from __future__ import annotations

import mimetypes
import struct
import zlib

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_bytes(width: int = 1, height: int = 1, rgb: tuple[int, int, int] = (200, 60, 60)) -> bytes:
    """A real (decodable) RGB PNG filled with one colour."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    row = b"\x00" + bytes(rgb) * width
    raw = row * height
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        PNG_SIGNATURE
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


def png_size(data: bytes) -> tuple[int, int] | None:
    """``(width, height)`` if ``data`` starts like a PNG, else None."""
    if len(data) < 24 or not data.startswith(PNG_SIGNATURE) or data[12:16] != b"IHDR":
        return None
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def content_type_for(filename: str, data: bytes) -> str:
    """Sniff like Discord does (signature first, then the extension)."""
    if data.startswith(PNG_SIGNATURE):
        return "image/png"
    guessed, _ = mimetypes.guess_type(filename)
    return guessed or "application/octet-stream"
