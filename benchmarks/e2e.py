"""End-to-end figures through the loopback Discord emulator: 20 games played at once, making
20 moves per second between them (about what Discord's global rate limit lets one bot
answer), each move typed as `/schotten move`.

The bot runs in a process of its own (benchmarks/e2e_bot.py: the code `schotten-bot run`
runs, with its default `[render] workers`, one picture process), as a real bot runs apart
from Discord; the loopback Discord and the players run in this one. All of them share this
machine's two cores, so the times are upper bounds.

`e2e_ack_p95_ms`: from the interaction's dispatch to the bot's first response (its defer).
`e2e_move_p95_ms`: from the dispatch to the board picture of the new position arriving.
`e2e_ack_p99_ms_loaded`: the acknowledgement's 99th percentile for the same load played on
with two CPU-bound processes running beside (as on a busy machine: Discord drops an
interaction not acknowledged within 3 s, whatever the load).

`e2e_cpu_ms_per_move`: all the CPU time of the turns played at that load, divided by the
turns: the bot's (`e2e_bot_cpu_ms_per_move`: its process and the processes it started,
read from /proc; `e2e_drawing_cpu_ms_per_move` is the part its picture process used) and
this process's, split by sampling its threads (benchmarks/layers.py): the loopback
Discord's handlers, HTTP, gateway and validation and the event loop serving them
(`e2e_emulator_cpu_ms_per_move`), which a real bot does not pay, and the rest, the players'
code and their reads of the games (`e2e_players_cpu_ms_per_move`).
`e2e_capacity_moves_per_s`: the rate is stepped up (CAPACITY_RATES, fresh games at each
step) and this is the turns a second actually served at the highest step whose
`e2e_move_p95_ms` stayed at most 1 s: what one bot process holds.

`E2E_RENDER_WORKERS=N` runs the bot with N picture processes (0: in threads of its own).

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
from dataclasses import dataclass
from pathlib import Path

from benchmarks.e2e_bot import BotApart, bot_apart
from benchmarks.layers import CpuSampler
from benchmarks.timing import figure
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
# This process's layers (benchmarks/layers.py) that are the loopback Discord's work.
EMULATOR_LAYERS = ("emulator", "event loop, other")

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
    wall and CPU seconds it took, and where this process's CPU went (samples per layer)."""

    acks: list[float]
    moves: list[float]
    seconds: float
    cpu_seconds: float  # this process's: the loopback Discord and the players
    sampler: CpuSampler
    bot_seconds: float  # the bot's process and its children's
    drawing_seconds: float  # the bot's children's: its picture process ([render] workers)

    @property
    def p95(self) -> float:
        return statistics.quantiles(self.moves, n=20)[-1]

    def per_move(self, seconds: float) -> float:
        return seconds * 1000 / len(self.moves)

    def cpu_ms_per_move(self) -> float:
        """All the CPU a turn took: the bot's, the loopback Discord's and the players'."""
        return self.per_move(self.cpu_seconds + self.bot_seconds)

    def emulator_ms_per_move(self) -> float:
        """This process's samples in the loopback Discord and the event loop serving it."""
        share = sum(self.sampler.share(layer) for layer in EMULATOR_LAYERS)
        return self.per_move(self.cpu_seconds * share)

    def players_ms_per_move(self) -> float:
        """The rest of this process's: the players' code and their reads of the games."""
        return self.per_move(self.cpu_seconds) - self.emulator_ms_per_move()


async def measured(
    emu: Emulator,
    bot: BotApart,
    games: list[int],
    members: Sequence[SimMember],
    *,
    rate: float = RATE,
    count: int = MOVES,
) -> Phase:
    """`paced_moves`, with this process's CPU time and its sampled shares, and the bot's."""
    with CpuSampler() as sampler:
        cpu, wall = time.process_time(), time.perf_counter()
        bot_cpu, drawn = bot.cpu_seconds()
        acks, moves = await paced_moves(emu, bot.service, games, members, rate=rate, count=count)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        bot_after, drawn_after = bot.cpu_seconds()
    return Phase(acks, moves, wall, cpu, sampler, bot_after - bot_cpu, drawn_after - drawn)


def _step_line(rate: float, step: Phase) -> str:
    return (
        f"# e2e at {rate:g} moves/s: served {len(step.moves) / step.seconds:.1f}/s,"
        f" p95 {step.p95 * 1000:.0f} ms, {step.cpu_ms_per_move():.1f} ms CPU per move"
        f" (bot {step.per_move(step.bot_seconds - step.drawing_seconds):.1f}, drawing"
        f" {step.per_move(step.drawing_seconds):.1f}, loopback Discord and players"
        f" {step.per_move(step.cpu_seconds):.1f}); busy: the bot's process"
        f" {(step.bot_seconds - step.drawing_seconds) / step.seconds:.0%}, its pictures"
        f" {step.drawing_seconds / step.seconds:.0%},"
        f" this one {step.cpu_seconds / step.seconds:.0%}"
    )


async def _bench() -> tuple[Phase, list[float], list[Phase]]:
    logging.getLogger("discord").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory() as tmp:
        async with Emulator() as emu:
            guild = emu.create_guild("Bench")
            database, log = Path(tmp) / "e2e.sqlite3", Path(tmp) / "bot.log"
            async with bot_apart(emu, database, log) as bot:
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
                    games = await start_games(bot.service, tables)
                    await settled(bot.service)  # the opening boards and DMs gone out
                    return games, members

                games, members = await new_games()
                phase = await measured(emu, bot, games, members)
                shares = sorted(phase.sampler.samples.items(), key=lambda kv: -kv[1])
                print(
                    "# e2e: this process's CPU per move by layer (sampled): "
                    + ", ".join(
                        f"{k} {phase.per_move(phase.cpu_seconds * phase.sampler.share(k)):.1f} ms"
                        for k, _ in shares
                    ),
                    file=sys.stderr,
                    flush=True,
                )
                await settled(bot.service)  # let the last DMs go out
                # The same games play on, the machine busy beside the bot.
                with cpu_hogs():
                    loaded, _ = await paced_moves(emu, bot.service, games, members)
                await settled(bot.service)  # let the last DMs go out
                # Stepping the rate up, on fresh games, until the moves queue.
                steps = []
                for rate in CAPACITY_RATES:
                    games, members = await new_games()
                    count = int(rate * CAPACITY_SECONDS)
                    step = await measured(emu, bot, games, members, rate=rate, count=count)
                    steps.append(step)
                    print(_step_line(rate, step), file=sys.stderr, flush=True)
                    await settled(bot.service)
                    if step.p95 > CAPACITY_P95_S:
                        break
                return phase, loaded, steps


def run() -> Iterator[str]:
    phase, loaded, steps = asyncio.run(_bench())
    yield figure("e2e_move_p95_ms", phase.p95 * 1000, "ms")
    yield figure("e2e_ack_p95_ms", statistics.quantiles(phase.acks, n=20)[-1] * 1000, "ms")
    yield figure("e2e_ack_p99_ms_loaded", statistics.quantiles(loaded, n=100)[-1] * 1000, "ms")
    yield figure("e2e_cpu_ms_per_move", phase.cpu_ms_per_move(), "ms")
    yield figure("e2e_emulator_cpu_ms_per_move", phase.emulator_ms_per_move(), "ms")
    yield figure("e2e_players_cpu_ms_per_move", phase.players_ms_per_move(), "ms")
    yield figure("e2e_bot_cpu_ms_per_move", phase.per_move(phase.bot_seconds), "ms")
    yield figure("e2e_drawing_cpu_ms_per_move", phase.per_move(phase.drawing_seconds), "ms")
    held = [len(s.moves) / s.seconds for s in steps if s.p95 <= CAPACITY_P95_S]
    yield figure("e2e_capacity_moves_per_s", max(held, default=0.0), "moves/s")
