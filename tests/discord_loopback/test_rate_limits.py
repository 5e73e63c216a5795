"""Behaviours `rate_limits`, `global_rate_limit`, `invalid_request_ban` and `dm_open_limit`
(discord-api-docs, topics/rate-limits; opcodes-and-status-codes for 40003), played on the
loopback's clocks: requests sent by hand, as discord.py sends them, with the bot's token."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import aiohttp

from discord_loopback import Emulator
from discord_loopback.ratelimits import (
    DM_OPEN_LIMIT,
    GLOBAL_LIMIT,
    MESSAGE_POSTS,
    max_in_window,
    route_of,
)
from tests.discord_loopback.test_emulator import emulator

Answer = tuple[int, Any, Any]  # status, body (JSON or text), headers
Call = Callable[..., Awaitable[Answer]]


@asynccontextmanager
async def http_calls(emu: Emulator, token: str | None = None) -> AsyncIterator[Call]:
    headers = {"Authorization": f"Bot {token or emu.token}"}
    async with aiohttp.ClientSession(headers=headers) as http:

        async def call(method: str, route: str, body: Any = None) -> Answer:
            async with http.request(method, emu.api_base + route, json=body) as response:
                if response.content_type == "application/json":
                    data = await response.json()
                else:
                    data = await response.text()
                return response.status, data, response.headers

        yield call


class FrozenClock:
    """A rate clock that moves only when told (the buckets' windows are then exact)."""

    def __init__(self) -> None:
        self.t = 1_700_000_000.0

    def __call__(self) -> float:
        return self.t


async def test_every_answer_carries_its_bucket_and_an_exhausted_bucket_answers_429() -> None:
    clock = FrozenClock()
    async with emulator(rate_clock=clock) as emu, http_calls(emu) as call:
        guild = emu.create_guild("Rates", channels=("one", "two"))
        one, two = guild.channel("one"), guild.channel("two")
        limit, period = MESSAGE_POSTS
        route = f"/channels/{one.id}/messages"
        for i in range(limit):
            status, _, headers = await call("POST", route, {"content": f"m{i}"})
            assert status == 200
            assert headers["X-RateLimit-Limit"] == str(limit)
            assert headers["X-RateLimit-Remaining"] == str(limit - 1 - i)
            assert float(headers["X-RateLimit-Reset-After"]) == period
            assert float(headers["X-RateLimit-Reset"]) == clock.t + period
            assert headers["X-RateLimit-Bucket"]
        status, body, headers = await call("POST", route, {"content": "one too many"})
        assert status == 429
        assert body["retry_after"] == period and body["global"] is False
        assert body["message"] == "You are being rate limited."
        assert headers["Retry-After"] == str(int(period))
        assert headers["X-RateLimit-Scope"] == "user"
        assert headers["X-RateLimit-Remaining"] == "0"
        assert "Via" in headers  # Discord's own 429, which clients wait out
        # Another top-level resource (channel_id) is another bucket, the same route's hash.
        status, _, other = await call("POST", f"/channels/{two.id}/messages", {"content": "x"})
        assert status == 200 and other["X-RateLimit-Bucket"] == headers["X-RateLimit-Bucket"]
        clock.t += period  # the bucket resets
        status, _, headers = await call("POST", route, {"content": "again"})
        assert status == 200 and headers["X-RateLimit-Remaining"] == str(limit - 1)
        assert [r.status for r in emu.invalid_requests] == [429]
        assert emu.invalid_requests[0].route == "POST /channels/{channel_id}/messages"


async def test_the_global_limit_answers_a_global_429_but_not_interaction_endpoints() -> None:
    clock = FrozenClock()
    async with emulator(rate_clock=clock) as emu, http_calls(emu) as call:
        names = [f"c{i}" for i in range(GLOBAL_LIMIT + 1)]
        guild = emu.create_guild("Busy", channels=names)
        channels = [guild.channel(name) for name in names]
        for channel in channels[:GLOBAL_LIMIT]:  # one request each: no route's bucket is out
            status, _, _ = await call("GET", f"/channels/{channel.id}")
            assert status == 200
        status, body, headers = await call("GET", f"/channels/{channels[-1].id}")
        assert status == 429
        assert body["global"] is True and body["retry_after"] > 0
        assert headers["X-RateLimit-Global"] == "true"
        assert headers["X-RateLimit-Scope"] == "global"
        assert "Retry-After" in headers and "Via" in headers
        # An interaction callback is not bound by the global limit: it reaches its route
        # (which knows no such interaction).
        status, body, _ = await call("POST", "/interactions/1/nope/callback", {"type": 1})
        assert status != 429
        clock.t += 1.0
        status, _, _ = await call("GET", f"/channels/{channels[-1].id}")
        assert status == 200


async def test_too_many_invalid_requests_ban_every_request_for_a_while() -> None:
    async with (
        emulator(invalid_request_limit=20, ban_seconds=120) as emu,
        http_calls(emu, token="wrong") as wrong,
        http_calls(emu) as call,
    ):
        for _ in range(20):
            status, _, _ = await wrong("GET", "/users/@me")
            assert status == 401
        assert len(emu.invalid_requests) == 20
        assert {(r.status, r.method, r.route) for r in emu.invalid_requests} == {
            (401, "GET", "GET /users/@me")
        }
        assert emu.max_invalid_requests() == 20
        # Banned: even a good request is refused, by Cloudflare (no JSON, no Via).
        status, body, headers = await call("GET", "/users/@me")
        assert status == 429 and body == "error code: 1015"
        assert "Via" not in headers and "Retry-After" in headers
        emu.advance(121)
        status, _, _ = await call("GET", "/users/@me")
        assert status == 200


async def test_a_bot_under_the_limit_is_not_banned() -> None:
    async with (
        emulator(invalid_request_limit=20, ban_seconds=120) as emu,
        http_calls(emu, token="wrong") as wrong,
        http_calls(emu) as call,
    ):
        for _ in range(19):
            await wrong("GET", "/users/@me")
        emu.advance(601)  # the first 19 leave the 10-minute window
        for _ in range(19):
            await wrong("GET", "/users/@me")
        status, _, _ = await call("GET", "/users/@me")
        assert status == 200
        assert emu.max_invalid_requests() == 19 and len(emu.invalid_requests) == 38


async def test_opening_direct_messages_too_fast_is_refused_with_40003() -> None:
    clock = FrozenClock()
    async with emulator(rate_clock=clock) as emu, http_calls(emu) as call:
        guild = emu.create_guild("Many")
        members = [guild.add_member(f"m{i}") for i in range(DM_OPEN_LIMIT + 1)]
        for member in members[:DM_OPEN_LIMIT]:
            status, body, headers = await call(
                "POST", "/users/@me/channels", {"recipient_id": str(member.id)}
            )
            if status == 429:  # the route's own bucket: wait it out, as discord.py does
                clock.t += float(headers["Retry-After"])
                status, body, _ = await call(
                    "POST", "/users/@me/channels", {"recipient_id": str(member.id)}
                )
            assert status == 200, body
        last = {"recipient_id": str(members[-1].id)}
        status, body, headers = await call("POST", "/users/@me/channels", last)
        if status == 429:
            clock.t += float(headers["Retry-After"])
            status, body, _ = await call("POST", "/users/@me/channels", last)
        assert status == 403
        assert body == {"code": 40003, "message": "You are opening direct messages too fast"}
        clock.t += 60.0
        status, _, _ = await call("POST", "/users/@me/channels", last)
        assert status == 200


def test_buckets_are_per_route_and_top_level_resource() -> None:
    assert route_of("POST", "/channels/12/messages") == (
        "POST /channels/{channel_id}/messages",
        "12",
    )
    assert route_of("PATCH", "/webhooks/5/tok/messages/@original") == (
        "PATCH /webhooks/{webhook_id}/{token}/messages/@original",
        "5+tok",
    )
    assert route_of("POST", "/interactions/7/tok/callback") == (
        "POST /interactions/{id}/{token}/callback",
        "",
    )
    assert route_of("PUT", "/applications/3/guilds/4/commands") == (
        "PUT /applications/{id}/guilds/{guild_id}/commands",
        "4",
    )
    assert max_in_window([0, 1, 599, 600, 1300], 600) == 3
