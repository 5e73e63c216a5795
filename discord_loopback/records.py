"""Interaction records: what was dispatched to the bot and everything it answered.

Constants are Discord's interaction and callback type numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from .errors import ApiError
from .models import JSON, SimChannel, SimGuild, SimMember, SimMessage, SimUser
from .payloads import member_payload, user_payload

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

# "Interaction tokens are valid for 15 minutes" (discord-api-docs, interactions/receiving-
# and-responding, "Responding to an Interaction" and "Followup Messages").
TOKEN_LIFETIME = 15 * 60.0


@dataclass
class Response:
    """One visible answer: a message created or changed on behalf of the interaction."""

    at: float
    kind: ResponseKind
    message: SimMessage
    # Snapshot: the message may gain or lose files in later edits.
    attachment_count: int = field(init=False)

    def __post_init__(self) -> None:
        self.attachment_count = len(self.message.attachments)


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
    # When Discord created it, on the loopback's clock (``Emulator.now``): its token lives
    # ``TOKEN_LIFETIME`` seconds from then.
    created_at: float = 0.0
    callback_type: int | None = None
    acked_at: float | None = None
    expired: bool = False
    # Why the gateway could not deliver it (its shard was not connected): it failed for the
    # user at once, as on Discord; None once delivered.
    undelivered: str | None = None
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
            "authorizing_integration_owners": self.owners(),
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

    def owners(self) -> JSON:
        if self.guild is not None:
            return {"0": str(self.guild.id)}
        return {"1": str(self.user.id)}
