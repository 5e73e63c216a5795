"""`schotten-bot backup FILE` and `schotten-bot restore FILE`.

A backup of a SQLite database is taken with SQLite's online backup API while the bot runs:
the copy is one consistent snapshot (a single step holds a read transaction, which WAL lets
the bot's writes go on beside), checked with `PRAGMA integrity_check` before it is kept.
PostgreSQL has its own tool, `pg_dump`; the command to run is printed with no password in
it (pg_dump reads PGPASSWORD or ~/.pgpass, or asks).

A restore is `migrate-db` from the backup into the configured database: refused when that
database holds data, and checked afterwards (every game replays to its stored state).
"""

from __future__ import annotations

import asyncio
import os
import shlex
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from bot.store.interface import is_postgres, without_password
from bot.store.migrate import TargetNotEmpty


def restore_refused(error: TargetNotEmpty, config: Path | None) -> str:
    """Why a restore changed nothing, and what the operator can do: the message of
    migrate-db, which restore runs, speaks of its own options (--to), not of restore's."""
    settings = str(config) if config is not None else "the settings file"
    return (
        f"{error.target} already holds data ({error.held}). restore only copies into an empty"
        f" database, so nothing was changed. Stop the bot, then either point [bot] database in"
        f" {settings} at a new SQLite file or an empty PostgreSQL database, or move this"
        " database aside (keep it until the restored one is checked), and run restore again."
    )


class BackupError(Exception):
    """The backup was not made; the message says why."""


@dataclass(frozen=True)
class BackupReport:
    path: Path
    size: int
    matches: int
    moves: int

    def summary(self) -> str:
        games = f"{self.matches} game{'s' * (self.matches != 1)}"  # the CLI speaks English
        moves = f"{self.moves} move{'s' * (self.moves != 1)}"
        return (
            f"Backed up {games} and {moves} into {self.path} ({self.size / 1024:.0f} KB), checked."
        )


def pg_dump_command(url: str, file: Path) -> str:
    """The `pg_dump` line for a PostgreSQL bot, to run as printed: its URL carries no
    password at all (a masked `***` would be sent as the password), so pg_dump takes it from
    PGPASSWORD or ~/.pgpass, or asks for it."""
    return (
        f"pg_dump --format=custom --file {shlex.quote(str(file))}"
        f" {shlex.quote(without_password(url))}"
    )


async def backup(database: str | Path, file: Path) -> BackupReport:
    if is_postgres(database):
        raise BackupError(
            "This bot keeps its games in PostgreSQL, whose own tool makes consistent backups"
            " while it runs. Run this (pg_dump asks for the password, or reads it from"
            f" PGPASSWORD or ~/.pgpass):\n{pg_dump_command(str(database), file)}"
        )
    source = Path(database)
    if not source.is_file():
        raise BackupError(f"There is no SQLite database at {source} to back up.")
    if file.exists():
        raise BackupError(f"{file} already exists; choose a new file (nothing was written).")
    if not file.parent.is_dir():
        raise BackupError(f"The folder {file.parent} does not exist (nothing was written).")
    return await asyncio.to_thread(_backup_sqlite, source, file)


def _backup_sqlite(source: Path, file: Path) -> BackupReport:
    partial = file.with_name(f".{file.name}.partial")
    try:
        src = sqlite3.connect(source, timeout=30)
        try:
            src.execute("PRAGMA busy_timeout = 30000")
            dst = sqlite3.connect(partial)
            try:
                src.backup(dst)  # all pages in one step: one snapshot
                dst.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
                problems = [r[0] for r in dst.execute("PRAGMA integrity_check")]
                if problems != ["ok"]:
                    raise BackupError(f"The copy failed SQLite's integrity check: {problems}")
                matches = dst.execute("SELECT count(*) FROM matches").fetchone()[0]
                moves = dst.execute("SELECT count(*) FROM moves").fetchone()[0]
            finally:
                dst.close()
        finally:
            src.close()
        os.replace(partial, file)  # appears whole, or not at all
    except sqlite3.Error as e:
        raise BackupError(f"Cannot back up {source}: {e}") from None
    finally:
        partial.unlink(missing_ok=True)
    return BackupReport(file, file.stat().st_size, int(matches), int(moves))
