"""The game service over real SQLite files and PostgreSQL databases: lifecycles, races,
restarts, refusals."""

import asyncio
import json
import random

import pytest

from bot.errors import NotFound, Refused, StaleMove
from bot.service import GameService
from engine.api import VARIANTS, MatchSpec
from engine.errors import ClaimRejectedError, GameError, IllegalMoveError
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, ROBOT, both_move


async def start(service, variant="classic", channel=CHANNEL, **spec):
    ch = await service.challenge(GUILD, channel, ALICE, BOB, MatchSpec(variant, **spec))
    return await service.accept(ch.id, BOB.id)


async def play_random(service, match_id, rng, *, until_over=True, moves=10**6):
    result = None
    for _ in range(moves):
        info = await service.match(match_id)
        if info.is_over:
            break
        seat = info.match.to_decide
        move = rng.choice(info.match.legal_moves())
        result = await service.play(match_id, info.players[seat], str(move))
        if not until_over:
            continue
    return result


@pytest.mark.parametrize("variant", list(VARIANTS))
async def test_full_lifecycle_of_each_game_type(service, variant):
    spec = {"revenge": True} if variant.startswith("siege") else {"rounds": 2}
    info = await start(service, variant, **spec)
    assert info.players == (ALICE.id, BOB.id)
    assert info.names == ("Alice", "Bob")
    last = await play_random(service, info.id, random.Random(3))
    assert last is not None and last.finished
    final = await service.match(info.id)
    assert final.status == "finished" and final.is_over
    assert final.version == len(await service.store.moves(info.id))
    # Two games (rounds, or the revenge pair) were recorded, one row each.
    assert len(await service.store.games(info.id)) == 2
    # Rated in the same transaction: both players now have a rating for this game.
    changes = {c.user_id: c for c in last.rating_changes}
    assert set(changes) == {ALICE.id, BOB.id}
    board = await service.leaderboard(GUILD, spec_game(variant))
    assert {e.user_id for e in board.entries} == {ALICE.id, BOB.id}
    # The history replays to exactly the stored state, and exports as text.
    assert await service.verify(info.id)
    text = await service.export(info.id)
    moves = await service.store.moves(info.id)
    assert "Alice" in text.splitlines()[1] and "Bob" in text.splitlines()[2]
    assert f"{len(moves):4d}. " in text
    assert sum(line.startswith("Result: ") for line in text.splitlines()) == 1
    # The channel is free again.
    assert await service.active_match(CHANNEL) is None


def spec_game(variant):
    return "st2" if variant.startswith("siege") else "st1"


async def test_only_one_of_two_racing_moves_is_applied(service):
    info = await start(service)
    seat = info.match.to_decide
    user = info.players[seat]
    moves = [str(m) for m in info.match.legal_moves()]
    results = await asyncio.gather(
        service.play(info.id, user, moves[0]),
        service.play(info.id, user, moves[1]),
        return_exceptions=True,
    )
    applied = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(applied) == 1 and len(refused) == 1
    assert isinstance(refused[0], StaleMove | Refused)
    after = await service.match(info.id)
    assert after.version == info.version + 1
    assert len(await service.store.moves(info.id)) == 1


async def test_a_move_played_on_a_match_read_before_another_move_is_refused(service):
    # The caller read the match (as `/schotten move` does), then another move was stored
    # (another process, another device): the move made on the old read changes nothing.
    info = await start(service)
    seat = info.match.to_decide
    read = await service.match(info.id)
    other = await service.match(info.id)
    first, second = (str(m) for m in info.match.legal_moves()[:2])
    await service.play(info.id, other.players[seat], first, info=other)
    with pytest.raises(StaleMove, match="earlier position"):
        await service.play(info.id, read.players[seat], second, info=read)
    after = await service.match(info.id)
    assert after.version == 1
    assert [r["text"] for r in await service.store.moves(info.id)] == [first]
    # A read that is current is played as read.
    seat = after.match.to_decide
    result = await service.play(
        info.id, after.players[seat], str(after.match.legal_moves()[0]), info=after
    )
    assert result.info is after and after.version == 2
    assert (await service.match(info.id)).version == 2


async def test_a_double_click_is_recognised(service):
    info = await start(service)
    seat = info.match.to_decide
    move = str(info.match.legal_moves()[0])
    await service.play(info.id, info.players[seat], move, expected_version=info.version)
    with pytest.raises(StaleMove, match=f"You already played `{move}`"):
        await service.play(info.id, info.players[seat], move, expected_version=info.version)


async def test_two_services_on_one_file_race_safely(database, clock):
    a = await GameService.open(database, clock=clock, seeds=lambda: 5)
    b = await GameService.open(database, clock=clock, seeds=lambda: 6)
    try:
        info = await start(a)
        seat = info.match.to_decide
        user = info.players[seat]
        move = str(info.match.legal_moves()[0])
        results = await asyncio.gather(
            a.play(info.id, user, move, expected_version=0),
            b.play(info.id, user, move, expected_version=0),
            return_exceptions=True,
        )
        assert sum(not isinstance(r, Exception) for r in results) == 1
        assert (await a.match(info.id)).version == 1
        assert len(await a.store.moves(info.id)) == 1
    finally:
        await a.close()
        await b.close()


async def test_close_and_reopen_in_the_middle_of_a_game(database, clock):
    svc = await GameService.open(database, clock=clock, seeds=lambda: 77)
    info = await start(svc, "siege-tactics")
    rng = random.Random(2)
    await play_random(svc, info.id, rng, moves=15)
    before = (await svc.match(info.id)).match.to_json()
    await svc.close()
    svc = await GameService.open(database, clock=clock, seeds=lambda: 78)
    try:
        again = await svc.match(info.id)
        assert again.match.to_json() == before
        last = await play_random(svc, info.id, rng)
        assert last is not None and last.finished
        assert await svc.verify(info.id)
    finally:
        await svc.close()


async def test_matches_continue_into_their_next_round(service):
    info = await start(service, rounds=3)
    rng = random.Random(8)
    while True:
        info = await service.match(info.id)
        if len(await service.store.games(info.id)) == 1:
            break
        seat = info.match.to_decide
        await service.play(info.id, info.players[seat], str(rng.choice(info.match.legal_moves())))
    assert info.status == "active"
    assert info.match.view(0).match.round == 2


# Refusals: challenges -------------------------------------------------------------------------


async def test_challenge_refusals(service):
    with pytest.raises(Refused, match="cannot challenge yourself"):
        await service.challenge(GUILD, CHANNEL, ALICE, ALICE, MatchSpec())
    with pytest.raises(Refused, match="Some Bot is a bot account"):
        await service.challenge(GUILD, CHANNEL, ALICE, ROBOT, MatchSpec())
    await service.challenge(GUILD, CHANNEL, ALICE, BOB, MatchSpec())
    with pytest.raises(Refused, match="already challenged Bob here"):
        await service.challenge(GUILD, CHANNEL, ALICE, BOB, MatchSpec("tactics"))
    # Someone else may still challenge Bob, and Alice may challenge Bob elsewhere.
    await service.challenge(GUILD, CHANNEL, CAROL, BOB, MatchSpec())
    await service.challenge(GUILD, CHANNEL + 1, ALICE, BOB, MatchSpec())
    await start(service, channel=CHANNEL + 2)
    with pytest.raises(Refused, match="already has a game in progress"):
        await service.challenge(GUILD, CHANNEL + 2, CAROL, BOB, MatchSpec())


async def test_accept_decline_cancel_rules(service):
    ch = await service.challenge(GUILD, CHANNEL, ALICE, BOB, MatchSpec())
    with pytest.raises(Refused, match="cannot accept your own challenge"):
        await service.accept(ch.id, ALICE.id)
    with pytest.raises(Refused, match="This challenge is for Bob, not for you"):
        await service.accept(ch.id, CAROL.id)
    with pytest.raises(Refused, match="Only Bob can decline"):
        await service.decline(ch.id, CAROL.id)
    with pytest.raises(Refused, match="cancel it instead"):
        await service.decline(ch.id, ALICE.id)
    with pytest.raises(Refused, match="Only Alice, who made this challenge, can cancel"):
        await service.cancel(ch.id, BOB.id)
    declined = await service.decline(ch.id, BOB.id)
    assert declined.status == "declined"
    with pytest.raises(Refused, match="no longer open: it was declined"):
        await service.accept(ch.id, BOB.id)
    ch2 = await service.challenge(GUILD, CHANNEL, ALICE, BOB, MatchSpec())
    assert (await service.cancel(ch2.id, ALICE.id)).status == "cancelled"
    with pytest.raises(NotFound):
        await service.challenge_info(12345)


async def test_challenges_expire(service, clock):
    await service.update_settings(GUILD, is_manager=True, challenge_hours=2)
    ch = await service.challenge(GUILD, CHANNEL, ALICE, BOB, MatchSpec())
    clock.advance(hours=1)
    assert (await service.due()).expired == []
    clock.advance(hours=1.5)
    work = await service.due()
    assert [c.id for c in work.expired] == [ch.id]
    assert work.expired[0].status == "expired"
    with pytest.raises(Refused, match="no longer open: it was expired"):
        await service.accept(ch.id, BOB.id)


async def test_roles_fix_who_starts_or_attacks(service):
    ch = await service.challenge(GUILD, CHANNEL, ALICE, BOB, MatchSpec("siege"), role="defender")
    info = await service.accept(ch.id, BOB.id)
    assert info.match.view(None).attacker == 1  # Bob, seat 1, attacks
    with pytest.raises(Refused, match="attacker or the defender"):
        await service.challenge(GUILD, CHANNEL + 1, ALICE, BOB, MatchSpec("siege"), role="first")
    ch = await service.challenge(GUILD, CHANNEL + 1, ALICE, BOB, MatchSpec(), role="second")
    info = await service.accept(ch.id, BOB.id)
    assert info.match.to_decide == 1


# Refusals: moves -------------------------------------------------------------------------------


async def test_move_refusals_change_nothing(service):
    info = await start(service)
    seat = info.match.to_decide
    mover, waiter = info.players[seat], info.players[1 - seat]
    state = (await service.store.match(info.id))["state"]
    with pytest.raises(Refused, match="not playing in this game; it is between Alice and Bob"):
        await service.play(info.id, CAROL.id, "R1 1")
    with pytest.raises(Refused, match=f"not your turn: the game is waiting for {info.names[seat]}"):
        await service.play(info.id, waiter, "R1 1")
    held = info.match.game.hands[seat]
    missing = next(
        f"{c}{v}" for c in "ROYGBP" for v in range(1, 10) if f"{c}{v}" not in map(str, held)
    )
    with pytest.raises(IllegalMoveError, match=f"{missing} is not in your hand; you hold"):
        await service.play(info.id, mover, f"{missing} 1")
    with pytest.raises(GameError, match="cannot read"):
        await service.play(info.id, mover, "dance a jig")
    with pytest.raises(StaleMove, match="moved on"):
        await service.play(info.id, mover, str(held[0]) + " 1", expected_version=info.version + 3)
    assert (await service.store.match(info.id))["state"] == state
    assert await service.store.moves(info.id) == []


async def test_a_failed_claim_explains_itself(service):
    info = await start(service)
    rng = random.Random(4)
    # Play until someone can try a claim that does not hold.
    for _ in range(200):
        info = await service.match(info.id)
        g = info.match.game
        seat = info.match.to_decide
        for stone in g.stones:
            check = g.check_claim(stone.number, seat)
            if stone.claimed_by is None and stone.complete(seat) and not check.allowed:
                text = f"claim {stone.number}"
                try:
                    await service.play(info.id, info.players[seat], text)
                except (ClaimRejectedError, IllegalMoveError) as e:
                    assert "claim" in str(e)
                    return
        await service.play(info.id, info.players[seat], str(rng.choice(info.match.legal_moves())))
    pytest.fail("no refused claim came up")


async def test_resign_any_time_and_game_over(service):
    info = await start(service)
    await both_move(service, info.id)  # before that, a resignation aborts (test_aborted.py)
    info = await service.match(info.id)
    waiting = info.players[1 - info.match.to_decide]
    result = await service.resign(info.id, waiting)
    assert result.finished
    assert result.outcome is not None and result.outcome.winner == 1 - info.players.index(waiting)
    quitter = info.names[info.players.index(waiting)]
    with pytest.raises(Refused, match=f"Game #{info.id} is over: {quitter} resigned"):
        await service.play(info.id, ALICE.id, "resign")


# Time -------------------------------------------------------------------------------------------


async def test_reminder_once_then_forfeit(service, clock):
    info = await start(service)
    seat = info.match.to_decide
    clock.advance(hours=23)
    assert (await service.due()).reminders == []
    clock.advance(hours=2)
    work = await service.due()
    assert [(r.match_id, r.user_id) for r in work.reminders] == [(info.id, info.players[seat])]
    assert work.reminders[0].forfeit_in_hours == pytest.approx(72 - 25)
    assert (await service.due()).reminders == []  # once per decision
    clock.advance(hours=48)
    work = await service.due()
    assert len(work.forfeits) == 1
    result = work.forfeits[0]
    assert result.text == "timeout"
    assert result.outcome is not None and result.outcome.winner == 1 - seat
    assert result.describe()[0] == f"{info.names[seat]} ran out of time."
    assert (await service.match(info.id)).status == "finished"


async def test_a_move_restarts_the_clock(service, clock):
    info = await start(service)
    clock.advance(hours=70)
    seat = info.match.to_decide
    await service.play(info.id, info.players[seat], str(info.match.legal_moves()[0]))
    clock.advance(hours=5)
    work = await service.due()
    assert work.forfeits == [] and work.reminders == []


async def test_forfeit_can_be_turned_off_and_reminders_tuned(service, clock):
    with pytest.raises(Refused, match="manage this server"):
        await service.update_settings(GUILD, is_manager=False, forfeit_hours=0)
    with pytest.raises(Refused, match="0 \\(off\\) or 12 to 720"):
        await service.update_settings(GUILD, is_manager=True, forfeit_hours=5)
    await service.update_settings(GUILD, is_manager=True, forfeit_hours=0, reminder_hours=2)
    info = await start(service)
    clock.advance(hours=3)
    assert [r.match_id for r in (await service.due()).reminders] == [info.id]
    clock.advance(hours=1000)
    assert (await service.due()).forfeits == []


async def test_deadlines_survive_a_restart(database, clock):
    svc = await GameService.open(database, clock=clock, seeds=lambda: 3)
    info = await start(svc)
    await svc.close()
    clock.advance(hours=80)
    svc = await GameService.open(database, clock=clock, seeds=lambda: 4)
    try:
        work = await svc.due()
        assert [f.info.id for f in work.forfeits] == [info.id]
    finally:
        await svc.close()


# Ratings and standings ----------------------------------------------------------------------


async def test_ratings_move_and_rank_by_the_conservative_estimate(service):
    for channel in range(3):
        info = await start(service, channel=CHANNEL + channel)
        loser = BOB.id
        await both_move(service, info.id)
        await service.resign(info.id, loser)
    board = await service.leaderboard(GUILD, "st1")
    assert [e.name for e in board.entries] == ["Alice", "Bob"]
    alice, bob = board.entries
    assert alice.rated_games == 3
    assert alice.rating.ordinal > 0 > bob.rating.ordinal
    assert alice.rating.mu > 25 > bob.rating.mu
    # One lucky win does not top the board: Carol's single win ranks below Alice's three.
    ch = await service.challenge(GUILD, CHANNEL + 9, CAROL, BOB, MatchSpec())
    info = await service.accept(ch.id, BOB.id)
    await both_move(service, info.id)
    await service.resign(info.id, BOB.id)
    board = await service.leaderboard(GUILD, "st1")
    assert [e.name for e in board.entries][:2] == ["Alice", "Carol"]
    with pytest.raises(Refused, match="page"):
        await service.leaderboard(GUILD, "st1", page=2)
    assert (await service.leaderboard(GUILD, "st2")).entries == []


async def test_player_stats(service):
    results = [BOB.id, BOB.id, ALICE.id]  # who resigns each time
    for i, loser in enumerate(results):
        info = await start(service, "tactics" if i else "classic", channel=CHANNEL + i)
        await both_move(service, info.id)
        await service.resign(info.id, loser)
    stats = await service.stats(GUILD, ALICE.id, against=BOB.id)
    assert (stats.overall.wins, stats.overall.losses) == (2, 1)
    assert stats.streak == ("loss", 1)
    assert stats.per_variant["classic"].wins == 1
    assert stats.per_variant["tactics"].describe() == "1 won, 1 lost"
    assert stats.against == ("Bob", stats.overall)
    assert "st1" in stats.ratings and stats.ratings["st1"][2] == 2
    assert [g.result for g in stats.recent] == ["loss", "win", "win"]
    assert stats.recent[0].opponent_name == "Bob"


async def test_games_against_the_computer_are_kept_but_not_rated(service):
    bot = ROBOT
    ch = await service.challenge(
        GUILD, CHANNEL, ALICE, bot, MatchSpec(), computer_id=bot.id, ai_level="hard"
    )
    assert ch.describe() == "Alice challenges Computer (hard) to Schotten Totten"
    info = await service.accept(ch.id, ALICE.id)
    assert info.names[1] == "Computer (hard)" and info.ai_seat == 1
    turns = await service.computer_turns()
    if info.match.to_decide == 1:
        assert [t.id for t in turns] == [info.id]
        move = str(info.match.legal_moves()[0])
        await service.computer_move(info.id, move, expected_version=info.version)
    await service.resign(info.id, ALICE.id)
    assert (await service.leaderboard(GUILD, "st1")).entries == []
    stats = await service.stats(GUILD, ALICE.id)
    assert stats.overall.losses == 1
    assert stats.recent[0].opponent_name == "Computer (hard)"
    assert not stats.recent[0].rated


async def test_history_export_lists_options_players_moves_and_result(service):
    info = await start(service, "expert")
    rng = random.Random(1)
    await play_random(service, info.id, rng, moves=6)
    await service.resign(info.id, ALICE.id)
    text = await service.export(info.id)
    lines = text.splitlines()
    assert lines[0] == f"# schotten-bot game #{info.id}: Schotten Totten, Expert"
    assert lines[1].startswith("Moves first: ") and lines[2].startswith("Moves second: ")
    # For people: every move in words, numbered; the replay block (bot/history.py): the
    # options in JSON, the seed, and every move in notation by seat.
    block = lines[lines.index("```schotten-replay") + 1 : -1]
    assert json.loads(block[0])["variant"] == "expert" and block[1] == f"seed {info.seed}"
    moves = await service.store.moves(info.id)
    assert block[2:] == [f"{m['seat'] + 1} {m['text']}" for m in moves]
    for m in moves:
        (said,) = [line for line in lines if line.startswith(f"{m['seq'] + 1:4d}. ")]
        assert said.split(". ", 1)[1].startswith(info.names[m["seat"]]), said
    assert "Result: Bob wins (resignation)" in lines
    (game,) = [line for line in lines if line.startswith("Game 1:")]
    assert game.startswith("Game 1: won by Bob (resignation). Alice held 0 stones and scored")
    assert "{" not in game and "Bob held" in game and "started." in game


async def test_a_siege_result_reads_in_words(service):
    info = await start(service, "siege")
    await both_move(service, info.id)
    await service.resign(info.id, BOB.id)
    text = await service.export(info.id)
    (game,) = [line for line in text.splitlines() if line.startswith("Game 1:")]
    assert game.startswith("Game 1: won by Alice (resignation). ")
    # Each player's first legal move: the Defender's was to pour oil (one of 3 cauldrons).
    assert "attacked; " in game and "47 cards left in the deck, 7 tiles intact, 2 oil" in game


async def test_many_games_at_once_never_read_an_older_state(service):
    # Regression: reads overlapping on one connection once kept an old snapshot alive, so a
    # game could be read at an older version than one already committed.
    infos = [await start(service, v, channel=CHANNEL + i) for i, v in enumerate(VARIANTS)]

    async def player(match_id, rng):
        seen = -1
        for _ in range(12):
            info = await service.match(match_id)
            assert info.version >= seen
            if info.is_over:
                return
            seat = info.match.to_decide
            result = await service.play(
                match_id, info.players[seat], str(rng.choice(info.match.legal_moves()))
            )
            seen = result.info.version

    await asyncio.gather(*(player(i.id, random.Random(i.id)) for i in infos))
    for i in infos:
        assert (await service.match(i.id)).version == len(await service.store.moves(i.id))


async def test_a_decision_owed_out_of_turn_is_taken_from_that_player(service):
    # Schotten Totten 2's Exchange: after the player on turn gives three cards, the other
    # player owes a choice although it is not their turn.
    for n in range(30):
        info = await start(service, "siege-tactics", channel=CHANNEL + n)
        rng = random.Random(n)
        while not info.is_over:
            seat = info.match.to_decide
            moves = [str(m) for m in info.match.legal_moves()]
            move = "exchange" if "exchange" in moves else rng.choice(moves)
            result = await service.play(info.id, info.players[seat], move)
            info = result.info
            if move != "exchange":
                continue
            mover = info.players[seat]
            await service.play(info.id, mover, str(info.match.legal_moves()[0]))
            info = await service.match(info.id)
            other = info.match.to_decide
            assert other == 1 - seat and info.match.view(None).turn == seat
            with pytest.raises(Refused, match=f"waiting for {info.names[other]}"):
                await service.play(info.id, mover, "done")
            assert info.match.game.phase.value == "exchange"
            await service.play(info.id, info.players[other], str(info.match.legal_moves()[0]))
            assert (await service.match(info.id)).match.game.phase.value != "exchange"
            return
    pytest.fail("no Exchange came up")
