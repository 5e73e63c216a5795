"""Timing helpers: this machine is shared and noisy, so every figure is a median of runs."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median_seconds(
    fn: Callable[[], object], *, runs: int = 5, before: Callable[[], object] | None = None
) -> float:
    """Median wall time of `runs` calls of fn, each after `before` (not timed)."""
    times = []
    for _ in range(runs):
        if before is not None:
            before()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def figure(name: str, value: float, unit: str) -> str:
    """One output line: `name value unit`."""
    text = f"{value:.3f}" if abs(value) < 100 else f"{value:.1f}"
    return f"{name} {text} {unit}"
