"""Personal look-ups answer privately, with a button that posts them in the channel
(issue 28, item 5), through the real discord.py client against the emulator."""

from bot.sandbox import running_bot
from tests.bot.test_e2e import start_game
from tests.bot.test_lookback import finish_by_service

SHARE = "Post in channel"


async def share(emu, member, private, channel):
    """Press Post in channel under `private`; the public message it posted."""
    before = {m.id for m in channel.messages}
    await (await member.click(private, label=SHARE)).ack(timeout=10)
    posted = await emu.wait_for_message(
        lambda m: m.channel is channel and m.id not in before and not m.ephemeral, timeout=20
    )
    # The private message says so and loses its button.
    await emu.bus.notifier.wait_until(
        lambda: "Posted in the channel" in private.content, 10, lambda: private.content
    )
    assert not any(b.get("label") == SHARE for b in private.buttons())
    assert posted.content.startswith(f"Shared by {member.mention}:")
    return posted


async def test_stats_and_history_are_private_until_shared(world):
    emu, guild, alice, bob, carol, db = world
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        await finish_by_service(bot, info)
        channel = guild.default_channel
        stats = await (
            await alice.slash(("schotten", "stats"), where=channel, against=bob)
        ).attachment_message(timeout=20)
        assert stats.ephemeral and not carol.can_see(stats)
        assert "Alice: stats" in stats.embed_text() and "Against Bob" in stats.embed_text()
        posted = await share(emu, alice, stats, channel)
        assert carol.can_see(posted)
        assert "Alice: stats" in posted.embed_text() and "Against Bob" in posted.embed_text()
        assert posted.attachments[0].filename == f"rating-{alice.id}.png"
        # Someone else's history, privately; shared, it names who shared it.
        history = await (
            await carol.slash(("schotten", "history"), where=channel, member=bob)
        ).reply(timeout=10)
        assert history.ephemeral and f"#{info.id}" in history.embed_text()
        posted = await share(emu, carol, history, channel)
        assert "Bob: recent games" in posted.embed_text() and f"#{info.id}" in posted.embed_text()
        # One game's record: a private file, shared as the same file.
        record = await (
            await bob.slash(("schotten", "history"), where=channel, game_id=info.id)
        ).attachment_message(timeout=10)
        assert record.ephemeral and record.attachments[0].filename == f"schotten-{info.id}.txt"
        posted = await share(emu, bob, record, channel)
        assert posted.attachments[0].data == record.attachments[0].data
        # The leaderboard stays public.
        board = await (await carol.slash(("schotten", "leaderboard"), where=channel)).reply()
        assert not board.ephemeral and "Alice" in board.embed_text()
        await emu.assert_all_acknowledged()


async def test_a_share_button_works_after_a_restart(world):
    emu, guild, alice, bob, carol, db = world
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        await finish_by_service(bot, info)
        channel = guild.default_channel
        stats = await (await bob.slash(("schotten", "stats"), where=channel)).attachment_message(
            timeout=20
        )
        assert stats.ephemeral
    async with running_bot(emu, db) as bot:
        posted = await share(emu, bob, stats, channel)
        assert "Bob: stats" in posted.embed_text() and carol.can_see(posted)
        await emu.assert_all_acknowledged()


async def test_the_board_is_private_until_shared_and_the_hand_is_never_offered(world):
    emu, guild, alice, bob, carol, db = world
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        thread = emu.world.channel(info.channel_id)
        before = len(thread.public_history())
        board = await (await carol.slash(("schotten", "board"), where=thread)).attachment_message(
            timeout=20
        )
        assert board.ephemeral and board.is_visible_to(carol.user) and not bob.can_see(board)
        assert board.attachments[0].filename == f"board-{info.id}-0.png"
        assert len(thread.public_history()) == before  # nothing posted for everyone
        assert {b["label"] for b in board.buttons()} == {"Show my hand", SHARE}
        posted = await share(emu, carol, board, thread)
        assert posted.attachments[0].filename == f"board-{info.id}-0.png"
        assert posted.button("Show my hand") and not any(
            b.get("label") == SHARE for b in posted.buttons()
        )
        assert bob.can_see(posted)
        # The hand of a running game is secret: privately, and no button to post it.
        player = alice if info.deciding_user == alice.id else bob
        hand = await (await player.slash(("schotten", "hand"), where=thread)).attachment_message(
            timeout=20
        )
        assert hand.ephemeral and not any(b.get("label") == SHARE for b in hand.buttons())
        await emu.assert_all_acknowledged()


async def test_a_board_shared_after_the_game_ended_shows_the_end(world):
    emu, guild, alice, bob, _, db = world
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        thread = emu.world.channel(info.channel_id)
        board = await (await alice.slash(("schotten", "board"), where=thread)).attachment_message(
            timeout=20
        )
        # The game ends before Alice shares: the shared board is the one everyone may see now.
        await bot.service.resign(info.id, bob.id)
        posted = await share(emu, alice, board, thread)
        ended = await bot.service.match(info.id)
        assert posted.attachments[0].filename == f"board-{info.id}-{ended.version}.png"
        # (Resigned before both players moved: aborted, rules notes R-28.)
        assert ended.is_over and "The game is aborted" in posted.content
        await emu.assert_all_acknowledged()


async def test_a_running_games_record_shared_shows_only_what_its_board_shows(world):
    emu, guild, alice, bob, carol, db = world
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        channel = guild.default_channel
        record = await (
            await alice.slash(("schotten", "history"), where=channel, game_id=info.id)
        ).attachment_message(timeout=10)
        posted = await share(emu, alice, record, channel)
        text = posted.attachments[0].data.decode()
        assert carol.can_see(posted) and "Result: in progress" in text
        assert "schotten-replay" not in text  # no replay block: it would need the seed
        assert str(info.seed) not in text
        for seat in (0, 1):
            hand = info.match.view(seat).hand
            assert not all(str(card) in text for card in hand)
        await emu.assert_all_acknowledged()
