"""`schotten-bot backup` while moves keep coming, and `restore` into SQLite or PostgreSQL:
every backup is one consistent moment that replays every game; a restore refuses a
database holding data; a PostgreSQL bot is told the pg_dump command, which works as printed."""

from __future__ import annotations

import asyncio
import random
import sqlite3

from bot.cli import main
from bot.service import GameService
from bot.store.backup import backup
from bot.store.migrate import migrate_database
from tests.bot.conftest import CHANNEL
from tests.bot.test_service import start

GAMES = ("classic", "tactics", "siege", "siege-tactics")


async def stream_of_moves(service: GameService, stop: asyncio.Event, rng: random.Random) -> int:
    """Random moves in four games at once, a new game wherever one ends, until `stop`."""
    ids = [(await start(service, v, channel=CHANNEL + n)).id for n, v in enumerate(GAMES)]
    played = 0
    while not stop.is_set():
        n = rng.randrange(len(ids))
        info = await service.match(ids[n])
        if info.is_over:
            ids[n] = (await start(service, GAMES[n], channel=CHANNEL + n)).id
            continue
        seat = info.match.to_decide
        move = rng.choice(info.match.legal_moves())
        await service.play(info.id, info.players[seat], str(move))
        played += 1
        await asyncio.sleep(0)
    return played


async def test_backups_during_moves_replay_every_game_in_both_stores(tmp_path, pg_url):
    db = tmp_path / "bot.sqlite3"
    service = await GameService.open(db)
    stop = asyncio.Event()
    try:
        stream = asyncio.create_task(stream_of_moves(service, stop, random.Random(30)))
        reports = []
        for n in range(3):
            await asyncio.sleep(0.4)
            reports.append(await backup(db, tmp_path / f"backup-{n}.sqlite3"))
        stop.set()
        played = await stream
    finally:
        await service.close()
    # Taken while the moves went on: each backup holds more than the one before.
    moves = [r.moves for r in reports]
    assert moves == sorted(set(moves)) and moves[0] > 0 and played > moves[-1], (moves, played)
    for n, report in enumerate(reports):
        with sqlite3.connect(report.path) as copy:
            assert copy.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        # A restore (migrate-db's copy) checks that every game replays to its stored state.
        target = pg_url if n == 0 else tmp_path / f"restored-{n}.sqlite3"
        restored = await migrate_database(report.path, target)
        assert restored.matches_checked == report.matches, restored.summary()
        assert not restored.failed, restored.summary()


def test_the_commands(tmp_path, capsys, pg_url):
    db = tmp_path / "bot.sqlite3"
    config = tmp_path / "c.toml"
    config.write_text(f'[bot]\ndatabase = "{db}"\n')

    async def one_game() -> None:
        service = await GameService.open(db)
        try:
            await start(service)
        finally:
            await service.close()

    asyncio.run(one_game())
    file = tmp_path / "copy.sqlite3"
    assert main(["backup", str(file), "--config", str(config)]) == 0
    assert "Backed up 1 game and 0 moves into" in capsys.readouterr().out
    # Never over an existing file.
    assert main(["backup", str(file), "--config", str(config)]) == 2
    assert "already exists" in capsys.readouterr().err
    # A restore into the bot's own database, which holds data, changes nothing.
    assert main(["restore", str(file), "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert "already holds data" in err
    # What the operator should do, in restore's words (issue 39, item 13 d).
    assert "migrate-db" not in err and "restore only copies into an empty database" in err
    assert "[bot] database" in err and str(config) in err
    fresh = tmp_path / "fresh.toml"
    fresh.write_text(f'[bot]\ndatabase = "{tmp_path / "new.sqlite3"}"\n')
    assert main(["restore", str(file), "--config", str(fresh)]) == 0
    assert "1 match" in capsys.readouterr().out
    # PostgreSQL: pg_dump's command, with no password in it.
    secret = pg_url.replace("postgres@", "postgres:Hidden-Pass@")
    pg = tmp_path / "pg.toml"
    pg.write_text(f'[bot]\ndatabase = "{secret}"\n')
    assert main(["backup", str(tmp_path / "pg.dump"), "--config", str(pg)]) == 2
    err = capsys.readouterr().err
    assert "pg_dump --format=custom" in err and "postgresql://postgres@" in err
    assert "Hidden-Pass" not in err and not (tmp_path / "pg.dump").exists()


async def test_the_printed_pg_dump_command_works_as_pasted(tmp_path, capsys, pg_cluster, pg_url):
    """The command printed for a PostgreSQL bot, pasted into a shell with PGPASSWORD set,
    dumps the database (it once carried `***` as the password: refused, an empty file)."""
    import os
    import shutil
    import subprocess

    import asyncpg

    from tests.pg_cluster import GUARDED

    password = "Pasted-Pa55"
    name = pg_url.rsplit("/", 1)[1]
    admin = await asyncpg.connect(pg_cluster.url())
    try:
        await admin.execute(f"DROP ROLE IF EXISTS {GUARDED}")
        await admin.execute(f"CREATE ROLE {GUARDED} LOGIN PASSWORD '{password}'")
        await admin.execute(f"ALTER DATABASE {name} OWNER TO {GUARDED}")
    finally:
        await admin.close()
    # The bot's own database, written through the URL with the password (the cluster asks
    # GUARDED for it).
    secret = pg_url.replace("postgres@", f"{GUARDED}:{password}@")
    service = await GameService.open(secret)
    try:
        await start(service)
    finally:
        await service.close()
    config = tmp_path / "pg.toml"
    config.write_text(f'[bot]\ndatabase = "{secret}"\n')
    dump = tmp_path / "bot dump.pgdump"  # a space: the file is quoted for the shell too
    assert await asyncio.to_thread(main, ["backup", str(dump), "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert password not in err and "***" not in err and "PGPASSWORD" in err, err
    command = [line for line in err.splitlines() if line.startswith("pg_dump ")]
    assert len(command) == 1, err
    assert command[0].endswith(f" postgresql://{GUARDED}@127.0.0.1:{pg_cluster.port}/{name}")
    env = {**os.environ, "PGPASSWORD": password}
    env.pop("PGPASSFILE", None)
    done = subprocess.run(
        ["bash", "-c", command[0]], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert dump.stat().st_size > 0
    if shutil.which("pg_restore"):
        listing = subprocess.run(
            ["pg_restore", "--list", str(dump)], capture_output=True, text=True, check=True
        )
        assert "TABLE public matches" in listing.stdout, listing.stdout
