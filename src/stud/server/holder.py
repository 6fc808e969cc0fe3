"""One room per database: a running ``stud serve`` holds its database, so that a second one
started on it by mistake stops at once instead of voiding the first one's hands and dealing the
same tables twice.

A one-process server holds the database alone. The workers of ``stud serve --workers N`` share
it among themselves (they divide the tables by leases in Redis), so the parent holds it shared:
another group of workers may join them, a one-process server may not. The hold is the
operating system's or the database's own, so it ends with the process, even a killed one:

- SQLite: an exclusive ``flock`` on the database file (SQLite's own locks are of another kind,
  byte ranges by ``fcntl``, and do not meet it; ``stud audit`` takes none and reads on).
- PostgreSQL: an advisory lock held by one connection for the server's life (exclusive for one
  process, shared for workers), one for each schema (``search_path``) of a database.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable
from pathlib import Path

ADVISORY_KEY = 0x53747564  # "Stud": with the schema's hash, the advisory lock a server takes


class DatabaseBusy(Exception):
    """Another server holds the database; the message says so."""


def sqlite_path(url: str) -> Path | None:
    """The file of an SQLite URL (None for another database, or SQLite in memory).

    >>> sqlite_path("sqlite:///games.db"), sqlite_path("sqlite://"), sqlite_path("postgresql://x")
    (PosixPath('games.db'), None, None)
    """
    if not url.startswith("sqlite:///"):
        return None
    path = url[len("sqlite:///"):].split("?", 1)[0]
    return None if path in ("", ":memory:") else Path(path)


def hold_database(url: str, shared: bool = False) -> Callable[[], None]:
    """Hold the database at ``url`` for this server (``shared`` among workers); returns what
    lets it go. Raises ``DatabaseBusy`` when another server holds it."""
    path = sqlite_path(url)
    if path is not None:
        return _hold_file(path)
    if url.startswith("postgresql"):
        return _hold_advisory(url, shared)
    return lambda: None  # another database: nothing to hold it by


_IN_USE = ("another stud serve is using this database; stop it first, or give this one "
           "another --database")


def _hold_file(path: Path) -> Callable[[], None]:
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(descriptor)
        raise DatabaseBusy(_IN_USE) from None
    return lambda: os.close(descriptor)


def _hold_advisory(url: str, shared: bool) -> Callable[[], None]:
    from sqlalchemy import create_engine, text
    from sqlalchemy.pool import NullPool

    engine = create_engine(url, poolclass=NullPool)
    connection = engine.connect()
    take = "pg_try_advisory_lock_shared" if shared else "pg_try_advisory_lock"
    held = connection.execute(text(f"SELECT {take}(:key, hashtext(current_schema()))"),
                              {"key": ADVISORY_KEY}).scalar()
    connection.commit()  # the lock is the session's: it outlives the transaction
    if not held:
        connection.close()
        engine.dispose()
        raise DatabaseBusy(
            "a one-process stud serve is using this database; stop it first, or give the "
            "workers another --database" if shared else
            "another stud serve (or stud serve --workers) is using this database; stop it "
            "first, or give this one another --database")

    def release() -> None:
        connection.close()  # closing the session ends its advisory locks
        engine.dispose()

    return release
