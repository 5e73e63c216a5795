"""Where Discord refused the bot for good, remembered so that no refused request is repeated
blindly (Discord bans an address past 10,000 refused requests in 10 minutes).

Three kinds, each a row of the `refusals` table, so that every process and a restart know
them:

- a member's DMs (`dms`): a DM answered 50007. No DM is tried again (hands, notices of
  refused boards) until the member next opens `/schotten settings` (where their DM
  notifications are), or next uses the bot in any way a day or more after the refusal:
  they may have opened their DMs meanwhile, and Discord never says so. Not at every use:
  a member with closed DMs plays by the board's Show my hand, a use of the bot at every
  turn, and would cost a refused DM at each. Meanwhile they hear of their turn in the
  game's channel, as after the first refusal. At most one refused DM a member a day.
- a channel (`channel`): a post there answered 50001 (no View Channel), 50013 (no Send
  Messages: the plainer forms are not tried) or 10003 (gone). Nothing is posted there again
  (boards, reminders, turn pings, tournament announcements) until an interaction in that
  channel shows, in its `app_permissions`, that the bot may post there again. The games
  there go on: hands by DM, `/schotten board` answered as the command's own reply.
- a server (`server`) the bot was removed from (GUILD_DELETE without `unavailable`,
  discord.py's `on_guild_remove`). Its games under way end at once, abandoned: no winner,
  no rating change (as a tournament game nobody moved in); its open challenges and live
  tournaments are cancelled; what was still to announce there is set aside. After that
  nothing is attempted for it: no timer, reminder, forfeit, tournament round or
  announcement, since none is left to make. Ending the games rather than letting them
  wait is the choice: a wait would have no end if the bot never comes back, and its
  players would be kept out of other games in that channel. Invited back (GUILD_CREATE),
  the mark is removed and the server starts afresh; the ended games stay ended.
"""

from __future__ import annotations

from bot.store import Store
from bot.time_source import Clock

DMS = "dms"
CHANNEL = "channel"
SERVER = "server"
# How long a member's refused DMs are not tried again, whatever they do but open their
# settings (Discord says nothing of it; chosen: at most one refused DM a member a day).
DMS_RETRY = 24 * 3600.0
# A match's termination when the bot was removed from its server: abandoned, as a tournament
# game nobody moved in (bot/tournament/service.py), so every list shows it so.
ABANDONED = "ABANDONED"
# Discord's JSON codes that close a channel to the bot's posts (opcodes-and-status-codes).
UNKNOWN_CHANNEL = 10003
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
THREAD_LOCKED = 160005  # a locked thread takes posts only from Manage Threads holders
CANNOT_DM = 50007
CHANNEL_CODES = frozenset({UNKNOWN_CHANNEL, MISSING_ACCESS, MISSING_PERMISSIONS, THREAD_LOCKED})


class Refusals:
    """The refusals remembered in the store, over its clock."""

    def __init__(self, store: Store, clock: Clock) -> None:
        self.store = store
        self.clock = clock

    async def dms_closed(self, user_id: int) -> bool:
        return await self.store.refused(DMS, user_id) is not None

    async def channel_closed(self, channel_id: int) -> int | None:
        """Discord's code when posting in the channel was refused (None: it was not)."""
        return await self.store.refused(CHANNEL, channel_id)

    async def note(
        self, kind: str, target_id: int, code: int, *, parent_id: int | None = None
    ) -> None:
        """Remember a refusal (`parent_id`: a thread's channel, whose reopening reopens it)."""
        async with self.store.transaction() as tx:
            await self.store.put_refusal(tx, kind, target_id, code, self.clock.now(), parent_id)

    async def seen(
        self,
        user_id: int,
        channel_id: int | None,
        *,
        may_post: bool = False,
        may_post_in_threads: bool = False,
        settings: bool = False,
    ) -> list[str]:
        """A member used the bot (in `channel_id`, None: a DM; `settings`: their settings
        command): forget that their DMs were refused if it was their settings or a day
        ago or more, and the channel's refusal (its threads' too) if the interaction's
        permissions show the bot may post there again. One read, and a write only when
        something is forgotten; the kinds forgotten."""
        found = dict(await self.store.refusals_of(user_id, channel_id))
        now = self.clock.now()
        dms = DMS in found and (settings or now - found[DMS] >= DMS_RETRY)
        channel = CHANNEL in found and channel_id is not None and (may_post or may_post_in_threads)
        if not (dms or channel):
            return []
        forgotten = []
        async with self.store.transaction() as tx:
            if dms:
                await self.store.forget_refusal(tx, DMS, user_id)
                forgotten.append(DMS)
            if channel and channel_id is not None:
                await self.store.forget_channel_refusals(
                    tx, channel_id, itself=may_post, threads=may_post_in_threads
                )
                forgotten.append(CHANNEL)
        return forgotten

    async def reopened(self, channel_id: int, *, itself: bool, threads: bool) -> int:
        """The bot's permissions in a channel let it post again (as a channel update shows):
        its refusal is forgotten (`itself`), and its threads' (`threads`). How many."""
        async with self.store.transaction() as tx:
            return await self.store.forget_channel_refusals(
                tx, channel_id, itself=itself, threads=threads
            )

    async def left_server(self, guild_id: int) -> dict[str, int]:
        """The bot was removed from a server: remembered, and everything of it stopped in
        the same transaction (see the module's docstring). Counts of what was stopped."""
        now = self.clock.now()
        async with self.store.transaction() as tx:
            await self.store.put_refusal(tx, SERVER, guild_id, 0, now)
            return await self.store.leave_server(tx, guild_id, ABANDONED, now)

    async def back_in_server(self, guild_id: int) -> bool:
        """The bot is in the server (invited back, or every server at start-up): served
        again. Whether it had left. A read first: a write only for a server it had left."""
        if not await self.has_left(guild_id):
            return False
        async with self.store.transaction() as tx:
            return bool(await self.store.forget_refusal(tx, SERVER, guild_id))

    async def has_left(self, guild_id: int) -> bool:
        return await self.store.refused(SERVER, guild_id) is not None
