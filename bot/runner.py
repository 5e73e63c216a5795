"""Running one bot process: its logging, and serving until it is stopped. What `schotten-bot
run` does once its configuration is read, and what the sandbox's child processes do too
(`bot.sandbox.processes`), so both run exactly the same code."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from typing import TYPE_CHECKING

import aiohttp

if TYPE_CHECKING:
    from bot.front.client import SchottenBot


def setup_logging(level: str) -> None:
    logging.basicConfig(
        level=getattr(logging, level, logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    # discord.py logs its own connection details; the token never appears in them.
    logging.getLogger("discord").setLevel(max(logging.INFO, logging.getLogger().level))


class _NoVoice(logging.Filter):
    """This bot never joins a voice channel, so discord.py's warnings that the voice
    libraries (PyNaCl, davey) are missing are noise to its admin."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "voice will NOT be supported" not in record.getMessage()


def quiet_voice_warnings() -> None:
    logging.getLogger("discord.client").addFilter(_NoVoice())


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
