"""A throwaway PostgreSQL cluster for tests: the distribution's `initdb` and `pg_ctl`, a
data directory in a fresh temporary folder, TCP on a free loopback port, trust
authentication, no fsync (the data dies with the tests). Dropped at the end.
`Cluster(durable=True)` keeps PostgreSQL's own defaults for fsync, synchronous_commit and
full_page_writes instead, as a real deployment would (the benchmarks use it).

When the server's programs are missing the PostgreSQL tests skip with one line, except
under CI (the environment variable CI set), where they must run: `.ci/run` installs the
`postgresql` package, and a skip there would hide that it did not.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import asyncpg

MISSING = (
    "PostgreSQL's server programs (initdb, pg_ctl) are not installed: apt-get install postgresql"
)


def server_bin() -> Path | None:
    """The folder of initdb and pg_ctl: on PATH, or Debian's /usr/lib/postgresql/N/bin."""
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), reverse=True)
    return Path(versions[0]).parent if versions else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


GUARDED = "guarded"  # the one user the test cluster asks for a password


class Cluster:
    """One running server; `url(name)` is a database's URL."""

    def __init__(self, *, durable: bool = False) -> None:
        self.durable = durable
        bindir = server_bin()
        if bindir is None:
            raise FileNotFoundError(MISSING)
        self.bin = bindir
        self.root = Path(tempfile.mkdtemp(prefix="schotten-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        # initdb refuses to run as root: then the cluster belongs to the postgres user.
        self.user = "postgres" if os.geteuid() == 0 else None
        if self.user:
            shutil.chown(self.root, self.user)
            os.chmod(self.root, 0o700)

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        cmd = [str(self.bin / args[0]), *args[1:]]
        if self.user:
            cmd = ["runuser", "-u", self.user, "--", *cmd]
        return subprocess.run(cmd, check=check, capture_output=True, text=True, timeout=120)

    def start(self) -> None:
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8")
        # Trust for everyone but `GUARDED`, who must give a password (the tests of a wrong
        # password); the first matching line of pg_hba.conf wins.
        hba = self.data / "pg_hba.conf"
        hba.write_text(f"host all {GUARDED} 127.0.0.1/32 scram-sha-256\n" + hba.read_text())
        options = (
            f"-c listen_addresses=127.0.0.1 -c port={self.port}"
            f" -c unix_socket_directories='{self.root}' -c max_connections=200"
        )
        if not self.durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.root / "log"),
            "-w",
            "start",
        )

    def restart(self) -> None:
        """`pg_ctl restart` (fast mode: open connections are cut)."""
        # -l as at the start: otherwise the new server inherits our output pipes, and
        # waiting for pg_ctl's output would wait for the server to exit.
        log = str(self.root / "log")
        self._run("pg_ctl", "-D", str(self.data), "-l", log, "-m", "fast", "-w", "restart")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop", check=False)
        shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    async def create_database(self, name: str) -> str:
        """A new, empty database on the cluster: its URL."""
        await self._admin(f"CREATE DATABASE {name}")
        return self.url(name)

    async def drop_database(self, name: str) -> None:
        await self._admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    async def _admin(self, sql: str) -> None:
        admin = await asyncpg.connect(self.url())
        try:
            await admin.execute(sql)
        finally:
            await admin.close()

    def log(self) -> str:
        path = self.root / "log"
        return path.read_text() if path.exists() else ""
