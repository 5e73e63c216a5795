"""`/schotten vacation start | end | status`, answered privately in the member's language
(the service's Vacations do the work: bot/vacations.py)."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.front.ports import CommandsFront
from bot.front.replies import acknowledge, guild_of
from bot.vacations import VacationStatus
from lang import _, fill, mention, ngettext


def days_left(status: VacationStatus) -> str:
    """How many days of vacation the member has left this year, in the current language."""
    # TRANSLATORS: {allowed} is the server's number of vacation days a year.
    text = ngettext(
        "You have {count} day of vacation left this year (this server allows {allowed} a year).",
        "You have {count} days of vacation left this year (this server allows {allowed} a year).",
        status.left,
    )
    return fill(text, count=status.left, allowed=status.allowed)


def _until(t: float) -> str:
    return f"<t:{int(t)}:f>"


class VacationCommands(app_commands.Group):
    def __init__(self, front: CommandsFront) -> None:
        super().__init__(name="vacation", description="Stop your clocks while you are away")
        self.front = front

    @app_commands.command(description="Go on vacation now: your games' clocks stop")
    @app_commands.describe(days="How many days (whole days, from your yearly allowance)")
    async def start(
        self, interaction: discord.Interaction, days: app_commands.Range[int, 1, 366]
    ) -> None:
        async with self.front.working():
            guild = guild_of(interaction)
            await acknowledge(interaction, private=True)
            status = await self.front.service.vacations.start(guild, interaction.user.id, days)
            assert status.until is not None
            # TRANSLATORS: {until} is a date Discord shows in the reader's own time zone;
            # {end} is the command /schotten vacation end (a mention in English; in French and
            # German its localised name, as code).
            head = fill(
                _(
                    "🌴 You are on vacation until {until}: the clocks of your games on this"
                    " server are stopped (not in tournaments), and your opponents see it."
                    " Back earlier? {end}"
                ),
                until=_until(status.until),
                end=mention("vacation end"),
            )
            await interaction.followup.send(f"{head}\n{days_left(status)}", ephemeral=True)

    @app_commands.command(description="End your vacation now: your clocks run again")
    async def end(self, interaction: discord.Interaction) -> None:
        async with self.front.working():
            guild = guild_of(interaction)
            await acknowledge(interaction, private=True)
            status = await self.front.service.vacations.end(guild, interaction.user.id)
            head = _("Welcome back: the clocks of your games run again from now.")
            await interaction.followup.send(f"{head}\n{days_left(status)}", ephemeral=True)

    @app_commands.command(description="Your vacation, and the days you have left this year")
    async def status(self, interaction: discord.Interaction) -> None:
        async with self.front.working():
            guild = guild_of(interaction)
            await acknowledge(interaction, private=True)
            status = await self.front.service.vacations.status(guild, interaction.user.id)
            if status.until is not None:
                head = fill(
                    _("🌴 You are on vacation until {until}; your clocks are stopped."),
                    until=_until(status.until),
                )
            elif status.allowed == 0:
                head = _("This server allows no vacation.")
            else:
                # TRANSLATORS: {start} is the command /schotten vacation start (a mention in
                # English; in French and German its localised name, as code).
                head = fill(
                    _("You are not on vacation. To stop your clocks while away: {start}"),
                    start=mention("vacation start"),
                )
            lines = [head] if status.allowed == 0 else [head, days_left(status)]
            await interaction.followup.send("\n".join(lines), ephemeral=True)
