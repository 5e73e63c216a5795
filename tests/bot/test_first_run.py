"""The admin's first run: the config file is found and checked key by key, a machine
without network gets one line, --help explains every option, no voice-library noise, and
the sandbox is repeatable from its seed."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import _run, build_parser, main
from bot.config import ConfigError, load_config
from discord_loopback import Emulator, point_discord_at_url

ROOT = Path(__file__).parents[2]


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[bot]\ntokn = 'x'\n", r"unknown setting `tokn` in \[bot\]\. Did you mean `token`\?"),
        (
            "[defaults]\nforfeit_hour = 5\n",
            r"unknown setting `forfeit_hour` in \[defaults\]\. Did you mean `forfeit_hours`\?",
        ),
        ("[defaults]\nforfeit_hours = -5\n", r"\[defaults\] forfeit_hours = -5 is not valid"),
        ("[bot]\nlog_level = 'LOUD'\n", r"\[bot\] log_level = 'LOUD' is not valid; use DEBUG"),
        ("[bot]\ntimer_seconds = 'soon'\n", r"timer_seconds = 'soon' is not valid; use a number"),
        (
            "[defaults]\nuse_threads = 'false'\n",
            r"use_threads = 'false' is not valid; use true or false, without quotes",
        ),
        ("[computer]\nworkers = 0\n", r"workers = 0 is not valid"),
        ("[botz]\n", r"unknown section \[botz\].*Did you mean `bot`\?"),
    ],
)
def test_a_wrong_setting_is_refused_by_name(tmp_path, text, says):
    path = tmp_path / "config.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as err:
        load_config(path, environ={})
    message = str(err.value)
    assert re.search(says, message), message
    assert message.startswith(str(path)) and "\n" not in message


def test_valid_values_of_every_kind_are_read(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(
        "[bot]\nlog_level = 'debug'\ntimer_seconds = 5\nsynchronous = 'NORMAL'\n"
        "[defaults]\nforfeit_hours = 0\nuse_threads = false\nreminder_hours = 1.5\n"
        "public_analysis = false\n"
    )
    config = load_config(path, environ={})
    assert config.log_level == "DEBUG" and config.timer_seconds == 5.0
    assert config.synchronous == "normal" and config.source == str(path)
    assert config.defaults.forfeit_hours == 0 and config.defaults.use_threads is False
    assert config.defaults.reminder_hours == 1.5 and config.defaults.public_analysis is False


def test_run_reads_the_config_toml_here_without_being_told(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    Path("config.toml").write_text("[bot]\ntokn = 'x'\n")
    assert main(["run"]) == 2
    assert "config.toml: unknown setting `tokn`" in capsys.readouterr().err


async def test_run_says_which_file_it_read(tmp_path, monkeypatch, caplog):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    db = tmp_path / "db.sqlite3"
    Path("config.toml").write_text(f'[bot]\ntoken = "wrong"\ndatabase = "{db}"\n')
    caplog.set_level("INFO", logger="schotten.bot")
    async with Emulator(token="right") as emu, emu.point_discord():
        assert await asyncio.wait_for(_run(None), timeout=20) == 2
    assert "settings read from config.toml" in caplog.text


async def test_no_network_is_one_line(tmp_path, capsys, unused_tcp_port):
    config = tmp_path / "c.toml"
    config.write_text(f'[bot]\ntoken = "t"\ndatabase = "{tmp_path / "db.sqlite3"}"\n')
    # Nothing listens there: as on a machine whose network is down.
    with point_discord_at_url(f"http://127.0.0.1:{unused_tcp_port}"):
        assert await asyncio.wait_for(_run(config), timeout=30) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("Cannot reach Discord") and "\n" not in err
    assert "Traceback" not in err


def test_every_option_has_a_sentence_of_help():
    parser = build_parser()
    subparsers = next(a for a in parser._actions if a.choices and isinstance(a.choices, dict))
    for name, sub in subparsers.choices.items():
        assert sub.description and sub.description.endswith("."), name
        for action in sub._actions:
            if action.dest == "help":
                continue
            assert action.help and action.help.endswith("."), (name, action.dest)
    for choice in subparsers._choices_actions:
        assert choice.help and choice.help.endswith("."), choice.dest


VOICE = """
import logging, sys
logging.basicConfig(level=logging.INFO)
from bot.runner import quiet_voice_warnings
if sys.argv[1] == "quiet":
    quiet_voice_warnings()
from bot.config import Config
from bot.front.client import SchottenBot
SchottenBot(Config())
"""


def test_no_voice_library_warnings():
    def stderr(mode: str) -> str:
        done = subprocess.run(
            [sys.executable, "-c", VOICE, mode], cwd=ROOT, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        return done.stderr

    assert "voice will NOT be supported" in stderr("loud")  # discord.py does warn, here
    assert "voice will NOT be supported" not in stderr("quiet")


def _normal(transcript: str) -> str:
    """Snowflake ids, timestamps and the run's folder differ between runs; nothing else."""
    transcript = re.sub(r"[0-9]{16,20}", "ID", transcript)
    transcript = re.sub(r"<t:[0-9]+:R>", "T", transcript)
    return re.sub(r"classic-en-seed3(-2)?", "RUN", transcript)


async def test_the_sandbox_is_repeatable_from_its_seed_and_keeps_runs_apart(tmp_path, capsys):
    from bot.sandbox import run_sandbox

    out = tmp_path / "out"
    assert await run_sandbox("classic", out, seed=3) == 0
    first = capsys.readouterr().out
    assert await run_sandbox("classic", out, seed=3) == 0
    second = capsys.readouterr().out
    assert sorted(p.name for p in out.iterdir()) == ["classic-en-seed3", "classic-en-seed3-2"]
    assert _normal(first) == _normal(second)
    assert await run_sandbox("classic", out, seed=4) == 0
    other = capsys.readouterr().out
    assert _normal(other).replace("classic-en-seed4", "RUN") != _normal(first)
