"""Interactions: what members trigger (slash, autocomplete, buttons, selects, modals) and how
the bot's answers are recorded, timed and checked against Discord's rules.

Rules enforced, as Discord does:

* an interaction must be acknowledged within ``deadline`` seconds (3 s on Discord); later
  callbacks get 404 ``10062 Unknown interaction`` and the record is flagged ``expired``;
* only one callback per interaction (400 ``40060``), of a type valid for the interaction;
* followups need an acknowledged interaction (404 ``10015 Unknown Webhook``);
* the first followup after a deferred reply (type 5) replaces the "thinking…" message and
  keeps the defer's ephemerality, whatever flags the followup carries.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from . import permissions as perms
from .errors import (
    ALREADY_ACKNOWLEDGED,
    UNKNOWN_INTERACTION,
    UNKNOWN_MESSAGE,
    UNKNOWN_WEBHOOK,
    ApiError,
    EmulatorTimeout,
    SimulationError,
    invalid_form,
    unknown,
)
from .events import ChatEvent
from .ids import new_token
from .models import (
    BUTTON,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
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
from .validation import validate_choices
from .world import MessageBody

if TYPE_CHECKING:
    from .server import Emulator

# Interaction types.
PING = 1
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

# Callback (response) types.
PONG = 1
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9

VALID_CALLBACKS = {
    PING: {PONG},
    APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL},
    MESSAGE_COMPONENT: {
        CHANNEL_MESSAGE,
        DEFERRED_CHANNEL_MESSAGE,
        DEFERRED_UPDATE_MESSAGE,
        UPDATE_MESSAGE,
        MODAL,
    },
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: {
        CHANNEL_MESSAGE,
        DEFERRED_CHANNEL_MESSAGE,
        DEFERRED_UPDATE_MESSAGE,
        UPDATE_MESSAGE,
    },
}

ResponseKind = Literal["reply", "followup", "update", "edit"]
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024


@dataclass
class Response:
    """One visible answer: a message created or changed on behalf of the interaction."""

    at: float
    kind: ResponseKind
    message: SimMessage


@dataclass(eq=False)
class InteractionRecord:
    id: int
    token: str
    type: int
    user: SimUser
    member: SimMember | None
    guild: SimGuild | None
    channel: SimChannel
    data: JSON
    summary: str
    # The message whose component was used (component interactions, modals opened from one).
    message: SimMessage | None = None
    command_name: str | None = None
    session_id: str | None = None
    dispatched_at: float = 0.0
    callback_type: int | None = None
    acked_at: float | None = None
    expired: bool = False
    original: SimMessage | None = None
    followups: list[SimMessage] = field(default_factory=list)
    responses: list[Response] = field(default_factory=list)
    choices: list[JSON] | None = None
    modal: JSON | None = None
    # Errors the emulator returned to the bot for this interaction (for diagnosis).
    errors: list[ApiError] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        return self.original is not None and self.original.ephemeral

    def message_metadata(self, message: SimMessage) -> JSON:
        """``interaction_metadata`` (and the legacy ``interaction``) for ``message``."""
        metadata: JSON = {
            "id": str(self.id),
            "type": self.type,
            "user": user_payload(self.user),
            "authorizing_integration_owners": self._owners(),
        }
        if self.type == APPLICATION_COMMAND and self.command_name:
            metadata["name"] = self.command_name
        if self.original is not None and message is not self.original:
            metadata["original_response_message_id"] = str(self.original.id)
        if self.message is not None:
            metadata["interacted_message_id"] = str(self.message.id)
        legacy: JSON = {
            "id": str(self.id),
            "type": self.type,
            "name": self.command_name or "",
            "user": user_payload(self.user),
        }
        if self.member is not None:
            legacy["member"] = member_payload(self.member, with_user=False)
        return {"interaction_metadata": metadata, "interaction": legacy}

    def _owners(self) -> JSON:
        if self.guild is not None:
            return {"0": str(self.guild.id)}
        return {"1": str(self.user.id)}


class InteractionHandle:
    """What ``slash``/``click``/... return: wait for and inspect the bot's answers.

    Times are seconds on the event loop's clock, measured from dispatch.
    """

    def __init__(self, record: InteractionRecord, emu: Emulator) -> None:
        self.record = record
        self._emu = emu

    def __repr__(self) -> str:
        return f"<InteractionHandle {self.record.summary!r} ack={self.record.callback_type}>"

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def acked(self) -> bool:
        return self.record.callback_type is not None

    @property
    def ack_type(self) -> int | None:
        return self.record.callback_type

    @property
    def ack_latency(self) -> float | None:
        """Seconds from dispatch to the callback (the 3-second rule's clock)."""
        r = self.record
        return None if r.acked_at is None else r.acked_at - r.dispatched_at

    @property
    def expired(self) -> bool:
        """True if the bot did not acknowledge within the deadline."""
        return self.record.expired

    @property
    def first_response_latency(self) -> float | None:
        """Seconds from dispatch to the first visible answer (message or update)."""
        if not self.record.responses:
            return None
        return self.record.responses[0].at - self.record.dispatched_at

    @property
    def attachment_latency(self) -> float | None:
        """Seconds from dispatch to the first answer carrying an attachment."""
        for response in self.record.responses:
            if response.message.attachments:
                return response.at - self.record.dispatched_at
        return None

    @property
    def original(self) -> SimMessage | None:
        return self.record.original

    @property
    def followups(self) -> list[SimMessage]:
        return list(self.record.followups)

    @property
    def messages(self) -> list[SimMessage]:
        """Distinct messages this interaction produced or changed, in order of first answer."""
        seen: list[SimMessage] = []
        for response in self.record.responses:
            if response.message not in seen:
                seen.append(response.message)
        return seen

    @property
    def ephemeral(self) -> bool:
        return self.record.ephemeral

    @property
    def errors(self) -> list[ApiError]:
        return list(self.record.errors)

    async def wait_until(
        self, check: Callable[[InteractionHandle], Any], timeout: float = 5.0, what: str = ""
    ) -> Any:
        """Wait until ``check(self)`` is truthy and return its value."""
        return await self._emu.bus.notifier.wait_until(
            lambda: check(self),
            timeout,
            lambda: (
                f"{self.record.summary}: timed out after {timeout}s waiting for "
                f"{what or 'a condition'} ({self._state()})"
            ),
        )

    def _state(self) -> str:
        r = self.record
        parts = [f"callback={r.callback_type}", f"responses={len(r.responses)}"]
        if r.expired:
            parts.append("expired")
        if r.errors:
            parts.append(f"errors={[str(e) for e in r.errors]}")
        return ", ".join(parts)

    async def ack(self, timeout: float = 5.0) -> int:
        """Wait for the callback; returns its type (4 reply, 5 defer, 6/7 update, ...)."""
        return int(await self.wait_until(lambda h: h.ack_type, timeout, "an acknowledgement"))

    async def reply(self, timeout: float = 5.0) -> SimMessage:
        """The first visible answer: the reply (after a defer: once filled), a followup, or
        the updated component message."""

        def first(handle: InteractionHandle) -> SimMessage | None:
            responses = handle.record.responses
            return responses[0].message if responses else None

        return await self.wait_until(first, timeout, "a reply")

    async def wait_messages(self, count: int, timeout: float = 5.0) -> list[SimMessage]:
        """Wait until the interaction produced ``count`` distinct messages."""
        return await self.wait_until(
            lambda h: h.messages if len(h.messages) >= count else None,
            timeout,
            f"{count} messages",
        )

    async def attachment_message(self, timeout: float = 5.0) -> SimMessage:
        """The first answer carrying an attachment."""

        def with_file(handle: InteractionHandle) -> SimMessage | None:
            for response in handle.record.responses:
                if response.message.attachments:
                    return response.message
            return None

        return await self.wait_until(with_file, timeout, "an answer with an attachment")

    async def update(self, timeout: float = 5.0) -> SimMessage:
        """The component's message after the bot updated it (type 7, or an edit after 6)."""
        return await self.wait_until(
            lambda h: next((r.message for r in h.record.responses if r.kind == "update"), None),
            timeout,
            "the message to be updated",
        )

    async def choices(self, timeout: float = 5.0) -> list[JSON]:
        """Autocomplete: the choices the bot answered."""
        # Wrapped in a tuple: an empty choice list is a valid (falsy) answer.
        found = await self.wait_until(
            lambda h: (h.record.choices,) if h.record.choices is not None else None,
            timeout,
            "autocomplete choices",
        )
        return list(found[0])

    async def modal(self, timeout: float = 5.0) -> JSON:
        """The modal the bot opened (``{"custom_id", "title", "components"}``)."""
        return await self.wait_until(lambda h: h.record.modal, timeout, "a modal")


class InteractionManager:
    def __init__(self, emu: Emulator, deadline: float) -> None:
        self._emu = emu
        self.deadline = deadline
        self.records: dict[int, InteractionRecord] = {}
        self._by_token: dict[str, InteractionRecord] = {}
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
        if not member.can_view(channel):
            raise SimulationError(f"{member.name} cannot see {channel.label}")
        return channel, member.guild, member

    async def _command(
        self, member: SimMember, command: str | Sequence[str], where: SimChannel | None
    ) -> tuple[list[str], SimChannel, SimGuild | None, SimMember | None, Any]:
        path = split_path(command)
        channel, guild, in_guild = self._place(member, where)
        world = self._emu.world
        try:
            # Give a bot that syncs in on_ready a moment to register its commands.
            registered = await self._emu.bus.notifier.wait_until(
                lambda: world.find_command(guild, path[0]),
                self._emu.command_wait,
                lambda: "",
            )
        except EmulatorTimeout:
            known = sorted({n for n, _ in world.global_commands} | _guild_names(world, guild))
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
            self._emu.world, registered, path, options, guild=guild, channel=channel
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
        channel = message.channel
        if channel.is_dm:
            return channel, None, None
        return self._place(member, channel)

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
        )

    def _payload(self, record: InteractionRecord) -> JSON:
        world = self._emu.world
        bot_perms = record.guild.permissions_of(world.bot.id) if record.guild else perms.ALL
        body: JSON = {
            "id": str(record.id),
            "application_id": str(world.application_id),
            "type": record.type,
            "data": record.data,
            "token": record.token,
            "version": 1,
            "channel_id": str(record.channel.id),
            "app_permissions": str(bot_perms),
            "locale": "en-US",
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": record._owners(),
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        }
        if record.guild is not None and record.member is not None:
            user_perms = record.member.permissions
            body.update(
                guild_id=str(record.guild.id),
                guild={"id": str(record.guild.id), "locale": "en-US", "features": []},
                guild_locale="en-US",
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
        session = await self._emu.bus.notifier.wait_until(
            self._emu.gateway.interaction_session,
            self._emu.command_wait,
            lambda: f"{record.summary}: no bot is connected to the gateway",
        )
        loop = asyncio.get_running_loop()
        self.records[record.id] = record
        self._by_token[record.token] = record
        handle = InteractionHandle(record, self._emu)
        self.handles.append(handle)
        record.session_id = session.id
        record.dispatched_at = loop.time()
        session.dispatch("INTERACTION_CREATE", self._payload(record))
        self._timers.append(loop.call_later(self.deadline, self._check_deadline, record))
        if chat_kind is not None:
            self._emu.bus.emit(
                ChatEvent(chat_kind, record.channel, record.user, record.message, record.summary)
            )
        return handle

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

    # -- the bot's side (REST) ---------------------------------------------------------

    def callback(self, interaction_id: int, token: str, body: MessageBody) -> JSON:
        record = self.records.get(interaction_id)
        if record is None or record.token != token:
            raise ApiError(404, UNKNOWN_INTERACTION, "Unknown interaction")
        try:
            return self._callback(record, body)
        except ApiError as error:
            record.errors.append(error)
            raise

    def _callback(self, record: InteractionRecord, body: MessageBody) -> JSON:
        if record.expired:
            raise ApiError(404, UNKNOWN_INTERACTION, "Unknown interaction")
        if record.callback_type is not None:
            raise ApiError(400, ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged.")
        kind = body.payload.get("type")
        data = body.payload.get("data") or {}
        if kind not in VALID_CALLBACKS.get(record.type, set()) or (
            kind in (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE) and record.message is None
        ):
            raise invalid_form("type", f"Interaction callback type {kind} is not valid here")
        world = self._emu.world
        loop = asyncio.get_running_loop()
        message: SimMessage | None = None
        ephemeral = bool(int(data.get("flags") or 0) & FLAG_EPHEMERAL)
        visible_to = record.user if ephemeral else None
        message_type = 20 if record.type == APPLICATION_COMMAND else 0
        if kind == CHANNEL_MESSAGE:
            message = world.post(
                record.channel,
                world.bot,
                MessageBody(data, body.uploads),
                interaction=record,
                visible_to=visible_to,
                message_type=message_type,
            )
            record.original = message
        elif kind == DEFERRED_CHANNEL_MESSAGE:
            message = world.post(
                record.channel,
                world.bot,
                MessageBody({}, {}),
                interaction=record,
                visible_to=visible_to,
                message_type=message_type,
                extra_flags=FLAG_LOADING,
                allow_empty=True,
            )
            record.original = message
        elif kind == UPDATE_MESSAGE:
            assert record.message is not None
            message = world.edit(record.message, MessageBody(data, body.uploads))
        elif kind == AUTOCOMPLETE_RESULT:
            choices = list(data.get("choices") or [])
            validate_choices(choices)
            record.choices = choices
        elif kind == MODAL:
            self._check_modal(data)
            record.modal = data
        elif kind == DEFERRED_UPDATE_MESSAGE:
            message = record.message
        now = loop.time()
        record.callback_type = kind
        record.acked_at = now
        if message is not None and not message.loading:
            response_kind: ResponseKind = "reply" if kind == CHANNEL_MESSAGE else "update"
            if kind != DEFERRED_UPDATE_MESSAGE:
                record.responses.append(Response(now, response_kind, message))
        self._emu.bus.changed()
        result: JSON = {
            "interaction": {
                "id": str(record.id),
                "type": record.type,
                "activity_instance_id": None,
                "response_message_id": str(message.id) if message else None,
                "response_message_loading": kind == DEFERRED_CHANNEL_MESSAGE,
                "response_message_ephemeral": bool(message and message.ephemeral),
            },
            "resource": {"type": kind},
        }
        if message is not None:
            result["resource"]["message"] = message_payload(message)
        return result

    def _check_modal(self, data: JSON) -> None:
        if not data.get("custom_id") or not 1 <= len(str(data.get("title", ""))) <= 45:
            raise invalid_form("data.title", "Must be between 1 and 45 in length.")
        if not 1 <= len(data.get("components") or []) <= 5:
            raise invalid_form("data.components", "Must be between 1 and 5 in length.")

    def _by_webhook(self, application_id: int, token: str) -> InteractionRecord:
        record = self._by_token.get(token)
        if record is None or application_id != self._emu.world.application_id:
            raise ApiError(404, UNKNOWN_WEBHOOK, "Unknown Webhook")
        return record

    def followup(self, application_id: int, token: str, body: MessageBody) -> SimMessage:
        record = self._by_webhook(application_id, token)
        try:
            return self._followup(record, body)
        except ApiError as error:
            record.errors.append(error)
            raise

    def _followup(self, record: InteractionRecord, body: MessageBody) -> SimMessage:
        if record.callback_type in (None, AUTOCOMPLETE_RESULT):
            raise ApiError(404, UNKNOWN_WEBHOOK, "Unknown Webhook")
        world = self._emu.world
        loop = asyncio.get_running_loop()
        original = record.original
        if record.callback_type == DEFERRED_CHANNEL_MESSAGE and original and original.loading:
            # The first followup fills the "thinking…" message; ephemerality stays the defer's.
            message = world.edit(original, body, finish_loading=True)
            record.responses.append(Response(loop.time(), "reply", message))
            self._emu.bus.changed()
            return message
        ephemeral = bool(int(body.payload.get("flags") or 0) & FLAG_EPHEMERAL)
        message = world.post(
            record.channel,
            world.bot,
            body,
            interaction=record,
            visible_to=record.user if ephemeral else None,
            message_type=20 if record.type == APPLICATION_COMMAND else 0,
        )
        record.followups.append(message)
        record.responses.append(Response(loop.time(), "followup", message))
        self._emu.bus.changed()
        return message

    def _target(self, record: InteractionRecord, message_ref: str) -> SimMessage:
        if message_ref == "@original":
            if record.callback_type in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE):
                message = record.original
            elif record.callback_type in (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE):
                message = record.message
            else:
                message = None
        else:
            wanted = int(message_ref) if message_ref.isdigit() else -1
            candidates = [m for m in [record.original, *record.followups] if m is not None]
            message = next((m for m in candidates if m.id == wanted), None)
        if message is None or message.deleted:
            raise unknown("Message", UNKNOWN_MESSAGE)
        return message

    def get_message(self, application_id: int, token: str, message_ref: str) -> SimMessage:
        return self._target(self._by_webhook(application_id, token), message_ref)

    def edit_message(
        self, application_id: int, token: str, message_ref: str, body: MessageBody
    ) -> SimMessage:
        record = self._by_webhook(application_id, token)
        try:
            message = self._target(record, message_ref)
            loading = message.loading
            message = self._emu.world.edit(message, body, finish_loading=loading)
        except ApiError as error:
            record.errors.append(error)
            raise
        loop = asyncio.get_running_loop()
        if loading:
            kind: ResponseKind = "reply"
        elif message is record.message:
            kind = "update"
        else:
            kind = "edit"
        record.responses.append(Response(loop.time(), kind, message))
        self._emu.bus.changed()
        return message

    def delete_message(self, application_id: int, token: str, message_ref: str) -> None:
        record = self._by_webhook(application_id, token)
        self._emu.world.delete(self._target(record, message_ref))


def _guild_names(world: Any, guild: SimGuild | None) -> set[str]:
    if guild is None:
        return set()
    return {name for name, _ in world.guild_commands.get(guild.id, {})}


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
