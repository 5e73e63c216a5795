"""PostgreSQL restarted under load (`pg_ctl restart`, fast: every connection is cut): the
service reconnects by itself; a move in flight is either applied or refused with a clear
"try again", never half-written or doubled; every game still replays to its stored state."""

import asyncio
import random

from bot.errors import StaleMove
from bot.records import Member
from bot.service import GameService
from bot.store import StoreUnavailable
from engine.api import MatchSpec
from engine.errors import GameError

GUILD = 10


async def test_a_restart_under_load_loses_and_doubles_nothing(pg_cluster, pg_url, clock):
    service = await GameService.open(pg_url, clock=clock, seeds=lambda: 11)
    try:
        games = []
        for i in range(8):
            a, b = Member(2 * i + 1, f"a{i}"), Member(2 * i + 2, f"b{i}")
            ch = await service.challenge(GUILD, 500 + i, a, b, MatchSpec("tactics"))
            games.append((await service.accept(ch.id, b.id)).id)
        outcomes = {"applied": 0, "try again": 0}
        acknowledged: dict[int, int] = {g: 0 for g in games}  # moves the service confirmed
        stop = asyncio.Event()

        async def player(match_id: int, rng: random.Random) -> None:
            while not stop.is_set():
                try:
                    info = await service.match(match_id)
                except StoreUnavailable:
                    outcomes["try again"] += 1
                    await asyncio.sleep(0.05)
                    continue
                if info.is_over:
                    return
                seat = info.match.to_decide
                move = str(rng.choice(info.match.legal_moves()))
                try:
                    await service.play(
                        match_id, info.players[seat], move, expected_version=info.version
                    )
                except StoreUnavailable as e:
                    assert "try again" in str(e)
                    outcomes["try again"] += 1
                    await asyncio.sleep(0.05)
                    continue
                except (StaleMove, GameError):
                    continue  # the move had been stored before the connection broke
                outcomes["applied"] += 1
                acknowledged[match_id] += 1
                # Paced, so that the games are still under way when the server restarts.
                await asyncio.sleep(0.03)

        players = [asyncio.create_task(player(g, random.Random(g))) for g in games]
        await asyncio.sleep(0.5)
        assert not all(t.done() for t in players)
        await asyncio.to_thread(pg_cluster.restart)
        await asyncio.sleep(2.0)  # moves go on after the restart
        stop.set()
        await asyncio.gather(*players)
        assert outcomes["try again"] > 0, "the restart was not felt: the test proves nothing"
        assert outcomes["applied"] > 0
        for g in games:
            info = await service.match(g)
            moves = await service.store.moves(g)
            # Every acknowledged move is stored, once, in order, and the game replays.
            assert [r["seq"] for r in moves] == list(range(len(moves)))
            assert len(moves) >= acknowledged[g]
            assert info.version >= acknowledged[g]
            assert await service.verify(g)
        # After the restart the service works without being reopened.
        info = await service.match(games[0])
        if not info.is_over:
            seat = info.match.to_decide
            await service.play(games[0], info.players[seat], str(info.match.legal_moves()[0]))
    finally:
        await service.close()
