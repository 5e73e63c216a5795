"""Sharding in the loopback Discord emulator, driven by real discord.py ``AutoShardedClient``s.

Each gateway session gets the guilds of its shard (``(guild_id >> 22) % shard_count``) and
their events and interactions; DMs go to shard 0; REST is not sharded. The clients below
answer ``/where`` with their name and the shard, so a test sees which process got what.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator, Callable
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

from discord_loopback import Emulator, EmulatorTimeout, SimGuild, SimulationError, shard_of
from discord_loopback.gateway import GatewaySession
from discord_loopback.models import JSON


class Probe(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"probe:(?P<tag>[a-z]+)"):
    """A persistent button: whichever client gets the click answers with its name."""

    def __init__(self, tag: str) -> None:
        super().__init__(discord.ui.Button(label=tag, custom_id=f"probe:{tag}"))
        self.tag = tag

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Button[Any],
        match: re.Match[str],
        /,
    ) -> Probe:
        return cls(match["tag"])

    async def callback(self, interaction: discord.Interaction) -> None:
        client = interaction.client
        assert isinstance(client, ShardBot)
        client.clicks.append(self.tag)
        await interaction.response.send_message(f"clicked by {client.name}")


def commands() -> list[app_commands.Command[Any, Any, Any]]:
    @app_commands.command(description="Which client and shard answer here")
    async def where(interaction: discord.Interaction) -> None:
        client = interaction.client
        assert isinstance(client, ShardBot)
        shard = interaction.guild.shard_id if interaction.guild else 0
        await interaction.response.send_message(f"{client.name} on shard {shard}")

    @app_commands.command(description="DM me a button")
    async def dm(interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Probe("dm"))
        await interaction.user.send("Press it", view=view)
        await interaction.response.send_message("sent", ephemeral=True)

    return [where, dm]


class ShardBot(discord.AutoShardedClient):
    def __init__(self, name: str, *, members: bool = False, **sharding: Any) -> None:
        intents = discord.Intents.default()
        intents.members = members
        super().__init__(intents=intents, guild_ready_timeout=0.1, **sharding)
        self.name = name
        self.tree = app_commands.CommandTree(self)
        for command in commands():
            self.tree.add_command(command)
        self.heard: list[int] = []  # ids of members' messages (MESSAGE_CREATE)
        self.clicks: list[str] = []
        self.resumed: list[int] = []

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        # The default waits 5 s before each shard's IDENTIFY but the first (Discord's
        # identify rate limit), which the emulator does not have.
        return None

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Probe)
        await self.tree.sync()

    async def on_message(self, message: discord.Message) -> None:
        if not message.author.bot:
            self.heard.append(message.id)

    async def on_shard_resumed(self, shard_id: int) -> None:
        self.resumed.append(shard_id)


@contextlib.asynccontextmanager
async def emulator(**kwargs: Any) -> AsyncIterator[Emulator]:
    async with Emulator(**kwargs) as emu, emu.point_discord():
        yield emu
    assert emu.unhandled_requests == []
    assert emu.server_errors == []
    assert emu.refused_requests == [], [r.summary for r in emu.refused_requests]
    leftover = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
    assert leftover == [], f"tasks left running: {leftover}"


@contextlib.asynccontextmanager
async def running(emu: Emulator, *clients: ShardBot) -> AsyncIterator[None]:
    """Start the clients together; yield once every one of them is ready (all its shards)."""
    tasks = [asyncio.create_task(c.start(emu.token), name=f"bot-{c.name}") for c in clients]
    try:
        try:
            await asyncio.wait_for(asyncio.gather(*(c.wait_until_ready() for c in clients)), 10)
        except TimeoutError:
            for task in tasks:
                if task.done():
                    task.result()  # show why a client died
            raise
        yield
    finally:
        for client in clients:
            await client.close()
        await asyncio.wait_for(asyncio.gather(*tasks), 5)


async def until(check: Callable[[], object], timeout: float = 5.0) -> None:
    async def poll() -> None:
        while not check():
            await asyncio.sleep(0.01)

    await asyncio.wait_for(poll(), timeout)


def sent(session: GatewaySession, event: str) -> list[JSON]:
    """The payloads of ``event`` dispatched to ``session`` so far."""
    return [frame["d"] for frame in session.buffer if frame["t"] == event]


def on_shard(guilds: list[SimGuild], shard_id: int, count: int) -> set[int]:
    return {g.id for g in guilds if g.shard_of(count) == shard_id}


async def where(emu: Emulator, guild: SimGuild) -> str:
    """Run /where as the guild's first human member; the answer's text."""
    member = next(m for m in guild.members.values() if not m.user.bot)
    return (await (await member.slash("where")).reply()).content


async def test_guild_ids_spread_over_shards() -> None:
    async with emulator() as emu:
        guilds = [emu.create_guild(f"Guild {n}") for n in range(6)]
        assert [g.shard_of(4) for g in guilds] == [0, 1, 2, 3, 0, 1]
        assert [g.shard_of(2) for g in guilds] == [0, 1, 0, 1, 0, 1]
        assert [g.shard_of(3) for g in guilds] == [0, 1, 2, 0, 1, 2]
        assert [shard_of(g.id, 1) for g in guilds] == [0] * 6
        assert guilds == sorted(guilds, key=lambda g: g.id)
        for shard in [(3, 4), (0, 4), (4, 5), (1, 2)]:
            assert emu.create_guild("Chosen", shard=shard).shard_of(shard[1]) == shard[0]
        with pytest.raises(SimulationError, match="shard_id, shard_count"):
            emu.create_guild("Nowhere", shard=(4, 4))


async def test_one_client_with_four_shards_gets_each_guild_on_its_shard() -> None:
    async with emulator() as emu:
        guilds = [emu.create_guild(f"Guild {n}") for n in range(5)]
        for guild in guilds:
            guild.add_member(f"member-{guild.name[-1]}")
        client = ShardBot("solo", shard_count=4, members=True)
        async with running(emu, client):
            sessions = sorted(emu.gateway.live_sessions(), key=lambda s: s.shard_id)
            assert [s.shard for s in sessions] == [[0, 4], [1, 4], [2, 4], [3, 4]]
            assert emu.gateway.identify_count == 4
            for session in sessions:
                mine = on_shard(guilds, session.shard_id, 4)
                [ready] = sent(session, "READY")
                assert ready["shard"] == session.shard
                assert {int(g["id"]) for g in ready["guilds"]} == mine
                assert {int(g["id"]) for g in sent(session, "GUILD_CREATE")} == mine
            assert {g.id for g in client.guilds} == {g.id for g in guilds}
            for guild in guilds:
                cached = client.get_guild(guild.id)
                assert cached is not None and cached.shard_id == guild.shard_of(4)
                assert cached.chunked and len(cached.members) == 2
            # A member query (op 8) goes out and is answered on the guild's own shard.
            queried = client.get_guild(guilds[3].id)
            assert queried is not None
            assert [m.name for m in await queried.query_members("member")] == ["member-3"]
            for session in sessions:
                chunks = [int(c["guild_id"]) for c in sent(session, "GUILD_MEMBERS_CHUNK")]
                assert chunks == ([guilds[3].id] if session.shard_id == 3 else [])

            late = emu.create_guild("Late")  # the 6th guild: shard 5 % 4 == 1
            await until(lambda: client.get_guild(late.id) is not None)
            for session in sessions:
                got = late.id in {int(g["id"]) for g in sent(session, "GUILD_CREATE")}
                assert got == (session.shard_id == 1)

            said = await guilds[2].member("member-2").say(guilds[2].default_channel, "hi")
            await until(lambda: said.id in client.heard)
            for session in sessions:
                got = [m["id"] for m in sent(session, "MESSAGE_CREATE")] == [str(said.id)]
                assert got == (session.shard_id == 2)

            for guild in guilds:
                assert await where(emu, guild) == f"solo on shard {guild.shard_of(4)}"
            handle = emu.interaction_log[-1]
            assert handle.record.session_id == sessions[guilds[-1].shard_of(4)].id
            await emu.assert_all_acknowledged()


async def test_autosharded_client_uses_the_recommended_shard_count() -> None:
    async with emulator(recommended_shards=2) as emu:
        guilds = [emu.create_guild(f"Guild {n}") for n in range(2)]
        guilds[1].add_member("bob")
        client = ShardBot("auto")  # no shard_count: GET /gateway/bot decides
        async with running(emu, client):
            assert client.shard_count == 2
            assert sorted(s.shard_id for s in emu.gateway.live_sessions()) == [0, 1]
            await emu.wait_for_bot(timeout=1, commands=["where"], shards=[0, 1])
            with pytest.raises(EmulatorTimeout, match=r"live shards: \[0, 1\], shards wanted"):
                await emu.wait_for_bot(timeout=0.05, shards=[2])
            assert await where(emu, guilds[1]) == "auto on shard 1"


async def test_two_processes_split_the_shards() -> None:
    async with emulator() as emu:
        guilds = [emu.create_guild(f"Guild {n}") for n in range(4)]
        assert [g.shard_of(4) for g in guilds] == [0, 1, 2, 3]
        alice = guilds[3].add_member("alice")
        guilds[0].add_member("bob")
        first = ShardBot("first", shard_count=4, shard_ids=[0, 1])
        second = ShardBot("second", shard_count=4, shard_ids=[2, 3])
        async with running(emu, first, second):
            assert {g.id for g in first.guilds} == {guilds[0].id, guilds[1].id}
            assert {g.id for g in second.guilds} == {guilds[2].id, guilds[3].id}
            assert first.user is not None and second.user is not None
            assert first.user.id == second.user.id == emu.bot.id

            # A slash command in a guild of shard 3 reaches only the second process.
            assert await where(emu, guilds[3]) == "second on shard 3"
            assert await where(emu, guilds[0]) == "first on shard 0"

            # The second process DMs alice (REST); her click in the DM goes to shard 0.
            await (await alice.slash("dm")).reply()
            dm = alice.last_dm
            assert dm is not None and dm.author is emu.bot and dm.content == "Press it"
            click = await alice.click(dm, "probe:dm")
            assert (await click.reply()).content == "clicked by first"
            assert (first.clicks, second.clicks) == (["dm"], [])

            # Members' messages: a DM goes to shard 0, a guild message to its guild's shard.
            in_dm = await alice.say(alice.dm_channel, "hello bot")
            in_guild = await alice.say(guilds[3].default_channel, "hello all")
            await until(lambda: in_dm.id in first.heard and in_guild.id in second.heard)
            assert in_guild.id not in first.heard and in_dm.id not in second.heard

            # REST is not sharded: both processes post into any channel.
            for client in (first, second):
                for guild in (guilds[0], guilds[3]):
                    channel = client.get_partial_messageable(guild.default_channel.id)
                    await channel.send(f"{client.name} in {guild.name}")
            posted = {m.content for g in guilds for m in g.default_channel.history()}
            assert {f"{c} in Guild {n}" for c in ("first", "second") for n in (0, 3)} <= posted
            await emu.assert_all_acknowledged()


async def test_an_interaction_for_a_shard_nobody_runs_is_not_delivered() -> None:
    async with emulator() as emu:
        guilds = [emu.create_guild(f"Guild {n}") for n in range(4)]
        alice = guilds[3].add_member("alice")
        guilds[1].add_member("bob")
        first = ShardBot("first", shard_count=4, shard_ids=[0, 1])
        async with running(emu, first):
            emu.command_wait = 0.2  # how long the emulator waits for shard 3 to connect
            handle = await alice.slash("where")
            assert handle.undelivered == "shard 3 of 4 is not connected"
            assert handle.expired and not handle.acked
            with pytest.raises(EmulatorTimeout, match=r"will never come \(not delivered: shard 3"):
                await handle.reply()
            failures = [e.text for e in emu.chat_log if e.kind == "failure"]
            assert failures == [
                "/where by @alice: not delivered, shard 3 of 4 is not connected "
                "(Discord shows 'This interaction failed')"
            ]
            # The running shards still work.
            assert await where(emu, guilds[1]) == "first on shard 1"
            with pytest.raises(EmulatorTimeout, match=r"/where by @alice \(not delivered"):
                await emu.assert_all_acknowledged()


@pytest.mark.parametrize("shard", [[4, 4], [2, 2], [0, 0], [-1, 2], [1], "0,1", [0, True]])
async def test_invalid_shard_is_closed_with_4010(shard: Any) -> None:
    async with emulator() as emu, aiohttp.ClientSession() as http:
        async with http.ws_connect(emu.gateway_url) as ws:
            hello = await ws.receive_json()
            assert hello["op"] == 10
            identify = {"token": emu.token, "intents": 0, "properties": {}, "shard": shard}
            await ws.send_json({"op": 2, "d": identify})
            closing = await ws.receive()
            assert closing.type == aiohttp.WSMsgType.CLOSE and closing.data == 4010
        assert emu.gateway.identify_count == 0 and emu.gateway.sessions == {}


async def test_discord_py_gets_4010_for_a_bad_shard_or_a_disagreeing_count() -> None:
    async with emulator() as emu:
        emu.create_guild()
        lone = discord.Client(intents=discord.Intents.none(), shard_id=4, shard_count=4)
        with pytest.raises(discord.ConnectionClosed) as closed:
            await asyncio.wait_for(lone.start(emu.token), 5)
        assert closed.value.code == 4010

        first = ShardBot("first", shard_count=4, shard_ids=[0, 1])
        async with running(emu, first):
            odd = ShardBot("odd", shard_count=2)  # all processes must agree on the count
            with pytest.raises(discord.ConnectionClosed) as closed:
                await asyncio.wait_for(odd.start(emu.token), 5)
            assert closed.value.code == 4010
            assert sorted(s.shard for s in emu.gateway.live_sessions()) == [[0, 4], [1, 4]]
        # Once nobody runs, another shard count is fine (resharding).
        again = ShardBot("again", shard_count=2)
        async with running(emu, again):
            assert sorted(s.shard for s in emu.gateway.live_sessions()) == [[0, 2], [1, 2]]


async def test_one_shard_resumes_and_gets_what_it_missed() -> None:
    async with emulator() as emu:
        guilds = [emu.create_guild(f"Guild {n}") for n in range(2)]
        bob = guilds[1].add_member("bob")
        client = ShardBot("solo", shard_count=2)
        async with running(emu, client):
            [shard0] = emu.gateway.shard_sessions(0)
            [shard1] = emu.gateway.shard_sessions(1)
            reconnect = asyncio.create_task(emu.request_reconnect(shard_id=1))
            await asyncio.sleep(0)  # op 7 RECONNECT is queued; the next event follows it
            said = await bob.say(guilds[1].default_channel, "said during the reconnect")
            await reconnect
            assert (shard0.resumes, shard1.resumes) == (0, 1)
            assert emu.gateway.shard_sessions(1) == [shard1]
            assert emu.gateway.identify_count == 2
            await until(lambda: client.resumed == [1] and said.id in client.heard)
            assert client.heard == [said.id]  # replayed or received, but exactly once
            assert await where(emu, guilds[1]) == "solo on shard 1"


async def test_two_sessions_on_one_shard_both_get_events() -> None:
    async with emulator() as emu:
        guilds = [emu.create_guild(f"Guild {n}") for n in range(2)]
        bob = guilds[1].add_member("bob")
        guilds[0].add_member("alice")
        main = ShardBot("main", shard_count=2)
        extra = ShardBot("extra", shard_count=2, shard_ids=[1])  # a second process on shard 1
        async with running(emu, main), running(emu, extra):
            assert [s.shard for s in emu.gateway.shard_sessions(1)] == [[1, 2], [1, 2]]
            said = await bob.say(guilds[1].default_channel, "both hear this")
            await until(lambda: said.id in main.heard and said.id in extra.heard)
            # Interactions go to the newer session of the shard.
            assert await where(emu, guilds[1]) == "extra on shard 1"
            assert await where(emu, guilds[0]) == "main on shard 0"
