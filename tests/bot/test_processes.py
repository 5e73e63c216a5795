"""Several processes on one database (on PostgreSQL as deployed with shards; on SQLite too,
for two services on one file): every race is settled in the database. Each service here has
its own connections (its own pool on PostgreSQL), as a separate bot process would."""

import asyncio
import itertools

import pytest

from bot.errors import Refused, ServiceError
from bot.ratings import after_game, initial
from bot.records import Member
from bot.service import GameService
from engine.api import MatchSpec
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, both_move

DAVE = Member(4, "Dave")


async def services(database, clock, n=2):
    return [
        await GameService.open(database, clock=clock, seeds=lambda i=i: 40 + i) for i in range(n)
    ]


async def close(svcs):
    for s in svcs:
        await s.close()


async def start(service, a=ALICE, b=BOB, channel=CHANNEL, variant="classic"):
    ch = await service.challenge(GUILD, channel, a, b, MatchSpec(variant))
    return await service.accept(ch.id, b.id)


def sequential_ratings(rounds: int) -> list[tuple[float, float]]:
    """Bob's (mu, sigma) after each round's two wins (over Alice, over Carol) applied one
    after the other, for every order of each round."""
    out = []
    for orders in itertools.product([0, 1], repeat=rounds):
        r = {n: initial() for n in ("alice", "bob", "carol")}
        for first in orders:
            for rival in ("alice", "carol") if first == 0 else ("carol", "alice"):
                r[rival], r["bob"] = after_game(r[rival], r["bob"], 1)
        out.append((r["bob"].mu, r["bob"].sigma))
    return out


async def test_two_games_ending_at_once_for_one_player_both_count(database, clock):
    a, b = await services(database, clock)
    try:
        # Bob plays Alice in one channel and Carol in another; both games end at once, in
        # two processes, each rating Bob from the rating it read.
        one = await start(a, ALICE, BOB, CHANNEL)
        two = await start(b, CAROL, BOB, CHANNEL + 1)
        for _ in range(3):  # a few rounds, so a lost update would show
            # A move each first: resigned before that, a game is aborted (rules notes R-28).
            await both_move(a, one.id)
            await both_move(b, two.id)
            await asyncio.gather(
                a.resign(one.id, ALICE.id),
                b.resign(two.id, CAROL.id),
            )
            one = await start(a, ALICE, BOB, CHANNEL)
            two = await start(b, CAROL, BOB, CHANNEL + 1)
        row = await a.store.rating(GUILD, "st1", BOB.id)
        assert row["rated_games"] == 6
        # Bob's rating is what the six wins give applied one after the other, in one of the
        # orders the two processes could commit them: none was computed from a stale read.
        assert any(
            bob == pytest.approx((row["mu"], row["sigma"]), abs=1e-9)
            for bob in sequential_ratings(rounds=3)
        )
    finally:
        await close([a, b])


async def test_each_timer_fires_once_whichever_processes_run(database, clock):
    svcs = await services(database, clock, 3)
    try:
        reminded = await start(svcs[0], ALICE, BOB, CHANNEL)
        forfeited = await start(svcs[0], CAROL, DAVE, CHANNEL + 1)
        ch = await svcs[0].challenge(GUILD, CHANNEL + 2, ALICE, CAROL, MatchSpec("siege"))
        clock.advance(hours=25)
        # The second game's player moves, so only the first is owed a reminder now.
        seat = forfeited.match.to_decide
        await svcs[1].play(
            forfeited.id,
            forfeited.players[seat],
            str(forfeited.match.legal_moves()[0]),
        )
        works = await asyncio.gather(*(s.due() for s in svcs))
        assert sum(len(w.reminders) for w in works) == 1
        assert sum(len(w.expired) for w in works) == 1  # the challenge expired after 24 h
        clock.advance(hours=80)
        works = await asyncio.gather(*(s.due() for s in svcs))
        assert sum(len(w.forfeits) for w in works) == 2  # both games, once each
        assert sum(len(w.reminders) for w in works) == 0
        for match_id in (reminded.id, forfeited.id):
            info = await svcs[2].match(match_id)
            assert info.is_over and info.match.outcome.termination.name == "TIMEOUT"
            assert [r["text"] for r in await svcs[2].store.moves(match_id)].count("timeout") == 1
        rows = await svcs[0].store._all("SELECT kind, match_id, challenge_id FROM outbox")
        assert sum(r["kind"] == "reminder" for r in rows) == 1
        assert sum(r["kind"] == "challenge" and r["challenge_id"] == ch.id for r in rows) == 1
    finally:
        await close(svcs)


async def test_one_active_game_per_channel_across_processes(database, clock):
    a, b = await services(database, clock)
    try:
        one = await a.challenge(GUILD, CHANNEL, ALICE, BOB, MatchSpec("classic"))
        two = await b.challenge(GUILD, CHANNEL, CAROL, DAVE, MatchSpec("siege"))
        results = await asyncio.gather(
            a.accept(one.id, BOB.id), b.accept(two.id, DAVE.id), return_exceptions=True
        )
        started = [r for r in results if not isinstance(r, BaseException)]
        refused = [r for r in results if isinstance(r, BaseException)]
        assert len(started) == 1 and len(refused) == 1
        assert isinstance(refused[0], Refused | ServiceError)
        assert "in progress" in str(refused[0])
        rows = await a.store._all("SELECT id FROM matches WHERE status = 'active'")
        assert len(rows) == 1
    finally:
        await close([a, b])


async def test_the_computers_turn_is_taken_by_one_process(database, clock):
    a, b = await services(database, clock)
    try:
        robot = Member(99, "Schotten", is_bot=True)
        ch = await a.challenge(
            GUILD,
            CHANNEL,
            ALICE,
            robot,
            MatchSpec("classic"),
            role="second",
            computer_id=robot.id,
            ai_level="easy",
        )
        info = await a.accept(ch.id, ALICE.id)
        assert info.to_decide == info.ai_seat
        claims = await asyncio.gather(a.claim_computer_turn(info), b.claim_computer_turn(info))
        assert sorted(claims) == [False, True]
        # A process that died with the turn leaves it to the others once its lease runs out.
        clock.advance(seconds=119)
        assert not await a.claim_computer_turn(info)
        clock.advance(seconds=2)
        assert await a.claim_computer_turn(info)
        # Playing the turn frees the claim, so the next decision is not held back.
        text = str(info.match.legal_moves()[0])
        await a.computer_move(info.id, text, expected_version=info.version)
        row = await b.store.match(info.id)
        assert row["ai_lease_until"] is None and row["version"] == info.version + 1
        # A claim is for one version: the old one can no longer be claimed.
        assert not await b.claim_computer_turn(info)
    finally:
        await close([a, b])


@pytest.mark.parametrize("workers", [2])
async def test_many_moves_from_several_processes_apply_each_once(database, clock, workers):
    svcs = await services(database, clock, workers)
    try:
        games = [
            await start(svcs[0], Member(10 + i, f"p{i}"), Member(50 + i, f"q{i}"), 1000 + i)
            for i in range(6)
        ]

        async def click_storm(match_id):
            # Each decision is sent by every process at once (a racing double click).
            for _ in range(40):
                info = await svcs[0].match(match_id)
                if info.is_over:
                    return
                seat = info.match.to_decide
                move = str(info.match.legal_moves()[0])
                await asyncio.gather(
                    *(
                        s.play(match_id, info.players[seat], move, expected_version=info.version)
                        for s in svcs
                    ),
                    return_exceptions=True,
                )

        await asyncio.gather(*(click_storm(g.id) for g in games))
        for g in games:
            info = await svcs[1].match(g.id)
            moves = await svcs[1].store.moves(g.id)
            assert [r["seq"] for r in moves] == list(range(len(moves)))
            assert [(seat, text) for seat, text in info.match.log] == [
                (r["seat"], r["text"]) for r in moves
            ]
            assert await svcs[1].verify(g.id)
    finally:
        await close(svcs)


async def test_a_hand_another_process_is_about_to_show_is_not_sent_by_dm(database, clock):
    # Alice's move leaves the decision with her (in Tactics she then picks a deck to draw
    # from): the process that made it shows her the hand in its reply, so no process sends
    # that hand by DM unless the reply fails to come.
    a, b = await services(database, clock)
    try:
        info = await start(a, variant="tactics")
        hand_row = None
        for _ in range(20):
            info = await a.match(info.id)
            seat = info.match.to_decide
            legal = [str(m) for m in info.match.legal_moves()]
            result = await a.play(info.id, info.players[seat], legal[0])
            if result.hand_row is not None:
                hand_row = result.hand_row
                break
        assert hand_row is not None, "no move left the decision with its player"

        def listed(rows):
            return hand_row in [r["id"] for r in rows]

        assert not listed(await a.pending_announcements())
        if a.store.single_process:
            # SQLite: one process at a time, so a hand written by another run is from a run
            # that has ended (a restart): nobody will show it, so it is sent at once.
            assert listed(await b.pending_announcements())
            return
        assert not listed(await b.pending_announcements())
        assert not listed(await b.pending_announcements(everything=True))  # b starting up
        clock.advance(seconds=25)  # the reply never came (a's process died): the DM goes out
        assert listed(await b.pending_announcements())
    finally:
        await close([a, b])
