"""Chat figures: how many board pictures a whole game posts, per game and per turn (a turn
is a run of steps by one player: play, claims, draw, oil...). Games of every variant, and
one against the computer, are played to the end by simulated members through the loopback
Discord emulator, by typed moves and by clicks. The opening board counts as a post.
"""

from __future__ import annotations

import asyncio
import logging
import random
import statistics
import tempfile
from collections.abc import Iterator
from pathlib import Path

from benchmarks.timing import figure
from bot.config import Config
from bot.front.client import SchottenBot
from bot.sandbox import SimPlayer, board_posts, play_to_the_end, turns, wait_for_game
from discord_loopback import Emulator
from engine.api import VARIANTS

COMPUTER = "siege-tactics"  # also played against the computer: its steps are a turn too


async def _game(variant: str, seed: int, *, computer: bool) -> tuple[int, int]:
    """(board posts, turns) of one whole game."""
    with tempfile.TemporaryDirectory() as tmp:
        async with Emulator() as emu, emu.point_discord():
            guild = emu.create_guild("Bench")
            alice, bob = guild.add_member("Alice"), guild.add_member("Bob")
            config = Config(database=Path(tmp) / "t.sqlite3", timer_seconds=3600)
            bot = SchottenBot(config, guild_ready_timeout=0.1)
            runner = asyncio.create_task(bot.start(emu.token))
            try:
                await emu.wait_for_bot(commands=["schotten"])
                await bot.wait_until_ready()
                assert bot.service is not None
                channel = guild.default_channel
                if computer:
                    opponent = guild.members[emu.bot.id]
                    handle = await alice.slash(
                        ("schotten", "challenge"),
                        where=channel,
                        opponent=opponent,
                        game=variant,
                        level="easy",
                    )
                    await handle.reply(timeout=15)
                else:
                    handle = await alice.slash(
                        ("schotten", "challenge"), where=channel, opponent=bob, game=variant
                    )
                    accept = await bob.click(await handle.reply(timeout=15), label="Accept")
                    await accept.ack(timeout=15)
                match = await wait_for_game(bot, guild.id, alice.id)
                rng = random.Random(seed)
                players = {
                    alice.id: SimPlayer(alice, random.Random(rng.random())),
                    bob.id: SimPlayer(bob, random.Random(rng.random())),
                }
                final = await play_to_the_end(bot, emu, players, match.id)
                await asyncio.sleep(0.3)  # the last board
                seats = [int(r["seat"]) for r in await bot.service.store.moves(final.id)]
                return len(board_posts(emu.world.channel(final.channel_id))), turns(seats)
            finally:
                await bot.close()
                await runner


async def _all() -> list[tuple[int, int]]:
    logging.getLogger("discord").setLevel(logging.ERROR)
    results = [await _game(v, 11 + i, computer=False) for i, v in enumerate(VARIANTS)]
    results.append(await _game(COMPUTER, 5, computer=True))
    return results


def run() -> Iterator[str]:
    results = asyncio.run(_all())
    posts = sum(p for p, _ in results)
    played = sum(t for _, t in results)
    yield figure("board_posts_per_game", statistics.mean(p for p, _ in results), "posts")
    yield figure("board_posts_per_turn", posts / played, "posts")
