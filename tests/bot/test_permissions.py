"""Permissions before a game starts: a challenge where the bot could not show the game is
refused in one sentence naming what is missing; and `schotten-bot check`, against the
emulator, reports the application, the commands and each server's missing permissions."""

import pytest

from bot.check import run_check
from bot.config import Config
from bot.sandbox import running_bot
from discord_loopback import SimulationError
from discord_loopback import permissions as perms


async def challenge(member, bob, where, **options):
    handle = await member.slash(("schotten", "challenge"), where=where, opponent=bob, **options)
    return await handle.reply(timeout=10)


async def test_a_challenge_where_the_bot_cannot_post_files_is_refused(world):
    emu, guild, alice, bob, _, db = world
    me = guild.members[emu.bot.id]
    general = guild.default_channel
    emu.world.set_permissions(general, me, deny=perms.ATTACH_FILES | perms.EMBED_LINKS)
    async with running_bot(emu, db) as bot:
        reply = await challenge(alice, bob, general)
        assert reply.ephemeral
        assert reply.content == (
            "I cannot host a game in this channel: I lack Attach Files and Embed Links here,"
            " which a member who can manage this channel's permissions (or the server's"
            " roles) can grant me."
        )
        assert await bot.service.open_challenges(general.id, alice.id) == []
        # Given back, the same challenge is made.
        emu.world.set_permissions(general, me)
        reply = await challenge(alice, bob, general)
        assert not reply.ephemeral and "challenges" in reply.content
        await emu.assert_all_acknowledged()


async def test_threads_are_needed_only_where_the_server_plays_in_threads(world):
    emu, guild, alice, bob, carol, db = world
    me = guild.members[emu.bot.id]
    general = guild.default_channel
    emu.world.set_permissions(general, me, deny=perms.CREATE_PUBLIC_THREADS)
    async with running_bot(emu, db) as bot:
        reply = await challenge(alice, bob, general)
        assert reply.ephemeral and "I lack Create Public Threads here" in reply.content
        carol.manage_guild = True
        settings = await carol.slash(
            ("schotten-admin", "settings"), where=general, use_threads=False
        )
        await settings.reply()
        reply = await challenge(alice, bob, general)
        assert not reply.ephemeral and "challenges" in reply.content
        assert await bot.service.open_challenges(general.id, alice.id)


async def test_the_refusal_speaks_the_members_language(world):
    emu, guild, _, bob, _, db = world
    amelie = guild.add_member("Amélie", locale="fr")
    me = guild.members[emu.bot.id]
    emu.world.set_permissions(guild.default_channel, me, deny=perms.SEND_MESSAGES)
    async with running_bot(emu, db):
        reply = await challenge(amelie, bob, guild.default_channel)
        assert reply.ephemeral and "Envoyer des messages" in reply.content
        assert "Joindre des fichiers" in reply.content  # lost with Send Messages, as on Discord


async def test_an_accept_where_the_bot_lost_its_rights_is_refused(world):
    emu, guild, alice, bob, _, db = world
    me = guild.members[emu.bot.id]
    general = guild.default_channel
    async with running_bot(emu, db) as bot:
        posted = await challenge(alice, bob, general)
        emu.world.set_permissions(general, me, deny=perms.ATTACH_FILES)
        reply = await (await bob.click(posted, label="Accept")).reply()
        assert reply.ephemeral and "I lack Attach Files here" in reply.content
        assert await bot.service.active_matches_of(guild.id, alice.id) == []


async def test_check_reports_the_application_commands_and_permissions(world):
    emu, guild, _, _, _, db = world
    poor = emu.create_guild("Poor Server")
    for role in poor.roles.values():  # @everyone and the bot's role
        role.permissions &= ~(perms.ATTACH_FILES | perms.EMBED_LINKS)
    config = Config(token=emu.token, database=db)
    lines: list[str] = []
    # Before the bot ever ran, Discord has none of its commands.
    assert await run_check(config, lines.append) == 1
    assert lines[0] == f"Application: Schotten Bot (id {emu.application_id})"
    assert lines[1].startswith("Bot user: Schotten Bot")
    assert lines[2].startswith("Global commands: not in sync") and "/schotten is not" in lines[2]
    assert f"  Test Server (id {guild.id}): has every permission a game needs" in lines
    assert f"  Poor Server (id {poor.id}): lacks Attach Files, Embed Links" in lines
    async with running_bot(emu, db):
        pass  # it syncs its commands
    lines.clear()
    assert await run_check(config, lines.append) == 1  # the poor server still lacks some
    assert lines[2] == "Global commands: in sync with this code (/schotten, /schotten-admin)"
    for role in poor.roles.values():
        role.permissions |= perms.ATTACH_FILES | perms.EMBED_LINKS
    lines.clear()
    assert await run_check(config, lines.append) == 0
    # A token Discord does not know: one line.
    lines.clear()
    assert await run_check(Config(token="not-the-token"), lines.append) == 2
    assert len(lines) == 1 and "rejected the bot token" in lines[0]


async def test_only_managers_see_the_admin_command(world):
    """Discord sets who may use a command per top-level command: what managers do is
    /schotten-admin, synced for Manage Server only and for servers only; the members'
    /schotten keeps no server option."""
    emu, guild, _, _, carol, db = world
    channel = guild.default_channel
    async with running_bot(emu, db) as bot:
        synced = {c.name: c.payload for c in emu.commands()}
        admin = synced["schotten-admin"]
        assert str(admin["default_member_permissions"]) == str(perms.MANAGE_GUILD)
        assert synced["schotten-admin"]["contexts"] == [0]
        assert synced["schotten"]["default_member_permissions"] is None
        members_settings = next(o for o in synced["schotten"]["options"] if o["name"] == "settings")
        assert {o["name"] for o in members_settings["options"]} == {
            "my_turn_dm",
            "my_pings",
            "my_reminders",
            "my_turn_both",
        }
        with pytest.raises(SimulationError, match="cannot see /schotten-admin"):
            await carol.slash(("schotten-admin", "settings"), where=channel, use_threads=False)
        assert (await bot.service.settings(guild.id)).use_threads
        # A member's own settings show the server's, and who changes them.
        mine = await (await carol.slash(("schotten", "settings"), where=channel)).reply()
        assert mine.ephemeral and "its managers change them with" in mine.content
        assert "a thread per game: yes" in mine.content
        carol.manage_guild = True
        done = await (
            await carol.slash(("schotten-admin", "settings"), where=channel, use_threads=False)
        ).reply()
        assert done.ephemeral and "Settings updated." in done.content
        assert "a thread per game: no" in done.content
        assert not (await bot.service.settings(guild.id)).use_threads
