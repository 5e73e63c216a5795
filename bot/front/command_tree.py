"""The command tree built without a running bot, for what reads it rather than runs it:
`schotten-bot check` (what the bot would sync) and the translators' `commands` catalog
(every name, description and choice, read from the tree itself, as `tree.sync` sends them).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import discord
from discord import app_commands

from bot.front.admin_commands import AdminCommands
from bot.front.commands import SchottenCommands
from bot.front.translator import MEANING, context_of


class _Recorder(app_commands.Translator):
    def __init__(self) -> None:
        self.seen: dict[tuple[str, str], None] = {}

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        where = context_of(context.location, string.extras.get(MEANING))
        if where is not None and string.message:
            self.seen[(where, string.message)] = None
        return None


class _Blueprint:
    """What the command classes read from the front while they are built (nothing runs)."""

    service: Any = None
    tournaments: Any = None


def command_tree(client: discord.Client) -> app_commands.CommandTree[discord.Client]:
    """The bot's command tree, its callbacks never to be called."""
    tree: app_commands.CommandTree[discord.Client] = app_commands.CommandTree(client)
    # A stand-in front: building the commands reads only these two attributes.
    tree.add_command(SchottenCommands(_Blueprint()))  # type: ignore[arg-type]
    tree.add_command(AdminCommands(_Blueprint()))  # type: ignore[arg-type]
    return tree


async def _record() -> list[tuple[str, str]]:
    client = discord.Client(intents=discord.Intents.none())
    tree = command_tree(client)
    recorder = _Recorder()
    for command in tree.get_commands():
        # Only English-variant-free locales are asked; one locale is enough to see them all.
        await command.get_translated_payload(tree, recorder)
    await client.close()
    return list(recorder.seen)


def command_strings() -> Iterator[tuple[str, str]]:
    """(context, message) for every string of the command tree, in the tree's order."""
    yield from asyncio.run(_record())
