"""`Faults.outage`: Discord down (every REST request answered 503 until the fault is removed),
or partly down (interactions still answered, every other request failing)."""

from __future__ import annotations

from discord_loopback.faults import OUTAGE_MESSAGE, OUTAGE_STATUS
from tests.discord_loopback.test_emulator import emulator
from tests.discord_loopback.test_rate_limits import http_calls


async def test_an_outage_answers_every_request_503_until_it_ends() -> None:
    async with emulator() as emu, http_calls(emu) as call:
        channel = emu.create_guild("Down").default_channel
        outage = emu.faults.outage()
        for method, route, body in (
            ("GET", "/users/@me", None),
            ("POST", f"/channels/{channel.id}/messages", {"content": "lost?"}),
            ("POST", "/interactions/1/token/callback", {"type": 5}),
        ):
            status, answer, _ = await call(method, route, body)
            assert (status, answer["message"]) == (OUTAGE_STATUS, OUTAGE_MESSAGE)
        assert channel.messages == []
        outage.remove()
        status, _, _ = await call("POST", f"/channels/{channel.id}/messages", {"content": "back"})
        assert status == 200 and [m.content for m in channel.messages] == ["back"]


async def test_a_partial_outage_still_answers_interactions() -> None:
    async with emulator() as emu, http_calls(emu) as call:
        channel = emu.create_guild("Degraded").default_channel
        emu.faults.outage(interactions_answered=True)
        status, _, _ = await call("POST", f"/channels/{channel.id}/messages", {"content": "x"})
        assert status == OUTAGE_STATUS
        # An unknown interaction: refused by the route itself (404), not by the outage.
        status, answer, _ = await call("POST", "/interactions/1/token/callback", {"type": 5})
        assert status != OUTAGE_STATUS and answer["message"] != OUTAGE_MESSAGE
