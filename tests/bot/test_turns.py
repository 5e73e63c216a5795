"""A member always knows it is their turn, and that a game ended (issue 28, item 4): through
the real discord.py client and the loopback Discord, which records whom each message
notified when it was created (edits notify nobody), on both stores."""

import io
import random

import pytest
from PIL import Image

from bot.sandbox import (
    SimPlayer,
    board_posts,
    play_to_the_end,
    running_bot,
    wait_for_announcements,
    wait_for_game,
    wait_for_version,
)
from engine.api import new_match
from render import render_board, render_turn

from .test_e2e import start_game


@pytest.fixture
def bot_database(database):
    """These games run on both backends: a SQLite file and a PostgreSQL database."""
    return database


def version_of(message) -> int:
    """The version a board or hand picture shows (`board-1-12.png`: 12)."""
    return int(message.attachments[0].filename.rsplit("-", 1)[1].removesuffix(".png"))


async def replayed(bot, info, version):
    """The match as it was at `version`, replayed from its seed and stored moves."""
    match = new_match(info.spec, info.seed)
    for row in (await bot.service.store.moves(info.id))[:version]:
        match.apply(match.parse_move(row["text"], int(row["seat"])), int(row["seat"]))
    return match


async def member_turns(bot, info, seat) -> int:
    """How many turns `seat` had: runs of their stored moves."""
    seats = [int(r["seat"]) for r in await bot.service.store.moves(info.id)]
    return sum(1 for i, s in enumerate(seats) if s == seat and (i == 0 or seats[i - 1] != s))


async def start_against_the_computer(bot, emu, guild, alice, **options):
    computer = guild.members[emu.bot.id]
    handle = await alice.slash(
        ("schotten", "challenge"), where=guild.default_channel, opponent=computer, **options
    )
    await handle.reply(timeout=10)
    info = await wait_for_game(bot, guild.id, alice.id)
    await wait_for_announcements(bot, info.id)
    return info


async def test_the_member_to_move_is_pinged_once_per_turn_and_both_at_the_end(world):
    emu, guild, alice, bob, _, db = world
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob, game="tactics")
        thread = emu.world.channel(info.channel_id)
        players = {
            alice.id: SimPlayer(alice, random.Random(21), clicks=0.5),
            bob.id: SimPlayer(bob, random.Random(22), clicks=0.5),
        }
        final = await play_to_the_end(bot, emu, players, info.id)
        await wait_for_announcements(bot, info.id)
        posts = board_posts(thread)
        *turns, last = posts
        # Each turn's board names the member to move, but notified nobody: their hand's
        # DM is the one signal of their turn (issue 39); a Tactics turn has two steps or
        # more, yet one board.
        for post in turns:
            match = await replayed(bot, final, version_of(post))
            mover = final.players[match.to_decide]
            assert post.notified == [], post.content
            assert f"<@{mover}>" in post.content
        # The end is a message of its own that notified both players.
        assert last.attachments[0].filename == f"board-{info.id}-{final.version}.png"
        assert sorted(u.id for u in last.notified) == sorted([alice.id, bob.id])
        assert alice.mention in last.content and bob.mention in last.content
        assert not last.edited and thread.public_history()[-1] is last
        # One signal per turn: a hand by DM for each turn they had; the thread notified
        # each member once, with the end, never by an edit.
        for member in (alice, bob):
            seat = final.seat_of(member.id)
            assert member.notifications(thread) == [last]
            hands = [m for m in member.notifications(member.dm_channel) if m.attachments]
            assert len(hands) == await member_turns(bot, final, seat)
        assert (
            len(posts) == await member_turns(bot, final, 0) + await member_turns(bot, final, 1) + 1
        )  # and the opening board's


async def test_against_the_computer_one_board_per_round(world):
    emu, guild, alice, _, _, db = world
    async with running_bot(emu, db) as bot:
        info = await start_against_the_computer(
            bot, emu, guild, alice, game="classic", role="second", level="easy"
        )
        thread = emu.world.channel(info.channel_id)
        players = {alice.id: SimPlayer(alice, random.Random(23), clicks=0.5)}
        final = await play_to_the_end(bot, emu, players, info.id)
        await wait_for_announcements(bot, info.id)
        moves = len(await bot.service.store.moves(info.id))
        rounds = await member_turns(bot, final, final.seat_of(alice.id))
        posts = board_posts(thread)
        # The opening board (which the computer's first turn edits), then one board per
        # round: Alice's turn posts it, the computer's reply edits it. Each round is two
        # turns or more, so the game has about half as many boards as moves.
        assert len(posts) == 1 + rounds
        assert len(posts) <= moves // 2 + 2, (len(posts), moves)
        replies = [p for p in posts[:-1] if p.edited]
        assert len(replies) >= rounds - 1  # the computer's replies, shown by editing
        for post in posts[:-1]:
            if "Computer (easy) played" in post.content:
                assert f"**{alice.mention}** to play." in post.content  # it is her turn
        # Alice heard of each of her turns by her hand's DM (a DM notifies), not by the
        # edits; the thread notified her once: the end of the game.
        assert alice.notifications(thread) == [posts[-1]]
        hands = [m for m in alice.notifications(alice.dm_channel) if m.attachments]
        assert len(hands) >= rounds - 1


async def test_a_member_with_closed_dms_is_pinged_in_the_thread_every_turn(world):
    emu, guild, alice, _, _, db = world
    alice.dms_open = False
    async with running_bot(emu, db) as bot:
        info = await start_against_the_computer(
            bot, emu, guild, alice, game="classic", role="first", level="easy"
        )
        thread = emu.world.channel(info.channel_id)
        players = {alice.id: SimPlayer(alice, random.Random(24), clicks=1.0)}
        final = await play_to_the_end(bot, emu, players, info.id)
        await wait_for_announcements(bot, info.id)
        turns = await member_turns(bot, final, final.seat_of(alice.id))
        pings = alice.notifications(thread)
        # One ping per turn (for her first, the notice telling her once why her hand does
        # not come by DM; then a line after each of the computer's replies, which edit the
        # round's board), and one for the end.
        assert len(pings) == turns + 1, [p.content for p in pings]
        notices = [m for m in thread.public_history() if "direct messages" in m.content]
        assert len(notices) == 1
        lines = [p for p in pings if "your move in game" in p.content]
        assert len(lines) == turns - 1 and all(alice.mention in p.content for p in lines)
        assert pings[0] is notices[0] and pings[-1] is board_posts(thread)[-1]


async def test_game_commands_in_the_channel_point_to_the_games_thread(world):
    emu, guild, alice, bob, carol, db = world
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        thread = emu.world.channel(info.channel_id)
        assert thread.is_thread and thread.parent is guild.default_channel
        general = guild.default_channel
        for command in (("schotten", "hand"), ("schotten", "resign")):
            reply = await (await alice.slash(command, where=general)).reply()
            assert reply.ephemeral
            assert f"<#{thread.id}>" in reply.content and "against Bob" in reply.content
        move = await alice.slash(("schotten", "move"), where=general, notation="R1 1")
        reply = await move.reply()
        assert reply.ephemeral and f"<#{thread.id}>" in reply.content
        assert (await bot.service.match(info.id)).version == 0  # nothing was played
        # Someone with no game here is told there is none, as before.
        stranger = await (await carol.slash(("schotten", "hand"), where=general)).reply()
        assert "no game in progress" in stranger.content
        await emu.assert_all_acknowledged()


async def test_the_hand_dm_carries_the_board(world):
    emu, guild, alice, bob, _, db = world
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob, game="siege")
        mover = alice if info.deciding_user == alice.id else bob
        dm = mover.last_dm
        assert dm is not None and dm.attachments[0].filename == f"hand-{info.id}-0.png"
        seat = info.seat_of(mover.id)
        match = await replayed(bot, info, 0)
        expected = render_turn(match.view(seat), names=info.names, name=info.names[seat])
        assert dm.attachment_bytes()[0] == expected  # the board from their side, then the hand
        # The board and the hand under it, which a phone shows whole (issue 39).
        board = render_board(match.view(seat), names=info.names, bottom_seat=seat)
        board_height = Image.open(io.BytesIO(board)).height
        assert board_height < dm.attachments[0].height <= 2 * dm.attachments[0].width
        # After a move, the Show my hand reply carries the new board too.
        player = SimPlayer(mover, random.Random(25), clicks=1.0)
        thread = emu.world.channel(info.channel_id)
        await player.move_by_clicks(thread, info.id, 0)
        info = await wait_for_version(bot, emu, info.id, 0)
        await wait_for_announcements(bot, info.id)
        decider = alice if info.deciding_user == alice.id else bob
        shown = await (await decider.click(board_posts(thread)[-1], label="Show my hand")).reply()
        match = await replayed(bot, info, info.version)
        seat = info.seat_of(decider.id)
        expected = render_turn(match.view(seat), names=info.names, name=info.names[seat])
        assert shown.ephemeral and shown.attachment_bytes()[0] == expected
