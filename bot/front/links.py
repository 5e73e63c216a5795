"""Discord's links to a channel, a thread or a message, which open from anywhere (a DM
included), unlike a `<#id>` mention, which opens only inside its server."""

from __future__ import annotations

JUMP = "https://discord.com/channels"


def jump_link(guild_id: int, channel_id: int, message_id: int | None = None) -> str:
    """Discord's link to a channel or thread (or to one message in it), which opens it from
    anywhere, a DM included."""
    tail = f"/{message_id}" if message_id else ""
    return f"{JUMP}/{guild_id}/{channel_id}{tail}"
