"""The admin's window on a running process: `/healthz` and `/metrics` over HTTP (aiohttp,
which discord.py already brings), on `[bot] metrics_host`:`metrics_port` (127.0.0.1 unless
told otherwise: the figures are for the machine's own monitoring, not the internet).

`/healthz` answers 200 when the database answers, every shard of this process has its
gateway session, and the oldest announcement not yet made is younger than `LAG_LIMIT`;
otherwise 503. Its JSON body says which part is wrong. Announcements waiting on a failure
that can pass (Discord down, a 429 or a ban, the network) are retried for as long as it
lasts: the body counts them and says since when, `degraded` (still 200) while they are
younger than `LAG_LIMIT`. `/metrics` is the Prometheus text
format of `bot.metrics`, with the database's figures read just before.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest

from bot import metrics
from bot.service import RETRY_MAX_DELAY, GameService, Vitals

log = logging.getLogger("schotten.bot")

# An announcement older than this means the relay is stuck (Discord refusing, a lost lease):
# what an admin wants paged about. Retries back off up to 10 minutes, so 15 leaves room.
LAG_LIMIT = 15 * 60.0
DATABASE_TIMEOUT = 5.0


class Health:
    def __init__(self, client: discord.AutoShardedClient, host: str, port: int) -> None:
        self.client = client
        self.host = host
        self.port = port
        self._runner: web.AppRunner | None = None

    @property
    def service(self) -> GameService | None:
        return getattr(self.client, "service", None)

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/metrics", self.metrics)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, self.host, self.port).start()
        log.info("health and metrics on http://%s:%s/healthz and /metrics", self.host, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def _shards(self) -> dict[str, bool]:
        ids = self.client.shard_ids
        if ids is None:
            ids = list(range(self.client.shard_count or 1))
        known = self.client.shards
        return {str(i): i in known and not known[i].is_closed() for i in ids}

    async def _vitals(self) -> Vitals | str:
        """The database's figures, or why it did not give them."""
        if self.service is None:
            return "not opened yet"
        try:
            return await asyncio.wait_for(self.service.vitals(), DATABASE_TIMEOUT)
        except TimeoutError:
            return f"no answer within {DATABASE_TIMEOUT:g} s"
        except Exception as e:  # any failure is the answer here
            return f"{type(e).__name__}: {e}"

    async def healthz(self, request: web.Request) -> web.Response:
        vitals = await self._vitals()
        shards = self._shards()
        body: dict[str, Any] = {"gateway": shards}
        healthy = all(shards.values())
        degraded = False
        if isinstance(vitals, str):
            body["database"] = vitals
            healthy = False
        else:
            body["database"] = "ok"
            outbox: dict[str, Any] = {
                "pending": vitals.pending,
                "oldest_seconds": round(vitals.oldest_seconds, 1),
                "retrying": vitals.retrying,
                "retrying_since_seconds": round(vitals.retrying_seconds, 1),
            }
            body["outbox"] = outbox
            body["games_under_way"] = vitals.active
            if vitals.retrying:
                degraded = True
                outbox["problem"] = (
                    f"{vitals.retrying} announcement(s) wait on Discord or the network since"
                    f" {vitals.retrying_seconds:.0f} s; tried again every {RETRY_MAX_DELAY:g} s"
                    " at most, for as long as it lasts"
                )
            if vitals.oldest_seconds > LAG_LIMIT:
                outbox.setdefault("problem", f"an announcement waits over {LAG_LIMIT:g} s")
                healthy = False
        body["status"] = "unhealthy" if not healthy else "degraded" if degraded else "ok"
        return web.json_response(body, status=200 if healthy else 503)

    async def metrics(self, request: web.Request) -> web.Response:
        vitals = await self._vitals()
        if not isinstance(vitals, str):
            metrics.OUTBOX_PENDING.set(vitals.pending)
            metrics.OUTBOX_OLDEST.set(vitals.oldest_seconds)
            metrics.OUTBOX_RETRYING.set(vitals.retrying)
            metrics.GAMES_UNDER_WAY.set(vitals.active)
        for shard, up in self._shards().items():
            metrics.GATEWAY_UP.labels(shard).set(1 if up else 0)
        body = generate_latest(REGISTRY)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})
