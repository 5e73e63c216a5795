"""Dispatching interactions: what simulated members trigger (slash commands, autocomplete,
buttons, selects, modals), with the payloads discord.py expects, and the acknowledgement
deadline (3 s on Discord) that flags records the bot did not answer in time.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from . import permissions as perms
from .errors import EmulatorTimeout, SimulationError
from .events import ChatEvent
from .handles import InteractionHandle
from .ids import new_token, shard_of
from .models import (
    BUTTON,
    JSON,
    SELECT_TYPES,
    STRING_SELECT,
    TEXT_INPUT,
    SimChannel,
    SimGuild,
    SimMember,
    SimMessage,
    SimRole,
    SimUser,
    walk_components,
)
from .options import build_data, check_can_use, split_path
from .payloads import (
    channel_payload,
    member_payload,
    message_payload,
    role_payload,
    user_payload,
)
from .records import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    InteractionRecord,
)

if TYPE_CHECKING:
    from .server import Emulator


# discord.py reads this from every interaction (``Interaction.filesize_limit``).
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024


class InteractionManager:
    """Builds and dispatches interactions; keeps every record by id and by token."""

    def __init__(self, emu: Emulator, deadline: float) -> None:
        self._emu = emu
        self.deadline = deadline
        self.records: dict[int, InteractionRecord] = {}
        self.by_token: dict[str, InteractionRecord] = {}
        self.handles: list[InteractionHandle] = []
        self._timers: list[asyncio.TimerHandle] = []

    @property
    def expired(self) -> list[InteractionRecord]:
        return [r for r in self.records.values() if r.expired]

    # -- dispatch ----------------------------------------------------------------------

    def _place(
        self, member: SimMember, where: SimChannel | None
    ) -> tuple[SimChannel, SimGuild | None, SimMember | None]:
        channel = where or member.guild.default_channel
        if channel.is_dm:
            if channel.recipient is not member.user:
                raise SimulationError(f"{member.name} cannot use another user's DM channel")
            return channel, None, None
        if channel.guild is not member.guild:
            raise SimulationError(f"{channel.label} is not in {member.guild.name}")
        if member.guild.bot_removed:  # its commands and controls went with it
            raise SimulationError(f"the bot is not in {member.guild.name} (remove_bot)")
        if not member.can_view(channel):
            raise SimulationError(f"{member.name} cannot see {channel.label}")
        return channel, member.guild, member

    async def _command(
        self, member: SimMember, command: str | Sequence[str], where: SimChannel | None
    ) -> tuple[list[str], SimChannel, SimGuild | None, SimMember | None, Any]:
        path = split_path(command)
        channel, guild, in_guild = self._place(member, where)
        self._emu.world.command_place(channel)  # none in an archived thread
        world = self._emu.world
        try:
            # Give a bot that syncs in on_ready a moment to register its commands.
            registered = await self._emu.bus.notifier.wait_until(
                lambda: world.commands.find_command(guild, path[0]),
                self._emu.command_wait,
                lambda: "",
            )
        except EmulatorTimeout:
            known = world.commands.names(guild)
            raise SimulationError(
                f"/{path[0]} is not registered (the bot has not synced it); registered: {known}"
            ) from None
        check_can_use(registered, in_guild, guild)
        return path, channel, guild, in_guild, registered

    async def slash(
        self,
        member: SimMember,
        command: str | Sequence[str],
        *,
        where: SimChannel | None,
        options: dict[str, Any],
    ) -> InteractionHandle:
        path, channel, guild, in_guild, registered = await self._command(member, command, where)
        data, summary = build_data(
            self._emu.world,
            registered,
            path,
            options,
            guild=guild,
            channel=channel,
            locale=member.user.locale,
        )
        record = self._record(APPLICATION_COMMAND, member, in_guild, guild, channel, data, summary)
        record.command_name = " ".join(path)
        return await self._dispatch(record, "command")

    async def autocomplete(
        self,
        member: SimMember,
        command: str | Sequence[str],
        focused: str,
        *,
        where: SimChannel | None,
        options: dict[str, Any],
    ) -> InteractionHandle:
        path, channel, guild, in_guild, registered = await self._command(member, command, where)
        data, summary = build_data(
            self._emu.world,
            registered,
            path,
            options,
            guild=guild,
            channel=channel,
            focused=focused,
            locale=member.user.locale,
        )
        record = self._record(AUTOCOMPLETE, member, in_guild, guild, channel, data, summary)
        record.command_name = " ".join(path)
        return await self._dispatch(record, None)

    def _component_target(
        self, member: SimMember, message: SimMessage
    ) -> tuple[SimChannel, SimGuild | None, SimMember | None]:
        if message.deleted:
            raise SimulationError(f"message {message.id} was deleted")
        if not message.is_visible_to(member.user):
            raise SimulationError(f"{member.name} cannot see that ephemeral message")
        if message.author.id != self._emu.world.bot.id:
            raise SimulationError("only the bot's messages carry usable components here")
        # _place also refuses another user's DM channel and channels the member cannot see.
        return self._place(member, message.channel)

    async def click(
        self,
        member: SimMember,
        message: SimMessage,
        custom_id: str | None,
        *,
        label: str | None = None,
    ) -> InteractionHandle:
        channel, guild, in_guild = self._component_target(member, message)
        if custom_id is None:
            if label is None:
                raise SimulationError("click needs a custom_id or a label")
            button = message.button(label)
        else:
            found = message.component(custom_id)
            if found is None or found.get("type") != BUTTON:
                ids = [b.get("custom_id") for b in message.buttons()]
                raise SimulationError(
                    f"no button {custom_id!r} on message {message.id}; have {ids}"
                )
            button = found
        if button.get("disabled"):
            raise SimulationError(f"button {button.get('label')!r} is disabled")
        if button.get("style") in (5, 6) or not button.get("custom_id"):
            raise SimulationError("link and premium buttons do not send interactions")
        data = {"custom_id": button["custom_id"], "component_type": BUTTON}
        summary = f"clicked [{button.get('label') or button['custom_id']}]"
        record = self._record(MESSAGE_COMPONENT, member, in_guild, guild, channel, data, summary)
        record.message = message
        return await self._dispatch(record, "click")

    async def select(
        self,
        member: SimMember,
        message: SimMessage,
        custom_id: str | None,
        values: list[Any],
    ) -> InteractionHandle:
        channel, guild, in_guild = self._component_target(member, message)
        selects = message.selects()
        if custom_id is None:
            if len(selects) != 1:
                raise SimulationError(f"message {message.id} has {len(selects)} selects; name one")
            menu = selects[0]
        else:
            found = message.component(custom_id)
            if found is None or found.get("type") not in SELECT_TYPES:
                raise SimulationError(f"no select menu {custom_id!r} on message {message.id}")
            menu = found
        if menu.get("disabled"):
            raise SimulationError(f"select {menu['custom_id']!r} is disabled")
        low, high = menu.get("min_values", 1), menu.get("max_values", 1)
        if not low <= len(values) <= high:
            raise SimulationError(f"select {menu['custom_id']!r} takes {low}-{high} values")
        data: JSON = {"custom_id": menu["custom_id"], "component_type": menu["type"]}
        if menu["type"] == STRING_SELECT:
            allowed = [o["value"] for o in menu.get("options", [])]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise SimulationError(
                    f"select {menu['custom_id']!r} has no options {bad}; has {allowed}"
                )
            data["values"] = list(values)
            shown = ", ".join(str(v) for v in values)
        else:
            data["values"], data["resolved"], shown = self._select_entities(values, guild)
        summary = f"chose [{shown}] in {menu.get('placeholder') or menu['custom_id']}"
        record = self._record(MESSAGE_COMPONENT, member, in_guild, guild, channel, data, summary)
        record.message = message
        return await self._dispatch(record, "select")

    def _select_entities(
        self, values: list[Any], guild: SimGuild | None
    ) -> tuple[list[str], JSON, str]:
        """User/role/channel selects send ids plus a ``resolved`` map."""
        ids: list[str] = []
        resolved: JSON = {}
        names: list[str] = []
        for value in values:
            if isinstance(value, SimMember | SimUser):
                user = value.user if isinstance(value, SimMember) else value
                ids.append(str(user.id))
                resolved.setdefault("users", {})[str(user.id)] = user_payload(user)
                member = guild.members.get(user.id) if guild else None
                if member is not None:
                    resolved.setdefault("members", {})[str(user.id)] = member_payload(
                        member, with_user=False, permissions=member.permissions
                    )
                names.append(f"@{user.name}")
            elif isinstance(value, SimRole):
                ids.append(str(value.id))
                resolved.setdefault("roles", {})[str(value.id)] = role_payload(value)
                names.append(f"@{value.name}")
            elif isinstance(value, SimChannel):
                ids.append(str(value.id))
                body = channel_payload(value, permissions=perms.EVERYONE_DEFAULT)
                resolved.setdefault("channels", {})[str(value.id)] = body
                names.append(value.label)
            else:
                raise SimulationError(f"cannot select {value!r} in an entity select")
        return ids, resolved, ", ".join(names)

    async def submit_modal(
        self, member: SimMember, opened_by: InteractionHandle, values: dict[str, str]
    ) -> InteractionHandle:
        modal = opened_by.record.modal
        if modal is None:
            raise SimulationError(f"{opened_by.record.summary} did not open a modal")
        if opened_by.record.user is not member.user:
            raise SimulationError("only the member the modal was shown to can submit it")
        inputs = [
            c for c in walk_components(modal.get("components", [])) if c.get("type") == TEXT_INPUT
        ]
        known = {c["custom_id"] for c in inputs}
        extra = sorted(set(values) - known)
        if extra:
            raise SimulationError(f"modal has no inputs {extra}; has {sorted(known)}")
        for text_input in inputs:
            value = values.get(text_input["custom_id"], text_input.get("value") or "")
            if text_input.get("required", True) and not value:
                raise SimulationError(f"modal input {text_input['custom_id']!r} is required")
            low, high = text_input.get("min_length", 0), text_input.get("max_length", 4000)
            if value and not low <= len(value) <= high:
                raise SimulationError(
                    f"modal input {text_input['custom_id']!r} takes {low}-{high} characters"
                )
        data = {
            "custom_id": modal["custom_id"],
            "components": _submitted(modal.get("components", []), values),
        }
        origin = opened_by.record
        record = self._record(
            MODAL_SUBMIT,
            member,
            origin.member,
            origin.guild,
            origin.channel,
            data,
            f"submitted {modal.get('title')!r}",
        )
        record.message = origin.message
        return await self._dispatch(record, "modal")

    def _record(
        self,
        kind: int,
        member: SimMember,
        in_guild: SimMember | None,
        guild: SimGuild | None,
        channel: SimChannel,
        data: JSON,
        summary: str,
    ) -> InteractionRecord:
        world = self._emu.world
        return InteractionRecord(
            id=world.ids.next(),
            token=new_token("interaction"),
            type=kind,
            user=member.user,
            member=in_guild,
            guild=guild,
            channel=channel,
            data=data,
            summary=summary,
            created_at=self._emu.now(),
        )

    def _payload(self, record: InteractionRecord) -> JSON:
        world = self._emu.world
        # What the bot may do in this channel, overwrites included (a bot checks this before
        # starting anything that must post there).
        bot_perms = record.channel.permissions_for(world.bot.id) if record.guild else perms.ALL
        body: JSON = {
            "id": str(record.id),
            "application_id": str(world.application_id),
            "type": record.type,
            "data": record.data,
            "token": record.token,
            "version": 1,
            "channel_id": str(record.channel.id),
            "app_permissions": str(bot_perms),
            "locale": record.user.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": record.owners(),
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        }
        if record.guild is not None and record.member is not None:
            user_perms = record.channel.permissions_for(record.member.id)
            body.update(
                guild_id=str(record.guild.id),
                guild={"id": str(record.guild.id), "locale": record.guild.locale, "features": []},
                guild_locale=record.guild.locale,
                member=member_payload(record.member, permissions=user_perms),
                channel=channel_payload(record.channel, permissions=user_perms),
                context=0,
            )
        else:
            body.update(
                user=user_payload(record.user),
                channel=channel_payload(record.channel, permissions=perms.EVERYONE_DEFAULT),
                context=1,
            )
        if record.message is not None:
            body["message"] = message_payload(record.message)
        return body

    async def _dispatch(
        self,
        record: InteractionRecord,
        chat_kind: Literal["command", "click", "select", "modal"] | None,
    ) -> InteractionHandle:
        hub = self._emu.gateway
        # Wait a little for the shard's session: the bot may be starting or resuming.
        try:
            session = await self._emu.bus.notifier.wait_until(
                lambda: hub.session_for(record.guild),
                self._emu.command_wait,
                lambda: f"{record.summary}: no bot is connected to the gateway",
            )
        except EmulatorTimeout:
            if not hub.live_sessions():
                raise
            session = None  # the bot runs, but not the shard this interaction belongs to
        loop = asyncio.get_running_loop()
        self.records[record.id] = record
        self.by_token[record.token] = record
        handle = InteractionHandle(record, self._emu)
        self.handles.append(handle)
        record.dispatched_at = loop.time()
        if session is not None:
            record.session_id = session.id
            session.dispatch("INTERACTION_CREATE", self._payload(record))
            self._timers.append(loop.call_later(self.deadline, self._check_deadline, record))
        if chat_kind is not None:
            self._emu.bus.emit(
                ChatEvent(chat_kind, record.channel, record.user, record.message, record.summary)
            )
        if session is None:
            self._undelivered(record)
        return handle

    def _undelivered(self, record: InteractionRecord) -> None:
        """Discord has no session to send it to: the user sees it fail, and the bot never
        hears of it."""
        count = self._emu.gateway.shard_count or 1
        shard = shard_of(record.guild.id, count) if record.guild else 0
        record.undelivered = f"shard {shard} of {count} is not connected"
        record.expired = True
        self._emu.bus.emit(
            ChatEvent(
                "failure",
                record.channel,
                record.user,
                text=f"{record.summary} by @{record.user.name}: not delivered, "
                f"{record.undelivered} (Discord shows 'This interaction failed')",
            )
        )

    def _check_deadline(self, record: InteractionRecord) -> None:
        if record.callback_type is not None:
            return
        record.expired = True
        self._emu.bus.emit(
            ChatEvent(
                "failure",
                record.channel,
                record.user,
                text=f"{record.summary} by @{record.user.name}: not acknowledged within "
                f"{self.deadline:g} s (Discord shows 'This interaction failed')",
            )
        )

    def cancel_timers(self) -> None:
        for timer in self._timers:
            timer.cancel()
        self._timers.clear()


def _submitted(components: list[JSON], values: dict[str, str]) -> list[JSON]:
    """Mirror the modal's layout with the entered values (rows and labels as sent)."""
    out: list[JSON] = []
    for component in components:
        kind = component.get("type")
        if kind == 1:
            out.append(
                {"type": 1, "components": _submitted(component.get("components", []), values)}
            )
        elif kind == 18 and isinstance(component.get("component"), dict):
            inner = _submitted([component["component"]], values)
            out.append({"type": 18, "component": inner[0]} if inner else {"type": 18})
        elif kind == TEXT_INPUT:
            custom_id = component["custom_id"]
            out.append(
                {
                    "type": TEXT_INPUT,
                    "custom_id": custom_id,
                    "value": values.get(custom_id, component.get("value") or ""),
                }
            )
    return out
