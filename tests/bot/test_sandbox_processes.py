"""The command line of a bot in a child process (bot/sandbox/processes.py) carries the
settings the benchmarks give it."""

from __future__ import annotations

from pathlib import Path

from bot.config import Config
from bot.sandbox.processes import BotProcess, _parser, child_config
from discord_loopback import Emulator


def _config_of(process: BotProcess, database: Path) -> Config:
    argv = process.command()
    at = argv.index("bot.sandbox.processes")
    return child_config(_parser().parse_args(argv[at + 1 :]), str(database))


def test_the_render_workers_reach_the_child_config(tmp_path: Path) -> None:
    emu = Emulator()  # not started: only its address is read
    database = tmp_path / "bot.sqlite3"
    default = _config_of(BotProcess(emu, database, log=tmp_path / "a.log"), database)
    assert default.render_workers == Config(database=database).render_workers == 1
    threads = BotProcess(emu, database, log=tmp_path / "b.log", render_workers=0)
    assert "--render-workers" in threads.command()
    assert _config_of(threads, database).render_workers == 0
    two = _config_of(BotProcess(emu, database, log=tmp_path / "c.log", render_workers=2), database)
    assert (two.render_workers, two.database, two.timer_seconds) == (2, database, 3600.0)
