"""Request/response plumbing shared by the REST modules.

discord.py sends JSON bodies, or ``multipart/form-data`` with a ``payload_json`` part and
``files[n]`` parts when there are files (``handle_message_parameters``); both end up as a
``MessageBody``. Errors are raised as ``ApiError`` and turned into Discord's JSON by the
middleware in ``server``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aiohttp import BodyPartReader, web

from .errors import ApiError, invalid_form
from .world import MessageBody, Upload

if TYPE_CHECKING:
    from .server import Emulator

EMULATOR: web.AppKey[Emulator] = web.AppKey("emulator")


@dataclass(frozen=True)
class RequestRecord:
    method: str
    path: str
    status: int


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


async def read_json(request: web.Request) -> Any:
    raw = await request.read()
    if not raw:
        return {}
    try:
        return json.loads(raw)
    except ValueError as error:
        raise ApiError(400, 50109, "The request body contains invalid JSON.") from error


async def read_body(request: web.Request) -> MessageBody:
    """The JSON payload and uploaded files of a message-bearing request."""
    body = await _parse_body(request)
    emulator_of(request).faults.check(request.method, request.path, body.payload)
    return body


async def _parse_body(request: web.Request) -> MessageBody:
    if not request.content_type.startswith("multipart/"):
        payload = await read_json(request)
        if not isinstance(payload, dict):
            raise invalid_form("body", "Expected an object")
        return MessageBody(payload, {})
    body = MessageBody()
    reader = await request.multipart()
    while True:
        part = await reader.next()
        if part is None:
            break
        if not isinstance(part, BodyPartReader):  # nested multipart: not used by Discord
            continue
        name = part.name or ""
        if name == "payload_json":
            body.payload = json.loads(await part.text())
        elif name.startswith("files[") and name.endswith("]"):
            index = int(name[len("files[") : -1])
            data = bytes(await part.read(decode=False))
            body.uploads[index] = Upload(part.filename or f"file{index}", data)
    return body
