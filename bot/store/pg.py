"""The PostgreSQL backend of the store, through asyncpg: for bots that run several processes
(shards) on one database.

A pool of connections serves reads and transactions; each transaction is READ COMMITTED,
which is enough because every race is settled by the statement that writes: a move's
`UPDATE ... WHERE version = ?` (a second writer waits for the first's row lock, then finds
the version changed), a challenge closed only while open, an announcement or a computer
turn claimed with a lease, one active match per channel by the unique index. Ratings are
read and written under advisory locks taken in a fixed order (`lock_keys`), so two games
that end at once for the same player both count.

The queries are the store's, written with `?`: they are numbered ($1, $2...) once and
cached. A connection that breaks (the server restarting, the network) makes the request
fail with `StoreUnavailable`, which the player reads as "try again"; the pool connects
anew on the next request.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from functools import lru_cache
from typing import Any

import asyncpg

from bot import metrics
from bot.errors import ServiceError
from bot.store.interface import (
    MoveWrite,
    Row,
    SchemaTooNew,
    Store,
    StoreUnavailable,
    Tx,
    safe_database,
)
from bot.store.migrations_pg import LATEST, MIGRATIONS

# An arbitrary number for the advisory lock that migrations hold.
MIGRATION_LOCK = 7_112_017
# What a broken or refused connection raises.
UNAVAILABLE: tuple[type[BaseException], ...] = (
    asyncpg.PostgresConnectionError,
    asyncpg.CannotConnectNowError,
    asyncpg.AdminShutdownError,
    asyncpg.exceptions.CrashShutdownError,
    asyncpg.TooManyConnectionsError,
    ConnectionError,
    OSError,
    TimeoutError,
)


def _unavailable(error: BaseException) -> bool:
    if isinstance(error, UNAVAILABLE):
        return True
    # asyncpg says "connection is closed" / "connection was closed in the middle of operation",
    # or, for a connection the server cut mid-request, that its protocol state is confused.
    if isinstance(error, asyncpg.exceptions._base.InternalClientError):
        return True
    return isinstance(error, asyncpg.InterfaceError) and "connection" in str(error)


@lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """`?` placeholders as PostgreSQL's $1, $2..., leaving quoted text alone."""
    out: list[str] = []
    n = 0
    for part in re.split(r"('(?:[^']|'')*')", sql):
        if part.startswith("'"):
            out.append(part)
            continue
        pieces = part.split("?")
        for i, piece in enumerate(pieces):
            if i:
                n += 1
                out.append(f"${n}")
            out.append(piece)
    return "".join(out)


async def _keep_session(conn: asyncpg.Connection) -> None:
    """What the pool does to a connection given back, instead of asyncpg's default reset
    query (advisory unlock, CLOSE ALL, UNLISTEN, RESET ALL): nothing, which saves a round
    trip on every release (five per move). The store leaves no session state behind: its
    locks are the transaction's (`pg_advisory_xact_lock`), it never SETs, LISTENs or opens a
    cursor, and the migrations' session lock is taken on a connection of their own. asyncpg
    still rolls back a transaction left open before calling this."""


# `PgStore.record_move`: the match's UPDATE with its version check, then the move log,
# the games ended and the announcements inserted for the row it returns (for none if the
# check failed). Data-modifying WITH parts always run to completion.
RECORD_MOVE = """
WITH saved AS (
    UPDATE matches SET state = $1, version = version + 1, to_decide = $2, due_since = $3,
        reminded = 0, status = $4, finished_at = $5, winner = $6, termination = $7,
        ai_lease_until = NULL, turn = $8
    WHERE id = $9 AND version = $10 RETURNING id
), played AS (
    INSERT INTO moves (match_id, seq, seat, text, at)
    SELECT saved.id, x.seq, x.seat, x.text, $3 FROM saved,
        unnest($12::integer[], $13::integer[], $14::text[]) AS x(seq, seat, text)
), ended AS (
    INSERT INTO games (match_id, number, winner, termination, detail, finished_at)
    SELECT saved.id, x.number, x.winner, x.termination, x.detail, $3 FROM saved,
        unnest($15::integer[], $16::integer[], $17::text[], $18::text[])
        AS x(number, winner, termination, detail)
)
INSERT INTO outbox (kind, match_id, version, seat, payload, deferred, created_by, created_at,
    next_try)
SELECT x.kind, saved.id, x.version, x.seat, x.payload, x.deferred, $11, $3, $3 FROM saved,
    unnest($19::text[], $20::integer[], $21::integer[], $22::text[], $23::integer[])
    WITH ORDINALITY AS x(kind, version, seat, payload, deferred, n)
ORDER BY x.n
RETURNING id
"""


def _count(status: str) -> int:
    """Rows changed, from a command status such as "UPDATE 1" or "INSERT 0 1"."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PgTx(Tx):
    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return _count(await self.conn.execute(numbered(sql), *params))

    async def insert(
        self, sql: str, params: Sequence[Any] = (), *, busy: type[ServiceError] | None = None
    ) -> int:
        try:
            return int(await self.conn.fetchval(numbered(sql + " RETURNING id"), *params))
        except asyncpg.UniqueViolationError:
            if busy is not None:
                raise busy() from None
            raise

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self.conn.executemany(numbered(sql), rows)

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        return await self.conn.fetchrow(numbered(sql), *params)

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await self.conn.fetch(numbered(sql), *params))

    async def lock_keys(self, keys: Sequence[str]) -> None:
        for key in sorted(set(keys)):
            await self.conn.execute("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", key)


class PgStore(Store):
    single_process = False
    backend = "postgresql"

    def __init__(self, pool: asyncpg.Pool, dsn: str) -> None:
        super().__init__()
        self.pool = pool
        self.dsn = dsn

    @classmethod
    async def connect(cls, dsn: str, *, upto: int | None, pool_size: int) -> PgStore:
        try:
            pool = await asyncpg.create_pool(
                dsn, min_size=1, max_size=pool_size, command_timeout=30, reset=_keep_session
            )
        except BaseException as e:
            if _unavailable(e):
                raise ConnectionError(f"cannot reach PostgreSQL: {e}") from None
            raise
        assert pool is not None
        store = cls(pool, dsn)
        try:
            await store._migrate(LATEST if upto is None else upto)
        except BaseException:
            await pool.close()
            raise
        return store

    def describe(self) -> str:
        return safe_database(self.dsn)

    async def close(self) -> None:
        await self.pool.close()

    async def _migrate(self, upto: int) -> None:
        # On a connection of its own, closed at the end, so that the session's advisory
        # lock never stays on a pooled connection (see `_keep_session`).
        conn = await asyncpg.connect(self.dsn, command_timeout=30)
        try:
            await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
            try:
                await conn.execute(
                    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"
                )
                current = await conn.fetchval("SELECT max(version) FROM schema_version") or 0
                if current > LATEST:
                    raise SchemaTooNew(current, LATEST)
                for number in range(current + 1, upto + 1):
                    async with conn.transaction():
                        await conn.execute(MIGRATIONS[number - 1])
                        await conn.execute(
                            "INSERT INTO schema_version (version) VALUES ($1)", number
                        )
            finally:
                await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
        finally:
            await conn.close()

    async def version(self) -> int:
        row = await self._one("SELECT max(version) FROM schema_version")
        return int(row[0] or 0) if row else 0

    async def tables(self) -> list[str]:
        rows = await self._all(
            "SELECT table_name AS name FROM information_schema.tables"
            " WHERE table_schema = current_schema() AND table_name != 'schema_version'"
            " ORDER BY table_name"
        )
        return [r["name"] for r in rows]

    async def record_move(
        self, w: MoveWrite, before_commit: Callable[[], None] | None = None
    ) -> list[int] | None:
        """The whole move in one statement, so one round trip and no BEGIN or COMMIT: a
        statement is a transaction of its own, and its parts run only for the match row the
        version check let through (none if it failed). `before_commit` is called first,
        since nothing is written before the statement."""
        if before_commit is not None:
            before_commit()
        status, finished_at, winner, termination = w.ending
        a = w.announcements
        params = (
            *(w.state, w.to_decide, w.now, status, finished_at, winner, termination, w.turn),
            *(w.match_id, w.expected_version, w.boot),
            [w.first_seq + i for i in range(len(w.moves))],
            [seat for seat, _ in w.moves],
            [text for _, text in w.moves],
            *([g[i] for g in w.games] for i in range(4)),
            *([r.kind for r in a], [r.version for r in a], [r.seat for r in a]),
            *([r.payload for r in a], [int(r.deferred) for r in a]),
        )
        try:
            with metrics.database("write"):
                async with self.pool.acquire() as conn:
                    rows = await conn.fetch(RECORD_MOVE, *params)
        except BaseException as e:
            if _unavailable(e):
                raise StoreUnavailable() from e
            raise
        return sorted(int(r[0]) for r in rows) or None

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        try:
            with metrics.database("write"):
                async with self.pool.acquire() as conn, conn.transaction():
                    yield PgTx(conn)
        except BaseException as e:
            if _unavailable(e):
                raise StoreUnavailable() from e
            raise

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        try:
            with metrics.database("read"):
                return await self.pool.fetchrow(numbered(sql), *params)
        except BaseException as e:
            if _unavailable(e):
                raise StoreUnavailable() from e
            raise

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        try:
            with metrics.database("read"):
                return list(await self.pool.fetch(numbered(sql), *params))
        except BaseException as e:
            if _unavailable(e):
                raise StoreUnavailable() from e
            raise

    def json_bool(self, column: str, key: str) -> str:
        return f"({column}::json ->> '{key}')::boolean"

    async def reset_ids(self, tx: Tx) -> None:
        """Identity sequences do not move when rows are inserted with explicit ids (a copy
        from another database): set each to continue after its column's largest id, or at 1
        for an empty table, so that new rows never clash with copied ones."""
        assert isinstance(tx, PgTx)
        columns = await tx.conn.fetch(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND is_identity = 'YES'"
        )
        for c in columns:
            table, column = c["table_name"], c["column_name"]
            await tx.conn.execute(
                f'SELECT setval(pg_get_serial_sequence($1, $2), COALESCE(MAX("{column}"), 0) + 1,'
                f' false) FROM "{table}"',
                table,
                column,
            )
