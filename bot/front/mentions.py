"""The bot's commands as Discord registered them, to name them in messages as mentions
(`</schotten move:ID>`: clickable, shown with the command's default names in every client,
so used for English readers only: `lang.mentions`).

The ids are Discord's, per application: the sync returns them (`CommandTree.sync`), and a
process that does not sync asks for them (`CommandTree.fetch_commands`). They are read again
at every start, so they live in memory only. `lang.mentions` writes them into sentences.
"""

from __future__ import annotations

from collections.abc import Iterable

from discord import app_commands


class CommandMentions:
    """Each command's and subcommand's mention, by qualified name ("schotten move")."""

    def __init__(self) -> None:
        self._mentions: dict[str, str] = {}

    def learn(self, commands: Iterable[app_commands.AppCommand]) -> None:
        """Remember the mentions of `commands` (and of their subcommands and groups)."""
        for command in commands:
            self._mentions[command.name] = command.mention
            self._walk(command.options)

    def _walk(self, options: Iterable[object]) -> None:
        for option in options:
            if isinstance(option, app_commands.AppCommandGroup):
                self._mentions[option.qualified_name] = option.mention
                self._walk(option.options)

    def __call__(self, qualified_name: str) -> str | None:
        """The mention of a command, or None when its id is not known."""
        return self._mentions.get(qualified_name)

    def __len__(self) -> int:
        return len(self._mentions)
