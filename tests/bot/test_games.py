"""`/schotten games` and the hand's My games button (issue 29, item 2): a member's games under
way, the ones waiting on them first, each group longest waiting first, with their clocks,
links to their threads and open challenges; paged past 25. The service's order and clocks
on both stores; the member's view through the real discord.py client against the emulator
(on SQLite: the store's part is the service test's)."""

import re

import pytest

from bot.durations import duration
from bot.front.my_games import games_embed
from bot.my_games import PAGE_SIZE, ChallengeEntry, GameEntry, my_games
from bot.records import Member
from bot.sandbox import running_bot
from bot.service import GameService
from bot.time_source import ManualClock
from discord_loopback.world import MessageBody
from engine.api import MatchSpec
from lang import localise, speaking
from tests.bot.conftest import ALICE, BOB, CAROL, GUILD
from tests.bot.test_e2e import start_game

COMPUTER = Member(77, "Schotten Bot", is_bot=True)
OTHER_GUILD = 11
HOUR = 3600.0
PREVIOUS, NEXT = "◀ Previous", "Next ▶"


async def new_game(service, guild, channel, challenger, opponent, spec=None, **kwargs):
    """A game started straight through the service; the challenger moves first."""
    spec = spec or MatchSpec("classic", first=0)
    c = await service.challenge(guild, channel, challenger, opponent, spec, **kwargs)
    accepter = challenger.id if c.ai_level is not None else opponent.id
    return (await service.accept(c.id, accepter)).id


async def play_turn(service, match_id, user_id):
    """The member's whole turn, by the first legal moves (ending the turn when it may)."""
    info = await service.match(match_id)
    seat = info.seat_of(user_id)
    while info.status == "active" and info.to_decide == seat:
        legal = await service.legal_moves(match_id, user_id)
        move = "done" if "done" in legal else legal[0]
        info = (await service.play(match_id, user_id, move)).info


# The words -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seconds", "en", "fr", "de"),
    [
        (20, "less than a minute", "moins d'une minute", "weniger als eine Minute"),
        (45 * 60 + 59, "45 min", "45 min", "45 min"),
        (HOUR, "1 h", "1 h", "1 h"),
        (5 * HOUR + 20 * 60, "5 h 20 min", "5 h 20 min", "5 h 20 min"),
        (24 * HOUR + 30 * 60, "1 day", "1 jour", "1 Tag"),
        (51 * HOUR, "2 days 3 h", "2 jours 3 h", "2 Tage 3 h"),
        (-5, "less than a minute", "moins d'une minute", "weniger als eine Minute"),
    ],
)
def test_a_duration_in_words_in_each_language(seconds, en, fr, de):
    for language, words in (("en", en), ("fr", fr), ("de", de)):
        with speaking(language):
            assert localise(duration(seconds)) == words


# The service, on both stores -------------------------------------------------------------------


async def test_games_are_ordered_waiting_on_the_member_first_with_their_clocks(service, clock):
    await service.update_settings(GUILD, is_manager=True, forfeit_hours=48)
    start = clock.now()
    waits_on_alice = await new_game(service, GUILD, 201, ALICE, BOB)  # since start
    clock.advance(hours=1)
    waits_on_bob = await new_game(service, GUILD, 202, BOB, ALICE)  # Bob's turn, since +1 h
    elsewhere = await new_game(service, OTHER_GUILD, 301, ALICE, CAROL)  # forfeits: default
    clock.advance(hours=1)
    moved = await new_game(service, GUILD, 203, CAROL, ALICE)
    clock.advance(hours=1)
    await play_turn(service, moved, CAROL.id)  # waits on Alice since +3 h
    vs_computer = await new_game(
        service, GUILD, 204, ALICE, COMPUTER, computer_id=COMPUTER.id, ai_level="easy"
    )
    await play_turn(service, vs_computer, ALICE.id)  # waits on the computer since +3 h
    finished = await new_game(service, GUILD, 205, ALICE, CAROL)
    await service.resign(finished, CAROL.id)  # over: not listed
    not_hers = await new_game(service, GUILD, 206, BOB, CAROL)
    # Challenges: one Alice received, one she made, one she is not in.
    received = await service.challenge(GUILD, 207, BOB, ALICE, MatchSpec("tactics"))
    clock.advance(hours=1)
    made = await service.challenge(GUILD, 208, ALICE, CAROL, MatchSpec("siege"))
    await service.challenge(GUILD, 209, BOB, CAROL, MatchSpec("classic"))
    clock.advance(hours=2)
    now = clock.now()

    listed = await my_games(service, ALICE.id, GUILD)
    games = [e for e in listed.entries if isinstance(e, GameEntry)]
    assert [e.info.id for e in games] == [waits_on_alice, moved, waits_on_bob, vs_computer]
    assert [e.mine for e in games] == [True, True, False, False]
    assert (listed.mine, listed.theirs, listed.challenges) == (2, 2, 2)
    assert [e.waited / HOUR for e in games] == [6, 3, 5, 3]
    assert [e.left for e in games] == [
        start + 48 * HOUR - now,
        start + 51 * HOUR - now,
        start + 49 * HOUR - now,
        None,  # the computer is never out of time
    ]
    assert games[1].move_number > 1 and games[0].move_number == 1
    challenges = [e for e in listed.entries if isinstance(e, ChallengeEntry)]
    assert [(c.info.id, c.made) for c in challenges] == [(received.id, False), (made.id, True)]
    assert challenges[0].waited == 3 * HOUR and challenges[1].waited == 2 * HOUR
    assert listed.entries[-2:] == challenges  # after every game
    # From a DM: every server's games; forfeits off there: no clock.
    everywhere = await my_games(service, ALICE.id, None)
    ids = [e.info.id for e in everywhere.entries if isinstance(e, GameEntry)]
    assert ids == [waits_on_alice, elsewhere, moved, waits_on_bob, vs_computer]
    assert not_hers not in ids and finished not in ids
    # A game keeps the clock it started with (the server's forfeit time then: 72 h); one
    # started while the server has no forfeit on time has none.
    await service.update_settings(OTHER_GUILD, is_manager=True, forfeit_hours=0)
    assert await service.time_left(await service.match(elsewhere)) == 72 * HOUR - 5 * HOUR
    unclocked = await new_game(service, OTHER_GUILD, 302, ALICE, CAROL)
    assert await service.time_left(await service.match(unclocked)) is None
    # Past its deadline (before the timer ended it): no time left.
    clock.advance(hours=48)
    assert await service.time_left(await service.match(waits_on_alice)) <= 0
    # A challenge past its expiry is not offered any more, even before the timer closes it.
    listed = await my_games(service, ALICE.id, GUILD)
    assert not [e for e in listed.entries if isinstance(e, ChallengeEntry)]


async def test_a_tournament_games_clock_is_its_round_deadline_when_sooner(service, clock):
    from bot.tournament.service import Tournaments

    await service.update_settings(GUILD, is_manager=True, forfeit_hours=48)
    tournaments = Tournaments(service)
    t = await tournaments.create(
        guild_id=GUILD,
        channel_id=400,
        creator=ALICE,
        name="Cup",
        spec=MatchSpec("classic"),
        fmt="round-robin",
        rounds=None,
        round_hours=24,
        is_manager=True,
    )
    for member in (ALICE, BOB, CAROL):
        await tournaments.join(t.id, member)
    await tournaments.start(t.id, ALICE.id, is_manager=True)
    (_, pairing), *_ = await tournaments.to_start()
    info = await tournaments.start_game(pairing, 401)
    clock.advance(hours=2)
    # The round ends 24 h after its start, before the server's 48 h forfeit.
    assert await service.time_left(await service.match(info.id)) == 22 * HOUR
    (entry,) = (await my_games(service, info.players[0], GUILD)).entries
    assert entry.info.id == info.id and entry.left == 22 * HOUR
    # A forfeit sooner than the round's end is the clock.
    await service.update_settings(GUILD, is_manager=True, forfeit_hours=12)
    assert await service.time_left(await service.match(info.id)) == 10 * HOUR


async def test_a_full_page_with_long_names_and_links_fits_an_embed(tmp_path):
    service = await GameService.open(tmp_path / "long.sqlite3", clock=ManualClock())
    try:
        big = 10**18
        me = Member(ALICE.id, "Alice")
        spec = MatchSpec("tactics-expert", target=50, first=0)
        for n in range(30):
            them = Member(100 + n, f"Bartholomäus-Maximilian Hohen {n:02d}")
            await new_game(service, big + n, big + 100 + n, me, them, spec)
            service.clock.advance(seconds=n * 97)
        listed = await my_games(service, ALICE.id, None)
        for language in ("en", "fr", "de"):
            with speaking(language):
                embed, page = games_embed(listed, 1, in_dm=True)
            assert page == 1 and len(embed.fields) == PAGE_SIZE
            assert len(embed) <= 6000, (language, len(embed))
            for f in embed.fields:  # every link whole
                assert re.search(r"\(https://discord.com/channels/[0-9]{19}/[0-9]{19}\)", f.value)
    finally:
        await service.close()


# Through Discord ---------------------------------------------------------------------------------

LINK = re.compile(r"<#([0-9]+)>")


def fields(message):
    return message.embeds[0].get("fields", []) if message.embeds else []


def linked(message):
    """The channel or thread each entry of the page links to, in order."""
    found = []
    for f in fields(message):
        ids = LINK.findall(f["value"])
        assert len(ids) == 1, f["value"]
        found.append(int(ids[0]))
    return found


async def turn_page(emu, member, message, label, expect):
    """Click `label` and wait until the page shows the threads `expect`."""
    await (await member.click(message, label=label)).ack(timeout=10)
    await emu.bus.notifier.wait_until(
        lambda: linked(message) == expect, 10, lambda: (linked(message), expect)
    )


async def test_thirty_games_in_two_channels_ordered_paged_and_linked(emu_world):
    emu, guild, alice, bob, carol, db, clock = emu_world
    async with running_bot(emu, db, clock) as bot:
        service = bot.service
        await service.update_settings(guild.id, is_manager=True, forfeit_hours=720)
        parents = [guild.create_text_channel("games-a"), guild.create_text_channel("games-b")]
        me = Member(alice.id, "Alice")
        others = [Member(bob.id, "Bob"), Member(carol.id, "Carol")]
        mine, theirs = [], []  # (due since, thread) in the order made
        for n in range(30):
            parent = parents[n % 2]
            thread = emu.world.create_thread(parent, name=f"game {n}", owner=alice.user)
            other = others[n % 2]
            if n % 3 == 0:  # the opponent's turn: Alice moved
                mid = await new_game(service, guild.id, thread.id, me, other)
                clock.advance(seconds=60)
                await play_turn(service, mid, alice.id)
                theirs.append((clock.now(), thread.id))
            elif n % 3 == 1:  # Alice's turn, the opponent having moved
                mid = await new_game(service, guild.id, thread.id, other, me)
                clock.advance(seconds=60)
                await play_turn(service, mid, other.id)
                mine.append((clock.now(), thread.id))
            else:  # Alice's turn from the start
                mid = await new_game(service, guild.id, thread.id, me, other)
                mine.append((clock.now(), thread.id))
            # Waits of different lengths, not in the order made.
            clock.advance(hours=[5, 1, 3][n % 3])
        expected = [t for _, t in sorted(mine)] + [t for _, t in sorted(theirs)]
        assert len(expected) == 30

        answer = await (await alice.slash(("schotten", "games"), where=parents[0])).reply(
            timeout=10
        )
        assert answer.ephemeral and not bob.can_see(answer)
        assert linked(answer) == expected[:PAGE_SIZE]
        text = answer.embed_text()
        assert "20 games wait on you" in text and "10 games wait on your opponents" in text
        assert "Page 1 of 2" in text
        assert all("Your move" in f["value"] for f in fields(answer)[:20])
        assert all(
            "Bob to move" in f["value"] or "Carol to move" in f["value"]
            for f in fields(answer)[20:]
        )
        assert all("left" in f["value"] and "waiting" in f["value"] for f in fields(answer))
        # Each link is its game's thread, in the channel it was opened from.
        games = await service.games_under_way(alice.id, guild.id)
        by_thread = {g.channel_id: g for g in games}
        for f, thread_id in zip(fields(answer), linked(answer), strict=True):
            game = by_thread[thread_id]
            assert emu.world.channel(thread_id).parent in parents
            other = game.names[1 - game.seat_of(alice.id)]
            assert f["name"] == f"Schotten Totten against {other}"
        assert answer.button(PREVIOUS)["disabled"]

        await turn_page(emu, alice, answer, NEXT, expected[PAGE_SIZE:])
        assert "Page 2 of 2" in answer.embed_text() and answer.button(NEXT)["disabled"]
        # Another member cannot turn Alice's pages (here on a copy of her controls in public).
        copy = emu.world.post(
            parents[0],
            emu.world.bot,
            MessageBody({"content": "x", "components": answer.components}),
        )
        refused = await (await carol.click(copy, label=PREVIOUS)).reply(timeout=10)
        assert refused.ephemeral and "belongs to another member" in refused.content
        # A stale page is read again: a game that ended meanwhile is gone from it.
        ended = by_thread[expected[0]]
        await service.resign(ended.id, alice.id)
        await turn_page(emu, alice, answer, PREVIOUS, expected[1 : PAGE_SIZE + 1])
        await turn_page(emu, alice, answer, NEXT, expected[PAGE_SIZE + 1 :])
        # Carol's own list: her games (15, less the one ended), on one page, without buttons.
        hers = await (await carol.slash(("schotten", "games"), where=parents[1])).reply(timeout=10)
        assert len(fields(hers)) == 15 - (carol.id in ended.players) and not hers.buttons()
        await emu.assert_all_acknowledged()


async def test_no_games_points_at_the_challenge_command(emu_world):
    emu, guild, alice, bob, carol, db, clock = emu_world
    async with running_bot(emu, db, clock) as bot:
        await bot.service.challenge(
            guild.id,
            guild.default_channel.id,
            Member(bob.id, "Bob"),
            Member(carol.id, "Carol"),
            MatchSpec("classic"),
        )
        answer = await (
            await alice.slash(("schotten", "games"), where=guild.default_channel)
        ).reply(timeout=10)
        assert answer.ephemeral and not fields(answer) and not answer.buttons()
        text = answer.embed_text()
        assert "no game under way and no challenge pending in this server" in text
        assert re.search(r"</schotten challenge:[0-9]+>", text)


async def test_my_games_from_the_hand_dm_lists_every_server_with_jump_links(emu_world):
    emu, guild, alice, bob, carol, db, clock = emu_world
    other = emu.create_guild("Other Server")
    other.add_member("Alice", user=alice.user)
    dana = other.add_member("Dana")
    async with running_bot(emu, db, clock) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        player = alice if info.deciding_user == alice.id else bob
        opponent = bob if player is alice else alice
        me = Member(player.id, player.name)
        there = other.default_channel
        clock.advance(hours=1)
        away = await new_game(bot.service, other.id, there.id, me, Member(dana.id, "Dana"))
        clock.advance(hours=2)
        await bot.service.challenge(
            guild.id, guild.default_channel.id, Member(carol.id, "Carol"), me, MatchSpec("tactics")
        )
        hand = await emu.bus.notifier.wait_until(
            lambda: next((m for m in player.dms if m.attachments), None), 10, lambda: "no hand"
        )
        assert hand.button("My games")
        listing = await (await player.click(hand, label="My games")).reply(timeout=10)
        assert listing.channel.is_dm and listing.ephemeral
        text = listing.embed_text()
        assert "Your games in every server" in text
        values = [f["value"] for f in fields(listing)]
        assert len(values) == 3
        # Both games wait on the player: the older one (the start_game's) first.
        assert f"(https://discord.com/channels/{guild.id}/{info.channel_id})" in values[0]
        assert f"(https://discord.com/channels/{other.id}/{there.id})" in values[1]
        assert fields(listing)[0]["name"].endswith(f"against {opponent.name}")
        assert f"#{away}" in values[1] and "Your move" in values[0] and "Your move" in values[1]
        assert "Challenge received" in values[2]
        assert f"/channels/{guild.id}/{guild.default_channel.id}" in values[2]
        assert not LINK.search(text)  # no channel mentions: they do not open from a DM
        await emu.assert_all_acknowledged()


@pytest.fixture
async def emu_world(world):
    """The emulated server, with a manual clock for the bot."""
    emu, guild, alice, bob, carol, db = world
    yield emu, guild, alice, bob, carol, db, ManualClock()


async def test_an_open_challenge_is_listed_as_open_linked_to_its_message(world):
    """Issue 39, items 1 and 9: a member with an open challenge (anyone's, or a role's) gets
    their list, from /schotten games and from the hand's My games button, in each language;
    asked right after the challenge, its entry links to the challenge's message."""
    emu, guild, alice, bob, carol, db = world
    emu.world.set_manage_guild(carol, True)  # Carol holds the role "Moderator"
    role = next(r for r in guild.roles.values() if r.name == "Moderator")
    async with running_bot(emu, db) as bot:
        here = guild.default_channel
        post = await (await alice.slash(("schotten", "challenge"), where=here)).reply(timeout=10)
        assert "challenges any" in post.content
        # Right after the post: the link is to the challenge's message, not its channel.
        answer = await (await alice.slash(("schotten", "games"), where=here)).reply(timeout=10)
        (entry,) = fields(answer)
        assert entry["name"] == "Schotten Totten, open challenge", entry
        assert "Challenge sent" in entry["value"]
        assert f"(https://discord.com/channels/{guild.id}/{here.id}/{post.id})" in entry["value"]
        # A role's open challenge, elsewhere, named by its role.
        other = guild.create_text_channel("more")
        await (await alice.slash(("schotten", "challenge"), where=other, open_to=role)).reply(
            timeout=10
        )
        # The hand's My games button, from the DM: every server's, the open ones too.
        await start_game(bot, emu, guild, alice, bob, role="first")
        hand = await emu.bus.notifier.wait_until(
            lambda: next((m for m in alice.dms if m.attachments), None), 10, lambda: "no hand"
        )
        listing = await (await alice.click(hand, label="My games")).reply(timeout=10)
        names = [f["name"] for f in fields(listing)]
        assert names[1:] == ["Schotten Totten, open challenge"] * 2, names
        values = [f["value"] for f in fields(listing)]
        assert sum(f"Challenge sent** · for members of <@&{role.id}> · " in v for v in values) == 1
        # In French and German, as such too.
        listed = await my_games(bot.service, alice.id, None)
        for language, open_one, role_only in (
            ("fr", "Schotten Totten, défi ouvert", "pour les membres de"),
            ("de", "Schotten Totten, offene Herausforderung", "für Mitglieder von"),
        ):
            with speaking(language):
                embed, _ = games_embed(listed, 1, in_dm=True)
            assert [f.name for f in embed.fields][1:] == [open_one] * 2
            assert sum(f"{role_only} <@&{role.id}>" in f.value for f in embed.fields) == 1
        await emu.assert_all_acknowledged()
