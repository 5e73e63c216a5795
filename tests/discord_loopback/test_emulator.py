"""End-to-end tests of the loopback Discord emulator with a real discord.py bot.

The bot below uses what schotten-bot will use: a ``/schotten`` group with subcommands, a
member option, autocomplete, ephemeral replies, defer + followup with a PNG, DMs (and a
member with closed DMs), a persistent ``DynamicItem`` button, a select menu, threads and
message edits. Each test drives it through simulated members and checks what Discord would
show, so a broken emulator (or a broken discord.py contract) fails here.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

from discord_loopback import (
    ChatPrinter,
    Emulator,
    EmulatorTimeout,
    SimChannel,
    SimGuild,
    SimMember,
    SimulationError,
    png_bytes,
)

PNG = png_bytes(3, 2)
CARDS = ["blue-1", "blue-2", "blue-9", "red-1", "green-5"]


class AcceptButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"accept:(?P<game>[0-9]+)"
):
    """A persistent button: any client that registered the class can handle old messages."""

    def __init__(self, game: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Accept", style=discord.ButtonStyle.success, custom_id=f"accept:{game}"
            )
        )
        self.game = game

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Button[Any],
        match: re.Match[str],
        /,
    ) -> AcceptButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        client = interaction.client
        assert isinstance(client, GameBot)
        client.accepted.append((self.game, interaction.user.id))
        await interaction.response.edit_message(
            content=f"Game {self.game} accepted by {interaction.user.display_name}", view=None
        )


class PlayButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"play:(?P<card>[a-z]+-[0-9])"
):
    """A button sent in a DM: its interactions carry a user, no member and no guild."""

    def __init__(self, card: str) -> None:
        super().__init__(discord.ui.Button(label=card, custom_id=f"play:{card}"))
        self.card = card

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Button[Any],
        match: re.Match[str],
        /,
    ) -> PlayButton:
        return cls(match["card"])

    async def callback(self, interaction: discord.Interaction) -> None:
        where = "a DM" if interaction.guild is None else interaction.guild.name
        await interaction.response.send_message(f"Played {self.card} from {where}")


class ColourMenu(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.select(
        custom_id="colour",
        placeholder="Pick a colour",
        options=[
            discord.SelectOption(label="Red", value="red"),
            discord.SelectOption(label="Blue", value="blue"),
        ],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.send_message(
            f"You picked {', '.join(select.values)}", ephemeral=True
        )


class RenameModal(discord.ui.Modal, title="Rename your table"):
    name: discord.ui.TextInput[RenameModal] = discord.ui.TextInput(
        label="New name", custom_id="name", max_length=20
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        # A callback with a file (multipart), then a followup edited through the webhook.
        await interaction.response.send_message(
            f"Renamed to {self.name.value}",
            file=discord.File(io.BytesIO(PNG), filename="table.png"),
        )
        draft = await interaction.followup.send("draft", wait=True)
        await draft.edit(content=f"Table {self.name.value} is open")


def schotten_group() -> app_commands.Group:
    group = app_commands.Group(name="schotten", description="Schotten Totten")

    @group.command(description="Challenge a member")
    async def challenge(interaction: discord.Interaction, opponent: discord.Member) -> None:
        client = interaction.client
        assert isinstance(client, GameBot)
        client.opponents.append(opponent)
        view = discord.ui.View(timeout=None)
        view.add_item(AcceptButton(42))
        await interaction.response.send_message(
            f"{interaction.user.display_name} challenges {opponent.display_name}", view=view
        )

    @group.command(description="Pick a card")
    async def pick(interaction: discord.Interaction, card: str) -> None:
        await interaction.response.send_message(f"You picked {card}", ephemeral=True)

    @pick.autocomplete("card")
    async def pick_card(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=c, value=c) for c in CARDS if c.startswith(current)]

    @group.command(description="Show the board")
    async def board(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await asyncio.sleep(0.05)
        sent = await interaction.followup.send(
            "Here is the board", file=discord.File(io.BytesIO(PNG), filename="board.png"), wait=True
        )
        client = interaction.client
        assert isinstance(client, GameBot)
        # Read our own attachment back through its (emulated CDN) URL.
        client.read_back.append(await sent.attachments[0].read())

    @group.command(description="Send a member their hand")
    async def hand(interaction: discord.Interaction, target: discord.Member) -> None:
        client = interaction.client
        assert isinstance(client, GameBot)
        view = discord.ui.View(timeout=None)
        view.add_item(PlayButton("blue-1"))
        try:
            await target.send(
                "Your hand", file=discord.File(io.BytesIO(PNG), filename="hand.png"), view=view
            )
        except discord.Forbidden as error:
            client.errors.append(error.code)
            text = f"Cannot DM {target.display_name}"
        else:
            text = f"Sent {target.display_name} their hand"
        await interaction.response.send_message(text, ephemeral=True)

    @group.command(description="Choose a colour")
    async def menu(interaction: discord.Interaction) -> None:
        embed = discord.Embed(title="Colours", description="Pick one")
        embed.add_field(name="Red", value="warm")
        await interaction.response.send_message("Choose", embed=embed, view=ColourMenu())

    @group.command(description="Rename the table")
    async def rename(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(RenameModal())

    @group.command(description="Open a table")
    async def table(interaction: discord.Interaction, opponent: discord.Member) -> None:
        await interaction.response.send_message("Opening a table")
        message = await interaction.original_response()
        thread = await message.create_thread(name="table-1")
        await thread.send(f"Welcome {interaction.user.mention}")
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        private = await channel.create_thread(
            name="secret-table", type=discord.ChannelType.private_thread
        )
        await private.add_user(opponent)
        await private.send("Private hands go here")

    @group.command(description="Count up")
    async def count(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Counting", ephemeral=True)
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        message = await channel.send("count: 0")
        await message.edit(content="count: 1")
        scratch = await channel.send("scratch")
        await scratch.delete()
        await interaction.edit_original_response(content="Counted")

    @group.command(description="Answer too late")
    async def slow(interaction: discord.Interaction) -> None:
        await asyncio.sleep(0.4)
        try:
            await interaction.response.send_message("finally")
        except discord.NotFound as error:
            client = interaction.client
            assert isinstance(client, GameBot)
            client.errors.append(error.code)

    @group.command(description="Send an over-long message")
    async def shout(interaction: discord.Interaction) -> None:
        try:
            await interaction.response.send_message("A" * 2001)
        except discord.HTTPException as error:
            await interaction.response.send_message(f"refused: {error.code}", ephemeral=True)

    @group.command(description="Never answers")
    async def ignore(interaction: discord.Interaction) -> None:
        return None

    return group


@app_commands.command(description="Server settings")
@app_commands.default_permissions(manage_guild=True)
async def admin(interaction: discord.Interaction) -> None:
    assert interaction.guild is not None
    await interaction.response.send_message(f"Settings of {interaction.guild.name}", ephemeral=True)


class GameBot(discord.Client):
    def __init__(
        self, guild_id: int, *, members: bool = False, global_commands: bool = False
    ) -> None:
        intents = discord.Intents.default()
        intents.members = members
        # A short guild_ready_timeout: on_ready fires 0.1 s after the last GUILD_CREATE
        # instead of 2 s (discord.py leaves that timer task pending if closed before it).
        super().__init__(intents=intents, guild_ready_timeout=0.1)
        self.tree = app_commands.CommandTree(self)
        self.home = discord.Object(guild_id)
        self.global_commands = global_commands
        scope = None if global_commands else self.home
        self.tree.add_command(schotten_group(), guild=scope)
        self.tree.add_command(admin, guild=scope)
        self.accepted: list[tuple[int, int]] = []
        self.opponents: list[discord.Member] = []
        self.errors: list[int] = []
        self.read_back: list[bytes] = []
        self.heard: list[str] = []

    async def setup_hook(self) -> None:
        self.add_dynamic_items(AcceptButton, PlayButton)
        if self.global_commands:
            await self.tree.sync()
        else:
            await self.tree.sync(guild=self.home)

    async def on_message(self, message: discord.Message) -> None:
        if not message.author.bot:
            self.heard.append(message.content)


@contextlib.asynccontextmanager
async def emulator(**kwargs: Any) -> AsyncIterator[Emulator]:
    async with Emulator(**kwargs) as emu, emu.point_discord():
        yield emu
    assert emu.unhandled_requests == []
    assert emu.server_errors == []
    # Tests that plant a refused request take it out of the list once they have seen it.
    assert emu.refused_requests == [], [r.summary for r in emu.refused_requests]
    leftover = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
    assert leftover == [], f"tasks left running: {leftover}"


@contextlib.asynccontextmanager
async def running_bot(
    emu: Emulator, guild: SimGuild, *, members: bool = False, global_commands: bool = False
) -> AsyncIterator[GameBot]:
    client = GameBot(guild.id, members=members, global_commands=global_commands)
    task = asyncio.create_task(client.start(emu.token), name="test-bot")
    try:
        try:
            await emu.wait_for_bot(timeout=10, commands=["schotten", "admin"])
            await asyncio.wait_for(client.wait_until_ready(), 5)
        except (EmulatorTimeout, TimeoutError):
            if task.done():
                task.result()  # show why the bot died
            raise
        yield client
    finally:
        await client.close()
        await asyncio.wait_for(task, 5)


@dataclass
class Server:
    emu: Emulator
    guild: SimGuild
    general: SimChannel
    alice: SimMember
    bob: SimMember
    carol: SimMember


def populate(emu: Emulator) -> Server:
    guild = emu.create_guild("Test Server", channels=("general", "games"))
    return Server(
        emu=emu,
        guild=guild,
        general=guild.channel("general"),
        alice=guild.add_member("alice", global_name="Alice"),
        bob=guild.add_member("bob", global_name="Bob"),
        carol=guild.add_member("carol", dms_open=False),
    )


@pytest.fixture
async def server() -> AsyncIterator[Server]:
    async with emulator() as emu:
        yield populate(emu)


@pytest.fixture
async def bot(server: Server) -> AsyncIterator[GameBot]:
    async with running_bot(server.emu, server.guild) as client:
        yield client
        # The 3-second rule held for everything the test did.
        await server.emu.assert_all_acknowledged()


async def test_login_ready_and_command_sync(server: Server, bot: GameBot) -> None:
    emu = server.emu
    assert bot.user is not None and bot.user.id == emu.bot.id
    assert bot.application_id == emu.application_id
    names = {c.name for c in emu.commands(server.guild)}
    assert names == {"schotten", "admin"}
    schotten = next(c for c in emu.commands(server.guild) if c.name == "schotten")
    subcommands = {o["name"] for o in schotten.payload["options"]}
    assert {"challenge", "pick", "board", "hand", "menu", "table", "count"} <= subcommands
    # GUILD_CREATE reached the client's cache.
    guild = bot.get_guild(server.guild.id)
    assert guild is not None
    assert [c.name for c in guild.text_channels] == ["general", "games"]
    # Without the members intent Discord sends only the bot's own member.
    assert [m.id for m in guild.members] == [emu.bot.id]
    assert guild.member_count == 4
    assert emu.gateway.identify_count == 1


async def test_members_intent_fills_the_cache_and_answers_queries() -> None:
    async with emulator() as emu:
        server = populate(emu)
        async with running_bot(emu, server.guild, members=True) as client:
            guild = client.get_guild(server.guild.id)
            assert guild is not None and guild.chunked
            assert {m.name for m in guild.members} == {"Schotten Bot", "alice", "bob", "carol"}
            found = await guild.query_members("al")  # gateway op 8 -> GUILD_MEMBERS_CHUNK
            assert [m.id for m in found] == [server.alice.id]
            newcomer = server.guild.add_member("erin")  # GUILD_MEMBER_ADD
            await asyncio.wait_for(_until(lambda: guild.get_member(newcomer.id)), 5)


async def test_wrong_token_is_a_login_failure(server: Server) -> None:
    client = GameBot(server.guild.id)
    with pytest.raises(discord.LoginFailure):
        await client.login("not-the-token")
    await client.close()
    assert server.emu.gateway.identify_count == 0


async def test_slash_with_member_option_and_button(server: Server, bot: GameBot) -> None:
    alice, bob = server.alice, server.bob
    handle = await alice.slash(("schotten", "challenge"), opponent=bob)
    reply = await handle.reply()
    assert reply.content == "Alice challenges Bob"
    assert not reply.ephemeral and reply.visible_to is None
    assert reply.interaction is handle.record and reply.channel is server.general
    assert handle.ack_type == 4
    assert handle.ack_latency is not None and 0 <= handle.ack_latency < 3
    # The member option arrived as a resolved discord.Member.
    assert [(m.id, type(m)) for m in bot.opponents] == [(bob.id, discord.Member)]
    assert reply.button("Accept")["custom_id"] == "accept:42"

    click = await bob.click(reply, label="Accept")
    updated = await click.update()
    assert updated is reply
    assert updated.content == "Game 42 accepted by Bob"
    assert updated.components == []
    assert bot.accepted == [(42, bob.id)]
    assert click.ack_type == 7


async def test_ephemeral_reply_is_only_visible_to_the_invoker(server: Server, bot: GameBot) -> None:
    handle = await server.alice.slash("schotten pick", card="blue-2")
    reply = await handle.reply()
    assert reply.content == "You picked blue-2"
    assert reply.ephemeral and handle.ephemeral
    assert reply.visible_to is server.alice.user
    assert server.alice.can_see(reply) and not server.bob.can_see(reply)
    assert reply in server.general.history(server.alice)
    assert reply not in server.general.history(server.bob)
    assert reply not in server.general.public_history()


async def test_autocomplete_returns_the_bots_choices(server: Server, bot: GameBot) -> None:
    choices = await server.alice.autocomplete(("schotten", "pick"), "card", card="blue")
    assert [c["value"] for c in choices] == ["blue-1", "blue-2", "blue-9"]
    assert await server.alice.autocomplete(("schotten", "pick"), "card", card="zzz") == []
    with pytest.raises(SimulationError, match=r"no autocomplete|no option"):
        await server.alice.autocomplete(("schotten", "challenge"), "opponent")


async def test_deferred_reply_then_followup_with_png(server: Server, bot: GameBot) -> None:
    handle = await server.alice.slash(("schotten", "board"))
    assert await handle.ack() == 5
    message = await handle.attachment_message()
    # The first followup after a defer fills the "thinking…" message itself.
    assert message is handle.original and not message.loading
    assert handle.followups == []
    assert message.content == "Here is the board"
    assert [a.filename for a in message.attachments] == ["board.png"]
    assert message.attachment_bytes() == [PNG]
    assert (message.attachments[0].width, message.attachments[0].height) == (3, 2)
    assert message.attachments[0].content_type == "image/png"
    latency = handle.attachment_latency
    assert latency is not None and latency >= 0.05
    assert handle.ack_latency is not None and handle.ack_latency < latency
    await handle.wait_until(lambda h: bot.read_back, what="the bot to read its attachment")
    assert bot.read_back == [PNG]


async def test_dm_and_member_with_closed_dms(server: Server, bot: GameBot) -> None:
    handle = await server.alice.slash(("schotten", "hand"), target=server.bob)
    assert (await handle.reply()).content == "Sent Bob their hand"
    dm = server.bob.last_dm
    assert dm is not None and dm.content == "Your hand"
    assert dm.channel.is_dm and dm.channel.recipient is server.bob.user
    assert dm.attachment_bytes() == [PNG]

    # Pressing a button in the DM: a DM interaction (user, no member, no guild).
    with pytest.raises(SimulationError, match="another user's DM"):
        await server.alice.click(dm, "play:blue-1")
    played = await (await server.bob.click(dm, "play:blue-1")).reply()
    assert played.content == "Played blue-1 from a DM" and played.channel is dm.channel

    refused = await server.alice.slash(("schotten", "hand"), target=server.carol)
    assert (await refused.reply()).content == "Cannot DM carol"
    assert bot.errors == [50007]
    assert server.carol.dms == []
    failures = [e.text for e in server.emu.chat_log if e.kind == "failure"]
    assert failures == ["DM to @carol refused: 50007 Cannot send messages to this user"]


async def test_select_menu(server: Server, bot: GameBot) -> None:
    menu = await (await server.alice.slash("schotten menu")).reply()
    assert [s["custom_id"] for s in menu.selects()] == ["colour"]
    with pytest.raises(SimulationError, match="no options"):
        await server.bob.select(menu, "colour", ["green"])
    assert menu.embed_text() == "Colours\nPick one\nRed: warm"
    chosen = await server.bob.select(menu, "colour", ["blue"])
    answer = await chosen.reply()
    assert answer.content == "You picked blue"
    assert answer.visible_to is server.bob.user


async def test_modal_submit(server: Server, bot: GameBot) -> None:
    handle = await server.alice.slash("schotten rename")
    modal = await handle.modal()
    assert modal["title"] == "Rename your table" and handle.ack_type == 9
    with pytest.raises(SimulationError, match="no inputs"):
        await server.alice.submit_modal(handle, {"nope": "x"})
    with pytest.raises(SimulationError, match="only the member"):
        await server.bob.submit_modal(handle, {"name": "Zed"})
    with pytest.raises(SimulationError, match=r"[01]-20 characters"):
        await server.alice.submit_modal(handle, {"name": "Z" * 21})
    submitted = await server.alice.submit_modal(handle, {"name": "Zed"})
    reply = await submitted.reply()
    assert reply.content == "Renamed to Zed" and reply.attachment_bytes() == [PNG]

    def edited_followup(h: Any) -> Any:
        return h.followups if h.followups and h.followups[0].content != "draft" else None

    [followup] = await submitted.wait_until(edited_followup, what="the edited followup")
    assert followup.content == "Table Zed is open" and followup.revisions == ["draft"]
    assert followup.interaction is submitted.record


async def test_threads_from_a_message_and_private(server: Server, bot: GameBot) -> None:
    handle = await server.alice.slash(("schotten", "table"), opponent=server.bob)
    starter = await handle.reply()
    emu = server.emu
    await emu.wait_for_message(lambda m: m.content == "Private hands go here")
    public = server.guild.channel("table-1")
    assert public.is_thread and public.parent is server.general
    assert public.id == starter.id and starter.thread is public
    assert [m.content for m in public.history()] == [f"Welcome {server.alice.mention}"]
    private = server.guild.channel("secret-table")
    assert private.type == 12
    assert private.thread_member_ids == {emu.bot.id, server.bob.id}
    assert server.bob.can_view(private) and not server.carol.can_view(private)
    # THREAD_CREATE reached the client.
    assert isinstance(bot.get_channel(public.id), discord.Thread)
    assert isinstance(bot.get_channel(private.id), discord.Thread)


async def test_message_edits(server: Server, bot: GameBot) -> None:
    handle = await server.alice.slash(("schotten", "count"))
    await handle.wait_until(lambda h: h.original and h.original.content == "Counted", what="edit")
    counter = await server.emu.wait_for_message(lambda m: m.content.startswith("count:"))
    await handle.wait_until(lambda h: counter.content == "count: 1", what="the counter edit")
    assert counter.revisions == ["count: 0"] and counter.edited
    assert counter.interaction is None and not counter.ephemeral
    assert handle.original is not None and handle.original.revisions == ["Counting"]
    [scratch] = [m for m in server.emu.world.messages.values() if m.content == "scratch"]
    assert scratch.deleted and scratch not in server.general.history()
    assert [e.message for e in server.emu.chat_log if e.kind == "delete"] == [scratch]


async def test_default_member_permissions_hide_commands(server: Server, bot: GameBot) -> None:
    with pytest.raises(SimulationError, match="MANAGE_GUILD"):
        await server.alice.slash("admin")
    dave = server.guild.add_member("dave", manage_guild=True)
    reply = await (await dave.slash("admin")).reply()
    assert reply.content == "Settings of Test Server"
    server.alice.manage_guild = True
    assert (await (await server.alice.slash("admin")).reply()).ephemeral


async def test_discord_limits_are_enforced(server: Server, bot: GameBot) -> None:
    reply = await (await server.alice.slash("schotten shout")).reply()
    assert reply.content == "refused: 50035"
    [refused] = server.emu.refused_requests
    assert refused.path.endswith("/callback") and refused.code == 50035
    assert refused.errors == {
        "data": {
            "content": {
                "_errors": [
                    {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 2000 or fewer in length."}
                ]
            }
        }
    }
    assert any(e.kind == "failure" and "refused" in e.text for e in server.emu.chat_log)
    server.emu.refused_requests.clear()
    with pytest.raises(SimulationError, match="required"):
        await server.alice.slash(("schotten", "challenge"))
    with pytest.raises(SimulationError, match="takes a member"):
        await server.alice.slash(("schotten", "challenge"), opponent="bob")
    with pytest.raises(SimulationError, match="not registered"):
        server.emu.command_wait = 0.1
        await server.alice.slash("nosuchcommand")


async def test_persistent_button_works_for_a_new_client(server: Server) -> None:
    emu = server.emu
    async with running_bot(emu, server.guild) as first:
        challenge = await (
            await server.alice.slash("schotten challenge", opponent=server.bob)
        ).reply()
    assert first.is_closed()
    assert emu.gateway.live_sessions() == []
    async with running_bot(emu, server.guild) as second:
        click = await server.bob.click(challenge, "accept:42")
        assert (await click.update()).content == "Game 42 accepted by Bob"
        assert second.accepted == [(42, server.bob.id)]
        assert first.accepted == []
        await emu.assert_all_acknowledged()
    assert emu.gateway.identify_count == 2


async def test_reconnect_resumes_and_replays_missed_events(server: Server, bot: GameBot) -> None:
    emu = server.emu
    assert bot.user is not None
    session = emu.gateway.interaction_session()
    reconnect = asyncio.create_task(emu.request_reconnect())
    await asyncio.sleep(0)  # op 7 RECONNECT is queued; the next event follows it
    await server.alice.say(server.general, f"{bot.user.mention} said during the reconnect")
    await reconnect
    assert emu.gateway.resume_count == 1 and emu.gateway.identify_count == 1
    assert emu.gateway.interaction_session() is session
    # The client dropped the socket at op 7; RESUME replayed the message exactly once.
    await asyncio.wait_for(_until(lambda: bot.heard), 5)
    await asyncio.sleep(0.05)
    assert bot.heard == [f"{bot.user.mention} said during the reconnect"]
    assert emu.gateway.replayed == 1
    reply = await (await server.alice.slash("schotten pick", card="red-1")).reply()
    assert reply.content == "You picked red-1"


async def test_message_content_needs_the_intent(server: Server, bot: GameBot) -> None:
    await server.alice.say(server.general, "hello there")
    await server.alice.say(server.general, f"{bot.user.mention if bot.user else ''} hi bot")
    await server.emu.wait_for_message(lambda m: "hi bot" in m.content)
    await server.alice.slash("schotten pick", card="red-1")  # a marker after both messages
    await asyncio.wait_for(_until(lambda: len(bot.heard) == 2), 5)
    # Without MESSAGE_CONTENT only mentions keep their content.
    assert bot.heard[0] == ""
    assert bot.heard[1].endswith("hi bot")


async def _until(check: Any) -> None:
    while not check():
        await asyncio.sleep(0.01)


async def test_global_commands_also_work_in_dms() -> None:
    async with emulator() as emu:
        server = populate(emu)
        async with running_bot(emu, server.guild, global_commands=True):
            assert {c.name for c in emu.commands()} == {"schotten", "admin"}
            assert emu.commands(server.guild) == []
            in_guild = await (await server.alice.slash("schotten pick", card="red-1")).reply()
            assert in_guild.channel is server.general
            dm = server.alice.dm_channel
            in_dm = await (
                await server.alice.slash("schotten pick", where=dm, card="blue-1")
            ).reply()
            assert in_dm.channel is dm and in_dm.content == "You picked blue-1"
            # default_member_permissions still hides /admin from members in the guild.
            with pytest.raises(SimulationError, match="MANAGE_GUILD"):
                await server.alice.slash("admin")
            await emu.assert_all_acknowledged()


async def test_three_second_rule_is_enforced() -> None:
    async with emulator(interaction_deadline=0.2) as emu:
        server = populate(emu)
        async with running_bot(emu, server.guild) as client:
            handle = await server.alice.slash("schotten slow")
            await handle.wait_until(lambda h: client.errors, timeout=3, what="the late reply")
            assert client.errors == [10062]
            assert handle.expired and not handle.acked
            assert emu.late_interactions == [handle.record]
            with pytest.raises(EmulatorTimeout, match="schotten slow"):
                await emu.assert_all_acknowledged()
            assert any(e.kind == "failure" for e in emu.chat_log)


async def test_interaction_protocol_errors(server: Server, bot: GameBot) -> None:
    emu = server.emu
    handle = await server.alice.slash("schotten ignore")
    token = handle.record.token
    hook = f"{emu.api_base}/webhooks/{emu.application_id}/{token}"
    callback = f"{emu.api_base}/interactions/{handle.id}/{token}/callback"
    async with aiohttp.ClientSession() as http:

        async def call(method: str, url: str, body: Any = None) -> tuple[int, Any]:
            async with http.request(method, url, json=body) as response:
                data = await response.json() if response.content_length else None
                return response.status, data

        status, body = await call("POST", hook, {"content": "too early"})
        assert (status, body["code"]) == (404, 10015)
        status, body = await call("POST", callback, {"type": 7, "data": {"content": "x"}})
        assert (status, body["code"]) == (400, 50035)
        assert [r.code for r in emu.refused_requests] == [50035]
        emu.refused_requests.clear()
        status, body = await call(
            "POST", f"{callback}?with_response=1", {"type": 4, "data": {"content": "by hand"}}
        )
        assert status == 200 and body["resource"]["message"]["content"] == "by hand"
        status, body = await call("POST", callback, {"type": 4, "data": {"content": "again"}})
        assert (status, body["code"]) == (400, 40060)
        status, body = await call("GET", f"{hook}/messages/@original")
        assert status == 200 and body["content"] == "by hand"
        status, body = await call("GET", f"{emu.api_base}/users/@me")
        assert status == 401
    assert handle.original is not None and handle.original.content == "by hand"


async def test_chat_printer_and_event_stream(server: Server, bot: GameBot, tmp_path: Path) -> None:
    lines: list[str] = []
    printer = ChatPrinter(lines.append, attachments_dir=tmp_path)
    server.emu.subscribe(printer)
    stream = server.emu.chat_events()
    handle = await server.alice.slash(("schotten", "board"))
    await handle.attachment_message()
    kinds = [(await anext(stream)).kind for _ in range(3)]
    stream.close()
    assert kinds == ["command", "message", "edit"]
    assert lines[0].startswith("#general") and lines[0].endswith("Alice: /schotten board")
    assert "Schotten Bot: is thinking…" in lines[1]
    assert "Schotten Bot: Here is the board [file: board.png 73 B →" in lines[2]
    saved = list(tmp_path.iterdir())
    assert len(saved) == 1 and saved[0].read_bytes() == PNG


async def test_a_client_gone_in_the_middle_of_a_request_is_no_emulator_error() -> None:
    # A bot process killed while it uploads a message leaves its request half sent.
    async with Emulator() as emu:
        channel = emu.create_guild("G").default_channel
        _, writer = await asyncio.open_connection("127.0.0.1", emu.port)
        writer.write(
            f"POST /api/v10/channels/{channel.id}/messages HTTP/1.1\r\nHost: emulator\r\n"
            f"Authorization: Bot {emu.token}\r\nContent-Type: application/json\r\n"
            'Content-Length: 1000\r\n\r\n{"content": '.encode()
        )
        await writer.drain()
        await asyncio.sleep(0.1)
        writer.close()
        for _ in range(100):
            if emu.requests:
                break
            await asyncio.sleep(0.02)
        assert [r.status for r in emu.requests] == [499]
        assert emu.server_errors == []
        assert channel.messages == []


async def test_heartbeats_are_acknowledged_after_a_round_trip_not_instantly() -> None:
    # An instant ACK can beat discord.py's heartbeat thread to noting its send: the client
    # then measures its latency from the previous beat and warns it "can't keep up".
    async with emulator(heartbeat_interval=0.2) as emu:
        guild = populate(emu).guild
        async with running_bot(emu, guild) as client:
            for _ in range(200):
                if len(emu.gateway.heartbeat_round_trips) >= 3:
                    break
                await asyncio.sleep(0.05)
            trips = list(emu.gateway.heartbeat_round_trips)
            assert len(trips) >= 3
            # A round trip of at least 20 ms, as over any real network.
            assert all(sent - received >= 0.02 for received, sent in trips)
            assert client.latency < 10
