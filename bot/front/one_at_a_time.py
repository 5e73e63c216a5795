"""One at a time per key, in this process: the clicks on one challenge (racing Accepts all
reach the process serving its server's shard, so the loser is refused before it opens a
thread the bot could not delete; the database still decides who wins), and the relay's
senders of one match's announcements (so they keep their order)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator


class OneAtATime:
    """Locks by key, each dropped when nobody holds or waits for it."""

    def __init__(self) -> None:
        self._locks: dict[int, tuple[asyncio.Lock, int]] = {}

    @contextlib.asynccontextmanager
    async def hold(self, key: int) -> AsyncIterator[None]:
        lock, users = self._locks.get(key, (asyncio.Lock(), 0))
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users == 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)

    def __len__(self) -> int:
        return len(self._locks)
