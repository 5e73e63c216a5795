"""The real bot in a child process, pointed at an emulator running in the test's process.

    python -m tests.bot.crashbot BASE_URL TOKEN DATABASE

It runs exactly as `schotten-bot run` does (`bot.cli.serve`, with its SIGTERM handling);
the crash tests kill it with SIGKILL, or let it kill itself at a named instant with
SCHOTTEN_CRASH_AT (see bot/crashpoints.py), and start another on the same database.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path

from bot.cli import serve
from bot.config import Config
from bot.emulator import point_discord_at_url
from bot.front.client import SchottenBot


async def main(base_url: str, token: str, database: str) -> int:
    point_discord_at_url(base_url)
    config = Config(database=Path(database), timer_seconds=3600)
    return await serve(SchottenBot(config, guild_ready_timeout=0.1), token)


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    sys.exit(asyncio.run(main(*sys.argv[1:4])))
