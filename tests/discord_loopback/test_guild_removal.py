"""The bot removed from a server (behaviour ``guild_delete``), with a real discord.py client.

Discord sends GUILD_DELETE with an unavailable guild object whose ``unavailable`` is not set
when the bot is removed (topics/gateway-events, Guild Delete), and from then on answers its
requests about that server, its channels and threads 403 50001 Missing Access; its members
can no longer use the bot's commands. Invited back, the bot gets GUILD_CREATE again.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import discord
import pytest

from discord_loopback import Emulator, SimGuild, SimulationError


class Listener(discord.Client):
    """A bare client that keeps what discord.py made of the guild events."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.1)
        self.removed: list[int] = []
        self.unavailable: list[int] = []

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        self.removed.append(guild.id)

    async def on_guild_unavailable(self, guild: discord.Guild) -> None:
        self.unavailable.append(guild.id)


@contextlib.asynccontextmanager
async def running(emu: Emulator) -> AsyncIterator[Listener]:
    client = Listener()
    task = asyncio.create_task(client.start(emu.token))
    try:
        await asyncio.wait_for(client.wait_until_ready(), 10)
        yield client
    finally:
        await client.close()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task


async def until(condition: object, timeout: float = 5.0) -> None:
    async def wait() -> None:
        while not condition():  # type: ignore[operator]
            await asyncio.sleep(0.01)

    await asyncio.wait_for(wait(), timeout)


def guild_delete_frames(emu: Emulator) -> list[dict[str, object]]:
    return [
        frame["d"]
        for session in emu.gateway.sessions.values()
        for frame in session.buffer
        if frame.get("t") == "GUILD_DELETE"
    ]


async def test_removed_bot_gets_guild_delete_then_missing_access() -> None:
    async with Emulator() as emu, emu.point_discord():
        guild = emu.create_guild("Kept", channels=("general",))
        left: SimGuild = emu.create_guild("Left", channels=("general", "games"))
        alice = left.add_member("alice")
        channel = left.channel("general")
        async with running(emu) as client:
            posted = await client.http.send_message(channel.id, params=_text("before"))
            thread = emu.world.create_thread(channel, name="a thread", owner=emu.bot)
            emu.remove_bot(left)
            await until(lambda: client.removed == [left.id])
            # The payload: an unavailable guild object without `unavailable` (removed, not
            # an outage), so discord.py calls on_guild_remove, not on_guild_unavailable.
            assert guild_delete_frames(emu) == [{"id": str(left.id)}]
            assert client.unavailable == [] and client.get_guild(left.id) is None
            for request in (
                client.http.send_message(channel.id, params=_text("after")),
                client.http.send_message(thread.id, params=_text("in the thread")),
                client.http.edit_message(channel.id, int(posted["id"]), params=_text("edited")),
                client.http.get_channel(left.channel("games").id),
                client.http.get_guild(left.id),
                client.http.get_member(left.id, alice.id),
            ):
                with pytest.raises(discord.Forbidden) as refused:
                    await request
                assert (refused.value.status, refused.value.code) == (403, 50001)
                assert refused.value.text == "Missing Access"
            # Its members can no longer reach the bot; the other server is untouched.
            with pytest.raises(SimulationError, match="not in Left"):
                await alice.slash("anything")
            assert client.get_guild(guild.id) is not None
            await client.http.send_message(guild.channel("general").id, params=_text("still"))
            # Invited back: GUILD_CREATE, served again.
            emu.add_bot(left)
            await until(lambda: client.get_guild(left.id) is not None)
            await client.http.send_message(channel.id, params=_text("back"))
        assert channel.messages[-1].content == "back"
        assert [r.status for r in emu.requests if r.status == 403] == [403] * 6


async def test_without_the_behaviour_the_bot_stays() -> None:
    async with Emulator(without={"guild_delete"}) as emu, emu.point_discord():
        left = emu.create_guild("Left")
        async with running(emu) as client:
            emu.remove_bot(left)
            await client.http.send_message(left.channel("general").id, params=_text("kept"))
        assert guild_delete_frames(emu) == [] and not left.bot_removed


def _text(content: str) -> discord.http.MultipartParameters:
    return discord.http.handle_message_parameters(content=content)
