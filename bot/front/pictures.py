"""The pictures of a move, drawn off the event loop: the channel's board and a player's hand
(the board from their side with their hand under it).

By default they are drawn in one process of their own (`[render] workers = 1`): Pillow lets
go of Python's interpreter lock only inside its C calls, so drawing in threads competes with
everything else the bot process does, and a turn's two pictures are most of a turn's CPU
(issue 32). The game is sent as its saved state (the same JSON the database keeps) and the
picture's PNG bytes sent back. One process keeps what a turn's pictures share (the board's
compressed rows, render/board.py) in one place; `[render] workers = 0` draws in threads of
the bot's process instead, `N` in N processes. Either way the same bytes.

The process is started from a fork server (a clean process, not a copy of the bot's with
its threads and connections) that has already loaded what pictures need
(bot/front/picture_worker.py), so a new one is ready at once. If it dies, the next picture
starts another; if that fails too, the picture is drawn in a thread, so a move never goes
without its board.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import multiprocessing
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot.front import worker_processes
from bot.records import MatchInfo
from engine.api import Playable, load_match
from engine.outcome import Outcome, Termination

log = logging.getLogger(__name__)

# Drawing gives way to the bot's own work on a busy machine, as the computer's search does.
WORKER_NICENESS = 2
PRELOAD = "bot.front.picture_worker"


def _worker_start() -> None:
    worker_processes.start(WORKER_NICENESS)


def draw(
    match: Playable, seat: int | None, names: Sequence[str], locale: str, aborted: bool = False
) -> bytes:
    """The board as everyone may see it (`seat` None), or a seat's turn picture: the board
    from their side with their hand under it, so that on a phone the DM alone is enough to
    decide (render/turn.py). `aborted`: the game has no result (rules notes R-28), whatever the
    engine's outcome says."""
    from render import render_board, render_turn

    view = match.view(seat)
    if aborted:
        view = dataclasses.replace(view, outcome=Outcome(None, Termination.ABORTED))
    if seat is None:
        return render_board(view, names=names, locale=locale)
    return render_turn(view, names=names, name=names[seat], locale=locale)


def _draw_saved(
    state: dict[str, Any], seat: int | None, names: Sequence[str], locale: str, aborted: bool
) -> bytes:
    """In a worker process: `draw` from the game's saved state."""
    return draw(load_match(state), seat, names, locale, aborted)


class Painter:
    """Draws a game's pictures in `workers` processes, or in threads (0). Each game's
    pictures are drawn in the same process (by its id), where its board's rows are kept."""

    def __init__(self, workers: int = 0) -> None:
        self.workers = workers
        self.pools: list[ProcessPoolExecutor] = []
        self.restarts = 0  # picture processes started again after one died

    def start(self) -> None:
        if self.workers and not self.pools:
            self.pools = [self._new_pool() for _ in range(self.workers)]

    def stop(self) -> None:
        for pool in self.pools:
            pool.shutdown(wait=False, cancel_futures=True)
        self.pools = []

    @property
    def running(self) -> bool:
        """Whether pictures are drawn in processes."""
        return bool(self.pools)

    def pids(self) -> list[int]:
        """The picture processes' ids (for the benchmarks' CPU figures and the tests)."""
        return [pid for pool in self.pools for pid in (pool._processes or {})]

    def pool_for(self, info: MatchInfo) -> ProcessPoolExecutor:
        """The process that draws this game's pictures."""
        return self.pools[info.id % len(self.pools)]

    @staticmethod
    def _new_pool() -> ProcessPoolExecutor:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([PRELOAD])
        return ProcessPoolExecutor(max_workers=1, mp_context=context, initializer=_worker_start)

    async def board(self, info: MatchInfo, locale: str) -> bytes:
        return await self._draw(info, None, locale)

    async def hand(self, info: MatchInfo, seat: int, locale: str) -> bytes:
        return await self._draw(info, seat, locale)

    async def _draw(self, info: MatchInfo, seat: int | None, locale: str) -> bytes:
        names = list(info.names)
        if self.pools:
            state = info.match.to_json()
            for attempt in (1, 2):
                if not self.pools:
                    break
                pool = self.pool_for(info)
                at = self.pools.index(pool)
                try:
                    loop = asyncio.get_running_loop()
                    return await loop.run_in_executor(
                        pool, _draw_saved, state, seat, names, locale, info.aborted
                    )
                except BrokenProcessPool:
                    log.warning(
                        "the picture process stopped (attempt %d); starting another", attempt
                    )
                    if at < len(self.pools) and self.pools[at] is pool:  # not yet replaced
                        pool.shutdown(wait=False, cancel_futures=True)
                        self.pools[at] = self._new_pool()
                        self.restarts += 1
            log.error("pictures cannot be drawn in a process; drawing this one in a thread")
        return await asyncio.to_thread(draw, info.match, seat, names, locale, info.aborted)
