"""The bot's permissions are those its invite asks for (behaviour ``invite_permissions``).

An invite with ``scope=bot&permissions=N`` gives the bot a managed role holding exactly N
(topics/oauth2, "Bot Authorization Flow"); with @everyone's, that is all it may do. The
docs/running.md's line ``Invite permissions: ...`` is that N: the loopback's bot role must hold
exactly those bits, so the two cannot drift. What Discord gates on Manage Threads, Manage
Messages or Manage Channels is then refused to the bot, 403 50013 "Missing Permissions":
deleting a thread (topics/threads, "Editing & Deleting Threads"), another user's message or
reaction, locking a thread; what a thread's creator may do (rename, archive) it still may.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest

from discord_loopback import Emulator, SimChannel
from discord_loopback import permissions as perms

INVITE_DOC = Path(__file__).resolve().parents[2] / "docs" / "running.md"  # the invite section


def invite_names(text: str) -> list[str]:
    """The permission names of docs/running.md's one ``Invite permissions:`` line, as Discord's
    client spells them ("Send Messages, Attach Files and Embed Links." reads too)."""
    lines = re.findall(r"^\W*Invite permissions\W*:\s*(.+)$", text, re.MULTILINE | re.IGNORECASE)
    assert len(lines) == 1, "docs/running.md must have one line 'Invite permissions: ...'"
    listed = re.sub(r"[`*_]", "", lines[0]).strip().rstrip(".")
    return [n.strip() for n in re.split(r",|\band\b", listed) if n.strip()]


def invite_bits(names: list[str]) -> int:
    """The bits of Discord's permission names, through discord.py's flags (its own table,
    not the loopback's): "Send Messages in Threads" is ``send_messages_in_threads``."""
    bits = 0
    for name in names:
        flag = name.lower().replace(" ", "_")
        assert flag in discord.Permissions.VALID_FLAGS, f"no Discord permission {name!r}"
        bits |= discord.Permissions(**{flag: True}).value
    return bits


def test_the_readme_invite_is_parsed_whatever_its_punctuation() -> None:
    assert invite_names("Invite permissions: Send Messages, Attach Files and Embed Links.") == [
        "Send Messages",
        "Attach Files",
        "Embed Links",
    ]
    assert invite_names("* **Invite permissions**: `Send Messages in Threads`") == [
        "Send Messages in Threads"
    ]


def test_the_bot_role_is_exactly_the_readme_invite() -> None:
    names = invite_names(INVITE_DOC.read_text())
    assert invite_bits(names) == perms.BOT_DEFAULT
    assert {perms.NAMES[bit] for bit in perms.INVITE.values()} == {
        n.upper().replace(" ", "_") for n in names
    }


async def test_the_loopbacks_bot_holds_the_invite_and_everyone_only() -> None:
    async with Emulator() as emu:
        guild = emu.create_guild("Server", channels=("games",))
        role = guild.roles[guild.members[emu.bot.id].role_ids[0]]
        assert role.managed and role.permissions == invite_bits(
            invite_names(INVITE_DOC.read_text())
        )
        have = guild.channel("games").permissions_for(emu.bot.id)
        assert have == perms.EVERYONE_DEFAULT | perms.BOT_DEFAULT
        assert not have & (perms.MANAGE_THREADS | perms.MANAGE_MESSAGES | perms.MANAGE_CHANNELS)


class Bare(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.1)


@contextlib.asynccontextmanager
async def bot_http(emu: Emulator) -> AsyncIterator[discord.http.HTTPClient]:
    """The bot's REST client, logged in to the loopback (no gateway needed)."""
    client = Bare()
    await client.login(emu.token)
    try:
        yield client.http
    finally:
        await client.close()


def _text(content: str) -> discord.http.MultipartParameters:
    return discord.http.handle_message_parameters(content=content)


async def refused(request: object) -> discord.HTTPException:
    with pytest.raises(discord.Forbidden) as caught:
        await request  # type: ignore[misc]
    assert (caught.value.status, caught.value.code) == (403, 50013)
    assert caught.value.text == "Missing Permissions"
    return caught.value


async def test_what_needs_manage_threads_or_messages_is_refused_to_the_bot() -> None:
    async with Emulator() as emu, emu.point_discord():
        guild = emu.create_guild("Server", channels=("games",))
        alice = guild.add_member("alice")
        games = guild.channel("games")
        thread: SimChannel = emu.world.create_thread(games, name="Alice vs Bob", owner=emu.bot)
        theirs = emu.world.create_thread(games, name="Alice's", owner=alice.user)
        async with bot_http(emu) as http:
            await refused(http.delete_channel(thread.id))
            await refused(http.delete_channel(games.id))  # Manage Channels
            await refused(http.edit_channel(thread.id, locked=True))
            await refused(http.edit_channel(theirs.id, name="renamed"))
            await refused(http.edit_channel(theirs.id, archived=True))
            await refused(http.remove_user_from_thread(theirs.id, alice.user.id))
            said = await alice.say(games, "hello")
            await refused(http.delete_message(games.id, said.id))
            await refused(http.delete_messages(games.id, [said.id, said.id + 1]))
            await refused(http.clear_reactions(games.id, said.id))
            # Its own: a message, its thread's name and archiving (as the thread's creator).
            mine = await http.send_message(games.id, params=_text("mine"))
            await http.delete_message(games.id, int(mine["id"]))
            await http.edit_channel(thread.id, name="Alice vs Carol")
            await http.edit_channel(thread.id, archived=True)
        assert thread.id in emu.world.channels and thread.name == "Alice vs Carol"


async def test_without_the_behaviour_the_bot_is_kinder() -> None:
    async with Emulator(without={"invite_permissions"}) as emu, emu.point_discord():
        guild = emu.create_guild("Server", channels=("games",))
        games = guild.channel("games")
        thread = emu.world.create_thread(games, name="Alice vs Bob", owner=emu.bot)
        async with bot_http(emu) as http:
            await http.delete_channel(thread.id)
        assert thread.id not in emu.world.channels
