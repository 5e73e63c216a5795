#!/bin/sh
# The e2e figures of this tree and of an older one, run alternately (issue 32):
#
#     benchmarks/compare_e2e.sh OLD_TREE [ROUNDS]
#
# OLD_TREE: a checkout of the commit to compare with, with its own .venv, e.g.
#     git worktree add --detach /work/wt-old d1d5b0c
#     (cd /work/wt-old && python3 -m venv .venv && .venv/bin/pip install -e '.[dev]')
# Each round runs this tree's benchmarks/e2e.py against OLD_TREE's bot and emulator (the
# same load and figures: CPU per move, capacity; a shim, written below, starts its bot),
# then against this tree; ROUNDS rounds (3 by default), each run headed by `uptime` (the
# load of a shared machine), and the medians at the end. OLD_OWN=1 also runs OLD_TREE's
# own `python -m benchmarks e2e` in each round (older trees measure single steps rather
# than whole turns there, and print no CPU or capacity figure).
set -eu
old=$(cd "$1" && pwd)
rounds=${2:-3}
new=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
shim="$out/shim"
mkdir -p "$shim/e2ebench"
touch "$shim/e2ebench/__init__.py"
cp "$new/benchmarks/timing.py" "$new/benchmarks/layers.py" "$shim/e2ebench/"
sed -e 's/^from benchmarks\./from e2ebench./' \
    -e 's/^from bot\.sandbox import running_bot/from e2ebench.compat import running_bot/' \
    -e 's/^from discord_loopback import/from bot.emulator import/' \
    "$new/benchmarks/e2e.py" > "$shim/e2ebench/e2e.py"
cat > "$shim/e2ebench/compat.py" <<'PY'
"""running_bot for a tree from before bot/sandbox (its emulator in bot/emulator)."""
import asyncio
import contextlib
from pathlib import Path

from bot.config import Config
from bot.front.client import SchottenBot


@contextlib.asynccontextmanager
async def running_bot(emu, database: Path):
    bot = SchottenBot(Config(database=database, timer_seconds=3600), guild_ready_timeout=0.1)
    runner = asyncio.create_task(bot.start(emu.token))
    try:
        await emu.wait_for_bot(commands=["schotten"])
        await bot.wait_until_ready()
        yield bot
    finally:
        await bot.close()
        await runner
PY
run_new() {
    (cd "$new" && .venv/bin/python -m benchmarks e2e_move e2e_ack e2e_cpu e2e_capacity \
        e2e_drawing e2e_emulator e2e_players e2e_bot)
}
run_old() {
    if [ ! -d "$old/discord_loopback" ]; then
        (cd "$shim" && PYTHONPATH="$old" "$old/.venv/bin/python" -c \
            'from e2ebench import e2e
for line in e2e.run(): print(line, flush=True)')
    else  # a tree with discord_loopback and bot.sandbox: this tree's e2e.py as it is
        sed -e 's/^from e2ebench\.compat import running_bot/from bot.sandbox import running_bot/' \
            -e 's/^from bot\.emulator import/from discord_loopback import/' \
            -i "$shim/e2ebench/e2e.py"
        (cd "$shim" && PYTHONPATH="$old" "$old/.venv/bin/python" -c \
            'from e2ebench import e2e
for line in e2e.run(): print(line, flush=True)')
    fi
}
i=1
while [ "$i" -le "$rounds" ]; do
    for which in old new; do
        echo "== round $i, $which: $(uptime)"
        "run_$which" | sed "s/^/$which /" | tee -a "$out/figures"
        if [ "$which" = old ] && [ "${OLD_OWN:-0}" = 1 ]; then
            (cd "$old" && .venv/bin/python -m benchmarks e2e_move e2e_ack) |
                sed "s/^/old-own /" | tee -a "$out/figures"
        fi
    done
    i=$((i + 1))
done
echo "== medians of $rounds rounds"
python3 - "$out/figures" <<'PY'
import statistics
import sys
from collections import defaultdict

values = defaultdict(list)
for line in open(sys.argv[1]):
    which, name, value, unit = line.split()
    values[(which, name, unit)].append(float(value))
for (which, name, unit), vs in sorted(values.items(), key=lambda kv: (kv[0][1], kv[0][0])):
    print(f"{which:8} {name:32} {statistics.median(vs):10.1f} {unit}   ({', '.join(map(str, vs))})")
PY
