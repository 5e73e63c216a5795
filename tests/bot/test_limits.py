"""Every reply fits Discord's limits, with the longest inputs Discord lets members send.

The emulator answers a reply over Discord's limits (2,000 characters of content, embed
limits, 25 options per menu, 5 rows of 5 buttons, 100-character custom ids and option
values) as Discord does, with 400/50035: the bot would log it and leave the member on
"thinking…". Here every command is run with the longest inputs and the longest names, and
every answer must arrive, be specific (never the generic apology) and be accepted.
"""

import random

import pytest

from bot.front.replies import SORRY
from bot.records import Member
from bot.sandbox import running_bot
from bot.service import MAX_MOVE_LENGTH
from discord_loopback import SimulationError
from engine.api import VARIANTS, MatchSpec

from .test_e2e import start_game

LONG = 32  # Discord's longest display name

LONG_MOVES = [
    "R" * MAX_MOVE_LENGTH,
    "R7 " + "9" * (MAX_MOVE_LENGTH - 3),
    "play the " * 11,
    "traitor " + "3:G5 " * 18,
    "give " + "R3 B5 joker " * 7,
    "return " + "x" * (MAX_MOVE_LENGTH - 7),
    "claim " + "4" * (MAX_MOVE_LENGTH - 6),
    "R7 ③" + "③" * (MAX_MOVE_LENGTH - 4),
    "\u200b\n\t`*_~|>" * 10,
    "🂠" * MAX_MOVE_LENGTH,
    "strategist from 3 to 7 " * 4,
]


def long_name(stem: str) -> str:
    return (stem + "-" + "Wolfgang-Amadeus-Maximilian")[:LONG]


@pytest.fixture
async def long_world(tmp_path):
    from discord_loopback import Emulator

    async with Emulator() as emu, emu.point_discord():
        guild = emu.create_guild("A Server With A Rather Long Name Indeed For Tests")
        alice = guild.add_member(long_name("Alice"))
        bob = guild.add_member(long_name("Bob"))
        carol = guild.add_member(long_name("Carol"))
        yield emu, guild, alice, bob, carol, tmp_path / "bot.sqlite3"
        assert emu.server_errors == []
        assert emu.unhandled_requests == []
        assert emu.refused_requests == [], [r.summary for r in emu.refused_requests]


def assert_specific(reply, typed: str = "") -> None:
    """An answer, not the apology, and at most a short prefix of what was typed."""
    assert reply is not None and reply.content != SORRY, reply.content
    assert SORRY not in reply.content
    if len(typed) > 40:
        assert typed[:40] not in reply.content, reply.content


async def populate(service, guild_id: int, channel_base: int, members) -> list[Member]:
    """Twelve long-named players (the members first) with finished games in every variant:
    full leaderboards, stats with every variant and a long recent list."""
    players = [Member(m.id, m.name) for m in members]
    players += [Member(10_000 + i, long_name(f"Player{i:02d}")) for i in range(12 - len(players))]
    rng = random.Random(5)
    channel = channel_base
    for round_ in range(3):
        for i, a in enumerate(players):
            b = players[(i + 1 + round_) % len(players)]
            variant = list(VARIANTS)[(i + round_) % len(VARIANTS)]
            channel += 1
            ch = await service.challenge(guild_id, channel, a, b, MatchSpec(variant))
            info = await service.accept(ch.id, b.id)
            for _ in range(rng.randrange(0, 6)):
                info = await service.match(info.id)
                seat = info.match.to_decide
                move = str(rng.choice(info.match.legal_moves()))
                await service.play(info.id, info.players[seat], move)
            loser = rng.choice(info.players)
            await service.resign(info.id, loser)
    return players


async def test_the_longest_inputs_and_names_get_answers_within_discords_limits(long_world):
    emu, guild, alice, bob, carol, db = long_world
    async with running_bot(emu, db) as bot:
        carol.manage_guild = True  # the server's settings, at their limits
        info = await start_game(bot, emu, guild, alice, bob, game="siege-tactics")
        thread = emu.world.channel(info.channel_id)
        assert len(thread.name) <= 100
        mover = alice if info.deciding_user == alice.id else bob
        waiter = bob if mover is alice else alice
        # Discord itself stops a member typing more than the declared length or range.
        with pytest.raises(SimulationError, match="characters long"):
            await mover.slash(("schotten", "move"), where=thread, notation="R" * 101)
        with pytest.raises(SimulationError, match="between"):
            await carol.slash(("schotten-admin", "settings"), where=thread, forfeit_hours=1e300)
        for member in (mover, waiter, carol):
            for text in LONG_MOVES:
                handle = await member.slash(("schotten", "move"), where=thread, notation=text)
                reply = await handle.reply(timeout=10)
                assert reply.ephemeral
                assert_specific(reply, text)
                choices = await member.autocomplete(
                    ("schotten", "move"), "notation", where=thread, notation=text
                )
                assert len(choices) <= 25
        assert (await bot.service.match(info.id)).version == 0  # nothing was played
        # The other commands, with their extreme values, in the game and outside it.
        channel = guild.default_channel
        for where in (thread, channel):
            for member in (mover, carol):
                for path, options in [
                    (("schotten", "history"), {"game_id": 2**53 - 1}),
                    (("schotten", "history"), {"game_id": -(2**53) + 1}),
                    (("schotten", "history"), {"game_id": info.id}),
                    (("schotten", "leaderboard"), {"page": 10_000}),
                    (("schotten-admin", "settings"), {"forfeit_hours": 720, "reminder_hours": 168}),
                    (("schotten-admin", "settings"), {"forfeit_hours": 0.001}),
                    (("schotten", "stats"), {"member": waiter, "against": member}),
                    (("schotten", "challenge"), {"opponent": waiter, "rounds": 15}),
                    (("schotten", "accept"), {}),
                    (("schotten", "cancel"), {}),
                    (("schotten", "board"), {}),
                    (("schotten", "hand"), {}),
                    (("schotten", "resign"), {}),
                ]:
                    if path[0] == "schotten-admin" and not member.manage_guild:
                        with pytest.raises(SimulationError, match="cannot see"):
                            await member.slash(path, where=where, **options)
                        continue
                    handle = await member.slash(path, where=where, **options)
                    assert_specific(await handle.reply(timeout=10))
        # Full boards of long names: the leaderboard, stats and history embeds fit.
        await populate(bot.service, guild.id, 9_000_000, [carol, waiter])
        for path, options in [
            (("schotten", "leaderboard"), {"game": "st1"}),
            (("schotten", "leaderboard"), {"game": "st2"}),
            (("schotten", "leaderboard"), {"game": "st1", "page": 2}),
            (("schotten", "stats"), {"member": carol, "against": waiter}),
            (("schotten", "history"), {"member": carol}),
        ]:
            handle = await alice.slash(path, where=channel, **options)
            assert_specific(await handle.reply(timeout=10))
        await emu.assert_all_acknowledged()
    bad = [r for r in emu.requests if r.status >= 400 and "/interactions/" not in r.path]
    assert bad == []
