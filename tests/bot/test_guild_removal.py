"""A server the bot was removed from (GUILD_DELETE without `unavailable`): its games end
abandoned, its tournament is cancelled, and nothing more is attempted there, however far
the clock goes, across a restart too (bot/refusals.py). Through the loopback Discord, with
the real bot and a SQLite file."""

from __future__ import annotations

import asyncio
import re

from bot.refusals import ABANDONED
from bot.sandbox import running_bot
from bot.time_source import ManualClock

from .test_e2e import start_game
from .test_tournament_e2e import round_games


def requests_about(emu, guild, since):
    """The bot's requests since number `since` about `guild`: the server, its channels and
    threads (listed as they are now, threads included)."""
    ids = {str(guild.id)} | {str(c) for c in guild.channels}
    found = []
    for r in emu.requests[since:]:
        numbers = set(re.findall(r"/(?:channels|guilds)/(\d+)", r.path))
        if numbers & ids:
            found.append(r)
    return found


async def until(check, what, timeout=10.0):
    deadline = asyncio.get_running_loop().time() + timeout
    while not await check():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"never: {what}")
        await asyncio.sleep(0.02)


async def test_a_server_the_bot_left_gets_nothing_more(world):
    emu, guild, alice, bob, _, db = world
    clock = ManualClock()
    boss = guild.add_member("Manon", manage_guild=True)
    entrants = [guild.add_member(n) for n in ("Dana", "Eli", "Fay", "Gus")]
    other = emu.create_guild("Other Server")
    olga, pete = other.add_member("Olga"), other.add_member("Pete")
    channel = guild.default_channel
    async with running_bot(emu, db, clock) as bot:
        game = await start_game(bot, emu, guild, alice, bob)
        elsewhere = await start_game(bot, emu, other, olga, pete)
        notice = await (
            await boss.slash(
                ("schotten-admin", "tournament", "create"),
                where=channel,
                name="Removal Cup",
                game="classic",
                rounds=3,
                round_hours=24,
            )
        ).reply(timeout=10)
        for m in entrants:
            await (await m.click(notice, label="Join")).reply()
        await (await boss.slash(("schotten-admin", "tournament", "start"), where=channel)).reply(
            timeout=15
        )
        (t,) = await bot.front.tournaments.live(guild.id)
        round_one = await round_games(bot, t.id, 1, 2)
        await bot.front.relay.deliver(everything=True)

        emu.remove_bot(guild)
        await until(lambda: bot.service.refusals.has_left(guild.id), "the departure stored")
        since = len(emu.requests)
        # Past every forfeit (72 hours) and the round's deadline (24 hours), twice over, with
        # the timer loop's work run at each step as the loop runs it.
        for _ in range(4):
            clock.advance(hours=40)
            await bot._tick(bot.front)
            await bot.front.relay.deliver(everything=True)
        assert requests_about(emu, guild, since) == []
        # The other server's game went on being timed: its forfeit was announced there.
        assert requests_about(emu, other, since)
        assert (await bot.service.match(elsewhere.id)).status == "finished"

    # As documented: the games abandoned (no winner, unrated), the tournament cancelled,
    # nothing left to announce there, the departure stored.
    async with running_bot(emu, db, clock) as bot:
        store = bot.service.store
        for match_id in [game.id] + [g.id for g in round_one]:
            row = await store.match(match_id)
            assert (row["status"], row["termination"], row["winner"], row["rated"]) == (
                "finished",
                ABANDONED,
                None,
                0,
            )
        assert (await bot.front.tournaments.get(t.id)).status == "cancelled"
        pending = await store._all(
            "SELECT o.id FROM outbox o JOIN matches m ON m.id = o.match_id"
            " WHERE m.guild_id = ? AND o.status = 'pending'",
            (guild.id,),
        )
        assert pending == []
        # A restart remembers it (the server is not in READY: no GUILD_CREATE to undo it).
        assert await bot.service.refusals.has_left(guild.id)
        since = len(emu.requests)
        clock.advance(hours=100)
        await bot._tick(bot.front)
        assert requests_about(emu, guild, since) == []
        # Invited back (GUILD_CREATE): the server is served afresh; its ended games stay so.
        emu.add_bot(guild)
        await until(
            lambda: _not(bot.service.refusals.has_left(guild.id)), "the server served again"
        )
        assert (await store.match(game.id))["status"] == "finished"
        reply = await (await alice.slash(("schotten", "games"), where=channel)).reply()
        assert not reply.content.startswith("Sorry")
        await emu.assert_all_acknowledged()


async def _not(check) -> bool:
    return not await check
