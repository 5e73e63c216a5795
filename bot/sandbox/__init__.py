"""`schotten-bot sandbox`: the real bot against the loopback Discord emulator, with two
simulated members who play a whole game through slash commands and buttons while the chat
is printed and every picture is saved. Nothing leaves this machine and no token is needed.
With `processes` above 1 the bot runs in that many child processes (`bot.sandbox.processes`) on
one PostgreSQL database, one shard each, as a sharded deployment runs.

`SimPlayer` and the waits below are also what the end-to-end tests use to play; they read
the games through a bot's service, or through a service of their own on the bot's database
(when the bot runs in other processes).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from bot.config import Config, ConfigError
from bot.front.client import SchottenBot
from bot.records import MatchInfo
from bot.sandbox.processes import BotProcess
from bot.service import GameService
from bot.store import is_postgres, safe_database
from bot.time_source import Clock
from discord_loopback import Emulator, SimChannel, SimGuild, SimMember, SimMessage
from lang import DEFAULT, language_of

# Where the waits read the games: a bot in this process, or the bot's database.
Source = SchottenBot | GameService

PREFERRED = ("claim", "control", "Claim", "Take")
# A simulated member takes this long to make a move, on the loopback's clock: members do
# not play a move a millisecond, and Discord's rate-limit buckets (5 posts per 5 s in a
# channel) refill while they think, as on a server, instead of discord.py waiting them out.
MOVE_SECONDS = 2.0


class SimPlayer:
    """A simulated member who makes legal moves, by typed command or by clicking."""

    def __init__(
        self,
        member: SimMember,
        rng: random.Random,
        *,
        clicks: float = 0.5,
        typed_as_shown: bool = False,
    ) -> None:
        self.member = member
        self.rng = rng
        self.clicks = clicks  # how often to use buttons rather than `/schotten move`
        # Type the suggestion as it reads (in the member's words, "revendiquer 3") rather
        # than pick it (which sends its canonical value, "claim 3").
        self.typed_as_shown = typed_as_shown

    async def move_by_command(self, channel: SimChannel) -> str:
        """Ask autocomplete for the legal moves, then type one of them."""
        choices = await self.member.autocomplete(
            ("schotten", "move"), "notation", where=channel, notation=""
        )
        if not choices:
            raise RuntimeError(f"{self.member.name} was offered no move")
        values: list[str] = [c["value"] for c in choices]  # a move's choices carry text
        preferred = [v for v in values if v.startswith(PREFERRED)]
        pick = preferred[0] if preferred else self.rng.choice(values)
        typed = pick
        if self.typed_as_shown:
            typed = next(c["name"] for c in choices if c["value"] == pick)
        handle = await self.member.slash(("schotten", "move"), where=channel, notation=typed)
        await handle.reply(timeout=15)
        return pick

    async def move_by_clicks(self, channel: SimChannel, match_id: int, version: int) -> str:
        """Use the hand's controls: the DM the bot sent for this position if there is one,
        else Show my hand on the board."""
        message = await self._controls_message(match_id, version)
        if message is None:
            # Found by what the button does, not its label: the board may be in French.
            board = _latest_with(channel, "sch:h:")
            if board is None:
                raise RuntimeError("no board to ask for a hand")
            button = next(b for b in board.buttons() if b["custom_id"].startswith("sch:h:"))
            handle = await self.member.click(board, button["custom_id"])
            message = await handle.reply(timeout=15)
        return await self._use_controls(message)

    async def _controls_message(self, match_id: int, version: int) -> SimMessage | None:
        if not self.member.dms_open:
            return None
        mark = f":{match_id}:{version}"
        for _ in range(40):  # the DM follows the board by a moment
            dm = self.member.last_dm
            if dm is not None and any(
                mark in str(c.get("custom_id", "")) for c in dm.all_components()
            ):
                return dm
            await asyncio.sleep(0.025)
        return None

    async def _use_controls(self, message: SimMessage) -> str:
        for _ in range(4):  # at most a couple of steps: card, then where
            ids = [str(c.get("custom_id", "")) for c in message.all_components()]
            moves = [i for i in ids if i.startswith("sch:m:")]
            good = [m for m in moves if m.split(":", 4)[4].startswith(("claim", "control"))]
            selects = [
                c
                for c in message.selects()
                if str(c["custom_id"]).startswith(("sch:c", "sch:s", "sch:f"))
            ]
            steps = [i for i in ids if i.startswith("sch:F:") and not i.endswith(":back")]
            options: list[tuple[str, Any]] = [("button", m) for m in (good or moves)]
            options += [("select", s) for s in selects] + [("step", s) for s in steps]
            if good:
                options = [("button", good[0])]
            kind, what = self.rng.choice(options)
            if kind == "button":
                handle = await self.member.click(message, what)
                await handle.ack(timeout=15)
                await handle.update(timeout=15)
                button: str = what  # a button's custom id (the "button" options above)
                return button.split(":", 4)[4]
            if kind == "step":
                handle = await self.member.click(message, what)
            else:
                # Cards listed as "not now" only explain themselves; a player picks another.
                values = [o["value"] for o in what["options"] if not o["value"].startswith("!")]
                count = int(what.get("min_values", 1) or 1)
                chosen = self.rng.sample(values, count)
                handle = await self.member.select(message, what["custom_id"], chosen)
                if str(what["custom_id"]).startswith("sch:s"):
                    await handle.ack(timeout=15)
                    await handle.update(timeout=15)
                    return f"{what['custom_id'].split(':')[4]} {' '.join(chosen)}"
            message = await handle.update(timeout=15)
        raise RuntimeError("the controls did not lead to a move")


def _latest_with(channel: SimChannel, prefix: str) -> SimMessage | None:
    """The latest public message with a button whose custom_id starts with `prefix`."""
    for message in reversed(channel.public_history()):
        if any(str(b.get("custom_id", "")).startswith(prefix) for b in message.buttons()):
            return message
    return None


def button_of(message: SimMessage, prefix: str) -> str:
    """The custom_id of `message`'s button whose custom_id starts with `prefix`."""
    for b in message.buttons():
        if str(b.get("custom_id", "")).startswith(prefix):
            return str(b["custom_id"])
    raise RuntimeError(f"no {prefix} button on the message")


def service_of(source: Source) -> GameService:
    """The service to read games through."""
    if isinstance(source, GameService):
        return source
    assert source.service is not None, "the bot has not started"
    return source.service


async def wait_for_game(bot: Source, guild_id: int, user_id: int, timeout: float = 10) -> MatchInfo:
    """The member's game in this server, once it has started."""
    service = service_of(bot)
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        games = await service.active_matches_of(guild_id, user_id)
        if games:
            return games[0]
        if asyncio.get_running_loop().time() > deadline:
            raise TimeoutError("the game did not start")
        await asyncio.sleep(0.02)


async def wait_for_version(
    bot: Source, emu: Emulator, match_id: int, above: int, timeout: float = 20
) -> MatchInfo:
    """The match once a move beyond `above` has been stored and its board announced:
    posted, or held back while the mover's turn goes on (see GameService._position)."""
    service = service_of(bot)
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        info = await service.match(match_id)
        if info.version > above:
            break
        if asyncio.get_running_loop().time() > deadline:
            raise TimeoutError(f"game {match_id} stayed at version {info.version}")
        await asyncio.sleep(0.02)
    while True:
        row = await service.store.board_row(match_id, info.version)
        if row is not None and row["status"] != "pending":
            break
        if asyncio.get_running_loop().time() > deadline:
            raise TimeoutError(f"game {match_id}'s board of version {info.version} is pending")
        await asyncio.sleep(0.02)
    if row["status"] == "sent":
        # This version's board, or a later one: the computer's next step may already have
        # edited the same message.
        name = f"board-{match_id}-{info.version}.png"
        pattern = re.compile(rf"board-{match_id}-(\d+)\.png")

        def shows(m: SimMessage) -> bool:
            found = (pattern.fullmatch(a.filename) for a in m.attachments)
            return any(f is not None and int(f.group(1)) >= info.version for f in found)

        left = max(0.1, deadline - asyncio.get_running_loop().time())
        await emu.wait_for_message(shows, timeout=left, what=name)
    return info


async def wait_for_announcements(bot: Source, match_id: int, timeout: float = 20) -> None:
    """Until the match's boards and hands are all out: members act on what they were
    sent, and the transcript reads in the order things happened."""
    service = service_of(bot)
    deadline = asyncio.get_running_loop().time() + timeout
    while await service.pending_announcements(match_id):
        if asyncio.get_running_loop().time() > deadline:
            raise TimeoutError(f"game {match_id}'s announcements stayed pending")
        await asyncio.sleep(0.01)


async def play_to_the_end(
    bot: Source,
    emu: Emulator,
    players: dict[int, SimPlayer],
    match_id: int,
    *,
    max_moves: int = 600,
) -> MatchInfo:
    """Let the simulated players (by user id) make moves until the match is over."""
    info = await service_of(bot).match(match_id)
    channel = emu.world.channel(info.channel_id)
    await wait_for_announcements(bot, match_id)  # the opening board and hand
    for _ in range(max_moves):
        if info.is_over:
            return info
        user = info.deciding_user
        if info.ai_seat is not None and info.to_decide == info.ai_seat:
            info = await wait_for_version(bot, emu, match_id, info.version, timeout=60)
            await wait_for_announcements(bot, match_id)
            continue
        assert user is not None
        player = players[user]
        emu.advance(MOVE_SECONDS)
        if player.rng.random() < player.clicks:
            await player.move_by_clicks(channel, match_id, info.version)
        else:
            await player.move_by_command(channel)
        info = await wait_for_version(bot, emu, match_id, info.version)
        await wait_for_announcements(bot, match_id)
    raise RuntimeError("the game did not end")


def board_posts(channel: SimChannel) -> list[SimMessage]:
    """The board messages the bot posted in a game's channel (edits are not new posts)."""
    return [
        m
        for m in channel.public_history()
        if any(a.filename.startswith("board-") for a in m.attachments)
    ]


def turns(seats: list[int]) -> int:
    """How many turns a game's moves (by the seat that made each) make: a turn is a run of
    steps by one player."""
    return sum(1 for i, seat in enumerate(seats) if i == 0 or seats[i - 1] != seat)


class SandboxError(Exception):
    """The sandbox's bot misbehaved (a process that did not stop cleanly)."""


def run_folder(
    out: Path, game: str, seed: int, computer: str | None, language: str = DEFAULT
) -> Path:
    """A new folder under `out` for one run's pictures, named after what was played, in
    which language, from which seed, so that runs never mix their pictures:
    `tactics-fr-seed7`, then `tactics-fr-seed7-2`, ...; `siege-en-seed4-vs-easy`."""
    base = f"{game}-{language}-seed{seed}" + (f"-vs-{computer}" if computer else "")
    folder = out / base
    n = 1
    while folder.exists():
        n += 1
        folder = out / f"{base}-{n}"
    folder.mkdir(parents=True)
    return folder


async def run_sandbox(
    game: str,
    out: Path,
    *,
    seed: int = 7,
    computer: str | None = None,
    processes: int = 1,
    database: Path | str | None = None,
    language: str = "en-US",
    tour: bool = False,
    emulator: Emulator | None = None,
) -> int:
    """Play one game between Alice and Bob (or Alice and the computer) and print the chat.
    The same seed plays the same game: it seeds the deal, the computer and the members.
    `language`: the Discord locale of the server and of its members (en-US, fr, de).

    `database`: the bot's (default: a SQLite file that is deleted at the end). With
    `processes` N above 1, N bot processes on it, which must be PostgreSQL, run shard i of
    N each; the game is in a server on the last shard, so its typed moves go to the last
    process while the hand's buttons, clicked in direct messages, go to the first.

    `tour`: after the game, run every other command the README advertises
    (`bot.sandbox.tour`): Alice manages the server and Carol joins for the tournament.
    `emulator`: an emulator already pointed at by discord.py (the tests', to read every
    message afterwards); by default the sandbox starts its own."""
    if processes < 1:
        raise ConfigError("--processes is the number of bot processes: 1 or more.")
    if processes > 1 and (database is None or not is_postgres(database)):
        raise ConfigError(
            "Several bot processes share one PostgreSQL database: give --database"
            " postgresql://... with --processes (SQLite serves one process per file)."
        )
    if tour and (processes > 1 or computer):
        raise ConfigError(
            "--tour follows a game between two members in one bot process (it plays the"
            " computer itself, for the hint): leave out --processes and --computer."
        )
    out = run_folder(out, game, seed, computer, language_of(language))
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        db = database if database is not None else Path(tmp) / "sandbox.sqlite3"
        async with contextlib.AsyncExitStack() as stack:
            if emulator is None:
                emu = await stack.enter_async_context(Emulator())
                stack.enter_context(emu.point_discord())
            else:
                emu = emulator
            if processes == 1:
                guild = emu.create_guild("Sandbox Server", locale=language)
            else:
                for shard in range(processes - 1):
                    emu.create_guild(f"Quiet Server {shard}", shard=(shard, processes))
                guild = emu.create_guild(
                    "Sandbox Server", shard=(processes - 1, processes), locale=language
                )
            alice = guild.add_member("Alice", locale=language, manage_guild=tour)
            bob = guild.add_member("Bob", locale=language)
            carol = guild.add_member("Carol", locale=language) if tour else None
            emu.print_chat(attachments_dir=str(out))
            if processes == 1:
                async with running_bot(emu, db, seed=seed, timer_seconds=30) as bot:
                    final = await _play(emu, bot, guild, alice, bob, game, computer, rng)
                    _game_over(final, out)
                    if carol is not None:
                        from bot.sandbox.tour import Tour, run_tour

                        await run_tour(
                            Tour(
                                emu,
                                bot,
                                guild,
                                alice,
                                bob,
                                carol,
                                final,
                                rng,
                                typed_as_shown=language_of(language) != DEFAULT,
                            )
                        )
            else:
                async with _bot_processes(emu, db, processes, seed, out) as (
                    service,
                    children,
                ):
                    final = await _play(emu, service, guild, alice, bob, game, computer, rng)
                    print()
                    print(_who_answered(emu, children))
                    _game_over(final, out)
            return _contract(emu)


def _game_over(final: MatchInfo, out: Path) -> None:
    outcome = final.match.outcome
    print()
    print(
        f"Game #{final.id} over after {final.version} moves: "
        f"{outcome.termination.value if outcome else '?'}. Pictures in {out}/"
    )


def _contract(emu: Emulator) -> int:
    """Say whether every request the bot sent fitted Discord's published description (the
    loopback Discord refuses, as Discord would, what does not): 0 if so, else 1."""
    sent = sum(1 for r in emu.requests if r.path.startswith("/api/"))
    refused = emu.refused_requests
    if not refused:
        print(f"All {sent} requests the bot sent fit Discord's published API description.")
        return 0
    print(f"Discord would refuse {len(refused)} of the {sent} requests the bot sent:")
    for r in refused:
        print(f"  {r.summary}")
    return 1


@contextlib.asynccontextmanager
async def running_bot(
    emu: Emulator,
    database: Path | str,
    clock: Clock | None = None,
    *,
    seed: int | None = None,
    timer_seconds: float = 3600.0,
    metrics_port: int | None = None,
    render_workers: int = Config.render_workers,
) -> AsyncIterator[SchottenBot]:
    """The bot in this process, connected to the emulator and ready (the sandbox's, and the
    end-to-end tests' and benchmarks')."""
    config = Config(
        database=database,
        timer_seconds=timer_seconds,
        metrics_port=metrics_port,
        render_workers=render_workers,
    )
    bot = SchottenBot(config, clock=clock, seed=seed, guild_ready_timeout=0.1)
    runner = asyncio.create_task(bot.start(emu.token))
    try:
        await emu.wait_for_bot(commands=["schotten"])
        await bot.wait_until_ready()
        yield bot
    finally:
        await bot.close()
        await runner


@contextlib.asynccontextmanager
async def _bot_processes(
    emu: Emulator, database: Path | str, processes: int, seed: int, out: Path
) -> AsyncIterator[tuple[GameService, list[BotProcess]]]:
    """`processes` bot processes, shard i of `processes` each, connected; and a service
    of this process's own on their database to follow the game. Stopped as a deploy stops
    them (SIGTERM), each of which must exit cleanly."""
    children = [
        BotProcess(
            emu,
            database,
            log=out / f"bot-{i + 1}.log",
            shards=(i, i),
            shard_count=processes,
            seed=seed,
            timer_seconds=30,
        )
        for i in range(processes)
    ]
    service: GameService | None = None
    failed: list[str] = []
    try:
        await asyncio.gather(*(child.start() for child in children))
        await emu.wait_for_bot(commands=["schotten"], shards=range(processes))
        service = await GameService.open(database, pool_size=2)
        for i, child in enumerate(children):
            servers = [g.name for g in emu.guilds if g.shard_of(processes) == i]
            dms = " and every direct message" if i == 0 else ""
            print(
                f"Bot process {i + 1} (pid {child.pid}, log {child.log}) runs shard {i} of"
                f" {processes}: {', '.join(servers)}{dms}; database {safe_database(database)}."
            )
        print()
        yield service, children
    finally:
        if service is not None:
            await service.close()
        started = [child for child in children if child.proc is not None]
        codes = await asyncio.gather(*(c.stop() for c in started), return_exceptions=True)
        failed += [
            f"the bot process of shard {child.shard_ids[0]} exited with {code!r}: see {child.log}"
            for child, code in zip(started, codes, strict=True)
            if code != 0
        ]
    if failed:
        raise SandboxError("; ".join(failed))


def _who_answered(emu: Emulator, children: list[BotProcess]) -> str:
    """Which process answered the members' commands and clicks, and where they were made."""
    parts = []
    for i, child in enumerate(children):
        handled = [
            r for r in emu.interactions.records.values() if r.session_id in child.session_ids
        ]
        in_dms = sum(r.guild is None for r in handled)
        parts.append(
            f"process {i + 1} (shard {i}) {len(handled)}, of which {in_dms} in direct messages"
        )
    return "Interactions answered: " + "; ".join(parts) + "."


async def _play(
    emu: Emulator,
    source: Source,
    guild: SimGuild,
    alice: SimMember,
    bob: SimMember,
    game: str,
    computer: str | None,
    rng: random.Random,
) -> MatchInfo:
    """Alice challenges Bob (or the computer) and they play the game to its end."""
    channel = guild.default_channel
    if computer:
        handle = await alice.slash(
            ("schotten", "challenge"),
            where=channel,
            opponent=guild.members[emu.bot.id],
            game=game,
            level=computer,
        )
        await handle.reply(timeout=15)
    else:
        handle = await alice.slash(
            ("schotten", "challenge"), where=channel, opponent=bob, game=game
        )
        challenge = await handle.reply(timeout=15)
        accept = await bob.click(challenge, button_of(challenge, "sch:a:"))
        await accept.ack(timeout=15)
    match = await wait_for_game(source, guild.id, alice.id)
    # Members type the moves as autocomplete shows them: in French, `revendiquer 3`.
    in_words = language_of(alice.user.locale) != DEFAULT
    players = {
        alice.id: SimPlayer(alice, random.Random(rng.random()), typed_as_shown=in_words),
        bob.id: SimPlayer(bob, random.Random(rng.random()), typed_as_shown=in_words),
    }
    final = await play_to_the_end(source, emu, players, match.id)
    await asyncio.sleep(0.5)
    return final
