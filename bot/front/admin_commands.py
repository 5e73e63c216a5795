"""`/schotten-admin`: what only a server's managers do: its settings, its tournaments'
creation, start and cancellation, and a departed member's data.

Discord sets who may see and use a command per top-level command only, so what managers do
is a command of its own, synced with `default_member_permissions` = Manage Server: Discord
shows it to nobody else, and a server can narrow it further (to some roles or channels) in
its Integrations settings. The bot still checks Manage Server itself when it changes
anything, so a server's own override cannot hand a member more than a manager has.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.front import privacy
from bot.front.ports import CommandsFront
from bot.front.replies import acknowledge, guild_of, is_manager
from bot.front.tournaments import AdminTournamentCommands
from bot.store import Settings
from lang import _, fill, mention, ngettext, pgettext

# The command's name; lang.mentions names it in sentences (`admin_command`).
ADMIN = "schotten-admin"
LANGUAGE_CHOICES = [
    app_commands.Choice(name="English", value="en"),
    app_commands.Choice(name="Français", value="fr"),
    app_commands.Choice(name="Deutsch", value="de"),
    app_commands.Choice(name="server default", value="auto"),
]


@app_commands.default_permissions(manage_guild=True)
@app_commands.guild_only()
class AdminCommands(app_commands.Group):
    def __init__(self, front: CommandsFront) -> None:
        super().__init__(
            name=ADMIN, description="Run Schotten Totten on this server (server managers)"
        )
        self.front = front
        self.service = front.service
        self.add_command(AdminTournamentCommands(front))

    @app_commands.command(
        description="This server's settings: reminders, forfeits, threads, language..."
    )
    @app_commands.describe(
        reminder_hours="Remind a player who keeps a game waiting this many hours (1-168)",
        forfeit_hours="Forfeit on time after this many hours (12-720); 0 turns it off",
        challenge_hours="How long a challenge stays open (1-168 hours)",
        use_threads="Open a thread for each game when I am allowed to",
        public_analysis="Anyone may analyse finished games (off: only their two players)",
        language="The language of my public posts here (server default: the server's own)",
        vacation_days="Days of vacation each member may take a year (0: none)",
    )
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def settings(
        self,
        interaction: discord.Interaction,
        reminder_hours: app_commands.Range[float, 1, 168] | None = None,
        forfeit_hours: app_commands.Range[float, 0, 720] | None = None,
        challenge_hours: app_commands.Range[float, 1, 168] | None = None,
        use_threads: bool | None = None,
        public_analysis: bool | None = None,
        language: str | None = None,
        vacation_days: app_commands.Range[int, 0, 366] | None = None,
    ) -> None:
        options = {
            "reminder_hours": reminder_hours,
            "forfeit_hours": forfeit_hours,
            "challenge_hours": challenge_hours,
            "use_threads": use_threads,
            "public_analysis": public_analysis,
            "vacation_days": vacation_days,
        }
        changes: dict[str, Any] = {k: v for k, v in options.items() if v is not None}
        if language is not None:  # "auto": follow the server's Discord language
            changes["language"] = None if language == "auto" else language
        async with self.front.working():
            guild = guild_of(interaction)
            await acknowledge(interaction, private=True)
            if changes:
                manager = is_manager(interaction)
                s = await self.service.update_settings(guild, is_manager=manager, **changes)
                head = _("Settings updated.")
            else:
                s = await self.service.settings(guild)
                head = _("Settings of this server")
            lines = [head, *await settings_lines(self.front, s, guild)]
            await interaction.followup.send("\n".join(lines), ephemeral=True)

    @app_commands.command(description="What I keep about a member who left, and deleting it")
    @app_commands.describe(member="A member who has left this server")
    async def privacy(self, interaction: discord.Interaction, member: discord.User) -> None:
        async with self.front.working():
            await privacy.departed(self.front, interaction, member)


def language_name(code: str) -> str:
    """A language's name inside a sentence of the current language: "French" in English,
    "français" in French (lower case mid-sentence), "Französisch" in German. The menus keep
    each language's own name (`lang.NAMES`)."""
    names = {
        "en": pgettext("language name", "English"),
        "fr": pgettext("language name", "French"),
        "de": pgettext("language name", "German"),
    }
    return names.get(code, code)


async def settings_lines(front: CommandsFront, s: Settings, guild: int) -> list[str]:
    """A server's settings, one line each, in the current language."""
    if s.language is None:
        # TRANSLATORS: {language} is a language's name as this sentence writes it (French).
        spoken = fill(
            _("• language of my posts: the server's ({language})"),
            language=language_name(await front.server_language(guild)),
        )
    else:
        spoken = fill(_("• language of my posts: {language}"), language=language_name(s.language))
    hours = {
        "reminder": f"{s.reminder_hours:g}",
        "forfeit": f"{s.forfeit_hours:g}",
        "challenge": f"{s.challenge_hours:g}",
    }
    return [
        # A game with a clock chosen in its challenge is reminded at a third of it instead
        # (bot/game_clock.py): said here, so that the setting promises only what it does.
        fill(
            _("• turn reminder after {hours} h (games with their own clock: at a third of it)"),
            hours=hours["reminder"],
        ),
        _("• forfeit on time: off")
        if s.forfeit_hours == 0
        else fill(_("• forfeit on time: after {hours} h"), hours=hours["forfeit"]),
        fill(_("• challenges stay open {hours} h"), hours=hours["challenge"]),
        _("• a thread per game: yes") if s.use_threads else _("• a thread per game: no"),
        _("• who may analyse a finished game: anyone")
        if s.public_analysis
        else _("• who may analyse a finished game: its two players"),
        _("• vacation: none")
        if s.vacation_days == 0
        else fill(
            ngettext(
                "• vacation: up to {count} day a year per member",
                "• vacation: up to {count} days a year per member",
                s.vacation_days,
            ),
            count=s.vacation_days,
        ),
        spoken,
    ]


def managers_change_them() -> str:
    """The head of the settings a member sees: who changes them, and with which command."""
    # TRANSLATORS: {settings} is the command /schotten-admin settings (a mention in English; in
    # French and German its localised name, as code).
    return fill(
        _("Settings of this server (its managers change them with {settings})"),
        settings=mention(f"/{ADMIN} settings"),
    )
