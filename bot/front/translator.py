"""Slash commands in the member's language: discord.py's `app_commands.Translator` over our
catalogs (the `commands` domain). `tree.sync` sends every name and description's French and
German forms, and a French client shows `/schotten défier`; English stays the default, so
the commands work for every client."""

from __future__ import annotations

import logging
import re

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from lang import DEFAULT, LANGUAGES, language_of
from lang.catalogs import translations

log = logging.getLogger("schotten.bot")

# The catalogs' context of each kind of string: a name is one word, a description a sentence.
CONTEXTS = {
    Where.command_name: "command name",
    Where.group_name: "command name",
    Where.command_description: "command description",
    Where.group_description: "command description",
    Where.parameter_name: "option name",
    Where.parameter_description: "option description",
    Where.choice_name: "choice",
}
# A name that means something else in one command than in the others says so, and is
# translated in a context of its own: `locale_str("rounds", meaning="tournament")` (the
# tournament's rounds, French "rondes", not a match's "manches").
MEANING = "meaning"
NAMED = frozenset({Where.command_name, Where.group_name, Where.parameter_name})
# Discord's rule for command and option names (lowercase letters of any script, digits,
# - and _; 1 to 32 characters): a name breaking it would make the whole sync fail.
NAME = re.compile(r"^[-_\w]{1,32}$")
LIMITS = {
    Where.choice_name: 100,
    Where.command_description: 100,
    Where.group_description: 100,
    Where.parameter_description: 100,
}


def context_of(where: Where, meaning: str | None = None) -> str | None:
    """The catalogs' context of a command string: "option name", or "option name
    (tournament)" for a name with a meaning of its own there."""
    context = CONTEXTS.get(where)
    if context is not None and meaning:
        return f"{context} ({meaning})"
    return context


def translate(
    message: str, where: Where, language: str, *, meaning: str | None = None
) -> str | None:
    """`message` (a name, description or choice) in `language`, or None when Discord should
    show the English one: English itself, no translation, or one Discord would refuse."""
    context = context_of(where, meaning)
    if language == DEFAULT or context is None:
        return None
    text = translations(language).pgettext(context, message)
    if text == message:
        return None
    if where in NAMED and (text != text.lower() or not NAME.match(text)):
        log.warning("the %s translation %r of %r is not a valid name", language, text, message)
        return None
    if len(text) > LIMITS.get(where, 100):
        log.warning("the %s translation of %r is too long", language, message)
        return None
    return text


class CommandTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        language = language_of(locale)
        # Discord's locale list has English variants; only our languages are translated.
        if language not in LANGUAGES or not str(locale.value).lower().startswith(language):
            return None
        meaning = string.extras.get(MEANING)
        return translate(string.message, context.location, language, meaning=meaning)
