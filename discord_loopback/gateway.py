"""The gateway websocket: HELLO, IDENTIFY -> READY + GUILD_CREATE, heartbeats, RESUME.

discord.py connects to ``DEFAULT_GATEWAY?v=10&encoding=json&compress=zlib-stream``. With
``zlib-stream`` it expects every server frame to be one zlib stream, flushed with Z_SYNC_FLUSH
per message; that is what this module sends. (It also accepts plain text frames, which is
what it gets if the client asks for ``zstd-stream``, which the standard library cannot write.)

Sessions outlive connections: events dispatched while a session is disconnected are kept, and
a RESUME replays the ones after the client's sequence number. A client that closes with 1000
(``Client.close()``) ends its session, so a later client must IDENTIFY afresh, as on Discord.

Sharding, as Discord does it: each session IDENTIFYs with ``shard: [shard_id, shard_count]``
(absent: ``[0, 1]``) and gets only the guilds, and the guild events and interactions, of guilds
with ``(guild_id >> 22) % shard_count == shard_id``; DM events and DM interactions go to shard 0.
Unlike Discord, every live session must use the same ``shard_count`` (else close 4010), so a
test cannot half-reshard by mistake. Two live sessions on the same shard both get its events
(Discord allows that too); its interactions go to the newer one.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import uuid
import zlib
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from .ids import shard_of
from .models import JSON, SimChannel, SimGuild, SimMessage
from .payloads import guild_payload, member_payload, message_payload, user_payload

if TYPE_CHECKING:
    from .server import Emulator

INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15

OP_DISPATCH = 0
OP_HEARTBEAT = 1
OP_IDENTIFY = 2
OP_PRESENCE = 3
OP_VOICE_STATE = 4
OP_RESUME = 6
OP_RECONNECT = 7
OP_REQUEST_MEMBERS = 8
OP_INVALID_SESSION = 9
OP_HELLO = 10
OP_HEARTBEAT_ACK = 11
# Seconds between a heartbeat and its ACK: a short network round trip.
HEARTBEAT_ACK_DELAY = 0.05

BUFFER_SIZE = 5000


class GatewayConnection:
    """One websocket. Frames are queued and written in order by a single writer task, so
    callers never await and the zlib stream is never interleaved."""

    def __init__(self, ws: web.WebSocketResponse, compress: str | None) -> None:
        self.ws = ws
        self._compressor = zlib.compressobj() if compress == "zlib-stream" else None
        self._queue: asyncio.Queue[JSON | None] = asyncio.Queue()
        self._writer = asyncio.create_task(self._write(), name="emulator-gateway-writer")
        self.close_after: tuple[int, str] | None = None

    def send(self, frame: JSON) -> None:
        self._queue.put_nowait(frame)

    def close_with(self, code: int, reason: str) -> None:
        """Close after the frames already queued are written."""
        self.close_after = (code, reason)
        self._queue.put_nowait(None)

    async def _write(self) -> None:
        while True:
            frame = await self._queue.get()
            if frame is None:
                break
            text = json.dumps(frame, separators=(",", ":"))
            try:
                if self._compressor is not None:
                    data = self._compressor.compress(text.encode())
                    data += self._compressor.flush(zlib.Z_SYNC_FLUSH)
                    await self.ws.send_bytes(data)
                else:
                    await self.ws.send_str(text)
            except (ConnectionError, RuntimeError):
                # The client went away; the reader side notices and cleans up.
                break
        if self.close_after is not None and not self.ws.closed:
            code, reason = self.close_after
            with contextlib.suppress(ConnectionError, RuntimeError):
                await self.ws.close(code=code, message=reason.encode())

    async def stop(self) -> None:
        self._queue.put_nowait(None)
        with contextlib.suppress(asyncio.CancelledError):
            await self._writer


@dataclass(eq=False)
class GatewaySession:
    """A logged-in gateway session (survives reconnects until the client closes it)."""

    id: str
    intents: int
    shard: list[int]
    seq: int = 0
    buffer: deque[JSON] = field(default_factory=lambda: deque(maxlen=BUFFER_SIZE))
    connection: GatewayConnection | None = None
    invalid: bool = False
    resumes: int = 0
    presence: JSON | None = None

    @property
    def live(self) -> bool:
        return not self.invalid and self.connection is not None

    @property
    def shard_id(self) -> int:
        return self.shard[0]

    @property
    def shard_count(self) -> int:
        return self.shard[1]

    def receives(self, guild: SimGuild | None) -> bool:
        """Whether Discord routes events of ``guild`` (None: DMs) to this session: none of
        a server the bot was removed from."""
        if guild is None:
            return self.shard_id == 0
        if guild.bot_removed:
            return False
        return shard_of(guild.id, self.shard_count) == self.shard_id

    def dispatch(self, event: str, data: JSON) -> None:
        if self.invalid:
            return
        self.seq += 1
        frame = {"op": OP_DISPATCH, "t": event, "s": self.seq, "d": data}
        self.buffer.append(frame)
        if self.connection is not None:
            self.connection.send(frame)


class GatewayHub:
    def __init__(self, emu: Emulator, heartbeat_interval: float) -> None:
        self._emu = emu
        self.heartbeat_interval_ms = int(heartbeat_interval * 1000)
        self.sessions: dict[str, GatewaySession] = {}
        # Identify order: interactions go to the newest live session of their shard.
        self._order: list[GatewaySession] = []
        self.connections: set[GatewayConnection] = set()
        self.identify_count = 0
        self.resume_count = 0
        # Events re-sent on RESUME because the client had not processed them.
        self.replayed = 0
        self.heartbeats = 0
        # (heartbeat received, its ACK sent), loop times: tests check the round trip.
        self.heartbeat_round_trips: list[tuple[float, float]] = []

    # -- who gets what ---------------------------------------------------------------

    def live_sessions(self) -> list[GatewaySession]:
        return [s for s in self._order if s.live]

    def interaction_session(self) -> GatewaySession | None:
        """The newest live session (any shard): whether a bot is connected at all."""
        live = self.live_sessions()
        return live[-1] if live else None

    def session_for(self, guild: SimGuild | None) -> GatewaySession | None:
        """The session that gets interactions in ``guild`` (None: DMs): the newest live
        session of its shard, or None if that shard is not connected."""
        live = [s for s in self.live_sessions() if s.receives(guild)]
        return live[-1] if live else None

    def shard_sessions(self, shard_id: int) -> list[GatewaySession]:
        """Live sessions on ``shard_id`` (more than one: two processes run the same shard)."""
        return [s for s in self.live_sessions() if s.shard_id == shard_id]

    @property
    def shard_count(self) -> int | None:
        """The shard count the live sessions agree on (None: nobody is connected)."""
        live = self.live_sessions()
        return live[0].shard_count if live else None

    def _active(self, guild: SimGuild | None) -> list[GatewaySession]:
        """Sessions that get ``guild``'s events: live ones, and disconnected ones that may
        still RESUME (they are buffered)."""
        return [s for s in self._order if not s.invalid and s.receives(guild)]

    def dispatch(
        self, event: str, data: JSON, intent: int | None, *, guild: SimGuild | None
    ) -> None:
        """Send to the sessions of ``guild``'s shard (None: DMs, shard 0) whose intents
        include ``intent`` (None: always)."""
        for session in self._active(guild):
            if intent is None or session.intents & intent:
                session.dispatch(event, data)

    def dispatch_channel_event(self, event: str, data: JSON, channel: SimChannel) -> None:
        intent = INTENT_DIRECT_MESSAGES if channel.is_dm else INTENT_GUILD_MESSAGES
        self.dispatch(event, data, intent, guild=channel.guild)

    def dispatch_message(self, event: str, message: SimMessage) -> None:
        """MESSAGE_CREATE/UPDATE, with content blanked for sessions lacking MESSAGE_CONTENT
        (except the bot's own messages, DMs and messages mentioning the bot)."""
        channel = message.channel
        intent = INTENT_DIRECT_MESSAGES if channel.is_dm else INTENT_GUILD_MESSAGES
        bot = self._emu.world.bot
        exempt = channel.is_dm or message.author.id == bot.id or bot in message.mentions
        full: JSON | None = None
        hidden: JSON | None = None
        for session in self._active(channel.guild):
            if not session.intents & intent:
                continue
            if exempt or session.intents & INTENT_MESSAGE_CONTENT:
                full = full or message_payload(message)
                session.dispatch(event, full)
            else:
                hidden = hidden or message_payload(message, hide_content=True)
                session.dispatch(event, hidden)

    def dispatch_guild_create(self, guild: SimGuild) -> None:
        for session in self._active(guild):
            if session.intents & INTENT_GUILDS:
                session.dispatch("GUILD_CREATE", self._guild_create(session, guild))

    def dispatch_guild_delete(self, guild: SimGuild) -> None:
        """GUILD_DELETE as Discord sends it when the bot is removed: an unavailable guild
        object whose ``unavailable`` is not set (it is set, true, only in an outage)."""
        self.dispatch("GUILD_DELETE", {"id": str(guild.id)}, INTENT_GUILDS, guild=guild)

    def _guild_create(self, session: GatewaySession, guild: SimGuild) -> JSON:
        world = self._emu.world
        body = guild_payload(
            guild,
            include_members=bool(session.intents & INTENT_GUILD_MEMBERS),
            bot_id=world.bot.id,
        )
        # Only the active threads the bot may view (topics/threads, "Gateway Events").
        body["threads"] = [
            t for t in body["threads"] if world.bot_sees(guild.channels[int(t["id"])])
        ]
        return body

    # -- the websocket ---------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        connection = GatewayConnection(ws, request.query.get("compress"))
        self.connections.add(connection)
        connection.send(
            {
                "op": OP_HELLO,
                "d": {"heartbeat_interval": self.heartbeat_interval_ms, "_trace": ["emulator"]},
                "s": None,
                "t": None,
            }
        )
        session: GatewaySession | None = None
        try:
            async for msg in ws:
                if msg.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                    break
                frame = json.loads(msg.data)
                session = self._on_frame(connection, session, frame)
                if connection.close_after is not None:
                    break
        finally:
            self.connections.discard(connection)
            if session is not None and session.connection is connection:
                session.connection = None
                # 1000/1001 is a deliberate logout: the session cannot be resumed.
                if ws.close_code in (1000, 1001):
                    session.invalid = True
            await connection.stop()
            self._emu.bus.changed()
        return ws

    def _ack(self, connection: GatewayConnection, received: float) -> None:
        self.heartbeat_round_trips.append((received, asyncio.get_running_loop().time()))
        connection.send({"op": OP_HEARTBEAT_ACK, "d": None, "s": None, "t": None})

    def _on_frame(
        self, connection: GatewayConnection, session: GatewaySession | None, frame: JSON
    ) -> GatewaySession | None:
        op = frame.get("op")
        data = frame.get("d")
        if op == OP_HEARTBEAT:
            self.heartbeats += 1
            # Discord's ACK crosses the network. An instant one can reach discord.py before
            # its heartbeat thread has noted the send, and it then logs "Can't keep up,
            # websocket is 41.3s behind" (latency measured from the previous beat).
            loop = asyncio.get_running_loop()
            loop.call_later(HEARTBEAT_ACK_DELAY, self._ack, connection, loop.time())
        elif op == OP_IDENTIFY:
            if session is not None:
                connection.close_with(4005, "Already authenticated.")
                return session
            return self._identify(connection, data or {})
        elif op == OP_RESUME:
            return self._resume(connection, data or {})
        elif op == OP_PRESENCE and session is not None:
            session.presence = data
        elif op == OP_REQUEST_MEMBERS and session is not None:
            self._send_members(session, data or {})
        elif op == OP_VOICE_STATE:
            pass  # no voice in the emulator
        elif op not in (OP_PRESENCE, OP_REQUEST_MEMBERS):
            connection.close_with(4001, "Unknown opcode.")
        return session

    def _identify(self, connection: GatewayConnection, data: JSON) -> GatewaySession | None:
        if data.get("token") != self._emu.token:
            connection.close_with(4004, "Authentication failed.")
            return None
        raw_shard = data.get("shard")
        shard = [0, 1] if raw_shard is None else _shard(raw_shard)
        if shard is None:
            connection.close_with(4010, "Invalid shard.")
            return None
        agreed = self.shard_count
        if agreed is not None and shard[1] != agreed:
            # Discord would accept it (and route by each session's own count); the emulator
            # refuses, so processes that disagree on the shard count fail loudly.
            connection.close_with(4010, f"Invalid shard: the live sessions use {agreed} shards.")
            return None
        for stale in self._order:
            # Disconnected sessions of an older shard layout could later RESUME into it.
            if not stale.live and stale.shard_count != shard[1]:
                stale.invalid = True
        world = self._emu.world
        session = GatewaySession(
            id=uuid.uuid4().hex,
            intents=int(data.get("intents", 0)),
            shard=shard,
            presence=data.get("presence"),
        )
        session.connection = connection
        self.sessions[session.id] = session
        self._order.append(session)
        self.identify_count += 1
        ready = {
            "v": 10,
            "user": user_payload(world.bot) | {"verified": True, "mfa_enabled": False},
            "guilds": [
                {"id": str(g.id), "unavailable": True}
                for g in world.guilds.values()
                if session.receives(g)
            ],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self._emu.gateway_url,
            "application": {"id": str(world.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "shard": session.shard,
            "_trace": ["emulator"],
        }
        session.dispatch("READY", ready)
        if session.intents & INTENT_GUILDS:
            for guild in world.guilds.values():
                if session.receives(guild):
                    session.dispatch("GUILD_CREATE", self._guild_create(session, guild))
        self._emu.bus.changed()
        return session

    def _resume(self, connection: GatewayConnection, data: JSON) -> GatewaySession | None:
        session = self.sessions.get(str(data.get("session_id")))
        seq = int(data.get("seq") or 0)
        oldest = session.buffer[0]["s"] if session and session.buffer else 1
        if (
            session is None
            or session.invalid
            or data.get("token") != self._emu.token
            or seq + 1 < oldest
        ):
            # d=false: start over with IDENTIFY (discord.py then closes and re-identifies).
            connection.send({"op": OP_INVALID_SESSION, "d": False, "s": None, "t": None})
            return None
        if session.connection is not None and session.connection is not connection:
            session.connection.close_with(4000, "Session resumed elsewhere.")
        session.connection = connection
        for frame in session.buffer:
            if frame["s"] > seq:
                connection.send(frame)
                self.replayed += 1
        session.resumes += 1
        self.resume_count += 1
        session.dispatch("RESUMED", {"_trace": ["emulator"]})
        self._emu.bus.changed()
        return session

    def _send_members(self, session: GatewaySession, data: JSON) -> None:
        guild_ids = data.get("guild_id")
        if not isinstance(guild_ids, list):
            guild_ids = [guild_ids]
        query = str(data.get("query") or "").lower()
        limit = int(data.get("limit") or 0)
        user_ids = {int(u) for u in data.get("user_ids") or []}
        for raw_id in guild_ids:
            guild = self._emu.world.guilds.get(int(raw_id))
            # A shard knows only its own guilds; Discord does not answer for the others.
            if guild is None or not session.receives(guild):
                continue
            members = list(guild.members.values())
            if user_ids:
                members = [m for m in members if m.user.id in user_ids]
            else:
                members = [m for m in members if m.user.name.lower().startswith(query)]
                if limit:
                    members = members[:limit]
            body: dict[str, Any] = {
                "guild_id": str(guild.id),
                "members": [member_payload(m) for m in members],
                "chunk_index": 0,
                "chunk_count": 1,
                "not_found": [str(u) for u in user_ids - set(guild.members)],
            }
            if data.get("nonce") is not None:
                body["nonce"] = data["nonce"]
            session.dispatch("GUILD_MEMBERS_CHUNK", body)

    # -- control from tests ------------------------------------------------------------

    def request_reconnect(self, shard_id: int | None = None) -> list[GatewaySession]:
        """Send op 7 RECONNECT to every live session (or those on ``shard_id``); the client
        should RESUME. Returns the sessions told."""
        told = [s for s in self.live_sessions() if shard_id is None or s.shard_id == shard_id]
        for session in told:
            assert session.connection is not None
            session.connection.send({"op": OP_RECONNECT, "d": None, "s": None, "t": None})
        return told

    async def close_all(self) -> None:
        for connection in list(self.connections):
            connection.close_with(1001, "Emulator stopping.")
        for connection in list(self.connections):
            await connection.stop()
        for session in self._order:
            session.invalid = True


def _shard(raw: Any) -> list[int] | None:
    """``[shard_id, shard_count]`` if IDENTIFY's ``shard`` is valid (Discord: else 4010)."""
    if not isinstance(raw, list | tuple) or len(raw) != 2:
        return None
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in raw):
        return None
    shard_id, shard_count = raw
    if shard_count < 1 or not 0 <= shard_id < shard_count:
        return None
    return [shard_id, shard_count]
