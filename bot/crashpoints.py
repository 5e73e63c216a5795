"""Named instants at which a test can kill the bot, to prove that nothing is lost.

`reach(name)` does nothing unless the environment variable SCHOTTEN_CRASH_AT names this
instant (`name` or `name:N` for its N-th time, counted from 1): then the process kills
itself with SIGKILL on the spot, as a power cut or the OOM killer would, with no cleanup.
The end-to-end crash tests run the bot in a child process with it set.
"""

from __future__ import annotations

import os
import signal

_target = os.environ.get("SCHOTTEN_CRASH_AT", "")
_name, _, _nth = _target.partition(":")
_left = int(_nth) if _nth.isdigit() else 1
ENABLED = bool(_name)


def reach(name: str) -> None:
    global _left
    if not ENABLED or name != _name:
        return
    _left -= 1
    if _left <= 0:
        os.kill(os.getpid(), signal.SIGKILL)
