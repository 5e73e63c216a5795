"""No refusal stalls a game: when Discord refuses an announcement for good, the relay tries a
plainer form, or sets it aside with one ERROR line and tells the players where it still can,
and the game goes on. Through the emulator, on both stores."""

import asyncio
import logging
import random

import pytest

from bot.sandbox import MOVE_SECONDS, SimPlayer, running_bot, wait_for_announcements
from bot.time_source import ManualClock
from discord_loopback import permissions as perms
from engine.api import new_match

from .test_e2e import start_game


@pytest.fixture
def bot_database(database):
    """These games run on both backends: a SQLite file and a PostgreSQL database."""
    return database


def refused_lines(caplog):
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def settle(bot, match_id, above):
    """Until a move beyond version `above` is stored and everything it owes is out (sent
    or set aside): the game went on, whatever Discord refused."""
    for _ in range(1000):
        info = await bot.service.match(match_id)
        if info.version > above:
            await wait_for_announcements(bot, match_id)
            return info
        await asyncio.sleep(0.02)
    raise AssertionError(f"game {match_id} stayed at version {above}")


async def play_by_dm(bot, emu, players, match_id, channel, moves):
    """`moves` moves by the hands' controls in DMs (the game's channel may be out of reach)."""
    info = await bot.service.match(match_id)
    await wait_for_announcements(bot, match_id)
    for _ in range(moves):
        if info.is_over:
            break
        emu.advance(MOVE_SECONDS)  # members think: Discord's buckets refill meanwhile
        await players[info.deciding_user].move_by_clicks(channel, match_id, info.version)
        info = await settle(bot, match_id, info.version)
    return info


async def statuses(bot, match_id):
    """The boards to post (not those held back while a member's turn goes on)."""
    held = bot.service.store.json_bool("payload", "held")
    rows = await bot.service.store._all(
        f"SELECT version, status, error, {held} AS held FROM outbox WHERE match_id = ?"
        " AND kind = 'board' ORDER BY id",
        (match_id,),
    )
    return [(r["version"], r["status"], r["error"]) for r in rows if not r["held"]]


async def assert_replays(bot, match_id):
    """No move was lost: the stored state is its seed and move log replayed."""
    info = await bot.service.match(match_id)
    moves = await bot.service.store.moves(match_id)
    assert len(moves) == info.version
    match = new_match(info.spec, info.seed)
    for row in moves:
        match.apply(match.parse_move(row["text"], int(row["seat"])), int(row["seat"]))
    assert match.to_json() == info.match.to_json()


def players_of(alice, bob):
    return {
        alice.id: SimPlayer(alice, random.Random(11), clicks=1.0),
        bob.id: SimPlayer(bob, random.Random(12), clicks=1.0),
    }


async def test_a_board_whose_components_are_refused_goes_out_without_them(world, caplog):
    emu, guild, alice, bob, _, db = world
    caplog.set_level(logging.INFO, logger="schotten.bot")
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        thread = emu.world.channel(info.channel_id)
        # From now on Discord refuses the board's Show my hand button in the channel, as it
        # refused an emoji it did not know.
        fault = emu.refuse(
            400,
            50035,
            "Invalid Form Body",
            path=r"^/channels/\d+/messages(/\d+)?$",
            when=lambda body: "sch:h:" in str(body.get("components")),
            errors={"components": {"0": {"components": {"0": {"emoji": {"_errors": []}}}}}},
        )
        final = await play_by_dm(bot, emu, players_of(alice, bob), info.id, thread, 6)
        assert final.version >= 6
        assert fault.hits, "the fault was never met"
        rows = await statuses(bot, info.id)
        # Every board went out, the refused ones in a plainer form (without the button).
        assert all(status == "sent" for _, status, _ in rows), rows
        last = thread.public_history()[-1]
        assert last.attachments[0].filename == f"board-{info.id}-{final.version}.png"
        assert not last.components
        assert refused_lines(caplog) == []
        assert any("trying a plainer form" in r.getMessage() for r in caplog.records)
        # /schotten board still shows the board with its button (an interaction's answer).
        reply = await (await alice.slash(("schotten", "board"), where=thread)).reply()
        assert reply.attachments and any(
            b["custom_id"].startswith("sch:h:") for b in reply.buttons()
        )
        await assert_replays(bot, info.id)
        await emu.assert_all_acknowledged()
        fault.remove()


async def test_a_channel_the_bot_may_no_longer_post_in_does_not_stop_the_game(world, caplog):
    emu, guild, alice, bob, _, db = world
    caplog.set_level(logging.INFO, logger="schotten.bot")
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        thread = emu.world.channel(info.channel_id)
        players = players_of(alice, bob)
        info = await play_by_dm(bot, emu, players, info.id, thread, 2)
        # A manager takes away the bot's right to post in the channel, and so in its threads.
        me = guild.members[emu.bot.id]
        no_posting = perms.SEND_MESSAGES | perms.SEND_MESSAGES_IN_THREADS
        emu.world.set_permissions(guild.default_channel, me, deny=no_posting)
        before = info.version
        info = await play_by_dm(bot, emu, players, info.id, thread, 5)
        assert info.version >= before + 5  # the game went on
        rows = await statuses(bot, info.id)
        refused = [r for r in rows if r[0] > before]
        assert refused and all(s == "dead" and "403/50013" in e for _, s, e in refused), rows
        # Not asked again blindly (bot/refusals.py): the bot knew its permissions there, so
        # at most one post was refused (one ERROR line naming the game, the route and the
        # code), and the later boards were set aside without a request.
        lines = refused_lines(caplog)
        assert len(lines) <= 1
        assert all(
            f"game {info.id}:" in x and "POST /channels/" in x and "50013" in x for x in lines
        )
        # Each player was told once, by DM, in words they understand.
        for member in (alice, bob):
            told = [m for m in member.dms if "no longer allowed to post" in m.content]
            assert len(told) == 1, [m.content for m in member.dms]
            assert bot.mentions("schotten board") in told[0].content  # a command mention
        # The hands kept coming, and /schotten board in the thread still shows the board.
        mover = alice if info.deciding_user == alice.id else bob
        assert f":{info.id}:{info.version}" in str(mover.last_dm.all_components())
        reply = await (await bob.slash(("schotten", "board"), where=thread)).reply()
        assert reply.attachments[0].filename == f"board-{info.id}-{info.version}.png"
        # Given back, the bot posts the next board as before (at the end of a turn).
        emu.world.set_permissions(guild.default_channel, me)
        given_back = info.version
        while not [r for r in await statuses(bot, info.id) if r[0] > given_back]:
            info = await play_by_dm(bot, emu, players, info.id, thread, 1)
        assert (await statuses(bot, info.id))[-1][1] == "sent"
        await assert_replays(bot, info.id)
        await emu.assert_all_acknowledged()


async def test_a_deleted_thread_does_not_stop_the_game(world, caplog):
    emu, guild, alice, bob, _, db = world
    caplog.set_level(logging.INFO, logger="schotten.bot")
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        thread = emu.world.channel(info.channel_id)
        players = players_of(alice, bob)
        info = await play_by_dm(bot, emu, players, info.id, thread, 2)
        emu.world.delete_channel(thread)  # a moderator deletes the game's thread
        before = info.version
        info = await play_by_dm(bot, emu, players, info.id, thread, 4)
        assert info.version >= before + 4
        rows = [r for r in await statuses(bot, info.id) if r[0] > before]
        assert rows and all(s == "dead" and "404/10003" in e for _, s, e in rows), rows
        # The first refusal is remembered: one ERROR line, the later boards not tried.
        assert len(refused_lines(caplog)) == 1
        for member in (alice, bob):
            told = [m for m in member.dms if "cannot reach" in m.content]
            assert len(told) == 1, [m.content for m in member.dms]
        # /schotten board in another channel brings the game there, and it goes on there.
        general = guild.default_channel
        handle = await alice.slash(("schotten", "board"), where=general)
        note = await handle.reply()
        assert note.ephemeral and "goes on here" in note.content
        # The board itself is for the channel, where the game now goes on.
        reply = await handle.attachment_message()
        assert not reply.ephemeral and "goes on here" in reply.content
        assert reply.attachments[0].filename == f"board-{info.id}-{info.version}.png"
        assert (await bot.service.match(info.id)).channel_id == general.id
        moved = info.version
        while not [r for r in await statuses(bot, info.id) if r[0] > moved]:
            info = await play_by_dm(bot, emu, players, info.id, general, 1)
        last = general.public_history()[-1]
        assert last.attachments and last.attachments[0].filename.startswith(f"board-{info.id}-")
        assert (await statuses(bot, info.id))[-1][1] == "sent"
        await assert_replays(bot, info.id)
        await emu.assert_all_acknowledged()


async def test_discords_trouble_is_retried_and_a_429_waits_as_told(world):
    emu, guild, alice, bob, _, db = world
    clock = ManualClock()
    async with running_bot(emu, db, clock) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        thread = emu.world.channel(info.channel_id)
        players = players_of(alice, bob)
        board = r"^/channels/\d+/messages(/\d+)?$"
        # A 503 (Discord's trouble): retried after the first back-off, holding back the
        # game's later announcements meanwhile, never setting the board aside.
        emu.refuse(503, 0, "Service Unavailable", path=board, when=lambda b: True, times=1)
        mover = players[info.deciding_user]
        await mover.move_by_clicks(thread, info.id, info.version)
        row = await pending_board(bot, info.id)
        assert row["next_try"] == clock.now() + 5.0 and "503" in row["error"]
        clock.advance(seconds=5)
        await bot.front.relay.deliver(info.id)
        assert await pending_board(bot, info.id) is None
        # A 429 that outlasts discord.py's own retries: the relay waits what Discord said.
        emu.refuse(
            429,
            0,
            "You are being rate limited.",
            path=board,
            when=lambda b: True,
            times=5,
            retry_after=0.01,
        )
        info = await bot.service.match(info.id)
        await players[info.deciding_user].move_by_clicks(thread, info.id, info.version)
        row = await pending_board(bot, info.id)
        assert row["next_try"] == pytest.approx(clock.now() + 0.01) and "429" in row["error"]
        clock.advance(seconds=0.01)
        await bot.front.relay.deliver(info.id)
        assert await pending_board(bot, info.id) is None
        rows = await statuses(bot, info.id)
        assert [s for _, s, _ in rows] == ["sent"] * len(rows)
        await assert_replays(bot, info.id)


async def pending_board(bot, match_id):
    """The match's board waiting to be retried, once the relay has tried it."""
    for _ in range(500):
        rows = await bot.service.store._all(
            "SELECT * FROM outbox WHERE match_id = ? AND kind = 'board' AND status = 'pending'",
            (match_id,),
        )
        if not rows:
            return None
        if rows[0]["error"]:
            return rows[0]
        await asyncio.sleep(0.02)
    raise AssertionError("the relay never tried the board")
