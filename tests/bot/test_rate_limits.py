"""Behaviours `rate_limits` and `global_rate_limit` with the real bot: a burst of moves in one
game posts more boards to its thread than the channel's bucket holds (5 posts per 5 s on
the loopback), and the bot waits out the bucket from the headers Discord sends rather than
being refused: every board goes out, and Discord answers no 429."""

from __future__ import annotations

from bot.sandbox import running_bot, wait_for_announcements
from bot.time_source import ManualClock
from discord_loopback.ratelimits import MESSAGE_POSTS

from .test_e2e import start_game
from .test_refusals import statuses


async def test_a_burst_of_moves_waits_out_its_buckets(world):
    emu, guild, alice, bob, _, db = world
    limit, _ = MESSAGE_POSTS
    async with running_bot(emu, db, ManualClock()) as bot:
        info = await start_game(bot, emu, guild, alice, bob, game="classic")
        thread = emu.world.channel(info.channel_id)
        members = {alice.id: alice, bob.id: bob}
        for _ in range(limit + 2):  # each move's board is a new post in the thread
            info = await bot.service.match(info.id)
            move = str(info.match.legal_moves()[0])
            handle = await members[info.deciding_user].slash(
                ("schotten", "move"), where=thread, notation=move
            )
            await handle.reply()
        await wait_for_announcements(bot, info.id, timeout=60)
        # Every board owed (not those a turn's later step shows) went out.
        rows = await statuses(bot, info.id)
        assert rows and [status for _, status, _ in rows] == ["sent"] * len(rows)
        posts = [
            r
            for r in emu.requests
            if r.method == "POST" and r.path.endswith(f"/channels/{thread.id}/messages")
        ]
        assert len(posts) > limit  # more than one bucket's worth
        assert [r for r in emu.invalid_requests if r.status == 429] == []
        await emu.assert_all_acknowledged()
