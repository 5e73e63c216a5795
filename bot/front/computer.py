"""The computer opponent on Discord: its turns are searched in a process pool, so that no
other game waits for it and the gateway heartbeat never stalls. Its workers run at a lower
priority than the bot: on a busy machine the searches wait, not the acknowledgements
Discord wants within 3 s.

Nothing is kept in memory that a restart would lose: the games waiting for the computer are
found in the database (`service.computer_turns()`), on start-up and whenever woken.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bot import metrics
from bot.errors import ServiceError
from bot.front import worker_processes
from bot.front.ports import ComputerFront
from engine.api import load_match
from engine.errors import GameError

log = logging.getLogger("schotten.bot")
# How much nicer than the bot the search workers are (os.nice): the bot's event loop gets
# the processor first, a search still gets its share (at 5, about a third of the bot's).
WORKER_NICENESS = 5


def _worker_start() -> None:
    """In each worker process, once: give way to the bot, and end with it."""
    worker_processes.start(WORKER_NICENESS)


def choose(state: dict[str, Any], seat: int, level: str, seed: int) -> str:
    """In a worker process: the computer's move, from its own view only."""
    from engine.ai import choose_move

    match = load_match(state)
    return choose_move(match.view(seat), level, seed=seed)


async def _timed(level: str, search: Awaitable[str]) -> str:
    start = time.perf_counter()
    try:
        return await search
    finally:
        metrics.COMPUTER_SECONDS.labels(level).observe(time.perf_counter() - start)


class Computer:
    """Plays the computer's seat in every game that waits for it."""

    def __init__(self, front: ComputerFront, *, workers: int = 1) -> None:
        self.front = front
        self.pool: ProcessPoolExecutor | None = None
        self.workers = workers
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.rng = random.Random()

    def start(self) -> None:
        self.pool = ProcessPoolExecutor(max_workers=self.workers, initializer=_worker_start)
        self._task = asyncio.create_task(self._run(), name="computer")
        self.wake()

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)

    def wake(self) -> None:
        self._wake.set()

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            try:
                turns = await self.front.service.computer_turns()
                await asyncio.gather(*(self._play(info) for info in turns))
            except Exception:  # keep the loop alive; the next wake retries
                log.exception("computer turns")

    async def _play(self, info: Any) -> None:
        seat = info.ai_seat
        assert seat is not None and self.pool is not None
        if not await self.front.service.claim_computer_turn(info):
            return  # another process, or an earlier wake of this one, is on it
        loop = asyncio.get_running_loop()
        state = info.match.to_json()
        seed = self.rng.getrandbits(62)
        search = asyncio.ensure_future(
            _timed(
                info.ai_level,
                loop.run_in_executor(self.pool, choose, state, seat, info.ai_level, seed),
            )
        )
        channel = await self.front.channel(info.channel_id)
        typing = getattr(channel, "typing", None)
        if typing is not None:
            try:
                async with typing():  # "Computer is typing…" while it thinks
                    text = await search
            except Exception as e:  # the indicator is a nicety
                if isinstance(e, asyncio.CancelledError):
                    raise
                text = await search
        else:
            text = await search
        try:
            result = await self.front.service.computer_move(
                info.id, text, expected_version=info.version
            )
        except (ServiceError, GameError) as e:
            log.warning("computer move %r refused in game %s: %s", text, info.id, e)
            return
        await self.front.after_move(result)
        if result.info.to_decide == seat and not result.finished:
            self.wake()  # the computer owes another decision (a claim, a draw choice...)
