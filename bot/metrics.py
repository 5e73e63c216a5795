"""What the bot counts and times for its admin, in the Prometheus format (the maintained
`prometheus_client` library), served by `bot.front.health` when `[bot] metrics_port` is set.

The counters and histograms live in prometheus_client's default registry, one per process
(with the process's own CPU, memory and file figures beside them); each process of a
sharded bot is scraped on its own port. Figures read from the database (games under way,
the outbox) are refreshed by the endpoint before each scrape, not counted here.
"""

from __future__ import annotations

import logging
import re
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import aiohttp
from prometheus_client import Counter, Gauge, Histogram, disable_created_metrics

log = logging.getLogger("schotten.bot")

# No `_created` sample beside each counter: a scrape is read by people too.
# prometheus_client leaves this one function unannotated.
disable_created_metrics()  # type: ignore[no-untyped-call]

# Buckets for things that should take milliseconds and may take seconds on a busy machine.
FAST = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

MOVES = Counter("schotten_moves", "Moves stored, by who made them", ["by"])
INTERACTIONS = Counter(
    "schotten_interactions",
    "Interactions received: slash commands by name, buttons and menus by kind",
    ["kind", "name"],
)
REFUSALS = Counter("schotten_refusals", "Requests refused, by the refusal's kind", ["kind"])
ERRORS = Counter("schotten_request_errors", "Requests that failed on the bot's side (bugs)")
ACK_SECONDS = Histogram(
    "schotten_ack_seconds",
    "From an interaction's creation to the bot's acknowledgement (Discord allows 3 s)",
    buckets=(0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0),
)
INVALID_REQUESTS = Counter(
    "schotten_invalid_requests",
    "Requests Discord answered 401, 403 or 429, by status and route: Discord bans a bot that"
    " makes 10,000 of them in 10 minutes (topics/rate-limits, Invalid Request Limit)",
    ["status", "route"],
)
RELAY_FAILURES = Counter(
    "schotten_relay_failures",
    "Announcements Discord did not take, by Discord's error code (or the error's kind)",
    ["code"],
)
COMPUTER_SECONDS = Histogram(
    "schotten_computer_think_seconds",
    "The computer's search time per decision",
    ["level"],
    buckets=(0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0),
)
DB_SECONDS = Histogram(
    "schotten_database_seconds",
    "Time in the database: reads, and writes (a transaction, waiting for it included)",
    ["op"],
    buckets=FAST,
)
# Refreshed from the database before each scrape (bot.front.health).
OUTBOX_PENDING = Gauge("schotten_outbox_pending", "Announcements stored and not yet made")
OUTBOX_OLDEST = Gauge(
    "schotten_outbox_oldest_seconds", "Age of the oldest announcement not yet made (0: none)"
)
OUTBOX_RETRYING = Gauge(
    "schotten_outbox_retrying", "Announcements not yet made that wait on a failure that can pass"
)
GAMES_UNDER_WAY = Gauge("schotten_games_under_way", "Games not finished")
GATEWAY_UP = Gauge(
    "schotten_gateway_connected", "1 if this shard's gateway session is connected", ["shard"]
)


@contextmanager
def database(op: str) -> Iterator[None]:
    start = time.perf_counter()
    try:
        yield
    finally:
        DB_SECONDS.labels(op).observe(time.perf_counter() - start)


# An interaction's answer: POST /interactions/{id}/{token}/callback (the first and only one
# per interaction, whatever part of the bot sends it).
CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")
DISCORD_EPOCH_MS = 1_420_070_400_000


# Discord's Invalid Request Limit: 10,000 answers 401, 403 or 429 (but 429s of scope
# `shared`) in 10 minutes ban the bot's address for a while. One warning when this process
# passes 1% of it, and another only after its rate fell back below.
INVALID_STATUSES = frozenset({401, 403, 429})
INVALID_WINDOW = 600.0
INVALID_WARN_AT = 100
API_PREFIX = "/api/v10"
# Path segments after which the next one is a token (an interaction's, a webhook's).
TOKEN_AFTER = frozenset({"interactions", "webhooks"})


def route_template(method: str, path: str) -> str:
    """`POST /channels/{id}/messages`: a request's route without its ids and tokens."""
    if path.startswith(API_PREFIX):
        path = path[len(API_PREFIX) :]
    parts = path.split("/")
    for i, part in enumerate(parts):
        if i >= 2 and parts[i - 2] in TOKEN_AFTER and parts[i - 1] == "{id}":
            parts[i] = "{token}"
        elif i >= 1 and parts[i - 1] == "reactions":
            parts[i] = "{emoji}"
        elif part.isdigit():
            parts[i] = "{id}"
    return f"{method} {'/'.join(parts)}"


class InvalidRequests:
    """Counts the answers Discord's Invalid Request Limit counts, in `/metrics` by status
    and route, and warns once when their rate passes 1% of the limit."""

    def __init__(self, now: Callable[[], float]) -> None:
        self._now = now
        self._recent: deque[float] = deque()
        self.over = False  # warned, and not yet fallen back below

    def answered(self, method: str, path: str, status: int, scope: str | None) -> None:
        if status not in INVALID_STATUSES or (status == 429 and scope == "shared"):
            return
        INVALID_REQUESTS.labels(str(status), route_template(method, path)).inc()
        now = self._now()
        recent = self._recent
        recent.append(now)
        while recent[0] <= now - INVALID_WINDOW:
            recent.popleft()
        if len(recent) >= INVALID_WARN_AT and not self.over:
            self.over = True
            log.warning(
                "%d requests refused by Discord (401/403/429) in the last %d minutes, the"
                " last %s %s: Discord bans a bot at 10,000 (see schotten_invalid_requests"
                " in /metrics)",
                len(recent),
                INVALID_WINDOW // 60,
                status,
                route_template(method, path),
            )
        elif len(recent) < INVALID_WARN_AT and self.over:
            self.over = False
            log.info("requests refused by Discord are back under %d in 10 minutes", INVALID_WARN_AT)


def http_trace(now: Callable[[], float] = time.time) -> aiohttp.TraceConfig:
    """For the bot's HTTP session (discord.py's `http_trace`): every acknowledgement is
    timed from the interaction's creation, which its id (a snowflake) tells, and every
    answer Discord's Invalid Request Limit counts is counted (on the clock `now`): every
    request discord.py sends passes here, those it retries itself included."""
    invalid = InvalidRequests(now)

    async def on_request_end(
        session: aiohttp.ClientSession, context: Any, params: aiohttp.TraceRequestEndParams
    ) -> None:
        response = params.response
        if response.status in INVALID_STATUSES:
            scope = response.headers.get("X-RateLimit-Scope")
            invalid.answered(params.method, params.url.path, response.status, scope)
        found = CALLBACK.search(params.url.path)
        if found is not None and params.response.status < 300:
            created = ((int(found[1]) >> 22) + DISCORD_EPOCH_MS) / 1000
            ACK_SECONDS.observe(max(0.0, time.time() - created))

    trace = aiohttp.TraceConfig()
    trace.on_request_end.append(on_request_end)
    return trace
