"""End to end: whole tournaments through the emulator, run with slash commands and buttons,
the clock moved forward, a restart mid-round and a player leaving the server."""

import asyncio
import io

import pytest
from PIL import Image

from bot.sandbox import running_bot
from bot.time_source import ManualClock
from discord_loopback import SimulationError
from engine.ai import choose_move
from tests.bot.test_tournaments import play_out

NAMES = ["Ada", "Bea", "Cy", "Dan", "Eve", "Flo"]


async def round_games(bot, tid, round, count, timeout=20):
    """The matches of a round once all `count` of its games have opened."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        games = await bot.front.tournaments.pairings(tid, round)
        started = [g for g in games if g.match_id is not None]
        if len(started) >= count:
            return [await bot.service.match(g.match_id) for g in started]
        if asyncio.get_running_loop().time() > deadline:
            raise TimeoutError(f"round {round}: {len(started)} of {count} games opened")
        await asyncio.sleep(0.05)


def posts(channel, text):
    return [m for m in channel.public_history() if text in m.content]


# The games are played through the service at machine speed, then announced at once: on
# Discord their boards and hands would wait out each thread's and DM's bucket (5 posts in
# 5 s), two minutes of waiting here for nothing this test checks. Rate limits have their own
# tests (tests/bot/test_rate_limits.py).
@pytest.mark.without("rate_limits")
async def test_a_swiss_from_sign_up_to_final_standings(world):
    emu, guild, *_, db = world
    clock = ManualClock()
    boss = guild.add_member("Manon", manage_guild=True)
    deputy = guild.add_member("Max", manage_guild=True)
    members = [guild.add_member(n) for n in NAMES]
    channel = guild.default_channel
    async with running_bot(emu, db, clock) as bot:
        # Only managers create (Discord shows them alone /schotten-admin); the announcement
        # carries a Join button.
        with pytest.raises(SimulationError, match="cannot see /schotten-admin"):
            await members[0].slash(
                ("schotten-admin", "tournament", "create"), where=channel, name="Friday Swiss"
            )
        handle = await boss.slash(
            ("schotten-admin", "tournament", "create"),
            where=channel,
            name="Friday Swiss",
            game="classic",
            rounds=3,
            round_hours=24,
        )
        notice = await handle.reply(timeout=10)
        assert "Friday Swiss" in notice.content and notice.button("Join")
        for m in members:
            joined = await (await m.click(notice, label="Join")).reply()
            assert joined.ephemeral and "You joined **Friday Swiss**" in joined.content
        again = await (await members[0].click(notice, label="Join")).reply()
        assert again.ephemeral and "already joined Friday Swiss" in again.content
        (t,) = await bot.front.tournaments.live(guild.id)
        assert len(t.entrants) == 6
        # Two managers press start at once: it starts once.
        a, b = await asyncio.gather(
            boss.slash(("schotten-admin", "tournament", "start"), where=channel),
            deputy.slash(("schotten-admin", "tournament", "start"), where=channel),
        )
        replies = [await a.reply(timeout=15), await b.reply(timeout=15)]
        assert sum("has started" in r.content for r in replies) == 1
        assert sum("started a moment ago" in r.content for r in replies) == 1
        # The announcement now says sign-up is closed, without its Join button.
        for _ in range(100):
            if "Sign-up is closed" in notice.content:
                break
            await asyncio.sleep(0.05)
        assert "Sign-up is closed" in notice.content and not notice.buttons()
        late = await (await boss.slash(("schotten", "tournament", "join"), where=channel)).reply()
        assert "sign-up is closed" in late.content
        first = await round_games(bot, t.id, 1, 3)
        # Each game in its own thread of the channel, its players mentioned there.
        for info in first:
            thread = emu.world.channel(info.channel_id)
            assert thread.is_thread and thread.parent is channel
            # The thread's first post goes out through the outbox, a moment after it opens.
            await emu.wait_for_message(
                lambda m, t=thread: m.channel is t and m.visible_to is None,
                timeout=10,
                what=f"the first post in {thread.name}",
            )
            intro = thread.public_history()[0].content
            assert all(f"<@{p}>" in intro for p in info.players)
        await emu.wait_for_message(lambda m: "round 1 of 3" in m.content, timeout=10)
        assert len(posts(channel, "round 1 of 3")) == 1
        # Two games are played out; in the third, one move and then silence.
        for info in first[:2]:
            await play_out(bot.service, info.id)
        slow = first[2]
        seat = slow.to_decide
        await bot.service.play(
            slow.id, slow.players[seat], choose_move(slow.match.view(seat), "easy", seed=1)
        )
        waiting = slow.players[1 - seat]
    # A restart in the middle of the round.
    async with running_bot(emu, db, clock) as bot:
        await bot.front.handle_due()  # what the timer loop runs
        assert await bot.front.tournaments.pairings(t.id, 2) == []  # the round is not over
        clock.advance(hours=25)
        await bot.front.handle_due()
        forfeited = await bot.front.tournaments.of_match(slow.id)
        assert forfeited.forfeit
        assert forfeited.points == ((0.0, 1.0) if waiting == slow.players[0] else (1.0, 0.0))
        second = await round_games(bot, t.id, 2, 3)
        assert len(posts(channel, "round 2 of 3")) == 1
        met = {frozenset(i.players) for i in first}
        assert not met & {frozenset(i.players) for i in second}
        for info in second:
            await play_out(bot.service, info.id)
        # A player leaves the server before round 3: they are withdrawn, the event goes on
        # with a bye.
        leaver = members[5]
        guild.remove_member(leaver)
        await bot.front.desk.tick()
        third = await bot.front.tournaments.pairings(t.id, 3)
        assert len(third) == 3 and sum(g.second_id is None for g in third) == 1
        assert all(leaver.id not in (g.first_id, g.second_id) for g in third)
        for info in await round_games(bot, t.id, 3, 2):
            await play_out(bot.service, info.id)
        await bot.front.desk.tick()
        t = await bot.front.tournaments.get(t.id)
        assert t.status == "finished"
        (final,) = posts(channel, "is over. Winner:")
        (picture,) = final.attachments
        assert picture.filename == f"standings-{t.id}.png"
        assert Image.open(io.BytesIO(picture.data)).format == "PNG"
        # Each announcement went out once, the restart notwithstanding.
        for r in (1, 2, 3):
            assert len(posts(channel, f"round {r} of 3")) == 1
        table = await bot.front.tournaments.standings(t)
        winner = t.name_of(table[0].player)
        assert f"Winner: **{winner}" in final.content
        standings = await (
            await members[0].slash(("schotten", "tournament", "standings"), where=channel)
        ).attachment_message(timeout=15)
        assert "final standings" in standings.content
        assert not standings.ephemeral  # standings stay public (issue 28: not a personal look-up)
        pairings = await (
            await members[0].slash(
                ("schotten", "tournament", "pairings"), where=channel, round=1, tournament=t.name
            )
        ).reply()
        assert "round 1 of 3" in pairings.content and "(forfeit)" in pairings.content
        # Tournament games are rated like any other, but for the slow game: lost on time
        # before the second player's first move, it is aborted, unrated (rules notes R-28).
        rated = await bot.service.store._one(
            "SELECT count(*) AS n FROM matches WHERE tournament_id = ? AND rated = 1", (t.id,)
        )
        assert rated["n"] == 7
        assert (await bot.service.match(slow.id)).aborted
        await emu.assert_all_acknowledged()


async def test_a_round_robin_of_five(world):
    emu, guild, *_, db = world
    clock = ManualClock()
    boss = guild.add_member("Manon", manage_guild=True)
    members = [guild.add_member(n) for n in NAMES[:5]]
    channel = guild.default_channel
    async with running_bot(emu, db, clock) as bot:
        notice = await (
            await boss.slash(
                ("schotten-admin", "tournament", "create"),
                where=channel,
                name="League",
                format="round-robin",
                game="siege",
            )
        ).reply(timeout=10)
        for m in members[:2]:
            await (await m.click(notice, label="Join")).reply()
        few = await (
            await boss.slash(("schotten-admin", "tournament", "start"), where=channel)
        ).reply(timeout=10)
        assert "at least 3 players; League has 2" in few.content
        for m in members[2:]:
            await (await m.slash(("schotten", "tournament", "join"), where=channel)).reply()
        listed = await (await boss.slash(("schotten", "tournament", "list"), where=channel)).reply()
        assert "League" in listed.content and "5 players" in listed.content
        started = await (
            await boss.slash(("schotten-admin", "tournament", "start"), where=channel)
        ).reply(timeout=15)
        assert "5 players, 5 rounds" in started.content
        t = (await bot.front.tournaments.live(guild.id))[0]
        for r in range(1, 6):
            games = await round_games(bot, t.id, r, 2)
            for info in games:
                await play_out(bot.service, info.id)
            await bot.front.desk.tick()
        t = await bot.front.tournaments.get(t.id)
        assert t.status == "finished"
        pairs = [
            frozenset((g.first_id, g.second_id))
            for g in await bot.front.tournaments.pairings(t.id)
            if g.second_id is not None
        ]
        assert len(pairs) == 10 == len(set(pairs))  # every pair once
        assert len(posts(channel, "is over. Winner:")) == 1
        await emu.assert_all_acknowledged()
