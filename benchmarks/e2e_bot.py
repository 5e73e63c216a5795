"""The bot the e2e benchmark plays against: in a process of its own (`bot.sandbox.processes`,
the code `schotten-bot run` runs), as a real bot runs apart from Discord, with its pictures
in its own picture process; the players read its games through a `GameService` of their own
on its database, as e2e_shards's do.

`BotApart.cpu_seconds()` is the CPU the bot has used: its process and every process it
started (the picture process and its fork server, the computer's pool), read from /proc.

benchmarks/compare_e2e.sh puts a module of the same name and API in place of this one to run
an older tree's bot the same way.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported where used: compare_e2e.sh's shim reuses the rest on older trees
    from bot.service import GameService
    from discord_loopback import Emulator


def _stat(pid: int | str) -> list[str] | None:
    """The fields of /proc/PID/stat after the command's name (None if it has gone)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return None


def descendants(pid: int) -> list[int]:
    """The processes `pid` started, their children, and so on (Linux's /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        fields = _stat(entry) if entry.isdigit() else None
        if fields is not None:
            children.setdefault(int(fields[1]), []).append(int(entry))  # fields[1]: ppid
    found: list[int] = []
    todo = [pid]
    while todo:
        kids = children.get(todo.pop(), [])
        found += kids
        todo += kids
    return found


def cpu_seconds(pids: list[int]) -> float:
    """The CPU seconds (user and system) the processes `pids` have used; 0 for one gone."""
    ticks = 0
    for pid in pids:
        fields = _stat(pid)
        if fields is not None:
            ticks += int(fields[11]) + int(fields[12])  # utime, stime: stat's 14th and 15th
    return ticks / os.sysconf("SC_CLK_TCK")


@dataclass
class BotApart:
    """A bot running in process `pid`, and the players' service on its database."""

    pid: int
    service: GameService

    def cpu_seconds(self) -> tuple[float, float]:
        """(the bot's CPU seconds in all, the part of them its child processes used)."""
        children = cpu_seconds(descendants(self.pid))
        return cpu_seconds([self.pid]) + children, children


@asynccontextmanager
async def bot_apart(emu: Emulator, database: Path, log: Path) -> AsyncIterator[BotApart]:
    """The bot in a process of its own, connected to `emu` with its commands registered,
    stopped (SIGTERM, and it must exit cleanly) at the end. `E2E_RENDER_WORKERS=N` sets
    its `[render] workers` (unset: the bot's default)."""
    from bot.sandbox.processes import BotProcess
    from bot.service import GameService

    chosen = os.environ.get("E2E_RENDER_WORKERS")
    workers = int(chosen) if chosen is not None else None
    process = BotProcess(emu, database, log=log, render_workers=workers)
    async with process:
        await emu.wait_for_bot(commands=["schotten"])
        assert process.pid is not None
        service = await GameService.open(database)
        try:
            yield BotApart(process.pid, service)
        finally:
            await service.close()
        code = await process.stop()
        if code != 0:
            raise RuntimeError(f"the bot did not stop cleanly ({code}):\n{process.log_text()}")
