"""The emulated Discord's state and every change to it.

Each change does what Discord would do next: dispatch the gateway events the bot is entitled
to (MESSAGE_CREATE, THREAD_CREATE, ...), emit a chat event for printing, and wake waiters.
REST handlers and the simulation both mutate the world only through these methods.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from . import limits, mentions
from . import permissions as perms
from .commands import CommandRegistry
from .errors import (
    ARCHIVED_THREAD,
    CANNOT_DM,
    CANNOT_SEND_EMPTY,
    MAX_ACTIVE_THREADS_REACHED,
    MISSING_ACCESS,
    MISSING_PERMISSIONS,
    OLD_MESSAGE_EDITS,
    THREAD_ALREADY_CREATED,
    THREAD_LOCKED,
    UNKNOWN_CHANNEL,
    UNKNOWN_MESSAGE,
    ApiError,
    SimulationError,
    invalid_form,
    unknown,
)
from .events import ChatEvent
from .ids import SnowflakeGenerator, now
from .media import content_type_for, png_size
from .models import (
    DM,
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    FLAG_SUPPRESS_EMBEDS,
    GUILD_TEXT,
    JSON,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    SimAttachment,
    SimChannel,
    SimGuild,
    SimMember,
    SimMessage,
    SimRole,
    SimUser,
)
from .payloads import (
    channel_payload,
    member_payload,
    message_payload,
    role_payload,
    user_payload,
)

if TYPE_CHECKING:
    from .records import InteractionRecord
    from .server import Emulator

INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGE_REACTIONS = 1 << 10
INTENT_DM_REACTIONS = 1 << 13

# Flags a bot may set when sending; the rest are Discord's to set.
SETTABLE_FLAGS = FLAG_SUPPRESS_EMBEDS | (1 << 12) | FLAG_COMPONENTS_V2
# Discord keeps a nonce for "the past few minutes" when enforcing it.
NONCE_WINDOW = 300.0
# Discord's cap on a server's active threads (160006). topics/threads says only that guilds
# "are capped at a certain number of active threads"; Discord's Help Center gives 1,000.
MAX_ACTIVE_THREADS = 1000
# Edits of messages older than an hour are limited per channel (30046, "Maximum number of
# edits to messages older than 1 hour reached"). Discord documents the code, not the budget:
# we take the community-documented one (discord-userdoccers, resources/message "Edit
# Message": 3 edits per 6-second window per channel).
OLD_MESSAGE_AGE = 3600.0
OLD_EDITS_PER_WINDOW = 3
OLD_EDIT_WINDOW = 6.0
# The n-th guild's id has (id >> 22) % GUILD_SPREAD == n % GUILD_SPREAD, so for any shard count
# dividing 24 (1, 2, 3, 4, 6, 8, 12, 24) guild n lands on shard n % count: consecutive guilds
# sit on different shards, deterministically. Ids run at most 23 ms ahead of the clock.
GUILD_SPREAD = 24


@dataclass
class Upload:
    """A file part of a multipart request (``files[n]``)."""

    filename: str
    data: bytes


@dataclass
class MessageBody:
    """A message create/edit request: the JSON payload plus uploaded files by index."""

    payload: JSON = field(default_factory=dict)
    uploads: dict[int, Upload] = field(default_factory=dict)


class World:
    def __init__(self, emu: Emulator, *, bot_name: str) -> None:
        self._emu = emu
        self.ids = SnowflakeGenerator()
        # Modern applications' bot user shares the application's id.
        self.application_id = self.ids.next()
        self.bot = SimUser(id=self.application_id, name=bot_name, bot=True)
        self.users: dict[int, SimUser] = {self.bot.id: self.bot}
        self.guilds: dict[int, SimGuild] = {}
        self.channels: dict[int, SimChannel] = {}
        self.messages: dict[int, SimMessage] = {}
        self.nonces: dict[tuple[int, str], SimMessage] = {}  # (author, nonce) -> message
        self.dm_channels: dict[int, SimChannel] = {}
        # Every stored file by id, for the CDN route.
        self.attachments: dict[int, SimAttachment] = {}
        self.commands = CommandRegistry(
            self.ids,
            self.application_id,
            lambda: self.guilds,
            self._emu.bus.changed,
            localised_mentions=lambda: not self._emu.plays("default_command_names"),
        )
        # Active threads a server may hold (``max_active_threads``); a test may lower it.
        self.max_active_threads = MAX_ACTIVE_THREADS

    # -- people and places -------------------------------------------------------------

    def new_user(
        self,
        name: str,
        *,
        global_name: str | None = None,
        dms_open: bool = True,
        locale: str = "en-US",
    ) -> SimUser:
        user = SimUser(
            id=self.ids.next(), name=name, global_name=global_name, dms_open=dms_open, locale=locale
        )
        self.users[user.id] = user
        return user

    def create_guild(
        self,
        name: str,
        *,
        channels: Sequence[str] = ("general",),
        shard: tuple[int, int] | None = None,
        locale: str = "en-US",
    ) -> SimGuild:
        if shard is None:
            shard = (len(self.guilds) % GUILD_SPREAD, GUILD_SPREAD)
        elif not (shard[1] >= 1 and 0 <= shard[0] < shard[1]):
            raise SimulationError(f"shard {shard} is not (shard_id, shard_count)")
        guild_id = self.ids.next(shard=shard)
        owner = self.new_user(f"{name.lower().replace(' ', '-')}-owner")
        guild = SimGuild(id=guild_id, name=name, owner_id=owner.id, _emu=self._emu, locale=locale)
        # @everyone shares the guild's id.
        guild.roles[guild_id] = SimRole(guild_id, "@everyone", perms.EVERYONE_DEFAULT)
        # The role its invite made (`invite_permissions`): exactly what the invite asked for.
        invited = perms.BOT_DEFAULT if self._emu.plays("invite_permissions") else perms.BOT_KIND
        bot_role = SimRole(self.ids.next(), self.bot.name, invited, 1, managed=True)
        guild.roles[bot_role.id] = bot_role
        guild.members[self.bot.id] = SimMember(
            user=self.bot, guild=guild, _emu=self._emu, role_ids=[bot_role.id]
        )
        self.guilds[guild_id] = guild
        for channel_name in channels:
            self._add_text_channel(guild, channel_name, None)
        self._emu.gateway.dispatch_guild_create(guild)
        self._emu.bus.changed()
        return guild

    def _add_text_channel(self, guild: SimGuild, name: str, topic: str | None) -> SimChannel:
        channel = SimChannel(
            id=self.ids.next(),
            type=GUILD_TEXT,
            name=name,
            guild=guild,
            position=len(guild.text_channels),
            topic=topic,
        )
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        return channel

    def create_text_channel(
        self, guild: SimGuild, name: str, *, topic: str | None = None
    ) -> SimChannel:
        channel = self._add_text_channel(guild, name, topic)
        self._emu.gateway.dispatch(
            "CHANNEL_CREATE", channel_payload(channel), INTENT_GUILDS, guild=guild
        )
        self._emu.bus.changed()
        return channel

    def add_member(
        self,
        guild: SimGuild,
        name: str,
        *,
        global_name: str | None = None,
        manage_guild: bool = False,
        dms_open: bool = True,
        user: SimUser | None = None,
        locale: str = "en-US",
    ) -> SimMember:
        if user is None:
            user = self.new_user(name, global_name=global_name, dms_open=dms_open, locale=locale)
        member = SimMember(user=user, guild=guild, _emu=self._emu)
        guild.members[user.id] = member
        payload = member_payload(member) | {"guild_id": str(guild.id)}
        self._emu.gateway.dispatch("GUILD_MEMBER_ADD", payload, INTENT_GUILD_MEMBERS, guild=guild)
        if manage_guild:
            self.set_manage_guild(member, True)
        self._emu.bus.changed()
        return member

    def remove_member(self, member: SimMember) -> None:
        """The member leaves (or is kicked from) the server: REST no longer finds them, and
        bots with the members intent hear GUILD_MEMBER_REMOVE."""
        guild = member.guild
        guild.members.pop(member.id, None)
        payload = {"guild_id": str(guild.id), "user": user_payload(member.user)}
        self._emu.gateway.dispatch(
            "GUILD_MEMBER_REMOVE", payload, INTENT_GUILD_MEMBERS, guild=guild
        )
        self._emu.bus.changed()

    def remove_bot(self, guild: SimGuild) -> None:
        """A manager removes the bot from ``guild``: its sessions get GUILD_DELETE (no
        ``unavailable``), then nothing of the server reaches it (events, interactions: its
        members can no longer use the bot's commands) and REST about the server, its
        channels and threads answers 403 50001 Missing Access (``require_bot_in``)."""
        if not self._emu.plays("guild_delete") or guild.bot_removed:
            return
        self._emu.gateway.dispatch_guild_delete(guild)
        guild.bot_removed = True
        self._emu.bus.changed()

    def add_bot(self, guild: SimGuild) -> None:
        """The bot is invited back to ``guild``: GUILD_CREATE, and it is served there again."""
        if not guild.bot_removed:
            return
        guild.bot_removed = False
        self._emu.gateway.dispatch_guild_create(guild)
        self._emu.bus.changed()

    def require_bot_in(self, guild: SimGuild | None) -> None:
        """Refuse a request about a server the bot was removed from, as Discord does: 403
        50001 Missing Access (the server and its channels still exist, out of its reach)."""
        if guild is not None and guild.bot_removed:
            raise ApiError(403, MISSING_ACCESS, "Missing Access")

    def set_manage_guild(self, member: SimMember, value: bool) -> None:
        """Give or take the "Moderator" role (MANAGE_GUILD), creating it on first use."""
        guild = member.guild
        role = next((r for r in guild.roles.values() if r.name == "Moderator"), None)
        if role is None:
            role = SimRole(self.ids.next(), "Moderator", perms.MANAGE_GUILD, 2)
            guild.roles[role.id] = role
            body = {"guild_id": str(guild.id), "role": role_payload(role)}
            self._emu.gateway.dispatch("GUILD_ROLE_CREATE", body, INTENT_GUILDS, guild=guild)
        if value and role.id not in member.role_ids:
            member.role_ids.append(role.id)
        elif not value and role.id in member.role_ids:
            member.role_ids.remove(role.id)
        else:
            return
        payload = member_payload(member) | {"guild_id": str(guild.id)}
        self._emu.gateway.dispatch(
            "GUILD_MEMBER_UPDATE", payload, INTENT_GUILD_MEMBERS, guild=guild
        )

    def dm_channel(self, user: SimUser) -> SimChannel:
        channel = self.dm_channels.get(user.id)
        if channel is None:
            channel = SimChannel(id=self.ids.next(), type=DM, name="", recipient=user)
            self.dm_channels[user.id] = channel
            self.channels[channel.id] = channel
        return channel

    # -- lookups (raising Discord's errors) ------------------------------------------

    def channel(self, channel_id: int) -> SimChannel:
        channel = self.channels.get(channel_id)
        if channel is None:
            raise unknown("Channel", UNKNOWN_CHANNEL)
        self.require_bot_in(channel.guild)
        self.archive_if_idle(channel)  # a thread's inactivity is judged when it is reached
        return channel

    def message(self, channel: SimChannel, message_id: int) -> SimMessage:
        message = self.messages.get(message_id)
        # Ephemeral messages cannot be reached through channel routes.
        if message is None or message.channel is not channel or message.deleted:
            raise unknown("Message", UNKNOWN_MESSAGE)
        return message

    def message_with_nonce(
        self, author: SimUser, nonce: str, window: float = NONCE_WINDOW
    ) -> SimMessage | None:
        """The author's message created with this nonce within `window` seconds, if any."""
        message = self.nonces.get((author.id, nonce))
        if message is None or message.deleted:
            return None
        if (now() - message.created_at).total_seconds() > window:
            return None
        return message

    def find_message(self, message_id: int) -> SimMessage:
        message = self.messages.get(message_id)
        if message is None:
            raise LookupError(f"no message {message_id}")
        return message

    # -- messages ----------------------------------------------------------------------

    def post(
        self,
        channel: SimChannel,
        author: SimUser,
        body: MessageBody,
        *,
        interaction: InteractionRecord | None = None,
        visible_to: SimUser | None = None,
        message_type: int = 0,
        extra_flags: int = 0,
        allow_empty: bool = False,
    ) -> SimMessage:
        """Create a message (validating it as Discord would) and announce it."""
        payload = body.payload
        content = payload.get("content") or ""
        embeds = list(payload.get("embeds") or [])
        components = list(payload.get("components") or [])
        flags = (int(payload.get("flags") or 0) & SETTABLE_FLAGS) | extra_flags
        if visible_to is not None:
            flags |= FLAG_EPHEMERAL
        message_id = self.ids.next()
        attachments = self._attachments(
            channel, message_id, payload.get("attachments"), body.uploads, [], visible_to
        )
        _check_files(attachments)
        if not allow_empty:
            _check_not_empty(content, embeds, components, attachments)
        # Closed DMs block messages the bot starts, not answers to the user's own interactions.
        if channel.type == DM and author.id == self.bot.id and interaction is None:
            self._check_dm_allowed(channel)
        reference = self._reference(channel, payload.get("message_reference"))
        mentioned = self._mentions(content, payload.get("allowed_mentions"), visible_to, reference)
        message = SimMessage(
            id=message_id,
            channel=channel,
            author=author,
            content=content,
            embeds=embeds,
            components=components,
            attachments=attachments,
            flags=flags,
            type=message_type,
            interaction=interaction,
            visible_to=visible_to,
            mentions=mentioned,
            message_reference=reference,
            tts=bool(payload.get("tts")),
            nonce=payload.get("nonce"),
        )
        if interaction is not None:
            message.webhook_id = self.application_id
            message.application_id = self.application_id
        self._store(message)
        return message

    def user_message(self, channel: SimChannel, author: SimUser, content: str) -> SimMessage:
        """A member typing in a channel (Discord's client stops more than 2,000 characters)."""
        if not 1 <= len(content) <= limits.MESSAGE_CONTENT:
            raise SimulationError(
                f"a member's message has 1-{limits.MESSAGE_CONTENT} characters, not {len(content)}"
            )
        self.archive_if_idle(channel)
        try:
            self.check_post(channel, author)
        except ApiError:  # Discord's client offers no message box there
            raise SimulationError(f"{channel.label} is locked: only moderators may post") from None
        message = SimMessage(
            id=self.ids.next(),
            channel=channel,
            author=author,
            content=content,
            mentions=self._mentions(content, None, None, None),
        )
        self._store(message)
        return message

    def _store(self, message: SimMessage) -> None:
        channel = message.channel
        message.notified = mentions.notified(message, lambda user: self.can_view(user, channel))
        message.born = self._emu.now()
        channel.messages.append(message)
        self.messages[message.id] = message
        if message.nonce is not None:
            self.nonces[(message.author.id, str(message.nonce))] = message
        if channel.is_thread:
            channel.total_message_sent += 1
            channel.last_activity = message.born
            if channel.archived and not channel.locked:
                # Sending to an archived (unlocked) thread unarchives it, as on Discord.
                self._set_archived(channel, False)
        if message.visible_to is None:
            self._emu.gateway.dispatch_message("MESSAGE_CREATE", message)
        self._emu.bus.emit(ChatEvent("message", channel, message.author, message))

    def _check_dm_allowed(self, channel: SimChannel) -> None:
        recipient = channel.recipient
        assert recipient is not None
        if not recipient.dms_open or recipient.bot:
            self._emu.bus.emit(
                ChatEvent(
                    "failure",
                    channel,
                    self.bot,
                    text=f"DM to @{recipient.name} refused: "
                    "50007 Cannot send messages to this user",
                )
            )
            raise ApiError(403, CANNOT_DM, "Cannot send messages to this user")

    def edit(
        self, message: SimMessage, body: MessageBody, *, finish_loading: bool = False
    ) -> SimMessage:
        """Apply a PATCH: keys present replace, keys absent stay."""
        payload = body.payload
        content = message.content
        if "content" in payload:
            content = payload["content"] or ""
        embeds = message.embeds
        if "embeds" in payload:
            embeds = list(payload["embeds"] or [])
        components = message.components
        if "components" in payload:
            components = list(payload["components"] or [])
        flags = message.flags
        if payload.get("flags") is not None:
            settable = FLAG_SUPPRESS_EMBEDS | FLAG_COMPONENTS_V2
            flags = (flags & ~settable) | (int(payload["flags"]) & settable)
        if finish_loading:
            flags &= ~FLAG_LOADING
        attachments = message.attachments
        if "attachments" in payload or body.uploads:
            attachments = self._attachments(
                message.channel,
                message.id,
                payload.get("attachments"),
                body.uploads,
                message.attachments,
                message.visible_to,
            )
        _check_files(attachments)
        _check_not_empty(content, embeds, components, attachments)
        was_loading = message.loading
        message.revisions.append(message.content)
        message.content = content
        message.embeds = embeds
        message.components = components
        message.attachments = attachments
        message.flags = flags
        if "content" in payload or "allowed_mentions" in payload:
            # Parsed again as the edit's allowed mentions say; an edit notifies nobody.
            message.mentions = self._mentions(
                content, payload.get("allowed_mentions"), message.visible_to, None
            )
        if not self._emu.plays("edit_never_notifies"):
            # The kinder Discord a bot may wrongly expect: an edit rings whom it now mentions.
            rung = mentions.notified(message, lambda user: self.can_view(user, message.channel))
            message.notified += [u for u in rung if u not in message.notified]
        # Filling a "thinking…" reply is not an edit in Discord's eyes (no "(edited)").
        if not was_loading:
            message.edited_at = now()
        if message.visible_to is None:
            self._emu.gateway.dispatch_message("MESSAGE_UPDATE", message)
        self._emu.bus.emit(ChatEvent("edit", message.channel, message.author, message))
        return message

    def delete(self, message: SimMessage) -> None:
        if message.deleted:
            raise unknown("Message", UNKNOWN_MESSAGE)
        message.deleted = True
        channel = message.channel
        if message in channel.messages:
            channel.messages.remove(message)
        if message.visible_to is None:
            body: JSON = {"id": str(message.id), "channel_id": str(channel.id)}
            if channel.guild is not None:
                body["guild_id"] = str(channel.guild.id)
            self._emu.gateway.dispatch_channel_event("MESSAGE_DELETE", body, channel)
        self._emu.bus.emit(ChatEvent("delete", channel, message.author, message))

    def add_reaction(self, message: SimMessage, user: SimUser, emoji: str, add: bool) -> None:
        users = message.reactions.setdefault(emoji, set())
        (users.add if add else users.discard)(user.id)
        event = "MESSAGE_REACTION_ADD" if add else "MESSAGE_REACTION_REMOVE"
        body: JSON = {
            "user_id": str(user.id),
            "channel_id": str(message.channel.id),
            "message_id": str(message.id),
            "emoji": {"id": None, "name": emoji},
            "burst": False,
            "type": 0,
        }
        if message.channel.guild is not None:
            body["guild_id"] = str(message.channel.guild.id)
        intent = INTENT_DM_REACTIONS if message.channel.is_dm else INTENT_GUILD_MESSAGE_REACTIONS
        self._emu.gateway.dispatch(event, body, intent, guild=message.channel.guild)
        self._emu.bus.changed()

    def _mentions(
        self,
        content: str,
        allowed: Any,
        visible_to: SimUser | None,
        reference: JSON | None,
    ) -> list[SimUser]:
        """The users a message mentions (mentions.py): nobody in an ephemeral one."""
        replied_to = None
        if reference is not None:
            target = self.messages.get(int(reference["message_id"]))
            replied_to = target.author if target is not None else None
        found = mentions.mentioned(content, allowed, self.users, replied_to=replied_to)
        return [] if visible_to is not None else found

    def can_view(self, user: SimUser, channel: SimChannel) -> bool:
        """Whether `user` sees `channel` (a member with View Channel there; a private
        thread's members; a DM's recipient)."""
        if channel.is_dm:
            return channel.recipient == user
        guild = channel.guild
        member = guild.members.get(user.id) if guild is not None else None
        if member is None or not member.can_view(channel):
            return False
        return bool(channel.permissions_for(user.id) & perms.VIEW_CHANNEL)

    def notifications(
        self, user: SimUser | SimMember, channel: SimChannel | None = None
    ) -> list[SimMessage]:
        """The messages whose creation notified `user` (deleted ones included: a deleted
        ping still rang), oldest first; only those in `channel` if given."""
        target = user.user if isinstance(user, SimMember) else user
        return [
            m
            for m in self.messages.values()
            if target in m.notified and (channel is None or m.channel is channel)
        ]

    def _reference(self, channel: SimChannel, reference: Any) -> JSON | None:
        if not isinstance(reference, dict) or "message_id" not in reference:
            return None
        target = self.messages.get(int(reference["message_id"]))
        if target is None or target.deleted:
            if reference.get("fail_if_not_exists", True):
                raise invalid_form(
                    "message_reference", "Unknown message", "MESSAGE_REFERENCE_UNKNOWN_MESSAGE"
                )
            return None
        body: JSON = {
            "type": reference.get("type", 0),
            "message_id": str(target.id),
            "channel_id": str(target.channel.id),
        }
        if target.channel.guild is not None:
            body["guild_id"] = str(target.channel.guild.id)
        return body

    def _attachments(
        self,
        channel: SimChannel,
        message_id: int,
        spec: Any,
        uploads: dict[int, Upload],
        existing: list[SimAttachment],
        visible_to: SimUser | None,
    ) -> list[SimAttachment]:
        """Resolve the ``attachments`` array: entries naming an existing attachment id keep it,
        entries whose id is an upload index attach that file; files not listed are added."""

        def new(upload: Upload, filename: str, description: str | None) -> SimAttachment:
            return self.make_attachment(
                channel, filename, upload.data, description, ephemeral=visible_to is not None
            )

        if spec is None:
            return list(existing) + [new(u, u.filename, None) for _, u in sorted(uploads.items())]
        by_id = {str(a.id): a for a in existing}
        used: set[int] = set()
        result: list[SimAttachment] = []
        for i, item in enumerate(spec):
            key = str(item.get("id"))
            if key in by_id:
                result.append(by_id[key])
                continue
            index = int(key) if key.isdigit() else -1
            upload = uploads.get(index)
            if upload is None or index in used:
                raise invalid_form(f"attachments.{i}", "Unknown attachment or missing file")
            used.add(index)
            result.append(
                new(upload, item.get("filename") or upload.filename, item.get("description"))
            )
        result.extend(new(u, u.filename, None) for i, u in sorted(uploads.items()) if i not in used)
        return result

    def make_attachment(
        self,
        channel: SimChannel,
        filename: str,
        data: bytes,
        description: str | None = None,
        *,
        ephemeral: bool = False,
    ) -> SimAttachment:
        """Store a file and give it a URL on the emulator's CDN route."""
        # Discord replaces spaces in file names with underscores.
        clean = filename.replace(" ", "_") or "file"
        attachment_id = self.ids.next()
        size = png_size(data)
        attachment = SimAttachment(
            id=attachment_id,
            filename=clean,
            data=data,
            content_type=content_type_for(clean, data),
            url=f"{self._emu.base_url}/attachments/{channel.id}/{attachment_id}/{quote(clean)}",
            description=description,
            width=size[0] if size else None,
            height=size[1] if size else None,
            ephemeral=ephemeral,
        )
        self.attachments[attachment_id] = attachment
        return attachment

    # -- threads and channel changes -----------------------------------------------------

    def create_thread(
        self,
        parent: SimChannel,
        *,
        name: str,
        owner: SimUser,
        thread_type: int = PUBLIC_THREAD,
        starter: SimMessage | None = None,
        auto_archive_duration: int = 1440,
        invitable: bool = True,
    ) -> SimChannel:
        if parent.type != GUILD_TEXT or parent.guild is None:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        if thread_type not in (PUBLIC_THREAD, PRIVATE_THREAD):
            raise invalid_form("type", "Value must be one of {11, 12}.")
        if not 1 <= len(name) <= 100:
            raise invalid_form(
                "name", "Must be between 1 and 100 in length.", "BASE_TYPE_BAD_LENGTH"
            )
        if auto_archive_duration not in (60, 1440, 4320, 10080):
            raise invalid_form(
                "auto_archive_duration", "Value must be one of {60, 1440, 4320, 10080}."
            )
        if starter is not None:
            if starter.thread is not None:
                raise ApiError(
                    400,
                    THREAD_ALREADY_CREATED,
                    "A thread has already been created for this message",
                )
            # A thread started from a message takes the message's id.
            thread_id = starter.id
            thread_type = PUBLIC_THREAD
        else:
            thread_id = self.ids.next()
        self._check_thread_cap(parent.guild)
        thread = SimChannel(
            id=thread_id,
            type=thread_type,
            name=name,
            guild=parent.guild,
            parent=parent,
            owner_id=owner.id,
            thread_member_ids={owner.id},
            auto_archive_duration=auto_archive_duration,
            invitable=invitable,
            last_activity=self._emu.now(),
            archive_timestamp=self._emu.now(),
        )
        parent.guild.channels[thread.id] = thread
        self.channels[thread.id] = thread
        if starter is not None:
            starter.thread = thread
        body = channel_payload(thread, member_id=self.bot.id) | {"newly_created": True}
        if self.bot_sees(thread):  # no gateway news of a thread the bot may not view
            self._emu.gateway.dispatch("THREAD_CREATE", body, INTENT_GUILDS, guild=parent.guild)
        self._emu.bus.emit(ChatEvent("thread", thread, owner, starter, text=name))
        return thread

    def set_thread_member(self, thread: SimChannel, user: SimUser, present: bool) -> None:
        if not thread.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        if present:
            thread.thread_member_ids.add(user.id)
        else:
            thread.thread_member_ids.discard(user.id)
        self._emu.bus.changed()

    def update_channel(self, channel: SimChannel, changes: JSON) -> SimChannel:
        if channel.type == DM:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        if changes.get("name"):
            channel.name = str(changes["name"])
        if "topic" in changes and not channel.is_thread:
            channel.topic = changes["topic"]
        if channel.is_thread:
            self._update_thread(channel, changes)
            return channel
        self._emu.gateway.dispatch(
            "CHANNEL_UPDATE", channel_payload(channel), INTENT_GUILDS, guild=channel.guild
        )
        self._emu.bus.changed()
        return channel

    # -- threads' life: inactivity, archived, locked, private, the active cap ------------------

    def _update_thread(self, thread: SimChannel, changes: JSON) -> None:
        """A thread's PATCH (topics/threads, "Editing & Deleting Threads"): unarchiving or a
        new auto_archive_duration is activity; archiving stamps archive_timestamp."""
        now = self._emu.now()
        for key in ("locked", "invitable"):
            if changes.get(key) is not None:
                setattr(thread, key, bool(changes[key]))
        if changes.get("auto_archive_duration"):
            thread.auto_archive_duration = int(changes["auto_archive_duration"])
            thread.last_activity = thread.archive_timestamp = now
        if changes.get("archived") is not None and bool(changes["archived"]) != thread.archived:
            thread.archived = bool(changes["archived"])
            thread.archive_timestamp = now
            if thread.archived:
                thread.archivals += 1
            else:
                thread.last_activity = now
        self._thread_update(thread)

    def _thread_update(self, thread: SimChannel) -> None:
        """THREAD_UPDATE, to a bot that may view the thread."""
        if self.bot_sees(thread):
            self._emu.gateway.dispatch(
                "THREAD_UPDATE", channel_payload(thread), INTENT_GUILDS, guild=thread.guild
            )
        self._emu.bus.changed()

    def _set_archived(self, thread: SimChannel, archived: bool) -> None:
        self._update_thread(thread, {"archived": archived})

    def archive_if_idle(self, channel: SimChannel) -> None:
        """Archive a thread idle for its auto_archive_duration (``thread_archiving``),
        judged now on the loopback's clock, with the THREAD_UPDATE Discord sends."""
        if not channel.is_thread or channel.archived or not self._emu.plays("thread_archiving"):
            return
        if self._emu.now() - channel.last_activity >= channel.auto_archive_duration * 60:
            self._set_archived(channel, True)

    def archive_idle_threads(self) -> None:
        """Every thread idle long enough archives (``Emulator.advance`` calls it)."""
        for channel in list(self.channels.values()):
            self.archive_if_idle(channel)

    def archive_thread(self, thread: SimChannel) -> None:
        """A moderator archives ``thread`` (as "Close Thread" does)."""
        self._set_archived(thread, True)

    def lock_thread(self, thread: SimChannel, locked: bool = True) -> None:
        """A moderator (Manage Threads) locks or unlocks ``thread``."""
        if not thread.is_thread:
            raise SimulationError(f"{thread.label} is not a thread")
        self._update_thread(thread, {"locked": locked})

    def active_threads(self, guild: SimGuild) -> list[SimChannel]:
        """The server's threads that are not archived (idle ones archived first)."""
        for thread in guild.threads:
            self.archive_if_idle(thread)
        return [t for t in guild.threads if not t.archived]

    def _check_thread_cap(self, guild: SimGuild) -> None:
        if not self._emu.plays("max_active_threads"):
            return
        if len(self.active_threads(guild)) >= self.max_active_threads:
            raise ApiError(
                400, MAX_ACTIVE_THREADS_REACHED, "Maximum number of active threads reached"
            )

    def _manages_threads(self, thread: SimChannel, user: SimUser) -> bool:
        return bool(thread.permissions_for(user.id) & perms.MANAGE_THREADS)

    def bot_sees(self, thread: SimChannel) -> bool:
        """A private thread shows itself only to its members and to Manage Threads holders
        (``private_threads``); any other channel: yes (permissions say the rest)."""
        if thread.type != PRIVATE_THREAD or not self._emu.plays("private_threads"):
            return True
        return self.bot.id in thread.thread_member_ids or self._manages_threads(thread, self.bot)

    def check_post(self, thread: SimChannel, user: SimUser) -> None:
        """A locked thread takes messages only from Manage Threads holders (topics/threads,
        "Locked Threads")."""
        if not thread.is_thread or not thread.locked or not self._emu.plays("locked_threads"):
            return
        if not self._manages_threads(thread, user):
            raise ApiError(403, THREAD_LOCKED, "Thread is locked")

    def check_edit(self, message: SimMessage, user: SimUser) -> None:
        """An edit Discord refuses: in an archived thread (50083), in a locked one without
        Manage Threads (160005), or past the budget for messages older than an hour (30046)."""
        thread = message.channel
        if thread.is_thread and thread.archived and self._emu.plays("archived_threads"):
            raise ApiError(400, ARCHIVED_THREAD, "Thread is archived")
        self.check_post(thread, user)
        self._check_old_edit(message)

    def _check_old_edit(self, message: SimMessage) -> None:
        if not self._emu.plays("old_message_edits"):
            return
        if self._emu.now() - message.born <= OLD_MESSAGE_AGE:
            return
        # The window runs on the rate limits' clock: the client waits out the 429 in real
        # seconds, which a manual clock would never count.
        at = self._emu.limits.rate_now()
        edits = message.channel.old_edits
        edits[:] = [t for t in edits if at - t < OLD_EDIT_WINDOW]
        if len(edits) >= OLD_EDITS_PER_WINDOW:
            wait = round(edits[0] + OLD_EDIT_WINDOW - at, 3)
            raise ApiError(
                429,
                OLD_MESSAGE_EDITS,
                "Maximum number of edits to messages older than 1 hour reached. Try again later",
                retry_after=max(wait, 0.001),
            )
        edits.append(at)

    def command_place(self, channel: SimChannel) -> None:
        """Where a member may run an application command: not in an archived thread
        (topics/threads, "Active & Archived Threads"); Discord's client offers none there."""
        self.archive_if_idle(channel)
        if channel.is_thread and channel.archived and self._emu.plays("archived_threads"):
            raise SimulationError(
                f"{channel.label} is archived: Discord lets nobody use application commands"
                " in an archived thread"
            )

    def set_permissions(
        self,
        channel: SimChannel,
        target: SimRole | SimMember | SimUser,
        *,
        allow: int = 0,
        deny: int = 0,
    ) -> None:
        """A manager edits ``channel``'s overwrite for a role or a member (both 0: removes
        it). The bot hears CHANNEL_UPDATE, and from then on REST and interactions' permission
        fields follow it (threads follow their parent)."""
        if channel.guild is None or channel.is_thread:
            raise SimulationError("overwrites belong to a server's text channel")
        kind = perms.ROLE_OVERWRITE if isinstance(target, SimRole) else perms.MEMBER_OVERWRITE
        if allow or deny:
            channel.overwrites[target.id] = (kind, allow, deny)
        else:
            channel.overwrites.pop(target.id, None)
        self._emu.gateway.dispatch(
            "CHANNEL_UPDATE", channel_payload(channel), INTENT_GUILDS, guild=channel.guild
        )
        self._emu.bus.changed()

    def require(self, channel: SimChannel, user: SimUser, needed: int) -> None:
        """Refuse as Discord does when ``user`` lacks ``needed`` in ``channel``: 50001 Missing
        Access without View Channel, else 50013 Missing Permissions."""
        if channel.guild is None:
            return
        have = channel.permissions_for(user.id)
        if not have & perms.VIEW_CHANNEL or (user is self.bot and not self.bot_sees(channel)):
            raise ApiError(403, MISSING_ACCESS, "Missing Access")
        if needed & ~have:
            raise ApiError(403, MISSING_PERMISSIONS, "Missing Permissions")

    def delete_channel(self, channel: SimChannel) -> None:
        if channel.guild is None:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        channel.guild.channels.pop(channel.id, None)
        self.channels.pop(channel.id, None)
        event = "THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE"
        self._emu.gateway.dispatch(
            event, channel_payload(channel), INTENT_GUILDS, guild=channel.guild
        )
        self._emu.bus.changed()


def _check_files(attachments: Sequence[SimAttachment]) -> None:
    """The message's files, once resolved (the request's form was validated on its way in)."""
    if len(attachments) > limits.MAX_FILES:
        raise invalid_form("attachments", f"Must be {limits.MAX_FILES} or fewer in length.")
    if any(a.size > limits.MAX_FILE_SIZE for a in attachments):
        raise ApiError(413, 40005, "Request entity too large")


def _check_not_empty(
    content: str, embeds: Sequence[JSON], components: Sequence[JSON], files: Sequence[object]
) -> None:
    if not content and not embeds and not components and not files:
        raise ApiError(400, CANNOT_SEND_EMPTY, "Cannot send an empty message")


def message_json(message: SimMessage) -> JSON:
    """The payload REST returns for ``message`` (the bot always sees full content)."""
    return message_payload(message)
