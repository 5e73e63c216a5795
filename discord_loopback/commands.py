"""Application commands the bot registered, per scope (global or one guild).

Registrations arrive validated (names, descriptions, option order, duplicates, sizes: Discord's
description plus ``limits``); a bulk overwrite keeps the id of a command with the same name
and type, so discord.py's command ids stay stable across syncs.
"""

from __future__ import annotations

import re
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
        *,
        localised_mentions: Callable[[], bool] = lambda: False,
    ) -> None:
        """``localised_mentions``: whether command mentions show in the reader's language
        (only with the behaviour ``default_command_names`` switched off)."""
        self.localised_mentions = localised_mentions
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

    def any_command(self, command_id: int) -> RegisteredCommand | None:
        """The command with this id, global or in any guild (None if there is none)."""
        for table in (self.global_commands, *self.guild_commands.values()):
            for command in table.values():
                if command.id == command_id:
                    return command
        return None

    def mention_text(self, mention: str, locale: str) -> str:
        """A command mention, ``</schotten move:ID>``, as a client in ``locale`` shows it:
        ``/schotten move``, the command's default names, whatever the locale (behaviour
        ``default_command_names``: discord-api-docs #5518, #7309); without the behaviour,
        ``/schotten jouer`` (the names in that language where the bot localised them). An
        id Discord does not know stays as it was written, as the client shows it."""
        localised = self.localised_mentions()

        def shown(payload: JSON) -> str:
            return _localised(payload, locale) if localised else str(payload["name"])

        found = MENTION.fullmatch(mention)
        command = self.any_command(int(found["id"])) if found else None
        if found is None or command is None:
            return mention
        names = found["names"].split(" ")
        if names[0] != command.name:
            return mention
        names_shown = [shown(command.payload)]
        options = command.payload.get("options") or []
        for name in names[1:]:
            sub = next(
                (o for o in options if o.get("name") == name and o.get("type") in (1, 2)), None
            )
            if sub is None:
                return mention
            names_shown.append(shown(sub))
            options = sub.get("options") or []
        return "/" + " ".join(names_shown)

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


# Discord's mention of a command or subcommand: </name:id>, </name sub:id>, </name group sub:id>.
MENTION = re.compile(r"</(?P<names>[-_\w]+(?: [-_\w]+){0,2}):(?P<id>[0-9]+)>")


def _localised(payload: JSON, locale: str) -> str:
    """A command's or option's name in ``locale`` (or in its language), else its own."""
    names = payload.get("name_localizations") or {}
    return str(names.get(locale) or names.get(locale.split("-")[0]) or payload["name"])


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
