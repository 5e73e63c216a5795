"""Notifications the member chooses (issue 29, item 4): each member's own `my_turn_dm`,
`my_pings` and `my_reminders`, set with `/schotten settings` by any member, kept per member
on both stores and across a restart, and obeyed wherever the bot notifies. Through the real
discord.py client and the loopback Discord, which records whom each message mentions and
whom its creation notified."""

import asyncio
import random

import pytest

from bot.front.notifications import mentions_for
from bot.sandbox import SimPlayer, board_posts, running_bot, wait_for_announcements
from bot.service import GameService
from bot.store import Notifications, open_store
from bot.time_source import ManualClock
from discord_loopback import SimulationError

from .test_e2e import start_game
from .test_turns import start_against_the_computer


@pytest.fixture
def bot_database(database):
    """These run on both backends: a SQLite file and a PostgreSQL database."""
    return database


async def set_mine(member, channel, **options):
    """`/schotten settings` with the member's own options; the private answer."""
    reply = await (await member.slash(("schotten", "settings"), where=channel, **options)).reply()
    assert reply.ephemeral, reply.content
    return reply


async def play_turn(bot, emu, info_id, member, thread):
    """The member types moves until the decision is no longer theirs; the match then, with
    its announcements sent."""
    player = SimPlayer(member, random.Random(7), clicks=0.0)
    info = await bot.service.match(info_id)
    while info.deciding_user == member.id and not info.is_over:
        version = info.version
        await player.move_by_command(thread)
        while (info := await bot.service.match(info_id)).version == version:
            await asyncio.sleep(0.01)
        await wait_for_announcements(bot, info_id)
    return info


def hand_dms(member, match_id):
    return [
        m
        for m in member.dms
        if any(a.filename.startswith(f"hand-{match_id}-") for a in m.attachments)
    ]


# The store -------------------------------------------------------------------------------------


async def test_the_store_keeps_each_members_notifications(database, clock):
    store = await open_store(database)
    try:
        # Nobody changed theirs: all on, as before the setting existed.
        assert await store.notifications([1, 2]) == {1: Notifications(1), 2: Notifications(2)}
        async with store.transaction() as tx:
            await store.put_notifications(tx, Notifications(2, turn_dm=False), clock.now())
            await store.put_notifications(tx, Notifications(3, pings=False), clock.now())
            await store.put_notifications(tx, Notifications(4, turn_both=True), clock.now())
        async with store.transaction() as tx:  # a second change replaces the first
            await store.put_notifications(
                tx, Notifications(3, pings=True, reminders=False), clock.now()
            )
    finally:
        await store.close()
    service = await GameService.open(database, clock=clock)  # another process, or a restart
    try:
        assert await service.notifications_of([1, 2, 3, 4]) == {
            1: Notifications(1),
            2: Notifications(2, turn_dm=False),
            3: Notifications(3, reminders=False),
            4: Notifications(4, turn_both=True),  # one signal a turn is the default
        }
        changed = await service.update_notifications(1, pings=False)
        assert changed == Notifications(1, pings=False)
        # Keys it does not know are refused, and nothing changes.
        with pytest.raises(Exception, match="no setting called turn_dms"):
            await service.update_notifications(1, turn_dms=False)
        assert await service.notifications(1) == Notifications(1, pings=False)
    finally:
        await service.close()


# The settings command ------------------------------------------------------------------------


async def test_any_member_sets_their_own_and_they_are_kept_across_a_restart(world):
    emu, guild, alice, bob, _, db = world
    channel = guild.default_channel
    alice.manage_guild = True
    async with running_bot(emu, db) as bot:
        # Bob may not manage the server, yet sets his own notifications.
        reply = await set_mine(bob, channel, my_turn_dm=False, my_reminders=False)
        assert reply.content.startswith("Settings of this server (its managers change them with")
        assert "\n\nYour notifications, updated" in reply.content
        assert "• your hand by DM when it becomes your turn: off" in reply.content
        assert "• mentions that notify you in your games' threads: on" in reply.content
        assert "• turn reminders: off" in reply.content
        # The server's options are not among a member's (Discord refuses them).
        with pytest.raises(SimulationError, match="forfeit_hours"):
            await set_mine(bob, channel, forfeit_hours=0, my_pings=False)
        assert await bot.service.notifications(bob.id) == Notifications(
            bob.id, turn_dm=False, reminders=False
        )
        assert (await bot.service.settings(guild.id)).forfeit_hours == 72
        # Alice, a manager, changes the server's, then her own; Bob's stay his.
        server = await alice.slash(("schotten-admin", "settings"), where=channel, reminder_hours=2)
        assert (await server.reply()).content.startswith("Settings updated.\n")
        reply = await set_mine(alice, channel, my_pings=False)
        assert "\n\nYour notifications, updated" in reply.content
        assert "• mentions that notify you in your games' threads: off" in reply.content
        assert "• your hand by DM when it becomes your turn: on" in reply.content
        await emu.assert_all_acknowledged()
    async with running_bot(emu, db) as bot:  # a restart
        shown = await set_mine(bob, channel)
        assert "\n\nYour notifications (yours alone" in shown.content
        assert "• your hand by DM when it becomes your turn: off" in shown.content
        assert "• turn reminders: off" in shown.content
        assert await bot.service.notifications(alice.id) == Notifications(alice.id, pings=False)
        assert (await bot.service.settings(guild.id)).reminder_hours == 2
        await emu.assert_all_acknowledged()


# Each one obeyed -----------------------------------------------------------------------------


async def test_one_signal_a_turn_the_dm_where_dms_are_open_the_ping_otherwise_both_if_asked(
    world,
):
    # Issue 39, item 5: by default a member hears of each turn once, by their hand's DM
    # where DMs are open, else by a ping in the thread; both only if they ask.
    emu, guild, alice, bob, _, db = world
    bob.dms_open = False
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob, game="classic", role="first")
        thread = emu.world.channel(info.channel_id)
        for _ in range(3):
            info = await play_turn(bot, emu, info.id, alice, thread)
            info = await play_turn(bot, emu, info.id, bob, thread)
        assert info.deciding_user == alice.id  # her fourth turn, his three
        # Alice: four hands by DM and no ping, though every board of hers names her.
        assert len(hand_dms(alice, info.id)) == 4
        assert alice.notifications(thread) == []
        named = [p for p in board_posts(thread) if f"**{alice.mention}** to play." in p.content]
        assert len(named) == 4 and all(p.mentions == [] for p in named)
        # Bob, whose DMs are closed: one ping a turn in the thread, no DM.
        assert len(bob.notifications(thread)) == 3 and bob.dms == []
        # Alice asks for both: from then on, each turn of hers brings the DM and the ping.
        reply = await set_mine(alice, guild.default_channel, my_turn_both=True)
        assert "• on your turn, both your hand by DM and a mention: on" in reply.content
        assert await bot.service.notifications(alice.id) == Notifications(alice.id, turn_both=True)
        for _ in range(2):
            info = await play_turn(bot, emu, info.id, alice, thread)
            info = await play_turn(bot, emu, info.id, bob, thread)
        assert len(hand_dms(alice, info.id)) == 6
        pings = alice.notifications(thread)
        assert len(pings) == 2 and all(f"**{alice.mention}** to play." in p.content for p in pings)
        assert len(bob.notifications(thread)) == 5 and bob.dms == []
        await emu.assert_all_acknowledged()


async def test_turn_dms_off_no_hand_by_dm_but_the_board_pings_and_the_hand_is_there(world):
    emu, guild, alice, bob, _, db = world
    async with running_bot(emu, db) as bot:
        await set_mine(bob, guild.default_channel, my_turn_dm=False)
        info = await start_game(bot, emu, guild, alice, bob, game="classic", role="first")
        thread = emu.world.channel(info.channel_id)
        assert hand_dms(alice, info.id)  # Alice's are on: her first hand came by DM
        info = await play_turn(bot, emu, info.id, alice, thread)
        assert info.deciding_user == bob.id
        # Bob's turn: no hand by DM, and no notice as for closed DMs; the board that
        # handed him the turn mentioned him and notified him.
        assert hand_dms(bob, info.id) == [] and bob.dms == []
        board = board_posts(thread)[-1]
        assert board.notified == [bob.user] and bob.user in board.mentions
        assert not [m for m in thread.public_history() if "direct messages" in m.content]
        # His hand is there when he asks: /schotten hand, and Show my hand.
        hand = await (await bob.slash(("schotten", "hand"), where=thread)).reply()
        assert hand.ephemeral and hand.attachments and hand.all_components()
        assert hand.attachments[0].filename == f"hand-{info.id}-{info.version}.png"
        shown = await (await bob.click(board, label="Show my hand")).reply()
        assert shown.ephemeral and shown.attachments and shown.is_visible_to(bob.user)
        # He plays; Alice's hand comes by DM as before, and his never does.
        alice_before = len(hand_dms(alice, info.id))
        info = await play_turn(bot, emu, info.id, bob, thread)
        assert len(hand_dms(alice, info.id)) == alice_before + 1
        info = await play_turn(bot, emu, info.id, alice, thread)
        assert info.deciding_user == bob.id and hand_dms(bob, info.id) == []
        assert board_posts(thread)[-1].notified == [bob.user]
        await emu.assert_all_acknowledged()


async def test_turn_dms_off_against_the_computer_a_line_pings_when_the_board_was_edited(world):
    emu, guild, alice, _, _, db = world
    async with running_bot(emu, db) as bot:
        await set_mine(alice, guild.default_channel, my_turn_dm=False)
        info = await start_against_the_computer(
            bot, emu, guild, alice, game="classic", role="first", level="easy"
        )
        thread = emu.world.channel(info.channel_id)
        # Her first turn: the opening board notified her.
        assert board_posts(thread)[0].notified == [alice.user]
        for _ in range(2):
            info = await play_turn(bot, emu, info.id, alice, thread)
            while info.deciding_user != alice.id:  # the computer's reply edits the board
                info = await bot.service.match(info.id)
            await wait_for_announcements(bot, info.id)
        # Each time the computer handed the turn back by an edit (which notifies nobody),
        # a line in the thread mentioned her; she got no DM at all.
        lines = [m for m in alice.notifications(thread) if "your move in game" in m.content]
        assert len(lines) == 2 and all(alice.user in m.mentions for m in lines)
        assert alice.dms == []
        # With pings off too, nothing tells her: the board is edited, and no line comes.
        await set_mine(alice, guild.default_channel, my_pings=False)
        info = await play_turn(bot, emu, info.id, alice, thread)
        while info.deciding_user != alice.id:
            info = await bot.service.match(info.id)
        await wait_for_announcements(bot, info.id)
        said = [m for m in thread.public_history() if "your move in game" in m.content]
        assert len(said) == 2 and alice.dms == []  # the board of this round was edited
        assert f"**{alice.mention}** to play." in board_posts(thread)[-1].content
        assert len(alice.notifications(thread)) == 3  # the opening board and the two lines
        await emu.assert_all_acknowledged()


async def test_closed_dms_and_pings_off_the_notice_names_the_member_quietly(world):
    emu, guild, alice, _, _, db = world
    alice.dms_open = False
    async with running_bot(emu, db) as bot:
        await set_mine(alice, guild.default_channel, my_pings=False)
        info = await start_against_the_computer(
            bot, emu, guild, alice, game="classic", role="first", level="easy"
        )
        thread = emu.world.channel(info.channel_id)
        for _ in range(2):
            info = await play_turn(bot, emu, info.id, alice, thread)
            while info.deciding_user != alice.id:
                info = await bot.service.match(info.id)
            await wait_for_announcements(bot, info.id)
        # Told once, by name, that her hand is behind Show my hand; never notified, and no
        # line pings her when the computer's reply hands the turn back.
        notices = [m for m in thread.public_history() if "direct messages" in m.content]
        assert len(notices) == 1 and alice.mention in notices[0].content
        assert notices[0].mentions == []
        assert not [m for m in thread.public_history() if "your move in game" in m.content]
        assert alice.notifications(thread) == []
        await emu.assert_all_acknowledged()


async def test_a_post_naming_several_members_mentions_only_those_who_want_pings(service):
    # A tournament's round announcement and its game's first post name the players.
    await service.update_notifications(2, pings=False)
    mentions = (await mentions_for(service, [1, 2, 3])).to_dict()
    assert mentions["parse"] == [] and mentions["users"] == [1, 3]
    # All of them: still named one by one, so a post that names others too (a tournament's
    # pairings, where only the byes are pinged) pings only these (issue 39, item 13 f).
    mentions = (await mentions_for(service, [1, 3])).to_dict()
    assert mentions["parse"] == [] and mentions["users"] == [1, 3]
    mentions = (await mentions_for(service, [])).to_dict()  # nobody
    assert mentions["parse"] == [] and mentions["users"] == []


async def test_pings_off_the_posts_name_the_member_without_mentioning_them(world):
    emu, guild, alice, bob, _, db = world
    clock = ManualClock()
    async with running_bot(emu, db, clock) as bot:
        await set_mine(bob, guild.default_channel, my_pings=False)
        info = await start_game(bot, emu, guild, alice, bob, game="classic", role="first")
        thread = emu.world.channel(info.channel_id)
        # Alice's turn: her board names her; her hand's DM is the one signal (issue 39).
        assert board_posts(thread)[0].notified == [] and hand_dms(alice, info.id)
        info = await play_turn(bot, emu, info.id, alice, thread)
        # Bob's turn: the board names him, but neither mentions nor notifies him; his hand
        # still comes by DM (a DM notifies).
        board = board_posts(thread)[-1]
        assert bob.mention in board.content
        assert board.mentions == [] and board.notified == []
        assert hand_dms(bob, info.id)
        # The reminder names him without notifying him either.
        clock.advance(hours=25)
        await bot.front.handle_due()
        reminder = thread.public_history()[-1]
        assert "waiting for your move" in reminder.content and bob.mention in reminder.content
        assert reminder.mentions == [] and reminder.notified == []
        # The end notifies Alice, who wants it, and not Bob.
        confirm = await (await alice.slash(("schotten", "resign"), where=thread)).reply()
        await (await alice.click(confirm, label="Yes, resign")).ack()
        while not (await bot.service.match(info.id)).is_over:
            await asyncio.sleep(0.01)
        await wait_for_announcements(bot, info.id)
        last = board_posts(thread)[-1]
        # (Bob never moved: the game is aborted, rules notes R-28; the end is posted all the same.)
        assert "**The game is aborted**" in last.content and bob.mention in last.content
        assert last.notified == [alice.user] and bob.user not in last.mentions
        assert bob.notifications(thread) == []
        await emu.assert_all_acknowledged()


async def test_reminders_off_no_reminder_but_the_opponents_come_and_the_forfeit_applies(world):
    emu, guild, alice, bob, _, db = world
    clock = ManualClock()
    async with running_bot(emu, db, clock) as bot:
        await set_mine(bob, guild.default_channel, my_reminders=False)
        info = await start_game(bot, emu, guild, alice, bob, game="classic", role="first")
        thread = emu.world.channel(info.channel_id)

        def reminders():
            return [m for m in thread.public_history() if "waiting for your move" in m.content]

        # Alice keeps it waiting past the reminder time: she is reminded.
        clock.advance(hours=25)
        await bot.front.handle_due()
        assert len(reminders()) == 1 and alice.mention in reminders()[0].content
        assert reminders()[0].notified == [alice.user]
        info = await play_turn(bot, emu, info.id, alice, thread)
        # Bob keeps it waiting past the reminder time: nothing for him, however often the
        # timer looks.
        clock.advance(hours=25)
        await bot.front.handle_due()
        clock.advance(hours=1)
        await bot.front.handle_due()
        assert len(reminders()) == 1
        assert [m for m in bob.notifications(thread) if "waiting" in m.content] == []
        written = await bot.service.store._all(
            "SELECT seat FROM outbox WHERE kind = 'reminder' AND match_id = ?", (info.id,)
        )
        assert [r["seat"] for r in written] == [info.seat_of(alice.id)]  # none was written
        # The forfeit on time still applies to him.
        clock.advance(hours=48)
        await bot.front.handle_due()
        await emu.wait_for_message(lambda m: "ran out of time" in m.content, timeout=10)
        final = await bot.service.match(info.id)
        assert final.status == "finished" and final.match.winner == final.seat_of(alice.id)
        assert len(reminders()) == 1
        await emu.assert_all_acknowledged()
