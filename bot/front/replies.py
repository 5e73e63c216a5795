"""The one error path, and small helpers for answering interactions.

Refusals (the engine's GameError, the service's ServiceError) become a private message to
the person who caused them, word for word. Anything else is a bug: it is logged with its
context and the person gets a short apology. Never a traceback in chat.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot import metrics
from bot.errors import Refused, ServiceError
from bot.records import Member
from engine.errors import GameError
from lang import N_, _, message_of
from lang import say as phrase

log = logging.getLogger("schotten.bot")
MISSING: Any = discord.utils.MISSING
# Who a message may notify: nobody, or the members it mentions.
QUIET = discord.AllowedMentions(everyone=False, roles=False, users=False)
PING = discord.AllowedMentions(everyone=False, roles=False, users=True)

# Marks (in `Interaction.extras`) a request acknowledged with "thinking…" for the channel.
THINKING_IN_PUBLIC = "schotten:thinking-in-public"
# What an autocomplete may spend looking things up: it cannot be deferred, and Discord drops
# an answer later than 3 s after the member typed (suggesting nothing is better).
SUGGESTION_SECONDS = 1.5
SORRY = N_("Sorry, something went wrong on my side. Nothing was changed; please try again.")


async def acknowledge(interaction: discord.Interaction, *, private: bool = False) -> None:
    """Acknowledge at once, with "thinking…" (for the channel, or `private`ly), before any
    work that can wait (the database, a picture, a busy machine): Discord drops an
    interaction not acknowledged within 3 s. The answer then fills the "thinking…"
    message (`followup.send`, `edit_original_response`); a refusal still goes privately
    (see `say`). Nothing if the interaction was acknowledged already."""
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=private, thinking=True)
        interaction.extras[THINKING_IN_PUBLIC] = not private


async def say(
    interaction: discord.Interaction,
    content: str,
    *,
    ephemeral: bool = True,
    **kwargs: Any,
) -> None:
    """Answer an interaction whether or not it was already deferred or answered. A private
    answer to a request acknowledged in public ("thinking…" for the channel, not yet
    filled) takes that message away first, so that a refusal is never shown to all."""
    if not interaction.response.is_done():
        await interaction.response.send_message(content, ephemeral=ephemeral, **kwargs)
        return
    if ephemeral and interaction.extras.get(THINKING_IN_PUBLIC):
        try:
            original = await interaction.original_response()
            if original.flags.loading:  # not filled yet: nothing but "thinking…" is lost
                await interaction.delete_original_response()
            interaction.extras[THINKING_IN_PUBLIC] = False
        except discord.HTTPException as e:  # then the answer fills the public message
            log.info("could not take back a public 'thinking…': %s", e)
    await interaction.followup.send(content, ephemeral=ephemeral, **kwargs)


async def on_click(
    interaction: discord.Interaction, where: str, work: Callable[[Any], Awaitable[None]]
) -> None:
    """The one path of a persistent control's click: the member's language, the front's count
    of work under way (a clean stop waits for it), and any error told by `report`. `work`
    gets the front."""
    try:
        # The client is always our SchottenBot, which holds the front; discord.py types a Client.
        front = interaction.client.front  # type: ignore[attr-defined]
        await front.listen(interaction)  # the member's language, from here on
        async with front.working():
            await work(front)
    except Exception as error:  # the one error path
        await report(interaction, error, where=where)


async def report(interaction: discord.Interaction, error: BaseException, *, where: str) -> None:
    """Tell the user why their request was refused, or apologise for a bug, in the language
    of the request (its entry point chose it)."""
    if isinstance(error, discord.app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, GameError | ServiceError):
        metrics.REFUSALS.labels(type(error).__name__).inc()
        message = message_of(error)
    elif isinstance(error, discord.app_commands.CheckFailure):
        metrics.REFUSALS.labels(type(error).__name__).inc()
        message = message_of(error) or _("You cannot use this command here.")
    else:
        metrics.ERRORS.inc()
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


def guild_of(interaction: discord.Interaction) -> int:
    """The server a command was used in; refused in DMs."""
    if interaction.guild_id is None:
        raise Refused(phrase("Use this command in a server."))
    return interaction.guild_id


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
