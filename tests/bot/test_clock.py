"""A clock per game and vacations, through the service on both stores: each game's own
deadlines, the reminder at a share of the clock and the forfeit at its end, each once
across a restart and across two processes racing `due()`; vacations that stop a member's
clocks and move their deadlines by exactly the time away (bot/game_clock.py)."""

import asyncio
import itertools

import pytest

from bot.errors import Refused
from bot.front.admin_commands import settings_lines
from bot.game_clock import REMINDER_SHARE, Pause, counted, deadline, merged, vacation_days_used
from bot.service import GameService
from engine.api import MatchSpec
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD

HOUR = 3600.0
DAY = 86400.0


async def start(service, clock_hours=None, a=ALICE, b=BOB, channel=CHANNEL):
    ch = await service.challenge(
        GUILD, channel, a, b, MatchSpec("classic"), clock_hours=clock_hours
    )
    return await service.accept(ch.id, b.id)


async def open_service(database, clock):
    seeds = itertools.count(2000)
    return await GameService.open(database, clock=clock, seeds=lambda: next(seeds))


class _Front:
    """What the settings' lines ask of the front: the server's language."""

    async def server_language(self, guild: int) -> str:
        return "en"


def waiting_user(info):
    return info.players[info.to_decide]


async def timeline(database, clock, service, match_id, steps):
    """Run `due()` after each clock step; (reminders, forfeits) of this match per step."""
    out = []
    for hours in steps:
        clock.advance(hours=hours)
        work = await service.due()
        out.append(
            (
                sum(r.match_id == match_id for r in work.reminders),
                sum(f.info.id == match_id for f in work.forfeits),
            )
        )
    return out


# The clock's arithmetic ----------------------------------------------------------------------


def test_counted_and_deadline_skip_the_pauses_exactly():
    pauses: list[Pause] = [(100.0, 200.0), (150.0, 250.0), (400.0, 450.0)]
    assert merged(pauses) == [(100.0, 250.0), (400.0, 450.0)]
    assert counted(0.0, 300.0, pauses) == 150.0
    assert counted(120.0, 240.0, pauses) == 0.0  # all of it on vacation
    # 100 s before the first pause, then 150 s between the two, then 50 s after.
    assert deadline(0.0, 300.0, pauses) == 500.0
    assert deadline(0.0, 100.0, pauses) == 100.0  # reached as the pause begins
    assert deadline(120.0, 10.0, pauses) == 260.0  # starts during a pause
    for budget in (1.0, 99.0, 100.0, 101.0, 249.0, 300.0, 1000.0):
        assert counted(0.0, deadline(0.0, budget, pauses), pauses) == pytest.approx(budget)


def test_a_vacation_uses_every_day_it_began():
    assert vacation_days_used(DAY) == 1
    assert vacation_days_used(30 * HOUR) == 2
    assert vacation_days_used(60.0) == 1
    assert vacation_days_used(7 * DAY) == 7


# Each game's clock -----------------------------------------------------------------------------


async def test_a_challenge_keeps_its_clock_or_takes_the_servers_forfeit_time(service):
    one_hour = await start(service, clock_hours=1)
    assert one_hour.clock_hours == 1
    assert (await service.challenge_info(1)).clock_hours == 1
    default = await start(service, channel=CHANNEL + 1)
    assert default.clock_hours == 72  # the server's forfeit time, fixed when challenged
    await service.update_settings(GUILD, is_manager=True, forfeit_hours=0)
    none = await start(service, channel=CHANNEL + 2)
    assert none.clock_hours is None  # no forfeit on the server: its settings apply
    assert await service.time_left(none) is None
    with pytest.raises(Refused, match="1 hour to 30 days"):
        await service.challenge(
            GUILD, CHANNEL + 3, ALICE, BOB, MatchSpec("classic"), clock_hours=0.5
        )
    # The default game's clock stays 72 h though the server has changed.
    assert await service.time_left(await service.match(default.id)) == 72 * HOUR


async def test_an_open_challenge_keeps_its_clock_for_whoever_takes_it(service):
    ch = await service.challenge(GUILD, CHANNEL, ALICE, None, MatchSpec("classic"), clock_hours=12)
    assert ch.clock_hours == 12
    info = await service.accept(ch.id, CAROL.id, taker=CAROL)
    assert info.players == (ALICE.id, CAROL.id) and info.clock_hours == 12
    assert await service.time_left(info) == 12 * HOUR


async def test_a_one_hour_clock_reminds_then_forfeits_once_each_across_a_restart(database, clock):
    service = await open_service(database, clock)
    info = await start(service, clock_hours=1)
    other = await start(service, channel=CHANNEL + 1)  # the server's 72 h: nothing due
    assert await service.time_left(info) == HOUR
    steps = await timeline(database, clock, service, info.id, [0.3])
    assert steps == [(0, 0)]  # 18 min: before a third of the hour
    steps = await timeline(database, clock, service, info.id, [0.05])
    assert steps == [(1, 0)]  # 21 min: the reminder, at 20 min
    await service.close()
    # A new bot on the same database: the reminder is not sent again, the forfeit comes.
    service = await open_service(database, clock)
    try:
        assert await service.time_left(await service.match(info.id)) == pytest.approx(39 * 60)
        steps = await timeline(database, clock, service, info.id, [0.1, 0.5, 0.1, 1.0])
        assert steps == [(0, 0), (0, 0), (0, 1), (0, 0)]
        done = await service.match(info.id)
        assert done.is_over and done.match.outcome.termination.name == "TIMEOUT"
        assert [r["text"] for r in await service.store.moves(info.id)].count("timeout") == 1
        rows = await service.store._all(
            "SELECT kind FROM outbox WHERE match_id = ? AND kind = 'reminder'", (info.id,)
        )
        assert len(rows) == 1
        assert (await service.match(other.id)).status == "active"
    finally:
        await service.close()


async def test_two_processes_racing_due_fire_each_timer_once(database, clock):
    svcs = [await open_service(database, clock) for _ in range(3)]
    try:
        info = await start(svcs[0], clock_hours=1)
        counts = []
        for hours in (0.34, 0.2, 0.5):
            clock.advance(hours=hours)
            works = await asyncio.gather(*(s.due() for s in svcs))
            counts.append(
                (sum(len(w.reminders) for w in works), sum(len(w.forfeits) for w in works))
            )
        assert counts == [(1, 0), (0, 0), (0, 1)]
        assert [r["text"] for r in await svcs[1].store.moves(info.id)].count("timeout") == 1
    finally:
        for s in svcs:
            await s.close()


async def test_a_move_gives_the_next_player_a_whole_clock(service, clock):
    info = await start(service, clock_hours=12)
    clock.advance(hours=5)
    assert await service.time_left(info) == 7 * HOUR
    move = str(info.match.legal_moves()[0])
    result = await service.play(info.id, waiting_user(info), move)
    after = await service.match(result.info.id)
    assert await service.time_left(after) == 12 * HOUR


async def test_games_from_before_clocks_follow_the_server(service, clock):
    info = await start(service, clock_hours=1)
    async with service.store.transaction() as tx:
        await tx.run("UPDATE matches SET clock_hours = NULL WHERE id = ?", (info.id,))
    await service.update_settings(GUILD, is_manager=True, reminder_hours=2, forfeit_hours=12)
    assert await service.time_left(await service.match(info.id)) == 12 * HOUR
    steps = await timeline(None, clock, service, info.id, [1.5, 1.0, 9.0, 1.0])
    assert steps == [(0, 0), (1, 0), (0, 0), (0, 1)]


async def test_reminder_hours_reminds_the_games_on_the_servers_forfeit_time(service, clock):
    """A game whose challenge chose no clock (it takes the server's forfeit time) reminds
    `reminder_hours` after the turn began; a chosen clock keeps its third (issue 39)."""
    await service.update_settings(GUILD, is_manager=True, reminder_hours=12)
    default = await start(service)
    chosen = await start(service, clock_hours=72, channel=CHANNEL + 1)
    assert default.clock_hours == chosen.clock_hours == 72
    reminded: list[tuple[float, int]] = []
    for hours in (11.9, 0.2, 11.8, 0.2):
        clock.advance(hours=hours)
        work = await service.due()
        reminded += [(hours, r.match_id) for r in work.reminders]
    # 12 h: the default game's reminder, not before; 24 h: the chosen 72 h clock's third.
    assert reminded == [(0.2, default.id), (0.2, chosen.id)]
    lines = "\n".join(await settings_lines(_Front(), await service.store.settings(GUILD), GUILD))
    assert "turn reminder after 12 h (games with their own clock: at a third of it)" in lines


async def test_default_settings_remind_after_24_hours(service, clock):
    info = await start(service)
    steps = await timeline(None, clock, service, info.id, [23.9, 0.2, 47.8, 0.2])
    assert steps == [(0, 0), (1, 0), (0, 0), (0, 1)]  # reminded at 24 h, lost at 72 h


async def test_a_reminder_after_the_forfeit_never_comes(service, clock):
    await service.update_settings(GUILD, is_manager=True, reminder_hours=100, forfeit_hours=24)
    info = await start(service)
    steps = await timeline(None, clock, service, info.id, [23.9, 0.2, 80.0])
    assert steps == [(0, 0), (0, 1), (0, 0)]


# Vacations -------------------------------------------------------------------------------------


async def test_a_vacation_stops_the_clock_and_moves_both_deadlines_by_its_length(service, clock):
    info = await start(service, clock_hours=24)
    away = waiting_user(info)
    clock.advance(hours=2)
    status = await service.vacations.start(GUILD, away, 3)
    assert status.until == clock.now() + 3 * DAY and status.used == 3 and status.left == 18
    before = await service.time_left(await service.match(info.id))
    clock.advance(hours=50)
    seen = await service.match(info.id)
    timing = await service.timing(seen)
    assert timing.left == before == 22 * HOUR and timing.stopped
    assert timing.away[seen.to_decide] == status.until
    # Without the vacation the reminder was due at 8 h and the forfeit at 24 h; both moved
    # by the 72 h away: reminder at 80 h, forfeit at 96 h after the move.
    reminder_at = 24 * REMINDER_SHARE + 72
    steps = await timeline(None, clock, service, info.id, [reminder_at - 52 - 0.01, 0.02])
    assert steps == [(0, 0), (1, 0)]
    clock.advance(hours=96 - reminder_at - 0.02)
    assert (await service.due()).forfeits == []
    clock.advance(hours=0.02)
    forfeits = (await service.due()).forfeits
    assert [f.info.id for f in forfeits] == [info.id]


async def test_ending_a_vacation_early_restarts_the_clock_at_once(service, clock):
    info = await start(service, clock_hours=1)
    away = waiting_user(info)
    clock.advance(hours=0.25)
    await service.vacations.start(GUILD, away, 2)
    clock.advance(hours=30)
    status = await service.vacations.end(GUILD, away)
    assert status.until is None and status.used == 2  # 30 h away: two days begun
    assert await service.time_left(await service.match(info.id)) == pytest.approx(0.75 * HOUR)
    # 15 min were used before; the reminder (20 min) comes 5 min after the return.
    steps = await timeline(None, clock, service, info.id, [0.08, 0.01, 0.6, 0.1])
    assert steps == [(0, 0), (1, 0), (0, 0), (0, 1)]


async def test_the_opponents_clock_runs_during_a_vacation(service, clock):
    info = await start(service, clock_hours=12)
    other = info.players[1 - info.to_decide]
    await service.vacations.start(GUILD, other, 5)
    clock.advance(hours=12)
    assert [f.info.id for f in (await service.due()).forfeits] == [info.id]


async def test_vacation_refusals_change_nothing(service, clock):
    with pytest.raises(Refused, match="not on vacation"):
        await service.vacations.end(GUILD, ALICE.id)
    with pytest.raises(Refused, match="21 days of vacation left"):
        await service.vacations.start(GUILD, ALICE.id, 22)
    await service.vacations.start(GUILD, ALICE.id, 15)
    with pytest.raises(Refused, match="already on vacation"):
        await service.vacations.start(GUILD, ALICE.id, 1)
    clock.advance(hours=24 * 15 + 1)
    with pytest.raises(Refused, match="6 days of vacation left"):
        await service.vacations.start(GUILD, ALICE.id, 7)
    await service.vacations.start(GUILD, ALICE.id, 6)
    clock.advance(hours=24 * 6)
    with pytest.raises(Refused, match="used all your vacation"):
        await service.vacations.start(GUILD, ALICE.id, 1)
    status = await service.vacations.status(GUILD, ALICE.id)
    assert (status.until, status.used, status.left) == (None, 21, 0)
    # Each server has its own allowance; a server may allow none.
    await service.update_settings(GUILD + 1, is_manager=True, vacation_days=0)
    with pytest.raises(Refused, match="allows no vacation"):
        await service.vacations.start(GUILD + 1, BOB.id, 1)
    with pytest.raises(Refused, match="0 \\(no vacations\\) to 366"):
        await service.update_settings(GUILD, is_manager=True, vacation_days=400)
    rows = await service.store._all("SELECT * FROM vacations")
    assert len(rows) == 2


async def test_two_vacations_started_at_once_make_one(database, clock):
    svcs = [await open_service(database, clock) for _ in range(2)]
    try:
        results = await asyncio.gather(
            *(s.vacations.start(GUILD, CAROL.id, 3) for s in svcs), return_exceptions=True
        )
        assert sum(not isinstance(r, Exception) for r in results) == 1
        assert all(isinstance(r, Refused) for r in results if isinstance(r, Exception))
        rows = await svcs[0].store._all("SELECT * FROM vacations")
        assert len(rows) == 1
    finally:
        for s in svcs:
            await s.close()


async def test_tournament_games_ignore_vacations(service, clock):
    info = await start(service)
    async with service.store.transaction() as tx:
        tid = await tx.insert(
            "INSERT INTO tournaments (guild_id, channel_id, creator_id, name, spec, format,"
            " rounds, round_hours, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (GUILD, CHANNEL, ALICE.id, "Cup", "{}", "swiss", 3, 72.0, clock.now()),
        )
        await tx.run(
            "UPDATE matches SET tournament_id = ?, clock_hours = NULL WHERE id = ?",
            (tid, info.id),
        )
    await service.vacations.start(GUILD, waiting_user(info), 10)
    clock.advance(hours=72)
    timing = await service.timing(await service.match(info.id))
    assert timing.left == 0 and not timing.stopped and timing.away == (None, None)
    assert [f.info.id for f in (await service.due()).forfeits] == [info.id]


# The clock's words -----------------------------------------------------------------------------


def test_durations_read_as_members_expect():
    from bot.front.game_clock_words import duration, per_move

    assert duration(2 * DAY + 3 * HOUR + 20 * 60) == "2 days 3 h"
    assert duration(DAY) == "1 day"
    assert duration(HOUR - 0.2) == "1 h"  # just after a move: the whole hour
    assert duration(5 * HOUR + 20 * 60) == "5 h 20 min"
    assert duration(20 * 60) == "20 min"
    assert duration(10) == "less than a minute"
    assert [per_move(h) for h in (1, 12, 24, 72, 168)] == [
        "1 hour per move",
        "12 hours per move",
        "1 day per move",
        "3 days per move",
        "7 days per move",
    ]
    assert per_move(36) == "36 hours per move" and per_move(None) == "no time limit per move"
    assert per_move(1.5) == "1 h 30 min per move"


@pytest.mark.parametrize("language", ["fr", "de"])
async def test_the_clocks_lines_are_translated(service, clock, language):
    import lang
    from bot.front import texts
    from bot.front.game_clock_words import duration, hand_lines, per_move
    from lang.catalogs import MISSES

    info = await start(service, clock_hours=24)
    mover = info.to_decide
    await service.vacations.start(GUILD, info.players[1 - mover], 2)
    await service.vacations.start(GUILD, info.players[mover], 1)
    await service.timing(info)

    def said() -> list[str]:
        return [
            texts.board_caption(info, []),
            "\n".join(hand_lines(info, mover)),
            "\n".join(hand_lines(info, 1 - mover)),
            *(per_move(h) for h in (None, 1, 12, 24, 72, 168, 1.5)),
            *(duration(s) for s in (10, 20 * 60, HOUR, 5 * HOUR + 60, DAY, 2 * DAY + HOUR)),
        ]

    english = said()
    assert "⏸ 1 day left on the clock, stopped." in english[0]
    assert english[0].count("is on vacation until") == 2
    MISSES.clear()
    with lang.speaking(language):
        translated = said()
    assert [m for m in MISSES if m[0] == language] == []
    for en, other in zip(english[:10], translated[:10], strict=True):
        assert other != en, en
    assert all("<t:" in line for line in translated[:3])
