"""Discord's rate limits, as discord-api-docs topics/rate-limits describes them.

- **Per-route buckets** (``rate_limits``): every REST answer carries ``X-RateLimit-Limit``,
  ``-Remaining``, ``-Reset``, ``-Reset-After`` and ``-Bucket``; a request on an exhausted
  bucket is answered 429 with ``retry_after``, ``global: false`` and ``X-RateLimit-Scope:
  user``. A bucket is per route and per top-level resource (``channel_id``, ``guild_id``,
  ``webhook_id`` + token). Discord publishes no route's limit (the page says not to hard
  code them): the numbers below are named choices, of the order bots observe.
- **The global limit** (``global_rate_limit``): 50 requests a second per bot; interaction
  endpoints are exempt ("Interaction endpoints are not bound to the bot's Global Rate
  Limit"); a 429 with ``global: true`` and ``X-RateLimit-Global: true``.
- **The invalid request limit** (``invalid_request_ban``): every 401, 403 and 429 answer
  (but a 429 of scope ``shared``) is recorded; past ``invalid_request_limit`` of them in 10
  minutes every request is refused for ``ban_seconds``, as Cloudflare refuses a banned
  address (Discord does not publish the ban's form: a 429 with Cloudflare's ``error code:
  1015`` text and no ``Via`` header, which discord.py raises at once instead of waiting).
- **Opening DMs too fast** (``dm_open_limit``): 403, 40003 "You are opening direct messages
  too fast" past ``DM_OPEN_LIMIT`` DM channels opened in ``DM_OPEN_WINDOW`` (undocumented).

Buckets, the global limit and DM opens run on the loopback's clock plus, when that clock is
a manual one, the real time that passed: discord.py waits out a ``Retry-After`` in real
seconds, and a bucket must refill while it does. The invalid-request window and the ban run
on the loopback's clock alone (``emu.now()``), so a test or a simulated week moves them.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .errors import ApiError

API_PREFIX = "/api/v10"
# A route's bucket (undocumented: named choices, of the order bots observe).
MESSAGE_POSTS = (5, 5.0)  # POST /channels/{channel_id}/messages: 5 per 5 s per channel
MESSAGE_EDITS = (5, 5.0)  # PATCH/DELETE a channel's message: 5 per 5 s per channel
REACTIONS = (1, 0.25)  # a reaction added: 1 per quarter second per channel
DEFAULT_BUCKET = (10, 1.0)  # any other route: 10 a second per route and resource
ROUTE_BUCKETS: dict[str, tuple[int, float]] = {
    "POST /channels/{channel_id}/messages": MESSAGE_POSTS,
    "PATCH /channels/{channel_id}/messages/{id}": MESSAGE_EDITS,
    "DELETE /channels/{channel_id}/messages/{id}": MESSAGE_EDITS,
    "PUT /channels/{channel_id}/messages/{id}/reactions/{emoji}/@me": REACTIONS,
}
GLOBAL_LIMIT = 50  # requests a second per bot token (topics/rate-limits, Global Rate Limit)
GLOBAL_PERIOD = 1.0
INVALID_REQUEST_LIMIT = 10_000  # 401/403/429 answers per 10 minutes (Invalid Request Limit)
INVALID_REQUEST_WINDOW = 600.0
INVALID_STATUSES = frozenset({401, 403, 429})
BAN_SECONDS = 3600.0  # undocumented: bots report bans of about an hour
BAN_BODY = "error code: 1015"  # Cloudflare's rate-limit block
DM_OPEN_LIMIT = 30  # undocumented: DM channels opened per DM_OPEN_WINDOW before 40003
DM_OPEN_WINDOW = 60.0
DM_OPENS_TOO_FAST = 40003
RATE_LIMITED = "You are being rate limited."
# Top-level resources (major parameters): their id stays in the bucket's key.
MAJOR = {"channels": "{channel_id}", "guilds": "{guild_id}", "webhooks": "{webhook_id}"}
# Segments that are tokens: the one after an interaction's or a webhook's id.
TOKEN_AFTER = frozenset({"interactions", "webhooks"})


@dataclass(frozen=True, slots=True)
class InvalidRequest:
    """A 401, 403 or 429 Discord answered (what its Invalid Request Limit counts)."""

    time: float  # the loopback's clock (emu.now())
    status: int
    method: str
    route: str  # the route's template: "POST /channels/{channel_id}/messages"


def route_of(method: str, path: str) -> tuple[str, str]:
    """``("POST /channels/{channel_id}/messages", "123")``: the route's template and its top-level
    resource (the major parameters' values), from a request's path after ``/api/v10``."""
    parts = path.split("/")
    major: list[str] = []
    previous = ""
    for i, part in enumerate(parts):
        if previous == "reactions":
            parts[i] = "{emoji}"
        elif previous.isdigit() and parts[i - 2] in TOKEN_AFTER:
            parts[i] = "{token}"
            if parts[i - 2] == "webhooks":
                major.append(part)
        elif part.isdigit():
            name = MAJOR.get(previous)
            if name is not None:
                major.append(part)
                parts[i] = name
            else:
                parts[i] = "{id}"
        previous = part
    return f"{method} {'/'.join(parts)}", "+".join(major)


def max_in_window(times: Iterable[float], window: float = INVALID_REQUEST_WINDOW) -> int:
    """The most of ``times`` within any ``window`` seconds (a sliding window)."""
    ordered = sorted(times)
    best = start = 0
    for end, t in enumerate(ordered):
        while ordered[start] <= t - window:
            start += 1
        best = max(best, end - start + 1)
    return best


class _Window:
    """A fixed window: opened by its first request, ``limit`` requests until ``reset``."""

    __slots__ = ("reset", "used")

    def __init__(self) -> None:
        self.reset = 0.0
        self.used = 0


def _bucket_hash(route: str) -> str:
    return hashlib.sha1(route.encode()).hexdigest()[:16]


class RateLimits:
    """The four behaviours' state; the server's middleware asks it about every REST request."""

    def __init__(
        self,
        plays: Callable[[str], bool],
        now: Callable[[], float],
        *,
        real_time_passes: bool,
        rate_clock: Callable[[], float] | None = None,
        invalid_request_limit: int = INVALID_REQUEST_LIMIT,
        ban_seconds: float = BAN_SECONDS,
    ) -> None:
        self.buckets_on = plays("rate_limits")
        self.global_on = plays("global_rate_limit")
        self.ban_on = plays("invalid_request_ban")
        self.dm_limit_on = plays("dm_open_limit")
        self._now = now
        # A manual clock stands still while discord.py sleeps out a Retry-After.
        self._real_start = time.monotonic() if real_time_passes else None
        self._rate_clock = rate_clock
        self.invalid_request_limit = invalid_request_limit
        self.ban_seconds = ban_seconds
        self.invalid_requests: list[InvalidRequest] = []
        self._recent_invalid: deque[float] = deque()
        self.banned_until: float | None = None
        self.banned_requests = 0  # requests refused by the ban (not counted as invalid)
        self._windows: dict[tuple[str, str], _Window] = {}
        self._global = _Window()
        self._dm_opens: deque[float] = deque()
        self._hashes: dict[str, str] = {}

    def rate_now(self) -> float:
        """The buckets' time: the loopback's clock, plus real time under a manual clock."""
        if self._rate_clock is not None:
            return self._rate_clock()
        if self._real_start is None:
            return self._now()
        return self._now() + time.monotonic() - self._real_start

    # -- before the route runs -------------------------------------------------------------

    def banned(self) -> float | None:
        """Seconds of ban left, or None."""
        if self.banned_until is None:
            return None
        left = self.banned_until - self._now()
        if left <= 0:
            self.banned_until = None
            return None
        self.banned_requests += 1
        return left

    def admit(self, method: str, path: str) -> dict[str, str]:
        """The rate-limit headers of this request's answer; raises the 429 (or 40003) that
        refuses it."""
        route_path = path[len(API_PREFIX) :] if path.startswith(API_PREFIX) else path
        interaction = route_path.startswith(("/interactions/", "/webhooks/"))
        now = self.rate_now()
        if self.global_on and not interaction:
            self._check_global(now)
        headers: dict[str, str] = {}
        if self.buckets_on and not route_path.startswith("/interactions/"):
            headers = self._take(method, route_path, now)
        if self.dm_limit_on and method == "POST" and route_path == "/users/@me/channels":
            while self._dm_opens and self._dm_opens[0] <= now - DM_OPEN_WINDOW:
                self._dm_opens.popleft()
            if len(self._dm_opens) >= DM_OPEN_LIMIT:
                raise ApiError(403, DM_OPENS_TOO_FAST, "You are opening direct messages too fast")
            self._dm_opens.append(now)
        return headers

    def _check_global(self, now: float) -> None:
        window = self._global
        if now >= window.reset:
            window.reset, window.used = now + GLOBAL_PERIOD, 0
        window.used += 1
        if window.used > GLOBAL_LIMIT:
            wait = window.reset - now
            raise ApiError(
                429,
                0,
                RATE_LIMITED,
                retry_after=round(wait, 3),
                global_limit=True,
                headers={
                    "Retry-After": str(math.ceil(wait)),
                    "X-RateLimit-Global": "true",
                    "X-RateLimit-Scope": "global",
                },
            )

    def _take(self, method: str, route_path: str, now: float) -> dict[str, str]:
        route, major = route_of(method, route_path)
        limit, period = ROUTE_BUCKETS.get(route, DEFAULT_BUCKET)
        key = (route, major)
        window = self._windows.get(key)
        if window is None:
            if len(self._windows) > 10_000:  # forget windows long reset
                self._windows = {k: w for k, w in self._windows.items() if w.reset > now}
            window = self._windows[key] = _Window()
        if now >= window.reset:
            window.reset, window.used = now + period, 0
        bucket = self._hashes.get(route) or self._hashes.setdefault(route, _bucket_hash(route))
        exhausted = window.used >= limit
        if not exhausted:
            window.used += 1
        after = max(0.0, window.reset - now)
        headers = {
            "X-RateLimit-Limit": str(limit),
            "X-RateLimit-Remaining": str(limit - window.used),
            "X-RateLimit-Reset": f"{window.reset:.3f}",
            "X-RateLimit-Reset-After": f"{after:.3f}",
            "X-RateLimit-Bucket": bucket,
        }
        if exhausted:
            headers["Retry-After"] = str(math.ceil(after))
            headers["X-RateLimit-Scope"] = "user"
            raise ApiError(429, 0, RATE_LIMITED, retry_after=round(after, 3), headers=headers)
        return headers

    # -- after it answered -----------------------------------------------------------------

    def answered(self, method: str, path: str, status: int, scope: str | None) -> None:
        """Count an invalid answer; past the limit in 10 minutes, the ban begins."""
        if status not in INVALID_STATUSES or (status == 429 and scope == "shared"):
            return
        now = self._now()
        route_path = path[len(API_PREFIX) :] if path.startswith(API_PREFIX) else path
        self.invalid_requests.append(
            InvalidRequest(now, status, method, route_of(method, route_path)[0])
        )
        recent = self._recent_invalid
        recent.append(now)
        while recent[0] <= now - INVALID_REQUEST_WINDOW:
            recent.popleft()
        if self.ban_on and len(recent) >= self.invalid_request_limit:
            self.banned_until = now + self.ban_seconds
            recent.clear()

    def max_invalid_per_window(self, window: float = INVALID_REQUEST_WINDOW) -> int:
        """The most invalid answers in any ``window`` seconds of the loopback's clock."""
        return max_in_window((r.time for r in self.invalid_requests), window)
