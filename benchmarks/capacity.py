"""How many servers one bot process holds: the real bot in a child process (`bot.sandbox.processes`,
as `schotten-bot run` runs it) connects to the loopback Discord emulator with a few servers,
then with 2,500 (the most one shard may have; Discord requires sharding past that), each
with ten text channels and a few roles, as small community servers have. The bot asks for
no privileged intents, so Discord sends it no member lists, and keeps no game in memory.

`capacity_ready_s`: from the process's start to discord.py's READY with all 2,500 servers.
`capacity_rss_mb`: the process's resident memory then, settled.
`capacity_kb_per_server`: the memory one more server costs (2,500 against 50 servers).
"""

from __future__ import annotations

import asyncio
import logging
import statistics
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from benchmarks.timing import figure
from bot.sandbox.processes import BotProcess
from discord_loopback import Emulator

SERVERS = 2500
FEW = 50
CHANNELS = [f"channel-{i}" for i in range(10)]
RUNS = 3


def _rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


async def _one(servers: int, tmp: Path) -> tuple[float, int]:
    """(seconds to READY, resident KB) for a bot process in `servers` servers."""
    async with Emulator() as emu:
        for i in range(servers):
            emu.create_guild(f"Server {i}", channels=CHANNELS, shard=(0, 1))
        log = tmp / f"capacity-{servers}.log"
        start = time.perf_counter()
        process = BotProcess(emu, tmp / f"capacity-{servers}.sqlite3", log=log, shard_count=1)
        async with process:
            while f"({servers} servers" not in process.log_text():
                if process.returncode is not None:
                    raise RuntimeError(f"the bot stopped:\n{process.log_text()}")
                await asyncio.sleep(0.05)
            ready = time.perf_counter() - start
            await asyncio.sleep(2.0)  # let the start's work (outbox, timers) settle
            assert process.pid is not None
            rss = _rss_kb(process.pid)
            await process.stop()
    return ready, rss


def run() -> Iterator[str]:
    logging.getLogger("discord").setLevel(logging.ERROR)
    ready: list[float] = []
    rss: list[int] = []
    per: list[float] = []
    with tempfile.TemporaryDirectory() as d:
        for _ in range(RUNS):
            _, few = asyncio.run(_one(FEW, Path(d)))
            seconds, many = asyncio.run(_one(SERVERS, Path(d)))
            ready.append(seconds)
            rss.append(many)
            per.append((many - few) / (SERVERS - FEW))
    yield figure("capacity_ready_s", statistics.median(ready), "s")
    yield figure("capacity_rss_mb", statistics.median(rss) / 1024, "MB")
    yield figure("capacity_kb_per_server", statistics.median(per), "KB")
