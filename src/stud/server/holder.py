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
    """The file of an SQLite URL, however spelled (None for another database, SQLite in
    memory, or a URL that is not one: opening it says why).

    >>> sqlite_path("sqlite:///games.db"), sqlite_path("sqlite+pysqlite:///g.db?timeout=5")
    (PosixPath('games.db'), PosixPath('g.db'))
    >>> sqlite_path("sqlite://"), sqlite_path("postgresql://x"), sqlite_path("postgresql:/x")
    (None, None, None)
    """
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        return None
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database)


def hold_database(url: str, shared: bool = False) -> Callable[[], None]:
    """Hold the database at ``url`` for this server (``shared`` among workers); returns what
    lets it go. Raises ``DatabaseBusy`` when another server holds it."""
    path = sqlite_path(url)
    if path is not None:
        return _hold_file(path)
    if url.startswith(("postgresql", "postgres")):
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
    if connection.execute(text("SELECT current_schema()")).scalar() is None:
        connection.close()
        engine.dispose()
        raise ValueError("no schema named in its search_path exists (the URL's "
                         "options=-csearch_path=...): create it, or correct the name")
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
