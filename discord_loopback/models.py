"""The emulated world's objects: users, guilds, members, channels, messages, commands.

These are the emulator's own records (what "Discord" knows), not discord.py objects. Tests and
the sandbox read them directly: a message keeps its content, embeds, components, attachment
bytes, who may see it and which interaction it answers. Members also carry the simulation
actions (``slash``, ``click``, ...), which delegate to the emulator's interaction manager.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import permissions as perms
from .ids import now, shard_of

if TYPE_CHECKING:
    from .handles import InteractionHandle
    from .records import InteractionRecord
    from .server import Emulator

JSON = dict[str, Any]

# Channel types (Discord's numbers).
GUILD_TEXT = 0
DM = 1
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12

# Message flags the emulator interprets.
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_COMPONENTS_V2 = 1 << 15

# Component types.
ACTION_ROW = 1
BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4
USER_SELECT = 5
ROLE_SELECT = 6
MENTIONABLE_SELECT = 7
CHANNEL_SELECT = 8
SELECT_TYPES = (STRING_SELECT, USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT)


def walk_components(components: Sequence[JSON]) -> Iterator[JSON]:
    """Every component, depth first: rows, containers, sections' accessories, labels' inputs."""
    for component in components:
        yield component
        yield from walk_components(component.get("components", []))
        for key in ("accessory", "component"):
            child = component.get(key)
            if isinstance(child, dict):
                yield from walk_components([child])


@dataclass(eq=False)
class SimUser:
    """A Discord account. ``dms_open=False`` makes the bot's DMs fail with 50007."""

    id: int
    name: str
    global_name: str | None = None
    bot: bool = False
    dms_open: bool = True
    # The language of the user's Discord client: interactions carry it as `locale`, and a
    # client shows (and matches typed) command names in it when the bot localised them.
    locale: str = "en-US"

    @property
    def display_name(self) -> str:
        return self.global_name or self.name

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass(eq=False)
class SimRole:
    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False
    color: int = 0


@dataclass(eq=False)
class SimGuild:
    """A server. The bot is a member of every guild the emulator knows."""

    id: int
    name: str
    owner_id: int
    _emu: Emulator = field(repr=False)
    roles: dict[int, SimRole] = field(default_factory=dict)
    members: dict[int, SimMember] = field(default_factory=dict)
    channels: dict[int, SimChannel] = field(default_factory=dict)
    created_at: dt.datetime = field(default_factory=now)
    # A community server's language (`preferred_locale`, interactions' `guild_locale`).
    locale: str = "en-US"
    # The bot was removed (``remove_bot``): nothing of the server reaches it, REST refuses.
    bot_removed: bool = False

    @property
    def everyone(self) -> SimRole:
        return self.roles[self.id]

    @property
    def text_channels(self) -> list[SimChannel]:
        return [c for c in self.channels.values() if c.type == GUILD_TEXT]

    @property
    def threads(self) -> list[SimChannel]:
        return [c for c in self.channels.values() if c.is_thread]

    @property
    def default_channel(self) -> SimChannel:
        """The first text channel: where ``slash`` runs when no channel is given."""
        channels = self.text_channels
        if not channels:
            raise LookupError(f"guild {self.name!r} has no text channel")
        return channels[0]

    def channel(self, name: str) -> SimChannel:
        """A channel or thread of this guild by name."""
        for channel in self.channels.values():
            if channel.name == name:
                return channel
        raise LookupError(f"no channel named {name!r} in {self.name!r}")

    def member(self, name: str) -> SimMember:
        """A member by username or display name."""
        for member in self.members.values():
            if name in (member.user.name, member.display_name):
                return member
        raise LookupError(f"no member named {name!r} in {self.name!r}")

    def shard_of(self, shard_count: int) -> int:
        """The shard (of ``shard_count``) that gets this guild's events and interactions."""
        return shard_of(self.id, shard_count)

    def permissions_of(self, user_id: int) -> int:
        """Guild-level permissions: the OR of the member's roles; owners and admins get all."""
        if user_id == self.owner_id:
            return perms.ALL
        member = self.members.get(user_id)
        bits = self.everyone.permissions
        if member is not None:
            for role_id in member.role_ids:
                role = self.roles.get(role_id)
                if role is not None:
                    bits |= role.permissions
        if bits & perms.ADMINISTRATOR:
            return perms.ALL
        return bits

    # Simulation conveniences (they dispatch the matching gateway events).
    def create_text_channel(self, name: str, *, topic: str | None = None) -> SimChannel:
        return self._emu.world.create_text_channel(self, name, topic=topic)

    def add_member(
        self,
        name: str,
        *,
        global_name: str | None = None,
        manage_guild: bool = False,
        dms_open: bool = True,
        user: SimUser | None = None,
        locale: str = "en-US",
    ) -> SimMember:
        """Add a human member (a new account named ``name``, or an existing ``user``);
        ``locale`` is a new account's client language."""
        return self._emu.world.add_member(
            self,
            name,
            global_name=global_name,
            manage_guild=manage_guild,
            dms_open=dms_open,
            locale=locale,
            user=user,
        )

    def remove_member(self, member: SimMember) -> None:
        """The member leaves the server."""
        self._emu.world.remove_member(member)

    def remove_bot(self) -> None:
        """A manager removes the bot from the server (``World.remove_bot``)."""
        self._emu.world.remove_bot(self)

    def add_bot(self) -> None:
        """The bot is invited back (``World.add_bot``)."""
        self._emu.world.add_bot(self)


@dataclass(eq=False)
class SimMember:
    """A user's membership of a guild, and the simulated person's actions."""

    user: SimUser
    guild: SimGuild
    _emu: Emulator = field(repr=False)
    role_ids: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: dt.datetime = field(default_factory=now)

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.name

    @property
    def display_name(self) -> str:
        return self.nick or self.user.display_name

    @property
    def mention(self) -> str:
        return self.user.mention

    @property
    def permissions(self) -> int:
        return self.guild.permissions_of(self.user.id)

    @property
    def manage_guild(self) -> bool:
        return bool(self.permissions & perms.MANAGE_GUILD)

    @manage_guild.setter
    def manage_guild(self, value: bool) -> None:
        self._emu.world.set_manage_guild(self, value)

    @property
    def dms_open(self) -> bool:
        return self.user.dms_open

    @dms_open.setter
    def dms_open(self, value: bool) -> None:
        self.user.dms_open = value

    # Actions.
    async def slash(
        self,
        command: str | Sequence[str],
        /,
        *,
        where: SimChannel | None = None,
        options: Mapping[str, Any] | None = None,
        **kw_options: Any,
    ) -> InteractionHandle:
        """Run a slash command, e.g. ``slash(("schotten", "move"), opponent=bob, column=3)``.

        The command must be registered by the bot (synced), visible to this member
        (``default_member_permissions``) and the options must fit its schema.
        """
        merged = {**(options or {}), **kw_options}
        return await self._emu.interactions.slash(self, command, where=where, options=merged)

    async def autocomplete(
        self,
        command: str | Sequence[str],
        focused: str,
        /,
        *,
        where: SimChannel | None = None,
        timeout: float = 5.0,
        **options: Any,
    ) -> list[JSON]:
        """Type into option ``focused``; returns the choices the bot answered
        (``[{"name": ..., "value": ...}]``)."""
        handle = await self._emu.interactions.autocomplete(
            self, command, focused, where=where, options=options
        )
        return await handle.choices(timeout=timeout)

    async def click(
        self, message: SimMessage, custom_id: str | None = None, *, label: str | None = None
    ) -> InteractionHandle:
        """Press a button on ``message`` (by ``custom_id`` or by visible ``label``)."""
        return await self._emu.interactions.click(self, message, custom_id, label=label)

    async def select(
        self,
        message: SimMessage,
        custom_id: str | None,
        values: Sequence[Any],
    ) -> InteractionHandle:
        """Choose ``values`` in a select menu (``custom_id`` None: the message's only select)."""
        return await self._emu.interactions.select(self, message, custom_id, list(values))

    async def submit_modal(
        self, opened_by: InteractionHandle, values: Mapping[str, str]
    ) -> InteractionHandle:
        """Fill in and submit the modal the bot opened in answer to ``opened_by``."""
        return await self._emu.interactions.submit_modal(self, opened_by, dict(values))

    async def say(self, channel: SimChannel, content: str) -> SimMessage:
        """Post a plain message as this member (the bot receives MESSAGE_CREATE)."""
        return self._emu.world.user_message(channel, self.user, content)

    @property
    def dm_channel(self) -> SimChannel:
        return self._emu.world.dm_channel(self.user)

    @property
    def dms(self) -> list[SimMessage]:
        """Everything in this user's DM channel with the bot, oldest first."""
        return self.dm_channel.history()

    @property
    def last_dm(self) -> SimMessage | None:
        history = self.dms
        return history[-1] if history else None

    def notifications(self, channel: SimChannel | None = None) -> list[SimMessage]:
        """The messages whose creation notified this member (mentions.py says which), in
        `channel` only if given, oldest first; edits never notify."""
        return self._emu.world.notifications(self.user, channel)

    def can_see(self, message: SimMessage) -> bool:
        return message.is_visible_to(self.user) and self.can_view(message.channel)

    def can_view(self, channel: SimChannel) -> bool:
        if channel.type == PRIVATE_THREAD:
            return self.user.id in channel.thread_member_ids or bool(
                self.permissions & perms.MANAGE_THREADS
            )
        return True


@dataclass(eq=False)
class SimChannel:
    """A guild text channel, a thread (public or private) or a DM with the bot."""

    id: int
    type: int
    name: str
    guild: SimGuild | None = None
    parent: SimChannel | None = None
    recipient: SimUser | None = None
    owner_id: int | None = None
    position: int = 0
    topic: str | None = None
    messages: list[SimMessage] = field(default_factory=list)
    thread_member_ids: set[int] = field(default_factory=set)
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    auto_archive_duration: int = 1440
    total_message_sent: int = 0
    created_at: dt.datetime = field(default_factory=now)
    # A thread's last activity (a message, unarchiving, a new auto_archive_duration) and
    # its archive_timestamp, on the loopback's clock (``Emulator.now()``).
    last_activity: float = 0.0
    archive_timestamp: float = 0.0
    archivals: int = 0  # how many times it was archived (by inactivity or by hand)
    # When messages of this channel older than an hour were edited (``old_message_edits``),
    # on the rate limits' clock.
    old_edits: list[float] = field(default_factory=list)
    # Permission overwrites by role or member id: (type 0 role / 1 member, allow, deny).
    # A thread has none of its own: it uses its parent's, as on Discord.
    overwrites: dict[int, tuple[int, int, int]] = field(default_factory=dict)

    def permissions_for(self, user_id: int) -> int:
        """What ``user_id`` may do here: the guild's permissions with this channel's (or,
        for a thread, its parent's) overwrites applied in Discord's order, then the implicit
        denials (no View Channel: nothing; no Send Messages in a text channel: no files,
        embeds or mentions of everyone). DMs: everything a DM allows."""
        if self.guild is None:
            return perms.EVERYONE_DEFAULT
        base = self.guild.permissions_of(user_id)
        if base & perms.ADMINISTRATOR:
            return perms.ALL
        source = self.parent if self.is_thread and self.parent is not None else self
        member = self.guild.members.get(user_id)
        role_ids = set(member.role_ids) if member is not None else set()
        return perms.apply_overwrites(
            base,
            source.overwrites,
            everyone_id=self.guild.id,
            role_ids=role_ids,
            member_id=user_id,
            in_thread=self.is_thread,
        )

    @property
    def is_thread(self) -> bool:
        return self.type in (PUBLIC_THREAD, PRIVATE_THREAD)

    @property
    def is_dm(self) -> bool:
        return self.type == DM

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    @property
    def label(self) -> str:
        """How the chat log names it: ``#general``, ``#general › game-1``, ``DM @alice``."""
        if self.recipient is not None:
            return f"DM @{self.recipient.name}"
        if self.parent is not None:
            return f"#{self.parent.name} › {self.name}"
        return f"#{self.name}"

    def history(self, viewer: SimUser | SimMember | None = None) -> list[SimMessage]:
        """Messages oldest first. With ``viewer``, only what that person sees (their own
        ephemeral replies included, other people's excluded); without, everything."""
        user = viewer.user if isinstance(viewer, SimMember) else viewer
        return [m for m in self.messages if user is None or m.is_visible_to(user)]

    def public_history(self) -> list[SimMessage]:
        """Messages everyone sees (no ephemeral replies)."""
        return [m for m in self.messages if m.visible_to is None]

    def latest(self, viewer: SimUser | SimMember | None = None) -> SimMessage | None:
        history = self.history(viewer)
        return history[-1] if history else None


@dataclass(eq=False)
class SimAttachment:
    id: int
    filename: str
    data: bytes
    content_type: str
    url: str
    description: str | None = None
    width: int | None = None
    height: int | None = None
    ephemeral: bool = False

    @property
    def size(self) -> int:
        return len(self.data)


@dataclass(eq=False)
class SimMessage:
    """A stored message, as Discord holds it (plus bookkeeping for tests)."""

    id: int
    channel: SimChannel
    author: SimUser
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    attachments: list[SimAttachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    created_at: dt.datetime = field(default_factory=now)
    edited_at: dt.datetime | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    # The interaction this message answers (original response or followup), if any.
    interaction: InteractionRecord | None = None
    # Ephemeral messages: the only user who sees them.
    visible_to: SimUser | None = None
    # The users it mentions, as its `allowed_mentions` let through (Discord's `mentions`).
    mentions: list[SimUser] = field(default_factory=list)
    # Whom its creation notified (mentions.py says who): set once, never by an edit.
    notified: list[SimUser] = field(default_factory=list)
    message_reference: JSON | None = None
    thread: SimChannel | None = None
    tts: bool = False
    nonce: str | int | None = None
    pinned: bool = False
    deleted: bool = False
    reactions: dict[str, set[int]] = field(default_factory=dict)
    # Its creation on the loopback's clock (``Emulator.now()``): its age for 30046.
    born: float = 0.0
    # Earlier versions' content, oldest first (one entry per edit).
    revisions: list[str] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred reply still showing "Bot is thinking…"."""
        return bool(self.flags & FLAG_LOADING)

    @property
    def edited(self) -> bool:
        return self.edited_at is not None

    def is_visible_to(self, user: SimUser) -> bool:
        return self.visible_to is None or self.visible_to.id == user.id

    def all_components(self) -> list[JSON]:
        return list(walk_components(self.components))

    def buttons(self) -> list[JSON]:
        return [c for c in self.all_components() if c.get("type") == BUTTON]

    def selects(self) -> list[JSON]:
        return [c for c in self.all_components() if c.get("type") in SELECT_TYPES]

    def component(self, custom_id: str) -> JSON | None:
        for component in self.all_components():
            if component.get("custom_id") == custom_id:
                return component
        return None

    def button(self, label: str) -> JSON:
        """The button whose label is ``label`` (raises LookupError)."""
        for button in self.buttons():
            if button.get("label") == label:
                return button
        labels = [b.get("label") for b in self.buttons()]
        raise LookupError(f"no button labelled {label!r} on message {self.id}; have {labels}")

    def attachment_bytes(self) -> list[bytes]:
        return [a.data for a in self.attachments]

    def embed_text(self) -> str:
        """Titles, descriptions and fields of the embeds, for asserting on."""
        parts: list[str] = []
        for embed in self.embeds:
            for key in ("title", "description"):
                if embed.get(key):
                    parts.append(str(embed[key]))
            for fld in embed.get("fields", []):
                parts.append(f"{fld.get('name')}: {fld.get('value')}")
            footer = embed.get("footer") or {}
            if footer.get("text"):
                parts.append(str(footer["text"]))
        return "\n".join(parts)


@dataclass(eq=False)
class RegisteredCommand:
    """An application command as the bot registered it (``PUT .../commands``)."""

    id: int
    application_id: int
    guild_id: int | None
    payload: JSON
    version: int

    @property
    def name(self) -> str:
        return str(self.payload["name"])

    @property
    def type(self) -> int:
        return int(self.payload.get("type", 1))

    @property
    def default_member_permissions(self) -> int | None:
        value = self.payload.get("default_member_permissions")
        return None if value is None else int(value)

    def to_payload(self) -> JSON:
        body = dict(self.payload)
        body.update(
            id=str(self.id),
            application_id=str(self.application_id),
            version=str(self.version),
        )
        if self.guild_id is not None:
            body["guild_id"] = str(self.guild_id)
        if body.get("default_member_permissions") is not None:
            body["default_member_permissions"] = str(body["default_member_permissions"])
        body.setdefault("default_member_permissions", None)
        if body.get("integration_types") is None:
            body["integration_types"] = [0]  # GUILD_INSTALL, Discord's default
        return body
