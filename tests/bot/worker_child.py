"""A process that starts a pool of the bot's worker processes, prints their pids and
their parent's (a fork server, or this process), then waits to be killed
(tests/bot/test_worker_processes.py)."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor


def _pid() -> int:
    return os.getpid()


def _parent_of(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as stat:
        return int(stat.read().rpartition(")")[2].split()[1])


KEPT: list[object] = []  # the pools, alive until the process is killed


async def _painter() -> list[int]:
    from bot.front.pictures import Painter
    from tests.bot.test_pictures import mid_game

    painter = Painter(workers=1)
    KEPT.append(painter)
    painter.start()
    await painter.board(mid_game("classic"), "en")
    return painter.pids()


def main() -> None:
    kind = sys.argv[1]
    if kind == "painter":
        workers = asyncio.run(_painter())
    else:
        from bot.front.computer import _worker_start  # the computer's pool, as it starts it

        pool = ProcessPoolExecutor(1, initializer=_worker_start)
        KEPT.append(pool)
        workers = [pool.submit(_pid).result()]
    print(" ".join(str(p) for p in [*workers, *{_parent_of(p) for p in workers}]), flush=True)
    time.sleep(600)


if __name__ == "__main__":
    multiprocessing.set_start_method("fork")  # the computer's pool's, on Linux
    main()
