"""The one error path, and small helpers for answering interactions.

Refusals (the engine's GameError, the service's ServiceError) become a private message to
the person who caused them, word for word. Anything else is a bug: it is logged with its
context and the person gets a short apology. Never a traceback in chat.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.errors import ServiceError
from bot.records import Member
from engine.errors import GameError
from lang import N_, _, message_of

log = logging.getLogger("schotten.bot")
MISSING: Any = discord.utils.MISSING
# Who a message may notify: nobody, or the members it mentions.
QUIET = discord.AllowedMentions(everyone=False, roles=False, users=False)
PING = discord.AllowedMentions(everyone=False, roles=False, users=True)

SORRY = N_("Sorry, something went wrong on my side. Nothing was changed; please try again.")


async def say(
    interaction: discord.Interaction,
    content: str,
    *,
    ephemeral: bool = True,
    **kwargs: Any,
) -> None:
    """Answer an interaction whether or not it was already deferred or answered."""
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=ephemeral, **kwargs)
    else:
        await interaction.response.send_message(content, ephemeral=ephemeral, **kwargs)


async def report(interaction: discord.Interaction, error: BaseException, *, where: str) -> None:
    """Tell the user why their request was refused, or apologise for a bug, in the language
    of the request (its entry point chose it)."""
    if isinstance(error, discord.app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, GameError | ServiceError):
        message = message_of(error)
    elif isinstance(error, discord.app_commands.CheckFailure):
        message = message_of(error) or _("You cannot use this command here.")
    else:
        log.error(
            "unexpected error in %s (user %s, guild %s, channel %s)",
            where,
            interaction.user.id if interaction.user else None,
            interaction.guild_id,
            interaction.channel_id,
            exc_info=error,
        )
        message = _(SORRY)
    try:
        await say(interaction, message)
    except discord.HTTPException:
        log.warning("could not tell user %s: %s", interaction.user.id, message)


def member_of(user: discord.abc.User) -> Member:
    """A Discord user as the service knows them."""
    return Member(user.id, user.display_name, user.bot)


def is_manager(interaction: discord.Interaction) -> bool:
    """Whether the member may manage the server (settings, tournaments)."""
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)


async def quietly(coro: Any) -> None:
    """Best effort: a message edit or thread tweak that may fail without harm."""
    try:
        await coro
    except discord.HTTPException as e:
        log.info("best-effort Discord call failed: %s", e)
