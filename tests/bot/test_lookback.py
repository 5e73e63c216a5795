"""End to end: replays, analyses, hints and the rating chart, through the real discord.py
client against the emulator."""

import io
import random

from PIL import Image

from bot import lookback
from bot.notation import in_words
from bot.sandbox import running_bot, wait_for_game
from bot.time_source import ManualClock
from discord_loopback import Emulator
from discord_loopback import permissions as perms
from engine.cards import format_cards
from render.charts import RatingPoint, render_rating_chart
from render.theme import DEFAULT_THEME
from tests.bot.test_e2e import start_game
from tests.bot.test_service import play_random
from tests.render.test_analysis_board import count_colour


def analysis_in(emu, channel, game_id, words="", timeout=60):
    """A public analysis: posted in the channel as the bot's own message (its token may be
    too old by the time it is done)."""
    return emu.wait_for_message(
        lambda m: (
            m.channel is channel
            and not m.ephemeral
            and m.content.startswith(f"**Game #{game_id}")
            and words in m.content
        ),
        timeout=timeout,
        what=f"the analysis of game #{game_id}",
    )


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
        message = await analysis_in(emu, channel, info.id)
        assert not message.ephemeral and message.author.id == emu.bot.id
        # The progress was shown to Alice while it ran, then where the answer went.
        reply = await handle.wait_until(
            lambda h: h.original if "Posted in the channel" in h.original.content else None,
            timeout=10,
        )
        assert reply.ephemeral and any("moves looked at" in r for r in reply.revisions)
        assert f"Game #{info.id}" in message.content and "Alice's" in message.content
        names = [a.filename for a in message.attachments]
        assert names[0] == f"chances-{info.id}.png"
        moves = [n for n in names[1:] if n.startswith(f"move-{info.id}-")]
        assert 1 <= len(moves) <= 3 and len(names) == 1 + len(moves)
        assert len(message.embeds) == 1 + len(moves)
        text = message.embed_text()
        assert "Better:" in text
        # Nobody's hand in the analysis itself: Alice sees hers in a private message.
        assert "Hand then" not in text
        private = await handle.wait_until(
            lambda h: next((m for m in h.followups if m.ephemeral), None), timeout=30
        )
        assert private.is_visible_to(alice.user) and "Alice's hand before" in private.content
        for data in message.attachment_bytes():
            assert Image.open(io.BytesIO(data)).format == "PNG"
        # Each move's board is an analysis board: the move made and the better one are
        # marked in their colours (which no board of a game has).
        for data in message.attachment_bytes()[1:]:
            picture = Image.open(io.BytesIO(data)).convert("RGB")
            assert count_colour(picture, DEFAULT_THEME.mark_played) > 200
            assert count_colour(picture, DEFAULT_THEME.mark_better) > 200
        # The moves named are Alice's, at the places in the log the titles give.
        log = await bot.service.store.moves(info.id)
        seat = info.seat_of(alice.id)
        for embed in message.embeds[1:]:
            number = int(embed["title"].split("Move ")[1].split(" ")[0])
            row = log[number - 1]
            # The title names tactic cards by their printed names (`banshee` -> `Banshee`).
            said = in_words(row["text"], info.spec.game, "en")
            assert row["seat"] == seat and embed["title"].endswith(said)
        await emu.assert_all_acknowledged()


async def test_who_may_analyse_follows_the_server_setting(world):
    emu, guild, alice, bob, carol, db = world
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        await finish_by_service(bot, info)
        channel = guild.default_channel
        # By default anyone may, and the answer is public; carol names whose moves.
        await carol.slash(("schotten", "analyse"), where=channel, game_id=info.id, player=bob)
        message = await analysis_in(emu, channel, info.id, "Bob's")
        assert not message.ephemeral and message.attachments
        # Naming someone who did not play is refused.
        wrong = await (
            await carol.slash(("schotten", "analyse"), where=channel, game_id=info.id, player=carol)
        ).reply()
        assert wrong.ephemeral and "Carol did not play in game" in wrong.content
        # A manager closes analyses to the players.
        carol.manage_guild = True
        closed = await (
            await carol.slash(("schotten-admin", "settings"), where=channel, public_analysis=False)
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
        assert message.ephemeral and message.is_visible_to(alice.user)
        (chart,) = message.attachments
        assert chart.filename == f"rating-{alice.id}.png"
        assert message.embeds[0]["image"]["url"] == f"attachment://{chart.filename}"
        assert Image.open(io.BytesIO(chart.data)).format == "PNG"
        history = await bot.service.rating_history(guild.id, alice.id)
        assert len(history["st1"]) == 2
        # Her line starts at a new player's rating, before her first game (issue 39).
        points = [RatingPoint(s.at, s.rating.points, s.result) for s in history["st1"]]
        name = (await bot.service.stats(guild.id, alice.id)).name
        drawn = render_rating_chart({"Schotten Totten": points}, name=name, start=1000)
        assert chart.data == drawn
        await emu.assert_all_acknowledged()


async def test_a_game_resigned_before_any_choice_is_analysed_in_words(world):
    emu, guild, alice, bob, _, db = world
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        await bot.service.resign(info.id, bob.id)
        channel = guild.default_channel
        await alice.slash(("schotten", "analyse"), where=channel, game_id=info.id)
        answer = await analysis_in(emu, channel, info.id, "had no decision", timeout=30)
        assert not answer.attachments and not answer.embeds
        # Resigned before both moved: aborted, no winner (rules notes R-28).
        assert f"Game #{info.id}" in answer.content and "Bob, aborted" in answer.content
        assert "won by" not in answer.content
        await emu.assert_all_acknowledged()


def _step_buttons(message):
    """The stepping message's buttons by their tag: f(irst), p(revious), n(ext), l(ast)."""
    return {b["custom_id"].rsplit(":", 1)[1]: b for b in message.buttons()}


async def test_a_replay_steps_through_the_game_in_one_message(world):
    emu, guild, alice, bob, carol, db = world
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob, game="tactics")
        channel = guild.default_channel
        await finish_by_service(bot, info)
        log = [(int(r["seat"]), r["text"]) for r in await bot.service.store.moves(info.id)]
        total = len(log)
        handle = await carol.slash(("schotten", "replay"), where=channel, game_id=info.id)
        gif, step = await handle.wait_messages(2, timeout=60)
        assert gif.attachments[0].filename == f"schotten-{info.id}-replay.gif"
        assert not step.ephemeral and f"Move 0 of {total}" in step.content
        assert step.attachments[0].filename == f"replay-{info.id}-0.png"
        buttons = _step_buttons(step)
        assert [b["label"] for b in buttons.values()] == ["⏮", "◀", "▶", "⏭"]
        # At the start, the buttons that would not move are greyed out.
        assert buttons["f"].get("disabled") and buttons["p"].get("disabled")
        assert not buttons["n"].get("disabled") and not buttons["l"].get("disabled")
        # ▶ edits the same message: move 1, with its line of the log.
        await (await bob.click(step, buttons["n"]["custom_id"])).ack(timeout=10)
        seat, move = log[0]

        def shows(number):
            return lambda: (
                f"Move {number} of {total}" in step.content
                and step.attachments[0].filename == f"replay-{info.id}-{number}.png"
            )

        await emu.bus.notifier.wait_until(shows(1), 20, lambda: step.content)
        assert f"{info.names[seat]} `{move}`" in step.content
        # ⏭: the last move, the end of the game; ▶ and ⏭ greyed out there.
        await (await bob.click(step, _step_buttons(step)["l"]["custom_id"])).ack(timeout=10)
        await emu.bus.notifier.wait_until(shows(total), 20, lambda: step.content)
        last_seat, last_move = log[-1]
        assert f"{info.names[last_seat]} `{last_move}`" in step.content
        assert _step_buttons(step)["n"].get("disabled")
        # Still one stepping message, and no other messages in the channel since.
        assert channel.public_history()[-1] is step
    # After a restart, ◀ still works: the game and the move are in the button.
    async with running_bot(emu, db) as bot:
        await (await alice.click(step, _step_buttons(step)["p"]["custom_id"])).ack(timeout=10)
        await emu.bus.notifier.wait_until(shows(total - 1), 20, lambda: step.content)
        seat, move = log[total - 2]
        assert f"{info.names[seat]} `{move}`" in step.content
        # A button from past the end (an old message, or a forged one) shows the last move.
        forged = _step_buttons(step)["n"]
        forged["custom_id"] = f"sch:R:{info.id}:{total + 7}:n"
        forged["disabled"] = False
        await (await alice.click(step, forged["custom_id"])).ack(timeout=10)
        await emu.bus.notifier.wait_until(shows(total), 20, lambda: step.content)
        await emu.assert_all_acknowledged()


async def test_an_analysis_shows_the_hands_to_their_player_only(world):
    emu, guild, alice, bob, carol, db = world
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        await finish_by_service(bot, info)
        channel = guild.default_channel
        game = await lookback.finished_game(bot.service, info.id, guild.id)
        bob_seat = info.seat_of(bob.id)
        # Carol analyses Bob's moves: public, and no hand in it.
        handle = await carol.slash(
            ("schotten", "analyse"), where=channel, game_id=info.id, player=bob
        )
        message = await analysis_in(emu, channel, info.id, "Bob")
        assert not message.ephemeral
        numbers = [int(e["title"].split("Move ")[1].split(" ")[0]) for e in message.embeds[1:]]
        hands = [format_cards(game.view_before(n - 1, bob_seat).hand) for n in numbers]
        for hand in hands:
            assert hand not in message.content and hand not in message.embed_text()
        assert not [m for m in handle.followups if m is not message]  # nothing private to Carol
        button = message.button("Bob's hand at these moves")
        # Carol cannot see it.
        refused = await (await carol.click(message, button["custom_id"])).reply(timeout=10)
        assert refused.ephemeral and "Only Bob can see Bob's hand" in refused.content
        assert not any(hand in refused.content for hand in hands)
        # Bob can, privately, with a button to share it.
        mine = await (await bob.click(message, button["custom_id"])).reply(timeout=10)
        assert mine.ephemeral and mine.is_visible_to(bob.user)
        for n, hand in zip(numbers, hands, strict=True):
            assert f"Move {n} of {len(game.log)}: {hand}" in mine.content
        share = await bob.click(mine, label="Post in channel")
        await share.ack(timeout=10)
        posted = await emu.wait_for_message(
            lambda m: m.channel is channel and not m.ephemeral and "Shared by" in m.content,
            timeout=10,
        )
        assert bob.mention in posted.content and hands[0] in posted.content
        # When Alice analyses her own game, her hands come to her alone, at once.
        handle = await alice.slash(("schotten", "analyse"), where=channel, game_id=info.id)
        private = await handle.wait_until(
            lambda h: next((m for m in h.followups if m.ephemeral), None), timeout=60
        )
        assert private.is_visible_to(alice.user) and not private.is_visible_to(carol.user)
        assert "Alice's hand before these moves" in private.content
        await emu.assert_all_acknowledged()


async def test_an_analysis_queued_past_the_token_still_reaches_its_player(tmp_path):
    """Behaviour `token_expiry`: an analysis that waited behind another heavy job for more than
    the 15 minutes of its interaction's token sends nothing through that token (every such
    request would be 401/50027): a public one is posted in the channel by the bot, a private
    one comes by DM, and so do the hands of the player who asked; a replay queued as long is
    posted by the bot."""
    clock = ManualClock()
    async with Emulator(clock=clock.now) as emu, emu.point_discord():
        here, closed = emu.create_guild("Test Server"), emu.create_guild("Players only")
        alice, bob = here.add_member("Alice"), here.add_member("Bob")
        dora, erin = closed.add_member("Dora"), closed.add_member("Erin")
        async with running_bot(emu, tmp_path / "bot.sqlite3", clock) as bot:
            dora.manage_guild = True
            await (
                await dora.slash(
                    ("schotten-admin", "settings"),
                    where=closed.default_channel,
                    public_analysis=False,
                )
            ).reply()
            dora.manage_guild = False
            public = await start_game(bot, emu, here, alice, bob)
            private = await start_game(bot, emu, closed, dora, erin)
            for info in (public, private):
                await finish_by_service(bot, info)
            assert bot.front is not None
            await bot.front.heavy.acquire()  # a long replay, say
            asked = [
                await alice.slash(
                    ("schotten", "analyse"), where=here.default_channel, game_id=public.id
                ),
                await erin.slash(
                    ("schotten", "analyse"), where=closed.default_channel, game_id=private.id
                ),
                await bob.slash(
                    ("schotten", "replay"), where=here.default_channel, game_id=public.id
                ),
            ]
            for handle in asked:
                await handle.ack(timeout=10)
            clock.advance(seconds=15 * 60 + 1)  # the loopback's clock too: the tokens are dead
            bot.front.heavy.release()
            # Alice's analysis is public: in the channel; her hands then, privately, by DM.
            posted = await analysis_in(emu, here.default_channel, public.id, "Alice's")
            assert posted.author.id == emu.bot.id and posted.attachments
            hands = await emu.wait_for_message(
                lambda m: m.channel is alice.dm_channel and "Alice's hand before" in m.content,
                timeout=30,
            )
            assert hands.channel.recipient is alice.user  # her DM channel, nobody else's
            # Erin's is private on that server: by DM, never in the channel.
            dm = await emu.wait_for_message(
                lambda m: m.channel is erin.dm_channel and m.content.startswith("**Game #"),
                timeout=60,
            )
            assert f"chances-{private.id}.png" in [a.filename for a in dm.attachments]
            assert not [m for m in closed.default_channel.public_history() if "Erin's" in m.content]
            await emu.wait_for_message(
                lambda m: m.channel is erin.dm_channel and "Erin's hand before" in m.content,
                timeout=30,
            )
            # Bob's replay, queued as long, is posted by the bot: the picture and its steps.
            gif = await emu.wait_for_message(
                lambda m: any(
                    a.filename == f"schotten-{public.id}-replay.gif" for a in m.attachments
                ),
                timeout=60,
            )
            assert gif.channel is here.default_channel and gif.interaction is None
            step = await emu.wait_for_message(
                lambda m: m.channel is here.default_channel and "Move 0 of" in m.content,
                timeout=30,
            )
            assert step.buttons()
            assert await bot.front.wait_idle(30)
            # Nothing was sent through the dead tokens, and both were acknowledged in time.
            refused = [r for r in emu.requests if r.status == 401]
            assert refused == [], refused
            assert [e for h in asked for e in h.record.errors] == []
            await emu.assert_all_acknowledged()
        assert emu.server_errors == [] and emu.refused_requests == []


async def test_an_analysis_where_the_bot_may_not_post_goes_to_the_asker(world):
    """A public analysis is the bot's own message in the channel: where the interaction's
    permissions say it could not post one (no Attach Files), the asker gets it privately
    instead, and nothing is sent that Discord would refuse."""
    emu, guild, alice, bob, carol, db = world
    me = guild.members[emu.bot.id]
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        await finish_by_service(bot, info)
        lobby = guild.create_text_channel("lobby")
        emu.world.set_permissions(lobby, me, deny=perms.ATTACH_FILES)
        handle = await carol.slash(("schotten", "analyse"), where=lobby, game_id=info.id)
        message = await handle.attachment_message(timeout=60)
        assert message.ephemeral and message.is_visible_to(carol.user)
        assert f"chances-{info.id}.png" in [a.filename for a in message.attachments]
        assert not lobby.public_history()
        assert [r for r in emu.requests if r.status in (401, 403)] == []
        await emu.assert_all_acknowledged()
