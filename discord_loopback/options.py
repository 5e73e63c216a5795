"""Turn ``slash(("schotten", "move"), opponent=bob, column=3)`` into Discord's
interaction ``data``, using the command schema the bot registered.

A real user can only send what the Discord client lets them: registered commands they may
see, existing subcommands, required options filled, values of the right type and within
choices/ranges. Anything else raises ``SimulationError`` here instead of reaching the bot.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import permissions as perms
from .errors import SimulationError
from .models import (
    JSON,
    RegisteredCommand,
    SimChannel,
    SimGuild,
    SimMember,
    SimRole,
    SimUser,
)
from .payloads import (
    attachment_payload,
    channel_payload,
    member_payload,
    role_payload,
    user_payload,
)

if TYPE_CHECKING:
    from .world import World

SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
STRING = 3
INTEGER = 4
BOOLEAN = 5
USER = 6
CHANNEL = 7
ROLE = 8
MENTIONABLE = 9
NUMBER = 10
ATTACHMENT = 11

MAX_SAFE_INT = 2**53


@dataclass
class Resolved:
    """The ``resolved`` map Discord adds for user/member/role/channel/attachment options."""

    users: dict[str, JSON] = field(default_factory=dict)
    members: dict[str, JSON] = field(default_factory=dict)
    roles: dict[str, JSON] = field(default_factory=dict)
    channels: dict[str, JSON] = field(default_factory=dict)
    attachments: dict[str, JSON] = field(default_factory=dict)

    def payload(self) -> JSON:
        return {k: v for k, v in vars(self).items() if v}


def split_path(command: str | Sequence[str]) -> list[str]:
    parts = command.split() if isinstance(command, str) else list(command)
    parts = [p.lstrip("/") for p in parts]
    if not parts or not all(parts):
        raise SimulationError(f"empty command path {command!r}")
    return parts


def check_can_use(
    command: RegisteredCommand, member: SimMember | None, guild: SimGuild | None
) -> None:
    """Discord hides commands the member lacks ``default_member_permissions`` for, and
    guild-only commands in DMs."""
    payload = command.payload
    contexts = payload.get("contexts")
    context = 0 if guild is not None else 1
    if contexts is not None and context not in contexts:
        where = "servers" if guild is not None else "DMs with the bot"
        raise SimulationError(f"/{command.name} is not available in {where}")
    if guild is None and payload.get("dm_permission") is False:
        raise SimulationError(f"/{command.name} is not available in DMs")
    required = command.default_member_permissions
    if required is None or member is None:
        return
    have = member.permissions
    if required == 0 and not have & perms.ADMINISTRATOR:
        raise SimulationError(
            f"{member.name} cannot see /{command.name}: it is disabled for members"
        )
    if have & required != required:
        raise SimulationError(
            f"{member.name} cannot see /{command.name}: needs {perms.describe(required)}"
        )


def build_data(
    world: World,
    command: RegisteredCommand,
    path: list[str],
    values: Mapping[str, Any],
    *,
    guild: SimGuild | None,
    channel: SimChannel,
    focused: str | None = None,
    locale: str = "en-US",
) -> tuple[JSON, str]:
    """Interaction ``data`` for a chat-input command (or its autocomplete when ``focused``),
    plus a human summary such as ``/schotten move opponent:@bob column:3``, in the words
    of the member's client (localised names, choices by their names).

    As a Discord client does, a member may type the names the bot localised for their
    ``locale`` (``name_localizations``); the data carries the default names."""
    node: JSON = command.payload
    chain: list[JSON] = []
    for part in path[1:]:
        child = next(
            (
                o
                for o in node.get("options") or []
                if part in _names(o, locale) and o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)
            ),
            None,
        )
        if child is None:
            subs = [o["name"] for o in node.get("options") or [] if o.get("type") in (1, 2)]
            raise SimulationError(f"/{' '.join(path)}: no subcommand {part!r}; have {subs}")
        chain.append(child)
        node = child
    params = node.get("options") or []
    if any(p.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP) for p in params):
        subs = [p["name"] for p in params]
        raise SimulationError(f"/{' '.join(path)} needs a subcommand: one of {subs}")
    if node is not command.payload and node.get("type") != SUB_COMMAND:
        raise SimulationError(f"/{' '.join(path)} is a group, not a subcommand")

    typed = {name: p["name"] for p in params for name in _names(p, locale)}
    values = {typed.get(k, k): v for k, v in values.items()}
    if focused is not None:
        focused = typed.get(focused, focused)
    by_name = {p["name"]: p for p in params}
    unknown_names = sorted(set(values) - set(by_name))
    if unknown_names:
        raise SimulationError(
            f"/{' '.join(path)} has no option {unknown_names}; has {sorted(by_name)}"
        )
    resolved = Resolved()
    leaf: list[JSON] = []
    # The summary reads as the member's client shows the command: in their language.
    shown_path = [path[0], *(_names(link, locale)[-1] for link in chain)]
    summary_parts = [f"/{' '.join(shown_path)}"]
    for param in params:
        name = param["name"]
        label = _names(param, locale)[-1]
        if name == focused:
            typed = values.get(name, "")
            leaf.append({"type": param["type"], "name": name, "value": str(typed), "focused": True})
            summary_parts.append(f"{label}:{typed}▌")
            continue
        if name not in values:
            if param.get("required") and focused is None:
                raise SimulationError(f"/{' '.join(path)}: option {name!r} is required")
            continue
        value, shown = _convert(world, param, values[name], resolved, guild, channel)
        for choice in param.get("choices") or []:
            if choice["value"] == value:  # a client shows the choice's name, not its value
                shown = _names(choice, locale)[-1]
        leaf.append({"type": param["type"], "name": name, "value": value})
        summary_parts.append(f"{label}:{shown}")
    if focused is not None and focused not in by_name:
        raise SimulationError(f"/{' '.join(path)} has no option {focused!r} to autocomplete")
    if focused is not None and not by_name[focused].get("autocomplete"):
        raise SimulationError(f"option {focused!r} of /{' '.join(path)} has no autocomplete")

    options: list[JSON] = leaf
    for link in reversed(chain):
        options = [{"type": link["type"], "name": link["name"], "options": options}]
    data: JSON = {
        "id": str(command.id),
        "name": command.name,
        "type": 1,
        "options": options,
    }
    if resolved.payload():
        data["resolved"] = resolved.payload()
    if command.guild_id is not None:
        data["guild_id"] = str(command.guild_id)
    return data, " ".join(summary_parts)


def _names(option: JSON, locale: str) -> tuple[str, ...]:
    """The names a member with ``locale`` may type for a command or option."""
    local = (option.get("name_localizations") or {}).get(locale)
    return (option["name"], local) if local else (option["name"],)


def _convert(
    world: World,
    param: JSON,
    raw: Any,
    resolved: Resolved,
    guild: SimGuild | None,
    channel: SimChannel,
) -> tuple[Any, str]:
    """Check ``raw`` against the option's type and limits; return (JSON value, summary)."""
    kind = param["type"]
    name = param["name"]
    if kind == STRING:
        if not isinstance(raw, str):
            raise SimulationError(f"option {name!r} takes a str, got {raw!r}")
        low, high = param.get("min_length", 0), param.get("max_length", 6000)
        if not low <= len(raw) <= high:
            raise SimulationError(f"option {name!r} must be {low}-{high} characters long")
        _check_choice(param, raw)
        return raw, raw
    if kind in (INTEGER, NUMBER):
        ok = isinstance(raw, int) if kind == INTEGER else isinstance(raw, int | float)
        if isinstance(raw, bool) or not ok:
            wanted = "an int" if kind == INTEGER else "a number"
            raise SimulationError(f"option {name!r} takes {wanted}, got {raw!r}")
        low = param.get("min_value", -MAX_SAFE_INT)
        high = param.get("max_value", MAX_SAFE_INT)
        if not low <= raw <= high:
            raise SimulationError(f"option {name!r} must be between {low} and {high}")
        _check_choice(param, raw)
        return raw, str(raw)
    if kind == BOOLEAN:
        if not isinstance(raw, bool):
            raise SimulationError(f"option {name!r} takes a bool, got {raw!r}")
        return raw, str(raw)
    if kind == USER or (kind == MENTIONABLE and not isinstance(raw, SimRole)):
        user = raw.user if isinstance(raw, SimMember) else raw
        if isinstance(user, int):
            user = world.users.get(user)
        if not isinstance(user, SimUser):
            raise SimulationError(f"option {name!r} takes a member or user, got {raw!r}")
        resolved.users[str(user.id)] = user_payload(user)
        member = guild.members.get(user.id) if guild is not None else None
        if member is not None:
            resolved.members[str(user.id)] = member_payload(
                member, with_user=False, permissions=member.permissions
            )
        return str(user.id), f"@{user.name}"
    if kind in (ROLE, MENTIONABLE):
        if not isinstance(raw, SimRole) or guild is None or raw.id not in guild.roles:
            raise SimulationError(f"option {name!r} takes a role of this guild, got {raw!r}")
        resolved.roles[str(raw.id)] = role_payload(raw)
        return str(raw.id), f"@{raw.name}"
    if kind == CHANNEL:
        target = world.channels.get(raw) if isinstance(raw, int) else raw
        if not isinstance(target, SimChannel) or target.guild is not guild:
            raise SimulationError(f"option {name!r} takes a channel of this guild, got {raw!r}")
        allowed = param.get("channel_types")
        if allowed and target.type not in allowed:
            raise SimulationError(f"option {name!r} takes channel types {allowed}")
        body = channel_payload(target, permissions=perms.EVERYONE_DEFAULT)
        resolved.channels[str(target.id)] = body
        return str(target.id), target.label
    if kind == ATTACHMENT:
        return _attachment(world, name, raw, resolved, channel)
    raise SimulationError(f"option {name!r} has unsupported type {kind}")


def _check_choice(param: JSON, value: Any) -> None:
    choices = param.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        allowed = [c["value"] for c in choices]
        raise SimulationError(f"option {param['name']!r} must be one of {allowed}, got {value!r}")


def _attachment(
    world: World, name: str, raw: Any, resolved: Resolved, channel: SimChannel
) -> tuple[Any, str]:
    if not (isinstance(raw, tuple) and len(raw) == 2 and isinstance(raw[1], bytes)):
        raise SimulationError(f"option {name!r} takes (filename, bytes), got {raw!r}")
    filename, data = raw
    attachment = world.make_attachment(channel, filename, data, ephemeral=True)
    resolved.attachments[str(attachment.id)] = attachment_payload(attachment)
    return str(attachment.id), attachment.filename
