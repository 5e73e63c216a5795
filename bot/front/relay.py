"""The outbox relay: makes the announcements that the service wrote beside each change.

A move, a forfeit, a reminder or a game's start writes what it must announce (the board to
post, the hand to send, the reminder, the expired challenge's edit) in the same transaction
as the change. The relay sends them and marks them done, so a crash between the commit and
Discord's answer delays an announcement and never loses it: whatever is pending is sent at
start-up, after every move, and on the timer loop.

Delivery is at least once; every message carries a nonce derived from its row with
`enforce_nonce`, so Discord returns the first message instead of posting a second one when
a send is repeated within a few minutes (after a crash between the send and the mark).
Each match's announcements go in the order they were written: one that fails for a while
(Discord's trouble: 5xx, a timeout, backed off; a 429: as long as Discord says) holds back
the later ones of its match, never those of other matches. One that Discord refuses for
good (any other 4xx: an invalid form, missing permissions, an unknown channel) never holds
anything back: the relay tries a plainer form once (no components, then text only), else
sets it aside as failed with one ERROR line, tells the players by DM once per game and kind
of refusal, and goes on with the game's later announcements. What Discord refused is not
asked again blindly (bot/refusals.py): a member whose DMs were refused gets no DM until they
use the bot again, and a channel where a post was refused (or where the bot's permissions
say it would be) gets no post until its permissions are seen back.

A turn has one board message, posted by the step that ends it (the steps before it are held
back: the mover sees them in their hand's reply), and against the computer its reply edits
the board of the member's turn: the channel gets one board message per turn (per round
against the computer). The board names the member to move by their mention, and its
creation notifies them: once per turn, and both members at the end. Edits name them without
notifying, so a board that continues a message already posted and must notify (the end of
the game in the computer's reply) is posted afresh and the earlier message deleted. Whom a
board notified is stored with it, so that a member whose DMs are closed is pinged in the
channel on each turn the board did not ping them (the computer's reply), and told once why.

No request is under way when an announcement goes out, so each one chooses its language:
the board and an expired challenge in the server's, a hand, a reminder and the notice of
closed DMs in the language last seen from the member they are for.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

import aiohttp
import discord

from bot import crashpoints, metrics
from bot.front import texts
from bot.front.controls import RematchButton, ShowHandButton
from bot.front.dm_channels import DmChannel, DmsClosed
from bot.front.one_at_a_time import OneAtATime
from bot.front.ports import RelayFront
from bot.front.replies import MISSING, PING, QUIET
from bot.records import Announcement, MatchInfo
from bot.refusals import CHANNEL, CHANNEL_CODES, THREAD_LOCKED, UNKNOWN_CHANNEL
from bot.store import DMS_CLOSED, Notifications, Row
from lang import speaking

log = logging.getLogger("schotten.bot")
# Discord's JSON error codes the relay tells apart.
UNKNOWN_MESSAGE = 10008
CANNOT_DM = 50007
MISSING_PERMISSIONS = 50013
ARCHIVED_THREAD = 50083  # "Thread is archived": no edit there, a post unarchives it
DMS_TOO_FAST = 40003  # opening DMs too fast: it passes


class _Archived(Exception):
    """The board's edit met an archived thread (50083): it is posted afresh instead."""


class Undeliverable(Exception):
    """This announcement is no longer owed (the player's DMs are closed, told already)."""


class ChannelClosed(Exception):
    """Posting in this channel was refused before (Discord's `code`), or the bot's
    permissions there say it would be: not asked again (bot/refusals.py)."""

    def __init__(self, channel_id: int, code: int) -> None:
        status = 404 if code == UNKNOWN_CHANNEL else 403
        # Worded as a refusal set aside (`refused STATUS/CODE ...`), which the store reads.
        super().__init__(f"refused {status}/{code} before, not tried: channel {channel_id}")
        self.channel_id = channel_id
        self.code = code


@dataclass(frozen=True, slots=True)
class Sent:
    """A message made for an announcement, and whom its creation notified (user ids)."""

    message_id: int
    notified: tuple[int, ...] = ()


def _transient(error: BaseException) -> bool:
    """Worth trying again later: Discord's own trouble or the network's, not a refusal."""
    if isinstance(error, discord.HTTPException):
        return error.status >= 500 or error.status == 429 or error.code == DMS_TOO_FAST
    return isinstance(error, aiohttp.ClientError | asyncio.TimeoutError | OSError)


def _refused(error: BaseException) -> bool:
    """Discord will never take this request as it is: a 4xx that does not pass."""
    if not isinstance(error, discord.HTTPException):
        return False
    return 400 <= error.status < 500 and not _transient(error)


def _plainer_may_help(error: BaseException) -> bool:
    """A plainer form can get through: the form was invalid (400), or a permission for
    files or embeds is missing (50013). Not when the channel is gone or out of reach."""
    if not isinstance(error, discord.HTTPException):
        return False
    return error.status == 400 or error.code == MISSING_PERMISSIONS


def _route(error: discord.HTTPException) -> str:
    """`POST /channels/1/messages`, the refused request (for the log)."""
    response = getattr(error, "response", None)
    url = getattr(response, "url", None)
    method = getattr(response, "method", None) or "?"
    path = url.path if url is not None else "?"
    return f"{method} {path.split('/api/v10', 1)[-1]}"


def _retry_after(error: discord.HTTPException) -> float | None:
    """How long Discord asked to wait (a 429's Retry-After), if it said."""
    response = getattr(error, "response", None)
    headers = getattr(response, "headers", None) or {}
    try:
        return float(headers.get("Retry-After", ""))
    except ValueError:
        return None


class Relay:
    """Sends what the outbox holds. One per process; every method is a coroutine."""

    def __init__(self, front: RelayFront) -> None:
        self.front = front
        self.service = front.service
        self.client = front.client
        self.dms = front.dms  # every DM through it: opened once (bot/front/dm_channels.py)
        # One sender per match at a time in this process, so its announcements keep their
        # order; the database claim (a lease) keeps other senders off the same row.
        self._senders = OneAtATime()

    async def deliver(self, match_id: int | None = None, *, everything: bool = False) -> int:
        """Send what is pending (for one match, or all); returns how many were done."""
        if match_id is not None:
            # One match's rows are one key: listed once, under its lock (after every move).
            return await self._deliver_key(match_id, match_id, everything)
        rows = await self.service.pending_announcements(match_id, everything=everything)
        keys = list(dict.fromkeys(_key(r) for r in rows))
        done = 0
        for key in keys:
            done += await self._deliver_key(key, match_id, everything)
        return done

    async def _deliver_key(self, key: int, match_id: int | None, everything: bool) -> int:
        async with self._senders.hold(key):
            done = 0
            # Listed again under the lock: whoever held it may have sent some meanwhile.
            rows = await self.service.pending_announcements(match_id, everything=everything)
            for row in (r for r in rows if _key(r) == key):
                outcome = await self._one(row)
                if outcome is None:
                    break  # held back: later rows of this match wait for this one
                done += outcome
            return done

    async def _one(self, row: Row) -> int | None:
        """Send one row: 1 if done (sent, skipped or dead), None if it must wait."""
        if not await self.service.claim_announcement(row["id"]):
            return None
        a: Announcement | None = None
        try:
            a = await self.service.announcement(row)
            crashpoints.reach("announce-before-send")
            sent = await self._send(a)
            crashpoints.reach("announce-after-send")
        except Undeliverable as e:
            log.info("announcement %s (%s) cannot be delivered: %s", row["id"], row["kind"], e)
            await self.service.announced(row["id"], status="dead", error=str(e))
            return 1
        except ChannelClosed as e:
            log.info("announcement %s (%s) set aside: %s", row["id"], row["kind"], e)
            await self.service.announced(row["id"], status="dead", error=str(e))
            if a is not None and a.kind == "board" and a.match is not None:
                await self._tell_players_safely(a.match, e.code, row["id"])
            return 1
        except asyncio.CancelledError:
            # Stopped halfway (a shutdown cancelling its sender): free the row now rather
            # than leave it leased, so that the stop's own final delivery can send it.
            await asyncio.shield(self.service.release_announcement(row["id"]))
            raise
        except Exception as e:
            code = getattr(e, "code", None) if isinstance(e, discord.HTTPException) else None
            metrics.RELAY_FAILURES.labels(str(code or type(e).__name__)).inc()
            if _refused(e):
                assert isinstance(e, discord.HTTPException)
                await self._set_aside(row, a, e)
                return 1
            delay = None
            if isinstance(e, discord.HTTPException) and e.status == 429:
                delay = _retry_after(e)
            if not _transient(e):
                log.exception("announcement %s (%s) failed", row["id"], row["kind"])
            else:
                log.warning("announcement %s (%s) will be retried: %s", row["id"], row["kind"], e)
            error = f"{type(e).__name__}: {e}"
            passing = _transient(e)  # tried for as long as it lasts
            await self.service.retry_announcement(row["id"], error, delay, passing=passing)
            return None
        if sent is None:
            await self.service.announced(row["id"], status="skipped")
        else:
            board_of = a.match.id if a.kind == "board" and a.match is not None else None
            await self.service.announced(
                row["id"], message_id=sent.message_id, board_of=board_of, notified=sent.notified
            )
        return 1

    async def _send(self, a: Announcement) -> Sent | None:
        """Make one announcement; its message, or None when it is no longer needed."""
        if a.kind in ("board", "reminder") and a.match is not None:
            await self._check_channel(a.match.channel_id)
        if a.kind == "board":
            assert a.match is not None
            if a.held:
                return None  # the turn goes on: the board of the step ending it shows it
            return await self._board(a.match, a)
        if a.kind == "hand":
            assert a.match is not None and a.seat is not None
            if not a.current:
                return None  # the position moved on: a newer hand (or none) is owed
            hand = await self._hand(a.match, a.seat, a.nonce)
            return None if hand is None else Sent(hand)
        if a.kind == "reminder":
            assert a.match is not None and a.reminder is not None
            if not a.current:
                return None
            wants = await self.service.notifications(a.reminder.user_id)
            language = await self.front.member_language(a.reminder.user_id, a.match.guild_id)
            with speaking(language):
                content = texts.reminder(a.reminder)
            mentions = PING if wants.pings else QUIET
            return Sent(
                await self._post(a.match.channel_id, a.nonce, content, allowed_mentions=mentions)
            )
        if a.kind == "challenge":
            assert a.challenge is not None
            c = a.challenge
            if c.message_id is None:
                return None
            channel = self.client.get_partial_messageable(c.channel_id)
            with speaking(await self.front.server_language(c.guild_id)):
                content = texts.expired(c)
            try:
                message = await channel.get_partial_message(c.message_id).edit(
                    content=content, view=None
                )
            except discord.NotFound as e:
                if e.code == UNKNOWN_MESSAGE:  # someone deleted the challenge: nothing to say
                    raise Undeliverable(str(e)) from None
                raise
            return Sent(message.id)
        raise Undeliverable(f"unknown announcement kind {a.kind!r}")

    async def _board(self, info: MatchInfo, a: Announcement) -> Sent:
        """The board for the channel, in the server's language (its words and picture)."""
        with speaking(await self.front.server_language(info.guild_id)):
            return await self._board_in_language(info, a)

    async def _board_in_language(self, info: MatchInfo, a: Announcement) -> Sent:
        lines = ([texts.started(info)] if a.started else []) + a.lines
        lines += texts.rating_lines(info, a.ratings)
        caption = texts.board_caption(info, lines, mentions=True)
        channel = self.client.get_partial_messageable(info.channel_id)
        # Who the message names: the member to move (and both once the game is over); a new
        # message notifies those the board pings, an edit notifies nobody.
        named = [info.players[s] for s in (0, 1) if s != info.ai_seat]
        if not info.is_over:
            named = [u for u in named if u == info.deciding_user]
        # A member who turned pings off is named in the text, never mentioned.
        wants = await self.service.notifications_of(named)
        named = [u for u in named if wants[u].pings]
        if not info.is_over:
            # One signal a turn: the hand's DM where it goes, this ping otherwise (DMs turned
            # off, or remembered closed); both if the member asked. A DM refused only now
            # falls back on a ping from _hand_in_channel, which sees this board did not.
            named = [u for u in named if not await self._dm_signals_turn(u, wants[u])]
        pinged = [info.players[s] for s in a.ping if info.players[s] in named]

        def view() -> discord.ui.View:
            view = discord.ui.View(timeout=None)
            view.add_item(ShowHandButton(info.id))
            if info.is_over:
                view.add_item(RematchButton(info.id))
            return view

        replaced = a.edit_message_id if a.repost else None  # the message this post replaces
        if a.edit_message_id is not None and not a.repost:
            # A later step of the same turn: that turn's message shows it (no new post, no
            # notification). Editing is idempotent, so a repeat after a crash is harmless.
            message = channel.get_partial_message(a.edit_message_id)

            async def edit(*, components: bool = True, picture: bool = True) -> discord.Message:
                files = [await self.front.board_file(info)] if picture else []
                try:
                    return await message.edit(
                        content=caption if picture else caption + texts.board_without_picture(),
                        attachments=files,
                        view=view() if components else None,
                        allowed_mentions=_users(named),
                    )
                except discord.HTTPException as e:
                    if e.code == ARCHIVED_THREAD:  # no plainer form gets past it
                        raise _Archived from e
                    raise

            try:
                return Sent((await plainest(edit, f"board of game {info.id}")).id)
            except discord.NotFound:
                pass  # the turn's message was deleted: post the turn afresh
            except _Archived:
                # The thread archived while the turn waited (auto_archive_duration without
                # a message): Discord refuses edits there, and a new post unarchives it.
                replaced = a.edit_message_id

        async def post(*, components: bool = True, picture: bool = True) -> discord.Message:
            return await channel.send(
                caption if picture else caption + texts.board_without_picture(),
                file=await self.front.board_file(info) if picture else MISSING,
                view=view() if components else MISSING,
                nonce=a.nonce,
                allowed_mentions=_users(pinged),
            )

        message = await plainest(post, f"board of game {info.id}")
        if replaced is not None and replaced != message.id:
            # The turn's earlier message gives way to this one, which pinged the member to
            # move. After a crash between the two, the repeat finds its post by the nonce.
            try:
                await channel.get_partial_message(replaced).delete()
            except discord.HTTPException as e:  # already gone, or out of reach: it stays
                if not isinstance(e, discord.NotFound):
                    log.info("game %s: could not delete board %s: %s", info.id, message.id, e)
        return Sent(message.id, tuple(pinged))

    async def _dm_signals_turn(self, user_id: int, wants: Notifications) -> bool:
        """Whether the member's hand DM is the one signal of their turn (no ping then)."""
        if wants.turn_both or not wants.turn_dm:
            return False
        return not await self.service.refusals.dms_closed(user_id)

    async def _hand(self, info: MatchInfo, seat: int, nonce: str) -> int | None:
        """The hand by DM; if the player's DMs are closed, say so in the game's channel
        (without the hand): the board's Show my hand button still works for them. Both in
        the player's language. None: the player turned these DMs off (their hand is behind
        Show my hand and `/schotten hand`; the channel tells them of their turn)."""
        user_id = info.players[seat]
        wants = await self.service.notifications(user_id)
        with speaking(await self.front.member_language(user_id, info.guild_id)):
            if not wants.turn_dm:
                await self._turn_without_dm(info, nonce, user_id, wants)
                return None
            return await self._hand_in_language(info, seat, nonce, user_id, wants)

    async def _turn_without_dm(
        self, info: MatchInfo, nonce: str, user_id: int, wants: Notifications
    ) -> None:
        """A player who wants no hand by DM hears of their turn in the channel: the turn's
        board mentioned them if it was a new message; if it was an edit (the computer's
        reply), a line does. Nothing if they turned pings off too."""
        if wants.pings and not await self.service.turn_pinged(info.id, info.version, user_id):
            await self._post(
                info.channel_id, f"{nonce}p", texts.turn_ping(info, user_id), allowed_mentions=PING
            )

    async def _hand_in_language(
        self, info: MatchInfo, seat: int, nonce: str, user_id: int, wants: Notifications
    ) -> int:
        async def send(*, components: bool = True, picture: bool = True) -> discord.Message:
            async def to(dm: DmChannel) -> discord.Message:
                payload = await self.front.hand_payload(info, seat)
                return await dm.send(
                    payload["content"],
                    file=payload["file"] if picture else MISSING,
                    view=(payload["view"] or MISSING) if components else MISSING,
                    nonce=nonce,
                )

            return await self.dms.use(user_id, to)

        try:
            return (await plainest(send, f"hand of game {info.id}")).id
        except DmsClosed:
            pass  # refused before: no DM is tried until the member uses the bot again
        except discord.Forbidden as e:
            if e.code != CANNOT_DM:
                raise
            # Remembered by self.dms: none tried until they use the bot again.
            log.info("no DM to %s: %s; none tried until they use the bot again", user_id, e)
        await self._hand_in_channel(info, seat, nonce, user_id, wants)

    async def _hand_in_channel(
        self, info: MatchInfo, seat: int, nonce: str, user_id: int, wants: Notifications
    ) -> NoReturn:
        """The hand could not go by DM (refused, now or before): Undeliverable, always."""
        # The channel is where this member hears of their turn: the turn's board pinged
        # them if it was a new message; if it was an edit (the computer's reply), a line
        # does. The first time, a notice says why their hand is not coming. A member who
        # turned pings off is named without being notified.
        pinged = await self.service.turn_pinged(info.id, info.version, user_id)
        mentions = QUIET if pinged or not wants.pings else PING
        if not await self.service.dm_notice_given(info.id, seat):
            notice = texts.dm_failed(user_id)
            await self._post(info.channel_id, f"{nonce}d", notice, allowed_mentions=mentions)
            raise Undeliverable(DMS_CLOSED)
        if not wants.pings:
            raise Undeliverable("the player's DMs are closed and they turned pings off")
        if not pinged:
            await self._post(
                info.channel_id, f"{nonce}p", texts.turn_ping(info, user_id), allowed_mentions=PING
            )
            raise Undeliverable("the player's DMs are closed; pinged in the channel")
        raise Undeliverable("the player's DMs are closed; the board pinged them")

    async def _post(self, channel_id: int, nonce: str, content: str, **kwargs: Any) -> int:
        await self._check_channel(channel_id)
        channel = self.client.get_partial_messageable(channel_id)
        message = await channel.send(content, nonce=nonce, **kwargs)
        return message.id

    async def _check_channel(self, channel_id: int) -> None:
        """ChannelClosed if the bot may not post in the channel: Discord refused a post
        there before (until its permissions there are seen back), or the permissions it
        knows say so (then remembered as a refusal, without asking Discord)."""
        code = await self.service.refusals.channel_closed(channel_id)
        if code is not None:
            raise ChannelClosed(channel_id, code)
        channel = self.client.get_channel(channel_id)
        if not isinstance(channel, discord.abc.GuildChannel | discord.Thread):
            return  # not known here (another shard's, or not cached): Discord will say
        me = channel.guild.me
        try:
            allowed = me is None or _may_post(channel.permissions_for(me), channel)
        except discord.ClientException:  # a thread whose parent is not cached
            allowed = True
        if not allowed:
            await self._note_channel(channel_id, MISSING_PERMISSIONS)
            raise ChannelClosed(channel_id, MISSING_PERMISSIONS)
        if locked_to(channel, me):  # known from THREAD_UPDATE: not asked to be refused
            await self._note_channel(channel_id, THREAD_LOCKED)
            raise ChannelClosed(channel_id, THREAD_LOCKED)

    async def _note_channel(self, channel_id: int, code: int) -> None:
        """Remember that posting in a channel is refused (with a thread's channel, whose
        permissions coming back reopen it)."""
        channel = self.client.get_channel(channel_id)
        parent = channel.parent_id if isinstance(channel, discord.Thread) else None
        await self.service.refusals.note(CHANNEL, channel_id, code, parent_id=parent)

    # Refused for good -----------------------------------------------------------------------

    async def _set_aside(
        self, row: Row, a: Announcement | None, error: discord.HTTPException
    ) -> None:
        """Discord will never take this announcement: one ERROR line, marked failed, and the
        game's later announcements go on. The players hear of a board refused, by DM, once
        per game and kind of refusal."""
        match_id = row["match_id"] if row["match_id"] is not None else "-"
        log.error(
            "game %s: Discord refused the %s for good: %s answered %s %s (%s); set aside,"
            " the game goes on",
            match_id,
            row["kind"],
            _route(error),
            error.status,
            error.code,
            error.text,
        )
        reason = f"refused {error.status}/{error.code} {_route(error)}: {error.text}"
        crashpoints.reach("set-aside-before-notice")
        if a is not None and a.kind == "board" and a.match is not None:
            await self._tell_players_safely(a.match, error.code, row["id"])
        crashpoints.reach("set-aside-after-notice")
        # Set aside (and remembered) only now that the players were told: a process
        # killed before leaves the row pending, and the next one tells them again with
        # the same nonces, which Discord answers with the messages sent (told once).
        channel_id = _posted_in(error)
        if channel_id is not None and error.code in CHANNEL_CODES:
            # Not posted there again until it may (bot/refusals.py).
            await self._note_channel(channel_id, error.code)
        await self.service.announced(row["id"], status="dead", error=reason[:500])

    async def _tell_players_safely(self, info: MatchInfo, code: int, row_id: int) -> None:
        try:
            await self._tell_players(info, code, row_id)
        except Exception:  # a notice is best effort; the game is safe either way
            log.exception("telling the players of game %s", info.id)

    async def _tell_players(self, info: MatchInfo, code: int, row_id: int) -> None:
        if await self.service.refusal_told(info.id, code, row_id):
            return
        for seat, user_id in enumerate(info.players):
            if seat == info.ai_seat:
                continue
            with speaking(await self.front.member_language(user_id, info.guild_id)):
                notice = texts.board_refused(info, code)
            try:
                await self.dms.send(
                    user_id, notice, nonce=f"{row_id}r{seat}", allowed_mentions=QUIET
                )
            except DmsClosed:
                continue  # refused before: not asked again until they use the bot
            except discord.HTTPException as e:  # DMs closed too (remembered): nowhere left
                log.info(
                    "could not tell %s that game %s's board was refused: %s", user_id, info.id, e
                )


Form = Callable[..., Awaitable[discord.Message]]


async def plainest(send: Form, what: str) -> discord.Message:
    """`send()` as it is; if Discord refuses it in a way a plainer form can get past (an
    invalid form; a missing permission for files or embeds), once without components, then
    once as text only. `send` takes `components` and `picture` flags."""
    forms: tuple[dict[str, bool], ...] = (
        {},
        {"components": False},
        {"components": False, "picture": False},
    )
    for i, form in enumerate(forms):
        try:
            return await send(**form)
        except discord.HTTPException as e:
            if i == len(forms) - 1 or not _plainer_may_help(e):
                raise
            log.warning(
                "%s: Discord refused it (%s %s %s: %s); trying a plainer form",
                what,
                _route(e),
                e.status,
                e.code,
                e.text,
            )
    raise AssertionError("unreachable")


def _may_post(permissions: discord.Permissions, channel: object) -> bool:
    """View Channel and Send Messages (in a thread, Send Messages in Threads)."""
    if isinstance(channel, discord.Thread):
        return permissions.view_channel and permissions.send_messages_in_threads
    return permissions.view_channel and permissions.send_messages


def locked_to(channel: object, me: discord.Member | None) -> bool:
    """A locked thread, where only Manage Threads may post (topics/threads, "Locked
    Threads"), which the invite does not give the bot."""
    if not isinstance(channel, discord.Thread) or not channel.locked or me is None:
        return False
    try:
        return not channel.permissions_for(me).manage_threads
    except discord.ClientException:  # its parent is not cached: locked is enough
        return True


def _posted_in(error: discord.HTTPException) -> int | None:
    """The channel of a refused `POST /channels/{id}/messages`, else None."""
    parts = _route(error).split("/")
    if len(parts) == 4 and parts[0] == "POST " and parts[1] == "channels":
        return int(parts[2]) if parts[3] == "messages" and parts[2].isdigit() else None
    return None


def _users(user_ids: Sequence[int]) -> discord.AllowedMentions:
    """Mentions that may notify these members only (nobody else, no role, no @everyone)."""
    return discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(u) for u in user_ids]
    )


def _key(row: Row) -> int:
    """Announcements are ordered per match (challenges: per challenge, apart from matches)."""
    return int(row["match_id"]) if row["match_id"] is not None else -int(row["challenge_id"])
