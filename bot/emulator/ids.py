"""Snowflakes, timestamps and tokens shaped like Discord's.

discord.py derives ``created_at`` from a snowflake and picks rate-limit buckets for message
deletes by a message's age, so the emulator issues real snowflakes (time in the high bits)
rather than small counters.
"""

from __future__ import annotations

import datetime as dt
import secrets
import time

DISCORD_EPOCH_MS = 1_420_070_400_000


class SnowflakeGenerator:
    """Issues strictly increasing snowflakes whose timestamp part is the current time."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        candidate = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        # Several ids in the same millisecond: bump the increment bits, as Discord does.
        if candidate <= self._last:
            candidate = self._last + 1
        self._last = candidate
        return candidate


def snowflake_time(snowflake: int) -> dt.datetime:
    """The creation time encoded in ``snowflake``."""
    ms = (snowflake >> 22) + DISCORD_EPOCH_MS
    return dt.datetime.fromtimestamp(ms / 1000, tz=dt.UTC)


def iso(moment: dt.datetime) -> str:
    """ISO 8601 with an offset, the format discord.py's ``utils.parse_time`` reads."""
    return moment.isoformat()


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def new_token(prefix: str) -> str:
    """An unguessable URL-safe token (interaction tokens travel in URL paths)."""
    return f"{prefix}.{secrets.token_urlsafe(24)}"
