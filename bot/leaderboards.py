"""Leaderboards, a player's stats and recent games, read from the store."""

from __future__ import annotations

import json
import math

from bot.aborted import NO_RESULT
from bot.errors import Refused
from bot.ratings import Rating
from bot.records import (
    GameSummary,
    LeaderboardEntry,
    LeaderboardPage,
    PlayerStats,
    Record,
)
from bot.store import Row, Store
from bot.wording import shown_name, the_computer
from engine.api import GAME_NAMES, VARIANTS, MatchSpec
from engine.phrases import say, say_n

PAGE = 10


async def leaderboard(store: Store, guild_id: int, game: str, page: int = 1) -> LeaderboardPage:
    """One page of a server's ranking for a game ("st1" or "st2"), best first."""
    if game not in GAME_NAMES:
        raise Refused(say("Choose a game: Schotten Totten or Schotten Totten 2."))
    total = await store.rated_players(guild_id, game)
    pages = max(1, math.ceil(total / PAGE))
    if not 1 <= page <= pages:
        raise Refused(
            say_n("There is {count} page of players.", "There are {count} pages of players.", pages)
        )
    rows = await store.leaderboard(guild_id, game, PAGE, (page - 1) * PAGE)
    entries = [
        LeaderboardEntry(
            (page - 1) * PAGE + i + 1,
            r["user_id"],
            shown_name(r["name"], r["user_id"]),
            Rating(r["mu"], r["sigma"]),
            r["rated_games"],
        )
        for i, r in enumerate(rows)
    ]
    return LeaderboardPage(game, page, pages, entries)


def _result(row: Row, user_id: int) -> str:
    """win, loss, draw, or aborted (no result: rules notes R-28)."""
    if row["termination"] in NO_RESULT:
        return "aborted"
    seat = 0 if row["player0_id"] == user_id and row["ai_seat"] != 0 else 1
    if row["winner"] is None:
        return "draw"
    return "win" if row["winner"] == seat else "loss"


def _opponent(row: Row, user_id: int) -> int:
    opponent: int = row["player1_id"] if row["player0_id"] == user_id else row["player0_id"]
    return opponent


async def recent_games(
    store: Store, guild_id: int, user_id: int, limit: int = 10
) -> list[GameSummary]:
    rows = await store.finished_matches_of(guild_id, user_id, limit)
    names = await store.names((_opponent(r, user_id) for r in rows), guild_id)
    out = []
    for r in rows:
        other = _opponent(r, user_id)
        name = shown_name(names.get(other), other)
        if r["ai_seat"] is not None:
            name = the_computer(r["ai_level"])
        spec = MatchSpec.from_json(json.loads(r["spec"]))
        out.append(
            GameSummary(
                r["id"],
                r["variant"],
                spec.describe(),
                other,
                name,
                _result(r, user_id),
                r["termination"] or "",
                r["finished_at"],
                bool(r["rated"]),
            )
        )
    return out


async def player_stats(
    store: Store, guild_id: int, user_id: int, *, against: int | None = None, recent: int = 5
) -> PlayerStats:
    """Games, wins, losses, streak, ratings, results per variant, record against a player."""
    # An aborted game is no result: not in the records nor the streak (rules notes R-28).
    rows = [
        r
        for r in await store.finished_matches_of(guild_id, user_id)
        if r["termination"] not in NO_RESULT
    ]
    overall = Record()
    per_variant: dict[str, Record] = {}
    versus = Record()
    for r in rows:
        result = _result(r, user_id)
        overall = overall.add(result)
        per_variant[r["variant"]] = per_variant.get(r["variant"], Record()).add(result)
        if against is not None and _opponent(r, user_id) == against and r["ai_seat"] is None:
            versus = versus.add(result)
    streak = None
    if rows:
        kind = _result(rows[0], user_id)
        count = 0
        for r in rows:
            if _result(r, user_id) != kind:
                break
            count += 1
        streak = (kind, count)
    ratings = {}
    for game in GAME_NAMES:
        row = await store.rating(guild_id, game, user_id)
        if row is not None:
            rank = await store.rank_of(guild_id, game, user_id)
            total = await store.rated_players(guild_id, game)
            ratings[game] = (Rating(row["mu"], row["sigma"]), rank or 0, total)
    names = await store.names([user_id] + ([against] if against is not None else []), guild_id)
    active = len(await store.active_matches_of(guild_id, user_id))
    order = list(VARIANTS)
    return PlayerStats(
        user_id,
        shown_name(names.get(user_id), user_id),
        overall,
        streak,
        ratings,
        dict(sorted(per_variant.items(), key=lambda kv: order.index(kv[0]))),
        (shown_name(names.get(against), against), versus) if against is not None else None,
        await recent_games(store, guild_id, user_id, recent),
        active,
    )
