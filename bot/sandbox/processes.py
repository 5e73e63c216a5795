"""A real bot in a child process, pointed at a loopback Discord emulator that runs in the
parent: how the sandbox runs several bot processes, and how the tests and benchmarks crash,
restart and shard them.

The child, `python -m bot.sandbox.processes BASE_URL [--shards 0-1 --shard-count 4]` with the
emulator's token in DISCORD_TOKEN (as for `schotten-bot run`) and the database (a SQLite
file, or a PostgreSQL URL that may hold a password) in SCHOTTEN_DATABASE, so that neither
shows in `ps`, runs exactly what `schotten-bot run` runs (`bot.runner.serve`, with its SIGTERM
handling) with one difference: it IDENTIFYs its shards without discord.py's 5 s pause
between them, as the emulator has no identify rate limit. `BotProcess` starts one from the
parent and watches it in the emulator.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import logging
import os
import signal
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.config import Config, check_shards, database_of, parse_shards
from bot.front.client import SchottenBot

if TYPE_CHECKING:
    from discord_loopback import Emulator
    from discord_loopback.gateway import GatewaySession

ROOT = Path(__file__).resolve().parents[2]  # the folder holding the bot package
DATABASE_VARIABLE = "SCHOTTEN_DATABASE"


class BotProcessError(RuntimeError):
    """A bot process did not connect, or did not exit; the message holds its log."""


class EmulatedBot(SchottenBot):
    """The production bot, minus the wait before each shard's IDENTIFY."""

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        # discord.py waits 5 s before every IDENTIFY but the first (Discord allows one per
        # 5 s); the emulator has no such limit, and 4 shards would take 15 s to connect.
        return None


def _shards(text: str) -> tuple[int, int]:
    shards = parse_shards(text)
    if shards is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a range of shards such as 0-3 or 2")
    return shards


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot.sandbox.processes",
        description="Run the bot against a Discord emulator at BASE_URL (token: DISCORD_TOKEN,"
        " database: SCHOTTEN_DATABASE).",
    )
    parser.add_argument("base_url", help="The emulator, such as http://127.0.0.1:PORT.")
    parser.add_argument("--shards", type=_shards, default=None, metavar="FIRST-LAST")
    parser.add_argument("--shard-count", type=int, default=None, metavar="N")
    parser.add_argument("--seed", type=int, default=None, help="Repeatable deals (the sandbox).")
    parser.add_argument("--timer-seconds", type=float, default=3600.0)
    parser.add_argument(
        "--render-workers", type=int, default=None, metavar="N", help="[render] workers."
    )
    return parser


def child_config(args: argparse.Namespace, database: str) -> Config:
    """The child's configuration: its command line's, on `database`."""
    check_shards(args.shards, args.shard_count)
    config = Config(
        database=database_of(database),
        timer_seconds=args.timer_seconds,
        shards=args.shards,
        shard_count=args.shard_count,
    )
    if args.render_workers is not None:
        config = dataclasses.replace(config, render_workers=args.render_workers)
    return config


async def _main(argv: list[str]) -> int:
    from bot.runner import quiet_voice_warnings, serve
    from discord_loopback import point_discord_at_url

    args = _parser().parse_args(argv)
    config = child_config(args, os.environ[DATABASE_VARIABLE])
    point_discord_at_url(args.base_url)
    quiet_voice_warnings()
    token = os.environ.get("DISCORD_TOKEN", "")
    bot = EmulatedBot(config, seed=args.seed, guild_ready_timeout=0.1)
    return await serve(bot, token)


class BotProcess:
    """One bot in a child process, started by `await BotProcess(...).start()`: it returns
    once every shard of the process has a new live gateway session in the emulator.

    `shards` (first, last) of `shard_count`, or every shard (as the emulator recommends)
    when both are None. `env` adds to the child's environment (SCHOTTEN_CRASH_AT, ...).
    `render_workers`: its `[render] workers` (None: the default). Everything the child
    prints goes to `log`."""

    def __init__(
        self,
        emu: Emulator,
        database: Path | str,
        *,
        log: Path,
        shards: tuple[int, int] | None = None,
        shard_count: int | None = None,
        seed: int | None = None,
        timer_seconds: float = 3600.0,
        env: Mapping[str, str] | None = None,
        render_workers: int | None = None,
    ) -> None:
        check_shards(shards, shard_count)
        self.emu = emu
        self.database = database
        self.log = log
        self.shards = shards
        self.shard_count = shard_count
        self.seed = seed
        self.timer_seconds = timer_seconds
        self.env = dict(env or {})
        self.render_workers = render_workers
        self.proc: asyncio.subprocess.Process | None = None
        # The gateway sessions this process opened (a restarted process opens new ones).
        self.sessions: list[GatewaySession] = []

    def __repr__(self) -> str:
        return f"<BotProcess shards={self.shard_ids} pid={self.pid} exit={self.returncode}>"

    @property
    def shard_ids(self) -> list[int]:
        if self.shards is not None:
            return list(range(self.shards[0], self.shards[1] + 1))
        return list(range(self.shard_count or self.emu.recommended_shards))

    @property
    def pid(self) -> int | None:
        return None if self.proc is None else self.proc.pid

    @property
    def returncode(self) -> int | None:
        return None if self.proc is None else self.proc.returncode

    @property
    def session_ids(self) -> set[str]:
        return {s.id for s in self.sessions}

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def command(self) -> list[str]:
        argv = [sys.executable, "-m", "bot.sandbox.processes", self.emu.base_url]
        if self.shards is not None:
            argv += ["--shards", f"{self.shards[0]}-{self.shards[1]}"]
        if self.shard_count is not None:
            argv += ["--shard-count", str(self.shard_count)]
        if self.seed is not None:
            argv += ["--seed", str(self.seed)]
        if self.render_workers is not None:
            argv += ["--render-workers", str(self.render_workers)]
        return [*argv, "--timer-seconds", str(self.timer_seconds)]

    async def start(self, timeout: float = 60.0) -> BotProcess:
        """Start the child; return once each of its shards has a live session that it
        opened (BotProcessError with its log if it exits or does not connect in time)."""
        if self.proc is not None:
            raise RuntimeError("this bot process was already started")
        env = dict(os.environ)
        env.pop("SCHOTTEN_CRASH_AT", None)  # only where asked for, below
        path = env.get("PYTHONPATH")
        env["PYTHONPATH"] = str(ROOT) + (os.pathsep + path if path else "")
        # Secrets never on the command line, where `ps` shows them.
        env["DISCORD_TOKEN"] = self.emu.token
        env[DATABASE_VARIABLE] = str(self.database)
        env.update(self.env)
        known = set(self.emu.gateway.sessions.values())
        self.log.parent.mkdir(parents=True, exist_ok=True)
        with self.log.open("wb") as out:
            self.proc = await asyncio.create_subprocess_exec(
                *self.command(), cwd=ROOT, env=env, stdout=out, stderr=out
            )
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        wanted = set(self.shard_ids)
        while True:
            mine = [
                s
                for s in self.emu.gateway.sessions.values()
                if s not in known and s.shard_id in wanted
            ]
            if wanted <= {s.shard_id for s in mine if s.live}:
                self.sessions = mine
                return self
            if self.proc.returncode is not None or loop.time() > deadline:
                self.kill()
                await self.proc.wait()
                raise BotProcessError(
                    f"the bot for shards {sorted(wanted)} did not connect (exit code"
                    f" {self.proc.returncode}); its log:\n{self.log_text()}"
                )
            await asyncio.sleep(0.05)

    def live(self) -> bool:
        """Whether the process runs and each of its shards' sessions is connected."""
        return self.returncode is None and all(
            any(s.live and s.shard_id == shard for s in self.sessions) for shard in self.shard_ids
        )

    def kill(self) -> None:
        """SIGKILL: as a power cut or the OOM killer would stop it, with no clean-up."""
        self._signal(signal.SIGKILL)

    def terminate(self) -> None:
        """SIGTERM: a deploy's clean stop (see `bot.runner.serve`)."""
        self._signal(signal.SIGTERM)

    def _signal(self, sig: int) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.send_signal(sig)

    async def exit_code(self, timeout: float = 30.0) -> int:
        """The child's exit code once it has exited (-9 after SIGKILL); if it has not
        exited in time, it is killed and BotProcessError shows its log."""
        if self.proc is None:
            raise RuntimeError("this bot process was never started")
        try:
            return await asyncio.wait_for(self.proc.wait(), timeout)
        except TimeoutError:
            self.kill()
            await self.proc.wait()
            raise BotProcessError(f"the bot did not exit; its log:\n{self.log_text()}") from None

    async def stop(self, timeout: float = 30.0) -> int:
        """SIGTERM, then its exit code (0 for a clean stop)."""
        self.terminate()
        return await self.exit_code(timeout)

    async def __aenter__(self) -> BotProcess:
        return await self.start()

    async def __aexit__(self, *exc: Any) -> None:
        # A failure leaves no bot running.
        if self.proc is not None and self.proc.returncode is None:
            self.kill()
            await self.proc.wait()


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    sys.exit(asyncio.run(_main(sys.argv[1:])))
