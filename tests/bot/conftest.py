"""Fixtures for bot tests: real SQLite files in tmp_path or real PostgreSQL databases (the
`database` fixture of tests/conftest.py gives each in turn), a manual clock, fixed seeds,
and an emulated Discord with one server of three members."""

import itertools

import pytest

from bot.records import Member
from bot.service import GameService
from bot.time_source import ManualClock
from discord_loopback import Emulator

ALICE = Member(1, "Alice")
BOB = Member(2, "Bob")
CAROL = Member(3, "Carol")
ROBOT = Member(99, "Some Bot", is_bot=True)
GUILD = 10
CHANNEL = 100


@pytest.fixture
def clock():
    return ManualClock()


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "schotten.sqlite3"


@pytest.fixture
async def service(database, clock):
    seeds = itertools.count(1000)
    svc = await GameService.open(database, clock=clock, seeds=lambda: next(seeds))
    yield svc
    await svc.close()


@pytest.fixture
def bot_database(tmp_path):
    """The bot's database in `world`: a SQLite file (test_e2e.py runs on both backends)."""
    return tmp_path / "bot.sqlite3"


@pytest.fixture
async def world(bot_database, request):
    # A test about something else may switch one of Discord's behaviours off, by name
    # (`@pytest.mark.without("rate_limits")`), saying why; all are on otherwise.
    marker = request.node.get_closest_marker("without")
    without = marker.args if marker is not None else ()
    async with Emulator(without=without) as emu, emu.point_discord():
        guild = emu.create_guild("Test Server")
        alice = guild.add_member("Alice")
        bob = guild.add_member("Bob")
        carol = guild.add_member("Carol")
        yield emu, guild, alice, bob, carol, bot_database
        assert emu.server_errors == []
        assert emu.unhandled_requests == []
        # Discord's description and documented limits (discord_loopback/spec.py, limits.py).
        assert emu.refused_requests == [], [r.summary for r in emu.refused_requests]
        assert emu.undescribed_requests == []  # every REST route the bot uses was checked


async def both_move(service, match_id):
    """Each player makes a move of their own (the first legal one), so that a resignation
    or the clock ends the game rated rather than aborted (rules notes R-28)."""
    moved: set[int] = set()
    while moved != {0, 1}:
        info = await service.match(match_id)
        seat = info.match.to_decide
        await service.play(match_id, info.players[seat], str(info.match.legal_moves()[0]))
        moved.add(seat)
