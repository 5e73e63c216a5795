"""REST routes for login, the application, commands, guilds, channels and the CDN."""

from __future__ import annotations

from aiohttp import web

from . import permissions as perms
from .errors import (
    MISSING_ACCESS,
    UNKNOWN_GUILD,
    UNKNOWN_MEMBER,
    UNKNOWN_USER,
    ApiError,
    invalid_form,
    unknown,
)
from .http_util import emulator_of, json_response, no_content, read_json, snowflake
from .media import png_bytes
from .models import JSON, SimChannel, SimGuild, SimUser
from .payloads import (
    channel_payload,
    guild_payload,
    member_payload,
    role_payload,
    user_payload,
)
from .world import World

AVATAR_PNG = png_bytes(8, 8, (88, 101, 242))


def _guild(request: web.Request) -> SimGuild:
    guild = emulator_of(request).world.guilds.get(snowflake(request, "guild_id"))
    if guild is None:
        raise unknown("Guild", UNKNOWN_GUILD)
    emulator_of(request).world.require_bot_in(guild)
    return guild


# -- users and application -----------------------------------------------------------


async def get_me(request: web.Request) -> web.Response:
    bot = emulator_of(request).world.bot
    return json_response(
        user_payload(bot) | {"verified": True, "mfa_enabled": False, "locale": bot.locale}
    )


async def get_user(request: web.Request) -> web.Response:
    user = emulator_of(request).world.users.get(snowflake(request, "user_id"))
    if user is None:
        raise unknown("User", UNKNOWN_USER)
    return json_response(user_payload(user))


async def my_guilds(request: web.Request) -> web.Response:
    # Discord's pages: at most `limit` (default 200) guilds by id, those after `after`.
    limit = int(request.query.get("limit", "200"))
    after = int(request.query.get("after", "0"))
    every = emulator_of(request).world.guilds.values()
    guilds = sorted((g for g in every if g.id > after and not g.bot_removed), key=lambda g: g.id)
    return json_response(
        [
            {
                "id": str(g.id),
                "name": g.name,
                "icon": None,
                "owner": False,
                "permissions": str(g.permissions_of(emulator_of(request).world.bot.id)),
                "features": [],
            }
            for g in guilds[:limit]
        ]
    )


async def application_info(request: web.Request) -> web.Response:
    world = emulator_of(request).world
    owner = user_payload(SimUser(id=1, name="emulator-owner"))
    return json_response(
        {
            "id": str(world.application_id),
            "name": world.bot.name,
            "description": "A bot running against the loopback Discord emulator",
            "icon": None,
            "type": None,
            "flags_new": "0",
            "role_connections_verification_url": None,
            "approximate_guild_count": len(world.guilds),
            "approximate_user_install_count": 0,
            "approximate_user_authorization_count": 0,
            "explicit_content_filter": 0,
            "eligible_oauth2_scopes": [],
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": owner,
            "team": None,
            "verify_key": "0" * 64,
            "flags": 0,
            "summary": "",
            "bot": user_payload(world.bot),
            "interactions_endpoint_url": None,
            "redirect_uris": [],
            "tags": [],
        }
    )


async def gateway_url(request: web.Request) -> web.Response:
    return json_response({"url": emulator_of(request).gateway_url})


async def gateway_bot(request: web.Request) -> web.Response:
    return json_response(
        {
            "url": emulator_of(request).gateway_url,
            "shards": emulator_of(request).recommended_shards,
            "session_start_limit": {
                "total": 1000,
                "remaining": 1000,
                "reset_after": 0,
                "max_concurrency": 1,
            },
        }
    )


# -- application commands ------------------------------------------------------------


def _command_scope(request: web.Request) -> int | None:
    world = emulator_of(request).world
    if snowflake(request, "application_id") != world.application_id:
        raise ApiError(
            403, 20012, "You are not authorized to perform this action on this application"
        )
    if "guild_id" in request.match_info:
        world.require_bot_in(world.guilds.get(snowflake(request, "guild_id")))
        return snowflake(request, "guild_id")
    return None


async def list_commands(request: web.Request) -> web.Response:
    scope = _command_scope(request)
    table = emulator_of(request).world.commands.command_table(scope)
    return json_response([c.to_payload() for c in table.values()])


async def put_commands(request: web.Request) -> web.Response:
    scope = _command_scope(request)
    payload = await read_json(request)
    if not isinstance(payload, list):
        raise invalid_form("body", "Expected a list of commands")
    commands = emulator_of(request).world.commands.put_commands(scope, payload)
    return json_response([c.to_payload() for c in commands])


async def create_command(request: web.Request) -> web.Response:
    scope = _command_scope(request)
    command = emulator_of(request).world.commands.upsert_command(scope, await read_json(request))
    return json_response(command.to_payload(), status=201)


async def get_command(request: web.Request) -> web.Response:
    scope = _command_scope(request)
    world = emulator_of(request).world
    return json_response(
        world.commands.command_by_id(scope, snowflake(request, "command_id")).to_payload()
    )


async def edit_command(request: web.Request) -> web.Response:
    scope = _command_scope(request)
    world = emulator_of(request).world
    command = world.commands.command_by_id(scope, snowflake(request, "command_id"))
    changes = await read_json(request)
    edited = world.commands.upsert_command(scope, command.payload | changes)
    if edited.name != command.name:
        world.commands.delete_command(scope, command.id)
    return json_response(edited.to_payload())


async def delete_command(request: web.Request) -> web.Response:
    scope = _command_scope(request)
    emulator_of(request).world.commands.delete_command(scope, snowflake(request, "command_id"))
    return no_content()


# -- guilds and channels -----------------------------------------------------------------


async def get_guild(request: web.Request) -> web.Response:
    guild = _guild(request)
    body = guild_payload(guild, include_members=False, bot_id=0, for_gateway=False)
    if request.query.get("with_counts") in ("1", "true"):
        body["approximate_member_count"] = len(guild.members)
        body["approximate_presence_count"] = 0
    return json_response(body)


async def guild_channels(request: web.Request) -> web.Response:
    guild = _guild(request)
    return json_response([channel_payload(c) for c in guild.channels.values() if not c.is_thread])


async def guild_active_threads(request: web.Request) -> web.Response:
    guild = _guild(request)
    world = emulator_of(request).world
    bot_id = world.bot.id
    threads = [t for t in world.active_threads(guild) if world.bot_sees(t)]
    return json_response(
        {
            "threads": [channel_payload(t) for t in threads],
            "members": [
                {
                    "id": str(t.id),
                    "user_id": str(bot_id),
                    "join_timestamp": t.created_at.isoformat(),
                    "flags": 0,
                }
                for t in threads
                if bot_id in t.thread_member_ids
            ],
        }
    )


async def guild_member(request: web.Request) -> web.Response:
    guild = _guild(request)
    member = guild.members.get(snowflake(request, "user_id"))
    if member is None:
        raise unknown("Member", UNKNOWN_MEMBER)
    return json_response(member_payload(member))


async def guild_members(request: web.Request) -> web.Response:
    guild = _guild(request)
    limit = int(request.query.get("limit", "1"))
    after = int(request.query.get("after", "0"))
    members = sorted((m for m in guild.members.values() if m.id > after), key=lambda m: m.id)
    return json_response([member_payload(m) for m in members[:limit]])


async def guild_roles(request: web.Request) -> web.Response:
    return json_response([role_payload(r) for r in _guild(request).roles.values()])


async def get_channel(request: web.Request) -> web.Response:
    world = emulator_of(request).world
    channel = world.channel(snowflake(request, "channel_id"))
    if not world.bot_sees(channel):  # a private thread it is not in (``private_threads``)
        raise ApiError(403, MISSING_ACCESS, "Missing Access")
    return json_response(channel_payload(channel, member_id=world.bot.id))


async def edit_channel(request: web.Request) -> web.Response:
    world = emulator_of(request).world
    channel = world.channel(snowflake(request, "channel_id"))
    changes = await read_json(request)
    world.require(channel, world.bot, _edit_needs(world, channel, changes))
    world.update_channel(channel, changes)
    return json_response(channel_payload(channel, member_id=world.bot.id))


def _edit_needs(world: World, channel: SimChannel, changes: JSON) -> int:
    """A thread's edit as topics/threads says (``perms.thread_edit_needs``); any other
    channel's, Manage Channels (resources/channel, "Modify Channel")."""
    if not channel.is_thread:
        return perms.MANAGE_CHANNELS
    creator = channel.owner_id == world.bot.id
    return perms.thread_edit_needs(changes, creator=creator, locked=channel.locked)


async def delete_channel(request: web.Request) -> web.Response:
    world = emulator_of(request).world
    channel = world.channel(snowflake(request, "channel_id"))
    # Manage Channels, or Manage Threads for a thread (resources/channel, "Delete/Close Channel").
    world.require(
        channel, world.bot, perms.MANAGE_THREADS if channel.is_thread else perms.MANAGE_CHANNELS
    )
    world.delete_channel(channel)
    return json_response(channel_payload(channel))


# -- CDN ---------------------------------------------------------------------------------


async def cdn_attachment(request: web.Request) -> web.Response:
    world = emulator_of(request).world
    attachment = world.attachments.get(snowflake(request, "attachment_id"))
    if attachment is None:
        raise ApiError(404, 0, "404: Not Found")
    return web.Response(body=attachment.data, content_type=attachment.content_type)


async def cdn_avatar(request: web.Request) -> web.Response:
    # Every avatar is the same little square; enough for ``Asset.read()`` to work.
    return web.Response(body=AVATAR_PNG, content_type="image/png")


def add_routes(router: web.UrlDispatcher, api: str) -> None:
    router.add_get(f"{api}/users/@me", get_me)
    router.add_get(f"{api}/users/@me/guilds", my_guilds)
    router.add_get(f"{api}/users/{{user_id}}", get_user)
    router.add_get(f"{api}/oauth2/applications/@me", application_info)
    router.add_get(f"{api}/applications/@me", application_info)
    router.add_get(f"{api}/gateway", gateway_url)
    router.add_get(f"{api}/gateway/bot", gateway_bot)
    for scope in ("", "/guilds/{guild_id}"):
        base = f"{api}/applications/{{application_id}}{scope}/commands"
        router.add_get(base, list_commands)
        router.add_put(base, put_commands)
        router.add_post(base, create_command)
        router.add_get(f"{base}/{{command_id}}", get_command)
        router.add_patch(f"{base}/{{command_id}}", edit_command)
        router.add_delete(f"{base}/{{command_id}}", delete_command)
    router.add_get(f"{api}/guilds/{{guild_id}}", get_guild)
    router.add_get(f"{api}/guilds/{{guild_id}}/channels", guild_channels)
    router.add_get(f"{api}/guilds/{{guild_id}}/threads/active", guild_active_threads)
    router.add_get(f"{api}/guilds/{{guild_id}}/members", guild_members)
    router.add_get(f"{api}/guilds/{{guild_id}}/members/{{user_id}}", guild_member)
    router.add_get(f"{api}/guilds/{{guild_id}}/roles", guild_roles)
    router.add_get(f"{api}/channels/{{channel_id}}", get_channel)
    router.add_patch(f"{api}/channels/{{channel_id}}", edit_channel)
    router.add_delete(f"{api}/channels/{{channel_id}}", delete_channel)
    router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", cdn_attachment)
    router.add_get("/embed/avatars/{file}", cdn_avatar)
    router.add_get("/avatars/{user_id}/{file}", cdn_avatar)
