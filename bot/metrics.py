"""What the bot counts and times for its admin, in the Prometheus format (the maintained
`prometheus_client` library), served by `bot.front.health` when `[bot] metrics_port` is set.

The counters and histograms live in prometheus_client's default registry, one per process
(with the process's own CPU, memory and file figures beside them); each process of a
sharded bot is scraped on its own port. Figures read from the database (games under way,
the outbox) are refreshed by the endpoint before each scrape, not counted here.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import aiohttp
from prometheus_client import Counter, Gauge, Histogram, disable_created_metrics

# No `_created` sample beside each counter: a scrape is read by people too.
disable_created_metrics()

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


def http_trace() -> aiohttp.TraceConfig:
    """For the bot's HTTP session (discord.py's `http_trace`): every acknowledgement is
    timed from the interaction's creation, which its id (a snowflake) tells."""

    async def on_request_end(
        session: aiohttp.ClientSession, context: Any, params: aiohttp.TraceRequestEndParams
    ) -> None:
        found = CALLBACK.search(params.url.path)
        if found is not None and params.response.status < 300:
            created = ((int(found[1]) >> 22) + DISCORD_EPOCH_MS) / 1000
            ACK_SECONDS.observe(max(0.0, time.time() - created))

    trace = aiohttp.TraceConfig()
    trace.on_request_end.append(on_request_end)
    return trace
