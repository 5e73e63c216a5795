"""The game service: every rule of the product that is not a rule of the card game.

It knows nothing of Discord: it takes user, server and channel ids and returns values from
`bot.records`. State lives only in the store: each call loads what it needs, and each
change is one transaction, so the process can stop at any instant and lose nothing.
Refusals are `ServiceError`s (or the engine's `GameError`s), with messages for players.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from bot import crashpoints, history, leaderboards, metrics, open_challenges
from bot.aborted import ABORTED, aborts, why_aborted
from bot.errors import NotFound, Refused, ServiceError, StaleMove
from bot.game_clock import (
    MAX_CLOCK_HOURS,
    MIN_CLOCK_HOURS,
    REMINDER_SHARE,
    Pause,
    Timing,
    budgets,
    counted,
    deadline,
)
from bot.ratings import Rating, after_game, initial
from bot.records import (
    Announcement,
    ChallengeInfo,
    DueWork,
    GameSummary,
    LeaderboardPage,
    MatchInfo,
    Member,
    MemberData,
    MoveResult,
    PlayerStats,
    RatingChange,
    RatingStep,
    Reminder,
)
from bot.refusals import Refusals
from bot.store import (
    MoveWrite,
    NewAnnouncement,
    Notifications,
    Row,
    Settings,
    Store,
    Tx,
    open_store,
    valid_id,
)
from bot.time_source import Clock, SystemClock
from bot.vacations import Vacations
from bot.wording import SHOW_HAND_BUTTON, computer_name, shown_name
from engine.api import MatchSpec, Playable, load_match, new_match, notation
from engine.errors import GameError
from engine.events import GameEnded
from engine.moves import Resign
from engine.outcome import Termination
from engine.phrases import Phrase, from_json, say, say_n, to_json
from lang import LANGUAGES, command, language_of

AI_LEVELS = ("easy", "normal", "hard")
# More writes for the transaction that ends a match (a tournament's result with its game).
Also = Callable[[Tx], Awaitable[None]]
# Far more than any move needs; the slash command declares the same limit to Discord.
MAX_MOVE_LENGTH = 100
# A hand that the request which made the move shows itself (in its reply) is sent by DM
# only if that reply has not happened within this many seconds.
DEFERRED_GRACE = 60.0
# The same for a hand written by another run of the bot: on a database of several processes
# that run may be answering right now (its replies take a second or two); on SQLite, one
# process at a time, it has ended and its hands are sent at once.
OTHER_RUN_GRACE = 20.0
# How long a sender may hold an announcement before another may take it over.
LEASE_SECONDS = 60.0
# How long a process keeps the computer's turn to itself while it searches (the longest
# search, expert's, takes about 10 s).
COMPUTER_LEASE_SECONDS = 120.0
# Each process beats every `BEAT_SECONDS`; one silent for `DEAD_AFTER` is dead, and what it
# had taken (leases) is taken over by the next process that looks, at its next beat: a
# takeover within DEAD_AFTER + BEAT_SECONDS of a kill. The leases stay the safety net.
BEAT_SECONDS = 2.0
DEAD_AFTER = 6.0
# Work due this long and still not taken is looked at by any live process (a process that
# stored it and died before taking it; one alive takes its own at once).
ORPHAN_GRACE = 3.0
# A failure that can pass (Discord's 5xx, a 429, a ban, the network) is retried forever,
# backing off to at most RETRY_MAX_DELAY between tries: an announcement owed is never lost.
# A 429's own Retry-After is waited out, up to RETRY_AFTER_LIMIT. Only a failure that is
# no refusal and cannot pass (a bug) gives up, after RETRY_LIMIT tries.
RETRY_MAX_DELAY = 300.0
RETRY_AFTER_LIMIT = 3600.0
RETRY_LIMIT = 12
# The settings that are on or off, rather than a number of hours.
FLAGS = ("use_threads", "public_analysis")
# A member's own notifications (`Notifications`), each on or off.
NOTIFICATIONS = ("turn_dm", "pings", "reminders", "turn_both")


def new_seed() -> int:
    return secrets.randbits(62)


@dataclass(frozen=True, slots=True)
class Vitals:
    """The outbox and the games, as `/healthz` and `/metrics` show them (ages in seconds)."""

    pending: int  # announcements not yet made
    oldest_seconds: float  # the oldest one's age (0: none)
    active: int  # games under way
    retrying: int  # announcements waiting on a failure (Discord's, the network's)
    retrying_seconds: float  # the oldest of those's age (0: none)


class GameService:
    """Open with `await GameService.open(path)`; every method is a coroutine."""

    def __init__(self, store: Store, clock: Clock, seeds: Callable[[], int]) -> None:
        self.store = store
        self.clock = clock
        self.seeds = seeds
        # Which run of the bot wrote an announcement (see DEFERRED_GRACE).
        self.boot = secrets.token_hex(6)
        # Members' languages as this process last stored them: a request writes only a change.
        self._languages: dict[int, str] = {}
        # Members' vacations, which stop their clocks (bot/vacations.py).
        self.vacations = Vacations(store, clock)
        # Where Discord refused the bot for good: closed DMs, channels, servers left.
        self.refusals = Refusals(store, clock)

    @classmethod
    async def open(
        cls,
        database: str | Path,
        *,
        clock: Clock | None = None,
        seeds: Callable[[], int] = new_seed,
        defaults: Settings | None = None,
        synchronous: str = "full",
        pool_size: int = 10,
    ) -> GameService:
        """`database`: a SQLite file or a `postgresql://` URL. `defaults` are the settings
        of servers that never changed theirs; `synchronous` is SQLite's durability level
        and `pool_size` PostgreSQL's connections (see `open_store`)."""
        store = await open_store(database, synchronous=synchronous, pool_size=pool_size)
        if defaults is not None:
            store.defaults = defaults
        return cls(store, clock or SystemClock(), seeds)

    async def member_data(self, user_id: int, guild_id: int) -> MemberData:
        """What the bot keeps about a member (for /schotten privacy)."""
        r = await self.store.member_data(user_id, guild_id)
        return MemberData(
            named=bool(r["named"]),
            language=bool(r["language"]),
            unseen=bool(r["unseen"]),
            notifications=bool(r["notifications"]),
            finished=int(r["finished"]),
            active=int(r["active"]),
            active_here=int(r["active_here"]),
            rated_servers=int(r["rated_servers"]),
            challenges=int(r["challenges"]),
        )

    async def forget_member(self, user_id: int, guild_id: int = 0) -> None:
        """Delete a member's data: everywhere (`guild_id` 0) or in one server. Refused while
        they play a game there, which must end first (their opponent is owed it)."""
        data = await self.member_data(user_id, guild_id)
        under_way = data.active if guild_id == 0 else data.active_here
        if under_way:
            raise Refused(
                say_n(
                    "{count} game is still under way: it must end first (finish it, or"
                    " resign with {resign}). Nothing was deleted.",
                    "{count} games are still under way: they must end first (finish them, or"
                    " resign with {resign}). Nothing was deleted.",
                    under_way,
                    resign=command("resign"),
                )
            )
        async with self.store.transaction() as tx:
            await self.store.forget_member(tx, user_id, guild_id, self.clock.now())

    async def vitals(self) -> Vitals:
        """The outbox and the games under way, for `/healthz` and `/metrics`."""
        row = await self.store.vitals()
        now = self.clock.now()

        def age(since: float | None) -> float:
            return max(0.0, now - float(since)) if since is not None else 0.0

        return Vitals(
            int(row["pending"]),
            age(row["oldest"]),
            int(row["active"]),
            int(row["retrying"]),
            age(row["retrying_since"]),
        )

    async def close(self) -> None:
        await self.store.close()

    # Settings ---------------------------------------------------------------------------------

    async def settings(self, guild_id: int) -> Settings:
        return await self.store.settings(guild_id)

    async def update_settings(self, guild_id: int, *, is_manager: bool, **changes: Any) -> Settings:
        """Change a server's settings (server managers only). Hours: reminder 1-168,
        forfeit 0 (off) or 12-720, challenge expiry 1-168; vacation days a year 0-366;
        `FLAGS` are on or off."""
        if not is_manager:
            raise Refused(say("Only members who can manage this server can change its settings."))
        current = await self.store.settings(guild_id)
        limits = {
            "reminder_hours": (1, 168, say("A turn reminder is between 1 and 168 hours.")),
            "forfeit_hours": (12, 720, say("The forfeit time is 0 (off) or 12 to 720 hours.")),
            "challenge_hours": (1, 168, say("A challenge stays open 1 to 168 hours.")),
            "vacation_days": (
                0,
                366,
                say("Vacation days a year are 0 (no vacations) to 366, in whole days."),
            ),
        }
        for key, value in changes.items():
            if key in FLAGS:
                continue
            if key == "language":
                if value is not None and value not in LANGUAGES:
                    raise Refused(say("The language is en, fr, de, or none (the server's own)."))
                continue
            if key not in limits:
                raise Refused(say("There is no setting called {key}.", key=key))
            lo, hi, message = limits[key]
            off = key == "forfeit_hours" and value == 0
            if not off and not lo <= value <= hi:
                raise Refused(message)
            if key == "vacation_days" and value != int(value):
                raise Refused(message)
        updated = replace(current, **changes)
        async with self.store.transaction() as tx:
            await self.store.put_settings(tx, updated)
        return updated

    # Languages --------------------------------------------------------------------------------

    async def remember_language(self, user_id: int, language: str) -> None:
        """Keep a member's client language (seen on each of their requests) for what is sent
        to them later, when no request of theirs is under way: DMs, reminders."""
        language = language_of(language)
        if self._languages.get(user_id) == language:
            return
        async with self.store.transaction() as tx:
            await self.store.put_member_language(tx, user_id, language, self.clock.now())
        self._languages[user_id] = language

    async def member_language(self, user_id: int) -> str | None:
        """A member's language as last seen, or None if they never used the bot."""
        # Read each time: another process may have seen them switch since.
        return await self.store.member_language(user_id)

    # A member's own notifications -------------------------------------------------------------

    async def notifications(self, user_id: int) -> Notifications:
        """What a member chose to be notified of (everything, until they change it)."""
        return (await self.store.notifications([user_id]))[user_id]

    async def notifications_of(self, user_ids: Sequence[int]) -> dict[int, Notifications]:
        return await self.store.notifications(user_ids)

    async def update_notifications(self, user_id: int, **changes: bool) -> Notifications:
        """Change a member's own notifications (`NOTIFICATIONS`, each on or off): theirs in
        every server, and any member may change their own."""
        for key in changes:
            if key not in NOTIFICATIONS:
                raise Refused(say("There is no setting called {key}.", key=key))
        wanted = {key: bool(value) for key, value in changes.items()}
        updated = replace(await self.notifications(user_id), **wanted)
        async with self.store.transaction() as tx:
            await self.store.put_notifications(tx, updated, self.clock.now())
        return updated

    # The unseen cards ---------------------------------------------------------------------------

    async def unseen_shown(self, user_id: int) -> bool:
        """Whether this member's hands show the cards they have not seen (off by default)."""
        return await self.store.unseen_shown(user_id)

    async def show_unseen(self, user_id: int, shown: bool) -> None:
        """Show or hide the unseen cards on this member's hands, from now on."""
        async with self.store.transaction() as tx:
            await self.store.put_unseen_shown(tx, user_id, shown, self.clock.now())

    # Challenges -------------------------------------------------------------------------------

    async def challenge(
        self,
        guild_id: int,
        channel_id: int,
        challenger: Member,
        opponent: Member | None,
        spec: MatchSpec,
        *,
        role: str | None = None,
        computer_id: int | None = None,
        ai_level: str | None = None,
        for_role_id: int | None = None,
        clock_hours: float | None = None,
    ) -> ChallengeInfo:
        """A challenge to a member; or, when `opponent.id == computer_id` (the bot's own
        account), a game against the computer that starts at once (see `accept`); or, with
        no `opponent`, an open challenge that the first member to accept takes (only a member
        of the Discord role `for_role_id`, if given; see `bot.open_challenges`).

        `role` is the challenger's choice of "attacker" or "defender" (Schotten Totten 2),
        or of "first" or "second" (Schotten Totten); None leaves it to the shuffle.
        `clock_hours`: the time per move (bot/game_clock.py); None: the server's forfeit time,
        fixed now for this game (with no forfeit on the server, the game follows the
        server's settings).
        """
        if clock_hours is not None and not MIN_CLOCK_HOURS <= clock_hours <= MAX_CLOCK_HOURS:
            raise Refused(say("The time per move is 1 hour to 30 days."))
        if opponent is None:
            return await self._open_challenge(
                guild_id, channel_id, challenger, _with_role(spec, role), for_role_id, clock_hours
            )
        if for_role_id is not None:
            raise Refused(
                say("A role makes an open challenge: name either an opponent or a role, not both.")
            )
        vs_computer = computer_id is not None and opponent.id == computer_id
        if challenger.id == opponent.id:
            raise Refused(say("You cannot challenge yourself; pick another member."))
        if opponent.is_bot and not vs_computer:
            raise Refused(say("{name} is a bot account and cannot play.", name=opponent.name))
        if vs_computer and (ai_level or "normal") not in AI_LEVELS:
            raise Refused(say("The computer plays at easy, normal or hard."))
        if await self.store.active_match(channel_id) is not None:
            raise Refused(_BUSY_CHANNEL)
        if await self.store.open_challenge(channel_id, challenger.id, opponent.id) is not None:
            raise Refused(
                say(
                    "You have already challenged {name} here; wait for an answer or cancel"
                    " that challenge first.",
                    name=opponent.name,
                )
            )
        spec = _with_role(spec, role)
        now = self.clock.now()
        settings = await self.store.settings(guild_id)
        async with self.store.transaction() as tx:
            await self.store.put_user(tx, challenger.id, challenger.name, challenger.is_bot)
            await self.store.put_user(tx, opponent.id, opponent.name, opponent.is_bot)
            cid = await self.store.add_challenge(
                tx,
                guild_id=guild_id,
                channel_id=channel_id,
                challenger_id=challenger.id,
                opponent_id=opponent.id,
                spec=json.dumps(spec.to_json()),
                ai_level=(ai_level or "normal") if vs_computer else None,
                now=now,
                expires_at=now + settings.challenge_hours * 3600,
                clock_hours=_clock(clock_hours, settings),
                server_clock=_server_clock(clock_hours, settings),
            )
        info = await self.challenge_info(cid)
        return info

    async def _open_challenge(
        self,
        guild_id: int,
        channel_id: int,
        challenger: Member,
        spec: MatchSpec,
        for_role_id: int | None,
        clock_hours: float | None = None,
    ) -> ChallengeInfo:
        if await self.store.active_match(channel_id) is not None:
            raise Refused(_BUSY_CHANNEL)
        if await self.store.open_call(channel_id, challenger.id) is not None:
            raise Refused(open_challenges.ALREADY_OPEN)
        now = self.clock.now()
        settings = await self.store.settings(guild_id)
        async with self.store.transaction() as tx:
            await self.store.put_user(tx, challenger.id, challenger.name, challenger.is_bot)
            cid = await self.store.add_challenge(
                tx,
                guild_id=guild_id,
                channel_id=channel_id,
                challenger_id=challenger.id,
                opponent_id=None,
                spec=json.dumps(spec.to_json()),
                ai_level=None,
                now=now,
                expires_at=now + settings.challenge_hours * 3600,
                for_role_id=None if for_role_id == guild_id else for_role_id,  # @everyone: all
                clock_hours=_clock(clock_hours, settings),
                server_clock=_server_clock(clock_hours, settings),
            )
        return await self.challenge_info(cid)

    async def challenge_info(self, challenge_id: int) -> ChallengeInfo:
        row = await self.store.challenge(challenge_id) if valid_id(challenge_id) else None
        if row is None:
            raise NotFound(say("That challenge no longer exists."))
        return await self._challenge_info(row)

    async def _challenge_info(self, row: Row) -> ChallengeInfo:
        opponent_id = row["opponent_id"]
        names = await self.store.names([i for i in (row["challenger_id"], opponent_id) if i])
        return ChallengeInfo(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            challenger=Member(row["challenger_id"], names.get(row["challenger_id"], "?")),
            opponent=None
            if opponent_id is None
            else Member(opponent_id, names.get(opponent_id, "?")),
            spec=MatchSpec.from_json(json.loads(row["spec"])),
            status=row["status"],
            expires_at=row["expires_at"],
            ai_level=row["ai_level"],
            match_id=row["match_id"],
            message_id=row["message_id"],
            for_anyone=bool(row["for_anyone"]),
            for_role_id=row["for_role_id"],
            clock_hours=row["clock_hours"],
            server_clock=bool(row["server_clock"]),
            created_at=row["created_at"],
        )

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        async with self.store.transaction() as tx:
            await self.store.set_challenge_message(tx, challenge_id, message_id)

    async def open_challenges(self, channel_id: int, user_id: int) -> list[ChallengeInfo]:
        rows = await self.store.open_challenges_for(channel_id, user_id)
        return [await self._challenge_info(r) for r in rows]

    async def check_accept(
        self, challenge_id: int, user_id: int, *, roles: Collection[int] = ()
    ) -> ChallengeInfo:
        """Whether `user_id` (who holds the Discord `roles`) may accept now (before the bot
        opens a thread for the game)."""
        info = await self.challenge_info(challenge_id)
        if info.for_anyone:  # any member (of its role) may take it
            open_challenges.check_taker(info, user_id, roles, now=self.clock.now())
        else:
            self._check_named(info, user_id)
        if await self.store.active_match(info.channel_id) is not None:
            raise Refused(say("This channel already has a game in progress."))
        return info

    def _check_named(self, info: ChallengeInfo, user_id: int) -> None:
        """Whether `user_id` may accept a challenge made to a member or the computer."""
        self._check_open(info)
        if info.ai_level is not None:
            # A game against the computer starts when its challenger confirms it.
            if user_id != info.challenger.id:
                raise Refused(
                    say("This game against the computer is {name}'s.", name=info.challenger.name)
                )
        elif info.opponent is not None and user_id != info.opponent.id:
            if user_id == info.challenger.id:
                raise Refused(say("You cannot accept your own challenge; wait for your opponent."))
            raise Refused(
                say("This challenge is for {name}, not for you.", name=info.opponent.name)
            )

    def _check_open(self, info: ChallengeInfo) -> None:
        if info.status != "open":
            closed = _CLOSED.get(info.status)
            raise Refused(
                closed
                or say("This challenge is no longer open: it was {status}.", status=info.status)
            )
        if info.expires_at <= self.clock.now():
            raise Refused(say("This challenge has expired."))

    async def accept(
        self,
        challenge_id: int,
        user_id: int,
        *,
        game_channel_id: int | None = None,
        taker: Member | None = None,
        roles: Collection[int] = (),
    ) -> MatchInfo:
        """Start the match from an accepted challenge with a fresh seed, in the challenge's
        channel or in `game_channel_id` (a thread the bot opened for it). An open challenge
        goes to `taker` (the member `user_id`, who holds the Discord `roles`), if nobody
        took it first."""
        info = await self.check_accept(challenge_id, user_id, roles=roles)
        channel = game_channel_id if game_channel_id is not None else info.channel_id
        if channel != info.channel_id and await self.store.active_match(channel) is not None:
            raise Refused(say("That thread already has a game in progress."))
        now = self.clock.now()
        # A taker not named by the caller keeps the name stored for them, if any.
        name = await self.store.names([user_id]) if taker is None else {}
        async with self.store.transaction() as tx:
            if info.opponent is None:
                # Taken first, in the statement that decides between racing clicks.
                opponent = taker or Member(user_id, name.get(user_id, "?"))
                await open_challenges.take(self.store, tx, info, opponent, now)
            else:
                opponent = info.opponent
            mid = await self.add_match(
                tx,
                guild_id=info.guild_id,
                channel_id=channel,
                players=(info.challenger.id, opponent.id),
                spec=info.spec,
                ai_level=info.ai_level,
                clock_hours=info.clock_hours,
                server_clock=info.server_clock,
            )
            if info.opponent is None:
                await self.store.set_challenge_match(tx, challenge_id, mid)
            elif not await self.store.close_challenge(tx, challenge_id, "accepted", now, mid):
                raise Refused(say("This challenge was answered a moment ago."))
        return await self.match(mid)

    async def add_match(
        self,
        tx: Tx,
        *,
        guild_id: int,
        channel_id: int,
        players: tuple[int, int],
        spec: MatchSpec,
        ai_level: str | None = None,
        tournament_id: int | None = None,
        clock_hours: float | None = None,
        server_clock: bool = False,
    ) -> int:
        """A new match with a fresh seed, and its opening announcements, in `tx`: seat 0 is
        `players[0]`; with `ai_level`, seat 1 is the computer; `clock_hours`: its time per
        move (None: the server's settings, as tournament games have); `server_clock`: that
        time is the server's forfeit time, none chosen (reminded after `reminder_hours`)."""
        seed = self.seeds()
        match = new_match(spec, seed)
        now = self.clock.now()
        ai_seat = 1 if ai_level is not None else None
        state = json.dumps(match.to_json())
        mid = await self.store.add_match(
            tx,
            guild_id=guild_id,
            channel_id=channel_id,
            player0_id=players[0],
            player1_id=players[1],
            variant=spec.variant,
            game=spec.game,
            spec=json.dumps(spec.to_json()),
            seed=seed,
            state=state,
            version=0,
            to_decide=match.to_decide,
            due_since=now,
            created_at=now,
            rated=int(ai_seat is None),
            ai_seat=ai_seat,
            ai_level=ai_level,
            turn=_turn(None, False, []),
            tournament_id=tournament_id,
            clock_hours=clock_hours,
            server_clock=int(server_clock),
        )
        rows, _ = self._position(mid, 0, match, state, ai_seat, events=[], started=True, mover=None)
        await self.store.add_announcements(tx, rows, self.boot, now)
        return mid

    async def decline(self, challenge_id: int, user_id: int) -> ChallengeInfo:
        info = await self.challenge_info(challenge_id)
        self._check_open(info)
        if info.opponent is None:
            raise Refused(open_challenges.not_declined(info))
        if user_id != info.opponent.id:
            if user_id == info.challenger.id:
                raise Refused(say("To take back your own challenge, cancel it instead."))
            raise Refused(say("Only {name} can decline this challenge.", name=info.opponent.name))
        return await self._close(info, "declined")

    async def cancel(self, challenge_id: int, user_id: int) -> ChallengeInfo:
        info = await self.challenge_info(challenge_id)
        self._check_open(info)
        if user_id != info.challenger.id:
            raise Refused(
                say(
                    "Only {name}, who made this challenge, can cancel it.",
                    name=info.challenger.name,
                )
            )
        return await self._close(info, "cancelled")

    async def _close(self, info: ChallengeInfo, status: str) -> ChallengeInfo:
        async with self.store.transaction() as tx:
            if not await self.store.close_challenge(tx, info.id, status, self.clock.now()):
                raise Refused(say("This challenge was answered a moment ago."))
        return await self.challenge_info(info.id)

    # Matches ------------------------------------------------------------------------------------

    async def match(self, match_id: int) -> MatchInfo:
        row = await self.store.match(match_id) if valid_id(match_id) else None
        if row is None:
            raise NotFound(say("There is no game #{id}.", id=match_id))
        return await self._info(row)

    async def active_match(self, channel_id: int) -> MatchInfo | None:
        row = await self.store.active_match(channel_id)
        return None if row is None else await self._info(row)

    async def last_match(self, channel_id: int) -> MatchInfo | None:
        """The most recent match played in a channel (finished or not)."""
        row = await self.store.last_match(channel_id)
        return None if row is None else await self._info(row)

    async def active_matches_of(self, guild_id: int, user_id: int) -> list[MatchInfo]:
        return [await self._info(r) for r in await self.store.active_matches_of(guild_id, user_id)]

    async def games_under_way(self, user_id: int, guild_id: int | None) -> list[MatchInfo]:
        """A member's games under way in one server (every server: None), longest waiting
        first (`bot/my_games.py` sorts them for `/schotten games`)."""
        rows = await self.store.games_under_way(user_id, guild_id)
        return [await self._info(r) for r in rows]

    async def challenges_of(self, user_id: int, guild_id: int | None) -> list[ChallengeInfo]:
        """A member's open challenges, made or received, in one server (every server: None),
        oldest first."""
        rows = await self.store.challenges_of(user_id, guild_id, self.clock.now())
        return [await self._challenge_info(r) for r in rows]

    async def move_match(self, match_id: int, channel_id: int) -> MatchInfo:
        """A game whose channel or thread is gone goes on in `channel_id` (where no game is
        running): its later boards are posted there."""
        async with self.store.transaction() as tx:
            moved = await self.store.move_match(tx, match_id, channel_id)
        if not moved:
            raise Refused(say("A game is already running in this channel."))
        return await self.match(match_id)

    async def set_board_message(self, match_id: int, message_id: int) -> None:
        async with self.store.transaction() as tx:
            await self.store.set_board_message(tx, match_id, message_id)

    async def _info(self, row: Row) -> MatchInfo:
        p0, p1 = row["player0_id"], row["player1_id"]
        ai_seat = row["ai_seat"]
        level = row["ai_level"]
        # The store's match reads join the players' names in.
        shown: list[str] = [shown_name(row["name0"], p0), shown_name(row["name1"], p1)]
        if ai_seat is not None:
            shown[ai_seat] = computer_name(level)
        return MatchInfo(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            players=(p0, p1),
            names=(shown[0], shown[1]),
            spec=MatchSpec.from_json(json.loads(row["spec"])),
            seed=row["seed"],
            version=row["version"],
            status=row["status"],
            match=load_match(json.loads(row["state"])),
            created_at=row["created_at"],
            due_since=row["due_since"],
            ai_seat=ai_seat,
            ai_level=level,
            board_message_id=row["board_message_id"],
            turn=row["turn"],
            clock_hours=row["clock_hours"],
            tournament_id=row["tournament_id"],
            termination=row["termination"],
        )

    async def play(
        self,
        match_id: int,
        user_id: int,
        text: str,
        *,
        expected_version: int | None = None,
        answered: bool = True,
        info: MatchInfo | None = None,
    ) -> MoveResult:
        """Make a move for a player. Checks they play in this match and that the decision
        is theirs, applies it through the engine, and stores the new state, the log entry
        and what must be announced in one transaction. `expected_version` (from a button)
        refuses a stale request. `answered`: the caller shows the player their new hand in
        its reply when the decision stays with them (`MoveResult.hand_row` is then theirs to
        mark done with `announced_by_reply`). `info`: this match as the caller has just
        read it, which saves reading it again (a move stored meanwhile is caught by the
        version check, as it would be after a read here); it becomes the new position."""
        if len(text) > MAX_MOVE_LENGTH:
            raise Refused(
                say(
                    "A move is at most {count} characters, for example `R7 3` or `claim 4`;"
                    " pick one from the suggestions.",
                    count=MAX_MOVE_LENGTH,
                )
            )
        if info is None or info.id != match_id:
            info = await self.match(match_id)
        seat = info.seat_of(user_id)
        if seat is None:
            a, b = info.names
            raise Refused(
                say("You are not playing in this game; it is between {a} and {b}.", a=a, b=b)
            )
        return await self._play_seat(info, seat, text, expected_version, answered=answered)

    async def computer_move(self, match_id: int, text: str, *, expected_version: int) -> MoveResult:
        """A move for the computer's seat (chosen by the bot's AI worker)."""
        info = await self.match(match_id)
        if info.ai_seat is None:
            raise Refused(say("The computer does not play in this game."))
        return await self._play_seat(info, info.ai_seat, text, expected_version)

    async def resign(self, match_id: int, user_id: int) -> MoveResult:
        return await self.play(match_id, user_id, "resign")

    async def _play_seat(
        self,
        info: MatchInfo,
        seat: int,
        text: str,
        expected_version: int | None,
        *,
        by_clock: bool = False,
        answered: bool = False,
        also: Also | None = None,
    ) -> MoveResult:
        """`also`: more writes for the transaction that ends the match (a tournament's
        result), so that both or neither are stored; only for a move that ends it."""
        if info.status != "active":
            raise Refused(self.ended_message(info))
        if expected_version is not None and expected_version != info.version:
            try:
                written = notation(info.spec.game, text)
            except GameError:
                written = None
            raise StaleMove(await self._stale_message(info, seat, written))
        match = info.match
        try:
            written = notation(info.spec.game, text)
        except GameError:
            written = None  # the match's own parse below says what is wrong with it
        if written == "timeout" and not by_clock:
            raise Refused(
                # TRANSLATORS: {resign} is the command /schotten resign (a mention in English; in
                # French and German its localised name, as code).
                say(
                    "Only the clock ends a game on time. To give up, use {resign}"
                    " (or type `resign`), which asks you to confirm first.",
                    resign=command("resign"),
                )
            )
        deciding = match.to_decide
        if written not in ("resign", "timeout") and deciding != seat:
            if deciding is None:
                raise Refused(say("It is not your turn: the game is waiting for nobody."))
            raise Refused(
                say(
                    "It is not your turn: the game is waiting for {name}.",
                    name=info.names[deciding],
                )
            )
        move = match.parse_move(text, seat)  # GameError: refused, nothing stored
        if isinstance(move, Resign) and move.timeout and not by_clock:
            raise Refused(say("Only the clock ends a game on time."))
        before = len(match.log)
        games_before = len(match.game_results())
        events = match.apply(move, seat)  # GameError: refused, nothing stored
        logged = match.log[before:]
        canonical = logged[-1][1] if logged else str(move)
        now = self.clock.now()
        changes: list[RatingChange] = []
        finished: tuple[float, int | None, str] | None = None
        aborted = aborts(match, info.ai_seat)
        if aborted:
            finished = (now, None, ABORTED)  # no winner, unrated (rules notes R-28)
            # "Alice wins the game" is the engine's; the turn's line says it was aborted.
            events = [e for e in events if not isinstance(e, GameEnded)]
        elif match.is_over:
            assert match.outcome is not None
            finished = (now, match.outcome.winner, match.outcome.termination.name)
        state = json.dumps(match.to_json())  # once, and before taking the writer
        results = match.game_results()
        games = [
            (number + 1, r["winner"], r["termination"], json.dumps(r["detail"]))
            for number, r in enumerate(results)
            if number >= games_before
        ]

        def write(changes: Sequence[RatingChange]) -> MoveWrite:
            rows, turn = self._position(
                info.id,
                info.version + 1,
                match,
                state,
                info.ai_seat,
                events=[e.describe(info.names) for e in events],
                changes=changes,
                mover=seat if answered else None,
                # A resignation or the clock ends the game in a message of its own.
                actor=None if isinstance(move, Resign) else seat,
                last=info.turn,
            )
            return MoveWrite(
                match_id=info.id,
                expected_version=info.version,
                state=state,
                to_decide=match.to_decide,
                now=now,
                finished=finished,
                turn=turn,
                first_seq=before,
                moves=logged,
                games=games,
                announcements=rows,
                boot=self.boot,
            )

        if finished is not None and info.ai_seat is None:
            # Ratings move, and join the history, in the same transaction that ends the match.
            async with self.store.transaction() as tx:
                changes = [] if aborted else await self._rate(tx, info, match)
                w = write(changes)
                stored = await self.store.write_move(tx, w)
                if stored is None:
                    raise StaleMove(await self._stale_message(info, seat, canonical))
                if aborted:
                    await self.store.set_unrated(tx, info.id)
                else:
                    await self._add_rating_steps(tx, info, match, changes, now)
                if also is not None:
                    await also(tx)
                crashpoints.reach("move-before-commit")
        else:
            if also is not None:
                raise ValueError("Writes joined to a move need a move that ends the match.")
            w = write(changes)
            stored = await self.store.record_move(
                w, before_commit=lambda: crashpoints.reach("move-before-commit")
            )
            if stored is None:
                raise StaleMove(await self._stale_message(info, seat, canonical))
        crashpoints.reach("move-after-commit")
        by = "clock" if by_clock else "computer" if seat == info.ai_seat else "member"
        metrics.MOVES.labels(by).inc()
        info.version += 1
        info.status = "finished" if finished else "active"
        info.termination = finished[2] if finished else None
        info.due_since = now
        info.turn = w.turn
        hand_row = stored[1] if len(stored) > 1 else None
        deferred = hand_row if answered and match.to_decide == seat else None
        return MoveResult(info, seat, canonical, events, changes, hand_row=deferred)

    def _position(
        self,
        match_id: int,
        version: int,
        match: Playable,
        state: str,
        ai_seat: int | None,
        *,
        events: Sequence[str],
        changes: Sequence[RatingChange] = (),
        started: bool = False,
        mover: int | None,
        actor: int | None = None,
        last: str | None = None,
    ) -> tuple[list[NewAnnouncement], str]:
        """The outbox rows of a new position, and the turn it leaves (the match's `turn`):
        its board, then the hand of the player who decides next (none if nobody, or the
        computer). The hand is `deferred` when `mover` (whose request shows them their hand
        in its reply) decides again. `state` is the match's JSON, as stored.

        One board message per turn, posted when the turn ends: a step by `actor` after
        which `actor` decides again leaves the turn `open`, and its board is `held` (not
        posted: the mover sees the position in their hand's reply) when the actor is a
        member; the step that ends the turn posts the board, listing the whole turn's
        events (`continues`). Against the computer, one board message per round: the
        computer's steps edit the board of the member's turn before them (or the opening
        board), which then lists both. `last` is the turn the previous board left, as
        stored with the match.

        Who is pinged (`ping`, seats): the board that hands the turn to a member names them,
        and its message notifies them when it is created; a finished game's board notifies
        both members. Edits notify nobody, so a board that continues a message already
        posted is posted afresh (`repost`, the earlier message then deleted) when it ends
        the game, or hands the turn from one member to the other (a board posted by an
        older bot mid-turn). The computer's reply that hands the turn back to the member
        edits the round's message: the member just moved and watches it, and their hand's
        DM notifies them (with closed DMs the relay pings them in the channel).

        Events are stored as `engine.phrases.to_json` forms (a Phrase as a dict, to be said
        later in the server's language; plain text as it is), and read back with `from_json`
        (see `announcement`)."""
        stored = [to_json(e) for e in events]
        continues = False
        if actor is not None and last is not None:
            last_actor, last_open, last_events = json.loads(last)
            same_turn = bool(last_open) and last_actor == actor
            # The computer's steps after a member's turn, or after the opening board.
            reply = ai_seat is not None and actor == ai_seat and last_actor != ai_seat
            continues = same_turn or reply
            if continues:
                stored = [*(last_events or []), *stored]  # already in their stored form
                started = started or last_actor is None  # the opening board goes on
        still = actor is not None and not match.is_over and match.to_decide == actor
        members = [s for s in (0, 1) if s != ai_seat]
        deciding = match.to_decide
        if match.is_over:
            ping = members
        elif deciding is not None and deciding != ai_seat and deciding != actor:
            ping = [deciding]
        else:
            ping = []
        repost = continues and (match.is_over or (bool(ping) and actor != ai_seat))
        held = still and actor != ai_seat
        rest = json.dumps(
            {
                "events": stored,
                "ratings": [c.to_json() for c in changes],
                "started": started,
                "actor": actor,
                "open": still,
                "continues": continues,
                "ping": ping,
                "repost": repost,
                "held": held,
            }
        )
        payload = '{"state": ' + state + ", " + rest[1:]  # the state, serialised once
        rows = [NewAnnouncement("board", payload, match_id, version)]
        seat = match.to_decide
        if not (match.is_over or seat is None or seat == ai_seat):
            rows.append(NewAnnouncement("hand", "{}", match_id, version, seat, seat == mover))
        return rows, _turn(actor, still, stored)

    def ended_message(self, info: MatchInfo) -> Phrase:
        """Why a move cannot be made any more: how the game ended."""
        outcome = info.match.outcome
        if info.aborted:
            # TRANSLATORS: {why} says who resigned or ran out of time before both had moved.
            return say(
                "Game #{id} was aborted ({why}): it has no winner and changes no rating.",
                id=info.id,
                why=why_aborted(info.match, info.names),
            )
        if outcome is None:
            return say("Game #{id} is over.", id=info.id)
        if outcome.termination is Termination.TIMEOUT and outcome.winner is not None:
            return say(
                "Too late: game #{id} ended on time ({name} ran out of time), so no more moves"
                " can be made.",
                id=info.id,
                name=info.names[1 - outcome.winner],
            )
        if outcome.termination is Termination.RESIGNED and outcome.winner is not None:
            return say(
                "Game #{id} is over: {name} resigned.",
                id=info.id,
                name=info.names[1 - outcome.winner],
            )
        if outcome.winner is None:
            return say("Game #{id} is over: it was drawn.", id=info.id)
        return say("Game #{id} is over: {name} won.", id=info.id, name=info.names[outcome.winner])

    async def _stale_message(self, info: MatchInfo, seat: int, canonical: str | None) -> Phrase:
        now = await self.match(info.id)
        if now.status != "active":
            return self.ended_message(now)
        moves = await self.store.moves(info.id)
        if moves and canonical is not None:
            last = moves[-1]
            if last["seat"] == seat and last["text"] == canonical:
                # TRANSLATORS: {move} is a move in notation, e.g. R7 3 (not translated).
                return say("You already played `{move}`; that was a second click.", move=canonical)
        return say(
            "These controls are from an earlier position: the game has moved on since (another"
            " click, another device, or a move by the clock). Use **{button}** for the"
            " current position.",
            button=SHOW_HAND_BUTTON,
        )

    async def _rate(self, tx: Tx, info: MatchInfo, match: Playable) -> list[RatingChange]:
        """Ratings move in the same transaction that ends the match."""
        game = info.spec.game
        await self.store.lock_ratings(tx, info.guild_id, game, info.players)
        before: list[Rating] = []
        for user in info.players:
            row = await self.store.rating_in(tx, info.guild_id, game, user)
            before.append(Rating(row["mu"], row["sigma"]) if row else initial())
        after = after_game(before[0], before[1], match.winner)
        changes = []
        for seat, user in enumerate(info.players):
            await self.store.put_rating(
                tx, info.guild_id, game, user, after[seat].mu, after[seat].sigma
            )
            changes.append(RatingChange(user, before[seat], after[seat]))
        return changes

    async def _add_rating_steps(
        self,
        tx: Tx,
        info: MatchInfo,
        match: Playable,
        changes: Sequence[RatingChange],
        ended: float,
    ) -> None:
        """The new ratings join the players' history, at `ended` (the match's finished_at).
        Only once the match's version check passed: a second process ending the same match
        must fail that check (StaleMove), not clash with the first one's rows."""
        await self.store.add_rating_steps(
            tx,
            guild_id=info.guild_id,
            game=info.spec.game,
            match_id=info.id,
            at=ended,
            steps=[
                (c.user_id, c.after.mu, c.after.sigma, _result(seat, match.winner))
                for seat, c in enumerate(changes)
            ],
        )

    async def time_out(self, info: MatchInfo, *, also: Also | None = None) -> MoveResult:
        """The player the match waits for loses on time now (a tournament round's deadline);
        StaleMove if a move came in since `info` was read. `also(tx)` writes more in the
        transaction that ends the match (the tournament's result)."""
        seat = info.to_decide
        if seat is None:
            raise Refused(self.ended_message(info))
        return await self._play_seat(info, seat, "timeout", info.version, by_clock=True, also=also)

    async def abandon(self, info: MatchInfo, termination: str, *, also: Also | None = None) -> bool:
        """End a match nobody moved in, with no winner and no rating change (a tournament
        round's deadline when neither player moved); False if a move came in meanwhile.
        `also(tx)` writes more in the same transaction, only if the match was ended."""
        async with self.store.transaction() as tx:
            changed = await tx.execute(
                "UPDATE matches SET status = 'finished', finished_at = ?, termination = ?,"
                " winner = NULL, rated = 0, to_decide = NULL WHERE id = ? AND version = ?"
                " AND status = 'active'",
                (self.clock.now(), termination, info.id, info.version),
            )
            if changed and also is not None:
                await also(tx)
        return bool(changed)

    async def legal_moves(self, match_id: int, user_id: int) -> list[str]:
        """The moves the user may make now (empty when the decision is not theirs)."""
        info = await self.match(match_id)
        seat = info.seat_of(user_id)
        if seat is None or info.match.to_decide != seat:
            return []
        return [str(m) for m in info.match.legal_moves()]

    # Time ---------------------------------------------------------------------------------------

    async def timing(self, info: MatchInfo) -> Timing:
        """The game's clock now (also kept as `info.timing`): its time per move, the time
        left to the player to move, their vacation stopping it, and each player's vacation
        under way. Vacations count outside tournaments only (bot/game_clock.py)."""
        now = self.clock.now()
        if info.clock_hours is None:
            s = await self.store.settings(info.guild_id)
            plan = budgets(None, s.reminder_hours, s.forfeit_hours)
        else:
            plan = budgets(info.clock_hours, 0, 0)
        away: list[float | None] = [None, None]
        pauses: dict[int, list[Pause]] = {0: [], 1: []}
        if info.tournament_id is None and info.status == "active":
            seats = [s for s in (0, 1) if s != info.ai_seat]
            rows = await self.store.vacations(
                info.guild_id, [info.players[s] for s in seats], info.due_since
            )
            for r in rows:
                for who in seats:
                    if info.players[who] != r["user_id"]:
                        continue
                    pauses[who].append((r["starts_at"], r["ends_at"]))
                    if r["starts_at"] <= now < r["ends_at"]:
                        away[who] = r["ends_at"]
        seat = info.to_decide
        left = None
        stopped = False
        playing = seat is not None and seat != info.ai_seat and info.status == "active"
        if plan.forfeit is not None and playing and seat is not None:
            left = plan.forfeit - counted(info.due_since, now, pauses[seat])
            stopped = away[seat] is not None
        if info.tournament_id is not None and playing:
            # A tournament game also ends at its round's deadline, if that comes first.
            ends = await self.store.round_deadline(info.tournament_id)
            if ends is not None and (left is None or ends - now < left):
                left = ends - now
        info.timing = Timing(now, plan.forfeit, left, stopped, (away[0], away[1]))
        return info.timing

    async def time_left(self, info: MatchInfo) -> float | None:
        """Seconds left on a game's clock now (0 or less: its time is up and the timer will
        end it), or None when it has none: waiting for nobody or for the computer, or with
        no forfeit on time (outside a tournament). The one place that says when a game's wait
        ends: its own clock (or the server's forfeit time for a game without one), moved by
        the vacations of the player to move (bot/game_clock.py), and a tournament game's round
        deadline if that comes first."""
        return (await self.timing(info)).left

    async def due(self) -> DueWork:
        """Reminders owed, forfeits to apply (applied here), challenges that expired. Nothing
        lives in memory: deadlines are computed from stored times on every call (each
        game's clock, or the server's settings, moved by the vacations of the player to
        move: bot/game_clock.py), and each piece of work writes what it must announce in its
        own transaction (the outbox)."""
        now = self.clock.now()
        work = DueWork()
        rows = await self.store.due_matches(now, REMINDER_SHARE)
        pauses: dict[tuple[int, int], list[Pause]] = {}
        waiting = [
            (r["guild_id"], r["player0_id"] if r["to_decide"] == 0 else r["player1_id"])
            for r in rows
            if r["tournament_id"] is None
        ]
        if waiting:
            since = min(r["due_since"] for r in rows)
            for v in await self.store.vacations_of_many(waiting, since):
                pauses.setdefault((v["guild_id"], v["user_id"]), []).append(
                    (v["starts_at"], v["ends_at"])
                )
        for row in rows:
            seat = row["to_decide"]
            user = row["player0_id"] if seat == 0 else row["player1_id"]
            plan = budgets(None, row["reminder_hours"], row["forfeit_hours"])
            own = row["tournament_id"] is None
            stops = pauses.get((row["guild_id"], user), []) if own else []
            since = row["due_since"]
            if plan.forfeit is not None and now >= deadline(since, plan.forfeit, stops):
                info = await self._info(row)
                try:
                    result = await self._play_seat(
                        info, seat, "timeout", row["version"], by_clock=True
                    )
                except (StaleMove, Refused, GameError):
                    continue  # a move arrived meanwhile: the deadline starts again
                work.forfeits.append(result)
                continue
            if row["reminded"] or plan.reminder is None:
                continue
            if now < deadline(since, plan.reminder, stops):
                continue  # the player's vacation moved the reminder later
            waited = counted(since, now, stops) / 3600
            left = (plan.forfeit / 3600 - waited) if plan.forfeit is not None else None
            reminder = Reminder(row["id"], row["channel_id"], user, waited, left)
            # A member who turned reminders off gets none: the turn is marked reminded all
            # the same (so it is not looked at again), and the forfeit still comes.
            wanted = (await self.notifications(user)).reminders
            async with self.store.transaction() as tx:
                marked = await self.store.mark_reminded(tx, row["id"], row["version"])
                if marked and wanted:
                    await self.store.add_announcement(
                        tx,
                        kind="reminder",
                        match_id=row["id"],
                        version=row["version"],
                        seat=seat,
                        payload=json.dumps(
                            {"user": user, "waited": waited, "left": left},
                        ),
                        boot=self.boot,
                        now=now,
                    )
            if marked and wanted:
                work.reminders.append(reminder)
        for row in await self.store.expired_challenges(now):
            async with self.store.transaction() as tx:
                closed = await self.store.close_challenge(tx, row["id"], "expired", now)
                if closed:
                    await self.store.add_announcement(
                        tx,
                        kind="challenge",
                        challenge_id=row["id"],
                        payload="{}",
                        boot=self.boot,
                        now=now,
                    )
            if closed:
                work.expired.append(await self.challenge_info(row["id"]))
        return work

    # Announcements (the outbox) ---------------------------------------------------------------

    async def pending_announcements(
        self, match_id: int | None = None, *, everything: bool = False
    ) -> list[Row]:
        """Announcements to make now, oldest first. A hand that a request of this run is
        about to show in its own reply waits `DEFERRED_GRACE` seconds, unless `everything`
        (at start-up and shut-down nothing of this run is still answering); one that another
        process's request is about to show waits `OTHER_RUN_GRACE` seconds."""
        now = self.clock.now()
        rows = await self.store.pending_announcements(now, match_id)

        def waits(r: Row) -> bool:
            if not r["deferred"]:
                return False
            if r["created_by"] == self.boot:
                return not everything and now < r["created_at"] + DEFERRED_GRACE
            return not self.store.single_process and now < r["created_at"] + OTHER_RUN_GRACE

        return [r for r in rows if not waits(r)]

    async def claim_announcement(self, row_id: int) -> bool:
        """Take an announcement to send it (False: another sender has it)."""
        async with self.store.transaction() as tx:
            now = self.clock.now()
            return await self.store.claim_announcement(
                tx, row_id, now, LEASE_SECONDS, self.boot, now - DEAD_AFTER
            )

    async def announcement(self, row: Row) -> Announcement:
        """What an outbox row asks to say, with the match as it was when it was written
        (a board) or as it is now (a hand: `current` is False once the position moved on)."""
        payload = json.loads(row["payload"])
        kind = row["kind"]
        nonce = f"{row['id']}.{int(row['created_at'] * 1000) % 10**9}"
        base = Announcement(row["id"], kind, nonce, row["attempts"], row["version"], row["seat"])
        if kind == "challenge":
            base.challenge = await self.challenge_info(row["challenge_id"])
            return base
        info = await self.match(row["match_id"])
        base.match = info
        if kind == "board":
            latest = info.version == row["version"]
            info.match = load_match(payload["state"])
            info.version = row["version"]
            base.lines = [from_json(e) for e in payload["events"]]  # Phrases, or old text
            base.ratings = [RatingChange.from_json(c) for c in payload["ratings"]]
            base.started = bool(payload["started"])
            base.ping = [int(seat) for seat in payload.get("ping") or []]
            base.repost = bool(payload.get("repost"))
            base.held = bool(payload.get("held"))
            if payload.get("continues"):
                before = await self.store.board_before(row["match_id"], row["id"])
                if before is not None and before["message_id"] is not None:
                    base.edit_message_id = int(before["message_id"])
            if latest and info.status == "active":
                await self.timing(info)  # the clock, on the board of the current position
        elif kind == "hand":
            base.current = (
                info.status == "active"
                and info.version == row["version"]
                and info.to_decide == row["seat"]
            )
            if base.current:
                await self.timing(info)
        elif kind == "reminder":
            base.reminder = Reminder(
                info.id, info.channel_id, payload["user"], payload["waited"], payload["left"]
            )
            base.current = info.status == "active" and info.version == row["version"]
        return base

    async def announced(
        self,
        row_id: int,
        *,
        status: str = "sent",
        message_id: int | None = None,
        error: str | None = None,
        board_of: int | None = None,
        notified: Sequence[int] = (),
    ) -> bool:
        """Mark an announcement done: sent (and, for a board, remember its message and whom
        its creation notified), skipped (no longer needed) or dead (Discord will never take
        it)."""
        async with self.store.transaction() as tx:
            done = await self.store.finish_announcement(
                tx,
                row_id,
                status,
                self.clock.now(),
                message_id=message_id,
                error=error,
                notified=notified,
            )
            if done and board_of is not None and message_id is not None:
                await self.store.set_board_message(tx, board_of, message_id)
        return done

    async def old_hand_message(self, match_id: int, seat: int, version: int) -> int | None:
        """The newest hand DM a player was sent for a position before `version`: the one
        whose controls a move made elsewhere leaves out of date."""
        rows = await self.store.hand_messages(match_id, seat, version)
        return int(rows[0]["message_id"]) if rows else None

    async def dm_notice_given(self, match_id: int, seat: int) -> bool:
        """A player whose DMs are closed is told so once per game, not after every board."""
        return await self.store.dm_notice_given(match_id, seat)

    async def turn_pinged(self, match_id: int, version: int, user_id: int) -> bool:
        """Whether the board of this version, the one that handed the turn to `user_id`,
        notified them in the channel when it was posted (it may have been an edit)."""
        return user_id in await self.store.board_notified(match_id, version)

    async def refusal_told(self, match_id: int, code: int, before: int) -> bool:
        """Whether an earlier board of this match was refused with Discord's `code` (its
        players were told then)."""
        return await self.store.board_refused_before(match_id, code, before)

    async def announced_by_reply(self, row_id: int) -> bool:
        """The request that made a move showed the player their hand in its reply."""
        return await self.announced(row_id, error="shown in the reply")

    async def retry_announcement(
        self, row_id: int, error: str, delay: float | None = None, *, passing: bool = True
    ) -> None:
        """Try again later: after `delay` seconds if Discord said how long (a 429), else
        backing off to RETRY_MAX_DELAY. A `passing` failure (Discord's trouble, the
        network's) is retried as long as it lasts; any other gives up after RETRY_LIMIT
        attempts (each claim counts one)."""
        row = await self.store.announcement(row_id)
        if row is None:
            return
        if not passing and row["attempts"] >= RETRY_LIMIT:
            await self.announced(row_id, status="dead", error=error[:500])
            return
        if delay is None:
            delay = min(RETRY_MAX_DELAY, 5.0 * 2 ** min(row["attempts"] - 1, 16))
        delay = min(delay, RETRY_AFTER_LIMIT)
        async with self.store.transaction() as tx:
            await self.store.retry_announcement(tx, row_id, self.clock.now() + delay, error[:500])

    async def release_announcement(self, row_id: int) -> None:
        """A send cut short by a stop: the row is free again at once (its nonce keeps a
        second post of the same message from showing twice)."""
        async with self.store.transaction() as tx:
            await self.store.retry_announcement(tx, row_id, self.clock.now(), "interrupted")

    async def release_announcements(self) -> None:
        """At start-up: announcements an earlier run had taken are free to send again."""
        async with self.store.transaction() as tx:
            await self.store.release_leases(tx)

    async def computer_turns(self) -> list[MatchInfo]:
        return [await self._info(r) for r in await self.store.computer_turns()]

    async def claim_computer_turn(self, info: MatchInfo) -> bool:
        """Whether this process searches and plays the computer's decision now: the claim
        is made in the database, so with several processes each turn is taken once (a
        process that dies with it leaves it to the others when the lease runs out)."""
        async with self.store.transaction() as tx:
            now = self.clock.now()
            return await self.store.claim_computer_turn(
                tx, info.id, info.version, now, COMPUTER_LEASE_SECONDS, self.boot, now - DEAD_AFTER
            )

    # Heartbeats ---------------------------------------------------------------------------------

    async def beat(self) -> tuple[bool, bool]:
        """This process is alive; and whether announcements or computer turns wait that no
        live process is on (a killed process had them, or stored them and died)."""
        now = self.clock.now()
        async with self.store.transaction() as tx:
            await self.store.beat(tx, self.boot, now)
        row = await self.store.orphaned_work(now, now - ORPHAN_GRACE, now - DEAD_AFTER)
        return bool(row["announcements"]), bool(row["computer"])

    async def end_beats(self) -> None:
        now = self.clock.now()
        async with self.store.transaction() as tx:
            await self.store.end_process(tx, self.boot, now - 86_400)

    # Standings and history ----------------------------------------------------------------------

    async def leaderboard(self, guild_id: int, game: str, page: int = 1) -> LeaderboardPage:
        return await leaderboards.leaderboard(self.store, guild_id, game, page)

    async def stats(
        self, guild_id: int, user_id: int, *, against: int | None = None
    ) -> PlayerStats:
        return await leaderboards.player_stats(self.store, guild_id, user_id, against=against)

    async def recent_games(self, guild_id: int, user_id: int, limit: int = 10) -> list[GameSummary]:
        return await leaderboards.recent_games(self.store, guild_id, user_id, limit)

    async def rating_history(self, guild_id: int, user_id: int) -> dict[str, list[RatingStep]]:
        """A member's rating after each of their rated matches on a server, per game ("st1",
        "st2"; only the games they played rated), oldest first. Matches rated by a bot older
        than the outbox (migration 3) are not in it: see migration 6."""
        history: dict[str, list[RatingStep]] = {}
        for r in await self.store.rating_history(guild_id, user_id):
            step = RatingStep(
                r["game"], r["match_id"], r["at"], Rating(r["mu"], r["sigma"]), r["result"]
            )
            history.setdefault(step.game, []).append(step)
        return history

    async def export(self, match_id: int) -> str:
        return await history.export_text(self.store, await self.match(match_id))

    async def verify(self, match_id: int) -> bool:
        return await history.verify(self.store, await self.match(match_id))


def _turn(actor: int | None, still: bool, events: list[Any]) -> str:
    """A match's `turn` as stored: who made its newest board's step, whether their turn
    goes on, and the turn's events so far (in their stored form: `engine.phrases.to_json`)."""
    return json.dumps([actor, still, events])


_BUSY_CHANNEL = say(
    "This channel already has a game in progress; finish it, or challenge in"
    " another channel or thread."
)
# Why a challenge can no longer be answered, by its status.
_CLOSED = {
    "accepted": say("This challenge is no longer open: it was accepted."),
    "declined": say("This challenge is no longer open: it was declined."),
    "cancelled": say("This challenge is no longer open: it was cancelled."),
    "expired": say("This challenge is no longer open: it was expired."),
}


def _clock(clock_hours: float | None, settings: Settings) -> float | None:
    """A new challenge's hours per move: as chosen, else the server's forfeit time now (None
    when the server has none: the game then follows the server's settings)."""
    if clock_hours is None and settings.forfeit_hours > 0:
        return settings.forfeit_hours
    return clock_hours


def _server_clock(clock_hours: float | None, settings: Settings) -> bool:
    """Whether a new challenge's clock is the server's forfeit time (none chosen): its game
    is then reminded after the server's `reminder_hours`, as the settings say."""
    return clock_hours is None and settings.forfeit_hours > 0


def _result(seat: int, winner: int | None) -> str:
    """How a match went for the player in `seat` (`winner` None: a draw)."""
    if winner is None:
        return "draw"
    return "win" if winner == seat else "loss"


def _with_role(spec: MatchSpec, role: str | None) -> MatchSpec:
    """The challenger is seat 0; their chosen role fixes who starts or attacks."""
    if role is None:
        return spec
    role = role.lower()
    if spec.game == "st2":
        if role not in ("attacker", "defender"):
            raise Refused(say("In Schotten Totten 2 choose to be the attacker or the defender."))
        return replace(spec, first=0 if role == "attacker" else 1)
    if role not in ("first", "second"):
        raise Refused(say("In Schotten Totten choose to play first or second."))
    return replace(spec, first=0 if role == "first" else 1)


__all__ = ["AI_LEVELS", "GameService", "ServiceError", "new_seed"]
