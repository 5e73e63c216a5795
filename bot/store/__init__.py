"""The store: every game, rating and setting of the bot in SQLite (one process) or
PostgreSQL (several), behind one interface.

- `interface`: `Store` with all the SQL, written once for both databases; `Tx`, the writer
  inside a transaction; the values the store reads and writes.
- `factory`: `open_store(database)`, which picks the backend by the database's form.
- `sqlite`, `pg`: the two backends; `migrations_sqlite`, `migrations_pg`: their schemas as
  numbered migrations, number for number.
- `migrate`: `schotten-bot migrate-db`, a whole database copied into an empty one, then
  checked.

The interface imports neither backend; importing this package loads neither.
"""

from bot.store.factory import open_store
from bot.store.interface import (
    DMS_CLOSED,
    MAX_ID,
    SYNCHRONOUS,
    ChannelBusy,
    MoveWrite,
    NewAnnouncement,
    Notifications,
    Row,
    Settings,
    Store,
    StoreUnavailable,
    Tx,
    is_postgres,
    safe_database,
    valid_id,
)

__all__ = [
    "DMS_CLOSED",
    "MAX_ID",
    "SYNCHRONOUS",
    "ChannelBusy",
    "MoveWrite",
    "NewAnnouncement",
    "Notifications",
    "Row",
    "Settings",
    "Store",
    "StoreUnavailable",
    "Tx",
    "is_postgres",
    "open_store",
    "safe_database",
    "valid_id",
]
