"""``InteractionHandle``: what ``slash``/``click``/... return to a test or the sandbox."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from .errors import ApiError
from .models import JSON, SimMessage
from .records import InteractionRecord

if TYPE_CHECKING:
    from .server import Emulator

T = TypeVar("T")  # what a handle waits for


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
            if response.attachment_count:
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

    @property
    def undelivered(self) -> str | None:
        """Why the bot never got this interaction (its shard was not connected), or None."""
        return self.record.undelivered

    async def wait_until(
        self, check: Callable[[InteractionHandle], T | None], timeout: float = 5.0, what: str = ""
    ) -> T:
        """Wait until ``check(self)`` is truthy and return its value. For an interaction
        that was not delivered, raise ``EmulatorTimeout`` at once unless ``check`` holds."""
        what = what or "a condition"

        def describe() -> str:
            if self.record.undelivered is not None:
                return f"{self.record.summary}: {what} will never come ({self._state()})"
            return (
                f"{self.record.summary}: timed out after {timeout}s waiting for {what} "
                f"({self._state()})"
            )

        found: T = await self._emu.bus.notifier.wait_until(  # check's first truthy value
            lambda: check(self),
            0 if self.record.undelivered is not None else timeout,
            describe,
        )
        return found

    def _state(self) -> str:
        r = self.record
        if r.undelivered is not None:
            return f"not delivered: {r.undelivered}"
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
                if response.attachment_count:
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
