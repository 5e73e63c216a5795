"""Where the e2e benchmark's CPU goes: a summary of a py-spy profile by layer and function.

    .venv/bin/pip install py-spy
    .venv/bin/py-spy record -r 100 --subprocesses --format raw -o e2e.raw -- \\
        .venv/bin/python -m benchmarks e2e_move e2e_ack e2e_cpu e2e_capacity e2e_emulator
    .venv/bin/python -m benchmarks.profile_layers e2e.raw

(`e2e_move ...` runs the e2e suite alone, not e2e_shards.) py-spy samples every thread;
with `--subprocesses`, of the benchmark's process (the loopback Discord and the players),
of the bot's (a child: benchmarks/e2e_bot.py) and of its picture process, all summed here
(leave it out for the benchmark's process alone, or give `-p` the id of one of the others).
aiosqlite's threads count too; threads waiting for work are left out. Layers as in
benchmarks/layers.py.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

from benchmarks.layers import IDLE, layer_of

# Other suites' work, when a profile was taken of more than the e2e suite.
ELSEWHERE = "benchmarks/e2e_shards.py"
FRAME = re.compile(r"^(.*) \((.+?)(?::\d+)?\)$")
MINE = re.compile(r"\((bot|render|lang|discord|discord_loopback|engine)/")


def _frame(text: str) -> tuple[str, str]:
    found = FRAME.match(text)
    return (found.group(1), found.group(2)) if found else (text, "")


def summarise(path: Path, top: int = 30) -> str:
    layers: Counter[str] = Counter()
    own: Counter[str] = Counter()
    cumulative: Counter[str] = Counter()
    total = 0
    for line in path.read_text().splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack:
            continue
        count = int(count_text)
        # py-spy --subprocesses heads each stack with its process: not a frame.
        texts = [t for t in stack.split(";") if not t.startswith("process ")]
        if not texts or IDLE.match(texts[-1]) or ELSEWHERE in stack:
            continue
        frames = [_frame(t) for t in texts]
        total += count
        layers[layer_of(frames)] += count
        own[texts[-1]] += count
        for name, file in set(frames):
            cumulative[f"{name} ({file})"] += count

    def pct(n: int) -> str:
        return f"{100 * n / total:5.1f}%"

    out = [f"{total} samples (idle waits left out)", "", "by layer (innermost known frame):"]
    out += [f"  {pct(n)}  {name}" for name, n in layers.most_common()]
    out += ["", f"own time (by line), top {top}:"]
    out += [f"  {pct(n)}  {name}" for name, n in own.most_common(top)]
    out += ["", f"cumulative (project code and discord.py, by function), top {top}:"]
    mine = [(name, n) for name, n in cumulative.most_common() if MINE.search(name)]
    out += [f"  {pct(n)}  {name}" for name, n in mine[:top]]
    return "\n".join(out)


if __name__ == "__main__":
    print(summarise(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 30))
