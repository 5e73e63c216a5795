"""Refusals a test plants: the emulator answers chosen requests with an error Discord could
send (a post's components refused, a route failing with 500), to see what the bot does;
and Discord's outages (``Faults.outage``): every request answered 503 until it is removed.

Faults without a body condition are checked before any route runs; those with one are
checked once a message-bearing request's JSON payload has been read (``http_util``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .errors import ApiError

Condition = Callable[[dict[str, Any]], bool]

# An outage answers 503 Service Unavailable: discord.py raises it at once, where a 500, 502
# or 504 it retries itself up to five times, sleeping 1 + 2n real seconds between tries.
OUTAGE_STATUS = 503
OUTAGE_MESSAGE = "503: Service Unavailable"
# Every route after /api/v10 but those answering an interaction (callback, followups).
BUT_INTERACTIONS = r"^/(?!interactions/|webhooks/)"


@dataclass(eq=False)
class Fault:
    """One planted refusal: requests matching ``method`` and ``path`` (a regular expression
    searched in the path after ``/api/v10``) and, if given, ``when(payload)``, get ``error``;
    ``times`` of them (None: all)."""

    method: str | None
    path: re.Pattern[str] | None
    when: Condition | None
    error: ApiError
    times: int | None
    hits: list[str] = field(default_factory=list)  # "METHOD path" of each refused request
    _owner: Faults | None = field(default=None, repr=False)

    def matches(self, method: str, path: str) -> bool:
        if self.times is not None and len(self.hits) >= self.times:
            return False
        if self.method is not None and self.method != method:
            return False
        return self.path is None or self.path.search(path) is not None

    def remove(self) -> None:
        """Stop refusing (the fault stays readable)."""
        if self._owner is not None and self in self._owner.planted:
            self._owner.planted.remove(self)


class Faults:
    def __init__(self, refused: Callable[[str, ApiError], object]) -> None:
        self.planted: list[Fault] = []
        self._refused = refused  # told of each refusal ("METHOD route", error)

    def plant(
        self,
        error: ApiError,
        *,
        method: str | None = None,
        path: str | None = None,
        when: Condition | None = None,
        times: int | None = None,
    ) -> Fault:
        fault = Fault(
            method.upper() if method else None,
            re.compile(path) if path is not None else None,
            when,
            error,
            times,
            _owner=self,
        )
        self.planted.append(fault)
        return fault

    def outage(self, *, interactions_answered: bool = False) -> Fault:
        """Discord down: every REST request answered 503 until ``fault.remove()``. With
        ``interactions_answered``, a partial outage: interactions are still answered (their
        callbacks and followups), every other request the bot makes fails (posts, DMs,
        edits, threads), as in incidents of message sends failing."""
        error = ApiError(OUTAGE_STATUS, 0, OUTAGE_MESSAGE, planted=True)
        return self.plant(error, path=BUT_INTERACTIONS if interactions_answered else None)

    def check(self, method: str, path: str, payload: dict[str, Any] | None) -> None:
        """Raise the first matching fault's error. ``payload`` None: only faults without a
        body condition apply (the request's body is not read yet)."""
        route = path.split("/api/v10", 1)[-1]
        for fault in self.planted:
            if (fault.when is None) != (payload is None) or not fault.matches(method, route):
                continue
            if fault.when is not None and payload is not None and not fault.when(payload):
                continue
            fault.hits.append(f"{method} {route}")
            self._refused(f"{method} {route}", fault.error)
            raise fault.error
