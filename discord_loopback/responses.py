"""The bot's side of interactions: callbacks, followups and ``@original`` messages.

Rules enforced, as Discord does:

* an interaction must be acknowledged within the deadline (3 s on Discord); later callbacks
  get 404 ``10062 Unknown interaction`` (the dispatch side flags the record ``expired``);
* one callback per interaction (400 ``40060``), of a type valid for the interaction;
* followups need an acknowledged interaction (404 ``10015 Unknown Webhook``);
* the first followup after a deferred reply (type 5) fills the "thinking…" message and keeps
  the defer's ephemerality, whatever flags the followup carries;
* ``@original`` of a component interaction answered with 6/7 is the component's message;
* (behaviour ``token_expiry``) the token lives 15 minutes from the interaction's creation,
  on the loopback's clock: past that, every webhook request made with it (followups, and
  getting, editing or deleting ``@original`` or a followup) is 401 ``50027 Invalid Webhook
  Token``, and a callback 404 ``10062 Unknown interaction`` (long past its 3 s).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import TYPE_CHECKING

from .errors import (
    ALREADY_ACKNOWLEDGED,
    UNKNOWN_INTERACTION,
    UNKNOWN_MESSAGE,
    UNKNOWN_WEBHOOK,
    ApiError,
    invalid_form,
    unknown,
)
from .models import FLAG_EPHEMERAL, FLAG_LOADING, JSON, SimMessage
from .payloads import message_payload
from .records import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    MODAL,
    TOKEN_LIFETIME,
    UPDATE_MESSAGE,
    VALID_CALLBACKS,
    InteractionRecord,
    Response,
    ResponseKind,
)
from .world import MessageBody

if TYPE_CHECKING:
    from .server import Emulator

# Discord's JSON code for a webhook request whose token is no longer (or never was) valid
# (topics/opcodes-and-status-codes, "JSON Error Codes"), answered with status 401.
INVALID_WEBHOOK_TOKEN = 50027


class InteractionResponder:
    """Serves the callback and webhook routes against the records the dispatcher keeps."""

    def __init__(self, emu: Emulator) -> None:
        self._emu = emu

    def _record(self, interaction_id: int) -> InteractionRecord | None:
        return self._emu.interactions.records.get(interaction_id)

    def token_expired(self, record: InteractionRecord) -> bool:
        """Whether its token is past its 15 minutes (when Discord's behaviour is played)."""
        return (
            self._emu.plays("token_expiry")
            and self._emu.now() - record.created_at >= TOKEN_LIFETIME
        )

    def note_refusal(self, path_params: Mapping[str, str], error: ApiError) -> None:
        """A callback or webhook request refused before it reached this responder (it broke
        Discord's description): keep the error with its interaction, for diagnosis."""
        record: InteractionRecord | None = None
        if path_params.get("interaction_id", "").isdigit():
            record = self._record(int(path_params["interaction_id"]))
        elif "webhook_token" in path_params:
            record = self._emu.interactions.by_token.get(path_params["webhook_token"])
        if record is not None:
            record.errors.append(error)

    def callback(self, interaction_id: int, token: str, body: MessageBody) -> JSON:
        record = self._record(interaction_id)
        if record is None or record.token != token:
            raise ApiError(404, UNKNOWN_INTERACTION, "Unknown interaction")
        try:
            return self._callback(record, body)
        except ApiError as error:
            record.errors.append(error)
            raise

    def _callback(self, record: InteractionRecord, body: MessageBody) -> JSON:
        if record.expired or self.token_expired(record):
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
            record.choices = list(data.get("choices") or [])
        elif kind == MODAL:
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
        interaction: JSON = {
            "id": str(record.id),
            "type": record.type,
            "activity_instance_id": None,
            "response_message_loading": kind == DEFERRED_CHANNEL_MESSAGE,
            "response_message_ephemeral": bool(message and message.ephemeral),
        }
        if message is not None:
            interaction["response_message_id"] = str(message.id)
        result: JSON = {"interaction": interaction}
        # The resource, with the message, only for the callbacks that create or update one.
        if message is not None and kind in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
            result["resource"] = {"type": kind, "message": message_payload(message)}
        return result

    def _by_webhook(self, application_id: int, token: str) -> InteractionRecord:
        record = self._emu.interactions.by_token.get(token)
        if record is None or application_id != self._emu.world.application_id:
            raise ApiError(404, UNKNOWN_WEBHOOK, "Unknown Webhook")
        if self.token_expired(record):
            error = ApiError(401, INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token")
            record.errors.append(error)
            raise error
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
        if (
            record.callback_type == DEFERRED_CHANNEL_MESSAGE
            and original is not None
            and original.loading
            and not original.deleted  # deleted by the bot: a followup is a message of its own
        ):
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
