"""End-to-end figures through the loopback Discord emulator: 20 games played at once, making
20 moves per second between them (about what Discord's global rate limit lets one bot
answer), each move typed as `/schotten move`.

`e2e_ack_p95_ms`: from the interaction's dispatch to the bot's first response (its defer).
`e2e_move_p95_ms`: from the dispatch to the board picture of the new position arriving.
`e2e_ack_p99_ms_loaded`: the acknowledgement's 99th percentile for the same load played on
with two CPU-bound processes running beside (as on a busy machine: Discord drops an
interaction not acknowledged within 3 s, whatever the load).
Emulator, bot and players share this process and its two cores, so these are upper bounds.

`e2e_cpu_ms_per_move`: the CPU time of this process (every thread) and of the bot's
picture processes (`e2e_drawing_cpu_ms_per_move`, read from /proc) over the turns played
at that load; the part of this process's that went to the emulator
(`e2e_emulator_cpu_ms_per_move`: the loopback Discord's HTTP, gateway and validation,
which a real bot does not pay) and to the players (`e2e_players_cpu_ms_per_move`), by
sampling the threads' stacks (benchmarks/layers.py); `e2e_bot_cpu_ms_per_move` is the
rest, the drawing included.
`e2e_capacity_moves_per_s`: the rate is stepped up (CAPACITY_RATES, fresh games at each
step) and this is the turns a second actually served at the highest step whose
`e2e_move_p95_ms` stayed at most 1 s.

The bot runs with its default `[render] workers` (one process drawing the pictures);
`E2E_RENDER_WORKERS=N` runs it with N (0: in threads of this process).

`start_games` and `paced_moves` are the load; benchmarks/e2e_shards.py plays the same one
against bot processes of their own.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.layers import CpuSampler
from benchmarks.timing import figure
from bot.sandbox import running_bot
from bot.service import GameService
from discord_loopback import ChatEvent, Emulator, SimChannel, SimMember

GAMES = 20
RATE = 20.0  # moves per second, all games together
MOVES = 240
VARIANTS = ["classic", "tactics", "expert", "siege", "siege-tactics"]
HOGS = 2  # CPU-bound processes beside the bot for the loaded figure
CAPACITY_RATES = (10.0, 20.0, 30.0, 40.0, 60.0, 80.0)  # stepped up until the p95 passes...
CAPACITY_P95_S = 1.0  # ...this
CAPACITY_SECONDS = 6.0  # of moves at each step

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
    emu: Emulator,
    service: GameService,
    games: list[int],
    members: Sequence[SimMember],
    *,
    rate: float = RATE,
    count: int = MOVES,
) -> tuple[list[float], list[float]]:
    """`count` typed moves, `rate` a second, the games in turn (a game whose last move is
    still under way is skipped, a finished one left out): each move's acknowledgement time
    (the deadline for one Discord would drop) and, for each acknowledged one, its time until
    the board of the new position arrived, in seconds."""
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
    over: set[int] = set()
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
            # Acknowledged first, stored, then answered: the answer says the move is stored
            # (waiting for it rather than reading the game again and again, which would
            # load the bot's database with the players' own polling).
            reply = await handle.reply(timeout=30)
            after = await service.match(match_id)
            if after.version == info.version:
                raise RuntimeError(f"move {move!r} of game {match_id} refused: {reply.content}")
            if after.is_over or after.deciding_user != member.id:  # the turn ended here
                end = await asyncio.wait_for(arrived, timeout=30)
                moves.append(end - start)
                if after.is_over:
                    over.add(match_id)
                return
            boards.pop(name, None)  # held back: the turn's last step posts its board
            info = after
        over.add(match_id)  # over before this turn

    async def guarded(match_id: int) -> None:
        try:
            await one_move(match_id)
        finally:
            busy.discard(match_id)

    try:
        tasks = []
        order = itertools.cycle(games)
        period = 1.0 / rate
        next_tick = time.perf_counter()
        while len(tasks) < count and len(over) < len(games):
            match_id = next(order)
            if match_id in over:
                continue
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


async def settled(service: GameService, timeout: float = 60.0) -> None:
    """Until the bot has announced everything it owes (a second more for the last sends).
    A bot from before the outbox (an older tree, benchmarks/compare_e2e.sh) announces as it
    answers: two seconds."""
    deadline = time.perf_counter() + timeout
    if not hasattr(service, "pending_announcements"):
        await asyncio.sleep(2.0)
        return
    while await service.pending_announcements(everything=True):
        if time.perf_counter() > deadline:
            raise RuntimeError(f"announcements still pending after {timeout} s")
        await asyncio.sleep(0.1)
    await asyncio.sleep(1.0)


@dataclass
class Phase:
    """One paced phase: its acknowledgement and move times (s), the turns it played, the
    wall and CPU seconds it took, and where the CPU went (samples per layer)."""

    acks: list[float]
    moves: list[float]
    seconds: float
    cpu_seconds: float  # this process's
    sampler: CpuSampler
    drawing_seconds: float = 0.0  # the picture processes' CPU ([render] workers)

    @property
    def p95(self) -> float:
        return statistics.quantiles(self.moves, n=20)[-1]

    def cpu_ms_per_move(self, layer: str | None = None) -> float:
        """All the CPU a turn took (this process's and the picture processes'), or this
        process's share of it that went to `layer`."""
        if layer is None:
            return (self.cpu_seconds + self.drawing_seconds) * 1000 / len(self.moves)
        return self.cpu_seconds * 1000 * self.sampler.share(layer) / len(self.moves)


def _processes_cpu(pids: Sequence[int]) -> float:
    """The CPU seconds the processes `pids` have used (Linux's /proc; 0 elsewhere)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime: stat's 14th and 15th
    return total / os.sysconf("SC_CLK_TCK")


def _drawing_pids(bot: Any) -> list[int]:
    """The bot's picture processes (none for threads, or a tree from before them)."""
    painter = getattr(getattr(bot, "front", None), "painter", None)
    return painter.pids() if hasattr(painter, "pids") else []


async def measured(
    emu: Emulator,
    service: GameService,
    games: list[int],
    members: Sequence[SimMember],
    *,
    rate: float = RATE,
    count: int = MOVES,
    drawing: Sequence[int] = (),
) -> Phase:
    """`paced_moves`, with the process's CPU time and its sampled shares, and the CPU time
    of the `drawing` processes."""
    with CpuSampler() as sampler:
        cpu, wall = time.process_time(), time.perf_counter()
        drawn = _processes_cpu(drawing)
        acks, moves = await paced_moves(emu, service, games, members, rate=rate, count=count)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        drawn = _processes_cpu(drawing) - drawn
    return Phase(acks, moves, wall, cpu, sampler, drawn)


async def _bench() -> tuple[Phase, list[float], list[Phase]]:
    logging.getLogger("discord").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory() as tmp:
        async with Emulator() as emu, emu.point_discord():
            guild = emu.create_guild("Bench")
            # Unset: the bot's default (older trees have no such setting).
            chosen = os.environ.get("E2E_RENDER_WORKERS")
            extra = {"render_workers": int(chosen)} if chosen is not None else {}
            async with running_bot(emu, Path(tmp) / "e2e.sqlite3", **extra) as bot:
                service = bot.service
                assert service is not None
                made = itertools.count()

                async def new_games() -> tuple[list[int], list[SimMember]]:
                    """GAMES games started afresh, each between two new members."""
                    members = [guild.add_member(f"p{next(made)}") for _ in range(2 * GAMES)]
                    tables = [
                        (
                            guild.create_text_channel(f"table-{next(made)}"),
                            *members[2 * g : 2 * g + 2],
                        )
                        for g in range(GAMES)
                    ]
                    games = await start_games(service, tables)
                    await settled(service)  # the opening boards and DMs gone out
                    return games, members

                games, members = await new_games()
                phase = await measured(emu, service, games, members, drawing=_drawing_pids(bot))
                shares = sorted(phase.sampler.samples.items(), key=lambda kv: -kv[1])
                print(
                    "# e2e CPU per move by layer (sampled): "
                    + ", ".join(f"{k} {phase.cpu_ms_per_move(k):.1f} ms" for k, _ in shares),
                    file=sys.stderr,
                    flush=True,
                )
                await settled(service)  # let the last DMs go out
                # The same games play on, the machine busy beside the bot.
                with cpu_hogs():
                    loaded, _ = await paced_moves(emu, service, games, members)
                await settled(service)  # let the last DMs go out
                # Stepping the rate up, on fresh games, until the moves queue.
                steps = []
                for rate in CAPACITY_RATES:
                    games, members = await new_games()
                    count = int(rate * CAPACITY_SECONDS)
                    step = await measured(
                        emu,
                        service,
                        games,
                        members,
                        rate=rate,
                        count=count,
                        drawing=_drawing_pids(bot),
                    )
                    steps.append(step)
                    print(
                        f"# e2e at {rate:g} moves/s: served {len(step.moves) / step.seconds:.1f}"
                        f"/s, p95 {step.p95 * 1000:.0f} ms,"
                        f" {step.cpu_ms_per_move():.1f} ms CPU per move"
                        f" ({step.drawing_seconds * 1000 / len(step.moves):.1f} drawing,"
                        f" the picture process busy {step.drawing_seconds / step.seconds:.0%})",
                        file=sys.stderr,
                        flush=True,
                    )
                    await settled(service)
                    if step.p95 > CAPACITY_P95_S:
                        break
                return phase, loaded, steps


def run() -> Iterator[str]:
    phase, loaded, steps = asyncio.run(_bench())
    yield figure("e2e_move_p95_ms", phase.p95 * 1000, "ms")
    yield figure("e2e_ack_p95_ms", statistics.quantiles(phase.acks, n=20)[-1] * 1000, "ms")
    yield figure("e2e_ack_p99_ms_loaded", statistics.quantiles(loaded, n=100)[-1] * 1000, "ms")
    yield figure("e2e_cpu_ms_per_move", phase.cpu_ms_per_move(), "ms")
    emulator = phase.cpu_ms_per_move("emulator")
    players = phase.cpu_ms_per_move("players")
    yield figure("e2e_emulator_cpu_ms_per_move", emulator, "ms")
    yield figure("e2e_players_cpu_ms_per_move", players, "ms")
    yield figure("e2e_bot_cpu_ms_per_move", phase.cpu_ms_per_move() - emulator - players, "ms")
    yield figure(
        "e2e_drawing_cpu_ms_per_move", phase.drawing_seconds * 1000 / len(phase.moves), "ms"
    )
    held = [len(s.moves) / s.seconds for s in steps if s.p95 <= CAPACITY_P95_S]
    yield figure("e2e_capacity_moves_per_s", max(held, default=0.0), "moves/s")
