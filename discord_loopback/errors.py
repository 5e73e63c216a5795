"""Errors: the ones Discord returns to the bot, and the ones the simulation raises to tests.

``ApiError`` carries Discord's real status, JSON error code and message, so discord.py raises
the same ``Forbidden``/``NotFound``/``HTTPException`` it would raise in production.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

# One field error of an "Invalid Form Body": where (the path of keys and indices into the
# request, as Discord's ``errors`` tree nests them), Discord's code and its message.
FieldError = tuple[Sequence[str | int], str, str]


class ApiError(Exception):
    """An error response as Discord sends it: HTTP status plus ``{"code", "message"}``."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        errors: dict[str, Any] | None = None,
        *,
        retry_after: float | None = None,
        planted: bool = False,
        global_limit: bool = False,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.planted = planted  # a test's refusal (``Emulator.refuse``), not a broken rule
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.retry_after = retry_after  # a 429's: seconds to wait (body and header)
        self.global_limit = global_limit  # a 429 of the global limit (its body's `global`)
        self._headers = headers  # a rate limit's own headers (ratelimits.py), if any

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.errors:
            body["errors"] = self.errors
        if self.retry_after is not None:
            body.update(retry_after=self.retry_after, **{"global": self.global_limit})
        return body

    def headers(self) -> dict[str, str]:
        if self.retry_after is None:
            return dict(self._headers or {})
        # Discord's own 429s come through its proxy (Via); one without it is Cloudflare's
        # ban, which clients do not wait out.
        own = self._headers or {}
        return {"Retry-After": f"{self.retry_after:g}", **own, "Via": "1.1 google"}


def unknown(kind: str, code: int) -> ApiError:
    """Discord's 404 family: ``Unknown Channel`` (10003), ``Unknown Message`` (10008), ..."""
    return ApiError(404, code, f"Unknown {kind}")


def error_tree(errors: Iterable[FieldError]) -> dict[str, Any]:
    """Discord's ``errors`` tree: ``{"components": {"0": {"label": {"_errors": [...]}}}}``."""
    tree: dict[str, Any] = {}
    for path, code, message in errors:
        node = tree
        for part in path:
            node = node.setdefault(str(part), {})
        entry = {"code": code, "message": message}
        if entry not in node.setdefault("_errors", []):
            node["_errors"].append(entry)
    return tree


def invalid_form_body(errors: Iterable[FieldError]) -> ApiError:
    """Discord's 400 "Invalid Form Body" (50035) with the per-field error tree it uses."""
    return ApiError(400, INVALID_FORM_BODY, "Invalid Form Body", error_tree(errors))


def invalid_form(
    field: str | Sequence[str | int], message: str, code: str = "BASE_TYPE_INVALID"
) -> ApiError:
    """One field's "Invalid Form Body"; ``field`` is a path list or dotted (``"data.title"``)."""
    path = field.split(".") if isinstance(field, str) else field
    return invalid_form_body([(path, code, message)])


UNKNOWN_CHANNEL = 10003
UNKNOWN_GUILD = 10004
UNKNOWN_MEMBER = 10007
UNKNOWN_MESSAGE = 10008
UNKNOWN_WEBHOOK = 10015
UNKNOWN_USER = 10013
UNKNOWN_COMMAND = 10063
UNKNOWN_INTERACTION = 10062
CANNOT_SEND_EMPTY = 50006
INVALID_FORM_BODY = 50035
INVALID_JSON = 50109
CANNOT_DM = 50007
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
ALREADY_ACKNOWLEDGED = 40060
THREAD_ALREADY_CREATED = 160004
THREAD_LOCKED = 160005
MAX_ACTIVE_THREADS_REACHED = 160006
ARCHIVED_THREAD = 50083
OLD_MESSAGE_EDITS = 30046


class SimulationError(Exception):
    """A test asked for something a real Discord user could not do (the bug is in the test,
    or the bot offered something Discord would refuse to show)."""


class EmulatorTimeout(AssertionError):
    """Waiting for the bot timed out. An ``AssertionError`` so it reads as a test failure."""
