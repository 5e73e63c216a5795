"""The SQLite backend of the store: one file in WAL mode, through aiosqlite.

One writer connection takes `BEGIN IMMEDIATE` for each transaction, and an asyncio lock
keeps two coroutines from interleaving statements on it; SQLite itself lets one process
write at a time, so a transaction holds every lock it could need. Reads use a second
connection, which in WAL mode sees only committed data, so a read never observes half of
someone else's transaction. The schema's version is `PRAGMA user_version`.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot import metrics
from bot.errors import ServiceError
from bot.store.interface import Row, SchemaTooNew, Store, Tx
from bot.store.migrations_sqlite import LATEST, MIGRATIONS


class SqliteTx(Tx):
    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        cur = await self.conn.execute(sql, params)
        return cur.rowcount

    async def insert(
        self, sql: str, params: Sequence[Any] = (), *, busy: type[ServiceError] | None = None
    ) -> int:
        try:
            cur = await self.conn.execute(sql, params)
        except sqlite3.IntegrityError as e:
            if busy is not None and "UNIQUE" in str(e):
                raise busy() from None
            raise
        assert cur.lastrowid is not None
        return cur.lastrowid

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self.conn.executemany(sql, rows)

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        cur = await self.conn.execute(sql, params)
        return await cur.fetchone()

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        cur = await self.conn.execute(sql, params)
        return list(await cur.fetchall())

    async def lock_keys(self, keys: Sequence[str]) -> None:
        """Nothing to do: `BEGIN IMMEDIATE` already keeps every other writer out."""


class SqliteStore(Store):
    def __init__(
        self, path: Path, writer: aiosqlite.Connection, reader: aiosqlite.Connection
    ) -> None:
        super().__init__()
        self.path = path
        self._writer = writer
        self._reader = reader
        self._lock = asyncio.Lock()

    @classmethod
    async def connect(cls, path: Path, *, upto: int | None, synchronous: str) -> SqliteStore:
        writer = await aiosqlite.connect(path, isolation_level=None)
        reader: aiosqlite.Connection | None = None
        try:
            await writer.execute("PRAGMA journal_mode=WAL")
            await writer.execute(f"PRAGMA synchronous={synchronous.upper()}")
            await writer.execute("PRAGMA foreign_keys=ON")
            await writer.execute("PRAGMA busy_timeout=5000")
            reader = await aiosqlite.connect(path, isolation_level=None)
            await reader.execute("PRAGMA busy_timeout=5000")
            reader.row_factory = sqlite3.Row
            writer.row_factory = sqlite3.Row
            store = cls(path, writer, reader)
            await store._migrate(LATEST if upto is None else upto)
        except BaseException:
            # Each aiosqlite connection runs a thread that would keep the process alive.
            for conn in (reader, writer):
                if conn is not None:
                    await conn.close()
            raise
        return store

    def describe(self) -> str:
        return str(self.path)

    async def close(self) -> None:
        await self._reader.close()
        await self._writer.close()

    async def synchronous(self) -> int:
        """SQLite's synchronous level of the writer (2: FULL, 1: NORMAL)."""
        rows = await self._writer.execute_fetchall("PRAGMA synchronous")
        return int(next(iter(rows))[0])

    async def version(self) -> int:
        row = await self._one("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def tables(self) -> list[str]:
        rows = await self._all("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        return [r["name"] for r in rows]

    async def _migrate(self, upto: int) -> None:
        current = await self.version()
        if current > LATEST:
            raise SchemaTooNew(current, LATEST)
        if current >= upto:
            return
        # Foreign keys off while migrating, so that a migration may rebuild a table others
        # refer to (SQLite's procedure for the changes ALTER TABLE cannot make); each is
        # checked before it commits. The pragma does nothing inside a transaction.
        await self._writer.execute("PRAGMA foreign_keys=OFF")
        try:
            for number in range(current + 1, upto + 1):
                await self._migrate_one(number)
        finally:
            await self._writer.execute("PRAGMA foreign_keys=ON")

    async def _migrate_one(self, number: int) -> None:
        # Each migration and its version number commit together, or not at all.
        script = f"BEGIN IMMEDIATE;\n{MIGRATIONS[number - 1]}\nPRAGMA user_version = {number};"
        async with self._lock:
            try:
                await self._writer.executescript(script)
                # aiosqlite types the rows as an Iterable; they are a list (len below).
                broken = list(await self._writer.execute_fetchall("PRAGMA foreign_key_check"))
                if broken:
                    raise sqlite3.IntegrityError(
                        f"migration {number} would break {len(broken)} foreign key(s)"
                    )
                await self._writer.execute("COMMIT")
            except BaseException:
                if self._writer.in_transaction:
                    await self._writer.execute("ROLLBACK")
                raise

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        with metrics.database("write"):
            async with self._lock:
                conn = self._writer
                if conn.in_transaction:
                    raise RuntimeError("nested transaction")
                await conn.execute("BEGIN IMMEDIATE")
                try:
                    yield SqliteTx(conn)
                except BaseException:
                    if conn.in_transaction:
                        await conn.execute("ROLLBACK")
                    raise
                else:
                    if conn.in_transaction:
                        await conn.execute("COMMIT")

    # Reads run and finish in one call on the reader's thread. Statements left open between
    # awaits would keep the connection's read snapshot alive while other coroutines read,
    # and they would then see data older than what has been committed.

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        with metrics.database("read"):
            rows = await self._reader.execute_fetchall(sql, params)
        return next(iter(rows), None)

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        with metrics.database("read"):
            return list(await self._reader.execute_fetchall(sql, params))

    def json_bool(self, column: str, key: str) -> str:
        # json_extract gives 1 or 0 for JSON true and false.
        return f"json_extract({column}, '$.{key}')"
