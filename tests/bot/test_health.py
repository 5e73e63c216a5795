"""`/healthz` and `/metrics` of a bot playing through the emulator: the counters move with
the game (moves, commands, refusals, acknowledgements, database time), the database's
figures are read at the scrape, and a relay stuck on Discord's errors turns health to 503."""

from __future__ import annotations

import asyncio
import logging

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot import metrics
from bot.front.health import LAG_LIMIT
from bot.sandbox import running_bot, wait_for_announcements
from bot.time_source import ManualClock
from tests.bot.test_e2e import start_game


@pytest.fixture
def bot_database(database):
    return database  # both stores


async def scrape(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    async with (
        aiohttp.ClientSession() as http,
        http.get(f"http://127.0.0.1:{port}/metrics") as response,
    ):
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/plain")
        text = await response.text()
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


async def health(port: int) -> tuple[int, dict]:
    async with (
        aiohttp.ClientSession() as http,
        http.get(f"http://127.0.0.1:{port}/healthz") as response,
    ):
        return response.status, await response.json()


def failures(figures: dict[tuple[str, tuple[tuple[str, str], ...]], float]) -> float:
    return sum(v for (n, _), v in figures.items() if n == "schotten_relay_failures_total")


def delta(after, before, metric, **labels) -> float:
    key = (metric, tuple(sorted(labels.items())))
    return after.get(key, 0.0) - before.get(key, 0.0)


async def test_a_game_moves_the_figures_and_a_stuck_relay_is_unhealthy(world, unused_tcp_port):
    emu, guild, alice, bob, _, db = world
    port = unused_tcp_port
    clock = ManualClock()
    async with running_bot(emu, db, clock, metrics_port=port) as bot:
        before = await scrape(port)
        info = await start_game(bot, emu, guild, alice, bob, game="classic")
        thread = emu.world.channel(info.channel_id)
        members = {alice.id: alice, bob.id: bob}
        for _ in range(2):
            info = await bot.service.match(info.id)
            mover = members[info.deciding_user]
            move = str(info.match.legal_moves()[0])
            await (await mover.slash(("schotten", "move"), where=thread, notation=move)).reply()
        info = await bot.service.match(info.id)
        wrong = await (
            await members[info.deciding_user].slash(
                ("schotten", "move"), where=thread, notation="Z9 1"
            )
        ).reply()
        assert wrong.ephemeral
        after = await scrape(port)
        assert delta(after, before, "schotten_moves_total", by="member") == 2
        command = {"kind": "application_command"}
        assert (
            delta(after, before, "schotten_interactions_total", **command, name="schotten move")
            == 3
        )
        assert (
            delta(after, before, "schotten_interactions_total", kind="component", name="sch:a") == 1
        )
        assert (
            sum(
                delta(after, before, n, kind=k)
                for (n, labels) in after
                if n == "schotten_refusals_total"
                for k in [dict(labels)["kind"]]
            )
            == 1
        )
        assert delta(after, before, "schotten_ack_seconds_count") >= 4
        assert delta(after, before, "schotten_database_seconds_count", op="read") > 0
        assert delta(after, before, "schotten_database_seconds_count", op="write") >= 3
        assert after[("schotten_games_under_way", ())] == 1
        assert after[("schotten_gateway_connected", (("shard", "0"),))] == 1
        assert after[("schotten_outbox_pending", ())] >= 0
        status, body = await health(port)
        assert status == 200 and body["status"] == "ok" and body["database"] == "ok", body
        assert body["gateway"] == {"0": True} and body["games_under_way"] == 1
        # Discord answers 503 to every post for a quarter of an hour: the next board waits.
        outage = emu.refuse(503, 0, "Service Unavailable", method="POST", path=r"/messages$")
        info = await bot.service.match(info.id)
        mover = members[info.deciding_user]
        move = str(info.match.legal_moves()[0])
        await (await mover.slash(("schotten", "move"), where=thread, notation=move)).reply()
        # The relay's first try runs after the move's answer: wait for Discord's refusal of it.
        stuck = await scrape(port)
        for _ in range(200):
            if failures(stuck) > 0:
                break
            await asyncio.sleep(0.05)
            stuck = await scrape(port)
        # Retried for as long as it lasts: degraded, and how many wait since when (once the
        # relay stored its failed try).
        status, body = await health(port)
        for _ in range(200):
            if body["outbox"]["retrying"]:
                break
            await asyncio.sleep(0.05)
            status, body = await health(port)
        assert status == 200 and body["status"] == "degraded", body
        assert body["outbox"]["retrying"] >= 1 and "problem" in body["outbox"]
        clock.advance(seconds=LAG_LIMIT + 60)
        status, body = await health(port)
        assert status == 503 and body["status"] == "unhealthy", body
        assert body["outbox"]["pending"] >= 1 and body["outbox"]["oldest_seconds"] > LAG_LIMIT
        assert body["outbox"]["retrying_since_seconds"] > LAG_LIMIT
        stuck = await scrape(port)
        assert stuck[("schotten_outbox_retrying", ())] >= 1
        assert stuck[("schotten_outbox_oldest_seconds", ())] > LAG_LIMIT
        assert failures(stuck) > 0
        outage.remove()


async def test_invalid_requests_are_counted_by_status_and_route(world, unused_tcp_port):
    emu, guild, alice, bob, _, db = world
    port = unused_tcp_port
    bob.dms_open = alice.dms_open = False  # the first hand by DM is answered 403 (50007)
    async with running_bot(emu, db, ManualClock(), metrics_port=port) as bot:
        before = await scrape(port)
        info = await start_game(bot, emu, guild, alice, bob)
        await wait_for_announcements(bot, info.id)
        after = await scrape(port)
        route = {"status": "403", "route": "POST /channels/{id}/messages"}
        assert delta(after, before, "schotten_invalid_requests_total", **route) >= 1
        refused = [r for r in emu.invalid_requests if r.status == 403]
        assert refused and all(r.route == "POST /channels/{channel_id}/messages" for r in refused)


def test_invalid_requests_warn_once_past_1_percent_of_discords_limit(caplog):
    clock = ManualClock()
    invalid = metrics.InvalidRequests(clock.now)
    caplog.set_level(logging.INFO, logger="schotten.bot")

    def warnings() -> list[str]:
        return [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]

    for _ in range(metrics.INVALID_WARN_AT - 1):
        invalid.answered("POST", "/api/v10/channels/1/messages", 403, None)
        invalid.answered("GET", "/api/v10/users/@me", 200, None)  # not invalid
        invalid.answered("POST", "/api/v10/channels/1/messages", 429, "shared")  # not counted
    assert warnings() == []
    for _ in range(50):
        invalid.answered("POST", "/api/v10/channels/1/messages", 403, None)
        clock.advance(seconds=1)
    assert len(warnings()) == 1 and "POST /channels/{id}/messages" in warnings()[0]
    clock.advance(seconds=metrics.INVALID_WINDOW)  # the rate falls back below
    invalid.answered("DELETE", "/api/v10/channels/1/messages/2", 401, None)
    assert not invalid.over and len(warnings()) == 1
    for _ in range(metrics.INVALID_WARN_AT):
        invalid.answered("DELETE", "/api/v10/channels/1/messages/2", 401, None)
    assert len(warnings()) == 2
