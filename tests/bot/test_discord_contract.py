"""The bot's side of the contract: a game through the real bot, with the loopback Discord
checking every request against Discord's description (as it always does) and every JSON
answer it gives against the operation's response schema for that status."""

import asyncio

from bot.sandbox import running_bot
from discord_loopback import Emulator

from .test_e2e import start_game


async def test_the_emulators_answers_follow_the_description(tmp_path):
    """A game through the real bot, the emulator checking every JSON answer it gives against
    the operation's response schema for that status."""
    async with Emulator(check_responses=True) as emu, emu.point_discord():
        guild = emu.create_guild("Test Server")
        alice, bob = guild.add_member("Alice"), guild.add_member("Bob")
        async with running_bot(emu, tmp_path / "bot.sqlite3") as bot:
            info = await start_game(bot, emu, guild, alice, bob)
            thread = emu.world.channel(info.channel_id)
            choices = await alice.autocomplete(("schotten", "move"), "notation", where=thread)
            assert choices
            handle = await bob.slash(("schotten", "resign"), where=thread)
            confirm = await handle.reply()
            await (await bob.click(confirm, label="Yes, resign")).ack()
            # Bob never moved: the game is aborted (rules notes R-28).
            await emu.wait_for_message(lambda m: "game is aborted" in m.content, timeout=10)
            await asyncio.sleep(0.2)
            await emu.assert_all_acknowledged()
        assert emu.server_errors == [] and emu.refused_requests == []
        assert emu.undescribed_requests == []
        assert emu.response_mismatches == [], "\n".join(map(str, emu.response_mismatches))
        routes = {r.path.split("/")[3] for r in emu.requests if r.path.startswith("/api/")}
        assert {"channels", "interactions", "webhooks", "applications", "users"} <= routes
