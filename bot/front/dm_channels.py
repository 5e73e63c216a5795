"""Members' DM channels, opened once and remembered in the database.

Sending a DM needs the DM channel's id, which Discord gives in answer to `POST
/users/@me/channels`. discord.py keeps at most 128 DM channels in memory and none across a
restart, so `client.create_dm` asks Discord again for any member past those: at scale one
extra request per hand, each one counted against the undocumented limit on opening DMs
(403, 40003 "You are opening direct messages too fast"). A DM channel's id stays the same
for the bot and the member, so it is opened once, stored (`dm_channels`, shared by every
process and kept across restarts), and then written to as a partial messageable, with no
request but the message itself. Should Discord no longer know a stored id (10003 Unknown
Channel), the channel is opened afresh once and the new id kept.

Every DM of the bot goes through here: hands, notices of refused boards, the retirement of
an old hand's controls, late analyses and replays. A member whose DMs Discord refused
(50007, bot/refusals.py) gets no DM, opened or sent, until the refusal is lifted: the caller
hears `DmsClosed`, and a new refusal is remembered here.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import discord

from bot.refusals import CANNOT_DM, DMS, UNKNOWN_CHANNEL, Refusals
from bot.store import Store
from bot.time_source import Clock

log = logging.getLogger("schotten.bot")
T = TypeVar("T")
# A DM channel: its stored id as a partial messageable, or the channel just opened.
DmChannel = discord.PartialMessageable | discord.DMChannel
Act = Callable[[DmChannel], Awaitable[T]]


class DmsClosed(Exception):
    """The member's DMs were refused before (50007): nothing is asked of Discord."""

    def __init__(self, user_id: int) -> None:
        super().__init__(f"DMs to {user_id} were refused before, not tried again")
        self.user_id = user_id


class DmChannels:
    """The members' DM channels, over the store; every method is a coroutine."""

    def __init__(
        self, client: discord.Client, store: Store, refusals: Refusals, clock: Clock
    ) -> None:
        self.client = client
        self.store = store
        self.refusals = refusals
        self.clock = clock

    async def send(
        self, user_id: int, content: str | None = None, **kwargs: Any
    ) -> discord.Message:
        """A message to the member by DM (see `use`)."""

        files = [kwargs.get("file"), *(kwargs.get("files") or ())]

        async def post(channel: DmChannel) -> discord.Message:
            for file in files:  # from their start, if sent again to a channel opened afresh
                if isinstance(file, discord.File):
                    file.reset()
            return await channel.send(content, **kwargs)

        return await self.use(user_id, post)

    async def use(self, user_id: int, act: Act[T]) -> T:
        """`act(channel)` on the member's DM channel: the stored one, else opened (once)
        and stored. A stored channel Discord no longer knows is opened afresh and `act`
        run again (so `act` makes its message, files included, at each call).
        `DmsClosed` if the member's DMs were refused; a new 50007 is remembered."""
        if await self.refusals.dms_closed(user_id):
            raise DmsClosed(user_id)
        known = await self.store.dm_channel(user_id)
        try:
            if known is None:
                return await act(await self._open(user_id))
            try:
                return await act(self._partial(known))
            except discord.NotFound as e:
                if e.code != UNKNOWN_CHANNEL:
                    raise
                log.info("DM channel %s of %s is unknown to Discord: opened afresh", known, user_id)
            return await act(await self._open(user_id))
        except discord.Forbidden as e:
            if e.code == CANNOT_DM:  # not tried again until they use the bot (refusals.py)
                await self.refusals.note(DMS, user_id, e.code)
            raise

    def _partial(self, channel_id: int) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(channel_id, type=discord.ChannelType.private)

    async def _open(self, user_id: int) -> discord.DMChannel:
        """`POST /users/@me/channels`, and its id kept for every later DM."""
        channel = await self.client.create_dm(discord.Object(user_id))
        async with self.store.transaction() as tx:
            await self.store.put_dm_channel(tx, user_id, channel.id, self.clock.now())
        return channel
