"""End-to-end figures through the loopback Discord emulator: 20 games played at once, making
20 moves per second between them (about what Discord's global rate limit lets one bot
answer), each move typed as `/schotten move`.

`e2e_ack_p95_ms`: from the interaction's dispatch to the bot's first response (its defer).
`e2e_move_p95_ms`: from the dispatch to the board picture of the new position arriving.
`e2e_ack_p99_ms_loaded`: the acknowledgement's 99th percentile for the same load played on
with two CPU-bound processes running beside (as on a busy machine: Discord drops an
interaction not acknowledged within 3 s, whatever the load).
Emulator, bot and players share this process and its two cores, so these are upper bounds.

`start_games` and `paced_moves` are the load; benchmarks/e2e_shards.py plays the same one
against bot processes of their own.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from benchmarks.timing import figure
from bot.sandbox import running_bot
from bot.service import GameService
from discord_loopback import ChatEvent, Emulator, SimChannel, SimMember

GAMES = 20
RATE = 20.0  # moves per second, all games together
MOVES = 240
VARIANTS = ["classic", "tactics", "expert", "siege", "siege-tactics"]
HOGS = 2  # CPU-bound processes beside the bot for the loaded figure

# Where one game is played: its channel and its two members.
Table = tuple[SimChannel, SimMember, SimMember]


async def start_games(service: GameService, tables: Sequence[Table]) -> list[int]:
    """At each table the first member challenges the second, who accepts: the games' ids
    (read through `service`, on the bot's database), once each has started."""
    games = []
    for g, (channel, a, b) in enumerate(tables):
        h = await a.slash(
            ("schotten", "challenge"),
            where=channel,
            opponent=b,
            game=VARIANTS[g % len(VARIANTS)],
        )
        challenge = await h.reply(timeout=10)
        await (await b.click(challenge, label="Accept")).ack(timeout=10)
        guild = channel.guild
        assert guild is not None
        for _ in range(400):
            found = await service.active_matches_of(guild.id, a.id)
            if found:
                games.append(found[0].id)
                break
            await asyncio.sleep(0.01)
    return games


async def paced_moves(
    emu: Emulator, service: GameService, games: list[int], members: Sequence[SimMember]
) -> tuple[list[float], list[float]]:
    """MOVES typed moves, RATE a second, the games in turn (a game whose last move is still
    under way is skipped): each move's acknowledgement time (the deadline for one Discord
    would drop) and, for each acknowledged one, its time until the board of the new
    position arrived, in seconds."""
    boards: dict[str, asyncio.Future[float]] = {}

    def on_chat(event: ChatEvent) -> None:
        for a in getattr(event.message, "attachments", []) or []:
            fut = boards.get(a.filename)
            if fut is not None and not fut.done():
                fut.set_result(time.perf_counter())

    unsubscribe = emu.subscribe(on_chat)
    by_id = {m.id: m for m in members}
    acks: list[float] = []
    moves: list[float] = []
    busy: set[int] = set()
    rng = random.Random(5)

    async def one_move(match_id: int) -> None:
        """One turn: its steps in turn (a claim or a tactic's choices leave the turn open,
        and their boards are held back, R-23), the last one measured to its board."""
        info = await service.match(match_id)
        while not info.is_over and info.deciding_user is not None:
            legal = [str(m) for m in info.match.legal_moves()]
            good = [m for m in legal if m.startswith(("claim", "control"))]
            move = good[0] if good else rng.choice(legal)
            name = f"board-{match_id}-{info.version + 1}.png"
            arrived = asyncio.get_running_loop().create_future()
            boards[name] = arrived
            member = by_id[info.deciding_user]
            thread = emu.world.channel(info.channel_id)
            start = time.perf_counter()
            handle = await member.slash(("schotten", "move"), where=thread, notation=move)
            await handle.wait_until(lambda h: h.acked or h.expired, 10, "an acknowledgement")
            if handle.ack_latency is None:  # dropped by Discord: counts as the deadline
                acks.append(emu.interactions.deadline)
                return
            acks.append(handle.ack_latency)
            after = await service.match(match_id)
            waited = time.perf_counter() + 10
            while after.version == info.version:  # acknowledged first, stored just after
                if time.perf_counter() > waited:
                    raise RuntimeError(f"move {move!r} of game {match_id} was never stored")
                await asyncio.sleep(0.005)
                after = await service.match(match_id)
            if after.is_over or after.deciding_user != member.id:  # the turn ended here
                end = await asyncio.wait_for(arrived, timeout=30)
                moves.append(end - start)
                return
            boards.pop(name, None)  # held back: the turn's last step posts its board
            info = after

    async def guarded(match_id: int) -> None:
        try:
            await one_move(match_id)
        finally:
            busy.discard(match_id)

    try:
        tasks = []
        order = itertools.cycle(games)
        period = 1.0 / RATE
        next_tick = time.perf_counter()
        while len(tasks) < MOVES:
            match_id = next(order)
            if match_id in busy:
                if len(busy) == len(games):  # every game's last move is still under way
                    await asyncio.sleep(period)
                continue
            busy.add(match_id)
            tasks.append(asyncio.create_task(guarded(match_id)))
            next_tick += period
            await asyncio.sleep(max(0.0, next_tick - time.perf_counter()))
        await asyncio.gather(*tasks)
        return acks, moves
    finally:
        unsubscribe()


@contextmanager
def cpu_hogs(count: int = HOGS) -> Iterator[None]:
    """`count` processes that keep a core busy each, as long as the block runs."""
    # Each stops by itself should this process die without stopping it.
    spin = "import os\nparent = os.getppid()\nwhile os.getppid() == parent:\n    pass"
    hogs = [
        subprocess.Popen([sys.executable, "-c", spin], stdin=subprocess.DEVNULL)
        for _ in range(count)
    ]
    try:
        yield
    finally:
        for hog in hogs:
            hog.kill()
        for hog in hogs:
            hog.wait()


async def _bench() -> tuple[list[float], list[float], list[float]]:
    logging.getLogger("discord").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory() as tmp:
        async with Emulator() as emu, emu.point_discord():
            guild = emu.create_guild("Bench")
            members = [guild.add_member(f"p{i}") for i in range(2 * GAMES)]
            async with running_bot(emu, Path(tmp) / "e2e.sqlite3") as bot:
                assert bot.service is not None
                tables = [
                    (guild.create_text_channel(f"table-{g}"), members[2 * g], members[2 * g + 1])
                    for g in range(GAMES)
                ]
                games = await start_games(bot.service, tables)
                await asyncio.sleep(1.0)  # let the opening boards and DMs go out
                acks, moves = await paced_moves(emu, bot.service, games, members)
                await asyncio.sleep(1.0)  # let the last DMs go out
                # The same games play on, the machine busy beside the bot.
                with cpu_hogs():
                    loaded, _ = await paced_moves(emu, bot.service, games, members)
                await asyncio.sleep(1.0)  # let the last DMs go out before closing
                return acks, moves, loaded


def run() -> Iterator[str]:
    acks, moves, loaded = asyncio.run(_bench())
    yield figure("e2e_move_p95_ms", statistics.quantiles(moves, n=20)[-1] * 1000, "ms")
    yield figure("e2e_ack_p95_ms", statistics.quantiles(acks, n=20)[-1] * 1000, "ms")
    yield figure("e2e_ack_p99_ms_loaded", statistics.quantiles(loaded, n=100)[-1] * 1000, "ms")
