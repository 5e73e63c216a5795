"""Crashes around a move: the bot runs in a child process and is killed (SIGKILL, as by a
power cut or the OOM killer) at named instants and at timed ones around a move, or stopped
with SIGTERM (a deploy). Another bot process then starts on the same database. Whatever
happened, every stored move's board is posted exactly once and the player to decide has
their hand: nothing a crash interrupts is lost, and nothing is announced twice."""

import asyncio
import re
import signal
from contextlib import asynccontextmanager

import pytest

from bot.records import Member
from bot.sandbox.processes import BotProcess
from bot.service import GameService
from discord_loopback import Emulator
from engine.api import MatchSpec
from tests.bot import announced


class Harness:
    def __init__(self, emu: Emulator, tmp, db=None) -> None:
        self.emu = emu
        self.tmp = tmp
        self.db = db if db is not None else tmp / "bot.sqlite3"
        self.runs = 0
        self.children: list[BotProcess] = []

    async def start(self, crash_at: str | None = None) -> BotProcess:
        """A bot process; returns once it has connected and announced what was pending."""
        self.runs += 1
        child = BotProcess(
            self.emu,
            self.db,
            log=self.tmp / f"bot-{self.runs}.log",
            env={"SCHOTTEN_CRASH_AT": crash_at} if crash_at else None,
        )
        self.children.append(child)
        await child.start(timeout=30)
        await self.settled(child)
        return child

    async def settled(self, child: BotProcess, timeout: float = 20) -> None:
        """Until the outbox is empty (everything announced, or skipped as stale)."""
        async with reader(self.db) as service:
            await announced.settled(
                service,
                timeout,
                alive=lambda: child.returncode is None,
                log=child.log_text,
            )


@asynccontextmanager
async def reader(db):
    service = await GameService.open(db)
    try:
        yield service
    finally:
        await service.close()


async def check_everything_announced(emu, db, channel, members, match_id):
    async with reader(db) as service:
        return await announced.check_everything_announced(emu, service, channel, members, match_id)


async def move(emu, db, channel, members, match_id):
    """The player to decide types a legal move (the first one offered)."""
    async with reader(db) as service:
        info = await service.match(match_id)
    text = str(info.match.legal_moves()[0])
    member = members[info.deciding_user]
    handle = await member.slash(("schotten", "move"), where=channel, notation=text)
    return info.version, handle


@asynccontextmanager
async def harnessed(tmp_path, db=None):
    async with Emulator() as emu:
        guild = emu.create_guild("Crash Server")
        alice = guild.add_member("Alice")
        bob = guild.add_member("Bob")
        h = Harness(emu, tmp_path, db)
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
                await child.exit_code()


@pytest.fixture
async def harness(tmp_path):
    async with harnessed(tmp_path) as h:
        yield h


@pytest.fixture
async def harness_on_each_store(tmp_path, database):
    async with harnessed(tmp_path, database) as h:
        yield h


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
    for ms in (0, 10, 40, 100, 140, 170, 250):
        before = await crash_and_recover(h, kill_after=ms)
        async with reader(h.db) as service:
            outcomes.add((await service.match(h.match_id)).version > before)
    assert outcomes == {True, False}  # some kills came before the commit, some after


async def test_sigterm_finishes_what_is_under_way(harness):
    h = harness
    for ms in (0, 10, 50):
        await crash_and_recover(h, stop_after=ms)


def refusal_notices(emu, members):
    """The notices of a refused board each member got by DM (their nonce: `{row}r{seat}`)."""
    notices = {member.id: [] for member in members.values()}
    for message in emu.world.messages.values():
        recipient = message.channel.recipient
        nonce = str(message.nonce or "")
        if recipient is not None and recipient.id in notices and re.fullmatch(r"\d+r[01]", nonce):
            notices[recipient.id].append(message)
    return notices


@pytest.mark.parametrize("crash_at", ["set-aside-before-notice", "set-aside-after-notice"])
async def test_a_refused_boards_notice_survives_a_crash(harness_on_each_store, crash_at):
    h = harness_on_each_store
    # Discord refuses the game's boards for good from now on (Missing Access): the board is
    # set aside and both players are told by DM, and the bot is killed at that instant.
    channel_posts = rf"^/channels/{h.channel.id}/messages$"
    h.emu.refuse(403, 50001, "Missing Access", method="POST", path=channel_posts)
    child = await h.start(crash_at)
    await move(h.emu, h.db, h.channel, h.members, h.match_id)
    assert await child.exit_code() == -signal.SIGKILL, child.log.read_text()
    after = await h.start()
    after.terminate()
    assert await after.exit_code() == 0, after.log.read_text()
    notices = refusal_notices(h.emu, h.members)
    assert {user: len(told) for user, told in notices.items()} == dict.fromkeys(notices, 1)
    async with reader(h.db) as service:
        rows = await service.store._all(
            "SELECT status FROM outbox WHERE match_id = ? AND kind = 'board' ORDER BY id DESC",
            (h.match_id,),
        )
    assert rows[0]["status"] == "dead"  # set aside once told
