"""A clock per game and vacations as the members see them, through the real discord.py client
against the loopback Discord: the challenge's clock, the time left on the board and in the
hand, one reminder and one forfeit across a restart and across two bots on one PostgreSQL
database, and a vacation that stops a clock and shows on the board. Time is a ManualClock;
the bots' timer loops are asleep (an hour), so `handle_due` runs exactly when a test says."""

import asyncio
import contextlib

import pytest

from bot.config import Config
from bot.front.client import SchottenBot
from bot.sandbox import board_posts, running_bot, wait_for_game, wait_for_version
from bot.time_source import ManualClock
from discord_loopback import Emulator

MINUTE = 60.0
REMINDED = "has been waiting for your move"
TIMED_OUT = "ran out of time"


async def challenge(bot, emu, channel, challenger, opponent, **options):
    """A challenge made and accepted by slash command; the game and the challenge post."""
    handle = await challenger.slash(
        ("schotten", "challenge"), where=channel, opponent=opponent, **options
    )
    post = await handle.reply(timeout=10)
    accept = await opponent.click(post, label="Accept")
    await accept.ack(timeout=10)
    info = await wait_for_game(bot, channel.guild.id, challenger.id)
    hand = f"hand-{info.id}-0.png"
    await emu.wait_for_message(lambda m: any(a.filename == hand for a in m.attachments), timeout=10)
    # The post as the challenge showed it, before the acceptance edited it.
    return info, "\n".join([*post.revisions, post.content])


@pytest.fixture
def bot_database(database):
    """The members' games here run on both backends: a SQLite file and PostgreSQL."""
    return database


def said(channel, text):
    return [m for m in channel.public_history() if text in m.content]


async def test_a_one_hour_clock_reminds_then_forfeits_once_across_a_restart(world):
    emu, guild, alice, bob, _, db = world
    clock = ManualClock()
    async with running_bot(emu, db, clock) as bot:
        info, post = await challenge(bot, emu, guild.default_channel, alice, bob, clock=1)
        assert "⏱ 1 hour per move" in post
        thread = emu.world.channel(info.channel_id)
        waiting = alice if info.deciding_user == alice.id else bob
        board = board_posts(thread)[-1]
        assert "⏱ 1 h left on the clock." in board.content
        assert "⏱ You have 1 h left to move." in waiting.last_dm.content
        clock.advance(seconds=19 * MINUTE)
        await bot.front.handle_due()
        assert said(thread, REMINDED) == []
        clock.advance(seconds=2 * MINUTE)  # 21 minutes: past a third of the hour
        await bot.front.handle_due()
        reminders = said(thread, REMINDED)
        assert len(reminders) == 1 and waiting.mention in reminders[0].content
        assert (
            "for 21 min" in reminders[0].content
            and "lost on time in 39 min" in reminders[0].content
        )
        # Asked now, the board shows the time left.
        look = await waiting.slash(("schotten", "board"), where=thread)
        assert "⏱ 39 min left on the clock." in (await look.reply(timeout=10)).content
    # A new bot on the same database: no second reminder; the forfeit once, at the hour.
    async with running_bot(emu, db, clock) as bot:
        await bot.front.handle_due()
        clock.advance(seconds=38 * MINUTE)
        await bot.front.handle_due()
        assert (await bot.service.match(info.id)).status == "active"
        clock.advance(seconds=2 * MINUTE)
        await bot.front.handle_due()
        await bot.front.handle_due()
        await emu.wait_for_message(lambda m: TIMED_OUT in m.content, timeout=10)
        assert len(said(thread, REMINDED)) == 1
        assert len(said(thread, TIMED_OUT)) == 1
        moves = [r["text"] for r in await bot.service.store.moves(info.id)]
        assert moves.count("timeout") == 1
        await emu.assert_all_acknowledged()


async def test_two_bots_on_one_database_remind_and_forfeit_once(pg_url):
    """Two bot processes' worth (each its own connections and shard) on one PostgreSQL
    database, their timers racing: the game's channel gets one reminder and one end."""
    clock = ManualClock()
    async with Emulator() as emu, emu.point_discord():
        guild = emu.create_guild("Clocks", shard=(1, 2))
        alice, bob = guild.add_member("Alice"), guild.add_member("Bob")
        bots, runners = [], []
        try:
            for shard in (0, 1):
                config = Config(
                    database=pg_url, shards=(shard, shard), shard_count=2, timer_seconds=3600
                )
                bot = SchottenBot(config, clock=clock, guild_ready_timeout=0.1)
                bots.append(bot)
                runners.append(asyncio.create_task(bot.start(emu.token)))
            await emu.wait_for_bot(commands=["schotten"], shards=[0, 1])
            for bot in bots:
                await bot.wait_until_ready()
            info, _ = await challenge(bots[1], emu, guild.default_channel, alice, bob, clock=1)
            thread = emu.world.channel(info.channel_id)
            for minutes in (21, 20, 20):
                clock.advance(seconds=minutes * MINUTE)
                await asyncio.gather(*(b.front.handle_due() for b in bots))
            await emu.wait_for_message(lambda m: TIMED_OUT in m.content, timeout=10)
            await asyncio.gather(*(b.front.handle_due() for b in bots))
            assert len(said(thread, REMINDED)) == 1
            assert len(said(thread, TIMED_OUT)) == 1
            moves = [r["text"] for r in await bots[0].service.store.moves(info.id)]
            assert moves.count("timeout") == 1
            assert emu.refused_requests == []
        finally:
            for bot, runner in zip(bots, runners, strict=False):
                await bot.close()
                with contextlib.suppress(Exception):
                    await runner


async def test_a_vacation_stops_the_clock_and_shows_on_the_board(world):
    emu, guild, alice, bob, _, db = world
    clock = ManualClock()
    async with running_bot(emu, db, clock) as bot:
        info, post = await challenge(bot, emu, guild.default_channel, alice, bob, clock=24)
        assert "⏱ 1 day per move" in post
        thread = emu.world.channel(info.channel_id)
        mover = alice if info.deciding_user == alice.id else bob
        away = bob if mover is alice else alice
        # The member not to move goes on vacation for 2 days.
        handle = await away.slash(("schotten", "vacation", "start"), where=thread, days=2)
        reply = await handle.reply(timeout=10)
        assert reply.ephemeral and "You are on vacation until <t:" in reply.content
        assert "19 days of vacation left this year" in reply.content
        again = await away.slash(("schotten", "vacation", "start"), where=thread, days=1)
        refusal = await again.reply(timeout=10)
        assert refusal.ephemeral and "already on vacation" in refusal.content
        # The mover plays: the turn passes to the member away, whose clock stands still.
        clock.advance(seconds=3 * 3600)
        move = str(info.match.legal_moves()[0])
        typed = await mover.slash(("schotten", "move"), where=thread, notation=move)
        await typed.reply(timeout=10)
        now = await wait_for_version(bot, emu, info.id, 0)
        assert now.deciding_user == away.id
        await emu.wait_for_message(
            lambda m: any(a.filename == f"hand-{info.id}-{now.version}.png" for a in m.attachments),
            timeout=10,
        )
        board = board_posts(thread)[-1]
        until = int(clock.now() - 3 * 3600 + 2 * 86400)
        assert f"🌴 {away.name} is on vacation until <t:{until}:f>" in board.content
        assert "⏸ 1 day left on the clock, stopped." in board.content
        assert "⏸ You have 1 day left to move" in away.last_dm.content
        # A day and a half later: no reminder, and still a whole day on the clock.
        clock.advance(seconds=36 * 3600)
        await bot.front.handle_due()
        assert said(thread, REMINDED) == []
        # Back early: the clock runs again from now, and the reminder comes 8 h later.
        handle = await away.slash(("schotten", "vacation", "end"), where=thread)
        assert "Welcome back" in (await handle.reply(timeout=10)).content
        look = await mover.slash(("schotten", "board"), where=thread)
        shown = (await look.reply(timeout=10)).content
        assert "⏱ 1 day left on the clock." in shown and "on vacation" not in shown
        clock.advance(seconds=8 * 3600 - MINUTE)
        await bot.front.handle_due()
        assert said(thread, REMINDED) == []
        clock.advance(seconds=2 * MINUTE)
        await bot.front.handle_due()
        assert len(said(thread, REMINDED)) == 1
        status = await away.slash(("schotten", "vacation", "status"), where=thread)
        # Ended after 39 hours: 2 days begun, 19 left.
        assert "19 days of vacation left" in (await status.reply(timeout=10)).content
        await emu.assert_all_acknowledged()
