"""`schotten-bot sandbox --tour`: after the members' game, everything else the README
advertises, run through the emulator as members would: `stats`, `leaderboard`, `history`,
`replay`, `analyse`, a game against the computer with a `hint`, `games` (from the
channel, and from the hand's DM), every `/schotten rules` page, `settings`, and a small
tournament played to its end.

Each step prints a heading (`== Tour 3/10: history ==`) before its part of the chat, and
waits for the bot's whole answer (the picture, the GIF, the finished analysis) before the
next one, so that the transcript reads in order and every picture is saved. A step whose
answer does not come raises `TourError` naming it.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.front.admin_commands import ADMIN
from bot.front.client import SchottenBot
from bot.front.rules import TOPICS
from bot.records import MatchInfo
from bot.sandbox import (
    SandboxError,
    SimPlayer,
    button_of,
    play_to_the_end,
    wait_for_announcements,
    wait_for_game,
    wait_for_version,
)
from discord_loopback import (
    Emulator,
    SimChannel,
    SimGuild,
    SimMember,
    SimMessage,
)
from engine.api import game_of

# Every step of the tour, in order: what the test and the reader look for in the headings.
STEPS = (
    "stats",
    "leaderboard",
    "history",
    "replay",
    "analyse",
    "hint",
    "games",
    "rules",
    "settings",
    "tournament",
)
TOURNAMENT = "Sandbox Cup"
SLOW = 300.0  # seconds: an analysis or a tournament game on a busy machine


class TourError(SandboxError):
    """A step of the tour did not get its answer."""


@dataclass
class Tour:
    """What the tour needs: the emulator, the bot, the server, its members (Alice manages
    the server), the game they played, and the random source of the simulated members."""

    emu: Emulator
    bot: SchottenBot
    guild: SimGuild
    alice: SimMember
    bob: SimMember
    carol: SimMember
    game: MatchInfo
    rng: random.Random
    typed_as_shown: bool
    done: list[str] = field(default_factory=list)

    @property
    def channel(self) -> SimChannel:
        return self.guild.default_channel

    def player(self, member: SimMember) -> SimPlayer:
        return SimPlayer(
            member, random.Random(self.rng.random()), typed_as_shown=self.typed_as_shown
        )

    async def ask(
        self,
        member: SimMember,
        *command: str,
        where: SimChannel | None = None,
        timeout: float = 30,
        top: str = "schotten",
        **options: Any,
    ) -> SimMessage:
        """`/schotten <command> options...` (or `/schotten-admin ...`: `top`) and its first
        answer."""
        handle = await member.slash((top, *command), where=where or self.channel, options=options)
        return await handle.reply(timeout=timeout)

    async def ask_file(
        self, member: SimMember, *command: str, timeout: float = 60, **options: Any
    ) -> SimMessage:
        """`/schotten <command> options...` and its answer with a file (picture, GIF...)."""
        handle = await member.slash(("schotten", *command), where=self.channel, options=options)
        return await handle.attachment_message(timeout=timeout)


async def run_tour(tour: Tour) -> list[str]:
    """Run every step in order; returns the names of the steps done (all of STEPS)."""
    steps: dict[str, Callable[[Tour], Awaitable[None]]] = {
        "stats": _stats,
        "leaderboard": _leaderboard,
        "history": _history,
        "replay": _replay,
        "analyse": _analyse,
        "hint": _hint,
        "games": _games,
        "rules": _rules,
        "settings": _settings,
        "tournament": _tournament,
    }
    assert tuple(steps) == STEPS
    for n, (name, step) in enumerate(steps.items(), 1):
        print()
        print(f"== Tour {n}/{len(steps)}: {name} ==")
        try:
            await step(tour)
        except (TimeoutError, RuntimeError, LookupError) as e:
            raise TourError(f"the tour's step {n} ({name}) failed: {e}") from e
        await asyncio.sleep(0.2)  # the last edits print before the next heading
        tour.done.append(name)
    print()
    print(f"Tour over: {len(tour.done)} of {len(steps)} steps done ({', '.join(tour.done)}).")
    return tour.done


async def _stats(tour: Tour) -> None:
    await tour.ask_file(tour.alice, "stats")
    await tour.ask_file(tour.bob, "stats", against=tour.alice)


async def _leaderboard(tour: Tour) -> None:
    await tour.ask(tour.alice, "leaderboard", game=game_of(tour.game.spec.variant))


async def _history(tour: Tour) -> None:
    await tour.ask(tour.alice, "history")
    await tour.ask_file(tour.bob, "history", game_id=tour.game.id)


async def _replay(tour: Tour) -> None:
    await tour.ask_file(tour.alice, "replay", game_id=tour.game.id)


async def _analyse(tour: Tour) -> None:
    await tour.alice.slash(
        ("schotten", "analyse"), where=tour.channel, options={"game_id": tour.game.id}
    )
    await _finished_analysis(tour)


async def _finished_analysis(tour: Tour) -> SimMessage:
    """The analysis once posted with its pictures: the bot posts a public analysis in the
    channel itself (its progress is the asker's private reply)."""
    return await tour.emu.wait_for_message(
        lambda m: (
            m.channel is tour.channel
            and any(a.filename.startswith("chances-") for a in m.attachments)
        ),
        timeout=SLOW,
        what="the finished analysis",
    )


async def _hint(tour: Tour) -> None:
    """Alice plays the computer (easy: it answers at once): a hint on her first turn, then
    the game to its end."""
    computer = tour.guild.members[tour.emu.bot.id]
    await tour.ask(
        tour.alice, "challenge", opponent=computer, game=tour.game.spec.variant, level="easy"
    )
    info = await wait_for_game(tour.bot, tour.guild.id, tour.alice.id)
    thread = tour.emu.world.channel(info.channel_id)
    await wait_for_announcements(tour.bot, info.id)
    seat = info.seat_of(tour.alice.id)
    while info.to_decide != seat:  # the computer opens
        info = await wait_for_version(tour.bot, tour.emu, info.id, info.version, timeout=60)
        await wait_for_announcements(tour.bot, info.id)
    await tour.ask(tour.alice, "hint", where=thread, timeout=SLOW)
    players = {tour.alice.id: tour.player(tour.alice)}
    await play_to_the_end(tour.bot, tour.emu, players, info.id)


async def _games(tour: Tour) -> None:
    """Alice challenges Bob, who accepts, and Bob challenges Carol: Bob lists his games
    (the game and his open challenge), Alice hers from her hand's DM (from the channel if
    the game waits on Bob); then Bob resigns and takes his challenge back."""
    challenge = await tour.ask(tour.alice, "challenge", opponent=tour.bob)
    await (await tour.bob.click(challenge, button_of(challenge, "sch:a:"))).ack(timeout=15)
    info = await wait_for_game(tour.bot, tour.guild.id, tour.alice.id)
    await wait_for_announcements(tour.bot, info.id)
    await tour.ask(tour.bob, "challenge", opponent=tour.carol)
    await tour.ask(tour.bob, "games")
    hand = tour.alice.last_dm if info.deciding_user == tour.alice.id else None
    if hand is not None and any(
        str(b.get("custom_id", "")).startswith("sch:y:") for b in hand.buttons()
    ):
        await (await tour.alice.click(hand, button_of(hand, "sch:y:"))).reply(timeout=30)
    else:
        await tour.ask(tour.alice, "games")
    thread = tour.emu.world.channel(info.channel_id)
    confirm = await tour.ask(tour.bob, "resign", where=thread)
    await (await tour.bob.click(confirm, button_of(confirm, "sch:m:"))).ack(timeout=15)
    await wait_for_announcements(tour.bot, info.id)
    await tour.ask(tour.bob, "cancel")


async def _rules(tour: Tour) -> None:
    await tour.ask(tour.bob, "rules")
    for topic in TOPICS:
        await tour.ask(tour.bob, "rules", topic=topic)


async def _settings(tour: Tour) -> None:
    await tour.ask(tour.alice, "settings")
    await tour.ask(tour.alice, "settings", top=ADMIN)
    await tour.ask(tour.alice, "settings", top=ADMIN, reminder_hours=12)
    await tour.ask(tour.bob, "settings")
    await tour.ask(tour.bob, "settings", my_reminders=False)  # his own, though no manager


async def _tournament(tour: Tour) -> None:
    """Alice announces a Swiss of the tour's game; Bob and Carol join with the button and
    Alice by command; two rounds (a game and a bye each) are played to the end."""
    notice = await tour.ask(
        tour.alice, "tournament", "create", top=ADMIN, name=TOURNAMENT, game=tour.game.spec.variant
    )
    for member in (tour.bob, tour.carol):
        handle = await member.click(notice, button_of(notice, "sch:j:"))
        await handle.reply(timeout=15)
    await tour.ask(tour.alice, "tournament", "join")
    await tour.ask(tour.alice, "tournament", "start", top=ADMIN)
    front = tour.bot.front
    assert front is not None  # made when the bot starts, before the tour
    tournaments = front.tournaments
    (t,) = await tournaments.live(tour.guild.id)
    players = {m.id: tour.player(m) for m in (tour.alice, tour.bob, tour.carol)}
    played: set[int] = set()
    deadline = asyncio.get_running_loop().time() + SLOW * 2
    while True:
        t = await tournaments.get(t.id)
        if t.status == "finished":
            break
        games = await tournaments.pairings(t.id, t.round)
        ready = [g.match_id for g in games if g.match_id is not None and g.match_id not in played]
        for match_id in ready:
            await play_to_the_end(tour.bot, tour.emu, players, match_id)
            played.add(match_id)
        if asyncio.get_running_loop().time() > deadline:
            raise TimeoutError(f"{TOURNAMENT} did not finish (round {t.round} of {t.rounds})")
        await asyncio.sleep(0.1)
    await tour.emu.wait_for_message(
        lambda m: any(a.filename == f"standings-{t.id}.png" for a in m.attachments),
        timeout=30,
        what="the final standings",
    )
    await tour.ask_file(tour.bob, "tournament", "standings")
    await tour.ask(tour.carol, "tournament", "pairings", round=1, tournament=TOURNAMENT)
