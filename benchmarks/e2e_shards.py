"""End-to-end figure of a sharded bot: the load of benchmarks/e2e.py (20 games, 20 typed
moves a second between them) through the loopback Discord emulator, against two bot
processes of two shards each (4 shards in all, `bot.sandbox.processes`) on one PostgreSQL
database, the games in servers on all four shards (five on each).

`e2e_shards_move_p95_ms`: from a `/schotten move`'s dispatch to the board picture of the
new position arriving, as `e2e_move_p95_ms` measures it. Emulator, members, both bot
processes and PostgreSQL share this machine's two cores.

PostgreSQL is a throwaway cluster with PostgreSQL's own durability defaults (a commit is on
disk before it returns), as benchmarks/service_pg.py runs it. Without PostgreSQL's server
programs nothing is measured (one line on stderr says so).
"""

from __future__ import annotations

import asyncio
import logging
import statistics
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from benchmarks.e2e import GAMES, paced_moves, start_games
from benchmarks.timing import figure
from bot.sandbox.processes import BotProcess
from bot.service import GameService
from discord_loopback import Emulator
from tests.pg import MISSING, Cluster, server_bin

SHARD_COUNT = 4
PROCESSES = [(0, 1), (2, 3)]  # the shards of each bot process


async def _bench(cluster: Cluster) -> list[float]:
    logging.getLogger("discord").setLevel(logging.ERROR)
    url = await cluster.create_database("e2e_shards")
    with tempfile.TemporaryDirectory() as tmp:
        async with Emulator() as emu:
            guilds = [emu.create_guild(f"Bench {s}", shard=(s, SHARD_COUNT)) for s in range(4)]
            members = []
            tables = []
            for g in range(GAMES):
                guild = guilds[g % SHARD_COUNT]
                a, b = guild.add_member(f"p{2 * g}"), guild.add_member(f"p{2 * g + 1}")
                members += [a, b]
                tables.append((guild.create_text_channel(f"table-{g}"), a, b))
            bots = [
                BotProcess(
                    emu,
                    url,
                    log=Path(tmp) / f"bot-{first}-{last}.log",
                    shards=(first, last),
                    shard_count=SHARD_COUNT,
                )
                for first, last in PROCESSES
            ]
            service: GameService | None = None
            try:
                await asyncio.gather(*(b.start() for b in bots))
                await emu.wait_for_bot(commands=["schotten"], shards=range(SHARD_COUNT))
                # This process reads the games (whose turn, the legal moves) on its own
                # connections, as the in-process benchmark reads them through the bot's.
                service = await GameService.open(url, pool_size=4)
                games = await start_games(service, tables)
                await asyncio.sleep(1.0)  # let the opening boards and DMs go out
                _, moves = await paced_moves(emu, service, games, members)
                await asyncio.sleep(1.0)  # let the last DMs go out before stopping
                return moves
            finally:
                if service is not None:
                    await service.close()
                codes = await asyncio.gather(*(b.stop() for b in bots if b.proc is not None))
                if any(codes):
                    raise RuntimeError(f"a bot process did not stop cleanly: exit codes {codes}")


def run() -> Iterator[str]:
    if server_bin() is None:
        print(f"e2e_shards: not measured: {MISSING}", file=sys.stderr)
        return
    cluster = Cluster(durable=True)
    try:
        cluster.start()
        moves = asyncio.run(_bench(cluster))
    finally:
        cluster.stop()
    yield figure("e2e_shards_move_p95_ms", statistics.quantiles(moves, n=20)[-1] * 1000, "ms")
