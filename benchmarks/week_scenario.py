"""The week `benchmarks/week.py` measures: two servers, their members, their games and a
Swiss tournament, played by the real bot (discord.py, in this process) on the loopback
Discord with one manual clock for both, advanced step by step through the days.

Between steps the clock jumps (`WeekPlan.step_minutes`), stopping wherever the outbox has
a retry due for a timer pass, as the bot's own timer loop runs every minute. Within a step
it stands still (the loopback's rate-limit buckets add the real time that passed, as
discord.py waits out a `Retry-After` in real seconds: discord_loopback/ratelimits.py).
Each step runs the bot's timer pass (`front.handle_due`: reminders, forfeits, tournament
rounds, the outbox's retries), then the events planned for that moment, then the turns of
the members whose time to answer has come: some answer within minutes, some after hours,
some never (their games end on time), some resign a lost game.

The events (at fractions of the week, so that a shorter week has them all): a game thread
archived, one locked for some hours, Send Messages taken from a game's channel and given
back, members leaving, a two-hour Discord outage (every REST request of the bot's answered
503 but its answers to interactions: the moves are taken, their announcements wait), and the
bot removed from the second server. Members of that server stop acting then. A member moves
only once the board of the position has gone out (until then they do not know it is their
turn), so an announcement lost or late shows as a game that stops.
"""

from __future__ import annotations

import asyncio
import math
import random
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.config import Config
from bot.front.app import Front
from bot.front.client import SchottenBot
from bot.records import MatchInfo
from bot.service import GameService
from bot.time_source import ManualClock
from discord_loopback import Emulator, SimChannel, SimGuild, SimMember
from discord_loopback.permissions import SEND_MESSAGES, SEND_MESSAGES_IN_THREADS

HOUR = 3600.0
DAY = 24 * HOUR
REPLY_TIMEOUT = 20.0  # seconds of wall time a member waits for the bot's answer
VARIANTS = ("classic", "siege", "classic", "tactics")
PREFERRED = ("claim", "control")  # moves that end games sooner: a member makes them first
# How long a member takes to answer, by temperament (seconds, uniform between the two).
TEMPERAMENTS = {
    "quick": (2 * 60.0, 40 * 60.0),
    "steady": (30 * 60.0, 5 * HOUR),
    "slow": (3 * HOUR, 16 * HOUR),
}
NEVER = math.inf
TIMER_SECONDS = Config.timer_seconds  # the bot's timer loop runs this often
MAX_RETRY_PASSES = 200  # timer passes for the outbox's retries within one step, at most
ALPHA_CHANNELS = ("games", "games-2", "games-3", "games-4")


@dataclass(frozen=True)
class WeekPlan:
    """What the week holds. Event times are fractions of the week (`days`)."""

    members: int = 40
    games: int = 60  # all of them: casual challenges and the tournaments' games
    days: float = 7.0
    step_minutes: float = 20.0
    seed: int = 38
    swiss_players: int = 8  # the first server's Swiss
    swiss_rounds: int = 3
    swiss_round_hours: float = 48.0
    second_swiss_players: int = 4  # the second server's, under way when the bot is removed
    second_swiss_rounds: int = 3
    second_swiss_round_hours: float = 24.0
    second_swiss_at: float = 0.55
    reminder_hours: float = 8.0  # the servers' settings
    forfeit_hours: float = 24.0
    closed_dms: float = 0.15  # share of members whose DMs are closed
    absent: float = 0.08  # share of members who stop answering at once
    resigners: float = 0.45  # share of casual games that the loser resigns
    challenges_until: float = 0.55  # casual games are challenged before this
    archive_at: float = 0.20
    lock_at: float = 0.30
    lock_hours: float = 6.0
    mute_at: float = 0.35
    mute_hours: float = 3.0
    outage_at: float = 0.45
    outage_hours: float = 2.0
    leave_at: float = 0.50
    leavers: int = 2
    removal_at: float = 5 / 7
    concurrency: int = 6  # members acting at once

    @property
    def seconds(self) -> float:
        return self.days * DAY


@dataclass(eq=False)
class Player:
    member: SimMember
    temperament: str
    absent: bool = False
    gone: bool = False  # left the server, or the bot was removed from it

    def delay(self, rng: random.Random) -> float:
        if self.absent or self.gone:
            return NEVER
        low, high = TEMPERAMENTS[self.temperament]
        return rng.uniform(low, high)


@dataclass(eq=False)
class Table:
    """One game as the scenario follows it."""

    match_id: int
    channel_id: int
    guild: SimGuild
    tournament: bool
    resign_after: int | None  # turns before the member to move resigns (None: play on)
    version: int = -1  # the version the next answer was planned for
    next_at: float = NEVER  # when the member to move answers (clock time)
    turns: int = 0
    over: bool = False
    busy: bool = False
    touched: bool = False  # an event of the week picked this game


class Week:
    """One simulated week against a running bot."""

    def __init__(self, plan: WeekPlan, emu: Emulator, clock: ManualClock) -> None:
        self.plan = plan
        self.emu = emu
        self.clock = clock
        self.rng = random.Random(plan.seed)
        self.start = clock.now()
        self.players: dict[int, Player] = {}
        self.tables: dict[int, Table] = {}
        self.tournaments: list[int] = []
        self.moves = 0
        self.troubles: list[str] = []
        self.missed: list[str] = []  # events that found nothing to act on
        self.notes: list[str] = []  # what the members met that the bot rightly refused
        self.removed: set[int] = set()
        self._challenges: list[tuple[float, SimGuild, bool]] = []
        self._events: list[tuple[float, str, Callable[[], Awaitable[bool]]]] = []
        self.bot: SchottenBot | None = None
        self.service: GameService | None = None
        self.alpha, self.beta = self._build_world()

    # -- the world ---------------------------------------------------------------------

    def _build_world(self) -> tuple[SimGuild, SimGuild]:
        p = self.plan
        # Games in the first server are challenged in a few channels and played in threads.
        alpha = self.emu.create_guild("Alpha", channels=("general", *ALPHA_CHANNELS))
        beta = self.emu.create_guild("Beta", channels=("general",))
        self.boss = {
            alpha.id: alpha.add_member("alpha-boss", manage_guild=True),
            beta.id: beta.add_member("beta-boss", manage_guild=True),
        }
        for i in range(p.members):
            guild = alpha if i % 2 == 0 else beta
            dms = self.rng.random() >= p.closed_dms
            member = guild.add_member(f"m{i:02d}", dms_open=dms)
            temperament = self.rng.choice(("quick", "quick", "steady", "slow"))
            absent = self.rng.random() < p.absent
            self.players[member.id] = Player(member, temperament, absent)
        # The second server plays in channels (no threads): one channel per table.
        tables = [beta.create_text_channel(f"table-{i}") for i in range(p.games)]
        self._game_channels = {
            alpha.id: [alpha.channel(name) for name in ALPHA_CHANNELS],
            beta.id: tables,
        }
        return alpha, beta

    def members_of(self, guild: SimGuild, *, present: bool = True) -> list[Player]:
        return [
            pl
            for pl in self.players.values()
            if pl.member.guild is guild and not (present and (pl.gone or pl.absent))
        ]

    def elapsed(self) -> float:
        return self.clock.now() - self.start

    def at(self, share: float) -> float:
        return self.start + share * self.plan.seconds

    # -- setting up --------------------------------------------------------------------

    async def setup(self) -> None:
        """The servers' settings and the tournaments' sign-up, by their managers."""
        p = self.plan
        for guild, threads in ((self.alpha, True), (self.beta, False)):
            handle = await self.boss[guild.id].slash(
                ("schotten-admin", "settings"),
                where=guild.default_channel,
                reminder_hours=p.reminder_hours,
                forfeit_hours=p.forfeit_hours,
                use_threads=threads,
            )
            await handle.reply(timeout=REPLY_TIMEOUT)
        await self._swiss(self.alpha, p.swiss_players, p.swiss_rounds, p.swiss_round_hours)
        casual = p.games - self._tournament_games()
        for g in range(max(0, casual)):
            when = self.at(p.challenges_until * g / max(1, casual))
            self._challenges.append((when, self.alpha if g % 2 == 0 else self.beta, True))
        self._plan_events()

    def _tournament_games(self) -> int:
        """About how many games the tournaments will start (the second one is cut short by
        the bot's removal, about two rounds in)."""
        p = self.plan
        games = p.swiss_players // 2 * p.swiss_rounds
        if p.second_swiss_players:
            games += p.second_swiss_players // 2 * min(2, p.second_swiss_rounds)
        return games

    async def _second_swiss(self) -> bool:
        p = self.plan
        await self._swiss(
            self.beta, p.second_swiss_players, p.second_swiss_rounds, p.second_swiss_round_hours
        )
        return True

    async def _swiss(self, guild: SimGuild, players: int, rounds: int, hours: float) -> None:
        boss = self.boss[guild.id]
        where = guild.default_channel
        created = await boss.slash(
            ("schotten-admin", "tournament", "create"),
            where=where,
            name=f"{guild.name} Swiss",
            game="classic",
            rounds=rounds,
            round_hours=hours,
        )
        notice = await created.reply(timeout=REPLY_TIMEOUT)
        # Entrants answer quickly: a Swiss round has a deadline.
        entrants = [pl for pl in self.members_of(guild) if pl.member.dms_open][:players]
        entrants += [pl for pl in self.members_of(guild) if pl not in entrants]
        for pl in entrants[:players]:
            pl.temperament = "quick"
            await (await pl.member.click(notice, label="Join")).reply(timeout=REPLY_TIMEOUT)
        started = await boss.slash(("schotten-admin", "tournament", "start"), where=where)
        await started.reply(timeout=REPLY_TIMEOUT)
        (t,) = await self._front().tournaments.live(guild.id)
        self.tournaments.append(t.id)

    def _plan_events(self) -> None:
        p = self.plan
        events: list[tuple[float, str, Callable[[], Awaitable[bool]]]] = [
            (self.at(p.archive_at), "a game thread archived", self._archive),
            (self.at(p.lock_at), "a game thread locked", self._lock),
            (self.at(p.mute_at), "Send Messages taken from a game channel", self._mute),
            (self.at(p.outage_at), "Discord's outage begins", self._outage_begins),
            (self.at(p.leave_at), "members leave", self._members_leave),
            (self.at(p.removal_at), "the bot removed from Beta", self._remove_bot),
        ]
        if p.second_swiss_players:
            events.append((self.at(p.second_swiss_at), "Beta's Swiss begins", self._second_swiss))
        self._events = sorted(events, key=lambda e: e[0])

    def later(self, seconds: float, what: str, action: Callable[[], Awaitable[bool]]) -> None:
        self._events.append((self.clock.now() + seconds, what, action))
        self._events.sort(key=lambda e: e[0])

    # -- the events --------------------------------------------------------------------

    def _live_table(self, guild: SimGuild) -> Table | None:
        """A casual game under way in `guild` that no event has touched yet (it is now)."""
        for table in self.tables.values():
            if table.guild is guild and not (table.over or table.tournament or table.touched):
                table.touched = True
                return table
        return None

    async def _thread_of_live_game(self) -> SimChannel | None:
        table = self._live_table(self.alpha)
        if table is None:
            return None
        channel = self.emu.world.channel(table.channel_id)
        return channel if channel.is_thread else None

    async def _archive(self) -> bool:
        thread = await self._thread_of_live_game()
        if thread is None:
            return False
        self.emu.world.archive_thread(thread)
        return True

    async def _lock(self) -> bool:
        thread = await self._thread_of_live_game()
        if thread is None:
            return False
        self.emu.world.lock_thread(thread, locked=True)

        async def unlock() -> bool:
            self.emu.world.lock_thread(thread, locked=False)
            return True

        self.later(self.plan.lock_hours * HOUR, "the thread unlocked", unlock)
        return True

    async def _mute(self) -> bool:
        table = self._live_table(self.beta)
        if table is None:
            return False
        channel = self.emu.world.channel(table.channel_id)
        denied = SEND_MESSAGES | SEND_MESSAGES_IN_THREADS
        self.emu.world.set_permissions(channel, self.emu.bot, deny=denied)

        async def given_back() -> bool:
            self.emu.world.set_permissions(channel, self.emu.bot)  # the overwrite removed
            return True

        self.later(self.plan.mute_hours * HOUR, "Send Messages given back", given_back)
        return True

    async def _outage_begins(self) -> bool:
        # Interactions are still answered, so the members' moves are stored during it while
        # every board, hand and reminder they owe fails: the outbox must send them after.
        fault = self.emu.faults.outage(interactions_answered=True)

        async def ends() -> bool:
            fault.remove()
            return True

        self.later(self.plan.outage_hours * HOUR, "Discord's outage ends", ends)
        return True

    async def _members_leave(self) -> bool:
        """Members leave the first server (`leavers` of them): players of its games under
        way first, a casual game's and a Swiss game's in turn, else anyone there."""
        service = self._service()
        live = [t for t in self.tables.values() if t.guild is self.alpha and not t.over]
        casual = [t for t in live if not t.tournament]
        swiss = [t for t in live if t.tournament]
        order = [t for pair in zip(casual, swiss, strict=False) for t in pair]
        order += [t for t in live if t not in order]
        candidates: list[Player] = []
        for table in order:
            info = await service.match(table.match_id)
            candidates += [self.players[u] for u in info.players if u in self.players][:1]
        candidates += self.members_of(self.alpha)
        leaving: list[Player] = []
        for pl in candidates:
            if len(leaving) < self.plan.leavers and not pl.gone and pl not in leaving:
                leaving.append(pl)
        for pl in leaving:
            pl.gone = True
            pl.member.guild.remove_member(pl.member)
        return len(leaving) == self.plan.leavers

    async def _remove_bot(self) -> bool:
        self.emu.remove_bot(self.beta)  # GUILD_DELETE, and refused there from now on
        self.removed.add(self.beta.id)
        for pl in self.members_of(self.beta, present=False):
            pl.gone = True
        return True

    # -- the members' games ------------------------------------------------------------

    def _front(self) -> Front:
        assert self.bot is not None and self.bot.front is not None, "the bot has not started"
        return self.bot.front

    def _service(self) -> GameService:
        assert self.service is not None
        return self.service

    async def _free_channel(self, guild: SimGuild) -> SimChannel | None:
        """A channel of the server's where no game is under way (one may stay in its
        channel when its thread could not be opened)."""
        service = self._service()
        for channel in self._game_channels[guild.id]:
            if channel.id not in self._busy_channels() and not await service.active_match(
                channel.id
            ):
                return channel
        return None

    async def _challenge(self, guild: SimGuild, again: bool) -> None:
        """Two present members of `guild` start a game (the second accepts at once); if
        the challenge is refused and `again`, it is made again an hour later."""
        players = self.members_of(guild)
        if len(players) < 2 or guild.id in self.removed:
            return
        a, b = self.rng.sample(players, 2)
        channel = await self._free_channel(guild)
        if channel is None:
            self.notes.append(f"no channel without a game in {guild.name}")
            return
        count = len(self.tables)
        variant = VARIANTS[count % len(VARIANTS)]
        handle = await a.member.slash(
            ("schotten", "challenge"), where=channel, opponent=b.member, game=variant
        )
        post = await handle.reply(timeout=REPLY_TIMEOUT)
        if post.ephemeral:  # refused (an outage, say): they try again in an hour, once
            self.notes.append(f"challenge in {channel.name} answered: {post.content}"[:300])
            if again:
                self._challenges.append((self.clock.now() + HOUR, guild, False))
                self._challenges.sort(key=lambda c: c[0])
            return
        accept = await b.member.click(post, label="Accept")
        await accept.ack(timeout=REPLY_TIMEOUT)
        service = self._service()
        for _ in range(200):
            mine = [m for m in await service.active_matches_of(guild.id, a.member.id)]
            new = [m for m in mine if m.id not in self.tables]
            if new:
                resign = None
                if self.rng.random() < self.plan.resigners:
                    resign = self.rng.randint(8, 30)
                self._follow(new[0], guild, tournament=False, resign_after=resign)
                return
            await asyncio.sleep(0.02)
        self.troubles.append(f"a challenge in {channel.name} did not start a game")

    def _busy_channels(self) -> set[int]:
        return {t.channel_id for t in self.tables.values() if not t.over}

    def _follow(
        self, info: MatchInfo, guild: SimGuild, *, tournament: bool, resign_after: int | None
    ) -> None:
        table = Table(info.id, info.channel_id, guild, tournament, resign_after)
        self.tables[info.id] = table
        self._plan_answer(table, info)

    def _plan_answer(self, table: Table, info: MatchInfo) -> None:
        """When the member to move will answer this position."""
        table.version = info.version
        if info.status != "active":  # over, or ended otherwise (abandoned)
            table.over = True
            table.next_at = NEVER
            return
        player = self.players.get(info.deciding_user or 0)
        wait = NEVER if player is None else player.delay(self.rng)
        table.next_at = self.clock.now() + wait

    async def _find_tournament_games(self) -> None:
        service = self._service()
        for tid in self.tournaments:
            for pairing in await self._front().tournaments.pairings(tid):
                if pairing.match_id is None or pairing.match_id in self.tables:
                    continue
                info = await service.match(pairing.match_id)
                guild = self.alpha if info.guild_id == self.alpha.id else self.beta
                self._follow(info, guild, tournament=True, resign_after=None)

    async def _refresh(self) -> None:
        """Read every game under way again (forfeits and ends the members did not make)."""
        service = self._service()
        for table in self.tables.values():
            if table.over or table.busy:
                continue
            info = await service.match(table.match_id)
            if info.status != "active":  # over, or ended otherwise (abandoned)
                table.over = True
            elif info.version != table.version:
                self._plan_answer(table, info)

    async def _turn(self, table: Table, gate: asyncio.Semaphore) -> None:
        """The member to move answers: their whole turn (a turn may have several steps)."""
        async with gate:
            try:
                await self._play_turn(table)
            except Exception as e:  # noted; the member tries again later
                self.troubles.append(f"game {table.match_id}: {type(e).__name__}: {e}"[:300])
                table.next_at = self.clock.now() + HOUR
            finally:
                table.busy = False

    async def _play_turn(self, table: Table) -> None:
        service = self._service()
        info = await service.match(table.match_id)
        mover = info.deciding_user
        for _ in range(8):
            if info.status != "active":  # over, or ended otherwise (abandoned)
                table.over = True
                return
            if info.deciding_user != mover:
                break
            player = self.players.get(mover or 0)
            if player is None or player.gone or player.absent:
                break
            if not await self._told(info):
                table.next_at = self.clock.now() + self.plan.step_minutes * 60
                return
            channel = self.emu.world.channel(info.channel_id)
            if channel.is_thread and channel.archived and not channel.locked:
                # A member brings an archived thread back by posting in it.
                await player.member.say(channel, "my move")
            if table.resign_after is not None and table.turns >= table.resign_after:
                said = await self._resign(player.member, channel)
            else:
                said = await self._move(player.member, channel, info)
            after = await self._after(info)
            if after.version == info.version:
                self.moves -= 1
                raise RuntimeError(f"{player.member.name}'s move not taken: {said!r}")
            info = after
        table.turns += 1
        self._plan_answer(table, info)

    async def _told(self, info: MatchInfo) -> bool:
        """Whether the member to move has heard of this position: its board is out (or set
        aside, the players told by DM). Until then they do not know it is their turn."""
        row = await self._service().store.board_row(info.id, info.version)
        return row is None or row["status"] != "pending"

    async def _after(self, info: MatchInfo, timeout: float = REPLY_TIMEOUT) -> MatchInfo:
        """The game once the bot has stored the move just made (a resignation's button is
        acknowledged before it is played), or as it is after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            after = await self._service().match(info.id)
            if after.version != info.version or time.monotonic() > deadline:
                return after
            await asyncio.sleep(0.02)

    async def _move(self, member: SimMember, channel: SimChannel, info: MatchInfo) -> str:
        """Type a legal move (claims first); the bot's answer."""
        legal = [str(m) for m in info.match.legal_moves()]
        good = [m for m in legal if m.startswith(PREFERRED)]
        move = good[0] if good else self.rng.choice(legal)
        handle = await member.slash(("schotten", "move"), where=channel, notation=move)
        reply = await handle.reply(timeout=REPLY_TIMEOUT)
        self.moves += 1
        return reply.content

    async def _resign(self, member: SimMember, channel: SimChannel) -> str:
        """Resign by command, confirmed by its button; the bot's question."""
        handle = await member.slash(("schotten", "resign"), where=channel)
        question = await handle.reply(timeout=REPLY_TIMEOUT)
        done = await member.click(question, label="Yes, resign")
        await done.ack(timeout=REPLY_TIMEOUT)
        self.moves += 1
        return question.content

    # -- the week ----------------------------------------------------------------------

    async def step(self) -> None:
        now = self.clock.now()
        while self._events and self._events[0][0] <= now:
            _, what, action = self._events.pop(0)
            acted = await action()
            if not acted:
                what += ": nothing to act on"
                self.missed.append(what)
            print(f"# week: day {self.elapsed() / DAY:.2f}: {what}", file=sys.stderr, flush=True)
        await self._front().handle_due()
        while self._challenges and self._challenges[0][0] <= now:
            _, guild, again = self._challenges.pop(0)
            try:
                await self._challenge(guild, again)
            except Exception as e:
                self.troubles.append(f"challenge: {type(e).__name__}: {e}"[:300])
        await self._find_tournament_games()
        gate = asyncio.Semaphore(self.plan.concurrency)
        due = [
            t
            for t in self.tables.values()
            if not t.over and not t.busy and t.next_at <= now and t.guild.id not in self.removed
        ]
        for table in due:
            table.busy = True
        await asyncio.gather(*(self._turn(t, gate) for t in due))

    async def _idle(self) -> None:
        """Until the bot has finished what the members' requests started (a hand's DM
        retired after the answer): the clock jumps only then, as minutes do not pass in
        the middle of an answer."""
        if not await self._front().wait_idle(REPLY_TIMEOUT):
            self.troubles.append(f"day {self.elapsed() / DAY:.2f}: the bot was still answering")

    async def _advance(self, seconds: float) -> None:
        """Move the clock `seconds` on. Where the outbox has a retry due before then, the
        clock stops there for a timer pass, as the bot's timer loop runs every
        `TIMER_SECONDS`: a step is coarser than that loop, and a retry waits for none."""
        end = self.clock.now() + seconds
        store = self._service().store
        for _ in range(MAX_RETRY_PASSES):
            rows = await store.pending_announcements(end)
            if not rows:
                break
            at = max(min(r["next_try"] for r in rows), self.clock.now() + TIMER_SECONDS)
            if at >= end:
                break
            self.clock.advance(seconds=at - self.clock.now())
            await self._front().handle_due()
            await self._idle()
        self.clock.advance(seconds=max(0.0, end - self.clock.now()))

    async def play(self) -> None:
        step = self.plan.step_minutes * 60
        refresh_every = 6 * HOUR
        refreshed = self.clock.now()
        end = self.start + self.plan.seconds
        while self.clock.now() < end:
            await self.step()
            if self.clock.now() - refreshed >= refresh_every:
                await self._refresh()
                refreshed = self.clock.now()
            await self._idle()
            await self._advance(step)
        # The last timer passes: what is owed is sent, what is due applied.
        for _ in range(3):
            await self._front().handle_due()
            await self._advance(step)
        await settle(self._service())


async def settle(service: GameService, timeout: float = 20.0) -> None:
    """Until no announcement is due now (those retried later are left), or `timeout`."""
    deadline = time.monotonic() + timeout
    while await service.pending_announcements(everything=True):
        if time.monotonic() > deadline:
            return
        await asyncio.sleep(0.1)
