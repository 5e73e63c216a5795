"""The bot's worker processes (the pictures', the computer's search) end when the bot is
killed, with the fork server the pictures' come from: nothing is left holding memory after
a SIGKILL (bot/front/worker_processes.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]


def _running(pid: int) -> bool:
    """Whether `pid` runs (a zombie waiting to be reaped has ended)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


@pytest.mark.parametrize("kind", ["painter", "computer"])
def test_workers_end_when_the_bot_is_killed(kind):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.bot.worker_child", kind],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        pids = [int(p) for p in child.stdout.readline().split()]
        others = [p for p in pids if p != child.pid]
        assert others and all(_running(p) for p in others)
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    deadline = time.monotonic() + 30
    while any(_running(p) for p in others) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [p for p in others if _running(p)]
