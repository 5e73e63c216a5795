"""/schotten privacy: what is kept about a member, and deleting it. Their finished games keep
their moves and show them as "deleted member"; ratings leave the leaderboards; games under
way must end first; a manager may do the same in their server for a member who left it."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.errors import NotFound
from bot.records import Member
from bot.sandbox import running_bot
from bot.service import GameService
from bot.wording import deleted_member
from discord_loopback import SimulationError
from engine.api import MatchSpec
from lang import localise, speaking
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD
from tests.bot.test_service import play_random

OTHER = GUILD + 1


def as_member(member) -> Member:
    """A member of the emulator as the service knows them."""
    return Member(member.id, member.name)


async def finished_game(service: GameService, a: Member, b: Member, guild: int, channel: int):
    ch = await service.challenge(guild, channel, a, b, MatchSpec("classic"))
    info = await service.accept(ch.id, b.id)
    await play_random(service, info.id, random.Random(info.id))
    return await service.match(info.id)


def name_in(language: str, name) -> str:
    with speaking(language):
        return localise(name)


async def test_deleting_everything(service):
    here = await finished_game(service, ALICE, BOB, GUILD, CHANNEL)
    there = await finished_game(service, BOB, ALICE, OTHER, CHANNEL + 1)
    await service.remember_language(ALICE.id, "fr")
    await service.show_unseen(ALICE.id, True)
    await service.update_notifications(ALICE.id, pings=False)
    running = await service.accept(
        (await service.challenge(GUILD, CHANNEL + 2, ALICE, CAROL, MatchSpec("tactics"))).id,
        CAROL.id,
    )
    open_one = await service.challenge(OTHER, CHANNEL + 3, CAROL, ALICE, MatchSpec("siege"))
    data = await service.member_data(ALICE.id, GUILD)
    assert (data.named, data.language, data.unseen, data.notifications) == (True,) * 4
    assert (data.finished, data.active, data.rated_servers, data.challenges) == (2, 1, 2, 1)
    # A game under way must end first: nothing is deleted.
    refused = None
    try:
        await service.forget_member(ALICE.id)
    except Exception as e:
        refused = e
    assert refused is not None and "must end first" in str(refused)
    assert (await service.member_data(ALICE.id, GUILD)).rated_servers == 2
    await service.resign(running.id, ALICE.id)
    await service.forget_member(ALICE.id)
    data = await service.member_data(ALICE.id, GUILD)
    assert (data.named, data.language, data.unseen, data.notifications) == (False,) * 4
    assert (await service.notifications(ALICE.id)).pings  # back to the defaults
    assert (data.rated_servers, data.challenges) == (0, 0)
    assert data.finished == 3  # the games stay, with their moves
    for game in (here, there):
        after = await service.match(game.id)
        seat = after.seat_of(ALICE.id)
        assert after.names[seat] == deleted_member()
        assert after.names[1 - seat] == "Bob"
        assert [m for m in after.match.log] == [m for m in game.match.log]
    assert name_in("de", deleted_member()) != "deleted member"
    board = await service.leaderboard(GUILD, "st1")
    assert ALICE.id not in [e.user_id for e in board.entries]
    assert BOB.id in [e.user_id for e in board.entries]
    stats = await service.stats(GUILD, BOB.id)
    assert any(g.opponent_name == deleted_member() for g in stats.recent)
    with pytest.raises(NotFound):  # cancelled, and gone with the others
        await service.challenge_info(open_one.id)
    # Playing again later is a new start: the new game shows the name given then.
    again = await finished_game(service, Member(ALICE.id, "Alice B."), BOB, GUILD, CHANNEL)
    assert "Alice B." in (await service.match(again.id)).names
    assert (await service.match(here.id)).names[here.seat_of(ALICE.id)] == deleted_member()


async def test_a_manager_deletes_a_member_who_left_in_one_server_only(service):
    here = await finished_game(service, ALICE, BOB, GUILD, CHANNEL)
    there = await finished_game(service, ALICE, BOB, OTHER, CHANNEL + 1)
    await service.forget_member(ALICE.id, GUILD)
    assert (await service.match(here.id)).names[here.seat_of(ALICE.id)] == deleted_member()
    assert (await service.match(there.id)).names[there.seat_of(ALICE.id)] == "Alice"
    assert [e.user_id for e in (await service.leaderboard(GUILD, "st1")).entries] == [BOB.id]
    assert ALICE.id in [e.user_id for e in (await service.leaderboard(OTHER, "st1")).entries]
    data = await service.member_data(ALICE.id, OTHER)
    assert data.named and data.rated_servers == 1


async def test_through_discord(world):
    emu, guild, alice, bob, carol, db = world
    boss = guild.add_member("Manon", manage_guild=True)
    channel = guild.default_channel
    async with running_bot(emu, db) as bot:
        game = await finished_game(bot.service, as_member(alice), as_member(bob), guild.id, 77)
        answer = await (await alice.slash(("schotten", "privacy"), where=channel)).reply()
        assert answer.ephemeral and "What I keep about you" in answer.content
        assert "1 finished game, with its moves" in answer.content
        ask = await (await alice.click(answer, label="Delete my data…")).reply()
        assert ask.ephemeral and "cannot be undone" in ask.content
        await (await alice.click(ask, label="Yes, delete")).ack()
        for _ in range(200):
            if "Done: your data is deleted" in ask.content:
                break
            await asyncio.sleep(0.05)
        assert "Done: your data is deleted" in ask.content and not ask.buttons()
        data = await bot.service.member_data(alice.id, guild.id)
        assert not data.named and not data.language and data.finished == 1
        seat = game.seat_of(alice.id)
        assert (await bot.service.match(game.id)).names[seat] == deleted_member()
        # Another member's data: only for a manager, and only once they left the server.
        with pytest.raises(SimulationError, match="cannot see /schotten-admin"):
            await carol.slash(("schotten-admin", "privacy"), where=channel, member=bob)
        present = await (
            await boss.slash(("schotten-admin", "privacy"), where=channel, member=bob)
        ).reply()
        assert "still a member of this server" in present.content
        guild.remove_member(bob)
        about = await (
            await boss.slash(("schotten-admin", "privacy"), where=channel, member=bob)
        ).reply()
        assert "in this server" in about.content and "1 finished game" in about.content
        ask = await (await boss.click(about, label="Delete their data here…")).reply()
        await (await boss.click(ask, label="Yes, delete")).ack()
        for _ in range(200):
            if "Done: their data in this server is deleted" in ask.content:
                break
            await asyncio.sleep(0.05)
        assert "Done: their data in this server is deleted" in ask.content
        names = (await bot.service.match(game.id)).names
        assert tuple(names) == (deleted_member(), deleted_member())


# Where a deleted member's Discord id is kept (README.md, "Privacy"): their finished games'
# seats and tournament results, shown as "deleted member", so that their opponents' games,
# ratings and standings still add up; and the record of the deletion itself.
KEPT_IDS = {
    ("matches", "player0_id"),
    ("matches", "player1_id"),
    ("forgotten", "user_id"),
    ("tournament_players", "user_id"),
    ("tournament_games", "first_id"),
    ("tournament_games", "second_id"),
}


async def every_value(service: GameService):
    """(table, column, value) for every value of every table of the store."""
    store = service.store
    if store.backend == "sqlite":
        sql = "SELECT name FROM sqlite_master WHERE type = 'table'"
    else:
        sql = (
            "SELECT table_name AS name FROM information_schema.tables"
            " WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
        )
    tables = [str(r["name"]) for r in await store._all(sql)]
    assert {"matches", "tournament_players", "tournament_games", "users"} <= set(tables)
    for table in tables:
        for row in await store._all(f'SELECT * FROM "{table}"'):
            for column, value in dict(row).items():
                yield table, column, value


async def test_nothing_of_a_deleted_member_is_left_but_what_is_documented(service):
    """Every table, every column, after a deletion: no name, and the id only where kept."""
    from bot.tournament.service import Tournaments

    zelda = Member(8_765_432_109, "Zelda Quux")
    manager = Member(50, "Manon")
    tournaments = Tournaments(service)
    await finished_game(service, zelda, BOB, GUILD, CHANNEL)
    await finished_game(service, BOB, zelda, OTHER, CHANNEL + 1)
    await service.remember_language(zelda.id, "fr")
    # A finished tournament, and one she signed up for that has not started.
    t = await tournaments.create(
        guild_id=GUILD,
        channel_id=CHANNEL + 5,
        creator=manager,
        name="Friday",
        spec=MatchSpec("classic"),
        fmt="swiss",
        rounds=1,
        round_hours=None,
        is_manager=True,
    )
    for m in (zelda, BOB, CAROL, ALICE):
        await tournaments.join(t.id, m)
    await tournaments.start(t.id, manager.id, is_manager=True)
    for _t, p in await tournaments.to_start():
        info = await tournaments.start_game(p, 1000 + p.board)
        await play_random(service, info.id, random.Random(info.id))
    assert (await tournaments.advance()).finished == [t.id]
    later = await tournaments.create(
        guild_id=GUILD,
        channel_id=CHANNEL + 6,
        creator=manager,
        name="Saturday",
        spec=MatchSpec("classic"),
        fmt="swiss",
        rounds=1,
        round_hours=None,
        is_manager=True,
    )
    await tournaments.join(later.id, zelda)
    found = [v async for v in every_value(service)]
    assert any(isinstance(v, str) and "Zelda" in v for _t, _c, v in found)  # the test sees

    await service.forget_member(zelda.id)
    left = set()
    for table, column, value in [v async for v in every_value(service)]:
        text = value if isinstance(value, str) else ""
        if "Zelda" in text or "Quux" in text:
            left.add((table, column, "name"))
        if value == zelda.id or str(zelda.id) in text:
            left.add((table, column, "id"))
    assert {(t, c) for t, c, what in left if what == "id"} <= KEPT_IDS, left
    assert not {(t, c) for t, c, what in left if what == "name"}, left
    # The finished tournament still adds up, her seat shown as "deleted member"; she is out
    # of the one not started.
    done = await tournaments.get(t.id)
    names = [e.name for e in done.entrants]
    assert len(names) == 4 and deleted_member() in names and "Bob" in names
    assert sum(s.points for s in await tournaments.standings(done)) == 2.0
    assert (await tournaments.get(later.id)).entrant(zelda.id) is None
