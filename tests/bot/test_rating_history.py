"""Rating history (migration 6): each member's rating after every rated game, written in the
transaction that ends the match, and filled in from the final boards of the games a database
already held; and the server setting that says who may see a finished game's analysis."""

import itertools
import json
import random

import pytest

from bot.errors import Refused, StaleMove
from bot.ratings import Rating
from bot.records import RatingChange, RatingStep
from bot.service import GameService
from bot.store import open_store
from bot.store.migrations_sqlite import LATEST
from engine.api import MatchSpec, new_match
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, ROBOT, both_move
from tests.bot.test_service import play_random

OTHER_GUILD = 11
HISTORY = "SELECT * FROM rating_history ORDER BY match_id, user_id"


async def begin(service, spec, *, guild=GUILD, channel=CHANNEL, players=(ALICE, BOB)):
    a, b = players
    ch = await service.challenge(guild, channel, a, b, spec)
    return await service.accept(ch.id, b.id)


async def resigned(service, spec, quitter, **where):
    """A rated match ended early: each player moves once, then `quitter` resigns (before
    both had moved it would be aborted, unrated: rules notes R-28)."""
    info = await begin(service, spec, **where)
    await both_move(service, info.id)
    return await service.resign(info.id, quitter.id)


async def played_out(service, spec, rng, **where):
    info = await begin(service, spec, **where)
    return await play_random(service, info.id, rng)


async def timed_out(service, clock, **where):
    """A rated match ended by the clock: after a move each, nobody moves for longer than the
    forfeit time."""
    info = await begin(service, MatchSpec("tactics"), **where)
    await both_move(service, info.id)
    clock.advance(hours=73)
    work = await service.due()
    [result] = [f for f in work.forfeits if f.info.id == info.id]
    return result


async def until_drawn(service, rng, **where):
    """Revenge siege matches played at random until one ends drawn (each player won one
    game, say): all of them, the drawn one last."""
    results = []
    for _ in range(10):
        results.append(await played_out(service, MatchSpec("siege", revenge=True), rng, **where))
        if results[-1].outcome.winner is None:
            return results
    raise AssertionError("no drawn match in 10 tries")


async def against_the_computer(service, channel):
    ch = await service.challenge(
        GUILD, channel, ALICE, ROBOT, MatchSpec(), computer_id=ROBOT.id, ai_level="easy"
    )
    info = await service.accept(ch.id, ALICE.id)
    return await service.resign(info.id, ALICE.id)


def expected_result(seat, winner):
    if winner is None:
        return "draw"
    return "win" if winner == seat else "loss"


async def rows_of(store, match_id):
    return [
        dict(r)
        for r in await store._all(
            "SELECT * FROM rating_history WHERE match_id = ? ORDER BY user_id", (match_id,)
        )
    ]


async def announced(store, match_id):
    """The rating changes the match's final board announced."""
    row = await store._one(
        "SELECT payload FROM outbox WHERE match_id = ? AND kind = 'board' ORDER BY id DESC",
        (match_id,),
    )
    return [RatingChange.from_json(c) for c in json.loads(row["payload"])["ratings"]]


async def check_step(service, result):
    """The rows a rated match wrote: one per player, after-ratings as announced, the result
    for each, at the time the match is stored as finished."""
    info = result.info
    match = await service.store.match(info.id)
    assert match["status"] == "finished" and match["finished_at"] is not None
    changes = await announced(service.store, info.id)
    assert changes == result.rating_changes and len(changes) == 2
    expected = sorted(
        (
            {
                "guild_id": info.guild_id,
                "game": info.spec.game,
                "user_id": c.user_id,
                "match_id": info.id,
                "at": match["finished_at"],
                "mu": c.after.mu,
                "sigma": c.after.sigma,
                "result": expected_result(info.players.index(c.user_id), match["winner"]),
            }
            for c in changes
        ),
        key=lambda r: r["user_id"],
    )
    assert await rows_of(service.store, info.id) == expected


async def test_every_rated_match_adds_its_players_ratings(service, clock):
    rng = random.Random(4)
    ends = [
        await played_out(service, MatchSpec("classic"), rng, channel=CHANNEL),
        await resigned(service, MatchSpec("siege"), BOB, channel=CHANNEL + 1),
        await timed_out(service, clock, channel=CHANNEL + 2),
        await resigned(
            service, MatchSpec("tactics"), CAROL, channel=CHANNEL + 3, players=(CAROL, ALICE)
        ),
        *await until_drawn(service, rng, channel=CHANNEL + 4),
    ]
    for result in ends:
        assert result.finished
        await check_step(service, result)
        clock.advance(seconds=30)
    terminations = {r.outcome.termination.name for r in ends}
    assert {"RESIGNED", "TIMEOUT"} <= terminations
    assert "draw" in {r["result"] for r in await service.store._all(HISTORY)}

    # A game against the computer is not rated, and one still under way has not ended.
    await against_the_computer(service, CHANNEL + 5)
    await begin(service, MatchSpec("classic"), channel=CHANNEL + 6)
    rows = await service.store._all(HISTORY)
    assert len(rows) == 2 * len(ends)
    assert {r["match_id"] for r in rows} == {r.info.id for r in ends}

    # Per member and game, in the order the matches ended; the newest step is the rating the
    # leaderboard shows, and there is one step per rated game.
    for member in (ALICE, BOB, CAROL):
        history = await service.rating_history(GUILD, member.id)
        played = [r for r in ends if member.id in r.info.players]
        assert sum(len(steps) for steps in history.values()) == len(played)
        for game, steps in history.items():
            assert [s.game for s in steps] == [game] * len(steps)
            assert [s.match_id for s in steps] == [
                r.info.id for r in played if r.info.spec.game == game
            ]
            assert [s.at for s in steps] == sorted(s.at for s in steps)
            current = await service.store.rating(GUILD, game, member.id)
            assert steps[-1].rating == Rating(current["mu"], current["sigma"])
            assert current["rated_games"] == len(steps)
    alice = await service.rating_history(GUILD, ALICE.id)
    assert set(alice) == {"st1", "st2"}
    first = ends[0]
    seat = first.info.players.index(ALICE.id)
    assert alice["st1"][0] == RatingStep(
        "st1",
        first.info.id,
        (await service.store.match(first.info.id))["finished_at"],
        first.rating_changes[seat].after,
        expected_result(seat, first.outcome.winner),
    )
    assert await service.rating_history(OTHER_GUILD, ALICE.id) == {}
    assert await service.rating_history(GUILD, ROBOT.id) == {}


async def test_the_backfill_gives_what_was_written_live(database, clock):
    # Rated games of both games on two servers, ended every way, as a bot at version 6
    # records them; then the database is wound back to version 5 (as a bot from before it
    # left it: the same matches and boards, no history) and migrated again.
    seeds = itertools.count(3000)
    service = await GameService.open(database, clock=clock, seeds=lambda: next(seeds))
    rng = random.Random(8)
    try:
        await played_out(service, MatchSpec("classic", rounds=2), rng, channel=CHANNEL)
        clock.advance(seconds=10)
        await resigned(service, MatchSpec("siege"), ALICE, channel=CHANNEL + 1)
        clock.advance(seconds=10)
        await resigned(service, MatchSpec("expert"), BOB, channel=CHANNEL + 2)
        clock.advance(seconds=10)
        await timed_out(service, clock, guild=OTHER_GUILD, channel=CHANNEL + 3)
        draws = await until_drawn(
            service, rng, guild=OTHER_GUILD, channel=CHANNEL + 4, players=(BOB, CAROL)
        )
        clock.advance(seconds=10)
        await resigned(
            service, MatchSpec("siege-tactics"), CAROL, channel=CHANNEL + 5, players=(CAROL, BOB)
        )
        await against_the_computer(service, CHANNEL + 6)
        await begin(service, MatchSpec("siege"), channel=CHANNEL + 7)
        live = [dict(r) for r in await service.store._all(HISTORY)]
        alice = await service.rating_history(GUILD, ALICE.id)
    finally:
        await service.close()
    assert len(live) == 2 * (5 + len(draws))
    assert {r["result"] for r in live} == {"win", "loss", "draw"}
    assert {(r["guild_id"], r["game"]) for r in live} == {
        (g, game) for g in (GUILD, OTHER_GUILD) for game in ("st1", "st2")
    }

    await wind_back_to_5(database)
    store = await open_store(database, upto=5)
    try:
        assert await store.version() == 5
        assert "rating_history" not in await store.tables()
    finally:
        await store.close()

    service = await GameService.open(database, clock=clock)
    try:
        assert await service.store.version() == LATEST
        backfilled = [dict(r) for r in await service.store._all(HISTORY)]
        assert backfilled == live  # every column, the floats bit for bit
        assert await service.rating_history(GUILD, ALICE.id) == alice
    finally:
        await service.close()


async def wind_back_to_5(database):
    """Undo the migrations after 5 by hand: the database as a bot at version 5 left it."""
    store = await open_store(database)
    try:
        async with store.transaction() as tx:
            # Issue 39: a game on the server's forfeit time reminds at reminder_hours.
            await tx.run("ALTER TABLE matches DROP COLUMN server_clock")
            await tx.run("ALTER TABLE challenges DROP COLUMN server_clock")
            # Issue 38: members' DM channels, and what Discord refused.
            await tx.run("DROP TABLE dm_channels")
            await tx.run("DROP TABLE refusals")
            # Issue 30: members' data deleted on request.
            await tx.run("DROP TABLE forgotten")
            # Members' own notifications.
            await tx.run("DROP TABLE member_notifications")
            # A clock per game, and vacations.
            await tx.run("DROP TABLE vacations")
            await tx.run("ALTER TABLE settings DROP COLUMN vacation_days")
            await tx.run("ALTER TABLE matches DROP COLUMN clock_hours")
            await tx.run("ALTER TABLE challenges DROP COLUMN clock_hours")
            # Issue 29: whether a member's hands show the unseen cards.
            await tx.run("DROP TABLE member_unseen")
            # Heartbeats.
            await tx.run("DROP TABLE processes")
            await tx.run("ALTER TABLE outbox DROP COLUMN leased_by")
            await tx.run("ALTER TABLE matches DROP COLUMN ai_leased_by")
            # 10: open challenges (opponent_id stays nullable: migration 10 allows it anyway).
            await tx.run("ALTER TABLE challenges DROP COLUMN for_anyone")
            await tx.run("ALTER TABLE challenges DROP COLUMN for_role_id")
            # 9: whom a board notified.
            await tx.run("ALTER TABLE outbox DROP COLUMN notified")
            # 8: languages.
            await tx.run("DROP TABLE member_languages")
            await tx.run("ALTER TABLE settings DROP COLUMN language")
            # 7: tournaments (none were played here).
            await tx.run("ALTER TABLE matches DROP COLUMN tournament_id")
            for table in ("tournament_games", "tournament_players", "tournaments"):
                await tx.run(f"DROP TABLE {table}")
            # 6: the rating history and the analysis setting.
            await tx.run("DROP TABLE rating_history")
            await tx.run("ALTER TABLE settings DROP COLUMN public_analysis")
            if store.backend == "sqlite":
                await tx.run("PRAGMA user_version = 5")
            else:
                await tx.run("DELETE FROM schema_version WHERE version >= 6")
    finally:
        await store.close()


async def test_a_match_ended_by_two_processes_at_once_is_rated_once(database, clock):
    # Two processes on one database (shards, or the clock's forfeit in each) end the same
    # match from the same read: the second fails the version check, as any stale move does.
    first = await GameService.open(database, clock=clock, seeds=lambda: 5)
    second = await GameService.open(database, clock=clock, seeds=lambda: 6)
    try:
        info = await begin(first, MatchSpec("siege"))
        await both_move(first, info.id)
        stale = await second.match(info.id)
        ended = await first.resign(info.id, BOB.id)
        with pytest.raises(StaleMove, match="Bob resigned"):
            await second.play(info.id, BOB.id, "resign", info=stale)
        await check_step(first, ended)
        assert len(await first.store._all(HISTORY)) == 2
        assert (await first.store.rating(GUILD, "st2", ALICE.id))["rated_games"] == 1
    finally:
        await first.close()
        await second.close()


# Floats that a careless conversion from JSON text would not give back exactly.
AWKWARD = [0.1 + 0.2, 25.000000000000004, 1e-05, 8.333333333333334, 2.5e-310, 1 / 3, 1e300]


async def test_the_backfill_reads_each_final_board_exactly_and_skips_what_it_cannot(database):
    store = await open_store(database, upto=5)
    state = json.dumps(new_match(MatchSpec("classic"), 5).to_json())
    spec = json.dumps(MatchSpec("classic").to_json())

    async def add_match(tx, match_id, *, status="finished", rated=1, ai_seat=None, winner=0):
        await tx.run(
            "INSERT INTO matches (id, guild_id, channel_id, player0_id, player1_id, variant,"
            " game, spec, seed, state, status, due_since, created_at, finished_at, winner,"
            " rated, ai_seat) VALUES (?, 10, ?, 1, 2, 'classic', 'st1', ?, 5, ?, ?, 0, 0, ?,"
            " ?, ?, ?)",
            (
                match_id,
                100 + match_id,
                spec,
                state,
                status,
                1000.0 + match_id,
                winner,
                rated,
                ai_seat,
            ),
        )

    async def add_board(tx, match_id, ratings):
        payload = json.dumps({"events": [], "ratings": ratings, "started": False})
        await tx.run(
            "INSERT INTO outbox (kind, match_id, payload, created_by, created_at, next_try)"
            " VALUES ('board', ?, ?, 'old', 0, 0)",
            (match_id, payload),
        )

    def ratings(*after):
        return [[user, 25.0, 8.3, mu, sigma] for user, mu, sigma in after]

    async with store.transaction() as tx:
        # 1: an ordinary final board, after boards that announced no ratings, with floats
        # that must come back bit for bit.
        await add_match(tx, 1, winner=1)
        await add_board(tx, 1, [])
        await add_board(tx, 1, ratings((1, AWKWARD[0], AWKWARD[1]), (2, AWKWARD[2], AWKWARD[3])))
        # 2: ended before the outbox existed (migration 3): nothing to read, so skipped.
        await add_match(tx, 2)
        # 3: a final board written twice: one row per player still, from the newest.
        await add_match(tx, 3, winner=None)
        await add_board(tx, 3, ratings((1, 1.0, 2.0), (2, 3.0, 4.0)))
        await add_board(tx, 3, ratings((2, AWKWARD[4], AWKWARD[5]), (1, AWKWARD[6], 0.5)))
        # 4: against the computer; 5: under way; 6: not rated. None has a history.
        await add_match(tx, 4, rated=0, ai_seat=1)
        await add_board(tx, 4, ratings((1, 30.0, 7.0), (2, 20.0, 7.0)))
        await add_match(tx, 5, status="active", winner=None)
        await add_board(tx, 5, ratings((1, 30.0, 7.0), (2, 20.0, 7.0)))
        await add_match(tx, 6, rated=0)
        await add_board(tx, 6, ratings((1, 30.0, 7.0), (2, 20.0, 7.0)))
    await store.close()

    store = await open_store(database)
    try:
        rows = [tuple(r) for r in await store._all(HISTORY)]
    finally:
        await store.close()
    assert rows == [
        (10, "st1", 1, 1, 1001.0, AWKWARD[0], AWKWARD[1], "loss"),
        (10, "st1", 2, 1, 1001.0, AWKWARD[2], AWKWARD[3], "win"),
        (10, "st1", 1, 3, 1003.0, AWKWARD[6], 0.5, "draw"),
        (10, "st1", 2, 3, 1003.0, AWKWARD[4], AWKWARD[5], "draw"),
    ]


# Settings -----------------------------------------------------------------------------------


async def test_public_analysis_defaults_to_on_and_round_trips(database, clock):
    service = await GameService.open(database, clock=clock)
    try:
        assert (await service.settings(GUILD)).public_analysis is True  # never changed
        await service.update_settings(OTHER_GUILD, is_manager=True, reminder_hours=5)
        assert (await service.settings(OTHER_GUILD)).public_analysis is True
        updated = await service.update_settings(GUILD, is_manager=True, public_analysis=False)
        assert updated.public_analysis is False and updated.use_threads is True
    finally:
        await service.close()
    service = await GameService.open(database, clock=clock)
    try:
        stored = await service.settings(GUILD)
        assert stored == updated and stored.public_analysis is False
        assert (await service.settings(OTHER_GUILD)).reminder_hours == 5
        await service.update_settings(GUILD, is_manager=True, public_analysis=True)
        assert (await service.settings(GUILD)).public_analysis is True
    finally:
        await service.close()


async def test_a_server_that_changed_its_settings_before_version_6_shows_analysis(database, clock):
    store = await open_store(database, upto=5)
    async with store.transaction() as tx:
        await tx.run(
            "INSERT INTO settings (guild_id, reminder_hours, use_threads) VALUES (?, 3, 0)",
            (GUILD,),
        )
    await store.close()
    service = await GameService.open(database, clock=clock)
    try:
        settings = await service.settings(GUILD)
        assert settings.public_analysis is True
        assert settings.reminder_hours == 3 and settings.use_threads is False
    finally:
        await service.close()


@pytest.mark.parametrize("flag", ["use_threads", "public_analysis"])
async def test_a_manager_only_changes_a_flag(service, flag):
    with pytest.raises(Refused, match="manage this server"):
        await service.update_settings(GUILD, is_manager=False, **{flag: False})
    assert getattr(await service.settings(GUILD), flag) is True
