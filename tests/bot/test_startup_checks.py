"""`schotten-bot run` opens its database before it logs in to Discord, and each way that
fails is one line naming the setting and the cause, the password masked, exit status 3.
Discord is unreachable in every test here: a check made after the login would say so."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import asyncpg

from bot.cli import _run
from bot.store.migrations_pg import LATEST as PG_LATEST
from bot.store.migrations_sqlite import LATEST as SQLITE_LATEST
from discord_loopback import point_discord_at_url
from tests.pg_cluster import GUARDED

PASSWORD = "pa55-Word-never-shown"


async def start(tmp_path: Path, database: str, port: int, capsys) -> tuple[int, str]:
    config = tmp_path / "c.toml"
    config.write_text(f'[bot]\ntoken = "t"\ndatabase = "{database}"\n')
    with point_discord_at_url(f"http://127.0.0.1:{port}"):  # nothing listens there
        code = await asyncio.wait_for(_run(config), timeout=60)
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Traceback" not in err and "Discord" not in err, err
    assert "the `database` setting in [bot]" in err, err
    return code, err


async def test_a_missing_folder(tmp_path, capsys, unused_tcp_port):
    code, err = await start(tmp_path, str(tmp_path / "nowhere" / "bot.db"), unused_tcp_port, capsys)
    assert code == 3 and "its folder" in err and "does not exist" in err


async def test_a_folder_that_is_a_file(tmp_path, capsys, unused_tcp_port):
    (tmp_path / "plain").write_text("x")
    code, err = await start(tmp_path, str(tmp_path / "plain" / "bot.db"), unused_tcp_port, capsys)
    assert code == 3 and "plain" in err and "does not exist (or is not a folder)" in err


async def test_a_file_that_is_not_a_database(tmp_path, capsys, unused_tcp_port):
    notes = tmp_path / "notes.txt"
    notes.write_text("these are my notes, not a database\n" * 200)
    code, err = await start(tmp_path, str(notes), unused_tcp_port, capsys)
    assert code == 3 and "is not a SQLite database" in err
    assert notes.read_text().startswith("these are my notes")  # left as it was


async def test_a_sqlite_schema_newer_than_the_code(tmp_path, capsys, unused_tcp_port):
    path = tmp_path / "bot.db"
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {SQLITE_LATEST + 1}")
    code, err = await start(tmp_path, str(path), unused_tcp_port, capsys)
    assert code == 3 and "newer schotten-bot" in err and f"version {SQLITE_LATEST + 1}" in err


async def test_postgresql_unreachable(tmp_path, capsys, unused_tcp_port_factory):
    db_port, discord_port = unused_tcp_port_factory(), unused_tcp_port_factory()
    url = f"postgresql://bot:{PASSWORD}@127.0.0.1:{db_port}/schotten"
    code, err = await start(tmp_path, url, discord_port, capsys)
    assert code == 3 and f"Cannot reach PostgreSQL at 127.0.0.1:{db_port}" in err
    assert PASSWORD not in err and "bot:***@" in err


async def test_postgresql_missing_database(tmp_path, capsys, unused_tcp_port, pg_cluster):
    url = pg_cluster.url("no_such_database")
    code, err = await start(tmp_path, url, unused_tcp_port, capsys)
    assert code == 3 and "has no database 'no_such_database'" in err
    assert "createdb no_such_database" in err


async def test_postgresql_wrong_password(tmp_path, capsys, unused_tcp_port, pg_cluster, pg_url):
    admin = await asyncpg.connect(pg_cluster.url())
    try:
        await admin.execute(f"DROP ROLE IF EXISTS {GUARDED}")
        await admin.execute(f"CREATE ROLE {GUARDED} LOGIN PASSWORD 'the-right-one'")
    finally:
        await admin.close()
    url = pg_url.replace("postgres@", f"{GUARDED}:{PASSWORD}@")
    code, err = await start(tmp_path, url, unused_tcp_port, capsys)
    assert code == 3 and f"refused the password of user {GUARDED}" in err
    assert PASSWORD not in err and f"{GUARDED}:***@" in err


async def test_a_postgresql_schema_newer_than_the_code(tmp_path, capsys, unused_tcp_port, pg_url):
    conn = await asyncpg.connect(pg_url)
    try:
        await conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        await conn.execute("INSERT INTO schema_version VALUES ($1)", PG_LATEST + 1)
    finally:
        await conn.close()
    code, err = await start(tmp_path, pg_url, unused_tcp_port, capsys)
    assert code == 3 and "newer schotten-bot" in err and f"version {PG_LATEST + 1}" in err


async def test_a_good_database_goes_on_to_discord(tmp_path, capsys, unused_tcp_port):
    code, _ = await start_ok(tmp_path, unused_tcp_port, capsys)
    assert code == 1  # the next failure is Discord's own line


async def start_ok(tmp_path: Path, port: int, capsys) -> tuple[int, str]:
    config = tmp_path / "c.toml"
    config.write_text(f'[bot]\ntoken = "t"\ndatabase = "{tmp_path / "bot.db"}"\n')
    with point_discord_at_url(f"http://127.0.0.1:{port}"):
        code = await asyncio.wait_for(_run(config), timeout=60)
    err = capsys.readouterr().err.strip()
    assert err.startswith("Cannot reach Discord"), err
    assert (tmp_path / "bot.db").exists()  # opened and migrated before the login
    return code, err


def test_the_whole_output_of_a_failed_start_is_its_line(tmp_path):
    """As an admin sees it: the process's whole stderr, beside its log lines, is one line
    (no driver thread's traceback when the event loop closes). Discord is never asked."""
    for database in (tmp_path / "nowhere" / "bot.db", tmp_path / "notes.txt"):
        (tmp_path / "notes.txt").write_text("not a database\n" * 100)
        config = tmp_path / "c.toml"
        config.write_text(f'[bot]\ntoken = "t"\ndatabase = "{database}"\n')
        done = subprocess.run(
            [sys.executable, "-m", "bot", "run", "--config", str(config)],
            capture_output=True,
            text=True,
            timeout=120,
            env={k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"},
        )
        lines = [ln for ln in done.stderr.splitlines() if " INFO " not in ln]
        assert done.returncode == 3 and len(lines) == 1, done.stderr
        assert lines[0].startswith(("Cannot create the SQLite database", str(database)))
