"""The pictures of a move, drawn off the event loop: the channel's board and a player's hand
(the board from their side with their hand under it).

By default they are drawn in threads (`[render] workers = 0`). Pillow lets go of Python's
interpreter lock only inside its C calls, so the drawing code between them still competes
with everything else the bot process does; with `[render] workers = N` they are drawn in N
processes of their own instead, the game sent as its saved state (the same JSON the
database keeps) and the picture's PNG bytes sent back. Either way the same bytes.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bot.records import MatchInfo
from engine.api import Playable, load_match

# Drawing gives way to the bot's own work on a busy machine, as the computer's search does.
WORKER_NICENESS = 2


def _worker_start() -> None:
    os.nice(WORKER_NICENESS)


def draw(match: Playable, seat: int | None, names: Sequence[str], locale: str) -> bytes:
    """The board as everyone may see it (`seat` None), or a seat's turn picture: the board
    from their side with their hand under it, so that on a phone the DM alone is enough to
    decide (render/turn.py)."""
    from render import render_board, render_turn

    if seat is None:
        return render_board(match.view(None), names=names, locale=locale)
    return render_turn(match.view(seat), names=names, name=names[seat], locale=locale)


def _draw_saved(
    state: dict[str, Any], seat: int | None, names: Sequence[str], locale: str
) -> bytes:
    """In a worker process: `draw` from the game's saved state."""
    return draw(load_match(state), seat, names, locale)


class Painter:
    """Draws a game's pictures in threads, or in `workers` processes."""

    def __init__(self, workers: int = 0) -> None:
        self.workers = workers
        self.pool: ProcessPoolExecutor | None = None

    def start(self) -> None:
        if self.workers and self.pool is None:
            self.pool = ProcessPoolExecutor(max_workers=self.workers, initializer=_worker_start)

    def stop(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None

    async def board(self, info: MatchInfo, locale: str) -> bytes:
        return await self._draw(info, None, locale)

    async def hand(self, info: MatchInfo, seat: int, locale: str) -> bytes:
        return await self._draw(info, seat, locale)

    async def _draw(self, info: MatchInfo, seat: int | None, locale: str) -> bytes:
        names = list(info.names)
        if self.pool is None:
            return await asyncio.to_thread(draw, info.match, seat, names, locale)
        loop = asyncio.get_running_loop()
        state = info.match.to_json()
        return await loop.run_in_executor(self.pool, _draw_saved, state, seat, names, locale)
