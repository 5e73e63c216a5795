"""Aborted games and provisional ratings (rules notes R-28, R-29): a game resigned or lost on
time before both players moved changes no rating and is no win or loss; a new player's
rating is marked provisional until it settles. Real stores (SQLite and PostgreSQL)."""

import pytest

from bot.errors import Refused
from engine.api import MatchSpec
from tests.bot.conftest import ALICE, BOB, CHANNEL, GUILD


async def start(service, channel=CHANNEL):
    ch = await service.challenge(GUILD, channel, ALICE, BOB, MatchSpec())
    return await service.accept(ch.id, BOB.id)


async def move_once(service, match_id):
    """One move of the player the game waits for (their whole turn's first decision)."""
    info = await service.match(match_id)
    seat = info.match.to_decide
    await service.play(match_id, info.players[seat], str(info.match.legal_moves()[0]))
    return seat


async def until_both_moved(service, match_id):
    moved = set()
    while moved != {0, 1}:
        moved.add(await move_once(service, match_id))


async def assert_aborted(service, info_id):
    info = await service.match(info_id)
    assert info.status == "finished" and info.aborted
    row = await service.store._one(
        "SELECT winner, termination, rated FROM matches WHERE id = ?", (info_id,)
    )
    assert (row["winner"], row["termination"], row["rated"]) == (None, "ABORTED", 0)
    # No rating, no history step, no win or loss.
    assert (await service.leaderboard(GUILD, "st1")).entries == []
    assert await service.rating_history(GUILD, ALICE.id) == {}
    for user in (ALICE.id, BOB.id):
        stats = await service.stats(GUILD, user)
        assert stats.overall.games == 0 and stats.streak is None and stats.ratings == {}
        assert [g.result for g in stats.recent] == ["aborted"]
    with pytest.raises(Refused, match=f"Game #{info_id} was aborted"):
        await service.play(info_id, ALICE.id, "resign")
    # The record's result line (a finished record then ends with its replay block).
    results = [ln for ln in (await service.export(info_id)).splitlines() if ln.startswith("Result")]
    assert len(results) == 1 and results[0].startswith("Result: aborted")


async def test_a_resign_at_move_one_is_aborted_and_unrated(service):
    info = await start(service)
    result = await service.resign(info.id, info.players[info.match.to_decide])
    assert result.finished and result.rating_changes == []
    assert result.info.aborted
    await assert_aborted(service, info.id)


async def test_a_resign_after_one_player_moved_is_aborted(service):
    info = await start(service)
    first = await move_once(service, info.id)
    # The player who moved resigns: the other never moved.
    result = await service.resign(info.id, info.players[first])
    assert result.rating_changes == []
    await assert_aborted(service, info.id)


async def test_a_timeout_before_the_second_players_first_move_is_aborted(service, clock):
    info = await start(service)
    await move_once(service, info.id)
    clock.advance(hours=73)
    work = await service.due()
    assert [f.text for f in work.forfeits] == ["timeout"]
    assert work.forfeits[0].rating_changes == []
    await assert_aborted(service, info.id)


async def test_a_resign_after_both_moved_is_rated_as_before(service):
    info = await start(service)
    await until_both_moved(service, info.id)
    result = await service.resign(info.id, BOB.id)
    assert {c.user_id for c in result.rating_changes} == {ALICE.id, BOB.id}
    assert not result.info.aborted
    board = await service.leaderboard(GUILD, "st1")
    assert [e.name for e in board.entries] == ["Alice", "Bob"]
    stats = await service.stats(GUILD, ALICE.id)
    assert (stats.overall.wins, stats.overall.losses) == (1, 0)
    assert [g.result for g in stats.recent] == ["win"]


async def test_provisional_after_one_game_established_after_enough(service):
    from bot.ratings import PROVISIONAL_GAMES

    for n in range(PROVISIONAL_GAMES):
        info = await start(service, channel=CHANNEL + n)
        await until_both_moved(service, info.id)
        await service.resign(info.id, BOB.id if n % 2 else ALICE.id)
        entries = (await service.leaderboard(GUILD, "st1")).entries
        provisional = n + 1 < PROVISIONAL_GAMES
        assert [e.rating.provisional for e in entries] == [provisional, provisional]
        marks = [e.rating.marked().endswith("?") for e in entries]
        assert marks == [provisional, provisional]
        assert (await service.stats(GUILD, ALICE.id)).ratings["st1"][0].provisional is (provisional)


async def test_an_aborted_game_is_said_in_french_and_german(service, clock):
    from lang import localise, speaking
    from lang.catalogs import MISSES

    info = await start(service)
    await move_once(service, info.id)
    clock.advance(hours=73)
    await service.due()
    info = await service.match(info.id)
    MISSES.clear()
    with speaking("fr"):
        record = (await service.export(info.id)).splitlines()
        results = [ln for ln in record if ln.startswith("Résultat")]
        assert len(results) == 1 and results[0].startswith(
            "Résultat : partie annulée (le temps de "
        )
    assert localise(service.ended_message(info), "de").startswith(
        f"Partie #{info.id} wurde abgebrochen (die Zeit von "
    )
    assert [k for k in MISSES if k[0] in ("fr", "de")] == []


async def test_the_pictures_of_an_aborted_game_say_so(service):
    from bot.front.pictures import draw
    from engine.outcome import Outcome, Termination
    from render.words import result_text

    info = await start(service)
    await service.resign(info.id, info.players[info.match.to_decide])
    info = await service.match(info.id)
    names = list(info.names)
    assert result_text(Outcome(None, Termination.ABORTED), names) == (
        "Game aborted: no winner, unrated"
    )
    # The board and each hand are drawn with that banner, not the engine's "wins".
    for seat in (None, 0, 1):
        assert draw(info.match, seat, names, "en", info.aborted) != draw(
            info.match, seat, names, "en"
        )
