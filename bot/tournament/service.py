"""Tournaments: sign-up, rounds paired and started, results, deadlines, withdrawals.

Everything is in the database and every step is a guarded write, so any process may take
any step at any moment and a restart loses nothing:

- a round is paired in the transaction that moves the tournament to it (`round = r - 1`
  is the guard), so it is paired once;
- a pairing gets its match in the transaction that creates the match (`match_id IS NULL`
  is the guard); the front opens the thread first and deletes it if the guard fails;
- results are read from the finished matches; a round's deadline ends what is left (lost
  by the player the game waits for: played if both had moved, else by forfeit; both lose
  by forfeit when nobody moved), and a withdrawn player's game (resigned: played if both
  had moved, else lost by forfeit).
"""

from __future__ import annotations

import contextlib
import json
import math
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from bot import crashpoints
from bot.aborted import ABANDONED, ABORTED, both_moved
from bot.errors import NotFound, Refused, ServiceError, StaleMove
from bot.records import MatchInfo, Member, MoveResult
from bot.service import Also, GameService
from bot.store import Row, Tx, valid_id
from bot.tournament import pairing
from bot.tournament.records import FORMATS, TIEBREAK_ORDERS, Entrant, Pairing, TournamentInfo
from bot.wording import JOIN_BUTTON, deleted_member, player_name
from engine.api import MatchSpec
from engine.errors import GameError
from engine.phrases import say, say_n
from lang import command, option

MAX_NAME = 50
MAX_PLAYERS = 1000  # benchmarks/tournament.py: a round of 1,000 pairs well under 3 s
ROUND_HOURS = (12.0, 720.0)
DEFAULT_ROUND_HOURS = 72.0
MAX_SWISS_ROUNDS = 15


Present = Callable[[int, int], Awaitable[bool]]
# Pairings as read, with the thread of each one's match (NULL before it started).
PAIRINGS = (
    "SELECT g.*, m.channel_id FROM tournament_games g LEFT JOIN matches m ON m.id = g.match_id"
)


class NameTaken(ServiceError):
    """A live tournament of this server already has this name (the unique index says)."""


@dataclass(slots=True)
class Progress:
    """What `advance` did: games forfeited (their boards to announce), rounds paired and
    tournaments finished (to announce in their channels)."""

    forfeits: list[MoveResult] = field(default_factory=list)
    abandoned: list[int] = field(default_factory=list)  # matches nobody moved in
    paired: list[int] = field(default_factory=list)  # tournament ids with a new round
    finished: list[int] = field(default_factory=list)


class Tournaments:
    """The tournaments of every server, over the game service's store and clock."""

    def __init__(self, games: GameService) -> None:
        self.games = games
        self.store = games.store
        self.clock = games.clock

    # Reading ------------------------------------------------------------------------------

    async def get(self, tournament_id: int) -> TournamentInfo:
        row = (
            await self.store._one("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
            if valid_id(tournament_id)
            else None
        )
        if row is None:
            raise NotFound(say("There is no tournament #{id}.", id=tournament_id))
        players = await self.store._all(
            # A member who had their data deleted (everywhere, or in this server) after
            # joining is shown as "deleted member" (/schotten privacy).
            "SELECT p.*, u.name, EXISTS (SELECT 1 FROM forgotten f WHERE f.user_id = p.user_id"
            " AND f.guild_id IN (0, ?) AND f.at >= p.joined_at) AS forgotten"
            " FROM tournament_players p LEFT JOIN users u"
            " ON u.user_id = p.user_id WHERE p.tournament_id = ?"
            " ORDER BY p.seed IS NULL, p.seed, p.joined_at, p.user_id",
            (row["guild_id"], tournament_id),
        )
        entrants = tuple(
            Entrant(
                p["user_id"],
                deleted_member() if p["forgotten"] else p["name"] or player_name(p["user_id"]),
                p["seed"],
                p["withdrawn_at"] is not None,
            )
            for p in players
        )
        return TournamentInfo(
            row["id"],
            row["guild_id"],
            row["channel_id"],
            row["creator_id"],
            row["name"],
            MatchSpec.from_json(json.loads(row["spec"])),
            row["format"],
            row["rounds"],
            row["round_hours"],
            row["status"],
            row["round"],
            row["round_deadline"],
            row["created_at"],
            row["message_id"],
            row["announced"],
            entrants,
            row["tiebreak_order"],
        )

    async def live(self, guild_id: int) -> list[TournamentInfo]:
        """The server's tournaments open for sign-up or running, oldest first."""
        rows = await self.store._all(
            "SELECT id FROM tournaments WHERE guild_id = ? AND status IN ('open', 'running')"
            " ORDER BY id",
            (guild_id,),
        )
        return [await self.get(r["id"]) for r in rows]

    async def find(self, guild_id: int, name: str | None) -> TournamentInfo:
        """The tournament called `name` (any case; a live one first), or else the only
        live one, or else the server's latest."""
        rows = await self.store._all(
            "SELECT id, name, status FROM tournaments WHERE guild_id = ? ORDER BY id DESC",
            (guild_id,),
        )
        live = [r for r in rows if r["status"] in ("open", "running")]
        if name is not None:
            wanted = name.strip().casefold()
            named = [r for r in live + rows if r["name"].casefold() == wanted]
            if not named:
                raise NotFound(
                    say(
                        "There is no tournament called {name} here.",
                        name=repr(name.strip()[:MAX_NAME]),
                    )
                )
            return await self.get(named[0]["id"])
        if len(live) > 1:
            names = ", ".join(r["name"] for r in reversed(live))
            # TRANSLATORS: {names} is a list of tournament names, separated by commas.
            raise Refused(
                say("Several tournaments are live here ({names}); say which one.", names=names)
            )
        if live or rows:
            return await self.get((live or rows)[0]["id"])  # else the last, finished or not
        raise NotFound(
            # TRANSLATORS: {create} is the command /schotten-admin tournament create (a mention in
            # English; in French and German its localised name, as code).
            say(
                "No tournament is open or running on this server; a manager can create one"
                " with {create}.",
                create=command("/schotten-admin tournament create"),
            )
        )

    async def pairings(self, tournament_id: int, round: int | None = None) -> list[Pairing]:
        """Every pairing of the tournament (or of one round), in round and board order."""
        sql = f"{PAIRINGS} WHERE g.tournament_id = ?"
        params: list[object] = [tournament_id]
        if round is not None:
            sql += " AND g.round = ?"
            params.append(round)
        rows = await self.store._all(sql + " ORDER BY g.round, g.board", params)
        return [_pairing(r) for r in rows]

    async def of_match(self, match_id: int) -> Pairing | None:
        row = await self.store._one(f"{PAIRINGS} WHERE g.match_id = ?", (match_id,))
        return _pairing(row) if row is not None else None

    async def standings(self, t: TournamentInfo) -> list[pairing.Standing]:
        games = await self.pairings(t.id)
        return pairing.standings(
            t.format,
            [e.user_id for e in t.entrants],
            _history(games),
            withdrawn=[e.user_id for e in t.entrants if e.withdrawn],
            tiebreaks=t.tiebreaks,
        )

    # Sign-up ------------------------------------------------------------------------------

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        creator: Member,
        name: str,
        spec: MatchSpec,
        fmt: str,
        rounds: int | None,
        round_hours: float | None,
        is_manager: bool,
        tiebreak_order: str | None = None,
    ) -> TournamentInfo:
        if not is_manager:
            raise Refused(say("Only members who can manage this server can create tournaments."))
        name = " ".join(name.split())
        if not 1 <= len(name) <= MAX_NAME:
            raise Refused(say("A tournament's name is 1 to {most} characters.", most=MAX_NAME))
        if fmt not in FORMATS:
            raise Refused(say("The format is swiss or round-robin."))
        if tiebreak_order is not None and tiebreak_order not in TIEBREAK_ORDERS:
            raise ValueError(f"Unknown tie-break order {tiebreak_order!r}.")  # the front's choices
        if fmt == "round-robin" and rounds is not None:
            raise Refused(
                # TRANSLATORS: {rounds} is the command's option `rounds` in the reader's words.
                say(
                    "A round robin plays every pair once, so its rounds follow from the number"
                    " of players; leave {rounds} out.",
                    rounds=option("rounds", meaning="tournament"),
                )
            )
        if rounds is not None and not 1 <= rounds <= MAX_SWISS_ROUNDS:
            raise Refused(say("A Swiss tournament has 1 to {most} rounds.", most=MAX_SWISS_ROUNDS))
        hours = DEFAULT_ROUND_HOURS if round_hours is None else round_hours
        lo, hi = ROUND_HOURS
        if not lo <= hours <= hi:
            raise Refused(
                say("A round lasts {least} to {most} hours.", least=f"{lo:g}", most=f"{hi:g}")
            )
        now = self.clock.now()
        try:
            async with self.store.transaction() as tx:
                await self.store.put_user(tx, creator.id, creator.name, creator.is_bot)
                tid = await tx.insert(
                    "INSERT INTO tournaments (guild_id, channel_id, creator_id, name, spec, format,"
                    " rounds, round_hours, created_at, tiebreak_order)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        guild_id,
                        channel_id,
                        creator.id,
                        name,
                        json.dumps(spec.to_json()),
                        fmt,
                        rounds or 0,
                        hours,
                        now,
                        tiebreak_order,
                    ),
                    busy=NameTaken,
                )
        except NameTaken:
            raise Refused(
                say(
                    "There is already a tournament called {name} on this server; choose"
                    " another name.",
                    name=repr(name),
                )
            ) from None
        return await self.get(tid)

    async def set_message(self, tournament_id: int, message_id: int) -> None:
        async with self.store.transaction() as tx:
            await tx.execute(
                "UPDATE tournaments SET message_id = ? WHERE id = ?", (message_id, tournament_id)
            )

    async def join(self, tournament_id: int, member: Member) -> TournamentInfo:
        t = await self.get(tournament_id)
        if member.is_bot:
            raise Refused(say("Bots cannot play in tournaments."))
        self._check_open(t, "join")
        if t.entrant(member.id) is not None:
            raise Refused(say("You already joined {name}.", name=t.name))
        if len(t.entrants) >= MAX_PLAYERS:
            raise Refused(say("{name} is full ({count} players).", name=t.name, count=MAX_PLAYERS))
        async with self.store.transaction() as tx:
            await self.store.put_user(tx, member.id, member.name, member.is_bot)
            changed = await tx.execute(
                "INSERT INTO tournament_players (tournament_id, user_id, joined_at)"
                " SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM tournaments WHERE id = ?"
                " AND status = 'open') ON CONFLICT DO NOTHING",
                (tournament_id, member.id, self.clock.now(), tournament_id),
            )
        if not changed:  # started, or joined, a moment ago
            return await self.join(tournament_id, member)
        return await self.get(tournament_id)

    async def leave(self, tournament_id: int, user_id: int) -> TournamentInfo:
        t = await self.get(tournament_id)
        if t.entrant(user_id) is None:
            raise Refused(say("You are not signed up for {name}.", name=t.name))
        self._check_open(t, "leave")
        async with self.store.transaction() as tx:
            changed = await tx.execute(
                "DELETE FROM tournament_players WHERE tournament_id = ? AND user_id = ?"
                " AND EXISTS (SELECT 1 FROM tournaments WHERE id = ? AND status = 'open')",
                (tournament_id, user_id, tournament_id),
            )
        if not changed:
            return await self.leave(tournament_id, user_id)
        return await self.get(tournament_id)

    def _check_open(self, t: TournamentInfo, what: str) -> None:
        if t.status == "open":
            return
        if t.status == "running":
            if what == "leave":
                raise Refused(
                    say(
                        "{name} has started: resign your games instead, or ask a manager.",
                        name=t.name,
                    )
                )
            raise Refused(say("{name} has started; sign-up is closed.", name=t.name))
        if t.status == "cancelled":
            raise Refused(say("{name} is cancelled.", name=t.name))
        raise Refused(say("{name} is finished.", name=t.name))

    async def cancel(self, tournament_id: int, user_id: int, *, is_manager: bool) -> TournamentInfo:
        """Cancel a tournament (its creator or a manager); games under way play on as
        ordinary rated games."""
        t = await self.get(tournament_id)
        if user_id != t.creator_id and not is_manager:
            raise Refused(say("Only the tournament's creator or a server manager can cancel it."))
        if t.status not in ("open", "running"):
            if t.status == "cancelled":
                raise Refused(say("{name} is already cancelled.", name=t.name))
            raise Refused(say("{name} is already finished.", name=t.name))
        async with self.store.transaction() as tx:
            await tx.execute(
                "UPDATE tournaments SET status = 'cancelled', finished_at = ? WHERE id = ?"
                " AND status IN ('open', 'running')",
                (self.clock.now(), tournament_id),
            )
        return await self.get(tournament_id)

    # Starting -----------------------------------------------------------------------------

    async def start(self, tournament_id: int, user_id: int, *, is_manager: bool) -> TournamentInfo:
        """Close sign-up, fix the seeds (rating, then sign-up order) and pair round 1. Two
        presses at once start it once: the second is told it has started."""
        t = await self.get(tournament_id)
        if user_id != t.creator_id and not is_manager:
            raise Refused(say("Only the tournament's creator or a server manager can start it."))
        self._check_open(t, "start")
        n = len(t.entrants)
        least = 3 if t.format == "round-robin" else 2
        if n < least:
            if t.format == "round-robin":
                too_few = say(
                    "A round robin needs at least {least} players; {name} has {count}. Members"
                    " join with its **{join}** button or {command}.",
                    join=JOIN_BUTTON,
                    command=command("tournament join"),
                    least=least,
                    name=t.name,
                    count=n,
                )
            else:
                too_few = say(
                    "A tournament needs at least {least} players; {name} has {count}. Members"
                    " join with its **{join}** button or {command}.",
                    join=JOIN_BUTTON,
                    command=command("tournament join"),
                    least=least,
                    name=t.name,
                    count=n,
                )
            raise Refused(too_few)
        if t.format == "round-robin":
            rounds = len(pairing.round_robin([e.user_id for e in t.entrants]))
        else:
            rounds = t.rounds or max(1, math.ceil(math.log2(n)))
            # n - 1 rounds always pair without a rematch when n is even; with a bye (odd n)
            # the Swiss can get stuck before n rounds, so it is held to n - 1 too.
            most = n - 1
            if rounds > most:
                raise Refused(
                    say_n(
                        "{players} players can play at most {count} Swiss round without meeting"
                        " twice; {name} has {rounds}. Wait for more players, or create it again"
                        " with fewer rounds.",
                        "{players} players can play at most {count} Swiss rounds without meeting"
                        " twice; {name} has {rounds}. Wait for more players, or create it again"
                        " with fewer rounds.",
                        most,
                        players=n,
                        name=t.name,
                        rounds=rounds,
                    )
                )
        order = await self._seeding(t)
        now = self.clock.now()
        async with self.store.transaction() as tx:
            started = await tx.execute(
                "UPDATE tournaments SET status = 'running', rounds = ?, started_at = ?"
                " WHERE id = ? AND status = 'open'",
                (rounds, now, tournament_id),
            )
            if not started:
                raise Refused(say("{name} was started a moment ago.", name=t.name))
            for seed, user in enumerate(order, 1):
                await tx.execute(
                    "UPDATE tournament_players SET seed = ? WHERE tournament_id = ?"
                    " AND user_id = ?",
                    (seed, tournament_id, user),
                )
        await self._pair(tournament_id, 1)
        return await self.get(tournament_id)

    async def _seeding(self, t: TournamentInfo) -> list[int]:
        """Stronger first: by the conservative rating in this game, then sign-up order."""
        keyed = []
        for i, e in enumerate(t.entrants):
            row = await self.store.rating(t.guild_id, t.spec.game, e.user_id)
            ordinal = row["mu"] - 3 * row["sigma"] if row is not None else 0.0
            keyed.append((-ordinal, i, e.user_id))
        return [user for _, _, user in sorted(keyed)]

    async def _pair(self, tournament_id: int, round: int) -> bool:
        """Pair `round` if the tournament is still at the round before it; byes and games
        against withdrawn players are decided at once."""
        t = await self.get(tournament_id)
        if t.status != "running" or t.round != round - 1:
            return False
        # Only the rounds before this one: another pass may have paired it since `t` was read
        # (its games are then already stored, and the round's update below refuses this one).
        games = [g for g in await self.pairings(tournament_id) if g.round < round]
        active = [e.user_id for e in t.active]
        if t.format == "round-robin":
            pairs = pairing.round_robin([e.user_id for e in t.entrants])[round - 1]
        else:
            pairs = pairing.swiss_round(active, _history(games), round)
        gone = {e.user_id for e in t.entrants if e.withdrawn}
        now = self.clock.now()
        async with self.store.transaction() as tx:
            moved = await tx.execute(
                "UPDATE tournaments SET round = ?, round_deadline = ? WHERE id = ?"
                " AND round = ? AND status = 'running'",
                (round, now + t.round_hours * 3600, tournament_id, round - 1),
            )
            if not moved:
                return False
            for board, (first, second) in enumerate(pairs, 1):
                points, forfeit = _decided_at_once(first, second, gone, t.format)
                await tx.execute(
                    "INSERT INTO tournament_games (tournament_id, round, board, first_id,"
                    " second_id, points0, points1, forfeit) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        tournament_id,
                        round,
                        board,
                        first,
                        second,
                        points[0] if points else None,
                        points[1] if points else None,
                        int(forfeit),
                    ),
                )
        return True

    async def to_start(self) -> list[tuple[TournamentInfo, Pairing]]:
        """Pairings of running tournaments still waiting for their match."""
        rows = await self.store._all(
            f"{PAIRINGS} JOIN tournaments t ON t.id = g.tournament_id"
            " WHERE t.status = 'running' AND g.round = t.round AND g.match_id IS NULL"
            " AND g.second_id IS NOT NULL AND g.points0 IS NULL"
            " ORDER BY g.tournament_id, g.board"
        )
        out = []
        infos: dict[int, TournamentInfo] = {}
        for r in rows:
            tid = r["tournament_id"]
            if tid not in infos:
                infos[tid] = await self.get(tid)
            out.append((infos[tid], _pairing(r)))
        return out

    async def start_game(self, p: Pairing, channel_id: int) -> MatchInfo:
        """The match of a pairing, in `channel_id` (its thread); refused (`Refused`) if another
        process or an earlier try started it (the caller then removes its thread)."""
        t = await self.get(p.tournament_id)
        assert p.second_id is not None
        async with self.store.transaction() as tx:
            mid = await self.games.add_match(
                tx,
                guild_id=t.guild_id,
                channel_id=channel_id,
                players=(p.first_id, p.second_id),
                spec=t.spec,
                tournament_id=t.id,
            )
            claimed = await tx.execute(
                "UPDATE tournament_games SET match_id = ? WHERE tournament_id = ? AND round = ?"
                " AND board = ? AND match_id IS NULL AND points0 IS NULL",
                (mid, p.tournament_id, p.round, p.board),
            )
            if not claimed:
                raise _AlreadyStarted
        return await self.games.match(mid)

    # Time and results -----------------------------------------------------------------------

    async def advance(self, present: Present | None = None) -> Progress:
        """Record finished games, apply deadlines, pair the next rounds, finish events.
        `present(guild_id, user_id)` says whether a member is still on the server: those
        who left are withdrawn before a round is paired (the bot has no members intent,
        so it asks rather than hears)."""
        progress = Progress()
        rows = await self.store._all(
            "SELECT id FROM tournaments WHERE status = 'running' ORDER BY id"
        )
        for r in rows:
            await self._advance_one(r["id"], progress, present)
        return progress

    async def _advance_one(
        self, tournament_id: int, progress: Progress, present: Present | None
    ) -> None:
        t = await self.get(tournament_id)
        await self._record_results(t)
        now = self.clock.now()
        if t.round_deadline is not None and now >= t.round_deadline:
            await self._apply_deadline(t, progress)
            await self._record_results(t)
        games = await self.pairings(t.id, t.round)
        if not games or not all(g.decided for g in games):
            return
        if t.round < t.rounds:
            if present is not None:
                for e in t.active:
                    if not await present(t.guild_id, e.user_id):
                        progress.forfeits += await self.withdraw(t.guild_id, e.user_id)
            try:
                if await self._pair(t.id, t.round + 1):
                    progress.paired.append(t.id)
                return
            except pairing.NoPairing:
                pass  # no pairing without a rematch (or no bye) is left: the event ends here
        async with self.store.transaction() as tx:
            done = await tx.execute(
                "UPDATE tournaments SET status = 'finished', finished_at = ? WHERE id = ?"
                " AND status = 'running' AND round = ?",
                (now, t.id, t.round),
            )
        if done:
            progress.finished.append(t.id)

    async def _record_results(self, t: TournamentInfo) -> None:
        """Each finished match's result into its pairing (once: `points0 IS NULL`)."""
        rows = await self.store._all(
            "SELECT g.round, g.board, g.match_id, m.winner, m.termination FROM tournament_games g"
            " JOIN matches m ON m.id = g.match_id WHERE g.tournament_id = ?"
            " AND g.points0 IS NULL AND m.status = 'finished'",
            (t.id,),
        )
        for r in rows:
            winner = r["winner"]
            forfeit: bool | None = None  # a game played to its end: keep the flag
            if r["termination"] == ABANDONED:
                points, forfeit = (0.0, 0.0), True  # nobody moved: a double forfeit
            elif r["termination"] == ABORTED:
                # Resigned before both moved: unrated, but the tournament cannot replay it,
                # so it is lost by forfeit by the player who resigned (rules notes R-28).
                outcome = (await self.games.match(r["match_id"])).match.outcome
                won = outcome.winner if outcome is not None else None
                points = (1.0, 0.0) if won == 0 else (0.0, 1.0) if won == 1 else (0.0, 0.0)
                forfeit = True
            elif winner is None:
                points = (0.5, 0.5)
            else:
                points = (1.0, 0.0) if winner == 0 else (0.0, 1.0)
            async with self.store.transaction() as tx:
                await _decide(tx, t.id, r["round"], r["board"], points, forfeit=forfeit)

    async def _apply_deadline(self, t: TournamentInfo, progress: Progress) -> None:
        """The round is over: each game still going is lost by the player it waits for, or
        by both when nobody moved; a pairing never started is lost by both."""
        for g in await self.pairings(t.id, t.round):
            if g.decided:
                continue
            if g.match_id is None:
                async with self.store.transaction() as tx:
                    await _decide(tx, t.id, g.round, g.board, (0.0, 0.0), forfeit=True)
                continue
            info = await self.games.match(g.match_id)
            if info.status != "active":
                continue
            if info.version == 0:
                # the match ends and its double forfeit is stored in one transaction
                both = _deciding(t.id, g, (0.0, 0.0))
                if await self.games.abandon(info, ABANDONED, also=both):
                    progress.abandoned.append(info.id)
                continue
            seat = info.to_decide
            if seat is None:
                continue
            points = (0.0, 1.0) if seat == 0 else (1.0, 0.0)
            # Both moved: a game played, lost on time (FIDE counts a game with moves as
            # played: for pairing and tie-breaks); else aborted, lost by forfeit.
            played = both_moved(info.match.log)
            try:
                result = await self.games.time_out(
                    info, also=_deciding(t.id, g, points, forfeit=not played)
                )
            except (StaleMove, Refused, GameError):
                continue  # a move came in meanwhile: the next pass decides it
            progress.forfeits.append(result)

    async def withdraw(self, guild_id: int, user_id: int) -> list[MoveResult]:
        """A member left the server: out of every tournament there; signed up, they are
        simply removed; playing, their game under way is resigned and the event goes on."""
        results: list[MoveResult] = []
        now = self.clock.now()
        for t in await self.live(guild_id):
            if t.entrant(user_id) is None:
                continue
            async with self.store.transaction() as tx:
                if t.status == "open":
                    await tx.execute(
                        "DELETE FROM tournament_players WHERE tournament_id = ? AND user_id = ?",
                        (t.id, user_id),
                    )
                    continue
                await tx.execute(
                    "UPDATE tournament_players SET withdrawn_at = ? WHERE tournament_id = ?"
                    " AND user_id = ? AND withdrawn_at IS NULL",
                    (now, t.id, user_id),
                )
            for g in await self.pairings(t.id, t.round):
                if g.decided or user_id not in (g.first_id, g.second_id):
                    continue
                mine = 0 if g.first_id == user_id else 1
                points = (0.0, 1.0) if mine == 0 else (1.0, 0.0)
                if g.match_id is not None:
                    info = await self.games.match(g.match_id)
                    if info.status == "active":
                        with contextlib.suppress(StaleMove, Refused, GameError):
                            results.append(await self.games.resign(info.id, user_id))
                    info = await self.games.match(g.match_id)
                    if info.status == "finished" and both_moved(info.match.log):
                        # resigned after both moved: a game played, recorded as it ended
                        await self._record_results(t)
                        continue
                async with self.store.transaction() as tx:
                    await _decide(tx, t.id, g.round, g.board, points, forfeit=True)
        return results

    async def mark_announced(self, tournament_id: int, upto: int) -> None:
        async with self.store.transaction() as tx:
            await tx.execute(
                "UPDATE tournaments SET announced = ? WHERE id = ? AND announced < ?",
                (upto, tournament_id, upto),
            )

    async def unannounced(self) -> list[TournamentInfo]:
        """Tournaments with a round paired, or an end, not yet announced in their channel."""
        rows = await self.store._all(
            "SELECT id FROM tournaments WHERE (status = 'running' AND announced < round)"
            " OR (status = 'finished' AND announced <= rounds) ORDER BY id"
        )
        return [await self.get(r["id"]) for r in rows]


class _AlreadyStarted(Refused):
    """Raised inside `start_game`'s transaction to undo the match it created."""

    def __init__(self) -> None:
        super().__init__(say("This game was started a moment ago."))


async def _decide(
    tx: Tx, tid: int, round: int, board: int, points: tuple[float, float], *, forfeit: bool | None
) -> None:
    """A pairing's result, unless it already has one (`forfeit` None: keep the flag)."""
    flag = "" if forfeit is None else f", forfeit = {int(forfeit)}"
    await tx.execute(
        f"UPDATE tournament_games SET points0 = ?, points1 = ?{flag} WHERE tournament_id = ?"
        " AND round = ? AND board = ? AND points0 IS NULL",
        (points[0], points[1], tid, round, board),
    )


def _deciding(tid: int, g: Pairing, points: tuple[float, float], *, forfeit: bool = True) -> Also:
    """The write of a pairing's result at the deadline (a forfeit unless both moved), to
    join the transaction that ends its match."""

    async def write(tx: Tx) -> None:
        await _decide(tx, tid, g.round, g.board, points, forfeit=forfeit)
        crashpoints.reach("deadline-before-commit")

    return write


def _decided_at_once(
    first: int, second: int | None, gone: set[int], fmt: str
) -> tuple[tuple[float, float] | None, bool]:
    """A Swiss bye is a point; a round robin's free round is no game and scores nothing
    (FIDE); a game against a withdrawn player is won by forfeit."""
    if second is None:  # a bye, worth nothing to a player who left
        if first in gone:
            return (0.0, 0.0), True
        return ((0.0, 0.0) if fmt == "round-robin" else (1.0, 0.0)), False
    if first in gone and second in gone:
        return (0.0, 0.0), True
    if second in gone:
        return (1.0, 0.0), True
    if first in gone:
        return (0.0, 1.0), True
    return None, False


def _pairing(row: Row) -> Pairing:
    p0, p1 = row["points0"], row["points1"]
    return Pairing(
        row["tournament_id"],
        row["round"],
        row["board"],
        row["first_id"],
        row["second_id"],
        row["match_id"],
        None if p0 is None else (float(p0), float(p1)),
        bool(row["forfeit"]),
        row["channel_id"],
    )


def _history(games: Sequence[Pairing]) -> list[pairing.Game]:
    """The pairing module's view of the games so far. A game's (0, 0) stored without the
    forfeit flag (by a version that saved an abandoned game's result apart from its end) is
    what it means: a double forfeit. A bye's (0, 0) without it is a round robin's free round."""
    return [
        pairing.Game(
            g.round,
            g.first_id,
            g.second_id,
            g.points,
            g.forfeit or (g.second_id is not None and g.points == (0.0, 0.0)),
        )
        for g in games
    ]
