"""Application commands the bot registered, per scope (global or one guild).

Registrations arrive validated (names, descriptions, option order, duplicates, sizes: Discord's
description plus ``limits``); a bulk overwrite keeps the id of a command with the same name
and type, so discord.py's command ids stay stable across syncs.
"""

from __future__ import annotations

from collections.abc import Callable, Container

from .errors import unknown
from .ids import SnowflakeGenerator
from .models import JSON, RegisteredCommand, SimGuild


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
        normalized = [normalize_command(p) for p in payloads]
        keys = [(p["name"], p["type"]) for p in normalized]
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
        payload = normalize_command(payload)
        key = (payload["name"], payload["type"])
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


def normalize_command(payload: JSON) -> JSON:
    """The fields Discord stores of a command (the request was validated against Discord's
    description and limits on its way in, see ``spec``)."""
    body = {k: payload[k] for k in KNOWN_COMMAND_KEYS if k in payload}
    body["type"] = int(body.get("type") or 1)
    if body["type"] != 1:
        body.setdefault("description", "")
    body.setdefault("options", [])
    return body
