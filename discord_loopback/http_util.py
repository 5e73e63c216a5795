"""Request/response plumbing shared by the REST modules.

discord.py sends JSON bodies, or ``multipart/form-data`` with a ``payload_json`` part and
``files[n]`` parts when there are files (``handle_message_parameters``); both end up as a
``MessageBody``. Errors are raised as ``ApiError`` and turned into Discord's JSON by the
middleware in ``server``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import BodyPartReader, web

from .errors import INVALID_JSON, ApiError, FieldError, invalid_form
from .world import MessageBody, Upload

if TYPE_CHECKING:
    from .server import Emulator

EMULATOR: web.AppKey[Emulator] = web.AppKey("emulator")


@dataclass(frozen=True)
class RequestRecord:
    method: str
    path: str
    status: int


@dataclass(frozen=True)
class RefusedRequest:
    """A request Discord would refuse as malformed (400, 50035 Invalid Form Body or 50109
    invalid JSON), with Discord's error tree."""

    method: str
    path: str
    code: int
    errors: dict[str, Any]

    @property
    def summary(self) -> str:
        """``POST /api/v10/channels/1/messages 50035: content: BASE_TYPE_MAX_LENGTH ...``"""
        return f"{self.method} {self.path} {self.code}: " + "; ".join(
            f"{'.'.join(path) or '(body)'}: {code} {message}"
            for path, code, message in _flatten(self.errors, [])
        )


def _flatten(tree: dict[str, Any], path: list[str]) -> list[tuple[list[str], str, str]]:
    found = [(path, e["code"], e["message"]) for e in tree.get("_errors", [])]
    for key, child in tree.items():
        if key != "_errors" and isinstance(child, dict):
            found += _flatten(child, [*path, key])
    return found


@dataclass(frozen=True)
class ResponseMismatch:
    """A response of the emulator that its operation's response schema does not admit."""

    method: str
    path: str
    status: int
    errors: list[FieldError]


def emulator_of(request: web.Request) -> Emulator:
    return request.app[EMULATOR]


def json_response(data: Any, status: int = 200) -> web.Response:
    # Exactly "application/json", no charset: discord.py's ``json_or_text`` compares the
    # header verbatim and would otherwise hand the raw text to its parsers.
    body = json.dumps(data, separators=(",", ":")).encode()
    return web.Response(body=body, status=status, content_type="application/json")


def no_content() -> web.Response:
    return web.Response(status=204)


def snowflake(request: web.Request, name: str) -> int:
    """A path parameter that must be a snowflake (Discord answers 404 otherwise)."""
    raw = request.match_info[name]
    if not raw.isdigit():
        raise ApiError(404, 0, "404: Not Found")
    return int(raw)


@dataclass
class RequestBody:
    """A request's body, read once (by the middleware, to validate it): the JSON payload (of
    a multipart body, its ``payload_json``) and the uploaded files by index."""

    payload: Any = None
    uploads: dict[int, Upload] = field(default_factory=dict)
    present: bool = False


BODY: web.RequestKey[RequestBody] = web.RequestKey("body", RequestBody)


def media_type(request: web.Request) -> str:
    """The request's media type ("multipart/form-data"), what aiohttp's `content_type` says,
    read without its parser: that one goes through the email package, 0.4 ms a request for a
    multipart body, whose boundary differs every time (so its cache never helps)."""
    kind = request.headers.get("Content-Type", "").partition(";")[0].strip().lower()
    return kind or "application/octet-stream"  # what aiohttp says of a body with no type


async def parse_body(request: web.Request) -> RequestBody:
    """Read the body and keep it on the request for the handler."""
    body = RequestBody()
    if media_type(request).startswith("multipart/"):
        body.present = True
        reader = await request.multipart()
        while True:
            part = await reader.next()
            if part is None:
                break
            if not isinstance(part, BodyPartReader):  # nested multipart: not used by Discord
                continue
            name = part.name or ""
            if name == "payload_json":
                body.payload = _json(await part.read(decode=False))
            elif name.startswith("files[") and name.endswith("]"):
                index = int(name[len("files[") : -1])
                data = bytes(await part.read(decode=False))
                body.uploads[index] = Upload(part.filename or f"file{index}", data)
    else:
        raw = await request.read()
        if raw:
            body.present = True
            body.payload = _json(raw)
    request[BODY] = body
    return body


def _json(raw: bytes | bytearray) -> Any:
    try:
        return json.loads(raw)
    except ValueError as error:
        raise ApiError(400, INVALID_JSON, "The request body contains invalid JSON.") from error


async def _body(request: web.Request) -> RequestBody:
    body = request.get(BODY)
    return body if body is not None else await parse_body(request)


async def read_json(request: web.Request) -> Any:
    body = await _body(request)
    return {} if body.payload is None else body.payload


async def read_body(request: web.Request) -> MessageBody:
    """The JSON payload and uploaded files of a message-bearing request."""
    body = await _body(request)
    payload = {} if body.payload is None else body.payload
    if not isinstance(payload, dict):
        raise invalid_form("body", "Expected an object")
    emulator_of(request).faults.check(request.method, request.path, payload)
    return MessageBody(payload, dict(body.uploads))
