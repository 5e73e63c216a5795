"""migrate-db: a SQLite database full of real games copied into PostgreSQL (and back), then
played on; refusals (a target holding data, a missing source) and failures (mid-copy, a
match that does not replay) leave what they say they leave."""

import itertools
import json
import random

import pytest

from bot.service import GameService
from bot.store import open_store
from bot.store.migrate import (
    NOT_COPIED,
    TABLES,
    CheckFailed,
    CopyFailed,
    MigrationError,
    SourceMissing,
    TargetNotEmpty,
    migrate_database,
)
from bot.tournament.service import Tournaments
from engine.api import MatchSpec
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, ROBOT
from tests.bot.test_service import play_random, start

OTHER_GUILD = 11


async def build_source(path, clock):
    """A SQLite database as a bot leaves it after a while: finished and running games of
    several variants, a game against the computer, open and closed challenges, changed
    settings, ratings, and announcements sent, pending and dead."""
    seeds = itertools.count(5000)
    svc = await GameService.open(path, clock=clock, seeds=lambda: next(seeds))
    try:
        await svc.update_settings(
            GUILD, is_manager=True, forfeit_hours=0, reminder_hours=2, use_threads=False
        )
        await svc.update_settings(OTHER_GUILD, is_manager=True, challenge_hours=5, language="de")
        await svc.remember_language(ALICE.id, "fr")
        await svc.remember_language(BOB.id, "de-DE")
        await svc.update_notifications(BOB.id, turn_dm=False)
        await svc.update_notifications(CAROL.id, pings=False, reminders=False)
        await svc.show_unseen(ALICE.id, True)  # issue 29: her hands show the unseen cards
        await svc.forget_member(CAROL.id, OTHER_GUILD)  # issue 30: she left that server
        await svc.vacations.start(OTHER_GUILD, CAROL.id, 2)  # a member on vacation
        await svc.refusals.note("dms", BOB.id, 50007)  # issue 38: his DMs were refused
        await svc.refusals.note("channel", CHANNEL + 9, 50013, parent_id=CHANNEL)
        async with svc.store.transaction() as tx:  # issue 38: Alice's DM channel, opened once
            await svc.store.put_dm_channel(tx, ALICE.id, 777_001, clock.now())
        rng = random.Random(11)
        # Finished, rated games of both games.
        for n, (variant, spec) in enumerate(
            [("classic", {"rounds": 2}), ("tactics", {}), ("siege", {}), ("siege", {})]
        ):
            info = await start(svc, variant, channel=CHANNEL + n, **spec)
            await play_random(svc, info.id, rng)
            clock.advance(seconds=30)
        info = await start(svc, "expert", channel=CHANNEL + 4)
        await play_random(svc, info.id, rng, moves=8)
        await svc.resign(info.id, BOB.id)
        # Running games: some moves in, each waiting for a player.
        for n, variant in enumerate(["siege-tactics", "tactics", "classic"]):
            info = await start(svc, variant, channel=CHANNEL + 10 + n)
            await play_random(svc, info.id, rng, moves=7 + n)
            await svc.set_board_message(info.id, 900_000 + n)
        # Against the computer (not rated), still running.
        ch = await svc.challenge(
            GUILD, CHANNEL + 20, ALICE, ROBOT, MatchSpec(), computer_id=ROBOT.id, ai_level="hard"
        )
        info = await svc.accept(ch.id, ALICE.id)
        if info.match.to_decide == info.ai_seat:
            await svc.computer_move(
                info.id, str(info.match.legal_moves()[0]), expected_version=info.version
            )
        # A tournament under way: players, round 1 paired, a game started in its thread.
        tournaments = Tournaments(svc)
        t = await tournaments.create(
            guild_id=GUILD,
            channel_id=CHANNEL + 40,
            creator=CAROL,
            name="Autumn Swiss",
            spec=MatchSpec("classic"),
            fmt="swiss",
            rounds=2,
            round_hours=48,
            is_manager=True,
        )
        for member in (ALICE, BOB, CAROL):
            await tournaments.join(t.id, member)
        await tournaments.start(t.id, CAROL.id, is_manager=True)
        ((_, pairing),) = await tournaments.to_start()
        await tournaments.start_game(pairing, CHANNEL + 41)
        # Challenges: open, declined, cancelled, expired (which announces itself).
        ch = await svc.challenge(GUILD, CHANNEL + 30, CAROL, BOB, MatchSpec("siege"))
        await svc.set_challenge_message(ch.id, 800_001)
        ch = await svc.challenge(GUILD, CHANNEL + 31, ALICE, CAROL, MatchSpec())
        await svc.decline(ch.id, CAROL.id)
        ch = await svc.challenge(GUILD, CHANNEL + 32, BOB, ALICE, MatchSpec("tactics"))
        await svc.cancel(ch.id, BOB.id)
        await svc.challenge(OTHER_GUILD, CHANNEL + 33, BOB, CAROL, MatchSpec())
        # Open challenges: one waiting for a taker (of a role), one taken.
        ch = await svc.challenge(GUILD, CHANNEL + 34, ALICE, None, MatchSpec(), for_role_id=555)
        await svc.set_challenge_message(ch.id, 800_002)
        ch = await svc.challenge(GUILD, CHANNEL + 35, BOB, None, MatchSpec("siege"))
        await svc.accept(ch.id, CAROL.id, taker=CAROL)
        clock.advance(hours=6)
        work = await svc.due()  # reminders for the running games, the expired challenge
        assert work.reminders and work.expired
        # Announcements in every state.
        rows = await svc.pending_announcements(everything=True)
        assert len(rows) > 10
        await svc.claim_announcement(rows[0]["id"])
        await svc.announced(rows[0]["id"], message_id=700_001)
        await svc.announced(rows[1]["id"], status="skipped")
        await svc.announced(rows[2]["id"], status="dead", error="Missing Access")
        await svc.claim_announcement(rows[3]["id"])
        await svc.retry_announcement(rows[3]["id"], "503 Service Unavailable")
    finally:
        await svc.close()


async def dump(database):
    """Every row of every table, in primary-key order, as dicts."""
    store = await open_store(database)
    try:
        return {
            table: [
                dict(r)
                for r in await store._all(f"SELECT * FROM {table} ORDER BY {', '.join(key)}")
            ]
            for table, key in TABLES.items()
        }
    finally:
        await store.close()


async def standings(svc):
    """What players see of the past: leaderboards, stats, recent games, exports."""
    out = {}
    for game in ("st1", "st2"):
        out[game] = await svc.leaderboard(GUILD, game)
    for user in (ALICE.id, BOB.id, CAROL.id):
        out[f"stats {user}"] = await svc.stats(GUILD, user)
        out[f"recent {user}"] = await svc.recent_games(GUILD, user, limit=50)
    out["against"] = await svc.stats(GUILD, ALICE.id, against=BOB.id)
    rows = await svc.store._all("SELECT id FROM matches ORDER BY id")
    for r in rows:
        out[f"export {r['id']}"] = await svc.export(r["id"])
    return out


def described(info):
    return (
        info.id,
        info.guild_id,
        info.channel_id,
        info.players,
        info.names,
        info.spec,
        info.seed,
        info.version,
        info.status,
        json.dumps(info.match.to_json(), sort_keys=True),
        info.created_at,
        info.due_since,
        info.ai_seat,
        info.ai_level,
        info.board_message_id,
    )


async def test_every_table_of_the_bot_is_copied(tmp_path):
    # A migration that adds a table must add it to TABLES, or migrate-db refuses to copy.
    store = await open_store(tmp_path / "latest.sqlite3")
    try:
        assert sorted([*TABLES, *NOT_COPIED]) == await store.tables()
    finally:
        await store.close()


async def test_every_table_of_the_schema_is_known(database):
    store = await open_store(database)
    try:
        assert sorted(await store.tables()) == sorted([*TABLES, *NOT_COPIED])
    finally:
        await store.close()


async def test_sqlite_to_postgresql_copies_everything_and_play_goes_on(tmp_path, pg_url, clock):
    source = tmp_path / "schotten.sqlite3"
    await build_source(source, clock)
    before = await dump(source)
    lines = []
    # A small batch, so that every table is read and written in several batches.
    report = await migrate_database(source, pg_url, progress=lines.append, batch=7)

    assert report.counts == {table: len(rows) for table, rows in before.items()}
    assert all(report.counts.values())  # the source really has every kind of row
    assert report.matches_checked == len(before["matches"]) and report.failed == []
    assert "moves: " in "\n".join(lines) and "Replayed" in lines[-1]
    n = len(before["matches"])
    assert f"{n} {'match' if n == 1 else 'matches'} replayed" in report.summary()
    # Every row and column, ids included, equal in both.
    assert await dump(pg_url) == before
    assert await dump(source) == before  # the source is left as it was

    old = await GameService.open(source, clock=clock)
    seeds = itertools.count(9000)
    new = await GameService.open(pg_url, clock=clock, seeds=lambda: next(seeds))
    try:
        for row in before["matches"]:
            assert described(await new.match(row["id"])) == described(await old.match(row["id"]))
            assert await new.verify(row["id"])
        for row in before["challenges"]:
            assert await new.challenge_info(row["id"]) == await old.challenge_info(row["id"])
        assert await new.settings(GUILD) == await old.settings(GUILD)
        assert await new.settings(OTHER_GUILD) == await old.settings(OTHER_GUILD)
        assert await standings(new) == await standings(old)
        assert [r["id"] for r in await new.pending_announcements(everything=True)] == [
            r["id"] for r in await old.pending_announcements(everything=True)
        ]

        # A running game goes on where it was.
        running = await new.active_match(CHANNEL + 10)
        assert running is not None and running.version > 0
        seat = running.match.to_decide
        move = str(running.match.legal_moves()[0])
        result = await new.play(running.id, running.players[seat], move)
        assert result.info.version == running.version + 1
        assert await new.verify(running.id)

        # New rows get ids above the copied ones.
        top = {t: max(r["id"] for r in before[t]) for t in ("challenges", "matches", "outbox")}
        ch = await new.challenge(GUILD, CHANNEL + 40, CAROL, ALICE, MatchSpec("siege"))
        assert ch.id == top["challenges"] + 1
        info = await new.accept(ch.id, ALICE.id)
        assert info.id == top["matches"] + 1
        pending = await new.pending_announcements(info.id, everything=True)
        assert pending and min(r["id"] for r in pending) > top["outbox"]
    finally:
        await old.close()
        await new.close()

    # Copying again into what is now a database in use is refused, and changes nothing.
    after = await dump(pg_url)
    with pytest.raises(TargetNotEmpty, match=r"already holds data \(.*matches: \d+ rows") as e:
        await migrate_database(source, pg_url)
    assert e.value.counts["matches"] == len(after["matches"])
    assert "nothing was changed" in str(e.value)
    assert await dump(pg_url) == after

    # And back again, from PostgreSQL into a new SQLite file: the same rows once more.
    back = tmp_path / "back.sqlite3"
    report = await migrate_database(pg_url, back)
    assert report.failed == [] and report.matches_checked == len(after["matches"])
    assert await dump(back) == after


async def test_a_failure_in_the_middle_of_the_copy_leaves_the_target_empty(tmp_path, pg_url, clock):
    source = tmp_path / "schotten.sqlite3"
    svc = await GameService.open(source, clock=clock, seeds=lambda: 4)
    try:
        info = await start(svc, "tactics")
        await play_random(svc, info.id, random.Random(1), moves=5)
        # SQLite keeps a text where a time belongs; PostgreSQL refuses it, at the last table.
        async with svc.store.transaction() as tx:
            await tx.run(
                "INSERT INTO outbox (kind, payload, created_by, created_at, next_try)"
                " VALUES ('challenge', '{}', 'x', 'soon', 0)"
            )
    finally:
        await svc.close()
    with pytest.raises(CopyFailed, match="table outbox failed, so nothing was written"):
        await migrate_database(source, pg_url, batch=2)
    assert all(rows == [] for rows in (await dump(pg_url)).values())

    # Mended, the same target takes the copy: it was left empty indeed.
    store = await open_store(source)
    async with store.transaction() as tx:
        await tx.run("DELETE FROM outbox WHERE created_at = 'soon'")
    await store.close()
    report = await migrate_database(source, pg_url)
    assert report.counts["moves"] == 5 and report.failed == []


async def test_a_match_that_does_not_replay_fails_the_check(tmp_path, clock):
    source = tmp_path / "schotten.sqlite3"
    svc = await GameService.open(source, clock=clock, seeds=lambda: 4)
    try:
        good = await start(svc, "classic")
        await play_random(svc, good.id, random.Random(2), moves=4)
        bad = await start(svc, "siege", channel=CHANNEL + 1)
        await play_random(svc, bad.id, random.Random(3), moves=4)
        # A lost log entry: the stored state no longer follows from the moves.
        async with svc.store.transaction() as tx:
            await tx.run("DELETE FROM moves WHERE match_id = ? AND seq = 3", (bad.id,))
    finally:
        await svc.close()
    lines = []
    target = tmp_path / "copy.sqlite3"
    with pytest.raises(CheckFailed, match=f"1 of 2 match.* #{bad.id}.*drop and recreate") as e:
        await migrate_database(source, target, progress=lines.append)
    assert e.value.report.failed[0][0] == bad.id
    assert f"Match #{bad.id} failed the check" in "\n".join(lines)


async def test_a_missing_source_is_refused_and_not_created(tmp_path):
    missing = tmp_path / "schotten.sqlite3"
    target = tmp_path / "copy.sqlite3"
    with pytest.raises(SourceMissing, match=r"no database file at .*schotten.sqlite3"):
        await migrate_database(missing, target)
    assert not missing.exists() and not target.exists()


async def test_a_source_without_the_schema_or_the_same_database_is_refused(tmp_path, clock):
    empty = tmp_path / "empty.sqlite3"
    empty.touch()
    with pytest.raises(MigrationError, match="not a schotten-bot database"):
        await migrate_database(empty, tmp_path / "copy.sqlite3")
    assert not (tmp_path / "copy.sqlite3").exists()
    garbage = tmp_path / "notes.txt"
    garbage.write_text("not a database at all, just some words in a file\n" * 100)
    with pytest.raises(MigrationError, match=r"source .*notes\.txt is not a SQLite database"):
        await migrate_database(garbage, tmp_path / "copy.sqlite3")
    source = tmp_path / "schotten.sqlite3"
    await build_source_small(source, clock)
    with pytest.raises(MigrationError, match=r"target .*notes\.txt is not a SQLite database"):
        await migrate_database(source, garbage)
    with pytest.raises(MigrationError, match="the same database"):
        await migrate_database(source, tmp_path / "." / "schotten.sqlite3")


async def test_a_target_that_cannot_be_opened_is_named(tmp_path, pg_url, clock):
    source = tmp_path / "schotten.sqlite3"
    await build_source_small(source, clock)
    with pytest.raises(MigrationError, match=r"Cannot open the target .*_nowhere.*does not exist"):
        await migrate_database(source, pg_url + "_nowhere")


async def build_source_small(path, clock):
    svc = await GameService.open(path, clock=clock, seeds=lambda: 4)
    try:
        await start(svc)
    finally:
        await svc.close()
