"""Run the benchmarks: `python -m benchmarks` for all, or name prefixes to pick some
(`python -m benchmarks st1`). Each line is `name value unit`. `--store postgresql` runs the
week (benchmarks/week.py) on PostgreSQL rather than SQLite."""

from __future__ import annotations

import importlib
import os
import sys

SUITES = [
    "st1",
    "st2",
    "render",
    "service",
    "service_pg",
    "e2e",
    "e2e_shards",
    "capacity",
    "turns",
    "ai",
    "replay",
    "analysis",
    "tournament",
    "loopback",
    "week",
]


def _runs(name: str, word: str) -> bool:
    """Whether suite `name` may print a figure starting with `word`: its figures start
    with its name, so when `word` is longer, only the suite with the longest name that
    `word` starts with is run (`e2e_shards` runs e2e_shards, not e2e as well)."""
    if name.startswith(word):
        return True
    owners = [s for s in SUITES if word.startswith(s)]
    return bool(owners) and name == max(owners, key=len)


def _take_store(argv: list[str]) -> list[str]:
    """`--store NAME` out of the arguments, into the week's WEEK_STORE."""
    if "--store" not in argv:
        return argv
    at = argv.index("--store")
    if at + 1 >= len(argv):
        raise SystemExit("--store needs a name: sqlite or postgresql")
    os.environ["WEEK_STORE"] = argv[at + 1]
    return argv[:at] + argv[at + 2 :]


def main(argv: list[str]) -> int:
    argv = _take_store(argv)
    wanted = argv or SUITES
    for name in SUITES:
        if not any(_runs(name, w) for w in wanted):
            continue
        suite = importlib.import_module(f"benchmarks.{name}")
        for line in suite.run():
            if not argv or any(line.startswith(w) or w == name for w in wanted):
                print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
