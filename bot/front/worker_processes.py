"""What every worker process of the bot's does first (the computer's search, the pictures):
give way to the bot, and end when the bot ends.

A process pool's worker waits for work on a pipe it also holds the other end of, so when
the bot is killed (SIGKILL, the memory killer, a crash) nothing tells it: it would wait
forever, holding its memory, and a fork server with it. So each watches the process that
started it and exits when that one has gone (tests/bot/test_worker_processes.py).
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from multiprocessing.process import BaseProcess


def start(niceness: int) -> None:
    """In a worker process, once: be `niceness` nicer than the bot; end with the bot."""
    os.nice(niceness)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(
            target=_end_with, args=(parent,), name="end-with-the-bot", daemon=True
        ).start()


def _end_with(parent: BaseProcess) -> None:
    parent.join()  # returns once the parent has gone, however it ended
    os._exit(0)
