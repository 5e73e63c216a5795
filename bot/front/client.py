"""The discord.py client: resources are made in `setup_hook` and handed to the parts that
use them (like discord.py's examples/advanced_startup.py), nothing is a global."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import tasks

from bot.clock import Clock
from bot.config import Config
from bot.front.app import Front
from bot.front.commands import SchottenCommands
from bot.front.computer import Computer
from bot.front.controls import ALL_CONTROLS
from bot.front.replies import report
from bot.service import GameService

log = logging.getLogger("schotten.bot")


class SchottenBot(discord.Client):
    """The bot: one command group, persistent controls, a timer loop, the computer."""

    def __init__(
        self,
        config: Config,
        *,
        database: Path | None = None,
        clock: Clock | None = None,
        **client_options: Any,
    ) -> None:
        intents = discord.Intents.default()  # no privileged intents are needed
        super().__init__(
            intents=intents,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False),
            **client_options,
        )
        self.config = config
        self.database = database or config.database
        self.clock = clock  # None: the system clock (tests move time by hand)
        self.tree = app_commands.CommandTree(self)
        self.tree.on_error = self._on_command_error  # type: ignore[method-assign]
        self.service: GameService | None = None
        self.front: Front | None = None
        self.computer: Computer | None = None

    async def setup_hook(self) -> None:
        self.service = await GameService.open(
            self.database, defaults=self.config.defaults, clock=self.clock
        )
        self.front = Front(self, self.service)
        self.computer = Computer(self.front, workers=self.config.computer_workers)
        self.front.computer = self.computer
        self.add_dynamic_items(*ALL_CONTROLS)
        self.tree.add_command(SchottenCommands(self.front))
        if self.config.dev_guild:
            guild = discord.Object(self.config.dev_guild)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        self.timers.change_interval(seconds=self.config.timer_seconds)
        self.timers.start()
        self.computer.start()

    async def close(self) -> None:
        if self.timers.is_running():
            self.timers.cancel()
        if self.computer is not None:
            await self.computer.stop()
        await super().close()
        if self.service is not None:
            await self.service.close()
            self.service = None

    async def on_ready(self) -> None:
        log.info("ready as %s (%s servers)", self.user, len(self.guilds))

    @tasks.loop(seconds=60)
    async def timers(self) -> None:
        """Reminders, forfeits and expiries. Deadlines live in the database, so a restart
        only delays them until the loop's first run."""
        if self.front is None:
            return
        try:
            await self.front.handle_due()
        except Exception:  # keep the loop running
            log.exception("timer loop")

    @timers.before_loop
    async def _timers_wait(self) -> None:
        await self.wait_until_ready()

    async def _on_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        name = interaction.command.qualified_name if interaction.command else "?"
        await report(interaction, error, where=f"/{name}")
