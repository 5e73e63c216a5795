"""REST routes for messages, DMs, threads and reactions (the bot's own-token routes)."""

from __future__ import annotations

from urllib.parse import unquote

from aiohttp import web

from . import permissions as perms
from .errors import (
    ARCHIVED_THREAD,
    MISSING_PERMISSIONS,
    UNKNOWN_USER,
    ApiError,
    invalid_form,
    unknown,
)
from .http_util import emulator_of, json_response, no_content, read_body, read_json, snowflake
from .models import PRIVATE_THREAD, PUBLIC_THREAD, SimChannel, SimUser
from .payloads import channel_payload, thread_member_payload, user_payload
from .world import World, message_json


def _channel(request: web.Request) -> tuple[World, SimChannel]:
    world = emulator_of(request).world
    return world, world.channel(snowflake(request, "channel_id"))


def _send_bits(channel: SimChannel, uploads: bool) -> int:
    """What posting in ``channel`` takes: Send Messages (in a thread, Send Messages in
    Threads), and Attach Files for uploads."""
    bits = perms.SEND_MESSAGES_IN_THREADS if channel.is_thread else perms.SEND_MESSAGES
    return bits | (perms.ATTACH_FILES if uploads else 0)


def _user(world: World, raw: str) -> SimUser:
    if raw == "@me":
        return world.bot
    user = world.users.get(int(raw)) if raw.isdigit() else None
    if user is None:
        raise unknown("User", UNKNOWN_USER)
    return user


async def open_dm(request: web.Request) -> web.Response:
    world = emulator_of(request).world
    payload = await read_json(request)
    recipient = world.users.get(int(payload.get("recipient_id", 0)))
    if recipient is None:
        raise invalid_form("recipient_id", "Unknown user")
    # Opening the channel works even when the user refuses DMs; sending then fails (50007).
    return json_response(channel_payload(world.dm_channel(recipient)))


async def list_messages(request: web.Request) -> web.Response:
    _, channel = _channel(request)
    limit = max(1, min(100, int(request.query.get("limit", "50"))))
    history = channel.public_history()
    if "before" in request.query:
        before = int(request.query["before"])
        history = [m for m in history if m.id < before]
    if "after" in request.query:
        after = int(request.query["after"])
        history = [m for m in history if m.id > after][:limit]
    if "around" in request.query:
        around = int(request.query["around"])
        index = next((i for i, m in enumerate(history) if m.id >= around), len(history))
        start = max(0, index - limit // 2)
        history = history[start : start + limit]
    newest_first = list(reversed(history))[:limit]
    return json_response([message_json(m) for m in newest_first])


async def send_message(request: web.Request) -> web.Response:
    world, channel = _channel(request)
    body = await read_body(request)
    world.require(channel, world.bot, _send_bits(channel, bool(body.uploads)))
    world.check_post(channel, world.bot)
    # Discord: with `enforce_nonce`, a nonce the same author used in the past few minutes
    # returns that message instead of creating a second one (how a bot dedupes retries).
    if body.payload.get("enforce_nonce") and body.payload.get("nonce") is not None:
        earlier = world.message_with_nonce(world.bot, str(body.payload["nonce"]))
        if earlier is not None:
            return json_response(message_json(earlier))
    message = world.post(
        channel, world.bot, body, message_type=19 if body.payload.get("message_reference") else 0
    )
    return json_response(message_json(message))


async def get_message(request: web.Request) -> web.Response:
    world, channel = _channel(request)
    world.require(channel, world.bot, perms.READ_MESSAGE_HISTORY)
    return json_response(message_json(world.message(channel, snowflake(request, "message_id"))))


async def edit_message(request: web.Request) -> web.Response:
    world, channel = _channel(request)
    message = world.message(channel, snowflake(request, "message_id"))
    if message.author.id != world.bot.id:
        raise ApiError(403, 50005, "Cannot edit a message authored by another user")
    body = await read_body(request)
    world.require(channel, world.bot, perms.ATTACH_FILES if body.uploads else 0)
    world.check_edit(message, world.bot)
    world.edit(message, body)
    return json_response(message_json(message))


async def delete_message(request: web.Request) -> web.Response:
    world, channel = _channel(request)
    message = world.message(channel, snowflake(request, "message_id"))
    # Another user's message takes Manage Messages (resources/message, "Delete Message").
    if message.author.id != world.bot.id:
        world.require(channel, world.bot, perms.MANAGE_MESSAGES)
    world.delete(message)
    return no_content()


async def bulk_delete(request: web.Request) -> web.Response:
    world, channel = _channel(request)
    world.require(channel, world.bot, perms.MANAGE_MESSAGES)  # "Bulk Delete Messages"
    payload = await read_json(request)
    messages = [world.message(channel, int(i)) for i in payload.get("messages", [])]
    if not 2 <= len(messages) <= 100:
        raise invalid_form("messages", "Must be between 2 and 100 in length.")
    for message in messages:
        world.delete(message)
    return no_content()


async def typing(request: web.Request) -> web.Response:
    world, channel = _channel(request)
    world.require(channel, world.bot, _send_bits(channel, False))
    return no_content()


async def react(request: web.Request) -> web.Response:
    world, channel = _channel(request)
    message = world.message(channel, snowflake(request, "message_id"))
    emoji = unquote(request.match_info["emoji"])
    user = _user(world, request.match_info.get("user_id", "@me"))
    if user.id != world.bot.id:  # another's reaction: "Delete User Reaction"
        world.require(channel, world.bot, perms.MANAGE_MESSAGES)
    world.add_reaction(message, user, emoji, request.method == "PUT")
    return no_content()


async def clear_reactions(request: web.Request) -> web.Response:
    world, channel = _channel(request)
    message = world.message(channel, snowflake(request, "message_id"))
    world.require(channel, world.bot, perms.MANAGE_MESSAGES)  # "Delete All Reactions"
    message.reactions.clear()
    return no_content()


async def thread_from_message(request: web.Request) -> web.Response:
    world, channel = _channel(request)
    starter = world.message(channel, snowflake(request, "message_id"))
    world.require(channel, world.bot, perms.CREATE_PUBLIC_THREADS)
    payload = await read_json(request)
    thread = world.create_thread(
        channel,
        name=str(payload.get("name", "")),
        owner=world.bot,
        starter=starter,
        auto_archive_duration=int(payload.get("auto_archive_duration") or 1440),
    )
    return json_response(channel_payload(thread, member_id=world.bot.id), status=201)


async def thread_without_message(request: web.Request) -> web.Response:
    world, channel = _channel(request)
    if request.query.get("use_nested_fields"):
        raise ApiError(400, 50024, "Cannot execute action on this channel type")  # forums
    payload = await read_json(request)
    kind = int(payload.get("type") or PRIVATE_THREAD)
    world.require(
        channel,
        world.bot,
        perms.CREATE_PRIVATE_THREADS if kind == PRIVATE_THREAD else perms.CREATE_PUBLIC_THREADS,
    )
    thread = world.create_thread(
        channel,
        name=str(payload.get("name", "")),
        owner=world.bot,
        thread_type=kind,
        auto_archive_duration=int(payload.get("auto_archive_duration") or 1440),
        invitable=bool(payload.get("invitable", True)),
    )
    return json_response(channel_payload(thread, member_id=world.bot.id), status=201)


async def thread_member_put(request: web.Request) -> web.Response:
    world, thread = _channel(request)
    user = _user(world, request.match_info["user_id"])
    if thread.guild is None or user.id not in thread.guild.members:
        raise unknown("Member", 10007)
    if thread.type == PRIVATE_THREAD and world.bot.id not in thread.thread_member_ids:
        raise ApiError(403, MISSING_PERMISSIONS, "Missing Permissions")
    world.require(thread, world.bot, perms.SEND_MESSAGES_IN_THREADS)
    if thread.archived and emulator_of(request).plays("archived_threads"):
        raise ApiError(400, ARCHIVED_THREAD, "Thread is archived")
    world.set_thread_member(thread, user, True)
    return no_content()


async def thread_member_delete(request: web.Request) -> web.Response:
    world, thread = _channel(request)
    user = _user(world, request.match_info["user_id"])
    # Removing another member takes Manage Threads, or being a private thread's creator
    # (resources/channel, "Remove Thread Member"); leaving takes nothing.
    mine = thread.type == PRIVATE_THREAD and thread.owner_id == world.bot.id
    if user.id != world.bot.id and not mine:
        world.require(thread, world.bot, perms.MANAGE_THREADS)
    world.set_thread_member(thread, user, False)
    return no_content()


async def thread_member_get(request: web.Request) -> web.Response:
    world, thread = _channel(request)
    user = _user(world, request.match_info["user_id"])
    if user.id not in thread.thread_member_ids:
        raise unknown("Member", 10007)
    return json_response(thread_member_payload(thread, user.id))


async def thread_members(request: web.Request) -> web.Response:
    world, thread = _channel(request)
    if thread.type not in (PUBLIC_THREAD, PRIVATE_THREAD):
        raise ApiError(400, 50024, "Cannot execute action on this channel type")
    body = []
    for user_id in sorted(thread.thread_member_ids):
        entry = thread_member_payload(thread, user_id)
        user = world.users.get(user_id)
        if request.query.get("with_member") in ("1", "true") and user is not None:
            entry["member"] = {"user": user_payload(user), "roles": [], "flags": 0}
        body.append(entry)
    return json_response(body)


def add_routes(router: web.UrlDispatcher, api: str) -> None:
    channel = f"{api}/channels/{{channel_id}}"
    message = f"{channel}/messages/{{message_id}}"
    router.add_post(f"{api}/users/@me/channels", open_dm)
    router.add_get(f"{channel}/messages", list_messages)
    router.add_post(f"{channel}/messages", send_message)
    router.add_post(f"{channel}/messages/bulk-delete", bulk_delete)
    router.add_get(message, get_message)
    router.add_patch(message, edit_message)
    router.add_delete(message, delete_message)
    router.add_post(f"{channel}/typing", typing)
    router.add_put(f"{message}/reactions/{{emoji}}/@me", react)
    router.add_delete(f"{message}/reactions/{{emoji}}/{{user_id}}", react)
    router.add_delete(f"{message}/reactions", clear_reactions)
    router.add_post(f"{message}/threads", thread_from_message)
    router.add_post(f"{channel}/threads", thread_without_message)
    router.add_get(f"{channel}/thread-members", thread_members)
    router.add_put(f"{channel}/thread-members/{{user_id}}", thread_member_put)
    router.add_delete(f"{channel}/thread-members/{{user_id}}", thread_member_delete)
    router.add_get(f"{channel}/thread-members/{{user_id}}", thread_member_get)
