"""End to end: replays, analyses, hints and the rating chart, through the real discord.py
client against the emulator."""

import io
import random

from PIL import Image

from bot.sandbox import running_bot, wait_for_game
from tests.bot.test_e2e import start_game
from tests.bot.test_service import play_random


async def finish_by_service(bot, info) -> None:
    """Play the game to its end straight through the service: quicker than clicks, and
    stored exactly as clicked moves are."""
    await play_random(bot.service, info.id, random.Random(info.id))


async def test_a_replay_of_a_finished_game_and_refusals_before(world):
    emu, guild, alice, bob, carol, db = world
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob, game="tactics")
        channel = guild.default_channel
        # While the game runs, nobody can replay it: its history would show more than its
        # board does.
        early = await (
            await alice.slash(("schotten", "replay"), where=channel, game_id=info.id)
        ).reply()
        assert early.ephemeral and "still being played" in early.content
        assert not early.attachments
        missing = await (
            await alice.slash(("schotten", "replay"), where=channel, game_id=999)
        ).reply()
        assert missing.ephemeral and "There is no game #999" in missing.content
        await finish_by_service(bot, info)
        moves = await bot.service.store.moves(info.id)
        handle = await carol.slash(("schotten", "replay"), where=channel, game_id=info.id)
        message = await handle.attachment_message(timeout=30)
        assert not message.ephemeral
        (attachment,) = message.attachments
        assert attachment.filename == f"schotten-{info.id}-replay.gif"
        gif = Image.open(io.BytesIO(attachment.data))
        assert gif.format == "GIF" and gif.n_frames == len(moves) + 1
        assert f"{len(moves)} moves in {len(moves) + 1} frames" in message.content
        assert len(attachment.data) <= 8 * 1024 * 1024
        await emu.assert_all_acknowledged()


async def test_replays_belong_to_their_server(world):
    emu, guild, alice, bob, _, db = world
    other = emu.create_guild("Elsewhere")
    stranger = other.add_member("Dora")
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        await finish_by_service(bot, info)
        reply = await (
            await stranger.slash(
                ("schotten", "replay"), where=other.default_channel, game_id=info.id
            )
        ).reply()
        assert reply.ephemeral and "not played on this server" in reply.content
        reply = await (
            await stranger.slash(
                ("schotten", "analyse"), where=other.default_channel, game_id=info.id
            )
        ).reply()
        assert reply.ephemeral and "not played on this server" in reply.content


async def test_an_analysis_shows_progress_a_chart_and_the_costliest_moves(world):
    emu, guild, alice, bob, _, db = world
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob, game="tactics")
        channel = guild.default_channel
        early = await (
            await bob.slash(("schotten", "analyse"), where=channel, game_id=info.id)
        ).reply()
        assert early.ephemeral and "still being played" in early.content
        await finish_by_service(bot, info)
        handle = await alice.slash(("schotten", "analyse"), where=channel, game_id=info.id)
        message = await handle.attachment_message(timeout=60)
        assert not message.ephemeral
        # The progress was shown while it ran, then replaced by the answer.
        assert any("moves looked at" in r for r in message.revisions)
        assert f"Game #{info.id}" in message.content and "Alice's" in message.content
        names = [a.filename for a in message.attachments]
        assert names[0] == f"chances-{info.id}.png"
        moves = [n for n in names[1:] if n.startswith(f"move-{info.id}-")]
        assert 1 <= len(moves) <= 3 and len(names) == 1 + len(moves)
        assert len(message.embeds) == 1 + len(moves)
        text = message.embed_text()
        assert "Better:" in text and "Hand then:" in text
        for data in message.attachment_bytes():
            assert Image.open(io.BytesIO(data)).format == "PNG"
        # The moves named are Alice's, at the places in the log the titles give.
        log = await bot.service.store.moves(info.id)
        seat = info.seat_of(alice.id)
        for embed in message.embeds[1:]:
            number = int(embed["title"].split("Move ")[1].split(" ")[0])
            row = log[number - 1]
            assert row["seat"] == seat and embed["title"].endswith(row["text"])
        await emu.assert_all_acknowledged()


async def test_who_may_analyse_follows_the_server_setting(world):
    emu, guild, alice, bob, carol, db = world
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        await finish_by_service(bot, info)
        channel = guild.default_channel
        # By default anyone may, and the answer is public; carol names whose moves.
        handle = await carol.slash(
            ("schotten", "analyse"), where=channel, game_id=info.id, player=bob
        )
        message = await handle.attachment_message(timeout=60)
        assert not message.ephemeral and "Bob's" in message.content
        # Naming someone who did not play is refused.
        wrong = await (
            await carol.slash(("schotten", "analyse"), where=channel, game_id=info.id, player=carol)
        ).reply()
        assert wrong.ephemeral and "Carol did not play in game" in wrong.content
        # A manager closes analyses to the players.
        carol.manage_guild = True
        closed = await (
            await carol.slash(("schotten", "settings"), where=channel, public_analysis=False)
        ).reply()
        assert "who may analyse a finished game: its two players" in closed.content
        carol.manage_guild = False
        refused = await (
            await carol.slash(("schotten", "analyse"), where=channel, game_id=info.id)
        ).reply()
        assert refused.ephemeral and "only the two players" in refused.content
        # The players still may, and see it privately.
        handle = await bob.slash(("schotten", "analyse"), where=channel, game_id=info.id)
        message = await handle.attachment_message(timeout=60)
        assert message.ephemeral and message.is_visible_to(bob.user)
        await emu.assert_all_acknowledged()


async def test_hints_against_the_computer_only(world):
    emu, guild, alice, bob, carol, db = world
    async with running_bot(emu, db) as bot:
        computer = guild.members[emu.bot.id]
        handle = await alice.slash(
            ("schotten", "challenge"),
            where=guild.default_channel,
            opponent=computer,
            game="classic",
            role="first",
            level="easy",
        )
        await handle.reply(timeout=10)
        info = await wait_for_game(bot, guild.id, alice.id)
        thread = emu.world.channel(info.channel_id)
        assert info.to_decide == info.seat_of(alice.id)
        reply = await (await alice.slash(("schotten", "hint"), where=thread)).reply(timeout=30)
        assert reply.ephemeral and reply.is_visible_to(alice.user)
        legal = {str(m) for m in info.match.legal_moves()}
        move = reply.content.split("**")[1]
        assert move in legal and "estimated chance of winning" in reply.content
        stranger = await (await bob.slash(("schotten", "hint"), where=thread)).reply()
        assert stranger.ephemeral and "you are not in it" in stranger.content
        # Nothing was played for her.
        assert (await bot.service.match(info.id)).version == 0
        info2 = await start_game(bot, emu, guild, bob, carol)
        board = emu.world.channel(info2.channel_id)
        between = await (await bob.slash(("schotten", "hint"), where=board)).reply()
        assert between.ephemeral and "only for games against the computer" in between.content
        await emu.assert_all_acknowledged()


async def test_stats_show_the_rating_curve(world):
    emu, guild, alice, bob, _, db = world
    async with running_bot(emu, db) as bot:
        channel = guild.default_channel
        before = await (await alice.slash(("schotten", "stats"), where=channel)).reply()
        assert not before.attachments  # no rated game yet: no chart
        for _ in range(2):
            info = await start_game(bot, emu, guild, alice, bob)
            await finish_by_service(bot, info)
        handle = await alice.slash(("schotten", "stats"), where=channel)
        message = await handle.attachment_message(timeout=20)
        (chart,) = message.attachments
        assert chart.filename == f"rating-{alice.id}.png"
        assert message.embeds[0]["image"]["url"] == f"attachment://{chart.filename}"
        assert Image.open(io.BytesIO(chart.data)).format == "PNG"
        history = await bot.service.rating_history(guild.id, alice.id)
        assert len(history["st1"]) == 2
        await emu.assert_all_acknowledged()


async def test_a_game_resigned_before_any_choice_is_analysed_in_words(world):
    emu, guild, alice, bob, _, db = world
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        await bot.service.resign(info.id, bob.id)
        channel = guild.default_channel
        handle = await alice.slash(("schotten", "analyse"), where=channel, game_id=info.id)
        answer = await handle.wait_until(
            lambda h: (
                h.original if h.original and "had no decision" in h.original.content else None
            ),
            timeout=30,
        )
        assert not answer.attachments and not answer.embeds
        assert f"Game #{info.id}" in answer.content and "won by Alice" in answer.content
        await emu.assert_all_acknowledged()
