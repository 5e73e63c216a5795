"""Which backend opens a database: PostgreSQL for a `postgresql://` URL, else SQLite.

The backends are imported only when chosen, so a SQLite bot never loads asyncpg.
"""

from __future__ import annotations

from pathlib import Path

from bot.store.interface import SYNCHRONOUS, Store, is_postgres


async def open_store(
    database: str | Path,
    *,
    upto: int | None = None,
    synchronous: str = "full",
    pool_size: int = 10,
) -> Store:
    """Open (creating if needed) and migrate to `upto` (tests use older versions).

    A `postgresql://` URL opens PostgreSQL (`pool_size` connections at most); anything else
    is a SQLite file, whose `synchronous` "full" (the default) makes every commit durable
    before it returns, so a power cut or an OS crash loses no acknowledged move; "normal"
    survives a killed process but may lose the last commits to a power cut."""
    if synchronous not in SYNCHRONOUS:
        raise ValueError(f"synchronous is one of {', '.join(SYNCHRONOUS)}")
    if is_postgres(database):
        from bot.store.pg import PgStore

        return await PgStore.connect(str(database), upto=upto, pool_size=pool_size)
    from bot.store.sqlite import SqliteStore

    return await SqliteStore.connect(Path(database), upto=upto, synchronous=synchronous)
