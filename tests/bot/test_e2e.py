"""End to end: the real discord.py client and the real bot against the loopback emulator."""

import asyncio
import random
import re

import pytest

from bot.sandbox import (
    SimPlayer,
    board_posts,
    play_to_the_end,
    running_bot,
    wait_for_announcements,
    wait_for_game,
    wait_for_version,
)
from discord_loopback import SimulationError
from engine.api import VARIANTS, new_match


@pytest.fixture
def bot_database(database):
    """These games run on both backends: a SQLite file and a PostgreSQL database."""
    return database


async def start_game(bot, emu, guild, challenger, opponent, **options):
    handle = await challenger.slash(
        ("schotten", "challenge"), where=guild.default_channel, opponent=opponent, **options
    )
    challenge = await handle.reply(timeout=10)
    assert "challenges" in challenge.content and not challenge.ephemeral
    accept = await opponent.click(challenge, label="Accept")
    await accept.ack(timeout=10)
    info = await wait_for_game(bot, guild.id, challenger.id)
    board, hand = f"board-{info.id}-0.png", f"hand-{info.id}-0.png"
    await emu.wait_for_message(
        lambda m: any(a.filename == board for a in m.attachments), timeout=10
    )
    # Then the first player's hand (or the notice that their DMs are closed).
    await emu.wait_for_message(
        lambda m: (
            any(a.filename == hand for a in m.attachments)
            or "cannot send you direct messages" in m.content
        ),
        timeout=10,
    )
    return info


async def assert_one_board_per_turn(bot, thread, info):
    """The channel has the opening board and then exactly one board message per turn (a run
    of steps by one player; against the computer, per round: the computer's steps join the
    member's turn before them, or the opening board), and each message lists every event
    of its steps, in order: the events come from replaying the stored moves, not from the
    bot's messages."""
    moves = [(int(r["seat"]), r["text"]) for r in await bot.service.store.moves(info.id)]
    match = new_match(info.spec, info.seed)
    turns: list[list[str]] = [[]]  # the opening board's
    for i, (seat, text) in enumerate(moves):
        lines = [e.describe(info.names) for e in match.apply(match.parse_move(text, seat), seat)]
        resign = text.startswith(("resign", "timeout"))
        reply = seat == info.ai_seat and not resign
        if not reply and (i == 0 or moves[i - 1][0] != seat or resign):
            turns.append([])
        turns[-1] += lines
    posts = board_posts(thread)
    assert len(posts) == len(turns), (len(posts), len(turns))
    assert posts[0].attachments[0].filename.startswith(f"board-{info.id}-")
    for post, lines in zip(posts, turns, strict=True):
        at = 0
        for line in lines:
            found = post.content.find(f"• {line}", at)
            assert found >= 0, (line, post.content)
            at = found + len(line)


# Every variant on SQLite; on PostgreSQL one of each game (the store does not depend on the
# variant, and these games are the suite's longest).
@pytest.mark.parametrize(
    ("database", "variant"),
    [("sqlite", v) for v in VARIANTS] + [("postgresql", v) for v in ("classic", "siege-tactics")],
    indirect=["database"],
)
async def test_a_full_game_of_each_kind_by_commands_and_buttons(world, variant):
    emu, guild, alice, bob, _, db = world
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob, game=variant)
        # The game has its own thread, named after the players.
        thread = emu.world.channel(info.channel_id)
        assert thread.is_thread and thread.name == "Alice vs Bob"
        # The first player to move got their hand by DM, with controls.
        first = alice if info.deciding_user == alice.id else bob
        assert first.last_dm is not None and first.last_dm.attachments
        players = {
            alice.id: SimPlayer(alice, random.Random(1), clicks=0.5),
            bob.id: SimPlayer(bob, random.Random(2), clicks=0.5),
        }
        final = await play_to_the_end(bot, emu, players, info.id)
        assert final.is_over
        await asyncio.sleep(0.2)  # the final board
        await assert_one_board_per_turn(bot, thread, final)
        last = thread.public_history()[-1]
        assert "wins" in last.content or "drawn" in last.content
        assert "Ratings:" in last.content
        assert any(b["label"] == "Rematch" for b in last.buttons())
        await emu.assert_all_acknowledged()


async def test_hands_are_private_and_strangers_cannot_move(world):
    emu, guild, alice, bob, carol, db = world
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        thread = emu.world.channel(info.channel_id)
        mover = alice if info.deciding_user == alice.id else bob
        waiter = bob if mover is alice else alice
        # A stranger is refused, privately, and nothing changes.
        handle = await carol.slash(("schotten", "move"), where=thread, notation="R1 1")
        reply = await handle.reply()
        assert reply.ephemeral and "not playing in this game" in reply.content
        # The wrong player is told whose move it is.
        handle = await waiter.slash(("schotten", "move"), where=thread, notation="R1 1")
        assert "not your turn" in (await handle.reply()).content
        # A stranger's click on Show my hand reveals nothing.
        board = thread.public_history()[-1]
        handle = await carol.click(board, label="Show my hand")
        reply = await handle.reply()
        assert reply.ephemeral and not reply.attachments and "Only the players" in reply.content
        # The player's own click gets their hand, visible to them only.
        handle = await mover.click(board, label="Show my hand")
        reply = await handle.reply()
        assert reply.ephemeral and reply.attachments and reply.is_visible_to(mover.user)
        assert not carol.can_see(reply)
        assert (await bot.service.match(info.id)).version == 0
        await emu.assert_all_acknowledged()


async def test_autocomplete_offers_the_legal_moves(world):
    emu, guild, alice, bob, carol, db = world
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        thread = emu.world.channel(info.channel_id)
        mover = alice if info.deciding_user == alice.id else bob
        legal = {str(m) for m in info.match.legal_moves()}
        choices = await mover.autocomplete(
            ("schotten", "move"), "notation", where=thread, notation=""
        )
        assert {c["value"] for c in choices} <= legal and len(choices) == min(25, len(legal))
        card = next(iter(legal)).split()[0]
        narrowed = await mover.autocomplete(
            ("schotten", "move"), "notation", where=thread, notation=card.lower()
        )
        assert narrowed and all(c["value"].lower().startswith(card.lower()) for c in narrowed)
        # The waiting player is told whose turn it is, and choosing that is refused.
        other = bob if mover is alice else alice
        (waiting,) = await other.autocomplete(
            ("schotten", "move"), "notation", where=thread, notation=""
        )
        assert waiting["name"] == f"Not your turn: {mover.name} to play."
        reply = await (
            await other.slash(("schotten", "move"), where=thread, notation=waiting["value"])
        ).reply()
        assert f"It is not your turn: the game is waiting for {mover.name}." in reply.content
        (stranger,) = await carol.autocomplete(
            ("schotten", "move"), "notation", where=thread, notation=""
        )
        assert stranger["name"] == "This game is Alice against Bob; you are not playing in it."


async def test_closed_dms_are_announced_without_the_hand(world):
    emu, guild, alice, bob, _, db = world
    bob.dms_open = False
    alice.dms_open = False
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        thread = emu.world.channel(info.channel_id)
        mover = alice if info.deciding_user == alice.id else bob
        notice = await emu.wait_for_message(
            lambda m: "cannot send you direct messages" in m.content, timeout=10
        )
        assert mover.mention in notice.content and not notice.attachments
        # The Show my hand button still gives the hand, privately, with controls.
        player = SimPlayer(mover, random.Random(3), clicks=1.0)
        await player.move_by_clicks(thread, info.id, 0)
        await wait_for_version(bot, emu, info.id, 0)
        # To the end of the game: each player was told once, not at every turn.
        players = {
            alice.id: SimPlayer(alice, random.Random(4), clicks=0.5),
            bob.id: SimPlayer(bob, random.Random(5), clicks=0.5),
        }
        final = await play_to_the_end(bot, emu, players, info.id)
        await asyncio.sleep(0.2)
        notices = [m for m in thread.public_history() if "direct messages" in m.content]
        assert sorted(m.content.split(",")[0] for m in notices) == sorted(
            [alice.mention, bob.mention]
        )
        assert len(board_posts(thread)) > 10 and final.is_over


async def test_two_racing_clicks_apply_one_move(world):
    emu, guild, alice, bob, _, db = world
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob, game="siege")
        mover = alice if info.deciding_user == alice.id else bob
        dm = mover.last_dm
        card_select = next(s for s in dm.selects() if s["custom_id"].startswith("sch:c:"))
        step = await mover.select(
            dm, card_select["custom_id"], [card_select["options"][0]["value"]]
        )
        message = await step.update()
        move = next(b for b in message.buttons() if b["custom_id"].startswith("sch:m:"))
        first, second = await asyncio.gather(
            mover.click(message, move["custom_id"]), mover.click(message, move["custom_id"])
        )
        await first.ack()
        await second.ack()
        await wait_for_version(bot, emu, info.id, 0)
        await asyncio.sleep(0.3)
        assert (await bot.service.match(info.id)).version == 1
        replies = [m.content for h in (first, second) for m in h.followups]
        assert any("already played" in r or "moved on" in r for r in replies)
        await emu.assert_all_acknowledged()


async def test_old_buttons_work_after_a_restart(world):
    emu, guild, alice, bob, _, db = world
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        mover = alice if info.deciding_user == alice.id else bob
        dm = mover.last_dm
    # A new bot process on the same database: the DM sent by the old one still works.
    async with running_bot(emu, db) as bot:
        card_select = next(s for s in dm.selects() if s["custom_id"].startswith("sch:c:"))
        step = await mover.select(
            dm, card_select["custom_id"], [card_select["options"][0]["value"]]
        )
        message = await step.update()
        move = next(b for b in message.buttons() if b["custom_id"].startswith("sch:m:"))
        await (await mover.click(message, move["custom_id"])).ack()
        info = await wait_for_version(bot, emu, info.id, 0)
        assert info.version == 1
        await emu.assert_all_acknowledged()


async def both_move_by_command(bot, emu, info, members):
    """Each player makes a move of their own with /schotten move (the first legal one), so
    that a resignation is rated rather than aborted (rules notes R-28)."""
    thread = emu.world.channel(info.channel_id)
    moved = set()
    while moved != {0, 1}:
        now = await bot.service.match(info.id)
        seat = now.to_decide
        member = members[now.players[seat]]
        move = str(now.match.legal_moves()[0])
        await (await member.slash(("schotten", "move"), where=thread, notation=move)).ack()
        await wait_for_version(bot, emu, info.id, now.version)
        moved.add(seat)
    await wait_for_announcements(bot, info.id)


async def test_leaderboard_stats_and_history_afterwards(world):
    emu, guild, alice, bob, _, db = world
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        thread = emu.world.channel(info.channel_id)
        await both_move_by_command(bot, emu, info, {alice.id: alice, bob.id: bob})
        version = (await bot.service.match(info.id)).version
        handle = await bob.slash(("schotten", "resign"), where=thread)
        confirm = await handle.reply()
        assert confirm.ephemeral and "Resign the game against Alice?" in confirm.content
        await (await bob.click(confirm, label="Yes, resign")).ack()
        await wait_for_version(bot, emu, info.id, version)
        channel = guild.default_channel
        board = await (await alice.slash(("schotten", "leaderboard"), where=channel)).reply()
        text = board.embed_text()
        assert text.index("Alice") < text.index("Bob")
        # Ratings on the familiar scale: a new player has 1000; one game is "1 rated game".
        # After one game both are provisional (rules notes R-29): "1100?", and a footnote.
        (alice_line,) = [line for line in text.splitlines() if "Alice" in line]
        (bob_line,) = [line for line in text.splitlines() if "Bob" in line]
        assert re.fullmatch(r"\*\*1\.\*\* Alice: 1[01]\d\d\? \(1 rated game\)", alice_line)
        assert re.fullmatch(r"\*\*2\.\*\* Bob: 9\d\d\? \(1 rated game\)", bob_line)
        assert "Ratings start at 1000" in text
        assert "A rating marked ? is provisional" in text
        stats = await (await alice.slash(("schotten", "stats"), where=channel, against=bob)).reply()
        assert "1 won, 0 lost" in stats.embed_text()
        assert "1 finished game:" in stats.embed_text()
        assert re.search(r"Rating 1[01]\d\d\? \(#1 of 2\)", stats.embed_text())
        assert "Ratings start at 1000" in stats.embed_text()
        history = await (await bob.slash(("schotten", "history"), where=channel)).reply()
        assert f"#{info.id}" in history.embed_text() and "loss" in history.embed_text()
        export = await (
            await bob.slash(("schotten", "history"), where=channel, game_id=info.id)
        ).reply()
        text = export.attachment_bytes()[0].decode()
        assert "Result: Alice wins (resignation)" in text
        # The end of the game's board gives the rating changes in the same points.
        last = board_posts(thread)[-1].content
        assert re.search(r"Alice: 1[01]\d\d \(\+\d+\)", last), last
        await emu.assert_all_acknowledged()


async def test_a_resign_at_move_one_is_aborted_everywhere(world):
    # rules notes R-28: resigned before both players moved, the game is aborted: no winner, no
    # rating change, no win or loss, and every place that shows its result says so.
    emu, guild, alice, bob, _, db = world
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        thread = emu.world.channel(info.channel_id)
        confirm = await (await bob.slash(("schotten", "resign"), where=thread)).reply()
        await (await bob.click(confirm, label="Yes, resign")).ack()
        final = await wait_for_version(bot, emu, info.id, 0)
        assert final.aborted
        await wait_for_announcements(bot, info.id)
        last = board_posts(thread)[-1].content
        assert "**The game is aborted** (Bob resigned before both players had moved)" in last
        assert "no rating change" in last and "wins" not in last
        # The hand, shown from the final board, says so too (as the hand's DM would).
        hand = await (await alice.click(board_posts(thread)[-1], label="Show my hand")).reply()
        assert "**The game is aborted** (Bob resigned" in hand.content
        channel = guild.default_channel
        board = await (await alice.slash(("schotten", "leaderboard"), where=channel)).reply()
        assert "Nobody has finished a rated game yet" in board.embed_text()
        stats = await (await alice.slash(("schotten", "stats"), where=channel)).reply()
        assert "0 finished games: 0 won, 0 lost" in stats.embed_text()
        assert f"#{info.id} vs Bob: aborted" in stats.embed_text()
        history = await (await bob.slash(("schotten", "history"), where=channel)).reply()
        assert re.search(rf"#{info.id} · .* vs Alice: \*\*aborted\*\*", history.embed_text())
        export = await (
            await bob.slash(("schotten", "history"), where=channel, game_id=info.id)
        ).reply()
        text = export.attachment_bytes()[0].decode()
        assert [ln for ln in text.splitlines() if ln.startswith("Result")] == [
            "Result: aborted (Bob resigned before both players had moved), unrated"
        ]
        late = await (await alice.slash(("schotten", "resign"), where=thread)).reply()
        assert "was aborted" in late.content or "no game" in late.content.lower()
        await emu.assert_all_acknowledged()


async def test_refusals_are_private_and_specific(world):
    emu, guild, alice, bob, _, db = world
    async with running_bot(emu, db) as bot:
        channel = guild.default_channel
        me = await (
            await alice.slash(("schotten", "challenge"), where=channel, opponent=alice)
        ).reply()
        assert me.ephemeral and "cannot challenge yourself" in me.content
        no_game = await (
            await alice.slash(("schotten", "move"), where=channel, notation="R1 1")
        ).reply()
        assert no_game.ephemeral and "no game in progress" in no_game.content
        rules = await (
            await alice.slash(("schotten", "rules"), where=channel, topic="tiles")
        ).reply()
        assert rules.ephemeral and "gate" in rules.embed_text()
        info = await start_game(bot, emu, guild, alice, bob)
        thread = emu.world.channel(info.channel_id)
        mover = alice if info.deciding_user == alice.id else bob
        bad = await (await mover.slash(("schotten", "move"), where=thread, notation="Z9 1")).reply()
        assert bad.ephemeral and "cannot read" in bad.content.lower()
        # A member who may not manage the server does not even see its settings' command.
        with pytest.raises(SimulationError, match="cannot see /schotten-admin"):
            await alice.slash(("schotten-admin", "settings"), where=channel, forfeit_hours=0)
        await emu.assert_all_acknowledged()


async def test_reminders_and_forfeits_reach_the_channel(world):
    from bot.time_source import ManualClock

    emu, guild, alice, bob, _, db = world
    clock = ManualClock()
    async with running_bot(emu, db, clock) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        thread = emu.world.channel(info.channel_id)
        waiting = alice if info.deciding_user == alice.id else bob
        clock.advance(hours=25)
        await bot.front.handle_due()  # what the timer loop runs
        reminder = thread.public_history()[-1]
        assert (
            waiting.mention in reminder.content
            and "waiting for your move for 1 day 1 h" in reminder.content
        )
        assert "lost on time in 1 day 23 h" in reminder.content
        clock.advance(hours=48)
        await bot.front.handle_due()
        result = await emu.wait_for_message(
            lambda m: "ran out of time" in m.content and bool(m.attachments), timeout=10
        )
        # Nobody had moved: lost on time before both players moved, the game is aborted,
        # unrated (rules notes R-28).
        assert (
            f"**The game is aborted** ({waiting.name} ran out of time before both players had"
            " moved): no winner, no rating change." in result.content
        )
        assert "wins" not in result.content
        assert (await bot.service.match(info.id)).status == "finished"


def typing_in(emu, channel_id: int) -> int:
    """How many times the bot showed "typing…" in this channel."""
    return sum(
        1 for r in emu.requests if r.method == "POST" and r.path.endswith(f"/{channel_id}/typing")
    )


@pytest.mark.parametrize(("game", "role"), [("classic", "second"), ("siege-tactics", "defender")])
async def test_a_game_against_the_computer(world, game, role):
    emu, guild, alice, _, _, db = world
    async with running_bot(emu, db) as bot:
        computer = guild.members[emu.bot.id]
        handle = await alice.slash(
            ("schotten", "challenge"),
            where=guild.default_channel,
            opponent=computer,
            game=game,
            role=role,
            level="easy",
        )
        reply = await handle.reply(timeout=10)
        assert "Computer (easy)" in reply.content and not reply.ephemeral
        # No acceptance needed: the game starts, and the computer (first to move) answers.
        info = await wait_for_game(bot, guild.id, alice.id)
        assert info.ai_seat is not None
        assert info.ai_level == "easy" and info.to_decide == info.ai_seat
        info = await wait_for_version(bot, emu, info.id, 0, timeout=30)
        while info.to_decide == info.ai_seat:  # its turn may hold more than one decision
            info = await wait_for_version(bot, emu, info.id, info.version, timeout=30)
        thread = emu.world.channel(info.channel_id)
        assert typing_in(emu, thread.id) >= 1  # it showed that it was thinking
        # Then Alice gets her hand by DM, and the game goes on to its end.
        hand = f"hand-{info.id}-{info.version}.png"
        dm = await emu.wait_for_message(
            lambda m: any(a.filename == hand for a in m.attachments), timeout=10
        )
        assert dm.channel.recipient is alice.user
        players = {alice.id: SimPlayer(alice, random.Random(5), clicks=0.5)}
        final = await play_to_the_end(bot, emu, players, info.id)
        assert final.is_over and await bot.service.verify(info.id)
        await wait_for_announcements(bot, info.id)  # the final board
        await assert_one_board_per_turn(bot, thread, final)
        last = thread.public_history()[-1]
        assert "wins" in last.content or "drawn" in last.content
        assert "do not change ratings" in last.content
        # Counted in Alice's stats, kept off the leaderboard, exportable like any game.
        channel = guild.default_channel
        stats = await (await alice.slash(("schotten", "stats"), where=channel)).reply()
        assert "Computer (easy)" in stats.embed_text()
        board = await (await alice.slash(("schotten", "leaderboard"), where=channel)).reply()
        assert "Alice" not in board.embed_text() and "Alice" not in board.content
        export = await (
            await alice.slash(("schotten", "history"), where=channel, game_id=info.id)
        ).reply()
        assert "Computer (easy)" in export.attachment_bytes()[0].decode()
        await emu.assert_all_acknowledged()


async def test_the_computer_moves_after_a_restart(world):
    from bot.records import Member
    from bot.service import GameService
    from engine.api import MatchSpec

    emu, guild, alice, _, _, db = world
    # A game stored while no bot ran (as if it stopped as the computer's turn came): the
    # computer owes the first move.
    service = await GameService.open(db)
    robot = Member(emu.bot.id, emu.bot.name, is_bot=True)
    ch = await service.challenge(
        guild.id,
        guild.default_channel.id,
        Member(alice.id, "Alice"),
        robot,
        MatchSpec("siege", first=1),
        computer_id=robot.id,
        ai_level="normal",
    )
    info = await service.accept(ch.id, alice.id)
    await service.close()
    assert info.to_decide == info.ai_seat == 1
    async with running_bot(emu, db) as bot:
        info = await wait_for_version(bot, emu, info.id, 0, timeout=30)
        assert info.version == 1 and info.to_decide == 0
        assert len(await bot.service.store.moves(info.id)) == 1


async def test_a_typed_resign_asks_first_and_a_typed_timeout_is_refused(world):
    emu, guild, alice, bob, _, db = world
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        thread = emu.world.channel(info.channel_id)
        for text in ("timeout", "time out"):
            reply = await (
                await alice.slash(("schotten", "move"), where=thread, notation=text)
            ).reply()
            assert reply.ephemeral and "Only the clock ends a game on time" in reply.content
        for text in ("resign", "Re sign"):
            confirm = await (
                await bob.slash(("schotten", "move"), where=thread, notation=text)
            ).reply()
            assert confirm.ephemeral and "Resign the game against Alice?" in confirm.content
        assert (await bot.service.match(info.id)).version == 0  # nothing happened yet
        await (await bob.click(confirm, label="Yes, resign")).ack()
        final = await wait_for_version(bot, emu, info.id, 0)
        assert final.match.outcome.termination.name == "RESIGNED"
        await emu.assert_all_acknowledged()


async def test_old_controls_and_late_moves_get_precise_refusals(world):
    from bot.time_source import ManualClock

    emu, guild, alice, bob, _, db = world
    clock = ManualClock()
    async with running_bot(emu, db, clock) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        thread = emu.world.channel(info.channel_id)
        mover = alice if info.deciding_user == alice.id else bob
        # Controls on a Show my hand reply (the bot cannot take them off a private reply
        # later, as it does a DM's); after a move by command they are from an earlier
        # position.
        board = board_posts(thread)[-1]
        old = await (await mover.click(board, label="Show my hand")).reply()
        player = SimPlayer(mover, random.Random(1), clicks=0.0)
        await player.move_by_command(thread)
        info = await wait_for_version(bot, emu, info.id, 0)
        card_select = next(s for s in old.selects() if s["custom_id"].startswith("sch:c:"))
        handle = await mover.select(
            old, card_select["custom_id"], [card_select["options"][0]["value"]]
        )
        reply = await handle.reply()
        assert "from an earlier position" in reply.content and "not yours" not in reply.content
        # The game is forfeited on time before the second player's first move: aborted, and
        # a late move says so (rules notes R-28).
        late = info.deciding_user
        late_member = alice if late == alice.id else bob
        clock.advance(hours=73)
        await bot.front.handle_due()
        await emu.wait_for_message(lambda m: "ran out of time" in m.content, timeout=10)
        reply = await (
            await late_member.slash(("schotten", "move"), where=thread, notation="pass")
        ).reply()
        assert f"Game #{info.id} was aborted ({late_member.name} ran out of time before both" in (
            reply.content
        )
        await emu.assert_all_acknowledged()


async def test_an_accept_faster_than_the_challenge_id_still_edits_the_challenge(world):
    emu, guild, alice, bob, _, db = world
    async with running_bot(emu, db) as bot:
        handle = await alice.slash(
            ("schotten", "challenge"), where=guild.default_channel, opponent=bob
        )
        challenge = await handle.reply(timeout=10)
        # As if Bob clicked before the bot stored the message's id.
        async with bot.service.store.transaction() as tx:
            await tx.run("UPDATE challenges SET message_id = NULL")
        await (await bob.click(challenge, label="Accept")).ack(timeout=10)
        info = await wait_for_game(bot, guild.id, alice.id)
        edited = await emu.wait_for_message(
            lambda m: m.id == challenge.id and "accepted" in m.content, timeout=10
        )
        assert f"<#{info.channel_id}>" in edited.content
        assert edited.buttons() == []


async def test_a_typed_move_takes_the_controls_off_the_old_hand_dm(world):
    emu, guild, alice, bob, _, db = world
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        mover = alice if info.deciding_user == alice.id else bob
        dm = mover.last_dm
        assert dm.all_components()
        thread = emu.world.channel(info.channel_id)
        await SimPlayer(mover, random.Random(1), clicks=0.0).move_by_command(thread)
        await wait_for_version(bot, emu, info.id, 0)
        await emu.wait_for_message(
            lambda m: m.id == dm.id and "earlier position" in m.content, timeout=10
        )
        assert dm.all_components() == []
        assert dm.attachments  # the picture stays, for the record
