"""Configuration: a TOML file (see config.example.toml) plus the environment.

The token comes from DISCORD_TOKEN or from the untracked config file, never from the
repository, and it is never logged: `Config.__repr__` hides it.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.store import SYNCHRONOUS, Settings

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
    database: Path = Path("schotten.sqlite3")
    synchronous: str = "full"  # SQLite durability: "full" (power-cut safe) or "normal"
    dev_guild: int | None = None  # sync commands to this server at once, for development
    log_level: str = "INFO"
    timer_seconds: float = 60.0
    computer_workers: int = 1
    defaults: Settings = field(default_factory=lambda: Settings(0))

    def __repr__(self) -> str:
        token = "set" if self.token else "missing"
        return f"Config(token={token}, database={str(self.database)!r}, dev_guild={self.dev_guild})"

    def require_token(self) -> str:
        if not self.token:
            raise ConfigError(TOKEN_HELP)
        return self.token


def load_config(path: str | Path | None, *, environ: dict[str, str] | None = None) -> Config:
    """Read `path` (may be None: defaults only) and the environment."""
    env = os.environ if environ is None else environ
    data: dict[str, Any] = {}
    if path is not None:
        p = Path(path)
        if not p.exists():
            raise ConfigError(f"No config file at {p}. Copy config.example.toml to start one.")
        try:
            data = tomllib.loads(p.read_text())
        except tomllib.TOMLDecodeError as e:
            raise ConfigError(f"{p} is not valid TOML: {e}") from None
    bot = data.get("bot", {})
    defaults = data.get("defaults", {})
    computer = data.get("computer", {})
    unknown = set(data) - {"bot", "defaults", "computer"}
    if unknown:
        raise ConfigError(f"Unknown section(s) in the config: {', '.join(sorted(unknown))}")
    dev = bot.get("dev_guild") or None
    synchronous = str(bot.get("synchronous", "full")).lower()
    if synchronous not in SYNCHRONOUS:
        raise ConfigError(
            f'[bot] synchronous is {synchronous!r}; use "full" (every acknowledged move'
            ' survives a power cut, the default) or "normal" (faster; survives a crash of'
            " the bot but may lose the last moves to a power cut)."
        )
    try:
        return Config(
            token=env.get("DISCORD_TOKEN") or bot.get("token") or None,
            database=Path(bot.get("database", "schotten.sqlite3")),
            synchronous=synchronous,
            dev_guild=int(dev) if dev else None,
            log_level=str(bot.get("log_level", "INFO")).upper(),
            timer_seconds=float(bot.get("timer_seconds", 60)),
            computer_workers=int(computer.get("workers", 1)),
            defaults=Settings(
                0,
                float(defaults.get("reminder_hours", 24)),
                float(defaults.get("forfeit_hours", 72)),
                float(defaults.get("challenge_hours", 24)),
                bool(defaults.get("use_threads", True)),
            ),
        )
    except (TypeError, ValueError) as e:
        raise ConfigError(f"A setting has the wrong type: {e}") from None
