"""Configuration: a TOML file (see config.example.toml) plus the environment.

The token comes from DISCORD_TOKEN or from the untracked config file, never from the
repository, and it is never logged: `Config.__repr__` hides it.
"""

from __future__ import annotations

import difflib
import os
import re
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.store import SYNCHRONOUS, Settings, is_postgres, safe_database
from lang import LANGUAGES

TOKEN_HELP = (
    "No Discord bot token. Create an application at https://discord.com/developers/applications,"
    " add a bot to it, copy its token, and either set DISCORD_TOKEN in the environment or put"
    ' `token = "..."` under [bot] in your config.toml (which git ignores). To try the bot'
    " without a token, run `schotten-bot sandbox`."
)


class ConfigError(Exception):
    """The configuration cannot be used; the message says how to fix it."""


@dataclass(frozen=True)
class Config:
    token: str | None = field(default=None, repr=False)
    database: Path | str = Path("schotten.sqlite3")  # a SQLite file or a postgresql:// URL
    synchronous: str = "full"  # SQLite durability: "full" (power-cut safe) or "normal"
    pool_size: int = 10  # PostgreSQL connections per process, at most
    shards: tuple[int, int] | None = None  # the first and last shard this process runs
    shard_count: int | None = None  # shards in all (None: as Discord recommends)
    dev_guild: int | None = None  # sync commands to this server at once, for development
    log_level: str = "INFO"
    timer_seconds: float = 60.0
    metrics_port: int | None = None  # /healthz and /metrics over HTTP (None: not served)
    metrics_host: str = "127.0.0.1"
    computer_workers: int = 1
    render_workers: int = 1  # processes drawing pictures; 0: threads of the bot's process
    defaults: Settings = field(default_factory=lambda: Settings(0))
    source: str = "the defaults"  # the file the settings were read from

    def __repr__(self) -> str:
        token = "set" if self.token else "missing"
        return (
            f"Config(token={token}, database={safe_database(self.database)!r},"
            f" dev_guild={self.dev_guild})"
        )

    def require_token(self) -> str:
        if not self.token:
            raise ConfigError(TOKEN_HELP)
        return self.token


# Every key the file may hold: section -> key -> (kind, check, what a valid value is).
_Check = Callable[[Any], bool]
_KEYS: dict[str, dict[str, tuple[type, _Check, str]]] = {
    "bot": {
        "token": (str, bool, "the bot's token, a non-empty string"),
        "database": (
            str,
            bool,
            'a SQLite file path, or a PostgreSQL URL such as "postgresql://bot@localhost/schotten"',
        ),
        "pool_size": (int, lambda v: 1 <= v <= 100, "a whole number of connections, 1 to 100"),
        "shards": (
            str,
            lambda v: parse_shards(v) is not None,
            'a range of shard numbers such as "0-3", or one number such as "2"',
        ),
        "shard_count": (int, lambda v: 1 <= v <= 10000, "a whole number of shards, 1 or more"),
        "synchronous": (
            str,
            lambda v: v.lower() in SYNCHRONOUS,
            '"full" (every acknowledged move survives a power cut, the default) or "normal"'
            " (faster; survives a crash of the bot but may lose the last moves to a power cut)",
        ),
        "dev_guild": (int, lambda v: v >= 0, "a server id, or 0 for none"),
        "log_level": (str, lambda v: v.upper() in LOG_LEVELS, "DEBUG, INFO, WARNING or ERROR"),
        "timer_seconds": (float, lambda v: 1 <= v <= 3600, "a number of seconds from 1 to 3600"),
        "metrics_port": (int, lambda v: 0 <= v <= 65535, "a TCP port, 1 to 65535 (0: none)"),
        "metrics_host": (
            str,
            bool,
            'the address to listen on, "127.0.0.1" (this machine only, the default) or'
            ' "0.0.0.0" (every network: put it behind a firewall)',
        ),
    },
    "defaults": {
        "reminder_hours": (float, lambda v: 0 < v <= 720, "a number of hours above 0, up to 720"),
        "forfeit_hours": (float, lambda v: 0 <= v <= 720, "a number of hours, 0 (never) to 720"),
        "challenge_hours": (float, lambda v: 0 < v <= 720, "a number of hours above 0, up to 720"),
        "use_threads": (bool, lambda v: True, "true or false, without quotes"),
        "public_analysis": (bool, lambda v: True, "true or false, without quotes"),
        "vacation_days": (int, lambda v: 0 <= v <= 366, "a whole number of days, 0 to 366"),
        "language": (
            str,
            lambda v: v.lower() in ("auto", *LANGUAGES),
            '"auto" (each server\'s Discord language, the default), "en", "fr" or "de"',
        ),
    },
    "computer": {
        "workers": (int, lambda v: 1 <= v <= 32, "a whole number from 1 to 32"),
    },
    "render": {
        "workers": (int, lambda v: 0 <= v <= 32, "a whole number from 0 to 32"),
    },
}
LOG_LEVELS: tuple[str, ...] = ("DEBUG", "INFO", "WARNING", "ERROR")


def _language(text: str) -> str | None:
    """A `[defaults] language`: None for "auto" (each server's Discord language)."""
    return None if text.lower() == "auto" else text.lower()


def parse_shards(text: str) -> tuple[int, int] | None:
    """ "0-3" -> (0, 3), "2" -> (2, 2); None if it is not such a range."""
    first, _, last = text.strip().partition("-")
    if not first.strip().isdigit() or (last and not last.strip().isdigit()):
        return None
    a, b = int(first), int(last) if last else int(first)
    return (a, b) if a <= b else None


def check_shards(shards: tuple[int, int] | None, count: int | None) -> None:
    """A range of shards needs the count of them all, and must lie within it."""
    if shards is None:
        return
    if count is None:
        raise ConfigError(
            "A range of shards needs the number of shards in all: give shard_count too"
            " (every process of the bot must use the same one)."
        )
    if shards[1] >= count:
        raise ConfigError(
            f"Shards {shards[0]}-{shards[1]} do not exist among {count}: they are numbered"
            f" 0 to {count - 1}."
        )


# `scheme://` at the start: a URL, not a file path.
_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")


def database_of(text: str) -> Path | str:
    """A PostgreSQL URL stays a string (a Path would fold its //); a file is a Path. A URL
    of any other database is refused (it would be taken for a file's path)."""
    if is_postgres(text):
        return text
    if _URL.match(text):
        raise ConfigError(
            f"database = {safe_database(text)!r} is not a PostgreSQL URL; use a SQLite file"
            ' path, or a URL such as "postgresql://bot@localhost/schotten" (PostgreSQL is the'
            " only database server the bot supports)."
        )
    return Path(text)


def _typed(value: Any, kind: type) -> bool:
    if kind is bool:
        return isinstance(value, bool)
    if kind is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, kind)


def _close(word: str, options: Iterable[str]) -> str:
    match = difflib.get_close_matches(word, list(options), n=1, cutoff=0.6)
    return f" Did you mean `{match[0]}`?" if match else ""


def _checked(data: dict[str, Any], where: str) -> dict[str, dict[str, Any]]:
    """The file's settings, each of a known key and a valid value; ConfigError names the
    first one that is not."""
    out: dict[str, dict[str, Any]] = {}
    for section, values in data.items():
        if section not in _KEYS:
            raise ConfigError(
                f"{where}: unknown section [{section}]; the sections are"
                f" {', '.join(f'[{k}]' for k in _KEYS)}.{_close(section, _KEYS)}"
            )
        if not isinstance(values, dict):
            raise ConfigError(f"{where}: [{section}] must be a section, not a value.")
        keys = _KEYS[section]
        for key, value in values.items():
            if key not in keys:
                raise ConfigError(
                    f"{where}: unknown setting `{key}` in [{section}].{_close(key, keys)}"
                    f" The settings of [{section}] are: {', '.join(keys)}."
                )
            kind, check, valid = keys[key]
            if not _typed(value, kind) or not check(value):
                raise ConfigError(
                    f"{where}: [{section}] {key} = {value!r} is not valid; use {valid}."
                )
        out[section] = dict(values)
    return out


def load_config(path: str | Path | None, *, environ: dict[str, str] | None = None) -> Config:
    """Read `path` (may be None: defaults only) and the environment."""
    env = os.environ if environ is None else environ
    data: dict[str, Any] = {}
    where = "the defaults"
    if path is not None:
        p = Path(path)
        where = str(p)
        if not p.exists():
            raise ConfigError(f"No config file at {p}. Copy config.example.toml to start one.")
        try:
            data = tomllib.loads(p.read_text())
        except tomllib.TOMLDecodeError as e:
            raise ConfigError(f"{p} is not valid TOML: {e}") from None
    settings = _checked(data, where)
    bot = settings.get("bot", {})
    defaults = settings.get("defaults", {})
    computer = settings.get("computer", {})
    render = settings.get("render", {})
    dev = bot.get("dev_guild") or None
    shards = parse_shards(bot["shards"]) if "shards" in bot else None
    shard_count = int(bot["shard_count"]) if "shard_count" in bot else None
    try:
        check_shards(shards, shard_count)
    except ConfigError as e:
        raise ConfigError(f"{where}: {e}") from None
    try:
        database = database_of(str(bot.get("database", "schotten.sqlite3")))
    except ConfigError as e:
        raise ConfigError(f"{where}: [bot] {e}") from None
    return Config(
        token=env.get("DISCORD_TOKEN") or bot.get("token") or None,
        database=database,
        synchronous=str(bot.get("synchronous", "full")).lower(),
        pool_size=int(bot.get("pool_size", 10)),
        shards=shards,
        shard_count=shard_count,
        dev_guild=int(dev) if dev else None,
        log_level=str(bot.get("log_level", "INFO")).upper(),
        timer_seconds=float(bot.get("timer_seconds", 60)),
        metrics_port=int(bot.get("metrics_port", 0)) or None,
        metrics_host=str(bot.get("metrics_host", "127.0.0.1")),
        computer_workers=int(computer.get("workers", 1)),
        render_workers=int(render.get("workers", 1)),
        defaults=Settings(
            0,
            float(defaults.get("reminder_hours", 24)),
            float(defaults.get("forfeit_hours", 72)),
            float(defaults.get("challenge_hours", 24)),
            bool(defaults.get("use_threads", True)),
            bool(defaults.get("public_analysis", True)),
            _language(str(defaults.get("language", "auto"))),
            vacation_days=int(defaults.get("vacation_days", 21)),
        ),
        source=where,
    )
