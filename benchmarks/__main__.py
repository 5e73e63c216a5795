"""Run the benchmarks: `python -m benchmarks` for all, or name prefixes to pick some
(`python -m benchmarks st1`). Each line is `name value unit`."""

from __future__ import annotations

import importlib
import sys

SUITES = ["st1", "st2", "render", "service", "service_pg", "e2e", "turns", "ai"]


def main(argv: list[str]) -> int:
    wanted = argv or SUITES
    for name in SUITES:
        if not any(name.startswith(w) or w.startswith(name) for w in wanted):
            continue
        suite = importlib.import_module(f"benchmarks.{name}")
        for line in suite.run():
            if not argv or any(line.startswith(w) or w == name for w in wanted):
                print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
