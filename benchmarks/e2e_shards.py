"""End-to-end figure of a sharded bot: the load of benchmarks/e2e.py (20 games, 20 typed
moves a second between them) through the loopback Discord emulator, against two bot
processes of two shards each (4 shards in all, `bot.sandbox.processes`) on one PostgreSQL
database, the games in servers on all four shards (five on each).

`e2e_shards_move_p95_ms`: from a `/schotten move`'s dispatch to the board picture of the
new position arriving, as `e2e_move_p95_ms` measures it. Emulator, members, both bot
processes and PostgreSQL share this machine's two cores.

`e2e_shards_takeover_s`: a move is typed in a game of the first process's shards, and that
process is SIGKILLed the moment the move is stored (before its board is posted); the
figure is the time from the kill to that board's arrival, posted by the other process once
the heartbeats show the first one dead (the median of `KILLS` kills, each followed by a
replacement process, as a supervisor would start one).

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
import time
from collections.abc import Iterator
from pathlib import Path

from benchmarks.e2e import GAMES, paced_moves, start_games
from benchmarks.timing import figure
from bot.sandbox.processes import BotProcess
from bot.service import GameService
from discord_loopback import ChatEvent, Emulator, SimMember
from engine.api import Playable, load_match
from tests.pg_cluster import MISSING, Cluster, server_bin

SHARD_COUNT = 4
PROCESSES = [(0, 1), (2, 3)]  # the shards of each bot process
KILLS = 3


def _turn_ending(match: Playable) -> str | None:
    """A legal move after which the other player decides: its board is posted at once (a
    claim, or a tactic's first choice, keeps the turn open and its board held back; so does
    any move when the other player has none left). None if there is none."""
    seat = match.to_decide
    legal = [str(m) for m in match.legal_moves()]
    for move in legal:
        trial = load_match(match.to_json())
        trial.play(move, seat)
        if trial.is_over or trial.to_decide != seat:
            return move
    return None


async def _kill_after_a_move(
    emu: Emulator,
    service: GameService,
    bots: list[BotProcess],
    game: int,
    members: dict[int, SimMember],
    tmp: str,
) -> float:
    """Type a move in `game` (of the first process's shards), SIGKILL that process as soon as
    the move is stored, and return the seconds until the new position's board arrives;
    then start a replacement for the killed shards."""
    info = await service.match(game)
    assert not info.is_over and info.deciding_user is not None
    board = f"board-{game}-{info.version + 1}.png"
    arrived: asyncio.Future[float] = asyncio.get_running_loop().create_future()

    def on_chat(event: ChatEvent) -> None:
        for a in getattr(event.message, "attachments", []) or []:
            if a.filename == board and not arrived.done():
                arrived.set_result(time.perf_counter())

    unsubscribe = emu.subscribe(on_chat)
    try:
        member = members[info.deciding_user]
        thread = emu.world.channel(info.channel_id)
        move = _turn_ending(info.match)
        assert move is not None
        await member.slash(("schotten", "move"), where=thread, notation=move)
        while (await service.match(game)).version == info.version:
            await asyncio.sleep(0.002)
        bots[0].kill()
        killed = time.perf_counter()
        await bots[0].exit_code()
        if arrived.done():
            raise RuntimeError("the board was posted before the kill: nothing was taken over")
        try:
            took = await asyncio.wait_for(arrived, timeout=120) - killed
        except TimeoutError:
            rows = await service.store._all(
                "SELECT id, kind, status, version, lease_until, leased_by, next_try, attempts,"
                " deferred, created_by, error FROM outbox WHERE match_id = ? ORDER BY id DESC"
                " LIMIT 6",
                (game,),
            )
            beats = await service.store._all("SELECT * FROM processes")
            raise RuntimeError(
                f"{board} never came at {time.time()}; rows {[dict(r) for r in rows]};"
                f" beats {[dict(b) for b in beats]}"
            ) from None
    finally:
        unsubscribe()
    first, last = PROCESSES[0]
    bots[0] = BotProcess(
        emu,
        bots[0].database,
        log=Path(tmp) / f"bot-{first}-{last}-{time.monotonic_ns()}.log",
        shards=(first, last),
        shard_count=SHARD_COUNT,
    )
    await bots[0].start()
    await emu.wait_for_bot(commands=["schotten"], shards=range(SHARD_COUNT))
    return took


async def _bench(cluster: Cluster) -> tuple[list[float], list[float]]:
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
                takeovers = []
                # Games in servers of the first process's shards (0 and 1), not over.
                ours = [
                    game
                    for g, game in enumerate(games)
                    if g % SHARD_COUNT <= PROCESSES[0][1]
                    and _turn_ending((await service.match(game)).match) is not None
                ]
                for game in ours[:KILLS]:
                    by_id = {m.id: m for m in members}
                    took = await _kill_after_a_move(emu, service, bots, game, by_id, tmp)
                    takeovers.append(took)
                return moves, takeovers
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
        moves, takeovers = asyncio.run(_bench(cluster))
    finally:
        cluster.stop()
    yield figure("e2e_shards_move_p95_ms", statistics.quantiles(moves, n=20)[-1] * 1000, "ms")
    yield figure("e2e_shards_takeover_s", statistics.median(takeovers), "s")
