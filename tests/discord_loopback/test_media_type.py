"""The loopback Discord reads a request's media type as aiohttp's `content_type` does,
without its slow parser (discord_loopback/http_util.py `media_type`)."""

from __future__ import annotations

import pytest
from aiohttp.test_utils import make_mocked_request
from multidict import CIMultiDict

from discord_loopback.http_util import media_type


@pytest.mark.parametrize(
    "header",
    [
        None,
        "",
        "application/json",
        "Application/JSON; charset=utf-8",
        "multipart/form-data; boundary=0a1b2c3d4e5f",
        'multipart/form-data;boundary="x;y"',
        "  text/plain ;x=1",
        "application/x-www-form-urlencoded",
    ],
)
def test_the_media_type_is_aiohttps(header: str | None) -> None:
    headers = CIMultiDict() if header is None else CIMultiDict({"Content-Type": header})
    request = make_mocked_request("POST", "/api/v10/channels/1/messages", headers=headers)
    assert media_type(request) == request.content_type
