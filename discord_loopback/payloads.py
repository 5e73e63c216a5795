"""Discord JSON for the emulator's records, in the shapes discord.py 2.7 parses.

Field sets follow what discord.py reads (``Message.__init__``, ``Guild._from_data``,
``Thread._from_data``, ``Member.__init__``, ...); keys it requires are always present.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from .ids import iso
from .models import (
    DM,
    JSON,
    SimAttachment,
    SimChannel,
    SimGuild,
    SimMember,
    SimMessage,
    SimRole,
    SimUser,
    walk_components,
)


def user_payload(user: SimUser) -> JSON:
    return {
        "id": str(user.id),
        "username": user.name,
        "discriminator": "0",
        "global_name": user.global_name,
        "avatar": None,
        "bot": user.bot,
        "public_flags": 0,
        "flags": 0,
        "primary_guild": None,
    }


def member_payload(
    member: SimMember, *, with_user: bool = True, permissions: int | None = None
) -> JSON:
    body: JSON = {
        "roles": [str(r) for r in member.role_ids],
        "nick": member.nick,
        "avatar": None,
        "joined_at": iso(member.joined_at),
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
        "communication_disabled_until": None,
    }
    if with_user:
        body["user"] = user_payload(member.user)
    if permissions is not None:
        body["permissions"] = str(permissions)
    return body


def role_payload(role: SimRole) -> JSON:
    return {
        "id": str(role.id),
        "name": role.name,
        "permissions": str(role.permissions),
        "position": role.position,
        "color": role.color,
        "colors": {"primary_color": role.color, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "managed": role.managed,
        "mentionable": False,
        "icon": None,
        "unicode_emoji": None,
        "flags": 0,
    }


def _last_message_id(channel: SimChannel) -> str | None:
    public = [m for m in channel.messages if m.visible_to is None]
    return str(public[-1].id) if public else None


def thread_member_payload(thread: SimChannel, user_id: int) -> JSON:
    return {
        "id": str(thread.id),
        "user_id": str(user_id),
        "join_timestamp": iso(thread.created_at),
        "flags": 0,
    }


def channel_payload(
    channel: SimChannel, *, permissions: int | None = None, member_id: int | None = None
) -> JSON:
    """A channel object. ``permissions`` is added for interaction/resolved payloads;
    ``member_id`` adds the thread-member object the REST API returns to a thread member."""
    if channel.type == DM:
        recipients = [user_payload(channel.recipient)] if channel.recipient else []
        return {
            "id": str(channel.id),
            "type": DM,
            "recipients": recipients,
            "last_message_id": _last_message_id(channel),
            "flags": 0,
        }
    assert channel.guild is not None
    body: JSON = {
        "id": str(channel.id),
        "type": channel.type,
        "guild_id": str(channel.guild.id),
        "name": channel.name,
        "last_message_id": _last_message_id(channel),
        "rate_limit_per_user": 0,
        "flags": 0,
        "nsfw": False,
    }
    if channel.is_thread:
        assert channel.parent is not None
        body.update(
            parent_id=str(channel.parent.id),
            owner_id=str(channel.owner_id),
            message_count=len(channel.public_history()),
            total_message_sent=channel.total_message_sent,
            member_count=min(len(channel.thread_member_ids), 50),
            thread_metadata={
                "archived": channel.archived,
                "auto_archive_duration": channel.auto_archive_duration,
                "archive_timestamp": iso(_archive_time(channel)),
                "locked": channel.locked,
                "invitable": channel.invitable,
                "create_timestamp": iso(channel.created_at),
            },
        )
        if member_id is not None and member_id in channel.thread_member_ids:
            body["member"] = thread_member_payload(channel, member_id)
    else:
        body.update(
            position=channel.position,
            parent_id=None,
            topic=channel.topic,
            permission_overwrites=[
                {"id": str(target), "type": kind, "allow": str(allow), "deny": str(deny)}
                for target, (kind, allow, deny) in channel.overwrites.items()
            ],
            default_auto_archive_duration=1440,
            default_thread_rate_limit_per_user=0,
        )
    if permissions is not None:
        body["permissions"] = str(permissions)
    return body


def attachment_payload(attachment: SimAttachment) -> JSON:
    body: JSON = {
        "id": str(attachment.id),
        "filename": attachment.filename,
        "size": attachment.size,
        "url": attachment.url,
        "proxy_url": attachment.url,
        "content_type": attachment.content_type,
        "ephemeral": attachment.ephemeral,
        "flags": 0,
    }
    if attachment.description is not None:
        body["description"] = attachment.description
    if attachment.width is not None:
        body["width"] = attachment.width
        body["height"] = attachment.height
    return body


def message_payload(message: SimMessage, *, hide_content: bool = False) -> JSON:
    """A message object. ``hide_content`` blanks what the MESSAGE_CONTENT intent guards."""
    channel = message.channel
    body: JSON = {
        "id": str(message.id),
        "channel_id": str(channel.id),
        "type": message.type,
        "author": user_payload(message.author),
        "content": "" if hide_content else message.content,
        "timestamp": iso(message.created_at),
        "edited_timestamp": iso(message.edited_at) if message.edited_at else None,
        "tts": message.tts,
        "mention_everyone": False,
        "mentions": [user_payload(u) for u in message.mentions],
        "mention_roles": [],
        "attachments": [] if hide_content else [attachment_payload(a) for a in message.attachments],
        "embeds": [] if hide_content else [dict(e) for e in message.embeds],
        "components": [] if hide_content else components_payload(message.components),
        "pinned": message.pinned,
        "flags": message.flags,
    }
    if channel.guild is not None:
        body["guild_id"] = str(channel.guild.id)
        member = channel.guild.members.get(message.author.id)
        if member is not None and message.webhook_id is None:
            body["member"] = member_payload(member, with_user=False)
    if message.webhook_id is not None:
        body["webhook_id"] = str(message.webhook_id)
    if message.application_id is not None:
        body["application_id"] = str(message.application_id)
    if message.interaction is not None:
        body.update(message.interaction.message_metadata(message))
    if message.message_reference is not None:
        body["message_reference"] = dict(message.message_reference)
    if message.thread is not None:
        body["thread"] = channel_payload(message.thread)
    if message.nonce is not None:
        body["nonce"] = message.nonce
    if message.reactions:
        body["reactions"] = [
            {
                "emoji": {"id": None, "name": emoji},
                "count": len(users),
                "count_details": {"burst": 0, "normal": len(users)},
                "me": False,
                "me_burst": False,
                "burst_colors": [],
            }
            for emoji, users in message.reactions.items()
            if users
        ]
    return body


def components_payload(components: list[JSON]) -> list[JSON]:
    """Components as Discord returns them: every one numbered (``id``, given in order to
    those sent without one, skipping the ids used), and no null fields (a Unicode emoji has
    no ``id``)."""
    used = {c.get("id") for c in walk_components(components)}
    numbers = (n for n in range(1, 10_000) if n not in used)

    def clean(value: Any) -> Any:
        if isinstance(value, list):
            return [clean(v) for v in value]
        if not isinstance(value, dict):
            return value
        body = {k: clean(v) for k, v in value.items() if v is not None}
        if "type" in body and isinstance(body["type"], int) and not body.get("id"):
            body["id"] = next(numbers)
        return body

    return [clean(c) for c in components]


def guild_payload(
    guild: SimGuild, *, include_members: bool, bot_id: int, for_gateway: bool = True
) -> JSON:
    """A guild; with ``for_gateway`` the full GUILD_CREATE form (channels, threads, members).

    Without the GUILD_MEMBERS intent Discord only includes the bot's own member, so a bot
    relying on a member cache it would not have in production fails here too.
    """
    members = [m for m in guild.members.values() if include_members or m.user.id == bot_id]
    body: JSON = {
        "id": str(guild.id),
        "name": guild.name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(guild.owner_id),
        "roles": [role_payload(r) for r in guild.roles.values()],
        "emojis": [],
        "stickers": [],
        "features": [],
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": guild.locale,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "afk_channel_id": None,
        "afk_timeout": 300,
        "vanity_url_code": None,
        "premium_progress_bar_enabled": False,
    }
    if for_gateway:
        body.update(
            unavailable=False,
            large=False,
            member_count=len(guild.members),
            joined_at=iso(guild.created_at),
            channels=[
                _without_guild_id(channel_payload(c))
                for c in guild.channels.values()
                if not c.is_thread
            ],
            threads=[
                channel_payload(c, member_id=bot_id)
                for c in guild.channels.values()
                if c.is_thread and not c.archived
            ],
            members=[member_payload(m) for m in members],
            presences=[],
            voice_states=[],
            stage_instances=[],
            guild_scheduled_events=[],
            soundboard_sounds=[],
        )
    return body


def _without_guild_id(body: JSON) -> JSON:
    # GUILD_CREATE's channels omit guild_id (it is implied); keep that shape.
    body.pop("guild_id", None)
    return body


def error_body(message: str, code: int = 0) -> dict[str, Any]:
    return {"message": message, "code": code}


def _archive_time(thread: SimChannel) -> dt.datetime:
    """When the thread was created, archived or unarchived last (on the loopback's clock)."""
    if not thread.archive_timestamp:
        return thread.created_at
    return dt.datetime.fromtimestamp(thread.archive_timestamp, tz=dt.UTC)
