"""`schotten-bot` (also `python -m bot`): run the bot, or try it in the sandbox.

schotten-bot run --config config.toml
schotten-bot sandbox [--game classic] [--out DIR] [--seed N]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING

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


async def _run(config_path: Path | None) -> int:
    from bot.front.client import SchottenBot

    config = load_config(config_path)
    _logging(config.log_level)
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
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(sig)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="schotten-bot", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="connect to Discord and serve games")
    run.add_argument("--config", type=Path, default=None, help="a TOML file (config.example.toml)")
    sandbox = sub.add_parser(
        "sandbox", help="watch two simulated members play through the real bot, offline"
    )
    sandbox.add_argument("--game", choices=list(VARIANTS), default="classic")
    sandbox.add_argument("--out", type=Path, default=Path("sandbox-out"), help="where pictures go")
    sandbox.add_argument("--seed", type=int, default=7, help="the simulated players' choices")
    sandbox.add_argument(
        "--computer",
        choices=("easy", "normal", "hard"),
        default=None,
        help="the second member is the computer at this level",
    )
    args = parser.parse_args(argv)
    try:
        if args.command == "run":
            return asyncio.run(_run(args.config))
        from bot.sandbox import run_sandbox

        _logging("WARNING")
        return asyncio.run(run_sandbox(args.game, args.out, seed=args.seed, computer=args.computer))
    except ConfigError as e:
        print(e, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
