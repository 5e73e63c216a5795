#!/bin/sh
# The e2e figures of this tree and of an older one, run alternately (issue 32):
#
#     benchmarks/compare_e2e.sh OLD_TREE [ROUNDS]
#
# OLD_TREE: a checkout of the commit to compare with, with its own .venv, e.g.
#     git worktree add --detach /work/wt-old d1d5b0c
#     (cd /work/wt-old && python3 -m venv .venv && .venv/bin/pip install -e '.[dev]')
# Each round runs this tree's benchmarks/e2e.py against OLD_TREE's bot and emulator (the
# same load and figures: CPU per move, capacity; the bot in a process of its own, started
# for a tree from before bot/sandbox by the shim written below), then against this tree; ROUNDS rounds (3 by default), each run headed by `uptime` (the
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
cp "$new/benchmarks/timing.py" "$new/benchmarks/layers.py" "$new/benchmarks/e2e.py" \
    "$new/benchmarks/e2e_bot.py" "$shim/e2ebench/"
sed -e 's/^from benchmarks\./from e2ebench./' -i "$shim/e2ebench/e2e.py"
if [ ! -d "$old/discord_loopback" ]; then  # a tree from before bot/sandbox: its emulator in bot/emulator
    sed -e 's/^from discord_loopback import/from bot.emulator import/' -i "$shim/e2ebench/e2e.py"
    mv "$shim/e2ebench/e2e_bot.py" "$shim/e2ebench/e2e_bot_new.py"
    cat > "$shim/e2ebench/e2e_bot.py" <<'PY'
"""bot_apart for a tree from before bot/sandbox: its bot in a child process of the tree's own
Python, pointed at the emulator's URL as bot.sandbox.processes points it."""
import asyncio
import contextlib
import os
import sys

from bot.service import GameService
from e2ebench.e2e_bot_new import BotApart  # its CPU, read from /proc as for this tree's

CHILD = """
import asyncio, os, sys
from pathlib import Path
import discord.asset, discord.gateway, discord.http, yarl
base = sys.argv[1]
discord.http.Route.BASE = base + "/api/v10"
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL("ws" + base[4:] + "/gateway")
discord.asset.Asset.BASE = base
from bot.config import Config
from bot.front.client import SchottenBot
config = Config(database=Path(os.environ["E2E_DATABASE"]), timer_seconds=3600)
bot = SchottenBot(config, guild_ready_timeout=0.1)
asyncio.run(bot.start(os.environ["DISCORD_TOKEN"]))
"""


@contextlib.asynccontextmanager
async def bot_apart(emu, database, log):
    env = dict(os.environ, DISCORD_TOKEN=emu.token, E2E_DATABASE=str(database))
    with open(log, "wb") as out:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-c", CHILD, emu.base_url, env=env, stdout=out, stderr=out
        )
    try:
        await emu.wait_for_bot(commands=["schotten"])
        service = await GameService.open(database)
        try:
            yield BotApart(proc.pid, service)
        finally:
            await service.close()
    finally:
        proc.terminate()
        await proc.wait()
PY
fi
run_new() {
    (cd "$new" && .venv/bin/python -m benchmarks e2e_move e2e_ack e2e_cpu e2e_capacity \
        e2e_drawing e2e_emulator e2e_players e2e_bot)
}
run_old() {
    (cd "$shim" && PYTHONPATH="$old" "$old/.venv/bin/python" -c 'from e2ebench import e2e
for line in e2e.run(): print(line, flush=True)')
    if [ "${OLD_OWN:-0}" = 1 ]; then
        (cd "$old" && .venv/bin/python -m benchmarks e2e_move e2e_ack) | sed "s/^/own /"
    fi
}
i=1
while [ "$i" -le "$rounds" ]; do
    for which in old new; do
        echo "== round $i, $which: $(uptime)"
        "run_$which" | sed "s/^/$which /; s/^old own /old-own /" | tee -a "$out/figures"
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
