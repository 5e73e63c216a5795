"""`schotten-bot` (also `python -m bot`): run the bot, or try it in the sandbox.

schotten-bot run [--config config.toml] [--shards 0-3 --shard-count 8]
schotten-bot sandbox [--game classic] [--out DIR] [--seed N] [--computer LEVEL]
                     [--language fr] [--tour] [--processes N --database postgresql://...]
schotten-bot migrate-db --from schotten.sqlite3 --to postgresql://...
schotten-bot check [--config config.toml]
schotten-bot backup FILE [--config config.toml]
schotten-bot restore FILE [--config config.toml]
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import logging
import sys
from pathlib import Path

from bot.config import Config, ConfigError, check_shards, load_config, parse_shards
from bot.runner import quiet_voice_warnings, serve, setup_logging
from engine.api import VARIANTS

log = logging.getLogger("schotten.bot")


DEFAULT_CONFIG = Path("config.toml")


async def _run(
    config_path: Path | None,
    shards: tuple[int, int] | None = None,
    shard_count: int | None = None,
) -> int:
    from bot.front.client import SchottenBot
    from bot.store.preflight import DatabaseProblem, check_database

    config_path = _found(config_path)
    config = load_config(config_path)
    if shards is not None or shard_count is not None:  # the command line wins over the file
        config = dataclasses.replace(
            config,
            shards=shards if shards is not None else config.shards,
            shard_count=shard_count if shard_count is not None else config.shard_count,
        )
        check_shards(config.shards, config.shard_count)
    setup_logging(config.log_level)
    quiet_voice_warnings()
    if config_path is None:
        log.info("no ./config.toml and no --config: defaults and the environment only")
    else:
        log.info("settings read from %s", config_path)
    token = config.require_token()
    log.info("starting with %r", config)
    # The database first: its failures are the admin's to fix, and said in one line before
    # anything is asked of Discord.
    try:
        await check_database(config.database, synchronous=config.synchronous)
    except DatabaseProblem as e:
        print(e, file=sys.stderr)
        return 3
    return await serve(SchottenBot(config), token)


async def _check(config_path: Path | None) -> int:
    from bot.check import run_check

    logging.basicConfig(level=logging.ERROR)  # the report is the output; no discord.py chatter
    return await run_check(_config_here(config_path))


def _shard_range(text: str) -> tuple[int, int]:
    shards = parse_shards(text)
    if shards is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a range of shards such as 0-3 or 2")
    return shards


async def _migrate_db(
    source: str, target: str, *, restoring: bool = False, config: Path | None = None
) -> int:
    """migrate-db, or a restore (`restoring`, into the database of the settings `config`)."""
    from bot.store import safe_database
    from bot.store.backup import restore_refused
    from bot.store.migrate import MigrationError, TargetNotEmpty, migrate_database

    print(f"Copying {safe_database(source)} into {safe_database(target)}…")
    try:
        report = await migrate_database(source, target, progress=print)
    except TargetNotEmpty as e:
        print(restore_refused(e, config) if restoring else e, file=sys.stderr)
        return 2
    except MigrationError as e:
        print(e, file=sys.stderr)
        return 2
    except (ConnectionError, OSError) as e:
        print(f"Cannot open the database: {e}", file=sys.stderr)
        return 2
    print(report.summary())
    return 0


def _found(config_path: Path | None) -> Path | None:
    """The settings file: the one given, else ./config.toml if there is one."""
    if config_path is None and DEFAULT_CONFIG.exists():
        return DEFAULT_CONFIG
    return config_path


def _config_here(config_path: Path | None) -> Config:
    return load_config(_found(config_path))


async def _backup(config_path: Path | None, file: Path) -> int:
    from bot.store.backup import BackupError, backup

    try:
        report = await backup(_config_here(config_path).database, file)
    except BackupError as e:
        print(e, file=sys.stderr)
        return 2
    print(report.summary())
    return 0


async def _restore(config_path: Path | None, file: Path) -> int:
    if not file.is_file():
        print(f"There is no backup at {file}.", file=sys.stderr)
        return 2
    config = _found(config_path)
    target = str(load_config(config).database)
    return await _migrate_db(str(file), target, restoring=True, config=config)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="schotten-bot",
        description="Schotten Totten and Schotten Totten 2 on Discord.",
        epilog="See docs/running.md for setting up the bot's Discord application.",
    )
    # No metavar: argparse lists every command added below, so the usage line cannot forget one.
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser(
        "run",
        help="Connect to Discord with the bot's token and serve games until stopped.",
        description="Connect to Discord and serve games. SIGTERM or Ctrl-C stops cleanly.",
    )
    run.add_argument(
        "--config",
        type=Path,
        default=None,
        help="The TOML settings file (see config.example.toml). Without it, ./config.toml is"
        " read if it exists; DISCORD_TOKEN in the environment overrides the file's token.",
    )
    run.add_argument(
        "--shards",
        type=_shard_range,
        default=None,
        metavar="FIRST-LAST",
        help="Run only these shards (such as 0-3) in this process, with --shard-count; other"
        " processes on the same PostgreSQL database run the rest. Default: every shard.",
    )
    run.add_argument(
        "--shard-count",
        type=int,
        default=None,
        metavar="N",
        help="The number of shards in all, the same in every process (default: as Discord"
        " recommends for the bot's number of servers).",
    )
    sandbox = sub.add_parser(
        "sandbox",
        help="Watch two simulated members play a whole game through the real bot, offline.",
        description="Play one game through the real bot against a Discord emulator on this"
        " machine: no token, no network. The chat is printed and every picture is saved.",
    )
    sandbox.add_argument(
        "--game",
        choices=list(VARIANTS),
        default="classic",
        help="The game and variant to play (default: classic).",
    )
    sandbox.add_argument(
        "--out",
        type=Path,
        default=Path("sandbox-out"),
        help="The folder under which each run gets its own folder of pictures"
        " (default: sandbox-out).",
    )
    sandbox.add_argument(
        "--seed",
        type=int,
        default=7,
        help="Seeds the deal and the simulated players' choices: the same seed plays the"
        " same game (default: 7).",
    )
    sandbox.add_argument(
        "--computer",
        choices=("easy", "normal", "hard"),
        default=None,
        help="Let the second member be the computer opponent at this level.",
    )
    sandbox.add_argument(
        "--processes",
        type=int,
        default=1,
        metavar="N",
        help="Run the bot as N processes on one PostgreSQL database (--database), as a"
        " sharded bot is deployed: N shards, process i running shard i-1. The game is in a"
        " server on the last shard, so its typed moves go to the last process while the"
        " hand's buttons, clicked in direct messages (always shard 0), go to the first."
        " Default: 1, the bot in the sandbox's own process.",
    )
    sandbox.add_argument(
        "--database",
        default=None,
        metavar="FILE_OR_URL",
        help="The bot's database: a SQLite file or a postgresql:// URL (required, and"
        " PostgreSQL, with --processes above 1). Default: a SQLite file deleted at the end.",
    )
    sandbox.add_argument(
        "--language",
        default="en-US",
        choices=["en-US", "fr", "de"],
        help="The Discord language of the sandbox's server and members: the bot speaks it"
        " (default: en-US).",
    )
    sandbox.add_argument(
        "--tour",
        action="store_true",
        help="After the game, try every other command as members would: stats, leaderboard,"
        " history, replay, analyse, a game against the computer with a hint, every rules"
        " page, settings, and a small tournament played to its end.",
    )
    migrate = sub.add_parser(
        "migrate-db",
        help="Copy every game, rating and setting from one database into a new, empty one.",
        description="Copy everything (games, moves, challenges, ratings, settings, names,"
        " announcements) from a SQLite file into an empty PostgreSQL database (or between"
        " any two), then check that every game replays to its stored state. Stop the bot"
        " first; refuses a target that already holds data.",
    )
    migrate.add_argument(
        "--from", dest="source", required=True, help="The database to copy: a SQLite file."
    )
    migrate.add_argument(
        "--to",
        dest="target",
        required=True,
        help="The new, empty database: a postgresql:// URL (or a SQLite file).",
    )
    backup = sub.add_parser(
        "backup",
        help="Write a consistent copy of the bot's SQLite database, while it runs.",
        description="Copy the configured SQLite database into FILE with SQLite's online"
        " backup API (the bot may keep running; the copy is one moment's state, checked"
        " before it is kept). A PostgreSQL bot is told the pg_dump command to use instead.",
    )
    backup.add_argument("file", type=Path, metavar="FILE", help="The new backup file.")
    restore = sub.add_parser(
        "restore",
        help="Copy a backup into the configured database, which must be empty.",
        description="Copy every game, rating and setting of the backup FILE into the"
        " configured database (SQLite or PostgreSQL), then check that every game replays;"
        " refuses a database that already holds data, as migrate-db does. Stop the bot first.",
    )
    restore.add_argument("file", type=Path, metavar="FILE", help="A file written by backup.")
    for command in (backup, restore):
        command.add_argument(
            "--config",
            type=Path,
            default=None,
            help="The TOML settings file whose [bot] database is meant (default:"
            " ./config.toml if it exists).",
        )
    check = sub.add_parser(
        "check",
        help="Check the bot's Discord setup: application, commands, permissions per server.",
        description="Log in over REST with the bot's token (no gateway session) and print the"
        " application and bot user, whether Discord's global commands match this code, and"
        " for each server the permissions a game needs that the bot lacks there. Exit code 0:"
        " all is well; 1: something needs an admin; 2: the check could not run.",
    )
    check.add_argument(
        "--config",
        type=Path,
        default=None,
        help="The TOML settings file (default: ./config.toml if it exists); DISCORD_TOKEN in"
        " the environment overrides its token.",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "run":
            return asyncio.run(_run(args.config, args.shards, args.shard_count))
        if args.command == "migrate-db":
            return asyncio.run(_migrate_db(args.source, args.target))
        if args.command == "check":
            return asyncio.run(_check(args.config))
        if args.command == "backup":
            return asyncio.run(_backup(args.config, args.file))
        if args.command == "restore":
            return asyncio.run(_restore(args.config, args.file))
        from bot.config import database_of
        from bot.sandbox import SandboxError, run_sandbox
        from bot.sandbox.processes import BotProcessError

        setup_logging("WARNING")
        quiet_voice_warnings()
        database = database_of(args.database) if args.database is not None else None
        try:
            return asyncio.run(
                run_sandbox(
                    args.game,
                    args.out,
                    seed=args.seed,
                    computer=args.computer,
                    processes=args.processes,
                    database=database,
                    language=args.language,
                    tour=args.tour,
                )
            )
        except (SandboxError, BotProcessError) as e:
            print(f"The sandbox's bot failed: {e}", file=sys.stderr)
            return 1
    except ConfigError as e:
        print(e, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
