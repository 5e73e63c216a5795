"""Threads and old messages as Discord plays them, with the real bot: a game's thread that
archived during a week without a move still gets its next board (a post unarchives it; an
edit there is refused, so the computer's reply is posted anew); a locked thread does not stop
the game; a server at its cap of active threads plays a new game in the channel; joins to a
tournament's sign-up post older than an hour are all kept without meeting 30046. The bot and
the loopback share one ManualClock, advanced past a week."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.sandbox import board_posts, running_bot, wait_for_announcements, wait_for_game
from bot.time_source import ManualClock
from discord_loopback import Emulator, SimGuild, SimMember
from discord_loopback.models import PRIVATE_THREAD

from .test_e2e import start_game
from .test_refusals import play_by_dm, players_of, refused_lines, settle, statuses

WEEK_AND_A_BIT = 7 * 24 + 1  # hours: past the game thread's auto_archive_duration (10080)

Place = tuple[Emulator, SimGuild, SimMember, SimMember, Any, ManualClock]


@pytest.fixture
async def place(bot_database: Any) -> AsyncIterator[Place]:
    """A server on a loopback whose clock is the bot's (both move together)."""
    clock = ManualClock()
    async with Emulator(clock=clock.now) as emu, emu.point_discord():
        guild = emu.create_guild("Test Server")
        alice, bob = guild.add_member("Alice"), guild.add_member("Bob")
        yield emu, guild, alice, bob, bot_database, clock
        assert emu.server_errors == []
        assert emu.unhandled_requests == []
        assert emu.refused_requests == [], [r.summary for r in emu.refused_requests]


def answered(emu: Emulator, status: int, method: str = "") -> list[str]:
    """The requests Discord answered with `status` (of `method`, if given)."""
    return [
        f"{r.method} {r.path}"
        for r in emu.requests
        if r.status == status and (not method or r.method == method)
    ]


async def test_a_week_without_a_move_archives_the_thread_and_the_next_board_still_comes(
    place: Place,
) -> None:
    emu, guild, alice, bob, db, clock = place
    async with running_bot(emu, db, clock) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        thread = emu.world.channel(info.channel_id)
        players = players_of(alice, bob)
        info = await play_by_dm(bot, emu, players, info.id, thread, 2)
        posted = len(board_posts(thread))
        clock.advance(hours=WEEK_AND_A_BIT)  # nobody moves for a week
        before = info.version
        while not [r for r in await statuses(bot, info.id) if r[0] > before]:
            info = await play_by_dm(bot, emu, players, info.id, thread, 1)
        # The thread archived (THREAD_UPDATE), and the next board's post unarchived it.
        assert thread.archivals == 1 and not thread.archived
        assert all(status == "sent" for _, status, _ in await statuses(bot, info.id))
        assert len(board_posts(thread)) > posted
        last = board_posts(thread)[-1]
        assert last.attachments[0].filename == f"board-{info.id}-{info.version}.png"
        assert answered(emu, 400) == []


async def test_the_computers_reply_in_an_archived_thread_is_posted_anew(
    place: Place, caplog: pytest.LogCaptureFixture
) -> None:
    emu, guild, alice, _, db, clock = place
    caplog.set_level(logging.INFO, logger="schotten.bot")
    async with running_bot(emu, db, clock) as bot:
        handle = await alice.slash(
            ("schotten", "challenge"), where=guild.default_channel, opponent=emu.bot
        )
        await handle.reply(timeout=10)
        info = await wait_for_game(bot, guild.id, alice.id)
        thread = emu.world.channel(info.channel_id)
        players = players_of(alice, alice)
        while info.deciding_user != alice.id:  # the computer may open
            info = await settle(bot, info.id, info.version)
        await wait_for_announcements(bot, info.id)
        # Alice moves; her turn's board is posted, and the computer's reply, which edits it,
        # meets a Discord outage (503: the relay tries again later)...
        outage = emu.refuse(503, 0, "Service Unavailable", method="PATCH", path=r"/messages/\d+$")
        await players[alice.id].move_by_clicks(thread, info.id, info.version)
        for _ in range(1000):  # until the relay has put the edit off for later
            if [r for r in await statuses(bot, info.id) if r[2] and "503" in r[2]]:
                break
            await asyncio.sleep(0.02)
        assert outage.hits, "the computer's reply never tried its edit"
        turn_board = board_posts(thread)[-1]  # the board of Alice's turn
        # ... that lasts a week: the thread archives, and Discord refuses edits there (50083).
        clock.advance(hours=WEEK_AND_A_BIT)
        outage.remove()
        for _ in range(500):
            await bot.front.relay.deliver()
            if not await bot.service.pending_announcements(info.id):
                break
            await asyncio.sleep(0.02)
        info = await bot.service.match(info.id)
        await wait_for_announcements(bot, info.id)
        rows = await statuses(bot, info.id)
        assert all(status in ("sent", "skipped") for _, status, _ in rows), rows
        assert thread.archivals == 1 and not thread.archived
        last = board_posts(thread)[-1]
        assert last is not turn_board
        assert last.attachments[0].filename == f"board-{info.id}-{info.version}.png"
        assert turn_board.deleted  # one board message for the turn, as always
        # Refused once, and not again in a plainer form; no player told of a refusal.
        assert len(answered(emu, 400, "PATCH")) == 1
        assert refused_lines(caplog) == []
        assert not [m for m in alice.dms if "refused" in m.content]


async def test_a_full_server_plays_the_new_game_in_the_channel(place: Place) -> None:
    emu, guild, alice, bob, db, clock = place
    emu.world.max_active_threads = len(emu.world.active_threads(guild))  # full already
    async with running_bot(emu, db, clock) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        general = guild.default_channel
        assert info.channel_id == general.id and guild.threads == []
        assert answered(emu, 400, "POST")  # Discord refused the thread (160006)
        board = board_posts(general)[-1]
        assert board.attachments[0].filename == f"board-{info.id}-0.png"
        players = players_of(alice, bob)
        after = await play_by_dm(bot, emu, players, info.id, general, 2)
        assert after.version >= 2
        assert all(status == "sent" for _, status, _ in await statuses(bot, info.id))


def sign_up_posts(emu: Emulator, channel: Any) -> list[Any]:
    """The channel's messages that carry a Join button (deleted ones are gone)."""
    return [
        m for m in channel.public_history() if any(b.get("label") == "Join" for b in m.buttons())
    ]


def the_post(emu: Emulator, channel: Any) -> Any:
    posts = sign_up_posts(emu, channel)
    return posts[-1] if len(posts) == 1 else None


async def the_sign_up_post(emu: Emulator, channel: Any) -> Any:
    """The one sign-up post, once a renewal in flight has deleted the old one."""
    return await emu.bus.notifier.wait_until(
        lambda: the_post(emu, channel), 10, lambda: "not one sign-up post"
    )


async def test_joins_to_an_old_sign_up_post_are_kept_without_30046(place: Place) -> None:
    emu, guild, alice, bob, db, clock = place
    boss = guild.add_member("Manon", manage_guild=True)
    names = ["Ann", "Ben", "Cid", "Dee", "Eve", "Fay", "Gus"]
    members = [guild.add_member(n) for n in names]
    channel = guild.default_channel
    async with running_bot(emu, db, clock) as bot:
        handle = await boss.slash(
            ("schotten-admin", "tournament", "create"),
            where=channel,
            name="Friday Swiss",
            game="classic",
            rounds=3,
            round_hours=24,
        )
        notice = await handle.reply(timeout=10)
        first = await (await alice.click(notice, label="Join")).reply()
        assert "You joined" in first.content
        await emu.bus.notifier.wait_until(  # a young post is edited
            lambda: "Alice" in notice.content, 10, lambda: "the sign-up post was not edited"
        )
        clock.advance(hours=2)  # the sign-up post is now older than an hour
        for member in members:
            post = await the_sign_up_post(emu, channel)
            joined = await (await member.click(post, label="Join")).reply()
            assert "You joined" in joined.content
        (t,) = await bot.front.tournaments.live(guild.id)
        assert len(t.entrants) == len(names) + 1  # no join lost
        # One sign-up post, posted afresh once, showing everyone; Discord said no 30046.
        await emu.bus.notifier.wait_until(
            lambda: names[-1] in getattr(the_post(emu, channel), "content", ""),
            10,
            lambda: "the sign-up post does not show the last join",
        )
        post = the_post(emu, channel)
        assert all(n in post.content for n in [*names, "Alice"]), post.content
        assert answered(emu, 429) == []
        assert post is not notice and notice.deleted
        assert bob.id not in [e.user_id for e in t.entrants]


async def test_a_locked_thread_goes_on_by_dm_and_the_board_command_moves_the_game(
    place: Place, caplog: pytest.LogCaptureFixture
) -> None:
    emu, guild, alice, bob, db, clock = place
    caplog.set_level(logging.INFO, logger="schotten.bot")
    async with running_bot(emu, db, clock) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        thread = emu.world.channel(info.channel_id)
        players = players_of(alice, bob)
        info = await play_by_dm(bot, emu, players, info.id, thread, 2)
        emu.world.lock_thread(thread)  # a moderator locks the game's thread
        before = info.version
        info = await play_by_dm(bot, emu, players, info.id, thread, 4)
        assert info.version >= before + 4  # the game went on, by DM
        rows = [r for r in await statuses(bot, info.id) if r[0] > before]
        assert rows and all(s == "dead" and "160005" in e for _, s, e in rows), rows
        # Nothing asked blindly: the bot knew of the lock (THREAD_UPDATE), so no post there
        # was refused, and each player was told once, by DM.
        assert [r for r in answered(emu, 403) if str(thread.id) in r] == []
        for member in (alice, bob):
            told = [m for m in member.dms if "locked" in m.content]
            assert len(told) == 1, [m.content for m in member.dms]
        mover = alice if info.deciding_user == alice.id else bob
        assert f":{info.id}:{info.version}" in str(mover.last_dm.all_components())
        # /schotten board in another channel brings the game there, where it goes on.
        general = guild.default_channel
        handle = await alice.slash(("schotten", "board"), where=general)
        assert "goes on here" in (await handle.reply()).content
        reply = await handle.attachment_message()
        assert reply.attachments[0].filename == f"board-{info.id}-{info.version}.png"
        assert (await bot.service.match(info.id)).channel_id == general.id
        moved = info.version
        while not [r for r in await statuses(bot, info.id) if r[0] > moved]:
            info = await play_by_dm(bot, emu, players, info.id, general, 1)
        assert (await statuses(bot, info.id))[-1][1] == "sent"
        assert board_posts(general)[-1].attachments[0].filename.startswith(f"board-{info.id}-")


async def test_a_game_in_a_private_thread_goes_on_after_the_bot_is_removed_from_it(
    place: Place, caplog: pytest.LogCaptureFixture
) -> None:
    emu, guild, alice, bob, db, clock = place
    caplog.set_level(logging.INFO, logger="schotten.bot")
    general = guild.default_channel
    secret = emu.world.create_thread(
        general, name="our table", owner=alice.user, thread_type=PRIVATE_THREAD
    )
    for user in (bob.user, emu.bot):  # Alice invites Bob and the bot
        emu.world.set_thread_member(secret, user, True)
    async with running_bot(emu, db, clock) as bot:
        handle = await alice.slash(("schotten", "challenge"), where=secret, opponent=bob)
        challenge = await handle.reply(timeout=10)
        await (await bob.click(challenge, label="Accept")).ack(timeout=10)
        info = await wait_for_game(bot, guild.id, alice.id)
        assert info.channel_id == secret.id  # played in the private thread, as a member
        players = players_of(alice, bob)
        info = await play_by_dm(bot, emu, players, info.id, secret, 2)
        assert board_posts(secret)
        emu.world.set_thread_member(secret, emu.bot, False)  # Alice removes the bot
        before = info.version
        info = await play_by_dm(bot, emu, players, info.id, secret, 4)
        assert info.version >= before + 4  # the game went on, by DM
        rows = [r for r in await statuses(bot, info.id) if r[0] > before]
        assert rows and all(s == "dead" and "403/50001" in e for _, s, e in rows), rows
        assert len(refused_lines(caplog)) == 1  # refused once, then not asked again
        for member in (alice, bob):
            told = [m for m in member.dms if "cannot reach" in m.content]
            assert len(told) == 1, [m.content for m in member.dms]


async def test_a_tournament_in_a_full_server_asks_for_threads_once_in_a_while(place: Place) -> None:
    emu, guild, alice, bob, db, clock = place
    boss = guild.add_member("Manon", manage_guild=True)
    others = [guild.add_member(n) for n in ("Cid", "Dee")]
    channel = guild.default_channel
    threads = f"/channels/{channel.id}/threads"

    def refused_threads() -> int:
        return sum(r.endswith(threads) for r in answered(emu, 400, "POST"))

    async with running_bot(emu, db, clock) as bot:
        handle = await boss.slash(
            ("schotten-admin", "tournament", "create"),
            where=channel,
            name="Full House",
            game="classic",
            rounds=2,
            round_hours=24,
        )
        notice = await handle.reply(timeout=10)
        for member in (alice, bob, *others):
            await (await member.click(notice, label="Join")).reply()
        emu.world.max_active_threads = len(emu.world.active_threads(guild))  # full
        started = await boss.slash(("schotten-admin", "tournament", "start"), where=channel)
        await started.reply(timeout=15)
        for _ in range(5):  # the timer loop's ticks, a minute apart
            await bot.front.desk.tick()
            clock.advance(seconds=60)
        # Discord said 160006 once; the two games waited rather than ask at every tick.
        assert refused_threads() == 1
        assert len(await bot.front.tournaments.to_start()) == 2
        emu.world.max_active_threads = 1000  # threads archived meanwhile
        clock.advance(hours=1)
        await bot.front.desk.tick()
        assert refused_threads() == 1
        assert not await bot.front.tournaments.to_start()
        assert len(guild.threads) == 2


async def test_a_thread_closed_and_locked_then_reopened_gets_its_boards_again(
    place: Place,
) -> None:
    emu, guild, alice, bob, db, clock = place
    async with running_bot(emu, db, clock) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        thread = emu.world.channel(info.channel_id)
        players = players_of(alice, bob)
        info = await play_by_dm(bot, emu, players, info.id, thread, 1)
        # A moderator closes and locks the thread: discord.py forgets archived threads, so
        # the bot learns of the lock from Discord's refusal (once), then remembers it.
        emu.world.lock_thread(thread)
        emu.world.archive_thread(thread)
        before = info.version
        info = await play_by_dm(bot, emu, players, info.id, thread, 4)
        rows = [r for r in await statuses(bot, info.id) if r[0] > before]
        assert rows and all(s == "dead" and "160005" in e for _, s, e in rows), rows
        assert len([r for r in answered(emu, 403) if str(thread.id) in r]) == 1
        # Reopened (unlocked, then unarchived): the next board goes to the thread again.
        emu.world.lock_thread(thread, locked=False)
        emu.world.update_channel(thread, {"archived": False})
        reopened = info.version
        for _ in range(500):  # until the bot has heard it (THREAD_UPDATE)
            if await bot.service.refusals.channel_closed(thread.id) is None:
                break
            await asyncio.sleep(0.02)
        while not [r for r in await statuses(bot, info.id) if r[0] > reopened]:
            info = await play_by_dm(bot, emu, players, info.id, thread, 1)
        assert (await statuses(bot, info.id))[-1][1] == "sent"
        assert (
            board_posts(thread)[-1].attachments[0].filename == f"board-{info.id}-{info.version}.png"
        )
