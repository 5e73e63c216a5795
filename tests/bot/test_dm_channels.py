"""Members' DM channels are opened once (bot/front/dm_channels.py): discord.py keeps at most
128 DM channels in memory and none across a restart, so the bot remembers each member's DM
channel id in its database, and a hand costs no `POST /users/@me/channels` after a restart
or past discord.py's cache. Through the loopback Discord, with the real bot and a SQLite
file; the store's part on both stores."""

from __future__ import annotations

from types import SimpleNamespace

import discord
import pytest

from bot.front.dm_channels import DmChannels, DmsClosed
from bot.sandbox import running_bot
from discord_loopback import Emulator

from .conftest import ALICE, BOB
from .test_e2e import start_game
from .test_refusals import play_by_dm, players_of

OPEN_DM = "/users/@me/channels"
GONE = 4_242_424_242  # a DM channel id Discord does not know


def opened(emu: Emulator, since: int = 0) -> int:
    """How many DM channels the bot asked Discord to open since request number `since`."""
    return sum(1 for r in emu.requests[since:] if r.method == "POST" and r.path.endswith(OPEN_DM))


async def stored(bot, user_id: int) -> int | None:
    return await bot.service.store.dm_channel(user_id)


def crowd_out(bot, members: int = 129) -> None:
    """DM channels of `members` other members, opened after the players' as a bot with that
    many active players opens them: discord.py's own cache keeps the latest 128 only."""
    state = bot._connection
    for i in range(members):
        user = {"id": str(8_000_000 + i), "username": f"m{i}", "discriminator": "0", "avatar": None}
        state.add_dm_channel({"id": str(9_000_000 + i), "type": 1, "recipients": [user]})


async def test_after_a_restart_a_members_next_hand_opens_no_dm_channel(world):
    emu, guild, alice, bob, _, db = world
    players = players_of(alice, bob)
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        thread = emu.world.channel(info.channel_id)
        info = await play_by_dm(bot, emu, players, info.id, thread, 4)
        assert opened(emu) == 2  # each player had a hand: their DM channel was opened
    mark = len(emu.requests)
    # The same database, a new process: discord.py's cache is empty.
    async with running_bot(emu, db) as bot:
        hands = len(alice.dms) + len(bob.dms)
        info = await play_by_dm(bot, emu, players, info.id, thread, 6)
        assert len(alice.dms) + len(bob.dms) > hands  # hands went on by DM
        assert opened(emu, mark) == 0
        # Each one's, as it was opened before the restart: kept in the database.
        assert await stored(bot, alice.id) == alice.dm_channel.id
        assert await stored(bot, bob.id) == bob.dm_channel.id


async def test_over_a_game_each_members_dm_channel_is_opened_once(world):
    emu, guild, alice, bob, _, db = world
    players = players_of(alice, bob)
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        thread = emu.world.channel(info.channel_id)
        info = await play_by_dm(bot, emu, players, info.id, thread, 5)
    # The game goes on over two restarts (deploys), to its end.
    for moves in (8, 400):
        async with running_bot(emu, db) as bot:
            info = await play_by_dm(bot, emu, players, info.id, thread, moves)
    assert info.is_over
    hands = [
        m for m in alice.dms + bob.dms if any(a.filename.startswith("hand-") for a in m.attachments)
    ]
    assert len(hands) > 10
    assert opened(emu) == 2  # one DM channel per member, for the whole game


async def test_past_discord_pys_128_dm_channels_a_hand_opens_no_dm_channel(world):
    emu, guild, alice, bob, _, db = world
    players = players_of(alice, bob)
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob)
        thread = emu.world.channel(info.channel_id)
        info = await play_by_dm(bot, emu, players, info.id, thread, 3)
        assert opened(emu) == 2
        for _ in range(3):
            # 129 other members' DMs since: discord.py forgot the players' channels.
            crowd_out(bot)
            assert bot._connection._get_private_channel_by_user(alice.id) is None
            assert bot._connection._get_private_channel_by_user(bob.id) is None
            info = await play_by_dm(bot, emu, players, info.id, thread, 2)
        assert opened(emu) == 2


async def test_a_stored_dm_channel_discord_no_longer_knows_is_replaced(world):
    emu, guild, alice, bob, _, db = world
    players = players_of(alice, bob)
    async with running_bot(emu, db) as bot:
        store = bot.service.store
        async with store.transaction() as tx:  # ids Discord does not know (any more)
            await store.put_dm_channel(tx, alice.id, GONE, 0.0)
            await store.put_dm_channel(tx, bob.id, GONE + 1, 0.0)
        info = await start_game(bot, emu, guild, alice, bob)
        thread = emu.world.channel(info.channel_id)
        await play_by_dm(bot, emu, players, info.id, thread, 5)
        # Each stored id was tried once, answered 404 (10003), and replaced by the channel
        # opened afresh; every hand reached its player.
        unknown = [r for r in emu.requests if r.status == 404 and "/channels/" in r.path]
        assert sorted(r.path.rsplit("/", 2)[-2] for r in unknown) == [str(GONE), str(GONE + 1)]
        assert await stored(bot, alice.id) == alice.dm_channel.id
        assert await stored(bot, bob.id) == bob.dm_channel.id
        assert opened(emu) == 2
        for member in (alice, bob):
            assert any(a.filename.startswith("hand-") for m in member.dms for a in m.attachments)


async def test_the_store_keeps_replaces_and_forgets_a_dm_channel(service, clock):
    store = service.store
    assert await store.dm_channel(ALICE.id) is None
    async with store.transaction() as tx:
        await store.put_dm_channel(tx, ALICE.id, 2**62 + 5, clock.now())  # a snowflake
        await store.put_dm_channel(tx, BOB.id, 700, clock.now())
    assert await store.dm_channel(ALICE.id) == 2**62 + 5
    async with store.transaction() as tx:
        await store.put_dm_channel(tx, ALICE.id, 701, clock.now())
    assert await store.dm_channel(ALICE.id) == 701
    # A member's data deleted at their request (/schotten privacy) takes it too.
    await service.forget_member(ALICE.id, 0)
    assert await store.dm_channel(ALICE.id) is None
    assert await store.dm_channel(BOB.id) == 700


class _Channel:
    def __init__(self, client: _Client, channel_id: int) -> None:
        self.client = client
        self.id = channel_id

    async def send(self, content: str | None = None, **kwargs) -> SimpleNamespace:
        if self.client.closed:  # the member closed their DMs: Discord's 403, 50007
            response = SimpleNamespace(status=403, reason="Forbidden")
            message = {"code": 50007, "message": "Cannot send messages to this user"}
            raise discord.Forbidden(response, message)  # type: ignore[arg-type]
        self.client.sent.append((self.id, content))
        return SimpleNamespace(id=len(self.client.sent))


class _Client:
    """discord.py's client as DmChannels uses it: opening a DM channel, and a partial one."""

    def __init__(self) -> None:
        self.opened: list[int] = []
        self.sent: list[tuple[int, str | None]] = []
        self.closed = False

    async def create_dm(self, user) -> _Channel:
        self.opened.append(user.id)
        return _Channel(self, 600 + user.id)

    def get_partial_messageable(self, channel_id: int, *, type=None) -> _Channel:
        assert type is discord.ChannelType.private
        return _Channel(self, channel_id)


async def test_a_member_whose_dms_were_refused_gets_no_dm_opened_or_sent(service):
    client = _Client()
    dms = DmChannels(client, service.store, service.refusals, service.clock)  # type: ignore[arg-type]
    await dms.send(ALICE.id, "one")
    await dms.send(ALICE.id, "two")
    assert client.opened == [ALICE.id] and client.sent == [(601, "one"), (601, "two")]
    # Discord refuses a DM (50007): remembered in the one place every DM goes through...
    client.closed = True
    with pytest.raises(discord.Forbidden):
        await dms.send(ALICE.id, "three")
    assert await service.refusals.dms_closed(ALICE.id)
    # ...so the next one asks nothing of Discord (bot/refusals.py), nor opens a channel for
    # a member whose DMs are remembered closed.
    client.closed = False
    with pytest.raises(DmsClosed):
        await dms.send(ALICE.id, "four")
    await service.refusals.note("dms", BOB.id, 50007)
    with pytest.raises(DmsClosed):
        await dms.send(BOB.id, "five")
    assert client.opened == [ALICE.id] and len(client.sent) == 2
