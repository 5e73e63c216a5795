"""Issue 39, item 8: a DM names the game's thread by a link that opens from the DM (a
`<#id>` mention opens only inside its server; bot/front/links.py)."""

from __future__ import annotations

from bot.sandbox import running_bot

from .test_e2e import start_game
from .test_refusals import play_by_dm, players_of


def link_to(guild, info) -> str:
    return f"https://discord.com/channels/{guild.id}/{info.channel_id}"


async def test_the_turn_dm_links_the_thread_with_a_link_that_opens(world):
    emu, guild, alice, bob, _, db = world
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        mover = alice if info.deciding_user == alice.id else bob
        dm = mover.last_dm
        assert dm is not None and dm.content.startswith("Your hand in game")
        assert f"]({link_to(guild, info)})" in dm.content, dm.content
        assert "<#" not in dm.content, dm.content


async def test_the_dm_about_a_deleted_thread_names_it_by_its_link(world):
    emu, guild, alice, bob, _, db = world
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        thread = emu.world.channel(info.channel_id)
        players = players_of(alice, bob)
        info = await play_by_dm(bot, emu, players, info.id, thread, 1)
        emu.world.delete_channel(thread)
        await play_by_dm(bot, emu, players, info.id, thread, 3)
        for member in (alice, bob):
            told = [m for m in member.dms if "cannot reach" in m.content]
            assert told, [m.content for m in member.dms]
            assert link_to(guild, info) in told[0].content, told[0].content
            assert all("<#" not in m.content for m in member.dms), [m.content for m in member.dms]
