"""The e2e benchmark counts the CPU of the bot's process and of every process it started
(benchmarks/e2e_bot.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from benchmarks.e2e_bot import cpu_seconds, descendants

# A child that starts a grandchild burning CPU, then waits for it.
PARENT = (
    "import subprocess, sys\n"
    "spin = 'import time\\nend = time.process_time() + 0.4\\n'\n"
    "spin += 'while time.process_time() < end: pass\\ntime.sleep(60)'\n"
    "subprocess.run([sys.executable, '-c', spin])\n"
)


def test_the_grandchildren_and_their_cpu_are_counted() -> None:
    child = subprocess.Popen([sys.executable, "-c", PARENT])
    try:
        found: list[int] = []
        for _ in range(500):
            found = descendants(child.pid)
            if found and cpu_seconds(found) >= 0.4:
                break
            time.sleep(0.02)
        assert len(found) == 1  # the grandchild, not the child itself
        assert descendants(found[0]) == []
        assert cpu_seconds(found) >= 0.4
        assert cpu_seconds([child.pid]) < 0.4  # the child only waits
    finally:
        for pid in descendants(child.pid):
            os.kill(pid, signal.SIGKILL)
        child.kill()
        child.wait()
