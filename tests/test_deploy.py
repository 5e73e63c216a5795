"""deploy/: what can be checked without systemd running or a Docker daemon.

The units pass `systemd-analyze verify`; they and the image run the console script's own
commands with settings files the bot's loader accepts; the compose file points the bot at
its PostgreSQL service; the backup unit's commands, run for real, write a backup where
docs/running.md says and keep 14 days. What is not run here is said in that doc.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from bot.cli import build_parser
from bot.config import load_config
from bot.service import GameService
from tests.bot.test_service import start

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
UNIT = DEPLOY / "schotten-bot.service"
BACKUP_UNIT = DEPLOY / "schotten-bot-backup.service"
TIMER = DEPLOY / "schotten-bot-backup.timer"
DOC = ROOT / "docs" / "running.md"

# Where the units expect things (docs/running.md says the same).
VENV = "/opt/schotten-bot/.venv"
STATE = "/var/lib/schotten-bot"
CONFIG = "/etc/schotten-bot/config.toml"
# The environment the bot reads: the token (bot/config.py) and the PostgreSQL password,
# which asyncpg takes from PGPASSWORD when the URL has none.
BOT_ENVIRONMENT = {"DISCORD_TOKEN", "PGPASSWORD"}


def unit(path: Path) -> dict[str, list[str]]:
    """A unit file's settings, `Key` -> its values in order (keys may repeat)."""
    found: dict[str, list[str]] = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith(("#", ";", "[")):
            key, _, value = line.partition("=")
            found.setdefault(key.strip(), []).append(value.strip())
    return found


def one(settings: dict[str, list[str]], key: str) -> str:
    values = settings.get(key, [])
    assert len(values) == 1, f"{key}: {values}"
    return values[0]


def unescaped(command: str) -> str:
    """A systemd command line as the shell gets it: $$ and %% are systemd's escapes."""
    return command.replace("$$", "$").replace("%%", "%")


def yaml_subset(text: str) -> object:
    """The YAML compose.yaml is written in (PyYAML is not a dependency): block mappings and
    sequences by indentation, plain or double-quoted scalars, JSON-style flow sequences,
    comments. Anything else fails the test rather than being misread."""
    lines = []
    for raw in text.splitlines():
        stripped = raw.split(" #")[0].rstrip() if not raw.lstrip().startswith("#") else ""
        if stripped.strip():
            lines.append((len(stripped) - len(stripped.lstrip()), stripped.strip()))

    def scalar(token: str) -> object:
        if token.startswith("["):
            return json.loads(token)
        if token.startswith('"'):
            return json.loads(token)
        assert not token.startswith(("{", "'", "&", "*", "|", ">")), token
        return int(token) if token.isdigit() else token

    def block(i: int, indent: int) -> tuple[object, int]:
        if lines[i][1].startswith("- "):
            items = []
            while i < len(lines) and lines[i][0] == indent and lines[i][1].startswith("- "):
                items.append(scalar(lines[i][1][2:].strip()))
                i += 1
            return items, i
        mapping: dict[str, object] = {}
        while i < len(lines) and lines[i][0] == indent:
            key, sep, rest = lines[i][1].partition(":")
            assert sep and (not rest or rest.startswith(" ")), lines[i][1]
            assert key not in mapping, f"{key} twice"
            i += 1
            if rest.strip():
                mapping[key] = scalar(rest.strip())
            elif i < len(lines) and lines[i][0] > indent:
                mapping[key], i = block(i, lines[i][0])
            else:
                mapping[key] = None
        return mapping, i

    parsed, end = block(0, 0)
    assert end == len(lines), f"not understood: {lines[end]}"
    return parsed


def compose() -> dict:
    return yaml_subset((DEPLOY / "compose.yaml").read_text())


def readme_install() -> str:
    """The README's set-up command, up to the sandbox it then runs (README.md first; the
    docs if it ever moves there)."""
    texts = [(ROOT / "README.md").read_text()]
    texts += [p.read_text() for p in sorted((ROOT / "docs").glob("*.md")) if p != DOC]
    for line in "\n".join(texts).splitlines():
        if line.startswith("python3 -m venv .venv && ") and "schotten-bot sandbox" in line:
            return line.split(" && .venv/bin/schotten-bot")[0]
    raise AssertionError("README.md has no set-up command")


def console_scripts() -> dict[str, str]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]


def command_of(argv: list[str], program_prefix: str) -> object:
    """The parsed arguments of a `schotten-bot ...` command line, checking its program is
    the console script (where the install puts it)."""
    program = Path(argv[0])
    assert program.name in console_scripts(), argv[0]
    assert str(program.parent) == program_prefix, argv[0]
    return build_parser().parse_args(argv[1:])


@pytest.mark.skipif(not shutil.which("systemd-analyze"), reason="no systemd-analyze here")
def test_units_pass_systemd_analyze_verify(tmp_path):
    # The install's venv is this one here (verify checks the program exists).
    here = Path(sys.prefix)
    assert (here / "bin" / "schotten-bot").exists(), "the console script is not installed"
    for source in (UNIT, BACKUP_UNIT, TIMER):
        (tmp_path / source.name).write_text(source.read_text().replace(VENV, str(here)))
    files = sorted(str(p) for p in tmp_path.iterdir())
    done = subprocess.run(
        ["systemd-analyze", "verify", *files], capture_output=True, text=True, timeout=60
    )
    # Unknown keys and the like are only warnings to verify: none may be printed.
    assert done.returncode == 0 and not done.stdout + done.stderr, done.stdout + done.stderr


def test_the_service_runs_the_console_script_with_its_data_in_its_state_folder():
    settings = unit(UNIT)
    args = command_of(shlex.split(one(settings, "ExecStart")), f"{VENV}/bin")
    assert args.command == "run" and str(args.config) == CONFIG
    assert one(settings, "WorkingDirectory") == STATE
    assert "schotten-bot" in one(settings, "StateDirectory").split()
    assert one(settings, "ReadWritePaths") == STATE
    assert one(settings, "User") not in ("", "root")
    assert one(settings, "Restart") == "on-failure"
    assert one(settings, "NoNewPrivileges") == "yes"
    assert one(settings, "ProtectSystem") == "strict"
    # The token from a file outside the repository, never in the unit itself.
    assert one(settings, "EnvironmentFile").startswith("/etc/schotten-bot/")
    assert not settings.get("Environment"), "the unit sets no environment of its own"
    # Its settings (deploy/schotten-bot.toml, installed as CONFIG): the bot's loader
    # accepts them, and the database is an absolute path in the state folder.
    config = load_config(DEPLOY / "schotten-bot.toml", environ={})
    assert isinstance(config.database, Path) and config.database.is_absolute()
    assert str(config.database.parent) == STATE
    assert config.token is None, "the token belongs in the environment file"


def test_the_image_installs_and_runs_as_the_readme_says():
    text = (DEPLOY / "Containerfile").read_text()
    runs = re.findall(r"^RUN (.+)$", text, re.MULTILINE)
    assert readme_install() in runs, runs
    entry = json.loads(re.search(r"^ENTRYPOINT (.+)$", text, re.MULTILINE).group(1))
    cmd = json.loads(re.search(r"^CMD (.+)$", text, re.MULTILINE).group(1))
    workdir = re.search(r"^WORKDIR (\S+)\n(?:(?!WORKDIR).*\n)*?RUN python3 -m venv", text, re.M)
    args = command_of(entry + cmd, f"{workdir.group(1)}/.venv/bin")
    assert args.command == "run" and str(args.config) == CONFIG
    # The bot starts in its own home, not in the code's folder.
    assert re.findall(r"^WORKDIR (\S+)$", text, re.MULTILINE)[-1] == STATE


def test_compose_points_the_bot_at_its_postgresql_service():
    services = compose()["services"]
    bot, db = services["bot"], services["db"]
    assert db["image"].startswith("postgres:")
    assert "pg_isready" in " ".join(db["healthcheck"]["test"])
    assert bot["depends_on"]["db"]["condition"] == "service_healthy"
    assert bot["build"]["dockerfile"] == "deploy/Containerfile"
    # The database keeps its data in a named volume.
    volume, _, where = db["volumes"][0].partition(":")
    assert where == "/var/lib/postgresql/data" and volume in compose()["volumes"]
    # The bot's settings file is mounted where the image's CMD reads it, and is one the
    # bot's loader accepts.
    mounted = dict(v.split(":")[1::-1] for v in bot["volumes"])
    assert CONFIG in mounted, bot["volumes"]
    config = load_config(DEPLOY / mounted[CONFIG], environ={})
    url = urlsplit(str(config.database))
    assert url.scheme == "postgresql" and url.password is None
    assert services[url.hostname]["image"] == db["image"], url.hostname
    assert url.username == db["environment"]["POSTGRES_USER"]
    assert url.path.lstrip("/") == db["environment"]["POSTGRES_DB"]
    # Secrets only from deploy/.env, and only what the bot reads.
    assert set(bot["environment"]) <= BOT_ENVIRONMENT, bot["environment"]
    for value in (*bot["environment"].values(), db["environment"]["POSTGRES_PASSWORD"]):
        assert re.fullmatch(r"\$\{\w+:\?[^}]*\}", value), value
    assert bot["environment"]["PGPASSWORD"].startswith("${POSTGRES_PASSWORD:")
    # Its health check asks the bot's own /healthz.
    assert f":{config.metrics_port}/healthz" in " ".join(bot["healthcheck"]["test"])
    # The backup service dumps the bot's database.
    assert str(config.database) in " ".join(services["backup"]["command"])


def test_the_environment_the_units_give_is_what_the_bot_reads():
    assert load_config(None, environ={"DISCORD_TOKEN": "t"}).token == "t"
    names = {line.split("=")[0] for line in (DEPLOY / "env.example").read_text().splitlines()}
    names.discard("")
    names = {n for n in names if not n.startswith("#")}
    assert names == {"DISCORD_TOKEN", "POSTGRES_PASSWORD"}, names
    # Every variable the compose file interpolates is one env.example offers.
    used = set(re.findall(r"\$\{(\w+)", (DEPLOY / "compose.yaml").read_text()))
    assert used <= names, used - names


async def test_the_backup_unit_writes_where_the_doc_says_and_keeps_14_days(tmp_path):
    # The state folder and settings of a real install, moved into tmp_path.
    state = tmp_path / "state"
    (state / "backups").mkdir(parents=True)
    config = tmp_path / "config.toml"
    config.write_text((DEPLOY / "schotten-bot.toml").read_text().replace(STATE, str(state)))
    service = await GameService.open(load_config(config).database)
    try:
        await start(service, "classic")
    finally:
        await service.close()
    day = 86400
    old, recent = (
        state / "backups" / "schotten-old.sqlite3",
        state / "backups" / "schotten-5.sqlite3",
    )
    for path, age in ((old, 15 * day), (recent, 5 * day)):
        path.write_bytes(b"")
        os.utime(path, (time.time() - age, time.time() - age))

    settings = unit(BACKUP_UNIT)
    assert "schotten-bot/backups" in one(settings, "StateDirectory").split()
    for key in ("ExecStart", "ExecStartPost"):
        command = unescaped(one(settings, key))
        command = command.replace(VENV, sys.prefix).replace(CONFIG, str(config))
        command = command.replace(STATE, str(state))
        done = subprocess.run(shlex.split(command), capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, (key, done.stdout, done.stderr)
        if key == "ExecStart":
            assert "Backed up 1 game" in done.stdout, done.stdout
    kept = sorted(p.name for p in (state / "backups").iterdir())
    made = [n for n in kept if re.fullmatch(r"schotten-\d{4}-\d\d-\d\d-\d{6}\.sqlite3", n)]
    assert len(made) == 1 and set(kept) == {*made, recent.name}, kept
    # The doc says where the backups are, under both ways of running.
    doc = DOC.read_text()
    assert f"{STATE}/backups/schotten-YYYY-MM-DD-HHMMSS.sqlite3" in doc
    mount = compose()["services"]["backup"]["volumes"][0].split(":")[0]
    assert f"deploy/{mount.removeprefix('./')}/schotten-YYYY-MM-DD-HHMMSS.dump" in doc


def test_the_doc_names_every_deploy_file_and_the_timer_runs_the_backup():
    doc = DOC.read_text()
    # Not deploy/.env and deploy/backups/: an install's own, which git ignores.
    for path in sorted(p for p in DEPLOY.iterdir() if p.name not in (".env", "backups")):
        assert f"deploy/{path.name}" in doc, path.name
    assert one(unit(TIMER), "OnCalendar") == "daily"
    # The timer starts the unit of its own name.
    assert TIMER.with_suffix(".service").exists()
