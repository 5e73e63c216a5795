"""Time, injected: the service asks a clock for "now", so tests can move time forward."""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the epoch."""
        ...


class SystemClock:
    def now(self) -> float:
        return time.time()


class ManualClock:
    """A clock that moves only when told to (tests, benchmarks, the sandbox)."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.t = start

    def now(self) -> float:
        return self.t

    def advance(self, *, hours: float = 0.0, seconds: float = 0.0) -> None:
        self.t += hours * 3600 + seconds
