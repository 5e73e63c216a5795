"""`/schotten tournament standings` before the tournament starts: a caption and no picture.
mypy found the picture-less answer handed to Discord as `file=None`, which discord.py turns
into an attachment it cannot send."""

from bot.sandbox import running_bot
from bot.time_source import ManualClock


async def test_the_standings_of_a_tournament_not_started_are_a_line(world):
    emu, guild, *_, db = world
    boss = guild.add_member("Manon", manage_guild=True)
    member, other = guild.add_member("Ada"), guild.add_member("Bea")
    channel = guild.default_channel
    async with running_bot(emu, db, ManualClock()):
        handle = await boss.slash(
            ("schotten-admin", "tournament", "create"), where=channel, name="Open Swiss"
        )
        notice = await handle.reply(timeout=10)
        for m in (member, other):
            await (await m.click(notice, label="Join")).reply()
        standings = await (
            await member.slash(("schotten", "tournament", "standings"), where=channel)
        ).reply(timeout=10)
        assert "**Open Swiss** has not started; 2 players signed up." in standings.content
        assert not standings.attachments
        await emu.assert_all_acknowledged()
