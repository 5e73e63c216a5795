"""`schotten-bot migrate-db`: copy a whole database into a new, empty one, then check it.

Typically from the SQLite file of a bot that ran as one process into PostgreSQL, so that it
can run as several; but both ends are any store (`open_store`), so PostgreSQL back to SQLite
works the same way.

Every table, row and column is copied with its ids, through the store's own transaction and
`executemany` (the same code path as the bot's writes), in one transaction on the target: a
failure leaves the target as empty as it was. A target that already holds data is refused,
as the copy would mix two histories. Afterwards, reading from the target only, the row
counts must match the source's and every match must replay from its seed and moves to
exactly its stored state; otherwise the copy is not to be trusted, and the error says so.

Stop the bot before copying: rows written to the source meanwhile may be missed (the counts
would then differ, and the check fails).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg

from bot.store.factory import open_store
from bot.store.interface import (
    Row,
    SchemaTooNew,
    Store,
    StoreUnavailable,
    Tx,
    is_postgres,
    safe_database,
)
from engine.api import MatchSpec, load_match, replay_match

# The bot's tables, each with its primary key, in an order that respects the foreign keys
# (matches before games, moves, rating_history and outbox; challenges before outbox). A
# migration that adds a table must add it here too (tests/bot/test_migrate_db.py checks), or
# the copy is refused.
TABLES: dict[str, tuple[str, ...]] = {
    "settings": ("guild_id",),
    "users": ("user_id",),
    "challenges": ("id",),
    "tournaments": ("id",),
    "tournament_players": ("tournament_id", "user_id"),
    "matches": ("id",),
    "tournament_games": ("tournament_id", "round", "board"),
    "games": ("match_id", "number"),
    "moves": ("match_id", "seq"),
    "ratings": ("guild_id", "game", "user_id"),
    "rating_history": ("match_id", "user_id"),
    "outbox": ("id",),
    "member_languages": ("user_id",),
    "member_notifications": ("user_id",),
    "member_unseen": ("user_id",),
    "forgotten": ("guild_id", "user_id"),
    "vacations": ("id",),
    "refusals": ("kind", "target_id"),
    "dm_channels": ("user_id",),
}
# Tables not copied: the heartbeats of the processes running on the source.
NOT_COPIED = frozenset({"processes"})
# Rows read and written at a time, so memory stays bounded whatever the database's size.
BATCH = 500
# The first bytes of every SQLite database file.
SQLITE_HEADER = b"SQLite format 3\x00"
# How many failed matches an error message lists by number.
LISTED = 20


class MigrationError(Exception):
    """The copy was refused or failed; the message is for the operator."""


class SourceMissing(MigrationError):
    def __init__(self, source: str | Path) -> None:
        super().__init__(
            f"There is no database file at {source}: nothing to copy. Check the path given"
            " to --from (it is not created)."
        )


class TargetNotEmpty(MigrationError):
    """The target holds rows: `counts` says how many, per table."""

    def __init__(self, target: str, counts: dict[str, int]) -> None:
        self.counts = counts
        self.target = target
        self.held = ", ".join(f"{table}: {n} row{'s' * (n != 1)}" for table, n in counts.items())
        super().__init__(
            f"The target {target} already holds data ({self.held}). migrate-db only copies into an"
            " empty database, so nothing was changed. Give a new database, or drop and"
            " recreate this one if its data is not needed."
        )


class CopyFailed(MigrationError):
    """Copying a table failed; the transaction was rolled back, so the target stays empty."""


class CheckFailed(MigrationError):
    """The copy was committed, but it does not match the source or some matches do not
    replay: the target should be dropped. `report` holds what was found."""

    def __init__(self, message: str, report: MigrationReport) -> None:
        self.report = report
        super().__init__(
            f"{message} The copy was committed to {report.target}, but it cannot be trusted:"
            " drop and recreate the target database (delete a SQLite file) before trying again."
        )


@dataclass
class MigrationReport:
    source: str  # as shown to the operator (a URL's password masked)
    target: str
    counts: dict[str, int] = field(default_factory=dict)  # rows copied, per table
    matches_checked: int = 0
    failed: list[tuple[int, str]] = field(default_factory=list)  # (match id, why)

    def summary(self) -> str:
        """What was copied and checked, for the operator (in English, like the command line)."""
        rows = ", ".join(f"{table} {n}" for table, n in self.counts.items())
        lines = [
            f"Copied {self.source} into {self.target}.",
            f"Rows per table: {rows}.",
            f"{_matches(self.matches_checked)} replayed from their seeds and moves to exactly"
            " their stored state.",
        ]
        if self.failed:
            lines.append(f"{_matches(len(self.failed))} did NOT: " + _listed(self.failed))
        return "\n".join(lines)


async def migrate_database(
    source: str | Path,
    target: str | Path,
    *,
    progress: Callable[[str], object] | None = None,
    batch: int = BATCH,
) -> MigrationReport:
    """Copy the database `source` into the empty database `target` (each a SQLite file or a
    `postgresql://` URL; both are migrated to the latest schema first), then check the copy.
    `progress` is told what is happening, a line at a time. Raises `MigrationError`."""
    if not is_postgres(source) and not Path(source).is_file():
        # Opening a missing file would create an empty database, and copy nothing.
        raise SourceMissing(source)
    for database, role in ((source, "source"), (target, "target")):
        if not _sqlite_or_new(database):
            # Refused before opening, with words an operator understands, not SQLite's.
            raise MigrationError(f"The {role} {database} is not a SQLite database file.")
    if _same(source, target):
        raise MigrationError("The source and the target are the same database.")
    src = await _open(source, "source")
    try:
        dst = await _open(target, "target")
        try:
            return await copy_database(src, dst, progress=progress, batch=batch)
        finally:
            await dst.close()
    finally:
        await src.close()


async def copy_database(
    src: Store,
    dst: Store,
    *,
    progress: Callable[[str], object] | None = None,
    batch: int = BATCH,
) -> MigrationReport:
    """`migrate_database` on two open stores."""
    say = progress or (lambda _line: None)
    report = MigrationReport(src.describe(), dst.describe())
    await _check_schemas(src, dst)
    try:
        await _copy(src, dst, report, say, batch)
    except StoreUnavailable as e:
        # The connection broke, perhaps while committing: the copy may or may not be there.
        raise MigrationError(
            f"The target {report.target} stopped answering during the copy; it may or may not"
            " hold the copy now. Drop and recreate it before trying again."
        ) from e
    say("Committed; checking the copy.")
    try:
        await _check(src, dst, report, say, batch)
    except MigrationError:
        raise
    except Exception as e:
        raise CheckFailed(f"Checking the copy failed: {type(e).__name__}: {e}.", report) from e
    return report


async def _copy(
    src: Store, dst: Store, report: MigrationReport, say: Callable[[str], object], batch: int
) -> None:
    """Every table in one transaction on the target, which commits only if all is copied."""
    async with dst.transaction() as tx:
        # Inside the transaction, so that nothing can be written between the look and the copy
        # (SQLite's writer lock; PostgreSQL's unique keys would refuse clashing rows anyway).
        held = {t: n for t in TABLES if (n := await _count_in(tx, t))}
        if held:
            raise TargetNotEmpty(report.target, held)
        for table, key in TABLES.items():
            try:
                report.counts[table] = await _copy_table(src, tx, table, key, batch)
            except Exception as e:
                raise CopyFailed(
                    f"Copying the table {table} failed, so nothing was written to the target:"
                    f" {type(e).__name__}: {e}"
                ) from e
            say(f"{table}: {report.counts[table]} row(s) copied")
        await dst.reset_ids(tx)


async def _open(database: str | Path, role: str) -> Store:
    try:
        if role == "source":
            # A database without the bot's schema is a wrong path or URL, not one to copy:
            # look before migrating it (which would create an empty schema in it).
            store = await open_store(database, upto=0)
            try:
                if await store.version() == 0:
                    raise MigrationError(
                        f"The source {safe_database(database)} is not a schotten-bot database"
                        " (it has no schema): nothing to copy."
                    )
            finally:
                await store.close()
        return await open_store(database, pool_size=2)
    except SchemaTooNew as e:
        raise MigrationError(
            f"The {role} {safe_database(database)} was written by a newer schotten-bot ({e})."
            " Copy with that version."
        ) from e
    except (sqlite3.DatabaseError, asyncpg.PostgresError) as e:
        raise MigrationError(f"Cannot open the {role} {safe_database(database)}: {e}.") from e


def _sqlite_or_new(database: str | Path) -> bool:
    """Whether this is a URL, a file yet to be made, an empty file or a SQLite database."""
    if is_postgres(database) or not Path(database).is_file():
        return True
    with open(database, "rb") as f:
        head = f.read(len(SQLITE_HEADER))
    return head in (b"", SQLITE_HEADER)


def _same(a: str | Path, b: str | Path) -> bool:
    if is_postgres(a) or is_postgres(b):
        return str(a) == str(b)
    return Path(a).resolve() == Path(b).resolve()


async def _check_schemas(src: Store, dst: Store) -> None:
    versions = await src.version(), await dst.version()
    if versions[0] != versions[1]:
        raise MigrationError(
            f"The source's schema is version {versions[0]} and the target's {versions[1]}:"
            " one of them was written by a newer schotten-bot. Copy with that version."
        )
    for store in (src, dst):
        unknown = sorted(set(await store.tables()) - set(TABLES) - NOT_COPIED)
        if unknown:
            raise MigrationError(
                f"{store.describe()} has tables that migrate-db does not know:"
                f" {', '.join(unknown)}. Copying without them would lose data, so nothing"
                " was copied."
            )


async def _count_in(tx: Tx, table: str) -> int:
    row = await tx.fetchone(f"SELECT COUNT(*) FROM {table}")
    return int(row[0]) if row else 0


async def _count(store: Store, table: str) -> int:
    row = await store._one(f"SELECT COUNT(*) FROM {table}")
    return int(row[0]) if row else 0


async def _batches(
    store: Store, table: str, key: Sequence[str], batch: int, columns: str = "*"
) -> AsyncIterator[list[Row]]:
    """The rows of a table in primary-key order, `batch` at a time. Each batch starts after
    the last key of the one before (not at an OFFSET, which rereads every skipped row)."""
    order = ", ".join(key)
    after: tuple[object, ...] | None = None
    while True:
        where = ""
        params: tuple[object, ...] = (batch,)
        if after is not None:
            where = f" WHERE ({order}) > ({', '.join('?' * len(key))})"
            params = (*after, batch)
        rows = await store._all(
            f"SELECT {columns} FROM {table}{where} ORDER BY {order} LIMIT ?", params
        )
        if rows:
            yield rows
        if len(rows) < batch:
            return
        after = tuple(rows[-1][k] for k in key)


async def _copy_table(src: Store, tx: Tx, table: str, key: Sequence[str], batch: int) -> int:
    copied = 0
    async for rows in _batches(src, table, key, batch):
        # The source's own columns, by name, so that no column is left behind.
        columns = list(rows[0].keys())
        marks = ", ".join("?" * len(columns))
        sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})"
        await tx.executemany(sql, [tuple(r) for r in rows])
        copied += len(rows)
    return copied


async def _check(
    src: Store, dst: Store, report: MigrationReport, say: Callable[[str], object], batch: int
) -> None:
    """Read back from the target: the same number of rows as copied and as the source holds,
    and every match replaying to its stored state."""
    for table, copied in report.counts.items():
        there, here = await _count(dst, table), await _count(src, table)
        if there != copied or here != copied:
            raise CheckFailed(
                f"The table {table} has {here} row(s) in the source and {there} in the target,"
                f" but {copied} were copied (was the bot still running?).",
                report,
            )
    say(f"Row counts match: {sum(report.counts.values())} rows in {len(report.counts)} tables.")
    total = report.counts.get("matches", 0)
    async for rows in _batches(dst, "matches", ("id",), batch, columns="id"):
        for row in rows:
            match_id = int(row["id"])
            try:
                if not await replays(dst, match_id):
                    report.failed.append((match_id, "its moves do not replay to its state"))
            except Exception as e:
                report.failed.append((match_id, f"{type(e).__name__}: {e}"))
            report.matches_checked += 1
        say(f"Replayed {report.matches_checked} of {total} match(es).")
    if report.failed:
        for match_id, why in report.failed:
            say(f"Match #{match_id} failed the check: {why}")
        raise CheckFailed(
            f"{len(report.failed)} of {report.matches_checked} match(es) do not replay from"
            f" their seed and moves to their stored state: {_listed(report.failed)}.",
            report,
        )


async def replays(store: Store, match_id: int) -> bool:
    """Whether the match's moves, played from its seed, give exactly its stored state: the
    engine's own reading of what the bot will read."""
    row = await store.match(match_id)
    if row is None:
        return False
    spec = MatchSpec.from_json(json.loads(row["spec"]))
    log = [(int(m["seat"]), str(m["text"])) for m in await store.moves(match_id)]
    rebuilt = replay_match(spec, int(row["seed"]), log)
    stored = load_match(json.loads(row["state"]))
    return json.dumps(rebuilt.to_json(), sort_keys=True) == json.dumps(
        stored.to_json(), sort_keys=True
    )


def _listed(failed: Sequence[tuple[int, str]]) -> str:
    shown = ", ".join(f"#{match_id}" for match_id, _ in failed[:LISTED])
    more = len(failed) - LISTED
    return shown + (f" and {more} more" if more > 0 else "")


def _matches(n: int) -> str:
    """ "1 match", "5 matches"."""
    return f"{n} match" if n == 1 else f"{n} matches"
