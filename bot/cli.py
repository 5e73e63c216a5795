"""`schotten-bot` (also `python -m bot`): run the bot, or try it in the sandbox.

schotten-bot run [--config config.toml]
schotten-bot sandbox [--game classic] [--out DIR] [--seed N] [--computer LEVEL]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import aiohttp

from bot.config import ConfigError, load_config
from engine.api import VARIANTS

if TYPE_CHECKING:
    from bot.front.client import SchottenBot

log = logging.getLogger("schotten.bot")


def _logging(level: str) -> None:
    logging.basicConfig(
        level=getattr(logging, level, logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    # discord.py logs its own connection details; the token never appears in them.
    logging.getLogger("discord").setLevel(max(logging.INFO, logging.getLogger().level))


DEFAULT_CONFIG = Path("config.toml")


class _NoVoice(logging.Filter):
    """This bot never joins a voice channel, so discord.py's warnings that the voice
    libraries (PyNaCl, davey) are missing are noise to its admin."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "voice will NOT be supported" not in record.getMessage()


def quiet_voice_warnings() -> None:
    logging.getLogger("discord.client").addFilter(_NoVoice())


async def _run(config_path: Path | None) -> int:
    from bot.front.client import SchottenBot

    if config_path is None and DEFAULT_CONFIG.exists():
        config_path = DEFAULT_CONFIG
    config = load_config(config_path)
    _logging(config.log_level)
    quiet_voice_warnings()
    if config_path is None:
        log.info("no ./config.toml and no --config: defaults and the environment only")
    else:
        log.info("settings read from %s", config_path)
    token = config.require_token()
    log.info("starting with %r", config)
    return await serve(SchottenBot(config), token)


async def serve(bot: SchottenBot, token: str) -> int:
    """Run the bot until it is closed. SIGTERM (a deploy's restart) and SIGINT stop it
    cleanly: new interactions are turned away, those under way finish, pending
    announcements are sent, then it exits."""
    import discord

    stopping: list[asyncio.Task[None]] = []

    def stop() -> None:
        if not stopping:
            stopping.append(asyncio.create_task(bot.shutdown()))

    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop)
    try:
        async with bot:
            await bot.start(token)
        if stopping:
            await stopping[0]
    except discord.LoginFailure:
        print(
            "Discord rejected the bot token. Copy it again from your application's Bot page"
            " at https://discord.com/developers/applications (Reset Token if needed) and set"
            " DISCORD_TOKEN.",
            file=sys.stderr,
        )
        return 2
    except discord.PrivilegedIntentsRequired:
        print("Discord refused the gateway intents requested.", file=sys.stderr)
        return 2
    except (TimeoutError, aiohttp.ClientConnectionError, OSError) as e:
        # No network, DNS or firewall: one line, not discord.py's traceback.
        print(
            f"Cannot reach Discord ({type(e).__name__}: {e}). Check this machine's network"
            " connection and firewall, then start the bot again.",
            file=sys.stderr,
        )
        return 1
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(sig)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="schotten-bot",
        description="Schotten Totten and Schotten Totten 2 on Discord.",
        epilog="See README.md for setting up the bot's Discord application.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="{run,sandbox}")
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
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "run":
            return asyncio.run(_run(args.config))
        from bot.sandbox import run_sandbox

        _logging("WARNING")
        quiet_voice_warnings()
        return asyncio.run(run_sandbox(args.game, args.out, seed=args.seed, computer=args.computer))
    except ConfigError as e:
        print(e, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
