"""The store's interface: all SQL of the bot, written once for both backends.

`open_store(database)` (bot/store/factory.py) opens a SQLite file (the default:
`bot/store/sqlite.py`) or, for a `postgresql://` URL, a PostgreSQL database through asyncpg
(`bot/store/pg.py`), which several bot processes may share; this module imports neither.
The queries below are written once, in the SQL both
databases speak (`?` placeholders, which the PostgreSQL backend numbers), so the service
never knows which one it talks to. What differs lives in the backends: connections,
transactions, locks, JSON functions, the schema's migrations, and how a move's writes
reach the database (`record_move`: one statement on PostgreSQL).

Writes go through `transaction()`, the one explicit transaction helper: everything inside
commits together or not at all. Races are settled in the database, never in memory: a
move's version check, a challenge closed only while open, a reminder marked only once, an
announcement claimed with a lease, ratings locked for the transaction that changes them,
one active match per channel by a unique index.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from bot.errors import ServiceError

# A result row: sqlite3.Row or asyncpg.Record; both read by column name or by position.
Row = Any
SYNCHRONOUS = ("full", "normal")
# Ids are 64-bit signed integers in both databases: a larger id (from a forged or damaged
# control) cannot name a row, and binding it would raise OverflowError.
MAX_ID = 2**63 - 1


def _ids(ids: Sequence[int]) -> str | None:
    """User ids as stored in a JSON column (NULL for none)."""
    return json.dumps([int(i) for i in ids]) if ids else None


def valid_id(value: int) -> bool:
    return 0 <= value <= MAX_ID


def is_postgres(database: str | Path) -> bool:
    return str(database).startswith(("postgresql://", "postgres://"))


# `scheme://user:password@` at the start of a database setting, also as a Path folds it
# (`scheme:/user:password@`): the userinfo runs to the netloc's last @, as urlsplit reads it.
_URL_PASSWORD = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*:/{1,2}[^/?#@:]*):[^/?#]*@")
# A password given as a query parameter (libpq reads `?password=`).
_QUERY_PASSWORD = re.compile(r"([?&]password=)[^&#]*", re.IGNORECASE)


def safe_database(database: Path | str) -> str:
    """The database for logs and messages: a URL's password, whatever its scheme, is
    replaced by ***."""
    return _QUERY_PASSWORD.sub(r"\1***", _URL_PASSWORD.sub(r"\1:***@", str(database), count=1))


def without_password(url: str) -> str:
    """A PostgreSQL URL with no password in it at all, to be used as printed: libpq then
    takes the password from PGPASSWORD or ~/.pgpass, or asks for it."""
    parts = urlsplit(url)
    userinfo, at, hostport = parts.netloc.rpartition("@")
    netloc = f"{userinfo.partition(':')[0]}@{hostport}" if at else parts.netloc
    query = "&".join(
        p for p in parts.query.split("&") if p and not p.lower().startswith("password=")
    )
    return urlunsplit(parts._replace(netloc=netloc, query=query))


@dataclass(frozen=True, slots=True)
class Settings:
    """A server's settings (defaults when the server never changed them)."""

    guild_id: int
    reminder_hours: float = 24.0
    forfeit_hours: float = 72.0  # 0: no forfeit on time
    challenge_hours: float = 24.0
    use_threads: bool = True
    # Whether members other than its two players may ask for a finished game's analysis.
    public_analysis: bool = True
    # The language of its public posts (en fr de); None: the server's Discord language.
    language: str | None = None
    # Days of vacation a member may take a year (0: none); see bot/game_clock.py.
    vacation_days: int = 21


# `member_notifications.pings`: 0 off, 1 on, BOTH on and also on the turns whose hand
# goes by DM (`Notifications.turn_both`).
BOTH = 2


@dataclass(frozen=True, slots=True)
class Notifications:
    """A member's own notifications, the same in every server (all on until they change
    them): their hand by DM when it becomes their turn, the mentions that notify them in a
    game's channel or thread, and turn reminders."""

    user_id: int
    turn_dm: bool = True
    pings: bool = True
    reminders: bool = True
    # On their turn, both the hand by DM and the board's ping; by default one signal a
    # turn: the DM where it goes, the ping otherwise (bot/front/relay.py).
    turn_both: bool = False


@dataclass(frozen=True, slots=True)
class NewAnnouncement:
    """An outbox row to write (see `Store.add_announcement` for the fields)."""

    kind: str
    payload: str
    match_id: int | None = None
    version: int | None = None
    seat: int | None = None
    deferred: bool = False


@dataclass(frozen=True, slots=True)
class MoveWrite:
    """Everything one move stores: the match's new state (if its version is still
    `expected_version`), the move log's new entries from `first_seq`, the games it ended
    (number, winner, termination, detail), the turn (see migration 5) and its
    announcements, all at `now`."""

    match_id: int
    expected_version: int
    state: str
    to_decide: int | None
    now: float
    finished: tuple[float, int | None, str] | None
    turn: str
    first_seq: int
    moves: Sequence[tuple[int, str]]
    games: Sequence[tuple[int, int | None, str, str]]
    announcements: Sequence[NewAnnouncement]
    boot: str

    @property
    def ending(self) -> tuple[str, float | None, int | None, str | None]:
        """(status, finished_at, winner, termination) as stored."""
        if self.finished is None:
            return "active", None, None, None
        return "finished", *self.finished


# How a hand that could not be sent by DM is marked: its player was told in the channel.
DMS_CLOSED = "the player's DMs are closed; told in the channel"
# Matches (`m`) with their players' names as `name0` and `name1`.
MATCHES_JOINED = (
    "matches m LEFT JOIN users u0 ON u0.user_id = m.player0_id"
    " LEFT JOIN users u1 ON u1.user_id = m.player1_id"
)
# A forgotten player's name ('': "deleted member") in the matches their request covers.
_FORGOTTEN = (
    "EXISTS (SELECT 1 FROM forgotten f WHERE f.user_id = m.player{seat}_id"
    " AND f.guild_id IN (0, m.guild_id) AND f.through_match >= m.id)"
)
# A match's `turn` with no events: what a deletion leaves of a finished game's (bot.service._turn).
_NO_TURN = "[null, false, []]"
MATCHES = (
    f"SELECT m.*, CASE WHEN {_FORGOTTEN.format(seat=0)} THEN '' ELSE u0.name END AS name0,"
    f" CASE WHEN {_FORGOTTEN.format(seat=1)} THEN '' ELSE u1.name END AS name1"
    f" FROM {MATCHES_JOINED}"
)


class ChannelBusy(ServiceError):
    """The channel already has an active match (the unique index said so)."""

    def __init__(self) -> None:
        super().__init__("This channel already has a game in progress.")


# A lease's holder is dead when its heartbeat stopped before the time given; a holder with
# no heartbeat row (one that never beat, or stopped cleanly) keeps its lease to its end.
_DEAD = "EXISTS (SELECT 1 FROM processes p WHERE p.boot = {holder} AND p.beat_at < ?)"
# An announcement not yet made that a try failed (a stop's release is no failure).
_RETRYING = "status = 'pending' AND error IS NOT NULL AND error <> 'interrupted'"


class SchemaTooNew(Exception):
    """The database was written by a newer schotten-bot: this code must not touch it."""

    def __init__(self, found: int, known: int) -> None:
        super().__init__(f"schema version {found}; this schotten-bot knows up to {known}")
        self.found = found
        self.known = known


class StoreUnavailable(ServiceError):
    """The database cannot be reached right now (restarting, network): nothing was changed,
    or, if the connection broke while committing, the change may have been stored."""

    def __init__(self) -> None:
        super().__init__(
            "The game database is not answering right now (it may be restarting). "
            "Please try again in a moment."
        )


class Tx:
    """The writer inside a transaction: every write method of the store takes one."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run a statement; how many rows it changed."""
        raise NotImplementedError

    async def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        """The same as `execute` (tests write with it)."""
        return await self.execute(sql, params)

    async def insert(
        self, sql: str, params: Sequence[Any] = (), *, busy: type[ServiceError] | None = None
    ) -> int:
        """Insert one row; its new id. `busy`: raised when a unique index refuses it."""
        raise NotImplementedError

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        raise NotImplementedError

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        """A read inside the transaction (sees its own writes)."""
        raise NotImplementedError

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Every row of a read, or of a write's RETURNING, inside the transaction."""
        raise NotImplementedError

    async def lock_keys(self, keys: Sequence[str]) -> None:
        """Hold these named locks until the transaction ends (taken in sorted order, so two
        transactions never wait for each other in a circle)."""
        raise NotImplementedError


class Store:
    """The database. Open with `await open_store(database)`; close with `await store.close()`."""

    # Whether only one process uses the database (SQLite: one bot process per file).
    single_process = True
    backend = "sqlite"

    def __init__(self) -> None:
        # Settings of servers that never changed theirs (from the bot's configuration).
        self.defaults = Settings(0)

    async def close(self) -> None:
        raise NotImplementedError

    async def version(self) -> int:
        """The schema's migration number."""
        raise NotImplementedError

    def transaction(self) -> AbstractAsyncContextManager[Tx]:
        """The one way to write: everything inside commits together or not at all."""
        raise NotImplementedError

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        raise NotImplementedError

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        raise NotImplementedError

    def json_bool(self, column: str, key: str) -> str:
        """SQL reading the boolean `key` of the JSON object in `column`."""
        raise NotImplementedError

    async def tables(self) -> list[str]:
        """The names of the bot's tables."""
        raise NotImplementedError

    def describe(self) -> str:
        """The database, as an operator reads it (never a password)."""
        raise NotImplementedError

    # Settings and users --------------------------------------------------------------------------

    async def settings(self, guild_id: int) -> Settings:
        row = await self._one("SELECT * FROM settings WHERE guild_id = ?", (guild_id,))
        if row is None:
            return replace(self.defaults, guild_id=guild_id)
        return Settings(
            guild_id,
            row["reminder_hours"],
            row["forfeit_hours"],
            row["challenge_hours"],
            bool(row["use_threads"]),
            bool(row["public_analysis"]),
            row["language"],
            self.defaults.vacation_days if row["vacation_days"] is None else row["vacation_days"],
        )

    async def put_settings(self, tx: Tx, s: Settings) -> None:
        await tx.execute(
            "INSERT INTO settings (guild_id, reminder_hours, forfeit_hours, challenge_hours,"
            " use_threads, public_analysis, language, vacation_days)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET reminder_hours = excluded.reminder_hours,"
            " forfeit_hours = excluded.forfeit_hours,"
            " challenge_hours = excluded.challenge_hours, use_threads = excluded.use_threads,"
            " public_analysis = excluded.public_analysis, language = excluded.language,"
            " vacation_days = excluded.vacation_days",
            (
                s.guild_id,
                s.reminder_hours,
                s.forfeit_hours,
                s.challenge_hours,
                int(s.use_threads),
                int(s.public_analysis),
                s.language,
                s.vacation_days,
            ),
        )

    async def member_language(self, user_id: int) -> str | None:
        row = await self._one("SELECT language FROM member_languages WHERE user_id = ?", (user_id,))
        return None if row is None else str(row["language"])

    async def put_member_language(self, tx: Tx, user_id: int, language: str, now: float) -> None:
        await tx.execute(
            "INSERT INTO member_languages (user_id, language, seen_at) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET language = excluded.language,"
            " seen_at = excluded.seen_at",
            (user_id, language, now),
        )

    async def unseen_shown(self, user_id: int) -> bool:
        """Whether the member's hands show the cards they have not seen (default: no)."""
        row = await self._one("SELECT shown FROM member_unseen WHERE user_id = ?", (user_id,))
        return row is not None and bool(row["shown"])

    async def put_unseen_shown(self, tx: Tx, user_id: int, shown: bool, now: float) -> None:
        await tx.execute(
            "INSERT INTO member_unseen (user_id, shown, changed_at) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET shown = excluded.shown,"
            " changed_at = excluded.changed_at",
            (user_id, int(shown), now),
        )

    async def notifications(self, user_ids: Iterable[int]) -> dict[int, Notifications]:
        """These members' notifications (all on for a member who never changed them)."""
        ids = list(set(user_ids))
        found = {u: Notifications(u) for u in ids}
        if ids:
            marks = ",".join("?" * len(ids))
            for r in await self._all(
                f"SELECT * FROM member_notifications WHERE user_id IN ({marks})", ids
            ):
                found[r["user_id"]] = Notifications(
                    r["user_id"],
                    bool(r["turn_dm"]),
                    bool(r["pings"]),
                    bool(r["reminders"]),
                    r["pings"] == BOTH,
                )
        return found

    async def put_notifications(self, tx: Tx, n: Notifications, now: float) -> None:
        # `turn_both` is kept in the pings column (BOTH), no column of its own: it only
        # means something while pings are on.
        pings = (BOTH if n.turn_both else 1) if n.pings else 0
        await tx.execute(
            "INSERT INTO member_notifications (user_id, turn_dm, pings, reminders, changed_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET"
            " turn_dm = excluded.turn_dm, pings = excluded.pings,"
            " reminders = excluded.reminders, changed_at = excluded.changed_at",
            (n.user_id, int(n.turn_dm), pings, int(n.reminders), now),
        )

    async def put_user(self, tx: Tx, user_id: int, name: str, is_bot: bool) -> None:
        await tx.execute(
            "INSERT INTO users (user_id, name, is_bot) VALUES (?, ?, ?) ON CONFLICT (user_id)"
            " DO UPDATE SET name = excluded.name, is_bot = excluded.is_bot",
            (user_id, name, int(is_bot)),
        )

    async def names(self, user_ids: Iterable[int], guild_id: int = 0) -> dict[int, str]:
        """Stored names ('' for a member forgotten everywhere or in `guild_id`)."""
        ids = list(set(user_ids))
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        rows = await self._all(f"SELECT user_id, name FROM users WHERE user_id IN ({marks})", ids)
        found = {r["user_id"]: r["name"] for r in rows}
        # A member forgotten everywhere has no `users` row left: the deletion says who.
        gone = await self._all(
            f"SELECT user_id FROM forgotten WHERE guild_id IN (0, ?) AND user_id IN ({marks})",
            [guild_id, *ids],
        )
        return found | {r["user_id"]: "" for r in gone}

    # Members' data (/schotten privacy) ----------------------------------------------------

    async def member_data(self, user_id: int, guild_id: int) -> Row:
        """What is kept about a member: counts for the privacy answer."""
        row = await self._one(
            "SELECT (SELECT count(*) FROM users WHERE user_id = ? AND name <> '') AS named,"
            " (SELECT count(*) FROM member_languages WHERE user_id = ?) AS language,"
            " (SELECT count(*) FROM member_unseen WHERE user_id = ?) AS unseen,"
            " (SELECT count(*) FROM member_notifications WHERE user_id = ?) AS notifications,"
            " (SELECT count(*) FROM matches WHERE status = 'finished'"
            "  AND (player0_id = ? OR player1_id = ?)) AS finished,"
            " (SELECT count(*) FROM matches WHERE status = 'active'"
            "  AND (player0_id = ? OR player1_id = ?)) AS active,"
            " (SELECT count(*) FROM matches WHERE status = 'active' AND guild_id = ?"
            "  AND (player0_id = ? OR player1_id = ?)) AS active_here,"
            " (SELECT count(DISTINCT guild_id) FROM ratings WHERE user_id = ?) AS rated_servers,"
            " (SELECT count(*) FROM challenges WHERE status = 'open'"
            "  AND (challenger_id = ? OR opponent_id = ?)) AS challenges",
            (user_id,) * 8 + (guild_id,) + (user_id,) * 5,
        )
        assert row is not None
        return row

    async def forget_member(self, tx: Tx, user_id: int, guild_id: int, now: float) -> None:
        """Delete what is kept about a member: everywhere (`guild_id` 0, their own request)
        or in one server (an admin's, for a member who left it). Their finished games keep
        their moves and show them as "deleted member"; ratings and their history go; their
        challenges go (open ones with them); their games' announcements and the last
        turn's events stored with each game are dropped (their texts named them); they leave
        tournaments not started, withdraw from those under way, and their results stay, shown
        as "deleted member", so that the other players' standings still add up. Games under
        way are the caller's to refuse first."""
        here = "" if guild_id == 0 else " AND guild_id = ?"
        scope: tuple[Any, ...] = () if guild_id == 0 else (guild_id,)
        last = await tx.fetchone("SELECT COALESCE(max(id), 0) AS last FROM matches")
        assert last is not None
        await tx.execute(
            "DELETE FROM forgotten WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )
        await tx.execute(
            "INSERT INTO forgotten (guild_id, user_id, through_match, at) VALUES (?, ?, ?, ?)",
            (guild_id, user_id, last["last"], now),
        )
        await tx.execute(f"DELETE FROM rating_history WHERE user_id = ?{here}", (user_id, *scope))
        await tx.execute(f"DELETE FROM ratings WHERE user_id = ?{here}", (user_id, *scope))
        await tx.execute(f"DELETE FROM vacations WHERE user_id = ?{here}", (user_id, *scope))
        # Their challenges, open or closed (each names them), with their announcements.
        mine = f" AND (challenger_id = ? OR opponent_id = ?){here}"
        challenges = f"SELECT id FROM challenges WHERE true{mine}"
        await tx.execute(
            f"DELETE FROM outbox WHERE challenge_id IN ({challenges})",
            (user_id, user_id, *scope),
        )
        await tx.execute(f"DELETE FROM challenges WHERE true{mine}", (user_id, user_id, *scope))
        # Their ended games: every announcement (even one not posted yet: its text names
        # them), and the turn's events (named too; only a game under way reads them).
        ended = f" status <> 'active' AND (player0_id = ? OR player1_id = ?){here}"
        await tx.execute(
            f"DELETE FROM outbox WHERE match_id IN (SELECT id FROM matches WHERE{ended})",
            (user_id, user_id, *scope),
        )
        await tx.execute(
            f"UPDATE matches SET turn = ? WHERE{ended}", (_NO_TURN, user_id, user_id, *scope)
        )
        # Tournaments: out of those not started, withdrawn from those under way; the
        # results stay (shown as "deleted member") for the others' standings.
        events = f"SELECT id FROM tournaments WHERE status = ?{here}"
        await tx.execute(
            f"DELETE FROM tournament_players WHERE user_id = ? AND tournament_id IN ({events})",
            (user_id, "open", *scope),
        )
        await tx.execute(
            "UPDATE tournament_players SET withdrawn_at = ? WHERE user_id = ?"
            f" AND withdrawn_at IS NULL AND tournament_id IN ({events})",
            (now, user_id, "running", *scope),
        )
        if guild_id == 0:
            await tx.execute("DELETE FROM users WHERE user_id = ?", (user_id,))
            for table in (
                "member_languages",
                "member_unseen",
                "member_notifications",
                "dm_channels",
            ):
                await tx.execute(f"DELETE FROM {table} WHERE user_id = ?", (user_id,))
            await tx.execute(
                "DELETE FROM refusals WHERE kind = 'dms' AND target_id = ?", (user_id,)
            )

    # Members' DM channels (bot/front/dm_channels.py) -------------------------------------------

    async def dm_channel(self, user_id: int) -> int | None:
        """The id of the member's DM channel with the bot, once opened (None: never)."""
        row = await self._one("SELECT channel_id FROM dm_channels WHERE user_id = ?", (user_id,))
        return None if row is None else int(row["channel_id"])

    async def put_dm_channel(self, tx: Tx, user_id: int, channel_id: int, now: float) -> None:
        await tx.execute(
            "INSERT INTO dm_channels (user_id, channel_id, opened_at) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET channel_id = excluded.channel_id,"
            " opened_at = excluded.opened_at",
            (user_id, channel_id, now),
        )

    # Where Discord refused the bot (bot/refusals.py) ------------------------------------------

    async def refused(self, kind: str, target_id: int) -> int | None:
        """Discord's code when this was refused (None: not refused)."""
        row = await self._one(
            "SELECT code FROM refusals WHERE kind = ? AND target_id = ?", (kind, target_id)
        )
        return None if row is None else int(row["code"])

    async def refusals_of(self, user_id: int, channel_id: int | None) -> list[tuple[str, float]]:
        """The refusals, (kind, when), of a member's DMs (`dms`) and of a channel or its
        threads (`channel`): one read at each interaction."""
        channel = -1 if channel_id is None else channel_id
        rows = await self._all(
            "SELECT kind, at FROM refusals WHERE (kind = 'dms' AND target_id = ?)"
            " OR (kind = 'channel' AND (target_id = ? OR parent_id = ?))",
            (user_id, channel, channel),
        )
        return [(str(r["kind"]), float(r["at"])) for r in rows]

    async def put_refusal(
        self,
        tx: Tx,
        kind: str,
        target_id: int,
        code: int,
        now: float,
        parent_id: int | None = None,
    ) -> None:
        await tx.execute(
            "INSERT INTO refusals (kind, target_id, parent_id, code, at) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (kind, target_id) DO UPDATE SET code = excluded.code,"
            " at = excluded.at, parent_id = excluded.parent_id",
            (kind, target_id, parent_id, code, now),
        )

    async def forget_refusal(self, tx: Tx, kind: str, target_id: int) -> int:
        return await tx.execute(
            "DELETE FROM refusals WHERE kind = ? AND target_id = ?", (kind, target_id)
        )

    async def forget_channel_refusals(
        self, tx: Tx, channel_id: int, *, itself: bool, threads: bool
    ) -> int:
        """The channel's own refusal (`itself`) and its threads' (`threads`)."""
        where = [w for w, on in (("target_id = ?", itself), ("parent_id = ?", threads)) if on]
        if not where:
            return 0
        return await tx.execute(
            f"DELETE FROM refusals WHERE kind = 'channel' AND ({' OR '.join(where)})",
            (channel_id,) * len(where),
        )

    async def leave_server(
        self, tx: Tx, guild_id: int, termination: str, now: float
    ) -> dict[str, int]:
        """The bot was removed from a server: its games under way end with no winner and no
        rating change (their version moves on, so a move under way fails its check), its
        open challenges are cancelled, its live tournaments cancelled, and what was still to
        announce there is set aside. Counts of each."""
        games = await tx.execute(
            "UPDATE matches SET status = 'finished', finished_at = ?, termination = ?,"
            " winner = NULL, rated = 0, to_decide = NULL, version = version + 1"
            " WHERE guild_id = ? AND status = 'active'",
            (now, termination, guild_id),
        )
        challenges = await tx.execute(
            "UPDATE challenges SET status = 'cancelled', closed_at = ?"
            " WHERE guild_id = ? AND status = 'open'",
            (now, guild_id),
        )
        tournaments = await tx.execute(
            "UPDATE tournaments SET status = 'cancelled', finished_at = ?"
            " WHERE guild_id = ? AND status IN ('open', 'running')",
            (now, guild_id),
        )
        announcements = await tx.execute(
            "UPDATE outbox SET status = 'dead', error = ?, done_at = ? WHERE status = 'pending'"
            " AND (match_id IN (SELECT id FROM matches WHERE guild_id = ?) OR challenge_id IN"
            " (SELECT id FROM challenges WHERE guild_id = ?))",
            ("the bot was removed from the server", now, guild_id, guild_id),
        )
        return {
            "games": games,
            "challenges": challenges,
            "tournaments": tournaments,
            "announcements": announcements,
        }

    # Challenges ------------------------------------------------------------------------------

    async def add_challenge(
        self,
        tx: Tx,
        *,
        guild_id: int,
        channel_id: int,
        challenger_id: int,
        opponent_id: int | None,
        spec: str,
        ai_level: str | None,
        now: float,
        expires_at: float,
        for_role_id: int | None = None,
        clock_hours: float | None = None,
        server_clock: bool = False,
    ) -> int:
        """A challenge; with no `opponent_id`, an open one that the first member to accept
        takes (only a member of `for_role_id`, if given). `server_clock`: its clock is the
        server's forfeit time, no clock having been chosen."""
        return await tx.insert(
            "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, spec,"
            " ai_level, created_at, expires_at, for_anyone, for_role_id, clock_hours,"
            " server_clock) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                guild_id,
                channel_id,
                challenger_id,
                opponent_id,
                spec,
                ai_level,
                now,
                expires_at,
                int(opponent_id is None),
                for_role_id,
                clock_hours,
                int(server_clock),
            ),
        )

    async def challenge(self, challenge_id: int) -> Row | None:
        return await self._one("SELECT * FROM challenges WHERE id = ?", (challenge_id,))

    async def open_challenge(
        self, channel_id: int, challenger_id: int, opponent_id: int
    ) -> Row | None:
        return await self._one(
            "SELECT * FROM challenges WHERE status = 'open' AND channel_id = ?"
            " AND challenger_id = ? AND opponent_id = ?",
            (channel_id, challenger_id, opponent_id),
        )

    async def open_call(self, channel_id: int, challenger_id: int) -> Row | None:
        """The challenger's open challenge (one that names no opponent) in a channel."""
        return await self._one(
            "SELECT * FROM challenges WHERE status = 'open' AND channel_id = ?"
            " AND challenger_id = ? AND for_anyone = 1",
            (channel_id, challenger_id),
        )

    async def take_challenge(self, tx: Tx, challenge_id: int, user_id: int, now: float) -> bool:
        """Take an open challenge (one that names no opponent) as `user_id`, who becomes its
        opponent; False if it was no longer open (someone was quicker). The statement itself
        decides, so it holds across processes: the second writer finds it taken."""
        changed = await tx.execute(
            "UPDATE challenges SET status = 'accepted', closed_at = ?, opponent_id = ?"
            " WHERE id = ? AND status = 'open' AND opponent_id IS NULL",
            (now, user_id, challenge_id),
        )
        return changed == 1

    async def set_challenge_match(self, tx: Tx, challenge_id: int, match_id: int) -> None:
        await tx.execute(
            "UPDATE challenges SET match_id = ? WHERE id = ?", (match_id, challenge_id)
        )

    async def open_challenges_for(self, channel_id: int, user_id: int) -> list[Row]:
        """Open challenges in a channel that the user made or received, newest first."""
        return await self._all(
            "SELECT * FROM challenges WHERE status = 'open' AND channel_id = ?"
            " AND (challenger_id = ? OR opponent_id = ?) ORDER BY id DESC",
            (channel_id, user_id, user_id),
        )

    async def challenges_of(self, user_id: int, guild_id: int | None, now: float) -> list[Row]:
        """Open, unexpired challenges a member made or received, in one server (every
        server: `guild_id` None), oldest first (`/schotten games`)."""
        where = "" if guild_id is None else " AND guild_id = ?"
        args: tuple[Any, ...] = (user_id, user_id, now)
        return await self._all(
            "SELECT * FROM challenges WHERE status = 'open'"
            " AND (challenger_id = ? OR opponent_id = ?) AND expires_at > ?"
            f"{where} ORDER BY created_at, id",
            args if guild_id is None else (*args, guild_id),
        )

    async def close_challenge(
        self, tx: Tx, challenge_id: int, status: str, now: float, match_id: int | None = None
    ) -> bool:
        """Close an open challenge; False if it was no longer open (someone was quicker)."""
        changed = await tx.execute(
            "UPDATE challenges SET status = ?, closed_at = ?, match_id = ?"
            " WHERE id = ? AND status = 'open'",
            (status, now, match_id, challenge_id),
        )
        return changed == 1

    async def set_challenge_message(self, tx: Tx, challenge_id: int, message_id: int) -> None:
        await tx.execute(
            "UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id)
        )

    async def expired_challenges(self, now: float) -> list[Row]:
        return await self._all(
            "SELECT * FROM challenges WHERE status = 'open' AND expires_at <= ?", (now,)
        )

    # Matches -----------------------------------------------------------------------------------

    async def add_match(self, tx: Tx, **values: Any) -> int:
        """A new match; `ChannelBusy` if its channel already has an active one (the unique
        index decides, so two processes starting games in one channel cannot both win)."""
        cols = ", ".join(values)
        marks = ", ".join("?" * len(values))
        sql = f"INSERT INTO matches ({cols}) VALUES ({marks})"
        return await tx.insert(sql, list(values.values()), busy=ChannelBusy)

    # The match reads below give each match with its players' names (`name0`, `name1`),
    # joined here rather than asked for after: one round trip per read, not two.

    async def match(self, match_id: int) -> Row | None:
        return await self._one(f"{MATCHES} WHERE m.id = ?", (match_id,))

    async def active_match(self, channel_id: int) -> Row | None:
        return await self._one(
            f"{MATCHES} WHERE m.channel_id = ? AND m.status = 'active'", (channel_id,)
        )

    async def last_match(self, channel_id: int) -> Row | None:
        return await self._one(
            f"{MATCHES} WHERE m.channel_id = ? ORDER BY m.id DESC LIMIT 1", (channel_id,)
        )

    async def active_matches_of(self, guild_id: int, user_id: int) -> list[Row]:
        return await self._all(
            f"{MATCHES} WHERE m.status = 'active' AND m.guild_id = ?"
            " AND (m.player0_id = ? OR m.player1_id = ?) ORDER BY m.id",
            (guild_id, user_id, user_id),
        )

    async def games_under_way(self, user_id: int, guild_id: int | None) -> list[Row]:
        """A member's active matches in one server (every server: `guild_id` None), with
        their players' names, longest waiting first (`/schotten games`)."""
        where = "" if guild_id is None else " AND m.guild_id = ?"
        args = (user_id, user_id) if guild_id is None else (user_id, user_id, guild_id)
        return await self._all(
            f"{MATCHES} WHERE m.status = 'active' AND (m.player0_id = ? OR m.player1_id = ?)"
            f"{where} ORDER BY m.due_since, m.id",
            args,
        )

    async def round_deadline(self, tournament_id: int) -> float | None:
        """The deadline of a running tournament's current round (None: none running)."""
        row = await self._one(
            "SELECT round_deadline FROM tournaments WHERE id = ? AND status = 'running'",
            (tournament_id,),
        )
        return None if row is None or row["round_deadline"] is None else row["round_deadline"]

    async def save_match(self, tx: Tx, w: MoveWrite) -> bool:
        """Store a move's new state if the stored version is still `w.expected_version`
        (so exactly one of two racing moves wins)."""
        status, finished_at, winner, termination = w.ending
        changed = await tx.execute(
            "UPDATE matches SET state = ?, version = version + 1, to_decide = ?, due_since = ?,"
            " reminded = 0, status = ?, finished_at = ?, winner = ?, termination = ?,"
            " ai_lease_until = NULL, turn = ? WHERE id = ? AND version = ?",
            (
                w.state,
                w.to_decide,
                w.now,
                status,
                finished_at,
                winner,
                termination,
                w.turn,
                w.match_id,
                w.expected_version,
            ),
        )
        return changed == 1

    async def set_unrated(self, tx: Tx, match_id: int) -> None:
        """The match changes no rating (an aborted game, rules notes R-28)."""
        await tx.execute("UPDATE matches SET rated = 0 WHERE id = ?", (match_id,))

    async def write_move(self, tx: Tx, w: MoveWrite) -> list[int] | None:
        """Everything a move stores, in this transaction: the announcements' ids, or None
        (and nothing written) if the match moved on from `w.expected_version`."""
        if not await self.save_match(tx, w):
            return None
        await self.add_moves(tx, w.match_id, w.first_seq, w.moves, w.now)
        for number, winner, termination, detail in w.games:
            await self.add_game(tx, w.match_id, number, winner, termination, detail, w.now)
        return await self.add_announcements(tx, w.announcements, w.boot, w.now)

    async def record_move(
        self, w: MoveWrite, before_commit: Callable[[], None] | None = None
    ) -> list[int] | None:
        """`write_move` in a transaction of its own (`before_commit` is called after the
        writes, before the commit). A backend may do it in fewer round trips."""
        async with self.transaction() as tx:
            ids = await self.write_move(tx, w)
            if ids is not None and before_commit is not None:
                before_commit()
            return ids

    async def mark_reminded(self, tx: Tx, match_id: int, version: int) -> bool:
        changed = await tx.execute(
            "UPDATE matches SET reminded = 1 WHERE id = ? AND version = ? AND reminded = 0",
            (match_id, version),
        )
        return changed == 1

    async def move_match(self, tx: Tx, match_id: int, channel_id: int) -> bool:
        """An active match goes on in another channel, if no active match is there."""
        changed = await tx.execute(
            "UPDATE matches SET channel_id = ?, board_message_id = NULL"
            " WHERE id = ? AND status = 'active' AND NOT EXISTS"
            " (SELECT 1 FROM matches WHERE channel_id = ? AND status = 'active')",
            (channel_id, match_id, channel_id),
        )
        return changed == 1

    async def set_board_message(self, tx: Tx, match_id: int, message_id: int) -> None:
        await tx.execute(
            "UPDATE matches SET board_message_id = ? WHERE id = ?", (message_id, match_id)
        )

    async def due_matches(self, now: float, reminder_share: float) -> list[Row]:
        """Active matches whose player to move is owed a reminder or is past their forfeit
        time, not counting vacations (which only move deadlines later: the service checks
        each row against them), with each match's `reminder_hours` and `forfeit_hours`:
        from its own clock (the reminder at `reminder_share` of it), or the server's
        settings for a match without one; a match whose clock is the server's forfeit time
        (`server_clock`) is reminded after the server's `reminder_hours` (bot/game_clock.py).
        Games against the computer wait for the computer, which never needs reminding."""
        d = self.defaults
        return await self._all(
            "SELECT * FROM (SELECT m.*, u0.name AS name0, u1.name AS name1,"
            " CASE WHEN m.clock_hours IS NULL OR m.server_clock = 1"
            " THEN COALESCE(s.reminder_hours, ?)"
            " ELSE m.clock_hours * ? END AS reminder_hours,"
            " COALESCE(m.clock_hours, s.forfeit_hours, ?) AS forfeit_hours"
            f" FROM {MATCHES_JOINED} LEFT JOIN settings s ON s.guild_id = m.guild_id"
            " WHERE m.status = 'active' AND m.to_decide IS NOT NULL"
            " AND (m.ai_seat IS NULL OR m.to_decide != m.ai_seat)) d"
            " WHERE (d.reminded = 0 AND d.due_since + d.reminder_hours * 3600 <= ?)"
            " OR (d.forfeit_hours > 0 AND d.due_since + d.forfeit_hours * 3600 <= ?)",
            (d.reminder_hours, reminder_share, d.forfeit_hours, now, now),
        )

    async def computer_turns(self) -> list[Row]:
        """Active matches waiting for the computer."""
        return await self._all(
            f"{MATCHES} WHERE m.status = 'active' AND m.ai_seat IS NOT NULL"
            " AND m.to_decide = m.ai_seat ORDER BY m.due_since"
        )

    async def claim_computer_turn(
        self, tx: Tx, match_id: int, version: int, now: float, lease: float, boot: str, dead: float
    ) -> bool:
        """Take the computer's decision at this version, to search and play it; False if
        another process (or an earlier wake of this one) has it and its lease runs, unless
        that process's heartbeat stopped before `dead`."""
        changed = await tx.execute(
            "UPDATE matches SET ai_lease_until = ?, ai_leased_by = ? WHERE id = ? AND version = ?"
            " AND status = 'active' AND (ai_lease_until IS NULL OR ai_lease_until <= ?"
            f" OR {_DEAD.format(holder='ai_leased_by')})",
            (now + lease, boot, match_id, version, now, dead),
        )
        return changed == 1

    # Heartbeats -----------------------------------------------------------------------------

    async def beat(self, tx: Tx, boot: str, now: float) -> None:
        """This process is alive (its row is made on the first beat)."""
        await tx.execute(
            "INSERT INTO processes (boot, started_at, beat_at) VALUES (?, ?, ?)"
            " ON CONFLICT (boot) DO UPDATE SET beat_at = excluded.beat_at",
            (boot, now, now),
        )

    async def end_process(self, tx: Tx, boot: str, forget: float) -> None:
        """A clean stop: this process's row goes, and so do rows of processes dead since
        before `forget` (their leases have long run out)."""
        await tx.execute("DELETE FROM processes WHERE boot = ? OR beat_at < ?", (boot, forget))

    async def orphaned_work(self, now: float, due: float, dead: float) -> Row:
        """Work nobody alive is on: announcements due since before `due` and not leased by
        a live process, and computer turns waiting since before `due` likewise."""
        row = await self._one(
            "SELECT EXISTS (SELECT 1 FROM outbox WHERE status = 'pending' AND next_try <= ?"
            " AND (lease_until IS NULL OR lease_until <= ?"
            f" OR {_DEAD.format(holder='leased_by')})) AS announcements,"
            " EXISTS (SELECT 1 FROM matches WHERE status = 'active' AND ai_seat IS NOT NULL"
            " AND to_decide = ai_seat AND due_since <= ? AND (ai_lease_until IS NULL"
            f" OR ai_lease_until <= ? OR {_DEAD.format(holder='ai_leased_by')})) AS computer",
            (due, now, dead, due, now, dead),
        )
        assert row is not None
        return row

    # Moves and finished games ------------------------------------------------------------------

    async def add_moves(
        self, tx: Tx, match_id: int, first_seq: int, moves: Sequence[tuple[int, str]], now: float
    ) -> None:
        await tx.executemany(
            "INSERT INTO moves (match_id, seq, seat, text, at) VALUES (?, ?, ?, ?, ?)",
            [(match_id, first_seq + i, seat, text, now) for i, (seat, text) in enumerate(moves)],
        )

    async def moves(self, match_id: int) -> list[Row]:
        return await self._all("SELECT * FROM moves WHERE match_id = ? ORDER BY seq", (match_id,))

    async def add_game(
        self,
        tx: Tx,
        match_id: int,
        number: int,
        winner: int | None,
        termination: str,
        detail: str,
        now: float,
    ) -> None:
        await tx.execute(
            "INSERT INTO games (match_id, number, winner, termination, detail, finished_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (match_id, number, winner, termination, detail, now),
        )

    async def games(self, match_id: int) -> list[Row]:
        return await self._all(
            "SELECT * FROM games WHERE match_id = ? ORDER BY number", (match_id,)
        )

    # Ratings and history ----------------------------------------------------------------------

    async def rating(self, guild_id: int, game: str, user_id: int) -> Row | None:
        return await self._one(
            "SELECT * FROM ratings WHERE guild_id = ? AND game = ? AND user_id = ?",
            (guild_id, game, user_id),
        )

    async def lock_ratings(self, tx: Tx, guild_id: int, game: str, user_ids: Sequence[int]) -> None:
        """Keep other writers off these players' ratings until the transaction ends, so two
        games ending at once for one player both count (no lost update)."""
        await tx.lock_keys([f"rating:{guild_id}:{game}:{u}" for u in user_ids])

    async def rating_in(self, tx: Tx, guild_id: int, game: str, user_id: int) -> Row | None:
        """The rating as the current transaction sees it (for read-modify-write; take
        `lock_ratings` first)."""
        return await tx.fetchone(
            "SELECT * FROM ratings WHERE guild_id = ? AND game = ? AND user_id = ?",
            (guild_id, game, user_id),
        )

    async def put_rating(
        self, tx: Tx, guild_id: int, game: str, user_id: int, mu: float, sigma: float
    ) -> None:
        await tx.execute(
            "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, rated_games)"
            " VALUES (?, ?, ?, ?, ?, 1) ON CONFLICT (guild_id, game, user_id) DO UPDATE SET"
            " mu = excluded.mu, sigma = excluded.sigma, "
            " rated_games = ratings.rated_games + 1",
            (guild_id, game, user_id, mu, sigma),
        )

    async def add_rating_steps(
        self,
        tx: Tx,
        *,
        guild_id: int,
        game: str,
        match_id: int,
        at: float,
        steps: Sequence[tuple[int, float, float, str]],
    ) -> None:
        """Each player's rating after a rated match, (user, mu, sigma, result) each, in one
        statement: the history that `rating_history` reads."""
        values: list[Any] = []
        for user_id, mu, sigma, result in steps:
            values += [guild_id, game, user_id, match_id, at, mu, sigma, result]
        marks = ", ".join(["(?, ?, ?, ?, ?, ?, ?, ?)"] * len(steps))
        await tx.execute(
            "INSERT INTO rating_history (guild_id, game, user_id, match_id, at, mu, sigma,"
            f" result) VALUES {marks}",
            values,
        )

    async def rating_history(self, guild_id: int, user_id: int) -> list[Row]:
        """A member's rating after each of their rated matches on a server, every game,
        by game and then in the order they ended."""
        return await self._all(
            "SELECT game, match_id, at, mu, sigma, result FROM rating_history"
            " WHERE guild_id = ? AND user_id = ? ORDER BY game, at, match_id",
            (guild_id, user_id),
        )

    async def leaderboard(self, guild_id: int, game: str, limit: int, offset: int) -> list[Row]:
        # Ranked by the conservative estimate mu - 3 sigma (openskill's ordinal).
        return await self._all(
            "SELECT r.*, r.mu - 3 * r.sigma AS ordinal, u.name FROM ratings r"
            " LEFT JOIN users u ON u.user_id = r.user_id WHERE r.guild_id = ? AND r.game = ?"
            " ORDER BY ordinal DESC, r.rated_games DESC, r.user_id LIMIT ? OFFSET ?",
            (guild_id, game, limit, offset),
        )

    async def rated_players(self, guild_id: int, game: str) -> int:
        row = await self._one(
            "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game = ?", (guild_id, game)
        )
        return int(row[0]) if row else 0

    async def rank_of(self, guild_id: int, game: str, user_id: int) -> int | None:
        row = await self.rating(guild_id, game, user_id)
        if row is None:
            return None
        ordinal = row["mu"] - 3 * row["sigma"]
        above = await self._one(
            "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game = ? AND mu - 3 * sigma > ?",
            (guild_id, game, ordinal),
        )
        return int(above[0]) + 1 if above else None

    async def finished_matches_of(self, guild_id: int, user_id: int, limit: int = -1) -> list[Row]:
        """A player's finished matches, newest first (all of them if `limit` < 0)."""
        sql = (
            "SELECT * FROM matches WHERE status = 'finished' AND guild_id = ?"
            " AND (player0_id = ? OR player1_id = ?) ORDER BY finished_at DESC, id DESC"
        )
        if limit < 0:
            return await self._all(sql, (guild_id, user_id, user_id))
        return await self._all(sql + " LIMIT ?", (guild_id, user_id, user_id, limit))

    # Vacations (bot/game_clock.py) --------------------------------------------------------------

    async def vacations(
        self, guild_id: int, user_ids: Sequence[int], ending_after: float
    ) -> list[Row]:
        """The vacations of these members on a server that end after `ending_after`, oldest
        first: (user_id, starts_at, ends_at)."""
        if not user_ids:
            return []
        marks = ",".join("?" * len(user_ids))
        return await self._all(
            "SELECT user_id, starts_at, ends_at FROM vacations WHERE guild_id = ?"
            f" AND user_id IN ({marks}) AND ends_at > ? ORDER BY starts_at",
            (guild_id, *user_ids, ending_after),
        )

    async def vacations_of_many(
        self, members: Sequence[tuple[int, int]], ending_after: float
    ) -> list[Row]:
        """The vacations of several (guild_id, user_id) that end after `ending_after`."""
        if not members:
            return []
        users = sorted({u for _, u in members})
        marks = ",".join("?" * len(users))
        return await self._all(
            "SELECT guild_id, user_id, starts_at, ends_at FROM vacations"
            f" WHERE user_id IN ({marks}) AND ends_at > ? ORDER BY starts_at",
            (*users, ending_after),
        )

    async def vacations_in(self, tx: Tx, guild_id: int, user_id: int, since: float) -> list[Row]:
        """A member's vacations on a server that started at `since` or later, as the
        transaction sees them (take `lock_vacations` first)."""
        return await tx.fetchall(
            "SELECT id, starts_at, ends_at FROM vacations WHERE guild_id = ? AND user_id = ?"
            " AND (starts_at >= ? OR ends_at > ?) ORDER BY starts_at",
            (guild_id, user_id, since, since),
        )

    async def lock_vacations(self, tx: Tx, guild_id: int, user_id: int) -> None:
        """Keep other writers off this member's vacations until the transaction ends, so two
        requests cannot both start one."""
        await tx.lock_keys([f"vacation:{guild_id}:{user_id}"])

    async def add_vacation(
        self, tx: Tx, guild_id: int, user_id: int, starts_at: float, ends_at: float
    ) -> int:
        return await tx.insert(
            "INSERT INTO vacations (guild_id, user_id, starts_at, ends_at) VALUES (?, ?, ?, ?)",
            (guild_id, user_id, starts_at, ends_at),
        )

    async def end_vacation(self, tx: Tx, vacation_id: int, now: float) -> bool:
        """End a vacation under way now (its end moves to `now`); False if it had ended."""
        changed = await tx.execute(
            "UPDATE vacations SET ends_at = ? WHERE id = ? AND starts_at <= ? AND ends_at > ?",
            (now, vacation_id, now, now),
        )
        return changed == 1

    # The outbox ---------------------------------------------------------------------------------

    async def add_announcements(
        self, tx: Tx, rows: Sequence[NewAnnouncement], boot: str, now: float
    ) -> list[int]:
        """Several announcements in one statement (a move's board and hand): their ids, in
        the order given."""
        values: list[Any] = []
        for r in rows:
            values += [r.kind, r.match_id, r.version, r.seat, r.payload, int(r.deferred)]
            values += [boot, now, now]
        marks = ", ".join(["(?, ?, ?, ?, ?, ?, ?, ?, ?)"] * len(rows))
        returned = await tx.fetchall(
            "INSERT INTO outbox (kind, match_id, version, seat, payload, deferred, created_by,"
            f" created_at, next_try) VALUES {marks} RETURNING id",
            values,
        )
        # Ids are given in the order of the VALUES; RETURNING's own order is not promised.
        return sorted(int(r[0]) for r in returned)

    async def add_announcement(
        self,
        tx: Tx,
        *,
        kind: str,
        payload: str,
        boot: str,
        now: float,
        match_id: int | None = None,
        challenge_id: int | None = None,
        version: int | None = None,
        seat: int | None = None,
        deferred: bool = False,
    ) -> int:
        return await tx.insert(
            "INSERT INTO outbox (kind, match_id, challenge_id, version, seat, payload, deferred,"
            " created_by, created_at, next_try) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (kind, match_id, challenge_id, version, seat, payload, int(deferred), boot, now, now),
        )

    async def vitals(self) -> Row:
        """For the health and metrics endpoint: announcements not yet made (how many, and
        the oldest one's creation time), those of them waiting on a failed try, and games
        not finished."""
        row = await self._one(
            "SELECT (SELECT count(*) FROM outbox WHERE status = 'pending') AS pending,"
            " (SELECT min(created_at) FROM outbox WHERE status = 'pending') AS oldest,"
            " (SELECT count(*) FROM matches WHERE status = 'active') AS active,"
            f" (SELECT count(*) FROM outbox WHERE {_RETRYING}) AS retrying,"
            f" (SELECT min(created_at) FROM outbox WHERE {_RETRYING}) AS retrying_since"
        )
        assert row is not None
        return row

    async def pending_announcements(self, now: float, match_id: int | None = None) -> list[Row]:
        """Announcements not yet made whose time has come, oldest first."""
        where = " AND match_id = ?" if match_id is not None else ""
        params: tuple[Any, ...] = (now,) if match_id is None else (now, match_id)
        return await self._all(
            f"SELECT * FROM outbox WHERE status = 'pending' AND next_try <= ?{where} ORDER BY id",
            params,
        )

    async def board_before(self, match_id: int, row_id: int) -> Row | None:
        """The board announcement made before this one: the message a turn's later steps edit."""
        return await self._one(
            f"SELECT id, status, message_id, {self.json_bool('payload', 'open')} AS open"
            " FROM outbox WHERE match_id = ? AND kind = 'board' AND id < ?"
            " ORDER BY id DESC LIMIT 1",
            (match_id, row_id),
        )

    async def hand_messages(self, match_id: int, seat: int, before_version: int) -> list[Row]:
        """The hand DMs sent to a player of this match for positions before this version."""
        return await self._all(
            "SELECT message_id, version FROM outbox WHERE match_id = ? AND kind = 'hand'"
            " AND seat = ? AND status = 'sent' AND message_id IS NOT NULL AND version < ?"
            " ORDER BY id DESC",
            (match_id, seat, before_version),
        )

    async def dm_notice_given(self, match_id: int, seat: int) -> bool:
        """Whether a player of this match was already told in its channel that their DMs are
        closed (a hand row that died with that notice)."""
        row = await self._one(
            "SELECT 1 FROM outbox WHERE match_id = ? AND kind = 'hand' AND seat = ?"
            " AND status = 'dead' AND error = ? LIMIT 1",
            (match_id, seat, DMS_CLOSED),
        )
        return row is not None

    async def board_refused_before(self, match_id: int, code: int, before: int) -> bool:
        """Whether a board of this match older than row `before` was set aside because
        Discord refused it with `code` (the relay's error text says `refused STATUS/CODE`)."""
        row = await self._one(
            "SELECT 1 FROM outbox WHERE match_id = ? AND kind = 'board' AND status = 'dead'"
            " AND error LIKE ? AND id < ? LIMIT 1",
            (match_id, f"refused %/{int(code)} %", before),
        )
        return row is not None

    async def announcement(self, row_id: int) -> Row | None:
        return await self._one("SELECT * FROM outbox WHERE id = ?", (row_id,))

    async def claim_announcement(
        self, tx: Tx, row_id: int, now: float, lease: float, boot: str, dead: float
    ) -> bool:
        """Take a pending announcement to send it; False if someone else has it."""
        changed = await tx.execute(
            "UPDATE outbox SET lease_until = ?, leased_by = ?, attempts = attempts + 1"
            " WHERE id = ? AND status = 'pending' AND (lease_until IS NULL OR lease_until <= ?"
            f" OR {_DEAD.format(holder='leased_by')})",
            (now + lease, boot, row_id, now, dead),
        )
        return changed == 1

    async def finish_announcement(
        self,
        tx: Tx,
        row_id: int,
        status: str,
        now: float,
        *,
        message_id: int | None = None,
        error: str | None = None,
        notified: Sequence[int] = (),
    ) -> bool:
        """Mark an announcement sent, skipped (no longer needed) or dead (cannot be sent);
        `notified`: the users its new message notified."""
        changed = await tx.execute(
            "UPDATE outbox SET status = ?, done_at = ?, message_id = ?, error = ?,"
            " notified = ?, lease_until = NULL WHERE id = ? AND status = 'pending'",
            (status, now, message_id, error, _ids(notified), row_id),
        )
        return changed == 1

    async def board_row(self, match_id: int, version: int) -> Row | None:
        """The board announcement of this version of a match (the newest, if several)."""
        return await self._one(
            "SELECT id, status, message_id, notified FROM outbox WHERE match_id = ?"
            " AND kind = 'board' AND version = ? ORDER BY id DESC LIMIT 1",
            (match_id, version),
        )

    async def board_notified(self, match_id: int, version: int) -> list[int]:
        """Whom the message of this version's board notified when it was created (nobody
        if it edited its turn's message, or was not sent)."""
        row = await self.board_row(match_id, version)
        if row is None or row["status"] != "sent" or not row["notified"]:
            return []
        return [int(i) for i in json.loads(row["notified"])]

    async def retry_announcement(self, tx: Tx, row_id: int, next_try: float, error: str) -> None:
        await tx.execute(
            "UPDATE outbox SET next_try = ?, error = ?, lease_until = NULL"
            " WHERE id = ? AND status = 'pending'",
            (next_try, error, row_id),
        )

    async def release_leases(self, tx: Tx) -> None:
        """At start-up, when this is the only process on the database: whatever an earlier
        run held, it no longer sends. With several processes (PostgreSQL) another one may be
        sending right now, so there leases run out by themselves instead."""
        if self.single_process:
            await tx.execute("UPDATE outbox SET lease_until = NULL WHERE status = 'pending'")
            await tx.execute(
                "UPDATE matches SET ai_lease_until = NULL WHERE ai_lease_until IS NOT NULL"
            )

    # Copying a whole database (bot/store/migrate.py) --------------------------------------------

    async def reset_ids(self, tx: Tx) -> None:
        """After rows were inserted with their own ids (a copy from another database), make
        new rows get ids above them. Nothing to do in SQLite, whose new INTEGER PRIMARY KEY
        is always one more than the largest; PostgreSQL moves its identity sequences."""
