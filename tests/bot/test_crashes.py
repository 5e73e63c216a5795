"""Crashes around a move: the bot runs in a child process and is killed (SIGKILL, as by a
power cut or the OOM killer) at named instants and at timed ones around a move, or stopped
with SIGTERM (a deploy). Another bot process then starts on the same database. Whatever
happened, every stored move's board is posted exactly once and the player to decide has
their hand: nothing a crash interrupts is lost, and nothing is announced twice."""

import asyncio
import os
import signal
import sys
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.emulator import Emulator
from bot.records import Member
from bot.sandbox import board_posts
from bot.service import GameService
from engine.api import MatchSpec

ROOT = Path(__file__).resolve().parents[2]


class Child:
    """One bot process."""

    def __init__(self, proc: asyncio.subprocess.Process, log: Path) -> None:
        self.proc = proc
        self.log = log

    async def exit_code(self, timeout: float = 20) -> int:
        try:
            return await asyncio.wait_for(self.proc.wait(), timeout)
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()
            raise AssertionError(
                f"the bot did not exit; its log:\n{self.log.read_text()}"
            ) from None

    def kill(self) -> None:
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)


class Harness:
    def __init__(self, emu: Emulator, tmp: Path) -> None:
        self.emu = emu
        self.tmp = tmp
        self.db = tmp / "bot.sqlite3"
        self.runs = 0
        self.children: list[Child] = []

    async def start(self, crash_at: str | None = None) -> Child:
        """A bot process; returns once it has connected and announced what was pending."""
        self.runs += 1
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        env.pop("SCHOTTEN_CRASH_AT", None)
        if crash_at:
            env["SCHOTTEN_CRASH_AT"] = crash_at
        log = self.tmp / f"bot-{self.runs}.log"
        before = self.emu.gateway.identify_count
        with log.open("wb") as out:
            proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "tests.bot.crashbot",
                self.emu.base_url,
                self.emu.token,
                str(self.db),
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=out,
            )
        child = Child(proc, log)
        self.children.append(child)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 30
        while self.emu.gateway.identify_count == before or not self.emu.gateway.live_sessions():
            if proc.returncode is not None or loop.time() > deadline:
                raise AssertionError(f"the bot did not connect; its log:\n{log.read_text()}")
            await asyncio.sleep(0.05)
        await self.settled(child)
        return child

    async def settled(self, child: Child, timeout: float = 20) -> None:
        """Until the outbox is empty (everything announced, or skipped as stale)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        async with reader(self.db) as service:
            while await service.store.pending_announcements(float("inf")):
                if child.proc.returncode is not None or loop.time() > deadline:
                    raise AssertionError(
                        f"announcements still pending; the bot's log:\n{child.log.read_text()}"
                    )
                await asyncio.sleep(0.05)


@asynccontextmanager
async def reader(db: Path):
    service = await GameService.open(db)
    try:
        yield service
    finally:
        await service.close()


async def check_everything_announced(emu, db, channel, members, match_id):
    """Every stored version's board was shown, in one message per turn: a version that
    begins a turn is posted exactly once and the later versions of its turn edit that
    message, which ends showing the turn's last board. The player to decide has their hand."""
    async with reader(db) as service:
        info = await service.match(match_id)
        rows = await service.store._all(
            "SELECT version, status, message_id, json_extract(payload, '$.continues') AS cont"
            " FROM outbox WHERE match_id = ? AND kind = 'board' ORDER BY id",
            (match_id,),
        )
    assert [r["version"] for r in rows] == list(range(info.version + 1))
    shows: dict[int, int] = {}  # message id -> the last version it must show
    for row in rows:
        assert row["status"] == "sent" and row["message_id"] is not None, dict(row)
        if row["cont"]:
            assert row["message_id"] in shows, f"version {row['version']} posted afresh"
        else:
            assert row["message_id"] not in shows, f"version {row['version']} edited a turn"
        shows[row["message_id"]] = row["version"]
    posts = board_posts(channel)
    assert sorted(m.id for m in posts) == sorted(shows), "a board posted twice, or not at all"
    for message in posts:
        name = f"board-{match_id}-{shows[message.id]}.png"
        assert [a.filename for a in message.attachments] == [name]
    if info.is_over:
        return info
    decider = members[info.deciding_user]
    hand = f"hand-{match_id}-{info.version}.png"
    seen = [
        m
        for ch in (channel, decider.dm_channel)
        for m in ch.messages
        if m.is_visible_to(decider.user) and any(a.filename == hand for a in m.attachments)
    ]
    assert seen, f"{decider.name} has no hand for version {info.version}"
    return info


async def move(emu, db, channel, members, match_id):
    """The player to decide types a legal move (the first one offered)."""
    async with reader(db) as service:
        info = await service.match(match_id)
    text = str(info.match.legal_moves()[0])
    member = members[info.deciding_user]
    handle = await member.slash(("schotten", "move"), where=channel, notation=text)
    return info.version, handle


@pytest.fixture
async def harness(tmp_path):
    async with Emulator() as emu:
        guild = emu.create_guild("Crash Server")
        alice = guild.add_member("Alice")
        bob = guild.add_member("Bob")
        h = Harness(emu, tmp_path)
        # A siege stored while no bot ran: its start is announced by the first bot to start.
        # In Schotten Totten 2 the Attacker makes several decisions in one turn, so moves
        # that leave the decision with the mover (whose reply shows their hand) are covered.
        async with reader(h.db) as service:
            channel = guild.default_channel
            ch = await service.challenge(
                guild.id,
                channel.id,
                Member(alice.id, "Alice"),
                Member(bob.id, "Bob"),
                MatchSpec("siege"),
            )
            info = await service.accept(ch.id, bob.id)
        h.guild, h.channel, h.match_id = guild, channel, info.id
        h.members = {alice.id: alice, bob.id: bob}
        try:
            first = await h.start()
            await check_everything_announced(emu, h.db, channel, h.members, info.id)
            first.terminate()
            assert await first.exit_code() == 0, first.log.read_text()
            yield h
        finally:  # a failed test leaves no bot running
            for child in h.children:
                child.kill()
                await child.proc.wait()


async def crash_and_recover(h, *, crash_at=None, kill_after=None, stop_after=None):
    """One move with a crash (a named instant, a SIGKILL or a SIGTERM after some ms); then
    a new process; then the checks. Returns the version the move started from."""
    child = await h.start(crash_at)
    version, _ = await move(h.emu, h.db, h.channel, h.members, h.match_id)
    if kill_after is not None:
        await asyncio.sleep(kill_after / 1000)
        child.kill()
    if stop_after is not None:
        await asyncio.sleep(stop_after / 1000)
        child.terminate()
        # A clean stop announces what it stored before it exits.
        assert await child.exit_code() == 0, child.log.read_text()
        await check_everything_announced(h.emu, h.db, h.channel, h.members, h.match_id)
    elif crash_at is None and kill_after is None:
        child.terminate()
    code = await child.exit_code()
    if crash_at is not None:
        assert code == -signal.SIGKILL, f"did not crash at {crash_at}:\n{child.log.read_text()}"
    after = await h.start()
    await check_everything_announced(h.emu, h.db, h.channel, h.members, h.match_id)
    after.terminate()
    assert await after.exit_code() == 0, after.log.read_text()
    return version


@pytest.mark.parametrize(
    "crash_at",
    ["move-before-commit", "move-after-commit", "announce-before-send", "announce-after-send"],
)
async def test_a_crash_at_each_instant_of_a_move_loses_nothing(harness, crash_at):
    h = harness
    before = await crash_and_recover(h, crash_at=crash_at)
    async with reader(h.db) as service:
        info = await service.match(h.match_id)
    if crash_at == "move-before-commit":
        assert info.version == before  # never acknowledged, never stored
    else:
        assert info.version == before + 1  # stored, and announced by the next process


async def test_kills_at_many_instants_around_a_move(harness):
    # Measured here: the move is stored some 5-10 ms after the command is sent, the mover's
    # reply goes out at about 100 ms and the board at about 150 ms, so these instants fall
    # before the commit, between it and every announcement, between the reply and the
    # board, and after everything.
    h = harness
    outcomes = set()
    for ms in (0, 5, 10, 20, 40, 70, 100, 120, 140, 170, 250):
        before = await crash_and_recover(h, kill_after=ms)
        async with reader(h.db) as service:
            outcomes.add((await service.match(h.match_id)).version > before)
    assert outcomes == {True, False}  # some kills came before the commit, some after


async def test_sigterm_finishes_what_is_under_way(harness):
    h = harness
    for ms in (0, 5, 10, 20, 50):
        await crash_and_recover(h, stop_after=ms)
