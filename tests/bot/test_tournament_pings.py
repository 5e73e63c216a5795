"""Issue 39, item 13 f: starting a tournament notifies each player once (it was three
times: the channel's announcement, the game thread's first post and the turn's DM)."""

from __future__ import annotations

import asyncio

import pytest

from bot.sandbox import running_bot, wait_for_announcements
from bot.time_source import ManualClock

from .test_tournament_e2e import round_games

NAMES = ["Ada", "Bea", "Cy", "Dan", "Eve"]  # five: round 1 has a bye


@pytest.mark.without("rate_limits")
async def test_starting_a_tournament_notifies_each_player_once(world):
    emu, guild, *_, db = world
    boss = guild.add_member("Manon", manage_guild=True)
    members = [guild.add_member(n) for n in NAMES]
    channel = guild.default_channel
    async with running_bot(emu, db, ManualClock()) as bot:
        handle = await boss.slash(
            ("schotten-admin", "tournament", "create"),
            where=channel,
            name="Friday Swiss",
            game="classic",
            rounds=3,
            round_hours=24,
        )
        notice = await handle.reply(timeout=10)
        for m in members:
            await (await m.click(notice, label="Join")).reply()
        (t,) = await bot.front.tournaments.live(guild.id)
        before = {m.id: len(m.notifications()) for m in members}
        await (await boss.slash(("schotten-admin", "tournament", "start"), where=channel)).reply()
        games = await round_games(bot, t.id, 1, 2)
        await emu.wait_for_message(lambda m: "round 1 of 3" in m.content, timeout=10)
        for info in games:
            await wait_for_announcements(bot, info.id)
            # The mover's turn signal (their hand by DM) has gone out.
            mover = next(m for m in members if m.id == info.deciding_user)
            await emu.wait_for_message(
                lambda m, u=mover: m.channel.is_dm and m.channel.recipient == u.user, timeout=10
            )
        await asyncio.sleep(0.2)  # nothing more is on its way
        playing = {p for info in games for p in info.players}
        for m in members:
            rang = m.notifications()[before[m.id] :]
            assert len(rang) == 1, (m.name, m.id in playing, [x.content[:80] for x in rang])
