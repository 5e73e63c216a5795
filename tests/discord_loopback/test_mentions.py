"""Who a message notifies, as the loopback models it (discord_loopback/mentions.py): mentions
filtered by `allowed_mentions` as Discord documents, notifications on creation only, never
on edits, nor for ephemeral replies or a deferred reply filled in later."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest
from discord import app_commands

from discord_loopback import Emulator, EmulatorTimeout, SimGuild
from tests.discord_loopback.test_emulator import Server, emulator, populate

NOBODY = discord.AllowedMentions.none()


class MentionBot(discord.Client):
    """A client whose commands mention a member in each way an answer can be made."""

    def __init__(self, guild_id: int) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.1)
        self.tree = app_commands.CommandTree(self)
        self.home = discord.Object(guild_id)
        group = app_commands.Group(name="ping", description="Mention someone")

        @group.command(description="Answer at once")
        async def now(interaction: discord.Interaction, who: discord.Member) -> None:
            await interaction.response.send_message(f"{who.mention}, your move")

        @group.command(description="Think first, then answer")
        async def later(interaction: discord.Interaction, who: discord.Member) -> None:
            await interaction.response.defer(thinking=True)
            await interaction.followup.send(f"{who.mention}, your move")
            await interaction.followup.send(f"{who.mention}, and again")

        @group.command(description="Answer privately")
        async def secret(interaction: discord.Interaction, who: discord.Member) -> None:
            await interaction.response.send_message(f"{who.mention}, psst", ephemeral=True)

        self.tree.add_command(group, guild=self.home)

    async def setup_hook(self) -> None:
        await self.tree.sync(guild=self.home)


@contextlib.asynccontextmanager
async def running(emu: Emulator, guild: SimGuild) -> AsyncIterator[MentionBot]:
    client = MentionBot(guild.id)
    task = asyncio.create_task(client.start(emu.token), name="mention-bot")
    try:
        try:
            await emu.wait_for_bot(timeout=10, commands=["ping"])
            await asyncio.wait_for(client.wait_until_ready(), 5)
        except (EmulatorTimeout, TimeoutError):
            if task.done():
                task.result()
            raise
        yield client
    finally:
        await client.close()
        await asyncio.wait_for(task, 5)


@pytest.fixture
async def world() -> AsyncIterator[tuple[Server, MentionBot]]:
    async with emulator() as emu:
        server = populate(emu)
        async with running(emu, server.guild) as client:
            yield server, client


def channel_of(client: MentionBot, server: Server) -> discord.abc.Messageable:
    channel = client.get_channel(server.general.id)
    assert isinstance(channel, discord.TextChannel)
    return channel


async def test_allowed_mentions_choose_who_is_notified(world: Any) -> None:
    server, client = world
    alice, bob, carol = server.alice, server.bob, server.carol
    channel = channel_of(client, server)
    both = f"{alice.mention} {bob.mention}"
    # No allowed_mentions at all (the client's default is set to none here): every user.
    client.allowed_mentions = None
    every = await channel.send(both)
    only_bob = await channel.send(both, allowed_mentions=discord.AllowedMentions(users=[bob]))
    quiet = await channel.send(both, allowed_mentions=NOBODY)
    listed_absent = await channel.send(
        alice.mention, allowed_mentions=discord.AllowedMentions(users=[bob])
    )
    found = {m.id: server.emu.world.messages[m.id] for m in (every, only_bob, quiet)}
    assert [u.name for u in found[every.id].notified] == ["alice", "bob"]
    assert [u.name for u in found[only_bob.id].notified] == ["bob"]
    assert found[quiet.id].notified == [] and found[quiet.id].mentions == []
    assert server.emu.world.messages[listed_absent.id].notified == []
    # Discord's `mentions` (what discord.py reads back) follow the same rule.
    assert [m.id for m in only_bob.mentions] == [bob.id]
    assert [m.id for m in alice.notifications(server.general)] == [every.id]
    assert [m.id for m in bob.notifications(server.general)] == [every.id, only_bob.id]
    assert carol.notifications() == []


async def test_parse_users_with_a_list_of_users_is_refused(world: Any) -> None:
    server, client = world
    channel = channel_of(client, server)
    route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=channel.id)
    body = {
        "content": server.alice.mention,
        "allowed_mentions": {"parse": ["users"], "users": [str(server.alice.id)]},
    }
    with pytest.raises(discord.HTTPException) as refused:
        await client.http.request(route, json=body)
    assert refused.value.status == 400 and refused.value.code == 50035
    assert "mutually exclusive" in str(refused.value)
    assert server.general.messages == []
    assert [r.code for r in server.emu.refused_requests] == [50035]
    server.emu.refused_requests.clear()


async def test_edits_never_notify_but_keep_the_mentions_shown(world: Any) -> None:
    server, client = world
    channel = channel_of(client, server)
    message = await channel.send("the board", allowed_mentions=NOBODY)
    edited = await message.edit(
        content=f"{server.bob.mention} to play",
        allowed_mentions=discord.AllowedMentions(users=[server.bob]),
    )
    stored = server.emu.world.messages[message.id]
    assert [m.id for m in edited.mentions] == [server.bob.id]  # shown as Bob's mention
    assert stored.notified == [] and server.bob.notifications() == []


async def test_deleted_pings_still_rang_and_authors_are_not_notified(world: Any) -> None:
    server, client = world
    channel = channel_of(client, server)
    message = await channel.send(server.alice.mention)
    await message.delete()
    assert [m.id for m in server.alice.notifications()] == [message.id]
    me = client.user
    assert me is not None
    own = await channel.send(me.mention)
    assert server.emu.world.messages[own.id].notified == []


async def test_members_who_cannot_see_the_channel_are_not_notified(world: Any) -> None:
    server, client = world
    channel = channel_of(client, server)
    thread = await channel.create_thread(name="secret", type=discord.ChannelType.private_thread)
    await thread.add_user(discord.Object(server.alice.id))
    both = f"{server.alice.mention} {server.bob.mention}"
    message = await thread.send(both)
    stored = server.emu.world.messages[message.id]
    assert [u.name for u in stored.mentions] == ["alice", "bob"]
    assert [u.name for u in stored.notified] == ["alice"]


async def test_a_dm_notifies_its_recipient(world: Any) -> None:
    server, client = world
    user = await client.fetch_user(server.alice.id)
    message = await user.send("Your hand")
    assert [m.id for m in server.alice.notifications(server.alice.dm_channel)] == [message.id]


async def test_interaction_answers_notify_unless_deferred_or_ephemeral(world: Any) -> None:
    server, _ = world
    alice, bob = server.alice, server.bob
    now = await alice.slash(("ping", "now"), where=server.general, who=bob)
    at_once = await now.reply()
    assert at_once.notified == [bob.user]
    later = await alice.slash(("ping", "later"), where=server.general, who=bob)
    filled = await later.reply()
    # The "thinking…" message filled in is an edit: it notifies nobody, though it shows
    # Bob's mention; the followup after it is a message of its own and does notify.
    assert filled.notified == [] and filled.mentions == [bob.user]
    again = (await later.wait_messages(2))[1]
    assert "and again" in again.content and again.notified == [bob.user]
    secret = await alice.slash(("ping", "secret"), where=server.general, who=bob)
    private = await secret.reply()
    assert private.ephemeral and private.notified == [] and private.mentions == []
    assert [m.content for m in bob.notifications()] == [
        f"{bob.mention}, your move",
        f"{bob.mention}, and again",
    ]


async def test_without_the_behaviour_edits_and_filled_replies_notify() -> None:
    """`edit_never_notifies` switched off: the kinder Discord a bot may wrongly count on,
    where filling the "thinking…" reply or an edit rings whom it mentions (the tests above
    fail on this one, so they fail if the loopback stops playing the behaviour)."""
    async with emulator(without={"edit_never_notifies"}) as emu:
        server = populate(emu)
        async with running(emu, server.guild) as client:
            bob = server.bob
            later = await server.alice.slash(("ping", "later"), where=server.general, who=bob)
            filled = await later.reply()
            assert filled.notified == [bob.user]
            message = await channel_of(client, server).send("the board", allowed_mentions=NOBODY)
            await message.edit(content=f"{bob.mention} to play")
            assert emu.world.messages[message.id].notified == [bob.user]
