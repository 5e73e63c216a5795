"""`schotten-bot check` in more servers than one page of Discord's list (200): it reads the
next page after the last server's id. mypy found the id passed wrapped in a discord.Object,
which discord.py puts in the query string as it is: aiohttp refuses it."""

from bot.check import run_check
from bot.config import Config


async def test_check_lists_every_server_past_the_first_page(world):
    emu, guild, _, _, _, db = world
    more = [emu.create_guild(f"Server {n}") for n in range(200)]
    lines: list[str] = []
    await run_check(Config(token=emu.token, database=db), lines.append)
    assert "Servers: 201" in lines
    assert f"  Test Server (id {guild.id}): has every permission a game needs" in lines
    assert f"  Server 199 (id {more[-1].id}): has every permission a game needs" in lines
