"""Snowflakes, timestamps and tokens shaped like Discord's.

discord.py derives ``created_at`` from a snowflake and picks rate-limit buckets for message
deletes by a message's age, so the emulator issues real snowflakes (time in the high bits)
rather than small counters.

Guild ids also decide sharding: Discord sends a guild's events to shard
``(guild_id >> 22) % shard_count``, so the emulator can place a guild on a chosen shard by
nudging the timestamp part of its id a few milliseconds forward.
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

    def next(self, *, shard: tuple[int, int] | None = None) -> int:
        """The next snowflake; with ``shard=(shard_id, shard_count)`` one whose
        ``shard_of(id, shard_count)`` is ``shard_id``, found by moving its time up to
        ``shard_count - 1`` ms forward (so keep ``shard_count`` small)."""
        candidate = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        # Several ids in the same millisecond: bump the increment bits, as Discord does.
        if candidate <= self._last:
            candidate = self._last + 1
        if shard is not None:
            shard_id, shard_count = shard
            ms = candidate >> 22
            ahead = (shard_id - ms) % shard_count
            if ahead:
                candidate = (ms + ahead) << 22
        self._last = candidate
        return candidate


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard that gets ``guild_id``'s gateway events (Discord's formula)."""
    return (guild_id >> 22) % shard_count


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
