"""What happened in the emulated chat, for printing (sandbox) and for waiting (tests).

Every visible change (a message, an edit, a slash command used, a button pressed, a DM that
could not be delivered, an interaction that timed out) becomes a ``ChatEvent``. Subscribers
get them as they happen; ``Notifier`` wakes anything waiting for a condition on the world.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Literal, TypeVar

from .errors import EmulatorTimeout
from .ids import now
from .models import SimChannel, SimMessage, SimUser

T = TypeVar("T")
POLL = 0.02

ChatKind = Literal[
    "message",  # a new message (bot's or a member's)
    "edit",  # a message changed (content, components, attachments or loading finished)
    "delete",
    "command",  # a member ran a slash command
    "click",  # a member pressed a button
    "select",  # a member chose in a select menu
    "modal",  # a member submitted a modal
    "thread",  # a thread was created
    "failure",  # something a user would see fail: undelivered DM, interaction timed out
]


@dataclass(frozen=True)
class ChatEvent:
    kind: ChatKind
    channel: SimChannel | None
    actor: SimUser | None
    message: SimMessage | None = None
    text: str = ""
    at: dt.datetime = field(default_factory=now)


ChatCallback = Callable[[ChatEvent], Awaitable[None] | None]


class Notifier:
    """Wakes waiters whenever the world changes; waiters re-check their own condition."""

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def notify(self) -> None:
        event, self._event = self._event, asyncio.Event()
        event.set()

    async def wait_until(
        self, check: Callable[[], T | None], timeout: float, describe: Callable[[], str]
    ) -> T:
        """Return ``check()`` as soon as it is truthy; raise ``EmulatorTimeout`` after
        ``timeout`` seconds with ``describe()`` as the message."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = check()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise EmulatorTimeout(describe())
            event = self._event
            # Also re-check every POLL seconds: conditions may depend on things outside the
            # emulator (the bot's own state), which never notify.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), min(remaining, POLL))


class ChatStream:
    """``async for event in emulator.chat_events()``: ends when the emulator stops."""

    def __init__(self, bus: Bus) -> None:
        self._queue: asyncio.Queue[ChatEvent | None] = asyncio.Queue()
        self._bus = bus
        self._unsubscribe = bus.subscribe(self._queue.put_nowait)
        bus.streams.add(self)

    def __aiter__(self) -> ChatStream:
        return self

    async def __anext__(self) -> ChatEvent:
        event = await self._queue.get()
        if event is None:
            raise StopAsyncIteration
        return event

    def close(self) -> None:
        self._unsubscribe()
        self._bus.streams.discard(self)
        self._queue.put_nowait(None)


class Bus:
    """Fan-out of chat events to subscribers, plus the change notifier."""

    def __init__(self) -> None:
        self.notifier = Notifier()
        self.log: list[ChatEvent] = []
        self.streams: set[ChatStream] = set()
        self._subscribers: list[Callable[[ChatEvent], object]] = []
        self._tasks: set[asyncio.Task[None]] = set()

    def subscribe(self, callback: Callable[[ChatEvent], object]) -> Callable[[], None]:
        """Call ``callback(event)`` for each event (coroutines are run as tasks).
        Returns a function that unsubscribes."""
        self._subscribers.append(callback)

        def unsubscribe() -> None:
            if callback in self._subscribers:
                self._subscribers.remove(callback)

        return unsubscribe

    def emit(self, event: ChatEvent) -> None:
        self.log.append(event)
        for callback in list(self._subscribers):
            result = callback(event)
            if inspect.isawaitable(result):
                task = asyncio.ensure_future(result)
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
        self.notifier.notify()

    def changed(self) -> None:
        self.notifier.notify()

    async def close(self) -> None:
        """Finish subscriber tasks and end every open stream."""
        for stream in list(self.streams):
            stream.close()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
