"""Open challenges: `/schotten challenge` without an opponent, taken by the first member to
press Accept (only a member of its role, if it names one), through the real discord.py
client against the loopback Discord, on both stores; and the migration that made the
opponent optional."""

import asyncio
import json
from dataclasses import replace

import pytest

from bot.errors import Refused
from bot.records import Member
from bot.sandbox import running_bot, wait_for_game
from bot.service import GameService
from bot.store import open_store
from bot.store.migrations_sqlite import LATEST, MIGRATIONS
from bot.time_source import ManualClock
from engine.api import MatchSpec
from lang import message_of
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD

# The migration that made a challenge's opponent optional (found by what it adds, not by
# its number, which may change as migrations are merged).
OPEN = next(n for n, sql in enumerate(MIGRATIONS, start=1) if "for_role_id" in sql)


@pytest.fixture
def bot_database(database):
    """Both backends: who takes an open challenge is decided by the database."""
    return database


async def post_open(member, guild, **options):
    handle = await member.slash(("schotten", "challenge"), where=guild.default_channel, **options)
    post = await handle.reply(timeout=10)
    assert not post.ephemeral and "challenges any" in post.content, post.content
    return post


async def refusal(handle) -> str:
    """The private answer to a refused click."""
    (message,) = await handle.wait_until(lambda h: h.followups, timeout=10, what="a refusal")
    assert message.ephemeral
    return message.content


async def test_the_first_of_two_racing_members_takes_an_open_challenge(world):
    emu, guild, alice, bob, carol, db = world
    async with running_bot(emu, db) as bot:
        post = await post_open(alice, guild, game="tactics", rounds=3, role="second")
        assert "Alice challenges anyone to Schotten Totten, Tactics, 3 rounds!" in post.content
        assert "The first member to press **Accept** plays." in post.content
        assert "Alice will play second." in post.content
        assert [b["label"] for b in post.buttons()] == ["Accept"]  # nobody to decline it
        # Alice's own click is refused, and leaves it open.
        own = await alice.click(post, label="Accept")
        assert "cannot accept your own challenge" in await refusal(own)
        assert "/schotten cancel" in await refusal(own)
        # Bob and Carol press Accept at the same moment: one of them gets the game.
        clicks = await asyncio.gather(
            bob.click(post, label="Accept"), carol.click(post, label="Accept")
        )
        for handle in clicks:
            await handle.ack(timeout=10)
        info = await wait_for_game(bot, guild.id, alice.id)
        taker = bob if bob.id in info.players else carol
        other = carol if taker is bob else bob
        assert info.players == (alice.id, taker.id)  # Alice plays second, as she chose
        assert info.match.to_decide == 1
        edited = await emu.wait_for_message(
            lambda m: m.id == post.id and "took" in m.content, timeout=10
        )
        assert f"{taker.name} took Alice's open challenge" in edited.content
        assert edited.buttons() == []
        # The other was told who was quicker, privately, and nothing else happened.
        loser = clicks[1] if taker is bob else clicks[0]
        assert f"already taken by {taker.name}" in await refusal(loser)
        winner = clicks[0] if taker is bob else clicks[1]
        assert winner.followups == []
        assert len(await bot.service.active_matches_of(guild.id, alice.id)) == 1
        assert await bot.service.active_matches_of(guild.id, other.id) == []
        thread = emu.world.channel(info.channel_id)
        assert thread.name == f"Alice vs {taker.name}"
        assert [t.name for t in guild.threads] == [thread.name]  # the loser opened none
        await emu.assert_all_acknowledged()


async def test_racing_accepts_leave_no_empty_thread_and_no_refusal(world):
    """The bot may not delete a thread (the invite gives no Manage Threads: behaviour
    `invite_permissions`), so the click that loses the race must open none: the one thread
    left has the game, its board is there, and Discord refused the bot nothing."""
    emu, guild, alice, bob, carol, db = world
    async with running_bot(emu, db) as bot:
        post = await post_open(alice, guild, game="siege")
        clicks = await asyncio.gather(
            bob.click(post, label="Accept"), carol.click(post, label="Accept")
        )
        for handle in clicks:
            await handle.ack(timeout=10)
        await emu.wait_for_message(lambda m: m.id == post.id and "took" in m.content, timeout=10)
        info = await wait_for_game(bot, guild.id, alice.id)
        board = await emu.wait_for_message(
            lambda m: m.channel.id == info.channel_id and bool(m.attachments), timeout=10
        )
        assert board.channel.is_thread and [t.id for t in guild.threads] == [info.channel_id]
        assert (await bot.service.active_match(info.channel_id)).id == info.id
        assert await bot.service.active_match(guild.default_channel.id) is None
        assert [r for r in emu.requests if r.status == 403] == []
        await emu.assert_all_acknowledged()


async def test_a_challenge_open_to_a_role_is_refused_to_others(world):
    emu, guild, alice, bob, carol, db = world
    emu.world.set_manage_guild(carol, True)  # Carol holds the role "Moderator"; Bob does not
    role = next(r for r in guild.roles.values() if r.name == "Moderator")
    async with running_bot(emu, db) as bot:
        post = await post_open(alice, guild, game="siege", open_to=role)
        mention = f"<@&{role.id}>"
        assert f"Alice challenges any member of {mention} to Schotten Totten 2!" in post.content
        assert f"The first member of {mention} to press **Accept** plays." in post.content
        assert post.notified == []  # the role is named, not pinged
        refused = await bob.click(post, label="Accept")
        assert f"Only members of {mention} may accept this challenge." in await refusal(refused)
        (open_one,) = await bot.service.open_challenges(guild.default_channel.id, alice.id)
        assert open_one.status == "open" and open_one.opponent is None
        await (await carol.click(post, label="Accept")).ack(timeout=10)
        info = await wait_for_game(bot, guild.id, alice.id)
        assert set(info.players) == {alice.id, carol.id}
        await emu.wait_for_message(
            lambda m: m.id == post.id and "Carol took Alice's open challenge" in m.content,
            timeout=10,
        )
        # A role names an open challenge: not one to a member.
        reply = await (
            await bob.slash(
                ("schotten", "challenge"),
                where=guild.default_channel,
                opponent=alice,
                open_to=role,
            )
        ).reply()
        assert reply.ephemeral and "either an opponent or a role" in reply.content
        await emu.assert_all_acknowledged()


async def test_an_open_challenge_expires_or_is_cancelled(world):
    emu, guild, alice, bob, _, db = world
    clock = ManualClock()
    async with running_bot(emu, db, clock) as bot:
        post = await post_open(alice, guild)
        again = await (
            await alice.slash(("schotten", "challenge"), where=guild.default_channel)
        ).reply()
        assert again.ephemeral and "already have an open challenge" in again.content
        # Declining is for a challenge to someone: an open one waits, or is cancelled.
        assert (
            "no open challenge received"
            in (
                await (
                    await bob.slash(("schotten", "decline"), where=guild.default_channel)
                ).reply()
            ).content
        )
        clock.advance(hours=25)
        # A click in the moment before the bot noticed is refused all the same.
        late = await bob.click(post, label="Accept")
        assert "This challenge has expired." in await refusal(late)
        await bot.front.handle_due()  # what the timer loop runs
        edited = await emu.wait_for_message(
            lambda m: m.id == post.id and "nobody answered in time" in m.content, timeout=10
        )
        assert "Alice challenges anyone to Schotten Totten" in edited.content
        assert edited.buttons() == []
        assert await bot.service.active_matches_of(guild.id, bob.id) == []

        # A new one, cancelled by its challenger.
        post = await post_open(alice, guild)
        cancel = await (
            await alice.slash(("schotten", "cancel"), where=guild.default_channel)
        ).reply()
        assert cancel.ephemeral and cancel.content == "Your challenge is cancelled."
        await emu.wait_for_message(
            lambda m: m.id == post.id and "cancelled" in m.content and not m.buttons(),
            timeout=10,
        )
        await emu.assert_all_acknowledged()


# The service and the store ------------------------------------------------------------------


async def test_racing_takers_get_one_game_in_the_service(service, database, clock):
    ch = await service.challenge(GUILD, CHANNEL, ALICE, None, MatchSpec("siege"))
    assert ch.opponent is None and ch.for_anyone
    with pytest.raises(Refused, match="cannot accept your own"):
        await service.accept(ch.id, ALICE.id, taker=ALICE)
    # Two bot processes' services (each its own connections) take it at the same moment.
    other = await GameService.open(database, clock=clock)
    try:
        results = await asyncio.gather(
            service.accept(ch.id, BOB.id, taker=BOB, game_channel_id=CHANNEL + 1),
            other.accept(ch.id, CAROL.id, taker=CAROL, game_channel_id=CHANNEL + 2),
            return_exceptions=True,
        )
    finally:
        await other.close()
    games = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, Refused)]
    assert len(games) == 1 and len(refused) == 1, results
    (game,) = games
    taker = BOB if BOB.id in game.players else CAROL
    assert f"already taken by {taker.name}" in message_of(refused[0])
    info = await service.challenge_info(ch.id)
    assert info.status == "accepted" and info.opponent == taker and info.match_id == game.id
    assert game.names == ("Alice", taker.name)


async def test_a_role_restricted_challenge_in_the_service(service):
    ch = await service.challenge(GUILD, CHANNEL, ALICE, None, MatchSpec(), for_role_id=555)
    with pytest.raises(Refused, match="Only members of <@&555>"):
        await service.accept(ch.id, BOB.id, taker=BOB, roles=[GUILD, 554])
    info = await service.accept(ch.id, BOB.id, taker=BOB, roles=[GUILD, 555])
    assert info.players == (ALICE.id, BOB.id)
    # The @everyone role (the server's own id) restricts nothing.
    ch = await service.challenge(GUILD, CHANNEL + 1, ALICE, None, MatchSpec(), for_role_id=GUILD)
    assert ch.for_role_id is None


async def test_the_migration_keeps_challenges_and_what_refers_to_them(database, clock):
    store = await open_store(database, upto=OPEN - 1)
    async with store.transaction() as tx:
        await tx.run(
            "INSERT INTO challenges (id, guild_id, channel_id, challenger_id, opponent_id, spec,"
            " status, created_at, expires_at, message_id, ai_level)"
            " VALUES (4, 10, 100, 1, 2, ?, 'expired', 5.0, 6.0, 77, NULL)",
            (json.dumps(MatchSpec("tactics").to_json()),),
        )
        await tx.run(
            "INSERT INTO outbox (kind, challenge_id, payload, created_by, created_at, next_try)"
            " VALUES ('challenge', 4, '{}', 'x', 6.0, 6.0)"
        )
    await store.close()
    store = await open_store(database)
    try:
        assert await store.version() == LATEST
        row = await store.challenge(4)
        assert (row["opponent_id"], row["message_id"], row["status"]) == (2, 77, "expired")
        assert (row["for_anyone"], row["for_role_id"]) == (0, None)
        (pending,) = await store._all("SELECT challenge_id FROM outbox")
        assert pending["challenge_id"] == 4
        # Foreign keys hold again after the migration (SQLite turned them off for it).
        if store.backend == "sqlite":
            with pytest.raises(Exception, match="FOREIGN KEY"):
                async with store.transaction() as tx:
                    await tx.run(
                        "INSERT INTO outbox (kind, challenge_id, payload, created_by,"
                        " created_at, next_try) VALUES ('challenge', 999, '{}', 'x', 1, 1)"
                    )
    finally:
        await store.close()


# Their words in French and German ------------------------------------------------------------


def open_texts(service_info, taken_info) -> list[str]:
    """Everything an open challenge says, in the current language."""
    from bot.front import open_challenges as shown

    out = [
        shown.post(service_info),
        shown.post(replace(service_info, for_role_id=555)),
        shown.taken(taken_info, "<#5>"),
        shown.taken(taken_info),
    ]
    for first in (0, 1):
        for variant in ("classic", "siege"):
            spec = MatchSpec(variant, first=first)
            line = shown.seat_line(replace(service_info, spec=spec))
            assert line is not None
            out.append(line)
    return out


@pytest.mark.parametrize("language", ["fr", "de"])
async def test_open_challenges_speak_french_and_german(service, language):
    from lang import catalogs, speaking
    from tests.bot.words import problems_of, report

    names = ("Amélie", "Benoît")
    amelie, benoit = Member(ALICE.id, names[0]), Member(BOB.id, names[1])
    ch = await service.challenge(GUILD, CHANNEL, amelie, None, MatchSpec("tactics", rounds=3))
    info = await service.challenge_info(ch.id)
    taken = replace(info, opponent=benoit)
    refusals = []
    catalogs.MISSES.clear()
    with speaking(language):
        said = open_texts(info, taken)
        for call in (
            lambda: service.accept(ch.id, amelie.id, taker=amelie),
            lambda: service.challenge(GUILD, CHANNEL, amelie, None, MatchSpec()),
            lambda: service.challenge(
                GUILD, CHANNEL + 1, amelie, benoit, MatchSpec(), for_role_id=7
            ),
            lambda: service.decline(ch.id, benoit.id),
        ):
            with pytest.raises(Refused) as e:
                await call()
            refusals.append(message_of(e.value))
        role = await service.challenge(GUILD, CHANNEL + 2, amelie, None, MatchSpec(), for_role_id=7)
        with pytest.raises(Refused) as e:
            await service.accept(role.id, benoit.id, taker=benoit, roles=[GUILD])
        refusals.append(message_of(e.value))
        await service.accept(ch.id, benoit.id, taker=benoit)
        with pytest.raises(Refused) as e:
            await service.accept(ch.id, CAROL.id, taker=CAROL)
        refusals.append(message_of(e.value))
    assert [m for m in catalogs.MISSES if m[0] == language] == []
    found = problems_of(language, said + refusals, "open challenge", names)
    assert found == [], report(found)
    assert "Benoît" in refusals[-1] and "<@&7>" in refusals[-2]
