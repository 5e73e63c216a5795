"""Tournaments in the service, on both backends: sign-up, starts, rounds, deadlines."""

import asyncio
import os
import random
import signal
import sys

import pytest

from bot.aborted import both_moved
from bot.errors import NotFound, Refused
from bot.records import Member
from bot.tournament.service import Tournaments
from engine.ai import choose_move
from engine.api import MatchSpec
from tests.bot.test_service import play_random

GUILD = 10
CHANNEL = 100
MANAGER = Member(50, "Manon")
PLAYERS = [Member(i, name) for i, name in enumerate(["Ada", "Bea", "Cy", "Dan", "Eve", "Flo"], 1)]


@pytest.fixture
def tournaments(service):
    return Tournaments(service)


async def create(
    tournaments, name="Friday", fmt="swiss", rounds=None, hours=None, spec=None, order=None
):
    return await tournaments.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        creator=MANAGER,
        name=name,
        spec=spec or MatchSpec("classic"),
        fmt=fmt,
        rounds=rounds,
        round_hours=hours,
        is_manager=True,
        tiebreak_order=order,
    )


async def with_players(tournaments, count, **options):
    t = await create(tournaments, **options)
    for m in PLAYERS[:count]:
        t = await tournaments.join(t.id, m)
    return t


async def start_games(tournaments):
    """Start every pairing waiting for its match, each in a channel of its own."""
    started = []
    for _t, p in await tournaments.to_start():
        info = await tournaments.start_game(p, 1000 + 100 * p.round + p.board)
        started.append(info)
    return started


async def play_out(service, match_id):
    await play_random(service, match_id, random.Random(match_id))


async def test_creating_needs_a_manager_and_a_sensible_event(tournaments):
    with pytest.raises(Refused, match="manage this server"):
        await tournaments.create(
            guild_id=GUILD,
            channel_id=CHANNEL,
            creator=PLAYERS[0],
            name="Mine",
            spec=MatchSpec("classic"),
            fmt="swiss",
            rounds=None,
            round_hours=None,
            is_manager=False,
        )
    with pytest.raises(Refused, match="1 to 50 characters"):
        await create(tournaments, name="   ")
    with pytest.raises(Refused, match="leave `rounds` out"):
        await create(tournaments, fmt="round-robin", rounds=3)
    with pytest.raises(Refused, match="12 to 720 hours"):
        await create(tournaments, hours=2)
    t = await create(tournaments, name="  Friday   Swiss ")
    assert t.name == "Friday Swiss" and t.status == "open" and t.round_hours == 72
    with pytest.raises(Refused, match="already a tournament called"):
        await create(tournaments, name="Friday Swiss")
    assert [x.id for x in await tournaments.live(GUILD)] == [t.id]
    assert (await tournaments.find(GUILD, "friday swiss")).id == t.id
    with pytest.raises(NotFound):
        await tournaments.find(GUILD, "Saturday")


async def test_joining_and_leaving_before_the_start_only(tournaments):
    t = await create(tournaments)
    await tournaments.join(t.id, PLAYERS[0])
    with pytest.raises(Refused, match="already joined Friday"):
        await tournaments.join(t.id, PLAYERS[0])
    with pytest.raises(Refused, match="Bots cannot"):
        await tournaments.join(t.id, Member(99, "Robot", is_bot=True))
    with pytest.raises(Refused, match="not signed up"):
        await tournaments.leave(t.id, PLAYERS[1].id)
    t = await tournaments.leave(t.id, PLAYERS[0].id)
    assert t.entrants == ()
    for m in PLAYERS[:2]:
        await tournaments.join(t.id, m)
    with pytest.raises(Refused, match="creator or a server manager"):
        await tournaments.start(t.id, PLAYERS[0].id, is_manager=False)
    t = await tournaments.start(t.id, MANAGER.id, is_manager=False)
    assert t.status == "running" and t.round == 1 and t.rounds == 1
    with pytest.raises(Refused, match="sign-up is closed"):
        await tournaments.join(t.id, PLAYERS[2])
    with pytest.raises(Refused, match="has started"):
        await tournaments.leave(t.id, PLAYERS[0].id)


async def test_too_few_players_are_refused_and_nothing_changes(tournaments):
    t = await with_players(tournaments, 1)
    with pytest.raises(Refused, match="at least 2 players; Friday has 1"):
        await tournaments.start(t.id, MANAGER.id, is_manager=True)
    rr = await with_players(tournaments, 2, name="League", fmt="round-robin")
    with pytest.raises(Refused, match="round robin needs at least 3 players"):
        await tournaments.start(rr.id, MANAGER.id, is_manager=True)
    many = await with_players(tournaments, 4, name="Long", rounds=5)
    with pytest.raises(Refused, match="at most 3 Swiss rounds"):
        await tournaments.start(many.id, MANAGER.id, is_manager=True)
    for x in (t, rr, many):
        assert (await tournaments.get(x.id)).status == "open"
        assert await tournaments.pairings(x.id) == []


async def test_two_starts_at_once_start_it_once(tournaments):
    t = await with_players(tournaments, 5)
    results = await asyncio.gather(
        tournaments.start(t.id, MANAGER.id, is_manager=True),
        tournaments.start(t.id, MANAGER.id, is_manager=True),
        return_exceptions=True,
    )
    assert sum(isinstance(r, Refused) for r in results) == 1, results
    games = await tournaments.pairings(t.id)
    # Five players: two games and a bye, paired once.
    assert len(games) == 3 and {g.round for g in games} == {1}
    bye = [g for g in games if g.second_id is None]
    assert len(bye) == 1 and bye[0].points == (1.0, 0.0)


async def test_a_pass_that_read_the_round_before_another_paired_it_pairs_nothing(
    service, tournaments, monkeypatch
):
    """Two passes at once: the second read the tournament at round 1, then the first paired
    round 2. The second pairs nothing and fails nothing (it once took the new round's games
    for history and raised)."""
    t = await with_players(tournaments, 4, rounds=2)
    t = await tournaments.start(t.id, MANAGER.id, is_manager=True)
    for info in await start_games(tournaments):
        await play_out(service, info.id)
    stale = await tournaments.get(t.id)
    assert stale.round == 1
    assert (await tournaments.advance()).paired == [t.id]

    async def as_read_before(tournament_id):
        return stale

    monkeypatch.setattr(tournaments, "get", as_read_before)
    assert await tournaments._pair(t.id, 2) is False
    monkeypatch.undo()
    assert len(await tournaments.pairings(t.id, 2)) == 2


async def test_a_swiss_runs_round_after_round_to_its_standings(service, tournaments):
    t = await with_players(tournaments, 4, rounds=2)
    t = await tournaments.start(t.id, MANAGER.id, is_manager=True)
    first = await start_games(tournaments)
    assert len(first) == 2 and all(m.spec.variant == "classic" for m in first)
    # Starting again starts nothing: each pairing has its match.
    assert await tournaments.to_start() == []
    for info in first:
        assert (await tournaments.of_match(info.id)).match_id == info.id
        await play_out(service, info.id)
    # Two passes at once pair round 2 once.
    a, b = await asyncio.gather(tournaments.advance(), tournaments.advance())
    assert (a.paired + b.paired) == [t.id]
    second = await tournaments.pairings(t.id, 2)
    assert len(second) == 2
    met = {frozenset((g.first_id, g.second_id)) for g in await tournaments.pairings(t.id, 1)}
    assert not met & {frozenset((g.first_id, g.second_id)) for g in second}
    for info in await start_games(tournaments):
        await play_out(service, info.id)
    progress = await tournaments.advance()
    assert progress.finished == [t.id]
    t = await tournaments.get(t.id)
    assert t.status == "finished"
    table = await tournaments.standings(t)
    assert len(table) == 4 and table[0].rank == 1
    assert sum(s.points for s in table) == 4.0  # four decided games, one point each
    # Tournament games are rated like any other.
    rated = await service.store._one(
        "SELECT count(*) AS n FROM matches WHERE tournament_id = ? AND rated = 1", (t.id,)
    )
    assert rated["n"] == 4


async def test_the_deadline_forfeits_for_whoever_kept_the_game_waiting(service, tournaments, clock):
    t = await with_players(tournaments, 4, rounds=2, hours=24)
    t = await tournaments.start(t.id, MANAGER.id, is_manager=True)
    moved, idle = await start_games(tournaments)
    # In one game the first player moves and the second never answers; nobody moves in
    # the other.
    seat = moved.to_decide
    move = choose_move(moved.match.view(seat), "easy", seed=1)
    await service.play(moved.id, moved.players[seat], move)
    waiting = 1 - seat
    clock.advance(hours=23)
    assert (await tournaments.advance()).paired == []
    clock.advance(hours=2)
    progress = await tournaments.advance()
    assert [r.info.id for r in progress.forfeits] == [moved.id]
    assert progress.abandoned == [idle.id] and progress.paired == [t.id]
    games = {g.match_id: g for g in await tournaments.pairings(t.id, 1)}
    expected = (1.0, 0.0) if waiting == 1 else (0.0, 1.0)
    assert games[moved.id].points == expected and games[moved.id].forfeit
    assert games[idle.id].points == (0.0, 0.0) and games[idle.id].forfeit
    abandoned = await service.match(idle.id)
    assert abandoned.status == "finished"
    row = await service.store._one("SELECT rated, winner FROM matches WHERE id = ?", (idle.id,))
    assert row["rated"] == 0 and row["winner"] is None


async def test_a_player_who_leaves_forfeits_and_the_event_goes_on(service, tournaments):
    t = await with_players(tournaments, 3, fmt="round-robin", name="League")
    t = await tournaments.start(t.id, MANAGER.id, is_manager=True)
    assert t.rounds == 3
    (game,) = await start_games(tournaments)
    leaver = game.players[0]
    results = await tournaments.withdraw(GUILD, leaver)
    assert [r.info.id for r in results] == [game.id]
    assert (await service.match(game.id)).status == "finished"
    g = await tournaments.of_match(game.id)
    assert g.points == (0.0, 1.0) and g.forfeit
    await tournaments.advance()
    # Round 2 and 3: the leaver's games are decided at once, the others played.
    for _ in range(2):
        for info in await start_games(tournaments):
            assert leaver not in info.players
            await play_out(service, info.id)
        await tournaments.advance()
    t = await tournaments.get(t.id)
    assert t.status == "finished"
    assert t.entrant(leaver).withdrawn
    free = []
    for g in await tournaments.pairings(t.id):
        if leaver in (g.first_id, g.second_id):
            assert g.forfeit or g.second_id is None
        elif g.second_id is None:  # FIDE: a round robin's free round is no game, no point
            assert g.points == (0.0, 0.0) and not g.forfeit
            free.append(g.first_id)
    rows = {s.player: s for s in await tournaments.standings(t)}
    assert free and all("B" in rows[p].results for p in free)


async def until_both_moved(service, info):
    """Moves from both seats, the game still going: a game played (rules notes R-28)."""
    for n in range(20):
        if both_moved(info.match.log):
            return info
        seat = info.to_decide
        move = choose_move(info.match.view(seat), "easy", seed=n)
        await service.play(info.id, info.players[seat], move)
        info = await service.match(info.id)
    raise AssertionError("both players should have moved by now")


async def test_a_game_with_moves_ended_by_the_deadline_or_a_withdrawal_is_played(
    service, tournaments, clock
):
    # FIDE counts a game with moves as played, for pairing and tie-breaks: lost on time at
    # the deadline, or resigned when a player withdraws, it is no forfeit.
    t = await with_players(tournaments, 4, rounds=3, hours=24)
    t = await tournaments.start(t.id, MANAGER.id, is_manager=True)
    timed, left = [await until_both_moved(service, g) for g in await start_games(tournaments)]
    assert timed.status == left.status == "active"
    waiting = timed.to_decide
    leaver = left.players[0]
    await tournaments.withdraw(GUILD, leaver)
    clock.advance(hours=25)
    await tournaments.advance()
    games = {g.match_id: g for g in await tournaments.pairings(t.id, 1)}
    assert games[timed.id].points == ((0.0, 1.0) if waiting == 0 else (1.0, 0.0))
    assert games[left.id].points == (0.0, 1.0)
    assert not games[left.id].forfeit
    assert not games[timed.id].forfeit
    # (so the pairing counts them as having met, and their seats: results.played)


async def test_the_organiser_chooses_the_tie_breaks(service, tournaments):
    # Kept with the tournament and used by its standings; the format's default otherwise.
    assert (await with_players(tournaments, 2, name="Plain")).tiebreaks == (
        "Buchholz",
        "Sonneborn-Berger",
    )
    t = await with_players(tournaments, 2, rounds=1, order="buchholz-cut")
    t = await tournaments.start(t.id, MANAGER.id, is_manager=True)
    assert t.tiebreaks == ("Buchholz Cut-1", "Buchholz", "Sonneborn-Berger", "Wins")
    (game,) = await start_games(tournaments)
    await play_out(service, game.id)
    await tournaments.advance()
    rows = await tournaments.standings(await tournaments.get(t.id))
    assert [len(s.tiebreaks) for s in rows] == [4, 4]
    assert rows[0].tiebreaks[3] == (1.0 if rows[0].points == 1.0 else 0.0)
    with pytest.raises(ValueError, match="Unknown tie-break order"):
        await create(tournaments, name="Odd", order="median")


async def test_a_pairing_gets_its_match_once(service, tournaments):
    # Two runs opening the same game (a restart between the thread and the match, or two
    # processes): the second is refused and leaves nothing behind.
    t = await with_players(tournaments, 2)
    await tournaments.start(t.id, MANAGER.id, is_manager=True)
    ((_, p),) = await tournaments.to_start()
    first = await tournaments.start_game(p, 5001)
    with pytest.raises(Refused, match="started a moment ago"):
        await tournaments.start_game(p, 5002)
    assert await service.active_match(5002) is None
    count = await service.store._one(
        "SELECT count(*) AS n FROM matches WHERE tournament_id = ?", (t.id,)
    )
    assert count["n"] == 1 and (await tournaments.of_match(first.id)).match_id == first.id
    assert await tournaments.to_start() == []


# Another bot process: it applies the deadline on the same database at `now`, and is
# SIGKILLed at SCHOTTEN_CRASH_AT (bot/crashpoints.py), as a power cut would.
ADVANCE = """
import asyncio, sys
from bot.time_source import ManualClock
from bot.service import GameService
from bot.tournament.service import Tournaments

async def main():
    service = await GameService.open(sys.argv[1], clock=ManualClock(float(sys.argv[2])))
    await Tournaments(service).advance()
    await service.close()

asyncio.run(main())
"""


async def advance_in_a_process_killed_at(database, now, instant):
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        ADVANCE,
        str(database),
        repr(now),
        env={**os.environ, "SCHOTTEN_CRASH_AT": instant},
    )
    return await child.wait()


@pytest.mark.parametrize("who_moves", [False, True])
async def test_a_kill_inside_the_deadline_leaves_the_game_and_its_result_together(
    service, tournaments, clock, database, who_moves
):
    # The deadline ends a game (abandoned when nobody moved, else lost on time) and stores
    # its forfeit in one transaction: a process killed between the two writes stores
    # neither, and the next run (a restart, or another process) does both; never a (0, 0)
    # without the forfeit flag.
    t = await with_players(tournaments, 2, rounds=1, hours=24)
    await tournaments.start(t.id, MANAGER.id, is_manager=True)
    (game,) = await start_games(tournaments)
    if who_moves:
        seat = game.to_decide
        move = choose_move(game.match.view(seat), "easy", seed=1)
        await service.play(game.id, game.players[seat], move)
    clock.advance(hours=25)
    status = await advance_in_a_process_killed_at(database, clock.now(), "deadline-before-commit")
    assert status == -signal.SIGKILL
    assert (await service.match(game.id)).status == "active"
    (pairing,) = await tournaments.pairings(t.id, 1)
    assert pairing.points is None and not pairing.forfeit
    progress = await Tournaments(service).advance()  # after the restart
    (pairing,) = await tournaments.pairings(t.id, 1)
    assert pairing.forfeit and pairing.points is not None
    if who_moves:
        assert [r.info.id for r in progress.forfeits] == [game.id]
        assert sorted(pairing.points) == [0.0, 1.0]
    else:
        assert progress.abandoned == [game.id] and pairing.points == (0.0, 0.0)
    assert (await service.match(game.id)).status == "finished"
    assert progress.finished == [t.id]
    table = await tournaments.standings(await tournaments.get(t.id))
    assert sum(s.points for s in table) == (1.0 if who_moves else 0.0)


async def test_an_abandoned_game_stored_without_its_forfeit_flag_is_a_double_forfeit(
    service, tournaments, clock
):
    # What an older version could leave after a restart between its two writes: the match
    # abandoned, its pairing (0, 0) with forfeit = 0. It reads as a double forfeit; the
    # event goes on and its standings work.
    t = await with_players(tournaments, 4, rounds=2, hours=24)
    await tournaments.start(t.id, MANAGER.id, is_manager=True)
    first, second = await start_games(tournaments)
    assert await service.abandon(first, "ABANDONED")
    await play_out(service, second.id)
    async with service.store.transaction() as tx:
        await tx.execute(
            "UPDATE tournament_games SET points0 = 0, points1 = 0, forfeit = 0 WHERE match_id = ?",
            (first.id,),
        )
    progress = await tournaments.advance()
    assert progress.paired == [t.id]
    table = await tournaments.standings(await tournaments.get(t.id))
    assert [s.results[0] for s in table].count("f") == 2


async def test_a_game_resigned_before_both_moved_is_unrated_and_lost_by_forfeit(
    service, tournaments, clock
):
    # rules notes R-28: aborted, so no rating moves, but the round cannot replay it: the player
    # who resigned loses by forfeit. The deadline's loss on time before the other player's
    # first move likewise changes no rating.
    t = await with_players(tournaments, 4, rounds=2, hours=24)
    t = await tournaments.start(t.id, MANAGER.id, is_manager=True)
    resigned, timed = await start_games(tournaments)
    quitter = resigned.players[resigned.to_decide]
    result = await service.resign(resigned.id, quitter)
    assert result.rating_changes == [] and result.info.aborted
    seat = timed.to_decide
    await service.play(
        timed.id, timed.players[seat], choose_move(timed.match.view(seat), "easy", seed=1)
    )
    clock.advance(hours=25)
    progress = await tournaments.advance()
    assert [r.info.id for r in progress.forfeits] == [timed.id]
    assert progress.forfeits[0].rating_changes == []
    games = {g.match_id: g for g in await tournaments.pairings(t.id, 1)}
    lost = resigned.players.index(quitter)
    assert games[resigned.id].points == ((0.0, 1.0) if lost == 0 else (1.0, 0.0))
    assert games[resigned.id].forfeit
    waiting = 1 - seat
    assert games[timed.id].points == ((0.0, 1.0) if waiting == 0 else (1.0, 0.0))
    assert games[timed.id].forfeit
    for info in (resigned, timed):
        assert (await service.match(info.id)).aborted
    assert (await service.leaderboard(GUILD, "st1")).entries == []
