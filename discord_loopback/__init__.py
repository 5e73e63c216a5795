"""A loopback Discord for end-to-end tests and the sandbox (see README.md beside this file).

A package of its own: it imports nothing of the bot, the engine or the pictures, and the
bot's runtime path (`schotten-bot run`) never imports it; only the sandbox and the tests do.

The real discord.py client (2.7) connects to it on 127.0.0.1: the emulator serves the gateway
websocket (HELLO, IDENTIFY → READY + GUILD_CREATE, heartbeats, RESUME/RECONNECT, zlib-stream),
the REST routes the bot uses (login, application info, command sync, messages with embeds,
components and files, edits, DMs, threads, interaction callbacks, followups and
``@original``) and a CDN route for attachments. No internet is involved.

Around it is a simulation: guilds, channels and human members who run slash commands
(``member.slash``), autocomplete, click buttons, pick from selects and submit modals, each
returning an ``InteractionHandle`` to wait on the bot's answers and time them. Every message
is stored with content, embeds, components, attachment bytes, who may see it (ephemeral) and
which interaction it answers. Discord's rules that matter to a bot are enforced: the 3-second
acknowledgement deadline, one callback per interaction, 50007 for members with closed DMs,
the commands a member may see (``default_member_permissions``).

What is validated, and how (``spec``, ``limits``): every request under ``/api/`` (the bot's
REST calls, interaction callbacks, followups and ``@original`` edits; not the gateway or the
CDN) is matched to its operation in Discord's OpenAPI description
(``discord_spec/openapi.json``, an unmodified copy; ``discord_spec/SOURCE.md`` says which and
how to update it), and its path and query parameters and its body (of a multipart body, the
``payload_json``) are validated against the operation's schemas with python-jsonschema (Draft
2020-12, the description in a ``referencing`` registry, one validator per schema compiled on
first use, about 1.5 ms per message). Before that, two tables adjust the loaded description:
``limits.LIMITS``, the limits discord-api-docs documents and the file leaves out (content
2,000, embed totals, 5 action rows, one select per row, unique custom ids, fully-qualified
Unicode emoji, command names, descriptions, sizes and locales, ...), each row with its value,
what it applies to and its page; and ``spec.LENIENCIES``, where Discord accepts more than the
file says, each with its reason. A violation is answered as Discord answers it, 400
``{"code": 50035, "message": "Invalid Form Body", "errors": {...}}`` with the tree following
the path of each error (in a union of components, the branch whose ``type`` matches), is
recorded in ``emu.refused_requests`` (a test asserts none) and shown as a "failure" chat
event. What the state decides (unknown channel, one callback per interaction, empty message,
file sizes) is checked by the world as before. ``Emulator(check_responses=True)`` also checks
the emulator's own JSON answers against the operation's response schema
(``emu.response_mismatches``).

Example::

    import discord
    from discord_loopback import Emulator

    async with Emulator() as emu, emu.point_discord():
        guild = emu.create_guild("Test Server")
        alice = guild.add_member("alice")
        bob = guild.add_member("bob", dms_open=False)
        client = MyBot(guild_id=guild.id)           # syncs /schotten in setup_hook
        runner = asyncio.create_task(client.start(emu.token))
        await emu.wait_for_bot(commands=["schotten"])

        handle = await alice.slash(("schotten", "challenge"), opponent=bob)
        reply = await handle.reply()                # the bot's answer (a SimMessage)
        assert "challenges" in reply.content and not reply.ephemeral
        accept = await bob.click(reply, label="Accept")
        assert (await accept.update()).content.startswith("Game on")

        await emu.assert_all_acknowledged()         # the 3-second rule held
        await client.close()
        await runner

For a sandbox, ``emu.print_chat(attachments_dir="out")`` prints lines like
``#general  Schotten Bot: ... [file: board.png 3 KB → out/…]`` as things happen, and
``emu.chat_events()`` is an async iterator of the same ``ChatEvent``s.

Sharding works as on Discord: each gateway session IDENTIFYs with ``shard: [id, count]``
(absent: ``[0, 1]``) and gets only its guilds (READY, GUILD_CREATE) and their events and
interactions, the shard being ``(guild_id >> 22) % count`` (``shard_of(guild_id, count)``,
``guild.shard_of(count)``); DM events and DM interactions go to shard 0. Several clients may
share the shards (``AutoShardedClient(shard_ids=[0, 1], shard_count=4)`` next to
``shard_ids=[2, 3]``); REST is not sharded. Example::

    emu = Emulator(recommended_shards=2)   # GET /gateway/bot → "shards": 2
    guilds = [emu.create_guild(f"G{n}") for n in range(4)]   # on shards 0, 1, 0, 1
    late = emu.create_guild("Late", shard=(1, 2))            # placed on a chosen shard
    client = MyShardedBot()                # AutoShardedClient() without shard_count: 2 shards
    await emu.wait_for_bot(shards=[0, 1])  # every shard has a live session

* Guild ids advance their timestamp part so that the n-th guild created is on shard
  ``n % count`` for any count dividing 24 (ids run at most 23 ms ahead of the clock).
* IDENTIFY with ``shard_id >= shard_count`` or ``shard_count < 1``, or with a shard count other
  than the live sessions' (all processes must agree; Discord itself would allow it), is closed
  with 4010 (discord.py raises ``ConnectionClosed``). Disconnected sessions of another shard
  count are dropped when a new count is accepted (they can no longer RESUME).
* Two live sessions on the same shard (two processes running it) both get its events, as on
  Discord, and its interactions go to the newer one; ``emu.gateway.shard_sessions(n)`` shows
  such duplicates.
* An interaction whose shard has no live session, while other shards do, waits up to
  ``command_wait`` for it and is then not delivered, as on Discord: the handle's
  ``undelivered`` says why, it counts as expired (``assert_all_acknowledged`` reports it), a
  "failure" chat event is emitted and waiting on it (``reply()``, ...) raises
  ``EmulatorTimeout`` at once. With no live session at all, ``slash``/``click`` raise
  ``EmulatorTimeout`` as before.
* ``emu.request_reconnect(shard_id=n)`` sends RECONNECT to shard ``n``'s sessions only.
* discord.py waits 5 s before every IDENTIFY but a client's first (``before_identify_hook``);
  sharded test clients should override it to return at once.

Notes:

* ``point_discord_at`` sets discord.py class attributes (``Route.BASE``,
  ``DiscordWebSocket.DEFAULT_GATEWAY``, ``Asset.BASE``): one emulator per process at a time.
* Close the bot's client before stopping the emulator, or discord.py keeps reconnecting.
* discord.py fires ``on_ready`` ``guild_ready_timeout`` (2 s by default) after the last
  GUILD_CREATE and leaves that timer task pending if the client closes sooner; tests should
  pass a small ``guild_ready_timeout`` and ``await client.wait_until_ready()``.
* Channel permission overwrites are computed as Discord does (roles, then the channel's
  overwrites, threads following their parent) and enforced on the bot's posts, edits and
  threads (``emu.world.set_permissions``); ``emu.refuse(...)`` plants a refusal (an error
  Discord could send, a 429 with its ``Retry-After``) on chosen requests.
* Rate limits are played (``ratelimits.py``; ``emu.invalid_requests``). Not emulated:
  voice, presences, forums, stickers, polls, message fetch by members, application command
  permissions v2.
"""

from __future__ import annotations

from .chat import ChatPrinter
from .errors import ApiError, EmulatorTimeout, SimulationError
from .events import ChatEvent, ChatStream
from .handles import InteractionHandle
from .ids import shard_of
from .media import png_bytes
from .models import (
    RegisteredCommand,
    SimAttachment,
    SimChannel,
    SimGuild,
    SimMember,
    SimMessage,
    SimRole,
    SimUser,
)
from .patch import DiscordPointer, point_discord_at, point_discord_at_url
from .records import InteractionRecord
from .server import Emulator

__all__ = [
    "ApiError",
    "ChatEvent",
    "ChatPrinter",
    "ChatStream",
    "DiscordPointer",
    "Emulator",
    "EmulatorTimeout",
    "InteractionHandle",
    "InteractionRecord",
    "RegisteredCommand",
    "SimAttachment",
    "SimChannel",
    "SimGuild",
    "SimMember",
    "SimMessage",
    "SimRole",
    "SimUser",
    "SimulationError",
    "png_bytes",
    "point_discord_at",
    "point_discord_at_url",
    "shard_of",
]
