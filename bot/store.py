"""All SQL of the bot: one SQLite file in WAL mode, read and written through aiosqlite.

Writes go through `transaction()`, the one explicit transaction helper: one writer
connection, `BEGIN IMMEDIATE`, commit on success, roll back on any error. An asyncio lock
keeps two coroutines from interleaving statements on the writer. Reads use a second
connection, which in WAL mode sees only committed data, so a read never observes half of
someone else's transaction.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import aiosqlite

from bot.migrations import LATEST, MIGRATIONS

Row = sqlite3.Row
SYNCHRONOUS = ("full", "normal")
# SQLite's INTEGER is 64-bit signed: a larger id (from a forged or damaged control) cannot
# name a row, and binding it would raise OverflowError.
MAX_ID = 2**63 - 1


def valid_id(value: int) -> bool:
    return 0 <= value <= MAX_ID


@dataclass(frozen=True, slots=True)
class Settings:
    """A server's settings (defaults when the server never changed them)."""

    guild_id: int
    reminder_hours: float = 24.0
    forfeit_hours: float = 72.0  # 0: no forfeit on time
    challenge_hours: float = 24.0
    use_threads: bool = True


# How a hand that could not be sent by DM is marked: its player was told in the channel.
DMS_CLOSED = "the player's DMs are closed; told in the channel"


class Tx:
    """The writer inside a transaction: every write method of the store takes one."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def run(self, sql: str, params: Sequence[Any] = ()) -> aiosqlite.Cursor:
        return await self.conn.execute(sql, params)


class Store:
    """The database. Open with `await Store.open(path)`; close with `await store.close()`."""

    def __init__(
        self, path: Path, writer: aiosqlite.Connection, reader: aiosqlite.Connection
    ) -> None:
        self.path = path
        self._writer = writer
        self._reader = reader
        self._lock: Any = None  # an asyncio.Lock, made in open() on the running loop
        # Settings of servers that never changed theirs (from the bot's configuration).
        self.defaults = Settings(0)

    @classmethod
    async def open(
        cls, path: str | Path, *, upto: int = LATEST, synchronous: str = "full"
    ) -> Store:
        """Open (creating if needed) and migrate to `upto` (tests use older versions).

        `synchronous` "full" (the default) makes every commit durable before it returns, so
        a power cut or an OS crash loses no acknowledged move; "normal" (WAL) survives a
        killed process but may lose the last commits to a power cut, for more speed."""
        import asyncio

        if synchronous not in SYNCHRONOUS:
            raise ValueError(f"synchronous is one of {', '.join(SYNCHRONOUS)}")
        path = Path(path)
        writer = await aiosqlite.connect(path, isolation_level=None)
        await writer.execute("PRAGMA journal_mode=WAL")
        await writer.execute(f"PRAGMA synchronous={synchronous.upper()}")
        await writer.execute("PRAGMA foreign_keys=ON")
        await writer.execute("PRAGMA busy_timeout=5000")
        reader = await aiosqlite.connect(path, isolation_level=None)
        await reader.execute("PRAGMA busy_timeout=5000")
        reader.row_factory = sqlite3.Row
        writer.row_factory = sqlite3.Row
        store = cls(path, writer, reader)
        store._lock = asyncio.Lock()
        await store._migrate(upto)
        return store

    async def close(self) -> None:
        await self._reader.close()
        await self._writer.close()

    async def synchronous(self) -> int:
        """SQLite's synchronous level of the writer (2: FULL, 1: NORMAL)."""
        rows = await self._writer.execute_fetchall("PRAGMA synchronous")
        return int(next(iter(rows))[0])

    async def version(self) -> int:
        row = await self._one("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def _migrate(self, upto: int) -> None:
        current = await self.version()
        for number in range(current + 1, upto + 1):
            # Each migration and its version number commit together, or not at all.
            script = (
                f"BEGIN IMMEDIATE;\n{MIGRATIONS[number - 1]}\n"
                f"PRAGMA user_version = {number};\nCOMMIT;"
            )
            async with self._lock:
                try:
                    await self._writer.executescript(script)
                except BaseException:
                    if self._writer.in_transaction:
                        await self._writer.execute("ROLLBACK")
                    raise

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """The one way to write: everything inside commits together or not at all."""
        async with self._lock:
            conn = self._writer
            if conn.in_transaction:
                raise RuntimeError("nested transaction")
            await conn.execute("BEGIN IMMEDIATE")
            try:
                yield Tx(conn)
            except BaseException:
                if conn.in_transaction:
                    await conn.execute("ROLLBACK")
                raise
            else:
                if conn.in_transaction:
                    await conn.execute("COMMIT")

    # Reads run and finish in one call on the reader's thread. Statements left open between
    # awaits would keep the connection's read snapshot alive while other coroutines read,
    # and they would then see data older than what has been committed.

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        rows = await self._reader.execute_fetchall(sql, params)
        return next(iter(rows), None)

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await self._reader.execute_fetchall(sql, params))

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
        )

    async def put_settings(self, tx: Tx, s: Settings) -> None:
        await tx.run(
            "INSERT INTO settings (guild_id, reminder_hours, forfeit_hours, challenge_hours,"
            " use_threads) VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
            " reminder_hours = excluded.reminder_hours, forfeit_hours = excluded.forfeit_hours,"
            " challenge_hours = excluded.challenge_hours, use_threads = excluded.use_threads",
            (s.guild_id, s.reminder_hours, s.forfeit_hours, s.challenge_hours, int(s.use_threads)),
        )

    async def put_user(self, tx: Tx, user_id: int, name: str, is_bot: bool) -> None:
        await tx.run(
            "INSERT INTO users (user_id, name, is_bot) VALUES (?, ?, ?) ON CONFLICT (user_id)"
            " DO UPDATE SET name = excluded.name, is_bot = excluded.is_bot",
            (user_id, name, int(is_bot)),
        )

    async def names(self, user_ids: Iterable[int]) -> dict[int, str]:
        ids = list(set(user_ids))
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        rows = await self._all(f"SELECT user_id, name FROM users WHERE user_id IN ({marks})", ids)
        return {r["user_id"]: r["name"] for r in rows}

    # Challenges ------------------------------------------------------------------------------

    async def add_challenge(
        self,
        tx: Tx,
        *,
        guild_id: int,
        channel_id: int,
        challenger_id: int,
        opponent_id: int,
        spec: str,
        ai_level: str | None,
        now: float,
        expires_at: float,
    ) -> int:
        cur = await tx.run(
            "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, spec,"
            " ai_level, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (guild_id, channel_id, challenger_id, opponent_id, spec, ai_level, now, expires_at),
        )
        assert cur.lastrowid is not None
        return cur.lastrowid

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

    async def open_challenges_for(self, channel_id: int, user_id: int) -> list[Row]:
        """Open challenges in a channel that the user made or received, newest first."""
        return await self._all(
            "SELECT * FROM challenges WHERE status = 'open' AND channel_id = ?"
            " AND (challenger_id = ? OR opponent_id = ?) ORDER BY id DESC",
            (channel_id, user_id, user_id),
        )

    async def close_challenge(
        self, tx: Tx, challenge_id: int, status: str, now: float, match_id: int | None = None
    ) -> bool:
        """Close an open challenge; False if it was no longer open (someone was quicker)."""
        cur = await tx.run(
            "UPDATE challenges SET status = ?, closed_at = ?, match_id = ?"
            " WHERE id = ? AND status = 'open'",
            (status, now, match_id, challenge_id),
        )
        return cur.rowcount == 1

    async def set_challenge_message(self, tx: Tx, challenge_id: int, message_id: int) -> None:
        await tx.run(
            "UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id)
        )

    async def expired_challenges(self, now: float) -> list[Row]:
        return await self._all(
            "SELECT * FROM challenges WHERE status = 'open' AND expires_at <= ?", (now,)
        )

    # Matches -----------------------------------------------------------------------------------

    async def add_match(self, tx: Tx, **values: Any) -> int:
        cols = ", ".join(values)
        marks = ", ".join("?" * len(values))
        cur = await tx.run(f"INSERT INTO matches ({cols}) VALUES ({marks})", list(values.values()))
        assert cur.lastrowid is not None
        return cur.lastrowid

    async def match(self, match_id: int) -> Row | None:
        return await self._one("SELECT * FROM matches WHERE id = ?", (match_id,))

    async def active_match(self, channel_id: int) -> Row | None:
        return await self._one(
            "SELECT * FROM matches WHERE channel_id = ? AND status = 'active'", (channel_id,)
        )

    async def last_match(self, channel_id: int) -> Row | None:
        return await self._one(
            "SELECT * FROM matches WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,)
        )

    async def active_matches_of(self, guild_id: int, user_id: int) -> list[Row]:
        return await self._all(
            "SELECT * FROM matches WHERE status = 'active' AND guild_id = ?"
            " AND (player0_id = ? OR player1_id = ?) ORDER BY id",
            (guild_id, user_id, user_id),
        )

    async def save_match(
        self,
        tx: Tx,
        match_id: int,
        *,
        expected_version: int,
        state: str,
        to_decide: int | None,
        due_since: float,
        reminded: bool,
        finished: tuple[float, int | None, str] | None,
    ) -> bool:
        """Store a new state if the stored version is still `expected_version` (so exactly
        one of two racing moves wins). `finished` is (time, winner seat, termination)."""
        status, finished_at, winner, termination = "active", None, None, None
        if finished is not None:
            status = "finished"
            finished_at, winner, termination = finished
        cur = await tx.run(
            "UPDATE matches SET state = ?, version = version + 1, to_decide = ?, due_since = ?,"
            " reminded = ?, status = ?, finished_at = ?, winner = ?, termination = ?"
            " WHERE id = ? AND version = ?",
            (
                state,
                to_decide,
                due_since,
                int(reminded),
                status,
                finished_at,
                winner,
                termination,
                match_id,
                expected_version,
            ),
        )
        return cur.rowcount == 1

    async def mark_reminded(self, tx: Tx, match_id: int, version: int) -> bool:
        cur = await tx.run(
            "UPDATE matches SET reminded = 1 WHERE id = ? AND version = ? AND reminded = 0",
            (match_id, version),
        )
        return cur.rowcount == 1

    async def set_board_message(self, tx: Tx, match_id: int, message_id: int) -> None:
        await tx.run("UPDATE matches SET board_message_id = ? WHERE id = ?", (message_id, match_id))

    async def due_matches(self, now: float) -> list[Row]:
        """Active matches owed a reminder or past their forfeit time, with their settings.
        Games against the computer wait for the computer, which never needs reminding."""
        d = self.defaults
        rem, forf = d.reminder_hours, d.forfeit_hours
        return await self._all(
            "SELECT m.*, COALESCE(s.reminder_hours, ?) AS reminder_hours,"
            " COALESCE(s.forfeit_hours, ?) AS forfeit_hours FROM matches m"
            " LEFT JOIN settings s ON s.guild_id = m.guild_id"
            " WHERE m.status = 'active' AND m.to_decide IS NOT NULL"
            " AND (m.ai_seat IS NULL OR m.to_decide != m.ai_seat) AND ("
            "  (m.reminded = 0 AND m.due_since + COALESCE(s.reminder_hours, ?) * 3600 <= ?)"
            "  OR (COALESCE(s.forfeit_hours, ?) > 0"
            "      AND m.due_since + COALESCE(s.forfeit_hours, ?) * 3600 <= ?))",
            (rem, forf, rem, now, forf, forf, now),
        )

    async def computer_turns(self) -> list[Row]:
        """Active matches waiting for the computer."""
        return await self._all(
            "SELECT * FROM matches WHERE status = 'active' AND ai_seat IS NOT NULL"
            " AND to_decide = ai_seat ORDER BY due_since"
        )

    # Moves and finished games ------------------------------------------------------------------

    async def add_moves(
        self, tx: Tx, match_id: int, first_seq: int, moves: Sequence[tuple[int, str]], now: float
    ) -> None:
        await tx.conn.executemany(
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
        await tx.run(
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

    async def rating_in(self, tx: Tx, guild_id: int, game: str, user_id: int) -> Row | None:
        """The rating as the current transaction sees it (for read-modify-write)."""
        cur = await tx.run(
            "SELECT * FROM ratings WHERE guild_id = ? AND game = ? AND user_id = ?",
            (guild_id, game, user_id),
        )
        return await cur.fetchone()  # type: ignore[no-any-return]

    async def put_rating(
        self, tx: Tx, guild_id: int, game: str, user_id: int, mu: float, sigma: float
    ) -> None:
        await tx.run(
            "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, rated_games)"
            " VALUES (?, ?, ?, ?, ?, 1) ON CONFLICT (guild_id, game, user_id) DO UPDATE SET"
            " mu = excluded.mu, sigma = excluded.sigma, rated_games = rated_games + 1",
            (guild_id, game, user_id, mu, sigma),
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
        """A player's finished matches, newest first."""
        return await self._all(
            "SELECT * FROM matches WHERE status = 'finished' AND guild_id = ?"
            " AND (player0_id = ? OR player1_id = ?) ORDER BY finished_at DESC, id DESC LIMIT ?",
            (guild_id, user_id, user_id, limit),
        )

    # The outbox ---------------------------------------------------------------------------------

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
        cur = await tx.run(
            "INSERT INTO outbox (kind, match_id, challenge_id, version, seat, payload, deferred,"
            " created_by, created_at, next_try) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (kind, match_id, challenge_id, version, seat, payload, int(deferred), boot, now, now),
        )
        assert cur.lastrowid is not None
        return cur.lastrowid

    async def pending_announcements(self, now: float, match_id: int | None = None) -> list[Row]:
        """Announcements not yet made whose time has come, oldest first."""
        where = " AND match_id = ?" if match_id is not None else ""
        params: tuple[Any, ...] = (now,) if match_id is None else (now, match_id)
        return await self._all(
            f"SELECT * FROM outbox WHERE status = 'pending' AND next_try <= ?{where} ORDER BY id",
            params,
        )

    async def last_board(self, tx: Tx, match_id: int) -> Row | None:
        """The newest board announcement of a match: whose step it showed, whether that
        player's turn went on after it, and the turn's event lines so far (read with SQLite's
        JSON functions, so the stored position is not parsed)."""
        cur = await tx.run(
            "SELECT id, json_extract(payload, '$.actor') AS actor,"
            " json_extract(payload, '$.open') AS open, json_extract(payload, '$.events') AS events"
            " FROM outbox WHERE match_id = ? AND kind = 'board' ORDER BY id DESC LIMIT 1",
            (match_id,),
        )
        return await cur.fetchone()  # type: ignore[no-any-return]

    async def board_before(self, match_id: int, row_id: int) -> Row | None:
        """The board announcement made before this one: the message a turn's later steps edit."""
        return await self._one(
            "SELECT id, status, message_id, json_extract(payload, '$.open') AS open"
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

    async def announcement(self, row_id: int) -> Row | None:
        return await self._one("SELECT * FROM outbox WHERE id = ?", (row_id,))

    async def claim_announcement(self, tx: Tx, row_id: int, now: float, lease: float) -> bool:
        """Take a pending announcement to send it; False if someone else has it."""
        cur = await tx.run(
            "UPDATE outbox SET lease_until = ?, attempts = attempts + 1 WHERE id = ?"
            " AND status = 'pending' AND (lease_until IS NULL OR lease_until <= ?)",
            (now + lease, row_id, now),
        )
        return cur.rowcount == 1

    async def finish_announcement(
        self,
        tx: Tx,
        row_id: int,
        status: str,
        now: float,
        *,
        message_id: int | None = None,
        error: str | None = None,
    ) -> bool:
        """Mark an announcement sent, skipped (no longer needed) or dead (cannot be sent)."""
        cur = await tx.run(
            "UPDATE outbox SET status = ?, done_at = ?, message_id = ?, error = ?,"
            " lease_until = NULL WHERE id = ? AND status = 'pending'",
            (status, now, message_id, error, row_id),
        )
        return cur.rowcount == 1

    async def retry_announcement(self, tx: Tx, row_id: int, next_try: float, error: str) -> None:
        await tx.run(
            "UPDATE outbox SET next_try = ?, error = ?, lease_until = NULL"
            " WHERE id = ? AND status = 'pending'",
            (next_try, error, row_id),
        )

    async def release_leases(self, tx: Tx) -> None:
        """At start-up: whatever an earlier run of this bot held, it no longer sends."""
        await tx.run("UPDATE outbox SET lease_until = NULL WHERE status = 'pending'")
