"""Application commands the bot registered, per scope (global or one guild).

Registration is validated as Discord does (names, descriptions, option order, duplicates)
and a bulk overwrite keeps the id of a command with the same name and type, so discord.py's
command ids stay stable across syncs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container

from .errors import invalid_form, unknown
from .ids import SnowflakeGenerator
from .models import JSON, RegisteredCommand, SimGuild

COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")


class CommandRegistry:
    def __init__(
        self,
        ids: SnowflakeGenerator,
        application_id: int,
        guild_ids: Callable[[], Container[int]],
        changed: Callable[[], None],
    ) -> None:
        self._ids = ids
        self._application_id = application_id
        self._guild_ids = guild_ids
        self._changed = changed
        self.global_commands: dict[tuple[str, int], RegisteredCommand] = {}
        self.guild_commands: dict[int, dict[tuple[str, int], RegisteredCommand]] = {}

    def command_table(self, guild_id: int | None) -> dict[tuple[str, int], RegisteredCommand]:
        if guild_id is None:
            return self.global_commands
        if guild_id not in self._guild_ids():
            raise unknown("Guild", 10004)
        return self.guild_commands.setdefault(guild_id, {})

    def put_commands(self, guild_id: int | None, payloads: list[JSON]) -> list[RegisteredCommand]:
        """Bulk overwrite: same name and type keep their id (as on Discord)."""
        table = self.command_table(guild_id)
        normalized = [normalize_command(p, f"{i}") for i, p in enumerate(payloads)]
        keys = [(p["name"], int(p.get("type", 1))) for p in normalized]
        if len(set(keys)) != len(keys):
            raise invalid_form(
                "name",
                "Application command names must be unique",
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
            )
        new_table: dict[tuple[str, int], RegisteredCommand] = {}
        for key, payload in zip(keys, normalized, strict=True):
            old = table.get(key)
            new_table[key] = RegisteredCommand(
                id=old.id if old else self._ids.next(),
                application_id=self._application_id,
                guild_id=guild_id,
                payload=payload,
                version=self._ids.next(),
            )
        table.clear()
        table.update(new_table)
        self._changed()
        return list(table.values())

    def upsert_command(self, guild_id: int | None, payload: JSON) -> RegisteredCommand:
        table = self.command_table(guild_id)
        payload = normalize_command(payload, "")
        key = (payload["name"], int(payload.get("type", 1)))
        old = table.get(key)
        command = RegisteredCommand(
            id=old.id if old else self._ids.next(),
            application_id=self._application_id,
            guild_id=guild_id,
            payload=payload,
            version=self._ids.next(),
        )
        table[key] = command
        self._changed()
        return command

    def command_by_id(self, guild_id: int | None, command_id: int) -> RegisteredCommand:
        for command in self.command_table(guild_id).values():
            if command.id == command_id:
                return command
        raise unknown("application command", 10063)

    def delete_command(self, guild_id: int | None, command_id: int) -> None:
        command = self.command_by_id(guild_id, command_id)
        del self.command_table(guild_id)[(command.name, command.type)]
        self._changed()

    def find_command(self, guild: SimGuild | None, name: str) -> RegisteredCommand | None:
        """What a user typing ``/name`` there would pick: a guild command, else a global one."""
        if guild is not None:
            found = self.guild_commands.get(guild.id, {}).get((name, 1))
            if found is not None:
                return found
        return self.global_commands.get((name, 1))

    def names(self, guild: SimGuild | None) -> list[str]:
        """Chat-input command names usable in ``guild`` (or in DMs), for error messages."""
        names = {n for n, t in self.global_commands if t == 1}
        if guild is not None:
            names |= {n for n, t in self.guild_commands.get(guild.id, {}) if t == 1}
        return sorted(names)


KNOWN_COMMAND_KEYS = (
    "name",
    "name_localizations",
    "description",
    "description_localizations",
    "options",
    "default_member_permissions",
    "dm_permission",
    "contexts",
    "integration_types",
    "nsfw",
    "type",
)


# Discord's locales (what name_localizations and description_localizations may be keyed by).
LOCALES = frozenset(
    [
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    ]
)


def _check_localizations(body: JSON, where: str, *, named: bool, described: bool) -> None:
    """Localised names obey the name rule (or, for a choice, 1-100 characters) and localised
    descriptions 1-100 characters, keyed by Discord's locales: else the sync fails (50035)."""
    for key, check in (("name_localizations", "name"), ("description_localizations", "text")):
        table = body.get(key) or {}
        if key == "description_localizations" and not described:
            continue
        for locale, text in table.items():
            if locale not in LOCALES:
                raise invalid_form(f"{where}.{key}.{locale}", "Invalid locale", "LOCALE_INVALID")
            text = str(text)
            if check == "name" and named:
                bad = not COMMAND_NAME.match(text) or text != text.lower()
            else:
                bad = not 1 <= len(text) <= 100
            if bad:
                raise invalid_form(
                    f"{where}.{key}.{locale}",
                    "Localized name or description is invalid",
                    "APPLICATION_COMMAND_INVALID_LOCALIZATION",
                )


def normalize_command(payload: JSON, where: str) -> JSON:
    """Validate a command as Discord does (names, descriptions, option order) and keep the
    fields Discord stores."""
    body = {k: payload[k] for k in KNOWN_COMMAND_KEYS if k in payload}
    kind = int(body.get("type", 1))
    body["type"] = kind
    name = str(body.get("name", ""))
    prefix = f"{where}." if where else ""
    if kind == 1:
        if not COMMAND_NAME.match(name) or name != name.lower():
            raise invalid_form(
                f"{prefix}name", "Command name is invalid", "APPLICATION_COMMAND_INVALID_NAME"
            )
        description = str(body.get("description", ""))
        if not 1 <= len(description) <= 100:
            raise invalid_form(
                f"{prefix}description",
                "Must be between 1 and 100 in length.",
                "BASE_TYPE_BAD_LENGTH",
            )
        _check_localizations(body, prefix.rstrip("."), named=True, described=True)
        _check_options(body.get("options") or [], f"{prefix}options")
    else:
        if not 1 <= len(name) <= 32:
            raise invalid_form(
                f"{prefix}name", "Must be between 1 and 32 in length.", "BASE_TYPE_BAD_LENGTH"
            )
        body.setdefault("description", "")
    body.setdefault("options", [])
    return body


def _check_options(options: list[JSON], where: str) -> None:
    if len(options) > 25:
        raise invalid_form(where, "Must be 25 or fewer in length.")
    names: set[str] = set()
    optional_seen = False
    for i, option in enumerate(options):
        name = str(option.get("name", ""))
        if not COMMAND_NAME.match(name) or name != name.lower():
            raise invalid_form(
                f"{where}.{i}.name", "Option name is invalid", "APPLICATION_COMMAND_INVALID_NAME"
            )
        if name in names:
            raise invalid_form(
                f"{where}.{i}.name",
                "Option names must be unique",
                "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
            )
        names.add(name)
        _check_localizations(option, f"{where}.{i}", named=True, described=True)
        for j, choice in enumerate(option.get("choices") or []):
            _check_localizations(choice, f"{where}.{i}.choices.{j}", named=False, described=False)
        if not 1 <= len(str(option.get("description", ""))) <= 100:
            raise invalid_form(
                f"{where}.{i}.description",
                "Must be between 1 and 100 in length.",
                "BASE_TYPE_BAD_LENGTH",
            )
        if option.get("type") in (1, 2):
            _check_options(option.get("options") or [], f"{where}.{i}.options")
            continue
        if option.get("required"):
            if optional_seen:
                raise invalid_form(
                    f"{where}.{i}.required",
                    "Required options must be placed before non-required options",
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                )
        else:
            optional_seen = True
        if len(option.get("choices") or []) > 25:
            raise invalid_form(f"{where}.{i}.choices", "Must be 25 or fewer in length.")
        if option.get("choices") and option.get("autocomplete"):
            raise invalid_form(
                f"{where}.{i}.autocomplete", "Autocomplete cannot be set with choices"
            )
