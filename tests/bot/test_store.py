"""The SQLite store: migrations, and the one transaction helper."""

import json

import pytest

from bot.migrations import LATEST, MIGRATIONS
from bot.service import GameService
from bot.store import Store
from engine.api import MatchSpec, new_match


async def tables(store):
    rows = await store._all("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    return [r["name"] for r in rows]


async def test_migrates_an_empty_file_to_the_latest_version(db_path):
    store = await Store.open(db_path)
    try:
        assert await store.version() == LATEST == len(MIGRATIONS)
        assert await tables(store) == [
            "challenges",
            "games",
            "matches",
            "moves",
            "outbox",
            "ratings",
            "settings",
            "users",
        ]
        mode = await store._one("PRAGMA journal_mode")
        assert mode[0] == "wal"
        assert await store.synchronous() == 2  # FULL: durable before a commit returns
    finally:
        await store.close()


@pytest.mark.parametrize("old", range(1, LATEST))
async def test_migrates_from_every_earlier_version_keeping_data(db_path, clock, old):
    # A database written by an older bot: version `old`, with a game in progress.
    store = await Store.open(db_path, upto=old)
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
    service = await GameService.open(db_path, clock=clock)
    try:
        assert await service.store.version() == LATEST
        info = await service.match(7)
        assert info.match.to_json() == match.to_json()
        seat = info.match.to_decide
        await service.play(7, info.players[seat], str(info.match.legal_moves()[0]))
        assert (await service.match(7)).version == 1
    finally:
        await service.close()


async def test_a_failed_transaction_writes_nothing(db_path):
    store = await Store.open(db_path)
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


async def test_one_active_match_per_channel_is_enforced_by_the_schema(db_path):
    import sqlite3

    store = await Store.open(db_path)
    values = "(10, 100, 1, 2, 'classic', 'st1', '{}', 1, '{}', 0, 0)"
    cols = "(guild_id, channel_id, player0_id, player1_id, variant, game, spec, seed, state,"
    cols += " due_since, created_at)"
    try:
        async with store.transaction() as tx:
            await tx.run(f"INSERT INTO matches {cols} VALUES {values}")
        with pytest.raises(sqlite3.IntegrityError):
            async with store.transaction() as tx:
                await tx.run(f"INSERT INTO matches {cols} VALUES {values}")
    finally:
        await store.close()
