"""The outbox: what a change must announce is stored in the change's own transaction."""

import asyncio
import json
import random

import aiohttp
import pytest

from bot.errors import Refused, StaleMove
from bot.sandbox import running_bot
from bot.service import (
    DEFERRED_GRACE,
    OTHER_RUN_GRACE,
    RETRY_AFTER_LIMIT,
    RETRY_LIMIT,
    RETRY_MAX_DELAY,
)
from bot.time_source import ManualClock
from discord_loopback import Emulator
from engine.api import load_match

from .conftest import ALICE, BOB, GUILD, both_move
from .test_e2e import start_game
from .test_refusals import pending_board, players_of, statuses
from .test_service import play_random, start


async def pending(service):
    return await service.store.pending_announcements(float("inf"))


async def test_a_new_game_announces_its_board_and_the_first_hand(service):
    info = await start(service)
    rows = await pending(service)
    assert [(r["kind"], r["version"]) for r in rows] == [("board", 0), ("hand", 0)]
    board, hand = rows
    assert json.loads(board["payload"])["started"] is True
    assert hand["seat"] == info.match.to_decide and not hand["deferred"]


async def test_each_move_stores_its_board_with_the_position_it_shows(service):
    info = await start(service, "siege")
    for r in await pending(service):
        await service.announced(r["id"])
    rng = random.Random(4)
    for _ in range(12):
        info = await service.match(info.id)
        seat = info.match.to_decide
        await service.play(info.id, info.players[seat], str(rng.choice(info.match.legal_moves())))
        after = await service.match(info.id)
        rows = [r for r in await pending(service) if r["version"] == after.version]
        board = next(r for r in rows if r["kind"] == "board")
        # The board shows exactly the stored position of that version.
        assert load_match(json.loads(board["payload"])["state"]).to_json() == after.match.to_json()
        hands = [r for r in rows if r["kind"] == "hand"]
        assert [h["seat"] for h in hands] == [after.match.to_decide]
        # A hand owed to the mover again is theirs to show in the reply (deferred).
        assert hands[0]["deferred"] == (after.match.to_decide == seat)


async def test_a_refused_or_stale_move_announces_nothing(service):
    info = await start(service)
    before = len(await pending(service))
    waiting = info.players[1 - info.match.to_decide]
    with pytest.raises(Refused):
        await service.play(info.id, waiting, str(info.match.legal_moves()[0]))
    mover = info.players[info.match.to_decide]
    with pytest.raises(StaleMove):
        await service.play(info.id, mover, str(info.match.legal_moves()[0]), expected_version=5)
    assert len(await pending(service)) == before


async def test_deferred_hands_wait_for_the_reply_of_this_run_only(service, clock):
    info = await start(service, "siege")
    for r in await pending(service):
        await service.announced(r["id"])
    # Play until a move leaves the decision with the mover (the Attacker's turn goes on).
    rng = random.Random(2)
    while True:
        info = await service.match(info.id)
        seat = info.match.to_decide
        result = await service.play(
            info.id, info.players[seat], str(rng.choice(info.match.legal_moves()))
        )
        if result.hand_row is not None:
            break
        for r in await pending(service):
            await service.announced(r["id"])
    kinds = [r["kind"] for r in await service.pending_announcements(info.id)]
    assert kinds == ["board"]  # the hand waits for the reply that shows it
    clock.advance(seconds=DEFERRED_GRACE)
    kinds = [r["kind"] for r in await service.pending_announcements(info.id)]
    assert kinds == ["board", "hand"]  # no reply came: it goes by DM
    clock.advance(seconds=-DEFERRED_GRACE)
    service.boot = "another run"
    if service.store.single_process:
        # SQLite: another run of the bot is a restart after a crash; it sends it at once.
        assert [r["kind"] for r in await service.pending_announcements(info.id)] == [
            "board",
            "hand",
        ]
    else:
        # PostgreSQL: another process may be answering with it; it waits a little.
        assert [r["kind"] for r in await service.pending_announcements(info.id)] == ["board"]
        clock.advance(seconds=OTHER_RUN_GRACE)
        kinds = [r["kind"] for r in await service.pending_announcements(info.id)]
        assert kinds == ["board", "hand"]
    assert await service.announced_by_reply(result.hand_row)
    assert not await service.announced_by_reply(result.hand_row)  # done once


async def test_a_claimed_announcement_is_not_taken_twice_until_its_lease_ends(service, clock):
    await start(service)
    row = (await pending(service))[0]
    assert await service.claim_announcement(row["id"])
    assert not await service.claim_announcement(row["id"])
    clock.advance(seconds=61)
    assert await service.claim_announcement(row["id"])
    await service.release_announcements()
    if service.store.single_process:
        # SQLite: one process per file, so at start-up whatever an earlier run held is free.
        assert await service.claim_announcement(row["id"])
    else:
        # PostgreSQL: a process starting must not take what another live one is sending.
        assert not await service.claim_announcement(row["id"])
        clock.advance(seconds=61)
        assert await service.claim_announcement(row["id"])


async def test_a_passing_failure_backs_off_to_a_few_minutes_and_never_gives_up(service, clock):
    await start(service)
    row = (await pending(service))[0]
    delays = []
    for _ in range(3 * RETRY_LIMIT):  # hours of Discord's trouble
        assert await service.claim_announcement(row["id"])
        await service.retry_announcement(row["id"], "503 Service Unavailable")
        assert row["id"] not in [r["id"] for r in await service.pending_announcements()]
        again = await service.store.announcement(row["id"])
        assert again["status"] == "pending" and again["lease_until"] is None
        delays.append(again["next_try"] - clock.now())
        clock.advance(seconds=delays[-1])
        assert row["id"] in [r["id"] for r in await service.pending_announcements()]
    assert delays == sorted(delays) and delays[0] == 5 and delays[-1] == RETRY_MAX_DELAY
    assert sum(delays) > 2 * 3600
    vitals = await service.vitals()
    assert vitals.retrying >= 1 and vitals.retrying_seconds >= sum(delays)
    # A 429's own wait is kept, up to an hour.
    assert await service.claim_announcement(row["id"])
    await service.retry_announcement(row["id"], "429 banned", 7200.0)
    again = await service.store.announcement(row["id"])
    assert again["next_try"] - clock.now() == RETRY_AFTER_LIMIT
    clock.advance(seconds=RETRY_AFTER_LIMIT)
    assert await service.claim_announcement(row["id"])
    assert await service.announced(row["id"])
    assert (await service.vitals()).retrying == 0


async def test_a_failure_that_does_not_pass_gives_up(service, clock):
    await start(service)
    row = (await pending(service))[0]
    for _ in range(RETRY_LIMIT):
        assert await service.claim_announcement(row["id"])
        await service.retry_announcement(row["id"], "KeyError: 'x'", passing=False)
        clock.advance(seconds=RETRY_MAX_DELAY)
    assert (await service.store.announcement(row["id"]))["status"] == "dead"


async def test_reminders_forfeits_and_expiries_are_announced_from_the_outbox(service, clock):
    info = await start(service)
    for r in await pending(service):
        await service.announced(r["id"])
    await service.challenge(GUILD, 555, ALICE, BOB, info.spec)
    clock.advance(hours=25)
    work = await service.due()
    assert len(work.reminders) == 1 and len(work.expired) == 1
    kinds = sorted(r["kind"] for r in await pending(service))
    assert kinds == ["challenge", "reminder"]
    assert not (await service.due()).reminders  # once
    clock.advance(hours=48)
    work = await service.due()
    assert len(work.forfeits) == 1
    rows = await pending(service)
    board = next(r for r in rows if r["kind"] == "board")
    assert load_match(json.loads(board["payload"])["state"]).is_over
    # The reminder of a game that has since ended is no longer worth sending.
    reminder = next(r for r in rows if r["kind"] == "reminder")
    assert not (await service.announcement(reminder)).current


async def test_only_the_clock_ends_a_game_on_time(service, clock):
    # rules notes R-21
    info = await start(service)
    mover = info.players[info.match.to_decide]
    for text in ("timeout", "time out", "TIMEOUT "):
        with pytest.raises(Refused, match="Only the clock ends a game on time"):
            await service.play(info.id, mover, text)
    assert (await service.match(info.id)).version == 0
    clock.advance(hours=73)
    (forfeit,) = (await service.due()).forfeits
    assert forfeit.text == "timeout" and forfeit.finished


async def test_a_move_after_a_forfeit_says_the_game_ended_on_time(service, clock):
    info = await start(service)
    await both_move(service, info.id)  # before that, the clock aborts it (rules notes R-28)
    info = await service.match(info.id)
    mover = info.players[info.match.to_decide]
    legal = str(info.match.legal_moves()[0])
    clock.advance(hours=73)
    await service.due()
    late = info.names[info.players.index(mover)]
    for expected in (None, 0):
        with pytest.raises(Refused, match=f"ended on time \\({late} ran out of time\\)"):
            await service.play(info.id, mover, legal, expected_version=expected)


async def test_a_move_racing_a_forfeit_says_the_game_ended_on_time(service, clock):
    info = await start(service)
    await both_move(service, info.id)  # before that, the clock aborts it (rules notes R-28)
    info = await service.match(info.id)
    clock.advance(hours=73)
    await service.due()
    # The click was read before the forfeit was stored and written after it.
    with pytest.raises(StaleMove, match="ended on time"):
        await service._play_seat(info, info.match.to_decide, str(info.match.legal_moves()[0]), 0)


async def test_a_move_longer_than_any_move_is_refused_before_reading_it(service):
    info = await start(service)
    mover = info.players[info.match.to_decide]
    with pytest.raises(Refused, match="at most 100 characters"):
        await service.play(info.id, mover, "R7 " + "9" * 4301)


async def test_ids_beyond_sqlite_are_not_found(service):
    from bot.errors import NotFound

    for bad in (2**63, 2**64 + 5, -1):
        with pytest.raises(NotFound):
            await service.match(bad)
        with pytest.raises(NotFound):
            await service.challenge_info(bad)


async def test_a_full_game_leaves_nothing_unannounced_once_relayed(service):
    info = await start(service, "tactics")
    await play_random(service, info.id, random.Random(9))
    rows = await pending(service)
    boards = [r["version"] for r in rows if r["kind"] == "board"]
    final = await service.match(info.id)
    assert boards == list(range(final.version + 1))  # one board per stored version


async def play_until_private(service, info, rng, head):
    """Random moves, preferring the tactic cards that lead to a private move, until one of
    `head` ("return" or "give") is in the log."""
    for _ in range(400):
        info = await service.match(info.id)
        if any(text.split()[0] == head for _, text in info.match.log):
            return info
        assert not info.is_over, "the game ended before a private move"
        seat = info.match.to_decide
        legal = [str(m) for m in info.match.legal_moves()]
        keen = [m for m in legal if m.split()[0] in ("recruiter", "exchange", head)]
        keen = keen or [m for m in legal if m == "draw tactic"]
        await service.play(info.id, info.players[seat], rng.choice(keen or legal))
    raise AssertionError("no private move")


@pytest.mark.parametrize(("variant", "head"), [("tactics", "return"), ("siege-tactics", "give")])
async def test_a_running_games_record_hides_the_seed_and_private_cards(service, variant, head):
    # rules notes R-20
    info = await start(service, variant)
    info = await play_until_private(service, info, random.Random(3), head)
    log = info.match.log
    private = [(n, seat, text) for n, (seat, text) in enumerate(log) if text.split()[0] == head]
    text = await service.export(info.id)
    assert str(info.seed) not in text and "schotten-replay" not in text
    lines = text.splitlines()
    for n, seat, move in private:
        # The move in words, as the channel said it ("Bob put 1 clan card and 1 tactic card
        # back under the decks.", "Bob chose 3 cards to give."): who, not which cards.
        (said,) = [line for line in lines if line.startswith(f"{n + 1:4d}. ")]
        assert info.names[seat] in said and " card" in said, said
        assert not any(card in said.split() for card in move.split()[1:]), said
    # Once the game is over, the whole record: the replay block, seed and moves included.
    await service.resign(info.id, ALICE.id)
    text = await service.export(info.id)
    assert f"seed {info.seed}" in text.splitlines()
    assert all(f"{seat + 1} {move}" in text.splitlines() for _, seat, move in private)


# Through the emulator: Discord's trouble, a ban and DMs opened too fast pass -----------------

BOARD_POSTS = r"^/channels/\d+/messages(/\d+)?$"


def boards_posted(thread, info) -> list:
    name = f"board-{info.id}-{info.version}.png"
    return [m for m in thread.public_history() if any(a.filename == name for a in m.attachments)]


async def retry_until(bot, clock, info, *, seconds: float):
    """Discord keeps failing the board: the relay tries again at each due time (never more
    than a few minutes apart) for `seconds` of the clock; the board stays owed."""
    elapsed = 0.0
    while elapsed < seconds:
        row = await pending_board(bot, info.id)
        assert row is not None, "the board was given up"
        wait = row["next_try"] - clock.now()
        assert 0 < wait <= RETRY_AFTER_LIMIT
        clock.advance(seconds=wait)
        elapsed += wait
        await bot.front.relay.deliver(info.id)
    return await pending_board(bot, info.id)


async def test_an_outage_longer_than_50_minutes_is_delivered_once_discord_is_back(world):
    emu, guild, alice, bob, _, db = world
    clock = ManualClock()
    async with running_bot(emu, db, clock) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        thread = emu.world.channel(info.channel_id)
        players = players_of(alice, bob)
        # Two hours of 503s on every post and edit (the old outbox gave up after about 50
        # minutes): the move's board waits, backing off to RETRY_MAX_DELAY.
        outage = emu.refuse(503, 0, "Service Unavailable", path=BOARD_POSTS, when=lambda b: True)
        await players[info.deciding_user].move_by_clicks(thread, info.id, info.version)
        info = await bot.service.match(info.id)
        row = await retry_until(bot, clock, info, seconds=2 * 3600)
        assert row is not None and "503" in row["error"]
        assert row["next_try"] - clock.now() <= RETRY_MAX_DELAY
        vitals = await bot.service.vitals()
        assert vitals.retrying >= 1 and vitals.retrying_seconds >= 2 * 3600
        assert boards_posted(thread, info) == []
        outage.remove()
        clock.advance(seconds=RETRY_MAX_DELAY)
        await bot.front.relay.deliver(info.id)
        assert await pending_board(bot, info.id) is None
        assert len(boards_posted(thread, info)) == 1
        assert [s for _, s, _ in await statuses(bot, info.id)] == ["sent"] * (info.version + 1)


async def test_a_ban_is_waited_out(bot_database):
    clock = ManualClock()
    # A ban as Discord's Cloudflare gives it, after 3 invalid requests from this address.
    async with Emulator(clock=clock.now, invalid_request_limit=3, ban_seconds=2 * 3600) as emu:
        async with emu.point_discord():
            guild = emu.create_guild("Test Server")
            alice, bob = guild.add_member("Alice"), guild.add_member("Bob")
            async with running_bot(emu, bot_database, clock) as bot:
                info = await start_game(bot, emu, guild, alice, bob)
                thread = emu.world.channel(info.channel_id)
                players = players_of(alice, bob)
                once = emu.refuse(503, 0, "Service Unavailable", path=BOARD_POSTS, times=1)
                await players[info.deciding_user].move_by_clicks(thread, info.id, info.version)
                info = await bot.service.match(info.id)
                assert await pending_board(bot, info.id) is not None and once.hits
                # Another program on the bot's address sends a bad token three times.
                async with aiohttp.ClientSession() as http:
                    for _ in range(3):
                        bad = {"Authorization": "Bot wrong"}
                        async with http.get(f"{emu.api_base}/users/@me", headers=bad) as r:
                            assert r.status == 401
                row = await retry_until(bot, clock, info, seconds=3600)
                assert row is not None and "429" in row["error"]  # the ban's refusal
                assert boards_posted(thread, info) == []
                clock.advance(seconds=3600 + RETRY_MAX_DELAY)  # the ban is over
                await bot.front.relay.deliver(info.id)
                assert await pending_board(bot, info.id) is None
                assert len(boards_posted(thread, info)) == 1
        assert emu.max_invalid_requests() == 3  # the ban's refusals are not counted again


async def test_dms_opened_too_fast_are_retried_not_set_aside(world):
    emu, guild, alice, bob, _, db = world
    clock = ManualClock()
    async with running_bot(emu, db, clock) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        thread = emu.world.channel(info.channel_id)
        players = players_of(alice, bob)
        # Discord's 40003 (behaviour dm_open_limit) when the bot opens the other player's DM
        # for their first hand: the hand waits and goes out later, it is not set aside.
        too_fast = emu.refuse(
            403,
            40003,
            "You are opening direct messages too fast",
            method="POST",
            path=r"^/users/@me/channels$",
            times=1,
        )
        await players[info.deciding_user].move_by_clicks(thread, info.id, info.version)
        info = await bot.service.match(info.id)
        hand = None
        for _ in range(500):
            hand = await bot.service.store._one(
                "SELECT * FROM outbox WHERE match_id = ? AND kind = 'hand' AND version = ?",
                (info.id, info.version),
            )
            if hand is not None and hand["error"]:
                break
            await asyncio.sleep(0.02)
        assert too_fast.hits and hand is not None
        assert hand["status"] == "pending" and "40003" in hand["error"]
        clock.advance(seconds=hand["next_try"] - clock.now())
        await bot.front.relay.deliver(info.id)
        hand = await bot.service.store.announcement(hand["id"])
        assert hand["status"] == "sent"
        sent = emu.message(int(hand["message_id"]))
        assert [a.filename for a in sent.attachments] == [f"hand-{info.id}-{info.version}.png"]
