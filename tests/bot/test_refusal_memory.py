"""What Discord refused is not asked again blindly (bot/refusals.py): a channel where the bot
may not post costs at most a refused request or two, not three per board; a member with
closed DMs one refused DM, not one a turn. Both end when Discord shows they may: the
permissions back in an interaction there, the member opening their settings. Through the
loopback Discord, with the real bot and a SQLite file."""

from __future__ import annotations

import asyncio
import re

from bot.refusals import CHANNEL, DMS
from bot.sandbox import running_bot
from bot.time_source import ManualClock
from discord_loopback import permissions as perms

from .test_e2e import start_game
from .test_refusals import play_by_dm, players_of, statuses


def refused_since(emu, first, path=r"^/api/v10/channels/\d+/messages$"):
    """The 403 answers to the bot's posts since request number `first`."""
    return [
        r
        for r in emu.requests[first:]
        if r.status == 403 and r.method == "POST" and re.search(path, r.path)
    ]


async def until_sent_after(bot, emu, players, match_id, channel, version):
    """Play on until a board of a version after `version` is set down; the last board's
    status and the game."""
    info = await bot.service.match(match_id)
    for _ in range(20):
        rows = [r for r in await statuses(bot, match_id) if r[0] > version]
        if rows:
            return rows[-1][1], info
        info = await play_by_dm(bot, emu, players, match_id, channel, 1)
    raise AssertionError("no board after the permissions came back")


async def test_a_channel_without_send_messages_costs_at_most_two_refused_requests(world):
    emu, guild, alice, bob, _, db = world
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        thread = emu.world.channel(info.channel_id)
        players = players_of(alice, bob)
        info = await play_by_dm(bot, emu, players, info.id, thread, 1)
        me = guild.members[emu.bot.id]
        no_posting = perms.SEND_MESSAGES | perms.SEND_MESSAGES_IN_THREADS
        emu.world.set_permissions(guild.default_channel, me, deny=no_posting)
        first, before = len(emu.requests), info.version
        info = await play_by_dm(bot, emu, players, info.id, thread, 6)
        assert info.version >= before + 6  # the game went on, hands by DM
        # Before: 25 refused requests in 6 moves (three forms per board, then the hand).
        assert len(refused_since(emu, first, r"^/api/v10/channels/\d+/")) <= 2
        rows = [r for r in await statuses(bot, info.id) if r[0] > before]
        assert rows and all(s == "dead" and "50013" in e for _, s, e in rows), rows
        for member in (alice, bob):  # told once, by DM
            told = [m for m in member.dms if "no longer allowed to post" in m.content]
            assert len(told) == 1, [m.content for m in member.dms]
        # /schotten board is the command's own reply, which Discord takes.
        reply = await (await bob.slash(("schotten", "board"), where=thread)).reply()
        assert reply.attachments[0].filename == f"board-{info.id}-{info.version}.png"
        # Given back, and a command run there: the boards are posted again.
        emu.world.set_permissions(guild.default_channel, me)
        await (await alice.slash(("schotten", "board"), where=thread)).reply()
        status, info = await until_sent_after(bot, emu, players, info.id, thread, info.version)
        assert status == "sent"
        assert thread.public_history()[-1].attachments
        await emu.assert_all_acknowledged()


async def test_a_refused_post_waits_for_an_interaction_that_shows_the_permissions(world):
    emu, guild, alice, bob, _, db = world
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        thread = emu.world.channel(info.channel_id)
        players = players_of(alice, bob)
        # Discord refuses the thread's posts though the bot's permissions, as it knows them,
        # allow them (as when a role it cannot see changed): it learns only by asking.
        posts = rf"^/channels/{thread.id}/messages$"
        fault = emu.refuse(403, 50001, "Missing Access", method="POST", path=posts)
        first, before = len(emu.requests), info.version
        info = await play_by_dm(bot, emu, players, info.id, thread, 4)
        assert info.version >= before + 4
        assert len(fault.hits) == 1  # asked once, then remembered
        assert await bot.service.refusals.channel_closed(thread.id) == 50001
        # Discord would take posts again, but nothing showed it: still not asked.
        fault.remove()
        hits = len(emu.requests)
        info = await play_by_dm(bot, emu, players, info.id, thread, 2)
        assert not [
            r for r in emu.requests[hits:] if r.method == "POST" and str(thread.id) in r.path
        ]
        # A member's command there carries the bot's permissions (app_permissions): posting
        # resumes from the next board.
        await (await alice.slash(("schotten", "board"), where=thread)).reply()
        for _ in range(100):
            if await bot.service.refusals.channel_closed(thread.id) is None:
                break
            await asyncio.sleep(0.02)
        assert await bot.service.refusals.channel_closed(thread.id) is None
        status, _ = await until_sent_after(bot, emu, players, info.id, thread, info.version)
        assert status == "sent"
        assert len(refused_since(emu, first)) == 1


async def test_closed_dms_cost_one_refused_dm_until_the_member_opens_their_settings(world):
    emu, guild, alice, bob, _, db = world
    bob.dms_open = False
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        thread = emu.world.channel(info.channel_id)
        players = players_of(alice, bob)
        info = await play_by_dm(bot, emu, players, info.id, thread, 12)
        assert info.version >= 12 or info.is_over
        dm = rf"^/api/v10/channels/{bob.dm_channel.id}/messages$"
        # Bob moved at every turn of his (a use of the bot each time): one refused DM.
        assert len(refused_since(emu, 0, dm)) == 1
        assert await bot.service.refusals.dms_closed(bob.id)
        notices = [m for m in thread.public_history() if "direct messages" in m.content]
        assert len(notices) == 1 and bob.mention in notices[0].content
        # He opens his DMs and his settings: his hands come by DM again.
        bob.dms_open = True
        await (await bob.slash(("schotten", "settings"))).reply()
        for _ in range(100):
            if not await bot.service.refusals.dms_closed(bob.id):
                break
            await asyncio.sleep(0.02)
        assert not await bot.service.refusals.dms_closed(bob.id)
        # His next turn (the hand of the turn under way was owed before he opened them).
        opened = info.version
        for _ in range(6):
            if info.is_over or (info.deciding_user == bob.id and info.version > opened):
                break
            info = await play_by_dm(bot, emu, players, info.id, thread, 1)
        if not info.is_over:
            mark = f":{info.id}:{info.version}"
            for _ in range(200):
                if bob.last_dm is not None and mark in str(bob.last_dm.all_components()):
                    break
                await asyncio.sleep(0.02)
            assert mark in str(bob.last_dm.all_components())
        assert len(refused_since(emu, 0, dm)) == 1


async def test_the_refusals_are_kept_in_the_database(service, clock):
    refusals = service.refusals
    await refusals.note(DMS, 7, 50007)
    await refusals.note(CHANNEL, 70, 50013, parent_id=60)
    assert await refusals.dms_closed(7) and await refusals.channel_closed(70) == 50013
    # A use of the bot the same day leaves the DMs' refusal; the settings lift it.
    assert await refusals.seen(7, 60, may_post=False) == []
    assert await refusals.seen(7, 60, settings=True) == [DMS]
    await refusals.note(DMS, 7, 50007)
    clock.advance(seconds=24 * 3600)
    # A day later any use lifts it; a command in the thread's channel with Send Messages in
    # Threads lifts the thread's refusal.
    assert await refusals.seen(7, 60, may_post_in_threads=True) == [DMS, CHANNEL]
    assert not await refusals.dms_closed(7) and await refusals.channel_closed(70) is None


async def test_a_tournament_asks_once_where_it_was_refused(world):
    emu, guild, *_, db = world
    clock = ManualClock()
    boss = guild.add_member("Manon", manage_guild=True)
    entrants = [guild.add_member(n) for n in ("Dana", "Eli", "Fay", "Gus")]
    channel = guild.default_channel
    async with running_bot(emu, db, clock) as bot:
        notice = await (
            await boss.slash(
                ("schotten-admin", "tournament", "create"),
                where=channel,
                name="Refused Cup",
                game="classic",
                rounds=2,
                round_hours=24,
            )
        ).reply(timeout=10)
        for m in entrants:
            await (await m.click(notice, label="Join")).reply()
        # Discord refuses the channel's threads and posts (a role the bot cannot see).
        where = rf"^/channels/{channel.id}/(messages|threads)$"
        fault = emu.refuse(403, 50013, "Missing Permissions", method="POST", path=where)
        await (await boss.slash(("schotten-admin", "tournament", "start"), where=channel)).reply(
            timeout=15
        )
        (t,) = await bot.front.tournaments.live(guild.id)
        for _ in range(5):  # the timer loop's tournament step, minute after minute
            await bot.front.desk.tick()
        assert len(fault.hits) == 1  # once, not at every tick and for every game
        assert all(g.match_id is None for g in await bot.front.tournaments.pairings(t.id, 1))
        # Given back, and a command there shows it: the games open, the round is announced.
        fault.remove()
        await (await boss.slash(("schotten", "tournament", "list"), where=channel)).reply()
        for _ in range(100):
            if await bot.service.refusals.channel_closed(channel.id) is None:
                break
            await asyncio.sleep(0.02)
        await bot.front.desk.tick()
        games = await bot.front.tournaments.pairings(t.id, 1)
        assert games and all(g.match_id is not None for g in games)
        assert [m for m in channel.public_history() if "round 1 of 2" in m.content]
