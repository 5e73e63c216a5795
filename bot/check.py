"""`schotten-bot check`: what an admin wants to know before (or while) the bot serves real
servers, read over REST with the bot's token, no gateway session: the application and bot
user, whether Discord's global commands are those of this code, and for each server the
permissions the bot lacks there for a game. Without a token or a network: one line."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import aiohttp
import discord

from bot.config import Config, ConfigError
from bot.front.command_tree import command_tree
from bot.front.translator import CommandTranslator

# What a game needs of the bot in a server (a channel's overwrites may still take it away).
NEEDED = (
    ("view_channel", "View Channels"),
    ("send_messages", "Send Messages"),
    ("send_messages_in_threads", "Send Messages in Threads"),
    ("create_public_threads", "Create Public Threads"),
    ("attach_files", "Attach Files"),
    ("embed_links", "Embed Links"),
)
# What the comparison of commands looks at: what the code says, not what Discord adds.
COMMAND_KEYS = (
    "name",
    "type",
    "description",
    "name_localizations",
    "description_localizations",
    "default_member_permissions",
    "nsfw",
)
OPTION_KEYS = (
    "name",
    "type",
    "description",
    "name_localizations",
    "description_localizations",
    "required",
    "autocomplete",
    "min_value",
    "max_value",
    "min_length",
    "max_length",
    "channel_types",
)
DEFAULTS: dict[str, Any] = {"required": False, "autocomplete": False, "nsfw": False}


async def command_payloads(client: discord.Client) -> list[dict[str, Any]]:
    """The commands as the bot syncs them (translated), without starting the bot."""
    tree = command_tree(client)
    translator = CommandTranslator()
    await tree.set_translator(translator)
    return [await c.get_translated_payload(tree, translator) for c in tree.get_commands()]


def _shape(item: dict[str, Any], keys: Iterable[str]) -> dict[str, Any]:
    """The fields that matter, with Discord's empty values and defaults made alike."""
    shape: dict[str, Any] = {}
    for key in keys:
        value = item.get(key)
        if value in (None, {}, []) or value == DEFAULTS.get(key):
            continue
        shape[key] = str(value) if key == "default_member_permissions" else value
    choices = item.get("choices") or []
    if choices:
        shape["choices"] = [
            {k: c[k] for k in ("name", "value", "name_localizations") if c.get(k)} for c in choices
        ]
    options = item.get("options") or []
    if options:
        shape["options"] = [_shape(o, OPTION_KEYS) for o in options]
    return shape


def differences(expected: list[dict[str, Any]], registered: list[dict[str, Any]]) -> list[str]:
    """How Discord's commands differ from the code's: one phrase per command."""
    ours = {c["name"]: _shape(c, COMMAND_KEYS) for c in expected}
    theirs = {c["name"]: _shape(c, COMMAND_KEYS) for c in registered}
    found = [f"/{n} is not registered" for n in sorted(ours.keys() - theirs.keys())]
    found += [
        f"/{n} is registered but no longer in the code" for n in sorted(theirs.keys() - ours.keys())
    ]
    found += [f"/{n} differs" for n in sorted(ours.keys() & theirs.keys()) if ours[n] != theirs[n]]
    return found


def lacking(permissions: int) -> list[str]:
    """What a game needs that these permissions do not give."""
    have = discord.Permissions(permissions)
    if have.administrator:
        return []
    return [name for flag, name in NEEDED if not getattr(have, flag)]


async def run_check(config: Config, write: Callable[[str], object] = print) -> int:
    """Print the report; 0 if all is well, 1 if something needs an admin, 2 if the check
    could not run (no token, no network, token refused)."""
    try:
        token = config.require_token()
    except ConfigError as e:
        write(str(e))
        return 2
    client = discord.Client(intents=discord.Intents.none())
    try:
        try:
            await client.login(token)
        except discord.LoginFailure:
            write("Discord rejected the bot token: copy it again from the application's Bot page.")
            return 2
        except (TimeoutError, aiohttp.ClientError, OSError) as e:
            write(f"Cannot reach Discord ({type(e).__name__}: {e}); check the network.")
            return 2
        return await _report(client, config, write)
    finally:
        await client.close()


async def _report(client: discord.Client, config: Config, write: Callable[[str], object]) -> int:
    problems = 0
    app = await client.application_info()
    user = client.user
    write(f"Application: {app.name} (id {app.id})")
    write(f"Bot user: {user} (id {user.id if user else '?'})")
    expected = await command_payloads(client)
    scopes: list[tuple[str, int | None]] = [("Global commands", None)]
    if config.dev_guild:
        scopes.append((f"Commands of the development server {config.dev_guild}", config.dev_guild))
    for label, guild_id in scopes:
        if guild_id is None:
            registered = await client.http.get_global_commands(app.id)
        else:
            registered = await client.http.get_guild_commands(app.id, guild_id)
        # discord.py types the commands as its TypedDicts; `differences` reads them as plain dicts.
        found = differences(expected, list(registered))  # type: ignore[arg-type]
        if found:
            problems += 1
            write(
                f"{label}: not in sync with this code ({'; '.join(found)});"
                " the bot syncs them when its shard 0 starts"
            )
        else:
            names = ", ".join(f"/{c['name']}" for c in expected)
            write(f"{label}: in sync with this code ({names})")
    guilds = await _all_guilds(client)
    write(f"Servers: {len(guilds)}")
    for guild in guilds:
        missing = lacking(int(guild.get("permissions") or 0))
        name = f"{guild.get('name')} (id {guild.get('id')})"
        if missing:
            problems += 1
            write(f"  {name}: lacks {', '.join(missing)}")
        else:
            write(f"  {name}: has every permission a game needs")
    return 1 if problems else 0


async def _all_guilds(client: discord.Client) -> list[dict[str, Any]]:
    """Every server the bot is in, 200 at a time."""
    guilds: list[dict[str, Any]] = []
    after: int | None = None
    while True:
        page = await client.http.get_guilds(200, after=after)  # a snowflake: the id itself
        # discord.py types a page as its TypedDicts; plain dicts here (read with .get).
        guilds += page  # type: ignore[arg-type]
        if len(page) < 200:
            return guilds
        after = int(page[-1]["id"])
