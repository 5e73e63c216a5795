"""Behaviour `token_expiry`: "Interaction tokens are valid for 15 minutes" (discord-api-docs,
interactions/receiving-and-responding). Past them, every webhook request made with the token
is 401 `50027 Invalid Webhook Token`, and a callback is `10062 Unknown interaction`; before
them, the same requests are answered. Time is the loopback's (`emu.advance`)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import aiohttp

from discord_loopback import Emulator, InteractionHandle
from tests.discord_loopback.test_emulator import emulator, populate, running_bot

LIFETIME = 15 * 60
Call = Callable[[str, str, Any], Awaitable[tuple[int, Any]]]


@asynccontextmanager
async def http_calls() -> AsyncIterator[Call]:
    """Requests as the bot's webhook adapter sends them: no bot token, JSON bodies."""
    async with aiohttp.ClientSession() as http:

        async def call(method: str, url: str, body: Any = None) -> tuple[int, Any]:
            async with http.request(method, url, json=body) as response:
                data = await response.json() if response.content_length else None
                return response.status, data

        yield call


def urls(emu: Emulator, handle: InteractionHandle) -> tuple[str, str]:
    token = handle.record.token
    hook = f"{emu.api_base}/webhooks/{emu.application_id}/{token}"
    return hook, f"{emu.api_base}/interactions/{handle.id}/{token}/callback"


async def answered_with_a_followup(emu: Emulator, call: Call, handle: InteractionHandle) -> str:
    """Defer by hand, fill the reply, send a followup: the id of that followup."""
    hook, callback = urls(emu, handle)
    status, _ = await call("POST", callback, {"type": 5})
    assert status == 204
    status, _ = await call("POST", hook, {"content": "filled"})
    assert status == 200
    status, body = await call("POST", hook, {"content": "a followup"})
    assert status == 200
    return str(body["id"])


async def test_a_token_is_refused_after_15_minutes_for_every_webhook_request() -> None:
    async with emulator() as emu:
        server = populate(emu)
        async with running_bot(emu, server.guild), http_calls() as call:
            handle = await server.alice.slash("schotten ignore")
            hook, _ = urls(emu, handle)
            followup = await answered_with_a_followup(emu, call, handle)
            emu.advance(LIFETIME - 60)  # 14 minutes on: still valid
            status, _ = await call("PATCH", f"{hook}/messages/@original", {"content": "late"})
            assert status == 200
            emu.advance(61)  # 15 minutes and a second
            requests = [
                ("POST", hook, {"content": "too late"}),
                ("PATCH", f"{hook}/messages/@original", {"content": "too late"}),
                ("GET", f"{hook}/messages/@original", None),
                ("PATCH", f"{hook}/messages/{followup}", {"content": "too late"}),
                ("DELETE", f"{hook}/messages/{followup}", None),
                ("DELETE", f"{hook}/messages/@original", None),
            ]
            for method, url, body in requests:
                status, answer = await call(method, url, body)
                assert (status, answer) == (
                    401,
                    {"code": 50027, "message": "Invalid Webhook Token"},
                ), (method, url)
            # Nothing changed: the reply and the followup are as they were.
            assert handle.original is not None and handle.original.content == "late"
            assert [m.content for m in handle.followups] == ["a followup"]
            assert [e.code for e in handle.record.errors] == [50027] * len(requests)
            assert [r.status for r in emu.requests if "/webhooks/" in r.path][-len(requests) :] == [
                401
            ] * len(requests)


async def test_a_callback_after_15_minutes_is_an_unknown_interaction() -> None:
    async with emulator() as emu:
        server = populate(emu)
        async with running_bot(emu, server.guild), http_calls() as call:
            handle = await server.alice.slash("schotten ignore")
            _, callback = urls(emu, handle)
            emu.advance(LIFETIME + 1)  # before the 3 s timer has even run
            status, body = await call("POST", callback, {"type": 4, "data": {"content": "x"}})
            assert (status, body["code"]) == (404, 10062)
            assert not handle.acked


async def test_without_the_behaviour_a_token_lives_on() -> None:
    async with emulator(without={"token_expiry"}) as emu:
        assert not emu.plays("token_expiry")
        server = populate(emu)
        async with running_bot(emu, server.guild), http_calls() as call:
            handle = await server.alice.slash("schotten ignore")
            hook, _ = urls(emu, handle)
            await answered_with_a_followup(emu, call, handle)
            emu.advance(LIFETIME * 4)
            status, _ = await call("PATCH", f"{hook}/messages/@original", {"content": "late"})
            assert status == 200
