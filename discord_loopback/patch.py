"""Point discord.py at the emulator instead of discord.com.

discord.py keeps its endpoints in three class attributes: ``http.Route.BASE`` (REST, also
used by interaction callbacks and webhooks in ``webhook/async_.py``),
``gateway.DiscordWebSocket.DEFAULT_GATEWAY`` (used directly by ``Client.connect``, which never
asks ``/gateway/bot``), and ``asset.Asset.BASE`` (avatars and icons). Attachment URLs come
from the emulator's own payloads. These are process-wide, so one emulator at a time.
"""

from __future__ import annotations

from types import TracebackType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .server import Emulator


class DiscordPointer:
    """Undo handle returned by ``point_discord_at``; also a (sync or async) context manager."""

    def __init__(self, saved: tuple[str, object, str]) -> None:
        self._saved: tuple[str, object, str] | None = saved

    def undo(self) -> None:
        """Restore discord.py's real endpoints (idempotent)."""
        if self._saved is None:
            return
        import discord.asset
        import discord.gateway
        import discord.http

        route_base, gateway, asset_base = self._saved
        discord.http.Route.BASE = route_base
        # The value saved from this very attribute (kept as `object` in `_saved`).
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway  # type: ignore[assignment]
        discord.asset.Asset.BASE = asset_base
        self._saved = None

    def __enter__(self) -> DiscordPointer:
        return self

    async def __aenter__(self) -> DiscordPointer:
        # Also usable in ``async with Emulator() as emu, emu.point_discord():``.
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.undo()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.undo()


def point_discord_at(emulator: Emulator) -> DiscordPointer:
    """Make every discord.py client in this process talk to ``emulator`` (must be started)."""
    if not emulator.port:
        raise RuntimeError("start the emulator before pointing discord.py at it")
    return point_discord_at_url(emulator.base_url)


def point_discord_at_url(base_url: str) -> DiscordPointer:
    """The same for an emulator at ``base_url`` (``http://127.0.0.1:PORT``), which may run in
    another process: a bot in a child process (the crash tests) reaches it this way."""
    import discord.asset
    import discord.gateway
    import discord.http
    import yarl

    saved = (
        discord.http.Route.BASE,
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
        discord.asset.Asset.BASE,
    )
    base = base_url.rstrip("/")
    discord.http.Route.BASE = f"{base}/api/v10"
    ws = "ws" + base[len("http") :] if base.startswith("http") else base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"{ws}/gateway")
    discord.asset.Asset.BASE = base
    return DiscordPointer(saved)
