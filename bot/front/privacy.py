"""`/schotten privacy`: what the bot keeps about a member, and deleting it on request.

A member asks for themselves (everything, in every server); a server manager may do the same
in their server for a member who has left it (`/schotten-admin privacy`). The answer says
what is kept and why, and carries a button that asks once more before anything is deleted
(`PrivacyButton`, its two steps). It names its member and scope in its `custom_id`, so it
works after a restart, and only the member (or a manager of that server) may press it.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

import discord

from bot.errors import Refused
from bot.front.replies import acknowledge, is_manager, on_click
from bot.records import MemberData
from bot.service import GameService
from bot.store import valid_id
from lang import _, fill, mention, ngettext, say


class PrivacyFront(Protocol):
    service: GameService


def kept_lines(data: MemberData, *, everywhere: bool) -> list[str]:
    """What is kept, one line each, in the current language."""
    lines = []
    if data.named and everywhere:
        lines.append(_("• your Discord display name, shown in your games and the standings"))
    if data.language and everywhere:
        lines.append(_("• the language of your Discord app, for the messages I send you"))
    if data.notifications and everywhere:
        lines.append(_("• your notification choices"))
    if data.unseen and everywhere:
        lines.append(_("• your choice to see the unseen cards on your hand"))
    if data.finished:
        lines.append(
            fill(
                ngettext(
                    "• {count} finished game, with its moves",
                    "• {count} finished games, with their moves",
                    data.finished,
                ),
                count=data.finished,
            )
        )
    under_way = data.active if everywhere else data.active_here
    if under_way:
        lines.append(
            fill(
                ngettext("• {count} game under way", "• {count} games under way", under_way),
                count=under_way,
            )
        )
    if data.rated_servers:
        lines.append(
            fill(
                ngettext(
                    "• your ratings, in {count} server",
                    "• your ratings, in {count} servers",
                    data.rated_servers,
                ),
                count=data.rated_servers,
            )
        )
    if data.challenges:
        lines.append(
            fill(
                ngettext("• {count} open challenge", "• {count} open challenges", data.challenges),
                count=data.challenges,
            )
        )
    return lines or [_("• nothing at all")]


def what_deleting_does() -> str:
    return _(
        "Deleting removes your name, language and settings; your finished games keep their"
        " moves, with you shown as “deleted member”; your ratings leave the leaderboards; your"
        " open challenges are cancelled. Messages already posted in Discord stay as they are"
        " (Discord lets you delete your own). Otherwise I keep this while the bot runs, to"
        " show games, replays and standings."
    )


async def privacy(front: PrivacyFront, interaction: discord.Interaction) -> None:
    """The answer to `/schotten privacy`: what the bot keeps about the member, privately."""
    await acknowledge(interaction, private=True)
    user = interaction.user
    data = await front.service.member_data(user.id, interaction.guild_id or 0)
    head = _("**What I keep about you**")
    text = "\n".join([head, *kept_lines(data, everywhere=True), "", what_deleting_does()])
    view = _view(user.id, 0, _("Delete my data…"))
    await interaction.followup.send(text, view=view, ephemeral=True)


async def departed(
    front: PrivacyFront, interaction: discord.Interaction, member: discord.User
) -> None:
    """The answer to `/schotten-admin privacy member`: what the bot keeps in this server
    about a member who has left it, privately to the manager who asked."""
    await acknowledge(interaction, private=True)
    guild_id = interaction.guild_id or 0
    if not guild_id or not is_manager(interaction):
        raise Refused(
            say(
                "Only a server manager may ask about another member, and only for a member"
                " who has left the server. Members ask for themselves with {privacy}.",
                privacy=mention("privacy"),
            )
        )
    await _check_left(interaction, member)
    data = await front.service.member_data(member.id, guild_id)
    head = fill(
        _("**What I keep about {member} in this server** (they have left it)"),
        member=member.mention,
    )
    lines = kept_lines(data, everywhere=False)
    note = _(
        "Deleting here removes their ratings and open challenges in this server and shows"
        " them as “deleted member” in its games; what they have elsewhere is theirs to ask."
    )
    view = _view(member.id, guild_id, _("Delete their data here…"))
    await interaction.followup.send(
        "\n".join([head, *lines, "", note]),
        view=view,
        ephemeral=True,
        allowed_mentions=discord.AllowedMentions.none(),
    )


async def _check_left(interaction: discord.Interaction, member: discord.User) -> None:
    guild = interaction.guild
    if guild is None:
        return
    try:
        await guild.fetch_member(member.id)
    except discord.NotFound:
        return
    raise Refused(
        say(
            "{member} is still a member of this server: they can ask for it themselves with"
            " {privacy}.",
            member=member.display_name,
            privacy=mention("privacy"),
        )
    )


def _view(user_id: int, guild_id: int, label: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(PrivacyButton("v", user_id, guild_id, label))
    return view


def _may(interaction: discord.Interaction, user_id: int, guild_id: int) -> None:
    """Only the member deletes their own data; only a manager of that server a left one's."""
    if guild_id == 0 and interaction.user.id == user_id:
        return
    if guild_id and interaction.guild_id == guild_id and is_manager(interaction):
        return
    raise Refused(say("This button is not yours to press."))


class PrivacyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"sch:p(?P<step>[vx]):(?P<user>[0-9]+):(?P<guild>[0-9]+)",
):
    """The deletion's two clicks: `v` asks once more, `x` deletes."""

    def __init__(self, step: str, user_id: int, guild_id: int, label: str = "") -> None:
        self.step, self.user_id, self.guild_id = step, user_id, guild_id
        super().__init__(
            discord.ui.Button(
                label=label or (_("Delete my data…") if step == "v" else _("Yes, delete")),
                style=discord.ButtonStyle.danger,
                custom_id=f"sch:p{step}:{user_id}:{guild_id}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PrivacyButton:
        return cls(match["step"], int(match["user"]), int(match["guild"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def click(front: Any) -> None:
            _may(interaction, self.user_id, self.guild_id)
            if not valid_id(self.user_id):
                raise Refused(say("This button is not yours to press."))
            if self.step == "v":
                view = discord.ui.View(timeout=None)
                view.add_item(PrivacyButton("x", self.user_id, self.guild_id))
                await interaction.response.send_message(
                    _("This cannot be undone. Delete now?"), view=view, ephemeral=True
                )
                return
            await interaction.response.defer()
            await front.writes_done()
            await front.service.forget_member(self.user_id, self.guild_id)
            done = (
                _("Done: your data is deleted. Thank you for playing.")
                if self.guild_id == 0
                else _("Done: their data in this server is deleted.")
            )
            await interaction.edit_original_response(content=done, view=None)

        await on_click(interaction, self.custom_id, click)


PRIVACY_CONTROLS = (PrivacyButton,)


def understood(custom_id: str) -> bool:
    """Whether a privacy button reads this custom_id."""
    return PrivacyButton.__discord_ui_compiled_template__.fullmatch(custom_id) is not None
