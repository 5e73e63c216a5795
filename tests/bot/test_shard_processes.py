"""Two bot processes on one PostgreSQL database, each running half of 4 shards, play 20
games through the emulator (typed `/schotten move` and clicks on the hands' controls), and
the process holding shard 0 is SIGKILLed while moves are in flight. The other goes on; a
replacement for the killed shards starts, as an operator's supervisor would start one, and
the games in their servers, and the clicks in direct messages (shard 0), go on with it.

Afterwards: every move the bot acknowledged is in the move log, no move was applied twice
or without a member asking for it, every board was announced exactly once, each timer (a
reminder, a forfeit, a challenge's expiry) fired exactly once across the processes, and
every game replays from its seed and move log to exactly its stored state. Every
interaction delivered to a process that did not die was acknowledged within Discord's 3 s.

What the killed process had claimed to announce (or stored and not yet claimed), a live
process takes over at its next heartbeat once the dead one has been silent for
`DEAD_AFTER`: every board pending at the kill is posted within `TAKEOVER` seconds of it,
instead of when the claim's 60 s lease runs out. The clocks are set
from what the members see (a reminder is out, a challenge's message is posted), never
from a fixed time, so a busy machine only stretches the run: the waits for what the bots
do soon allow `SOON` seconds.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from bot import service as service_module
from bot.front import texts
from bot.records import MatchInfo, MoveResult
from bot.sandbox.processes import BotProcess
from bot.service import GameService
from bot.store import Settings
from discord_loopback import (
    ChatEvent,
    Emulator,
    EmulatorTimeout,
    InteractionHandle,
    SimChannel,
    SimGuild,
    SimMember,
    SimMessage,
)
from tests.bot.announced import check_everything_announced, settled

SHARD_COUNT = 4
HALVES = [(0, 1), (2, 3)]
GAMES = 20
AFTER = 2  # moves each game makes once the replacement runs, and then it stops
VARIANTS = ["classic", "tactics", "expert", "siege", "siege-tactics"]
IN_FLIGHT = 6  # moves sent at once, all games together
TIMER_SECONDS = 1.0  # each bot's timer loop: reminders, forfeits, expiries, the relay
# The safety net behind the heartbeats: a claim's lease (the waits below allow it).
LEASE = service_module.LEASE_SECONDS
# The promise: a dead process's boards are posted within this of the kill.
TAKEOVER = 15.0
# The longest wait for something the bots do at once or on their next timer tick (a reply,
# a game's start, a reminder sent): long, since the machine may be busy.
SOON = 60.0


@dataclass
class Game:
    id: int
    members: dict[int, SimMember]
    rng: random.Random
    acked: list[float] = field(default_factory=list)  # when each acknowledged move was sent


@dataclass
class Attempt:
    """One move a member sent: at which version, how, and what came of it."""

    game: int
    version: int
    seat: int
    text: str
    via: str  # "typed", or "click" on a hand's controls
    handle: InteractionHandle | None = None
    ok: bool | None = None  # True: answered as made; False: refused; None: no answer
    sent_at: float = field(default_factory=time.monotonic)
    done_at: float = 0.0  # time.monotonic() once the answer came or was given up on

    @property
    def session(self) -> str | None:
        """The gateway session (so the process) the interaction was delivered to."""
        return self.handle.record.session_id if self.handle is not None else None

    @property
    def in_dm(self) -> bool:
        return self.handle is not None and self.handle.record.guild is None


@dataclass
class Run:
    """What the members see and did."""

    emu: Emulator
    service: GameService  # the test's own, on the bots' database
    games: list[Game] = field(default_factory=list)
    attempts: list[Attempt] = field(default_factory=list)
    slots: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(IN_FLIGHT))
    back_at: float | None = None  # when the replacement process had connected
    files: set[str] = field(default_factory=set)  # every attachment the bot ever showed

    def __post_init__(self) -> None:
        self.emu.subscribe(self._seen)

    def _seen(self, event: ChatEvent) -> None:
        for attachment in getattr(event.message, "attachments", None) or ():
            self.files.add(attachment.filename)

    def ok(self) -> list[Attempt]:
        return [a for a in self.attempts if a.ok]

    def shown(self, match_id: int, version: int) -> bool:
        """Whether this version's board is in the chat (posted, or a turn's message edited)."""
        return f"board-{match_id}-{version}.png" in self.files

    async def progress(
        self, since: float, where: Callable[[Attempt], bool], count: int, timeout: float
    ) -> None:
        """Until `count` moves sent after `since` and acknowledged satisfy `where`."""
        end = time.monotonic() + timeout
        while sum(1 for a in self.ok() if a.sent_at > since and where(a)) < count:
            if time.monotonic() > end:
                tried = [
                    (a.game, a.version, a.via, a.ok) for a in self.attempts if a.sent_at > since
                ]
                raise AssertionError(f"fewer than {count} moves made in {timeout} s: {tried}")
            await asyncio.sleep(0.1)


async def until(check: Callable[[], Awaitable[bool]], what: str, timeout: float = SOON) -> None:
    """Poll `check` until it holds; fail, saying `what` was awaited, after `timeout` s."""
    end = time.monotonic() + timeout
    while not await check():
        if time.monotonic() > end:
            raise AssertionError(f"not within {timeout} s: {what}")
        await asyncio.sleep(0.05)


# Playing --------------------------------------------------------------------------------------


def controls(member: SimMember, channel: SimChannel, info: MatchInfo) -> SimMessage | None:
    """The newest message visible to the member with their hand's controls for this
    position: a DM, or the private reply to their last move in the game's channel."""

    def for_now(custom_id: str) -> bool:  # sch:KIND:MATCH:VERSION[:...]
        parts = custom_id.split(":", 4)
        return len(parts) >= 4 and parts[2:4] == [str(info.id), str(info.version)]

    found = [
        m
        for ch in (member.dm_channel, channel)
        for m in ch.messages
        if not m.deleted
        and m.is_visible_to(member.user)
        and any(for_now(str(c.get("custom_id", ""))) for c in m.all_components())
    ]
    return max(found, key=lambda m: m.id) if found else None


async def answered(
    emu: Emulator, handle: InteractionHandle, kinds: tuple[str, ...], timeout: float = 20
) -> bool | None:
    """Whether the bot answered with one of `kinds` (True) or with something else (False);
    None if no answer came (not delivered, not acknowledged in time, or lost with a bot)."""

    def lost(h: InteractionHandle) -> bool:
        # Delivered to a process that has died since: its answer will never come.
        session = emu.gateway.sessions.get(h.record.session_id or "")
        return session is not None and not session.live

    try:
        await handle.wait_until(lambda h: h.record.responses or lost(h), timeout, "an answer")
    except EmulatorTimeout:
        return None
    if not handle.record.responses:
        return None
    return handle.record.responses[0].kind in kinds


async def typed_move(run: Run, game: Game, info: MatchInfo, member: SimMember) -> Attempt:
    """`/schotten move` with a legal move, in the game's channel."""
    seat = info.match.to_decide
    legal = [str(m) for m in info.match.legal_moves() if not str(m).startswith("resign")]
    text = game.rng.choice(legal)
    # The bot's answer to a move it made starts with what the move did, as the bot words it
    # from the move's events: the same move on the same position gives the same events.
    before = len(info.match.log)
    events = info.match.apply(info.match.parse_move(text, seat), seat)
    note = texts.what_you_did(MoveResult(info, seat, info.match.log[before][1], events))
    attempt = Attempt(game.id, info.version, seat, text, "typed")
    run.attempts.append(attempt)
    channel = run.emu.world.channel(info.channel_id)
    attempt.handle = await member.slash(("schotten", "move"), where=channel, notation=text)
    if await answered(run.emu, attempt.handle, ("reply", "followup")) is not None:
        attempt.ok = attempt.handle.record.responses[0].message.content.split("\n")[0] == note
    return attempt


async def click_move(
    run: Run, game: Game, info: MatchInfo, member: SimMember, message: SimMessage
) -> Attempt | None:
    """A move made on the hand's controls: a move's button, or a card from the card menu
    and then where it goes. None if these controls offer no such path."""
    seat = info.match.to_decide
    prefix = f"sch:m:{info.id}:{info.version}:"
    for _ in range(2):
        ids = [str(c.get("custom_id", "")) for c in message.all_components()]
        moves = [i for i in ids if i.startswith(prefix) and not i.endswith(":resign")]
        if moves:
            custom_id = game.rng.choice(moves)
            attempt = Attempt(game.id, info.version, seat, custom_id[len(prefix) :], "click")
            run.attempts.append(attempt)
            attempt.handle = await member.click(message, custom_id)
            # Made: the hand's message shows the new position; refused: a private followup.
            attempt.ok = await answered(run.emu, attempt.handle, ("update",))
            return attempt
        cards = [s for s in message.selects() if str(s["custom_id"]).startswith("sch:c:")]
        if not cards:
            return None
        values = [o["value"] for o in cards[0]["options"] if not o["value"].startswith("!")]
        if not values:
            return None
        handle = await member.select(message, cards[0]["custom_id"], [game.rng.choice(values)])
        if not await answered(run.emu, handle, ("update",)):
            return None  # the step was not shown: try again from the top
        message = handle.record.responses[0].message
    return None


def finished(run: Run, game: Game) -> bool:
    """Whether the game made its moves: AFTER of them once the replacement ran."""
    return run.back_at is not None and sum(t > run.back_at for t in game.acked) >= AFTER


async def play(run: Run, game: Game, deadline: float) -> None:
    """The game's two members make moves, a moment apart, until it is `finished`."""
    while not finished(run, game) and time.monotonic() < deadline:
        info = await run.service.match(game.id)
        if info.is_over:
            return
        member = game.members[info.deciding_user]  # type: ignore[index]
        channel = run.emu.world.channel(info.channel_id)
        hand = controls(member, channel, info)
        if not await board_seen(run, game.id, info.version) or hand is None:
            await asyncio.sleep(0.1)  # members act on the board and the hand they see
            continue
        async with run.slots:
            attempt = None
            message = hand if game.rng.random() < 0.5 else None
            if message is not None:
                attempt = await click_move(run, game, info, member, message)
            if attempt is None:
                attempt = await typed_move(run, game, info, member)
        attempt.done_at = time.monotonic()
        if attempt.ok:
            game.acked.append(attempt.sent_at)
            await asyncio.sleep(game.rng.uniform(0.1, 0.5))
        else:
            # Then look again (the move may have been stored); not at once, or the games
            # whose shard is down would take most slots with moves that wait for it.
            await asyncio.sleep(2.0)


async def board_seen(run: Run, match_id: int, version: int) -> bool:
    """Whether the board of this version is in the chat, or was held back because the mover's
    turn goes on (they see the position in their hand's reply: README rule R-23)."""
    if run.shown(match_id, version):
        return True
    row = await run.service.store.board_row(match_id, version)
    return row is not None and row["status"] == "skipped"


async def start_game(
    run: Run, guild: SimGuild, channel: SimChannel, a: SimMember, b: SimMember, variant: str
) -> int:
    """A challenges B in the channel and B accepts: the new game's id."""
    handle = await a.slash(("schotten", "challenge"), where=channel, opponent=b, game=variant)
    challenge = await handle.reply(timeout=SOON)
    await (await b.click(challenge, label="Accept")).ack(timeout=SOON)

    async def started() -> bool:
        return bool(await run.service.active_matches_of(guild.id, a.id))

    await until(started, f"the game of {a.name} and {b.name} starts")
    return (await run.service.active_matches_of(guild.id, a.id))[0].id


# The servers and the bot processes -----------------------------------------------------


class Scene:
    """Four servers, one on each shard, of ten members each (the 20 games); two servers
    with short timers (`clocks`, on shards 1 and 3: the first half's and the second's);
    the bot processes."""

    def __init__(self, emu: Emulator, database: str, logs: Path) -> None:
        self.emu = emu
        self.database = database
        self.logs = logs
        self.guilds = [
            emu.create_guild(f"Server {s}", shard=(s, SHARD_COUNT)) for s in range(SHARD_COUNT)
        ]
        self.clocks = [
            emu.create_guild(f"Clock {s}", shard=(s, SHARD_COUNT), channels=("general", "lobby"))
            for s in (1, 3)
        ]
        self.people = {
            g.id: [g.add_member(f"{g.name}/{i}") for i in range(10)] for g in self.guilds
        }
        for g in self.clocks:
            self.people[g.id] = [g.add_member(f"{g.name}/{i}") for i in range(2)]
        self.members = {m.id: m for ms in self.people.values() for m in ms}
        self.processes: list[BotProcess] = []

    def process(self, shards: tuple[int, int], name: str) -> BotProcess:
        p = BotProcess(
            self.emu,
            self.database,
            log=self.logs / f"bot-{name}.log",
            shards=shards,
            shard_count=SHARD_COUNT,
            timer_seconds=TIMER_SECONDS,
        )
        self.processes.append(p)
        return p

    def log_tails(self) -> str:
        return "\n".join(f"--- {p.log.name}\n{p.log_text()[-6000:]}" for p in self.processes)

    async def begin(self, run: Run, n: int) -> Game:
        """The n-th game, in the server of shard n % 4, in a channel of its own."""
        guild = self.guilds[n % SHARD_COUNT]
        a, b = self.people[guild.id][2 * (n // SHARD_COUNT) : 2 * (n // SHARD_COUNT) + 2]
        channel = guild.create_text_channel(f"table-{n}")
        async with run.slots:
            match_id = await start_game(run, guild, channel, a, b, VARIANTS[n % len(VARIANTS)])
        return Game(match_id, {a.id: a, b.id: b}, random.Random(n))

    async def set_clocks(self, run: Run, idle: list[int]) -> list[int]:
        """A challenge is made in each clock server's lobby; the idle games there are
        reminded at once; once the reminders are out, the games are forfeited 8 s later and
        the challenges expire 3 s later. The challenges' ids. Returns once the reminders are
        sent, while both processes run: the kill that follows falls between the reminders
        and the forfeits, about when the challenges expire. Each step waits for the one
        before to be seen done, so a busy machine moves the clocks and not their order."""
        store = run.service.store
        challenges = []
        for g in self.clocks:
            a, b = self.people[g.id]
            lobby = g.channel("lobby")
            await (await a.slash(("schotten", "challenge"), where=lobby, opponent=b)).reply(SOON)
            challenges += [c.id for c in await run.service.open_challenges(lobby.id, a.id)]

        # Their messages are stored before they expire, or an expiry would have none to edit.
        async def posted() -> bool:
            infos = [await run.service.challenge_info(c) for c in challenges]
            return all(info.message_id is not None for info in infos)

        await until(posted, "the challenges' messages are stored")

        async def clocks(forfeit_in: float) -> None:
            """Reminders due now; forfeits `forfeit_in` seconds from now."""
            now = time.time()
            for g, game_id in zip(self.clocks, idle, strict=True):
                since = (await run.service.match(game_id)).due_since
                hours = {
                    "reminder_hours": (now - since) / 3600,
                    "forfeit_hours": (now - since + forfeit_in) / 3600,
                }
                async with store.transaction() as tx:
                    await store.put_settings(tx, Settings(g.id, **hours))
                    # The game follows its server's settings (as games from before clocks
                    # per game do), so that these set its deadlines.
                    await tx.execute(
                        "UPDATE matches SET clock_hours = NULL WHERE id = ?", (game_id,)
                    )

        await clocks(forfeit_in=3600)

        async def reminded() -> bool:
            rows = await store._all("SELECT status FROM outbox WHERE kind = 'reminder'")
            return [r["status"] for r in rows] == ["sent"] * len(idle)

        await until(reminded, "the reminders are sent")
        await clocks(forfeit_in=8)
        async with store.transaction() as tx:
            for challenge_id in challenges:
                await tx.execute(
                    "UPDATE challenges SET expires_at = ? WHERE id = ?",
                    (time.time() + 3, challenge_id),
                )
        return challenges


# Checking ---------------------------------------------------------------------------------


async def check_moves(run: Run, game_id: int) -> None:
    """The acknowledged moves are in the log, each once, and nothing else is but the clock."""
    info = await run.service.match(game_id)
    log = await run.service.store.moves(game_id)
    assert [r["seq"] for r in log] == list(range(len(log)))
    # One log entry per stored version: the entry at seq v is the move from version v.
    assert len(log) == info.version, (game_id, len(log), info.version)
    mine = [a for a in run.attempts if a.game == game_id]
    acked = [a for a in mine if a.ok]
    assert len({a.version for a in acked}) == len(acked), (
        f"game {game_id}: two moves acknowledged at one version"
    )
    for a in acked:
        assert a.version < info.version, (
            f"game {game_id}: acknowledged {a.text!r} at {a.version} is lost"
        )
        entry = (log[a.version]["seat"], log[a.version]["text"])
        assert entry == (a.seat, a.text), (
            f"game {game_id} v{a.version}: {entry} stored, {a} acknowledged"
        )
    for v, row in enumerate(log):
        if row["text"] == "timeout":
            continue  # the clock's move
        sent = [
            a for a in mine if a.version == v and (a.seat, a.text) == (row["seat"], row["text"])
        ]
        assert sent, (
            f"game {game_id}: {row['text']!r} at version {v} was never sent (applied twice?)"
        )
    assert await run.service.verify(game_id), f"game {game_id} does not replay to its state"


async def check_timers(run: Run, clock_games: list[int], challenges: list[int]) -> None:
    """Each clock game was reminded once and forfeited once; each challenge expired once."""
    store = run.service.store
    for game_id in clock_games:
        info = await run.service.match(game_id)
        assert info.is_over and info.match.outcome.termination.name == "TIMEOUT", game_id
        moves = [r["text"] for r in await store.moves(game_id)]
        assert moves == ["timeout"], moves  # the idle player's only move, made by the clock
        rows = await store._all(
            "SELECT status FROM outbox WHERE match_id = ? AND kind = 'reminder'", (game_id,)
        )
        assert [r["status"] for r in rows] == ["sent"], (game_id, rows)
        channel = run.emu.world.channel(info.channel_id)
        said = f"game #{game_id} has been waiting for your move"
        assert sum(said in m.content for m in channel.messages) == 1, game_id
    for challenge_id in challenges:
        rows = await store._all(
            "SELECT status FROM outbox WHERE challenge_id = ? AND kind = 'challenge'",
            (challenge_id,),
        )
        assert [r["status"] for r in rows] == ["sent"], (challenge_id, rows)
        info = await run.service.challenge_info(challenge_id)
        assert info.status == "expired"
        assert run.emu.message(info.message_id).content == texts.expired(info)


def check_acknowledged(emu: Emulator, survivors: list[BotProcess]) -> None:
    """Every interaction delivered to a process that lived on was acknowledged in time."""
    live = {s for p in survivors for s in p.session_ids}
    late = [
        f"{r.summary} ({r.callback_type=}, {r.errors=})"
        for r in emu.interactions.records.values()
        if r.session_id in live and r.expired
    ]
    assert late == [], f"not acknowledged within {emu.interactions.deadline:g} s: {late}"


def acknowledgements(emu: Emulator) -> str:
    """How long the acknowledgements took, by kind of interaction."""
    kinds: dict[str, list[float]] = {}
    for handle in emu.interaction_log:
        if handle.ack_latency is not None:
            kind = handle.record.command_name or handle.record.summary.split(" ")[0]
            kinds.setdefault(kind, []).append(handle.ack_latency * 1000)
    return "; ".join(
        f"{kind} {len(v)}: median {statistics.median(v):.0f} ms, slowest {max(v):.0f} ms"
        for kind, v in sorted(kinds.items())
    )


async def summary(
    run: Run, flying: int, held: int, downtime: float, processes: list[BotProcess]
) -> str:
    """What the run went through (shown with pytest -s), to see that it tested something."""
    stored_unanswered = 0
    for a in run.attempts:
        if a.ok is None:
            log = await run.service.store.moves(a.game)
            row = log[a.version] if a.version < len(log) else None
            stored_unanswered += row is not None and (row["seat"], row["text"]) == (a.seat, a.text)
    by = {p.log.stem: sum(1 for a in run.ok() if a.session in p.session_ids) for p in processes}
    return (
        f"{len(run.attempts)} moves sent: {len(run.ok())} acknowledged"
        f" ({sum(a.via == 'click' for a in run.ok())} by clicks; by process: {by}),"
        f" {sum(a.ok is False for a in run.attempts)} refused,"
        f" {sum(a.ok is None for a in run.attempts)} unanswered of which {stored_unanswered}"
        f" stored; {flying} in flight at the kill, {held} announcements under a lease then;"
        f" the replacement connected {downtime:.1f} s after the kill. Acknowledged:"
        f" {acknowledgements(run.emu)}"
    )


# The test ---------------------------------------------------------------------------------


async def kill_during_moves(run: Run, victim: BotProcess) -> int:
    """SIGKILL the process while it handles moves (acknowledged, not yet answered): how
    many it was handling."""

    def in_flight() -> int:
        return sum(
            1
            for a in run.attempts
            if a.ok is None
            and not a.done_at
            and a.session in victim.session_ids
            and a.handle is not None
            and a.handle.record.callback_type is not None
        )

    for _ in range(2000):
        if in_flight() >= 2:
            break
        await asyncio.sleep(0.005)
    flying = in_flight()
    victim.kill()
    assert await victim.exit_code() == -9
    assert flying >= 1, "the kill came when no move was in flight"
    return flying


async def test_a_killed_shard_process_loses_and_doubles_nothing(pg_url, tmp_path: Path):
    # A member's interaction for a shard that is down fails after a second, not five.
    async with Emulator(command_wait=1.0) as emu:
        scene = Scene(emu, pg_url, tmp_path)
        first, second = scene.process(HALVES[0], "0-1"), scene.process(HALVES[1], "2-3")
        service = await GameService.open(pg_url, pool_size=4)
        run = Run(emu, service)
        try:
            await asyncio.gather(first.start(), second.start())
            await emu.wait_for_bot(commands=["schotten"], shards=range(SHARD_COUNT))
            run.games = list(await asyncio.gather(*(scene.begin(run, n) for n in range(GAMES))))
            idle = []
            for g in scene.clocks:
                a, b = scene.people[g.id]
                idle.append(await start_game(run, g, g.default_channel, a, b, "classic"))
            deadline = time.monotonic() + 3 * LEASE + 120
            players = [asyncio.create_task(play(run, game, deadline)) for game in run.games]

            # Once the games are under way, short timers in the clock servers, so that the
            # reminders, forfeits and expiries fall due around the kill; then the kill.
            while len(run.ok()) < 2 * GAMES:
                for t in players:
                    if t.done():
                        t.result()  # a player that failed fails the test at once
                await asyncio.sleep(0.05)
            challenges = await scene.set_clocks(run, idle)
            flying = await kill_during_moves(run, first)
            killed_at, killed_wall = time.monotonic(), time.time()
            held = await service.store._all(
                "SELECT id FROM outbox WHERE status = 'pending' AND lease_until IS NOT NULL"
            )
            boards = await service.store._all(
                "SELECT id FROM outbox WHERE status = 'pending' AND kind = 'board'"
            )

            # The other process goes on with the games of its servers.
            await run.progress(killed_at, lambda a: a.session in second.session_ids, 3, LEASE + 60)
            assert second.live()
            replacement = scene.process(HALVES[0], "0-1-again")
            await replacement.start()
            run.back_at = back_at = time.monotonic()
            # With the replacement: the games of its servers, and the clicks in DMs.
            mine = replacement.session_ids
            await run.progress(back_at, lambda a: a.session in mine and not a.in_dm, 3, LEASE + 60)
            await run.progress(back_at, lambda a: a.session in mine and a.in_dm, 3, LEASE + 60)
            await asyncio.gather(*players)
            for game in run.games:
                info = await service.match(game.id)
                member = game.members[info.deciding_user]  # type: ignore[index]
                channel = run.emu.world.channel(info.channel_id)
                assert finished(run, game) or info.is_over, (
                    f"game {game.id} stalled at {info.version}: board seen"
                    f" {await board_seen(run, game.id, info.version)}, hand"
                    f" {controls(member, channel, info) is not None}; files"
                    f" {sorted(f for f in run.files if f'-{game.id}-' in f)}\n{scene.log_tails()}"
                )

            # What the dead process had claimed, a live one sends once the claim ran out.
            def alive() -> bool:
                return second.live() and replacement.live()

            await settled(service, LEASE + 60, alive=alive, log=scene.log_tails)
            # Taken over in seconds: each board pending at the kill was done (posted, or
            # skipped as a turn's held step) within TAKEOVER of it.
            pending_then = {b["id"] for b in boards}
            late = [
                (r["id"], round(r["done_at"] - killed_wall, 1))
                for r in await service.store._all(
                    "SELECT id, done_at FROM outbox WHERE kind = 'board' AND done_at > ?",
                    (killed_wall + TAKEOVER,),
                )
                if r["id"] in pending_then
            ]
            assert boards and not late, (len(boards), late)
            for game_id in [g.id for g in run.games] + idle:
                channel = emu.world.channel((await service.match(game_id)).channel_id)
                await check_everything_announced(emu, service, channel, scene.members, game_id)
                await check_moves(run, game_id)
            await check_timers(run, idle, challenges)
            check_acknowledged(emu, [second, replacement])
            assert emu.server_errors == [] and emu.unhandled_requests == []
            assert emu.refused_requests == [], [r.summary for r in emu.refused_requests]
            for p in (second, replacement):
                assert await p.stop() == 0, p.log_text()
            print(await summary(run, flying, len(held), back_at - killed_at, scene.processes))
        finally:
            for p in scene.processes:
                if p.returncode is None:
                    p.kill()
                    await p.exit_code()
            await service.close()
