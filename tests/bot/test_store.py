"""The store on both backends: migrations, and the one transaction helper."""

import json
import sqlite3

import asyncpg
import pytest

from bot.service import GameService
from bot.store import migrations_pg, open_store
from bot.store.migrations_sqlite import LATEST, MIGRATIONS
from engine.api import MatchSpec, new_match
from engine.phrases import to_json


def test_both_backends_have_the_same_migrations():
    assert len(migrations_pg.MIGRATIONS) == migrations_pg.LATEST == LATEST


async def test_migrates_an_empty_database_to_the_latest_version(database):
    store = await open_store(database)
    try:
        assert await store.version() == LATEST == len(MIGRATIONS)
        assert await store.tables() == [
            "challenges",
            "dm_channels",
            "forgotten",
            "games",
            "matches",
            "member_languages",
            "member_notifications",
            "member_unseen",
            "moves",
            "outbox",
            "processes",
            "rating_history",
            "ratings",
            "refusals",
            "settings",
            "tournament_games",
            "tournament_players",
            "tournaments",
            "users",
            "vacations",
        ]
        if store.backend == "sqlite":
            mode = await store._one("PRAGMA journal_mode")
            assert mode[0] == "wal"
            assert await store.synchronous() == 2  # FULL: durable before a commit returns
    finally:
        await store.close()
    # Opening it again (another process starting) migrates nothing and keeps the version.
    store = await open_store(database)
    try:
        assert await store.version() == LATEST
    finally:
        await store.close()


@pytest.mark.parametrize("old", range(1, LATEST))
async def test_migrates_from_every_earlier_version_keeping_data(database, clock, old):
    # A database written by an older bot: version `old`, with a game in progress.
    store = await open_store(database, upto=old)
    assert await store.version() == old
    match = new_match(MatchSpec("classic"), 5)
    async with store.transaction() as tx:
        await tx.run(
            "INSERT INTO matches (id, guild_id, channel_id, player0_id, player1_id, variant,"
            " game, spec, seed, state, to_decide, due_since, created_at)"
            " VALUES (7, 10, 100, 1, 2, 'classic', 'st1', ?, 5, ?, ?, ?, ?)",
            (
                json.dumps(MatchSpec("classic").to_json()),
                json.dumps(match.to_json()),
                match.to_decide,
                clock.now(),
                clock.now(),
            ),
        )
    await store.close()
    service = await GameService.open(database, clock=clock)
    try:
        assert await service.store.version() == LATEST
        info = await service.match(7)
        assert info.match.to_json() == match.to_json()
        seat = info.match.to_decide
        await service.play(7, info.players[seat], str(info.match.legal_moves()[0]))
        assert (await service.match(7)).version == 1
    finally:
        await service.close()


async def test_a_failed_transaction_writes_nothing(database):
    store = await open_store(database)
    try:
        with pytest.raises(RuntimeError, match="boom"):
            async with store.transaction() as tx:
                await tx.run("INSERT INTO users (user_id, name) VALUES (1, 'Alice')")
                raise RuntimeError("boom")
        assert await store.names([1]) == {}
        async with store.transaction() as tx:
            await tx.run("INSERT INTO users (user_id, name) VALUES (1, 'Alice')")
        assert await store.names([1]) == {1: "Alice"}
    finally:
        await store.close()


async def test_one_active_match_per_channel_is_enforced_by_the_schema(database):
    store = await open_store(database)
    values = "(10, 100, 1, 2, 'classic', 'st1', '{}', 1, '{}', 0, 0)"
    cols = "(guild_id, channel_id, player0_id, player1_id, variant, game, spec, seed, state,"
    cols += " due_since, created_at)"
    try:
        async with store.transaction() as tx:
            await tx.run(f"INSERT INTO matches {cols} VALUES {values}")
        with pytest.raises((sqlite3.IntegrityError, asyncpg.UniqueViolationError)):
            async with store.transaction() as tx:
                await tx.run(f"INSERT INTO matches {cols} VALUES {values}")
    finally:
        await store.close()


async def test_migration_5_keeps_a_turn_under_way_going(database, clock):
    # A game under way on a version 4 database, its player in the middle of a turn: the
    # newest board says its step left them to decide again (open).
    store = await open_store(database, upto=4)
    match = new_match(MatchSpec("classic"), 5)
    seat = match.to_decide
    async with store.transaction() as tx:
        await tx.run(
            "INSERT INTO users (user_id, name) VALUES (1, 'Alice'), (2, 'Bob')",
        )
        await tx.run(
            "INSERT INTO matches (id, guild_id, channel_id, player0_id, player1_id, variant,"
            " game, spec, seed, state, version, to_decide, due_since, created_at)"
            " VALUES (7, 10, 100, 1, 2, 'classic', 'st1', ?, 5, ?, 1, ?, ?, ?)",
            (
                json.dumps(MatchSpec("classic").to_json()),
                json.dumps(match.to_json()),
                seat,
                clock.now(),
                clock.now(),
            ),
        )
        for version, payload in enumerate(
            [
                {"actor": None, "open": False, "events": [], "started": True},
                {"actor": seat, "open": True, "events": ["Earlier step of the turn."]},
            ]
        ):
            await tx.run(
                "INSERT INTO outbox (kind, match_id, version, payload, created_by, created_at,"
                " next_try) VALUES ('board', 7, ?, ?, 'old', 0, 0)",
                (version, json.dumps(payload)),
            )
    await store.close()
    service = await GameService.open(database, clock=clock)
    try:
        info = await service.match(7)
        assert info.names == ("Alice", "Bob")
        assert json.loads(info.turn) == [seat, True, ["Earlier step of the turn."]]
        move = str(info.match.legal_moves()[0])
        result = await service.play(7, info.players[seat], move)
        board = await service.store._one(
            "SELECT payload FROM outbox WHERE match_id = 7 AND kind = 'board' AND version = 2"
        )
        payload = json.loads(board["payload"])
        # The new board continues the turn: its message is edited and lists both steps.
        assert payload["continues"] is True
        assert payload["events"][0] == "Earlier step of the turn."
        # New events are stored as phrases (engine.phrases.to_json), old text as it was.
        assert payload["events"][1:] == [to_json(e.describe(info.names)) for e in result.events]
        assert json.loads((await service.match(7)).turn)[2] == payload["events"]
    finally:
        await service.close()
