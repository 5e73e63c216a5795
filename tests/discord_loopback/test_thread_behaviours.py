"""Threads and old messages as Discord plays them (behaviours.py): a thread archives after
its auto_archive_duration without activity, with THREAD_UPDATE; an archived thread refuses
edits (50083) and commands, and a post unarchives it; a locked thread takes posts only from
Manage Threads holders (160005); a private thread is hidden from a bot not in it; a server
holds a capped number of active threads (160006); edits of messages older than an hour are
limited per channel (30046). Each test fails if its behaviour is not played."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
import pytest

from discord_loopback import Emulator, SimChannel, SimGuild, SimulationError
from discord_loopback import permissions as perms
from discord_loopback.models import PRIVATE_THREAD
from discord_loopback.world import OLD_EDITS_PER_WINDOW
from tests.discord_loopback.test_emulator import Server, emulator, populate

HOUR = 3600.0


class Clock:
    """A manual time source for the loopback (seconds since the epoch)."""

    def __init__(self) -> None:
        self.t = 1_700_000_000.0

    def now(self) -> float:
        return self.t


@dataclass
class Answer:
    status: int
    body: Any
    headers: dict[str, str]


async def rest(emu: Emulator, method: str, path: str, payload: Any = None) -> Answer:
    """One request as the bot, without discord.py's retries (a 429 is seen as it is)."""
    headers = {"Authorization": f"Bot {emu.token}"}
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, emu.api_base + path, json=payload, headers=headers) as r,
    ):
        body = await r.json(content_type=None) if r.status != 204 else None
        return Answer(r.status, body, dict(r.headers))


async def post(emu: Emulator, channel: SimChannel, content: str = "hello") -> Answer:
    return await rest(emu, "POST", f"/channels/{channel.id}/messages", {"content": content})


async def new_thread(emu: Emulator, parent: SimChannel, name: str, minutes: int = 60) -> Answer:
    payload = {"name": name, "type": 11, "auto_archive_duration": minutes}
    return await rest(emu, "POST", f"/channels/{parent.id}/threads", payload)


def bot_role_without_manage_threads(guild: SimGuild) -> None:
    """The bot as docs/running.md's invite makes it: no Manage Threads (whatever the default)."""
    role = next(r for r in guild.roles.values() if r.managed)
    role.permissions &= ~perms.MANAGE_THREADS


class Watcher(discord.Client):
    """A gateway client that keeps the thread updates it hears."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.1)
        self.updates: list[dict[str, Any]] = []
        self.created: list[int] = []

    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        self.updates.append(payload.data)  # type: ignore[arg-type]

    async def on_thread_create(self, thread: discord.Thread) -> None:
        self.created.append(thread.id)


@contextlib.asynccontextmanager
async def watching(emu: Emulator) -> AsyncIterator[Watcher]:
    client = Watcher()
    task = asyncio.create_task(client.start(emu.token), name="thread-watcher")
    try:
        await emu.wait_for_bot(timeout=10)
        await asyncio.wait_for(client.wait_until_ready(), 5)
        yield client
    finally:
        await client.close()
        await asyncio.wait_for(task, 5)


@pytest.fixture
async def world() -> AsyncIterator[tuple[Server, Clock]]:
    clock = Clock()
    async with emulator(clock=clock.now) as emu:
        yield populate(emu), clock


async def test_an_idle_thread_archives_after_its_duration_with_thread_update(
    world: tuple[Server, Clock],
) -> None:
    server, clock = world
    emu = server.emu
    async with watching(emu) as client:
        made = await new_thread(emu, server.general, "game", minutes=60)
        thread = emu.world.channels[int(made.body["id"])]
        emu.advance(59 * 60)
        assert not thread.archived  # 59 minutes: still active
        await post(emu, thread)  # activity: the hour starts again
        emu.advance(59 * 60)
        assert not thread.archived
        emu.advance(61)
        assert thread.archived and thread.archivals == 1
        await emu.bus.notifier.wait_until(
            lambda: client.updates, 5, lambda: "no THREAD_UPDATE for the archived thread"
        )
        assert client.updates[-1]["thread_metadata"]["archived"] is True

        # Lazily too: the clock moves on its own, and the next request finds it archived.
        other = emu.world.channels[int((await new_thread(emu, server.general, "b")).body["id"])]
        clock.t += HOUR + 1
        fetched = await rest(emu, "GET", f"/channels/{other.id}")
        assert fetched.body["thread_metadata"]["archived"] is True
        assert other.archived


async def test_an_archived_thread_refuses_edits_and_commands_and_a_post_unarchives_it(
    world: tuple[Server, Clock],
) -> None:
    server, _ = world
    emu = server.emu
    thread = emu.world.channels[int((await new_thread(emu, server.general, "game")).body["id"])]
    sent = await post(emu, thread, "board")
    emu.world.archive_thread(thread)

    edit = await rest(
        emu, "PATCH", f"/channels/{thread.id}/messages/{sent.body['id']}", {"content": "x"}
    )
    assert (edit.status, edit.body["code"], edit.body["message"]) == (
        400,
        50083,
        "Thread is archived",
    )
    with pytest.raises(SimulationError, match="archived"):
        await server.alice.slash(("schotten", "board"), where=thread)

    again = await post(emu, thread, "a new board")
    assert again.status == 200 and not thread.archived


async def test_a_locked_thread_takes_posts_only_from_manage_threads(
    world: tuple[Server, Clock],
) -> None:
    server, _ = world
    emu = server.emu
    bot_role_without_manage_threads(server.guild)
    thread = emu.world.channels[int((await new_thread(emu, server.general, "game")).body["id"])]
    sent = await post(emu, thread, "board")
    emu.world.lock_thread(thread)

    refused = await post(emu, thread, "next board")
    assert (refused.status, refused.body["code"], refused.body["message"]) == (
        403,
        160005,
        "Thread is locked",
    )
    edit = await rest(
        emu, "PATCH", f"/channels/{thread.id}/messages/{sent.body['id']}", {"content": "x"}
    )
    assert edit.status == 403 and edit.body["code"] == 160005
    with pytest.raises(SimulationError, match="locked"):
        await server.alice.say(thread, "my move?")

    # Archived as well: a post does not unarchive a locked thread (a moderator's does not).
    emu.world.archive_thread(thread)
    moderator = server.guild.add_member("mod")
    role = next(r for r in server.guild.roles.values() if r.managed)
    role.permissions |= perms.MANAGE_THREADS  # the bot made a moderator
    assert (await post(emu, thread, "by a moderator")).status == 200
    assert thread.archived  # locked: sending does not unarchive it
    assert moderator.id not in thread.thread_member_ids


async def test_a_private_thread_is_hidden_from_a_bot_not_in_it(
    world: tuple[Server, Clock],
) -> None:
    server, _ = world
    emu = server.emu
    bot_role_without_manage_threads(server.guild)
    earlier = emu.world.create_thread(
        server.general, name="earlier", owner=server.bob.user, thread_type=PRIVATE_THREAD
    )
    async with watching(emu) as client:
        assert client.guilds[0].get_thread(earlier.id) is None  # not in GUILD_CREATE either
        secret = emu.world.create_thread(
            server.general, name="secret", owner=server.alice.user, thread_type=PRIVATE_THREAD
        )
        public = emu.world.create_thread(server.general, name="open", owner=server.alice.user)
        await emu.bus.notifier.wait_until(
            lambda: public.id in client.created, 5, lambda: "no THREAD_CREATE for the public one"
        )
        assert secret.id not in client.created  # the gateway says nothing of it

    fetched = await rest(emu, "GET", f"/channels/{secret.id}")
    assert (fetched.status, fetched.body["code"]) == (403, 50001)
    assert (await post(emu, secret)).status == 403
    active = await rest(emu, "GET", f"/guilds/{server.guild.id}/threads/active")
    assert [t["id"] for t in active.body["threads"]] == [str(public.id)]

    emu.world.set_thread_member(secret, emu.bot, True)  # Alice adds the bot
    assert (await rest(emu, "GET", f"/channels/{secret.id}")).status == 200
    assert (await post(emu, secret)).status == 200


async def test_a_server_holds_at_most_its_cap_of_active_threads(
    world: tuple[Server, Clock],
) -> None:
    server, _ = world
    emu = server.emu
    emu.world.max_active_threads = 2
    first = await new_thread(emu, server.general, "one")
    assert (await new_thread(emu, server.general, "two")).status == 201
    refused = await new_thread(emu, server.general, "three")
    assert (refused.status, refused.body["code"], refused.body["message"]) == (
        400,
        160006,
        "Maximum number of active threads reached",
    )
    emu.world.archive_thread(emu.world.channels[int(first.body["id"])])  # archived: not counted
    assert (await new_thread(emu, server.general, "three")).status == 201


async def test_edits_of_messages_older_than_an_hour_are_limited() -> None:
    # About the old messages' own budget: the route's bucket (``rate_limits``) would answer
    # 429 first to this many edits in a row.
    async with emulator(clock=Clock().now, without={"rate_limits"}) as emu:
        await old_message_edits_are_limited(populate(emu))


async def old_message_edits_are_limited(server: Server) -> None:
    emu = server.emu
    old = await post(emu, server.general, "sign-up")
    emu.advance(HOUR + 1)
    young = await post(emu, server.general, "just now")
    route = f"/channels/{server.general.id}/messages"

    for i in range(OLD_EDITS_PER_WINDOW * 3):  # a young message: no such limit
        edited = await rest(emu, "PATCH", f"{route}/{young.body['id']}", {"content": f"{i}"})
        assert edited.status == 200
    for i in range(OLD_EDITS_PER_WINDOW):
        edited = await rest(emu, "PATCH", f"{route}/{old.body['id']}", {"content": f"{i}"})
        assert edited.status == 200
    refused = await rest(emu, "PATCH", f"{route}/{old.body['id']}", {"content": "one more"})
    assert refused.status == 429
    assert refused.body["code"] == 30046
    assert refused.body["message"] == (
        "Maximum number of edits to messages older than 1 hour reached. Try again later"
    )
    assert 0 < refused.body["retry_after"] <= 6 and refused.body["global"] is False
    assert "Via" in refused.headers  # Discord's own 429: clients wait it out
