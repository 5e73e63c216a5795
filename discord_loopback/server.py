"""``Emulator``: the aiohttp server (REST + gateway + CDN) and the simulation's entry point."""

from __future__ import annotations

import asyncio
import json
import logging
import math
import socket
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

from aiohttp import web

from . import rest_core, rest_interactions, rest_messages
from .behaviours import Behaviours
from .chat import ChatPrinter
from .errors import INVALID_FORM_BODY, INVALID_JSON, ApiError, EmulatorTimeout, invalid_form_body
from .events import Bus, ChatEvent, ChatStream
from .faults import Condition, Fault, Faults
from .gateway import GatewayHub
from .handles import InteractionHandle
from .http_util import (
    EMULATOR,
    RefusedRequest,
    RequestRecord,
    ResponseMismatch,
    json_response,
    media_type,
    parse_body,
)
from .interactions import InteractionManager
from .models import RegisteredCommand, SimGuild, SimMessage, SimUser
from .patch import DiscordPointer, point_discord_at
from .ratelimits import BAN_BODY, BAN_SECONDS, INVALID_REQUEST_LIMIT, InvalidRequest, RateLimits
from .records import InteractionRecord
from .responses import InteractionResponder
from .spec import Operation, discord_spec
from .world import World

API = "/api/v{api_version}"
CLIENT_GONE = 499  # the status recorded for a request whose client disconnected (nginx's)
EMULATOR_FAULT = 503  # the status of an emulator bug (discord.py raises at once)
REFUSALS = (INVALID_FORM_BODY, INVALID_JSON)  # the codes of a malformed request
OPERATION: web.RequestKey[Operation] = web.RequestKey("operation", Operation)
_log = logging.getLogger(__name__)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class Emulator:
    """A loopback Discord: start it, point discord.py at it, create a guild and members,
    run the bot, then drive it with ``member.slash(...)``/``member.click(...)``.

    ``interaction_deadline``: seconds the bot has to acknowledge an interaction (Discord: 3).
    ``command_wait``: how long ``slash`` waits for the bot to be connected and to have
    registered the command before failing (and for the interaction's shard to be connected
    before it fails for the user, undelivered).
    ``recommended_shards``: the ``shards`` of ``GET /gateway/bot``, which an
    ``AutoShardedClient`` without ``shard_count`` uses (can be changed later).
    ``check_responses``: validate each JSON response of the emulator against its operation's
    response schema in Discord's description, recording mismatches in
    ``response_mismatches`` (for the emulator's own tests).
    ``without``: names of Discord's behaviours not to play (``behaviours.BEHAVIOURS``); all
    are played by default, as Discord plays them.
    ``clock``: the time source of the behaviours that wait (token expiry, thread archiving,
    rate limits, message age), seconds since the epoch; give the bot's manual clock so that
    both move together. ``advance()`` moves the loopback's time on top of it.
    ``invalid_request_limit``, ``ban_seconds``: the 401/403/429 answers in 10 minutes past
    which every request is refused (Discord: 10,000), and for how long (``ratelimits.py``).
    ``rate_clock``: the time of the rate-limit buckets, the global limit and DM opens; by
    default ``now()``, plus the real time that passed when ``clock`` is a manual one (the
    client sleeps out a 429 in real seconds).
    """

    def __init__(
        self,
        *,
        token: str = "emulator-bot-token",
        bot_name: str = "Schotten Bot",
        interaction_deadline: float = 3.0,
        command_wait: float = 5.0,
        heartbeat_interval: float = 41.25,
        recommended_shards: int = 1,
        check_responses: bool = False,
        without: Iterable[str] = (),
        clock: Callable[[], float] = time.time,
        invalid_request_limit: int = INVALID_REQUEST_LIMIT,
        ban_seconds: float = BAN_SECONDS,
        rate_clock: Callable[[], float] | None = None,
    ) -> None:
        self.behaviours = Behaviours(without)
        self._clock = clock
        self._offset = 0.0
        self.limits = RateLimits(
            self.plays,
            self.now,
            real_time_passes=clock is not time.time,
            rate_clock=rate_clock,
            invalid_request_limit=invalid_request_limit,
            ban_seconds=ban_seconds,
        )
        self.token = token
        self.command_wait = command_wait
        self.recommended_shards = recommended_shards
        self.bus = Bus()
        self.gateway = GatewayHub(self, heartbeat_interval)
        self.world = World(self, bot_name=bot_name)
        self.interactions = InteractionManager(self, interaction_deadline)
        self.responder = InteractionResponder(self)
        self.faults = Faults(self._planted_refusal)  # refusals a test plants (``refuse``)
        self.requests: list[RequestRecord] = []
        # Requests to routes the emulator does not implement (a test can assert none).
        self.unhandled_requests: list[RequestRecord] = []
        # Exceptions raised inside the emulator while serving a request (should stay empty).
        self.server_errors: list[str] = []
        # Requests refused as Discord refuses a malformed request (400, 50035 or 50109): the
        # bot broke Discord's description or a documented limit (a test can assert none).
        self.refused_requests: list[RefusedRequest] = []
        # Requests to REST routes Discord's description does not have (so not validated).
        self.undescribed_requests: list[RequestRecord] = []
        self.check_responses = check_responses
        self.response_mismatches: list[ResponseMismatch] = []
        self.spec = discord_spec()
        self.port = 0
        self._runner: web.AppRunner | None = None

    # -- time ----------------------------------------------------------------------------

    def now(self) -> float:
        """The loopback's time: its clock plus what ``advance`` added (seconds)."""
        return self._clock() + self._offset

    def advance(self, seconds: float) -> None:
        """Move the loopback's time forward (tokens expire, threads archive, buckets refill)."""
        if seconds < 0:
            raise ValueError("time only moves forward")
        self._offset += seconds
        self.world.archive_idle_threads()  # idle threads archive, with THREAD_UPDATE

    def plays(self, behaviour: str) -> bool:
        """Whether a behaviour of Discord's (``behaviours.BEHAVIOURS``) is played."""
        return behaviour in self.behaviours

    @property
    def invalid_requests(self) -> list[InvalidRequest]:
        """Every 401, 403 and 429 answered (but 429s of scope ``shared``), as Discord's
        Invalid Request Limit counts them: (time on ``now()``, status, method, route)."""
        return self.limits.invalid_requests

    def max_invalid_requests(self, window: float = 600.0) -> int:
        """The most invalid answers in any ``window`` seconds (Discord bans past 10,000 in
        10 minutes)."""
        return self.limits.max_invalid_per_window(window)

    # -- lifecycle -----------------------------------------------------------------------

    async def start(self) -> Emulator:
        """Listen on 127.0.0.1 at an ephemeral port."""
        if self._runner is not None:
            raise RuntimeError("emulator already started")
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        app[EMULATOR] = self
        app.router.add_get("/gateway", self.gateway.handle)
        rest_core.add_routes(app.router, API)
        rest_messages.add_routes(app.router, API)
        rest_interactions.add_routes(app.router, API)
        app.router.add_route("*", "/{tail:.*}", self._unknown_route)
        runner = web.AppRunner(app, handle_signals=False, access_log=None, shutdown_timeout=1.0)
        await runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        await web.SockSite(runner, sock).start()
        self._runner = runner
        return self

    async def stop(self) -> None:
        """Close gateway connections, cancel deadline timers, shut the server down.
        Close the bot's client first, or it will try to reconnect."""
        self.interactions.cancel_timers()
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        await self.bus.close()

    async def __aenter__(self) -> Emulator:
        return await self.start()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    def point_discord(self) -> DiscordPointer:
        """``point_discord_at(self)``."""
        return point_discord_at(self)

    # -- HTTP plumbing -------------------------------------------------------------------

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        api = request.path.startswith("/api/")
        if api:
            ban_left = self.limits.banned()
            if ban_left is not None:
                return self._banned(request, ban_left)
        limit_headers: dict[str, str] = {}
        try:
            self._check_auth(request)
            if api:
                limit_headers = self.limits.admit(request.method, request.path)
            await self._check_request(request)
            if api:
                self.faults.check(request.method, request.path, None)
            response = await handler(request)
        except ApiError as error:
            response = json_response(error.body(), status=error.status)
            response.headers.update(error.headers())
            if error.status == 400 and error.code in REFUSALS and not error.planted:
                self._refused(request, error)
        except web.HTTPException:
            raise
        except ConnectionResetError:
            # The client went away in the middle of its request (a bot process killed while
            # uploading): nobody is left to answer, and it is no fault of the emulator.
            response = json_response({"message": "client gone", "code": 0}, status=CLIENT_GONE)
        except Exception as error:
            # An emulator bug. 503 makes discord.py raise DiscordServerError at once (500 would
            # be retried with back-off); the traceback is kept for the test to report.
            _log.exception("emulator error on %s %s", request.method, request.path)
            self.server_errors.append(f"{request.method} {request.path}: {error!r}")
            response = json_response(
                {"message": f"emulator error: {error!r}", "code": 0}, EMULATOR_FAULT
            )
        if limit_headers and not response.prepared:
            response.headers.update(limit_headers)
        if api:
            scope = response.headers.get("X-RateLimit-Scope")
            self.limits.answered(request.method, request.path, response.status, scope)
        self.requests.append(RequestRecord(request.method, request.path, response.status))
        if self.check_responses:
            self._check_response(request, response)
        return response

    def _banned(self, request: web.Request, left: float) -> web.Response:
        """Cloudflare's refusal of a banned address: no JSON, no ``Via`` (discord.py raises
        it at once rather than wait)."""
        self.requests.append(RequestRecord(request.method, request.path, 429))
        headers = {"Retry-After": str(math.ceil(left))}
        return web.Response(status=429, text=BAN_BODY, headers=headers)

    async def _check_request(self, request: web.Request) -> None:
        """Read the body of a REST request and validate the request against its operation in
        Discord's description (and the documented limits merged into it)."""
        if not request.path.startswith("/api/"):
            return
        body = await parse_body(request)
        found = self.spec.match(request.method, request.path)
        if found is None:
            self.undescribed_requests.append(RequestRecord(request.method, request.path, 0))
            return
        operation, path_params = found
        request[OPERATION] = operation
        errors = self.spec.check_parameters(operation, path_params, request.query)
        if body.present or operation.body_required:
            payload = body.payload if body.present else {}
            errors += self.spec.check_body(operation, media_type(request), payload)
        if errors:
            error = invalid_form_body(errors)
            self.responder.note_refusal(path_params, error)
            raise error

    def _refused(self, request: web.Request, error: ApiError) -> None:
        refusal = RefusedRequest(request.method, request.path, error.code, error.errors or {})
        self.refused_requests.append(refusal)
        self.bus.emit(
            ChatEvent("failure", None, self.world.bot, text=f"refused: {refusal.summary}")
        )

    def _check_response(self, request: web.Request, response: web.StreamResponse) -> None:
        operation = request.get(OPERATION)
        if operation is None or response.status in (
            CLIENT_GONE,
            EMULATOR_FAULT,
        ):
            return
        body = None
        if isinstance(response, web.Response) and response.body:
            assert isinstance(response.body, bytes)
            body = json.loads(response.body)
        errors = self.spec.check_response(operation, response.status, body)
        if errors:
            self.response_mismatches.append(
                ResponseMismatch(request.method, request.path, response.status, errors)
            )

    def _check_auth(self, request: web.Request) -> None:
        path = request.path
        if not path.startswith("/api/"):
            return
        # Interaction callbacks and webhooks authenticate by the token in the URL.
        if "/interactions/" in path or "/webhooks/" in path:
            return
        if request.headers.get("Authorization") != f"Bot {self.token}":
            raise ApiError(401, 0, "401: Unauthorized")

    async def _unknown_route(self, request: web.Request) -> web.Response:
        self.unhandled_requests.append(RequestRecord(request.method, request.path, 404))
        return json_response({"message": "404: Not Found", "code": 0}, status=404)

    def _planted_refusal(self, route: str, error: ApiError) -> None:
        text = f"{route} refused (planted): {error.status} {error.code} {error.message}"
        self.bus.emit(ChatEvent("failure", None, self.world.bot, text=text))

    def refuse(
        self,
        status: int,
        code: int,
        message: str,
        *,
        method: str | None = None,
        path: str | None = None,
        when: Condition | None = None,
        errors: dict[str, Any] | None = None,
        times: int | None = None,
        retry_after: float | None = None,
    ) -> Fault:
        """Answer matching requests with this error, as Discord would refuse them: e.g.
        ``refuse(400, 50035, "Invalid Form Body", method="POST", path=r"/messages$",
        when=lambda body: bool(body.get("components")))``. ``path`` is a regular expression
        searched in the route after ``/api/v10``; ``when`` looks at a message-bearing
        request's JSON payload; ``times`` limits how many are refused (None: all, until
        ``fault.remove()``); ``retry_after``: a 429's wait, sent as Discord does."""
        error = ApiError(status, code, message, errors, retry_after=retry_after, planted=True)
        return self.faults.plant(error, method=method, path=path, when=when, times=times)

    # -- building the world --------------------------------------------------------------

    @property
    def bot(self) -> SimUser:
        return self.world.bot

    @property
    def application_id(self) -> int:
        return self.world.application_id

    def create_guild(
        self,
        name: str = "Test Server",
        *,
        channels: Sequence[str] = ("general",),
        shard: tuple[int, int] | None = None,
        locale: str = "en-US",
    ) -> SimGuild:
        """A guild with the bot in it and text channels ``channels``; ``locale`` is its
        community language (``preferred_locale``).

        Its id puts it on shard ``shard = (shard_id, shard_count)``; by default the n-th
        guild is on shard ``n % shard_count`` for shard counts dividing 24."""
        return self.world.create_guild(name, channels=channels, shard=shard, locale=locale)

    @property
    def guilds(self) -> list[SimGuild]:
        return list(self.world.guilds.values())

    def remove_bot(self, guild: SimGuild) -> None:
        """Remove the bot from ``guild``: GUILD_DELETE, then it is refused there (403 50001)
        and its members can no longer use its commands (behaviour ``guild_delete``)."""
        self.world.remove_bot(guild)

    def add_bot(self, guild: SimGuild) -> None:
        """Invite the bot back to ``guild`` (GUILD_CREATE)."""
        self.world.add_bot(guild)

    def commands(self, guild: SimGuild | None = None) -> list[RegisteredCommand]:
        """Commands the bot registered globally, or for ``guild``."""
        return list(self.world.commands.command_table(guild.id if guild else None).values())

    def message(self, message_id: int) -> SimMessage:
        return self.world.find_message(message_id)

    # -- waiting on the bot --------------------------------------------------------------

    async def wait_for_bot(
        self, timeout: float = 10.0, *, commands: Sequence[str] = (), shards: Sequence[int] = ()
    ) -> None:
        """Until a client has identified (READY and GUILD_CREATEs sent), each of ``shards``
        has a live session, and, if given, the named top-level commands are registered for
        every guild (guild or global)."""

        def ready() -> bool:
            if self.gateway.interaction_session() is None:
                return False
            if not all(self.gateway.shard_sessions(shard) for shard in shards):
                return False
            # Each guild's commands, or the global ones when there is no guild.
            scopes: list[SimGuild | None] = [*self.guilds] or [None]
            return all(
                self.world.commands.find_command(guild, name) is not None
                for name in commands
                for guild in scopes
            )

        await self.bus.notifier.wait_until(
            ready,
            timeout,
            lambda: (
                f"bot not ready after {timeout}s (sessions: {len(self.gateway.sessions)}, "
                f"live shards: {sorted(s.shard_id for s in self.gateway.live_sessions())}, "
                f"shards wanted: {list(shards)}, commands wanted: {list(commands)})"
            ),
        )

    async def wait_for_message(
        self,
        check: Callable[[SimMessage], bool],
        timeout: float = 5.0,
        what: str = "a matching message",
    ) -> SimMessage:
        """The first stored message (any channel) for which ``check`` is true."""

        def find() -> SimMessage | None:
            for message in self.world.messages.values():
                if not message.deleted and check(message):
                    return message
            return None

        return await self.bus.notifier.wait_until(
            find, timeout, lambda: f"timed out waiting for {what}"
        )

    async def request_reconnect(self, timeout: float = 5.0, *, shard_id: int | None = None) -> None:
        """Send op 7 RECONNECT to every live session (or those of ``shard_id``) and wait
        until each has RESUMEd."""
        told = {session: session.resumes for session in self.gateway.request_reconnect(shard_id)}
        if not told:
            raise EmulatorTimeout("no live gateway session to send RECONNECT to")
        await self.bus.notifier.wait_until(
            lambda: all(s.resumes > before and s.live for s, before in told.items()),
            timeout,
            lambda: "the client did not resume after RECONNECT",
        )

    # -- the 3-second rule ---------------------------------------------------------------

    @property
    def interaction_log(self) -> list[InteractionHandle]:
        return list(self.interactions.handles)

    @property
    def late_interactions(self) -> list[InteractionRecord]:
        """Interactions the bot failed to acknowledge within the deadline."""
        return self.interactions.expired

    async def assert_all_acknowledged(self) -> None:
        """Wait out pending deadlines, then fail if any interaction was not acknowledged
        in time (autocomplete included)."""
        loop = asyncio.get_running_loop()
        for record in self.interactions.records.values():
            if record.callback_type is None and not record.expired:
                remaining = record.dispatched_at + self.interactions.deadline - loop.time()
                if remaining > 0:

                    def settled(r: InteractionRecord = record) -> bool:
                        return r.callback_type is not None or r.expired

                    await self.bus.notifier.wait_until(
                        settled,
                        remaining + 0.5,
                        lambda: "deadline bookkeeping stalled",
                    )
        late = self.late_interactions
        if late:
            summaries = ", ".join(
                f"{r.summary} by @{r.user.name}"
                + (f" (not delivered: {r.undelivered})" if r.undelivered else "")
                for r in late
            )
            raise EmulatorTimeout(
                f"not acknowledged within {self.interactions.deadline:g}s: {summaries}"
            )

    # -- watching the chat ---------------------------------------------------------------

    def subscribe(self, callback: Callable[[ChatEvent], object]) -> Callable[[], None]:
        """Call ``callback(event)`` for every chat event; returns an unsubscribe function."""
        return self.bus.subscribe(callback)

    def chat_events(self) -> ChatStream:
        """``async for event in emulator.chat_events(): ...`` (ends at ``stop()``)."""
        return ChatStream(self.bus)

    def print_chat(
        self,
        write: Callable[[str], object] = print,
        *,
        attachments_dir: Path | str | None = None,
        width: int = 14,
    ) -> ChatPrinter:
        """Print every chat event as a line (and save attachments to ``attachments_dir``);
        returns the subscribed ``ChatPrinter``."""

        def name_of(user_id: int) -> str | None:
            user = self.world.users.get(user_id)
            return user.name if user is not None else None

        printer = ChatPrinter(
            write,
            attachments_dir=attachments_dir,
            width=width,
            commands=self.world.commands,
            name_of=name_of,
        )
        self.subscribe(printer)
        return printer

    @property
    def chat_log(self) -> list[ChatEvent]:
        return list(self.bus.log)
