"""The database, opened and migrated before the bot logs in to Discord: each way that can
fail becomes one line an admin can act on, naming the setting and the cause, with the
password masked, instead of a driver's traceback after the login."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from urllib.parse import urlsplit

from bot.store.factory import open_store
from bot.store.interface import SchemaTooNew, Store, is_postgres, safe_database

SETTING = "the `database` setting in [bot]"


class DatabaseProblem(Exception):
    """The database cannot be used; the message is one line saying why and what to do."""


async def open_checked(
    database: str | Path, *, synchronous: str = "full", pool_size: int = 10
) -> Store:
    """`open_store`, with every failure as a `DatabaseProblem`."""
    if not is_postgres(database) and not Path(database).parent.is_dir():
        # Said before aiosqlite tries: its failed connect leaves a thread behind that
        # prints a traceback of its own when the event loop closes.
        raise DatabaseProblem(explain(database, FileNotFoundError(database)))
    try:
        return await open_store(database, synchronous=synchronous, pool_size=pool_size)
    except SchemaTooNew as e:
        raise DatabaseProblem(
            f"{safe_database(database)} ({SETTING}) was written by a newer schotten-bot"
            f" ({e}). Run that version, or restore a backup made for this one."
        ) from None
    except Exception as e:  # each cause below; anything else still in one line
        raise DatabaseProblem(explain(database, e)) from None


async def check_database(database: str | Path, *, synchronous: str = "full") -> None:
    """Open, migrate and close: what `schotten-bot run` does before it logs in."""
    store = await open_checked(database, synchronous=synchronous, pool_size=1)
    await store.close()


def explain(database: str | Path, error: BaseException) -> str:
    if is_postgres(database):
        return _postgres(str(database), error)
    return _sqlite(Path(database), error)


def _postgres(url: str, error: BaseException) -> str:
    import asyncpg  # only a PostgreSQL bot loads it

    parts = urlsplit(url)
    user = parts.username or "(the default user)"
    host = f"{parts.hostname or 'localhost'}:{parts.port or 5432}"
    name = parts.path.lstrip("/") or user
    where = f"{safe_database(url)} ({SETTING})"
    if isinstance(error, asyncpg.InvalidPasswordError):
        return (
            f"PostgreSQL at {host} refused the password of user {user}: check the password"
            f" in {where}."
        )
    if isinstance(error, asyncpg.InvalidAuthorizationSpecificationError):
        return f"PostgreSQL at {host} does not let user {user} in ({error}); check {where}."
    if isinstance(error, asyncpg.InvalidCatalogNameError):
        return (
            f"PostgreSQL at {host} has no database {name!r}: create it (createdb {name})"
            f" or correct {where}."
        )
    if isinstance(error, asyncpg.InsufficientPrivilegeError):
        return (
            f"User {user} may not create the bot's tables in database {name!r} at {host}"
            f" ({error}): grant it, or use another user in {where}."
        )
    if isinstance(error, ConnectionError | OSError | TimeoutError):
        cause = str(error).removeprefix("cannot reach PostgreSQL: ") or type(error).__name__
        return (
            f"Cannot reach PostgreSQL at {host} ({cause}): is the server running and"
            f" listening there? Check {where}."
        )
    return f"Cannot open PostgreSQL database {where}: {type(error).__name__}: {error}."


def _sqlite(path: Path, error: BaseException) -> str:
    where = f"{path} ({SETTING})"
    if not path.parent.is_dir():
        return (
            f"Cannot create the SQLite database {where}: its folder {path.parent} does not"
            " exist (or is not a folder). Create the folder or choose another path."
        )
    if isinstance(error, sqlite3.DatabaseError) and "not a database" in str(error):
        return f"{where} is not a SQLite database: choose another path for the bot's database."
    if isinstance(error, sqlite3.Error | OSError):
        return (
            f"Cannot open the SQLite database {where}: {error}. Check that this user may"
            " write the file and its folder."
        )
    return f"Cannot open the SQLite database {where}: {type(error).__name__}: {error}."
