"""Configuration, the token, the command line, and the sandbox (the README's run command)."""

import asyncio
import re
import sys

import pytest

from bot.cli import _run, main
from bot.config import TOKEN_HELP, ConfigError, load_config
from discord_loopback import Emulator


def test_token_comes_from_the_environment_first(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(
        '[bot]\ntoken = "from-file"\ndatabase = "x.sqlite3"\n[defaults]\nforfeit_hours = 0\n'
    )
    assert load_config(path, environ={}).token == "from-file"
    config = load_config(path, environ={"DISCORD_TOKEN": "from-env"})
    assert config.token == "from-env"
    assert config.defaults.forfeit_hours == 0
    # The token never shows in a repr (and so never in a log line).
    assert "from-env" not in repr(config) and "from-env" not in str(config)


def test_a_missing_token_says_how_to_get_one():
    with pytest.raises(ConfigError) as err:
        load_config(None, environ={}).require_token()
    assert str(err.value) == TOKEN_HELP
    assert "developers/applications" in TOKEN_HELP and "sandbox" in TOKEN_HELP


def test_bad_config_files_are_explained(tmp_path):
    with pytest.raises(ConfigError, match="No config file"):
        load_config(tmp_path / "nope.toml", environ={})
    bad = tmp_path / "bad.toml"
    bad.write_text("[bot\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(bad, environ={})
    odd = tmp_path / "odd.toml"
    odd.write_text("[botz]\n")
    with pytest.raises(ConfigError, match="unknown section"):
        load_config(odd, environ={})


def test_the_example_config_loads(tmp_path):
    from pathlib import Path

    config = load_config(Path(__file__).parents[2] / "config.example.toml", environ={})
    assert config.defaults.reminder_hours == 24 and config.defaults.use_threads
    assert config.token is None


def test_run_without_a_token_exits_with_the_help(capsys, monkeypatch):
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main(["run"]) == 2
    assert "No Discord bot token" in capsys.readouterr().err


async def test_a_rejected_token_is_explained(tmp_path, capsys):
    config = tmp_path / "c.toml"
    config.write_text(f'[bot]\ntoken = "wrong-token"\ndatabase = "{tmp_path / "db.sqlite3"}"\n')
    async with Emulator(token="the-right-token") as emu, emu.point_discord():
        assert await asyncio.wait_for(_run(config), timeout=20) == 2
    assert "Discord rejected the bot token" in capsys.readouterr().err


async def test_the_sandbox_plays_a_whole_game_and_saves_the_pictures(tmp_path, capsys):
    from bot.sandbox import run_sandbox

    out = tmp_path / "pictures"
    assert await run_sandbox("expert", out, seed=3) == 0
    printed = capsys.readouterr().out
    assert "/schotten challenge" in printed and "Accept" in printed
    assert "over after" in printed
    (run,) = out.iterdir()  # each run in its own folder
    assert run.name == "expert-en-seed3"
    names = [p.name for p in run.iterdir()]
    assert any("board" in n for n in names) and any("hand" in n for n in names)


async def test_the_sandbox_can_play_against_the_computer(tmp_path, capsys):
    from bot.sandbox import run_sandbox

    out = tmp_path / "pictures"
    assert await run_sandbox("siege", out, seed=4, computer="easy") == 0
    printed = capsys.readouterr().out
    assert "Computer (easy)" in printed and "over after" in printed
    assert "Accept" not in printed  # no acceptance: the game starts at once


def test_databases_and_shards_in_the_config(tmp_path):
    from pathlib import Path

    path = tmp_path / "c.toml"
    path.write_text(
        '[bot]\ndatabase = "postgresql://bot:s3cret@db.example:5433/schotten"\n'
        'shards = "2-3"\nshard_count = 4\npool_size = 5\n'
    )
    config = load_config(path, environ={})
    # A URL stays as written (a Path would fold its //); its password never shows in logs.
    assert config.database == "postgresql://bot:s3cret@db.example:5433/schotten"
    assert "s3cret" not in repr(config) and "bot:***@db.example:5433" in repr(config)
    assert (config.shards, config.shard_count, config.pool_size) == ((2, 3), 4, 5)
    path.write_text('[bot]\ndatabase = "games.sqlite3"\n')
    assert load_config(path, environ={}).database == Path("games.sqlite3")
    for text, message in [
        ('shards = "0-3"\n', "needs the number of shards in all"),
        ('shards = "0-3"\nshard_count = 2\n', "do not exist among 2"),
        ('shards = "3-1"\nshard_count = 4\n', "range of shard numbers"),
        ('shards = "all"\n', "range of shard numbers"),
        ("shard_count = 0\n", "1 or more"),
    ]:
        path.write_text("[bot]\n" + text)
        with pytest.raises(ConfigError, match=message):
            load_config(path, environ={})


def test_run_checks_shards_given_on_the_command_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    config = tmp_path / "c.toml"
    config.write_text("[bot]\n")
    assert main(["run", "--config", str(config), "--shards", "0-3"]) == 2
    assert "needs the number of shards in all" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["run", "--shards", "x-y"])
    assert "not a range of shards" in capsys.readouterr().err


def test_several_sandbox_processes_need_postgresql(tmp_path, capsys):
    assert main(["sandbox", "--processes", "2", "--out", str(tmp_path)]) == 2
    assert "--database postgresql://" in capsys.readouterr().err
    db = str(tmp_path / "x.sqlite3")
    assert main(["sandbox", "--processes", "2", "--database", db, "--out", str(tmp_path)]) == 2
    assert "SQLite serves one process per file" in capsys.readouterr().err


async def test_the_sandbox_runs_two_bot_processes_on_postgresql(tmp_path, pg_url):
    from bot.sandbox.processes import ROOT
    from bot.service import GameService

    out = tmp_path / "pictures"
    proc = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "bot", "sandbox", "--processes", "2", "--seed", "5"),
        *("--database", pg_url, "--out", str(out)),
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    printed = (await asyncio.wait_for(proc.communicate(), 180))[0].decode()
    assert proc.returncode == 0, printed
    assert "runs shard 0 of 2: Quiet Server 0 and every direct message" in printed
    assert "runs shard 1 of 2: Sandbox Server" in printed
    # The game is on shard 1: its typed moves went to process 2, and the hands' buttons,
    # clicked in direct messages (shard 0), to process 1, which played them.
    answered = re.search(
        r"process 1 \(shard 0\) (\d+), of which (\d+) in direct messages;"
        r" process 2 \(shard 1\) (\d+), of which (\d+) in direct messages",
        printed,
    )
    assert answered, printed
    first, first_dms, second, second_dms = map(int, answered.groups())
    assert first == first_dms > 0 and second > 0 and second_dms == 0
    assert re.search(r"^DM @(\w+) +\1: clicked", printed, re.MULTILINE), printed
    assert "over after" in printed
    service = await GameService.open(pg_url, pool_size=1)
    try:
        rows = await service.store._all("SELECT id, status FROM matches")
        assert [r["status"] for r in rows] == ["finished"]
        assert await service.verify(rows[0]["id"])  # replays from its seed and moves
    finally:
        await service.close()


def test_the_tour_follows_a_game_between_members_in_one_process(tmp_path, capsys):
    out = str(tmp_path)
    assert main(["sandbox", "--tour", "--computer", "easy", "--out", out]) == 2
    assert "--tour follows a game between two members" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []  # refused before anything ran


async def test_unknown_database_schemes_are_refused_and_no_password_is_logged(
    tmp_path, capsys, caplog, unused_tcp_port
):
    """A URL of another database is refused in one line (it was taken for a SQLite path
    and logged with its password); no log line or repr shows a password, whatever the
    scheme."""
    import logging
    from pathlib import Path

    from bot.config import Config
    from discord_loopback import point_discord_at_url

    caplog.set_level(logging.DEBUG)
    path = tmp_path / "c.toml"
    for url in ("mysql://bot:s3cret@127.0.0.1/schotten", "sqlite://bot:s3cret@x/y.db"):
        path.write_text(f'[bot]\ntoken = "t"\ndatabase = "{url}"\n')
        with pytest.raises(ConfigError) as err:
            load_config(path, environ={})
        message = str(err.value)
        assert "\n" not in message and "s3cret" not in message, message
        assert "is not a PostgreSQL URL" in message and "postgresql://" in message, message
        assert await asyncio.to_thread(main, ["run", "--config", str(path)]) == 2
        out = capsys.readouterr()
        assert "is not a PostgreSQL URL" in out.err and out.err.count("\n") == 1, out.err
        assert "s3cret" not in out.err + out.out + caplog.text
    # A PostgreSQL URL: the start-up's log lines mask its password (nothing listens there).
    url = f"postgresql://bot:s3cret@127.0.0.1:{unused_tcp_port}/schotten"
    path.write_text(f'[bot]\ntoken = "t"\ndatabase = "{url}"\n')
    with point_discord_at_url(f"http://127.0.0.1:{unused_tcp_port}"):
        assert await asyncio.wait_for(_run(path), timeout=60) == 3
    out = capsys.readouterr()
    assert "starting with Config(" in caplog.text and "bot:***@127.0.0.1" in caplog.text
    assert "s3cret" not in out.err + out.out + caplog.text
    # A Config made some other way masks any URL's password too, even folded by a Path.
    for database in (
        "mysql://bot:s3cret@127.0.0.1/schotten",
        Path("mysql://bot:s3cret@127.0.0.1/schotten"),
        "postgresql://bot:s3cret@[::1]:5432/schotten?sslmode=require",
        "postgresql://bot@127.0.0.1/schotten?password=s3cret",
    ):
        assert "s3cret" not in repr(Config(database=database)), database
        assert "s3cret" not in str(Config(database=database)), database
