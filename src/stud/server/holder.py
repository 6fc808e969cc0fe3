"""One room per database: a running ``stud serve`` holds its database, so that a second one
started on it by mistake stops at once instead of voiding the first one's hands and dealing the
same tables twice.

A one-process server holds the database alone. The workers of ``stud serve --workers N`` share
it among themselves (they divide the tables by leases in it), so the parent holds it shared:
another group of workers may join them, a one-process server may not. The hold is the
operating system's or the database's own, so it ends with the process, even a killed one:

- SQLite: an exclusive ``flock`` on the database file (SQLite's own locks are of another kind,
  byte ranges by ``fcntl``, and do not meet it; ``stud audit`` takes none and reads on).
- PostgreSQL: an advisory lock held by one connection for the server's life (exclusive for one
  process, shared for workers), one for each schema (``search_path``) of a database.

And one room per Redis prefix (``RoomClaim``): the workers of two rooms on one Redis under one
``--redis-prefix`` would play at each other's tables, so the second room is refused at its
start. That hold is a key with a short life, renewed by the room's parents: a killed room's
ends by itself, a few seconds later.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import math
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger("stud.server")
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
        # Let go at once: closing the session ends its locks too, but only once the server's
        # backend has ended, a moment after the connection is closed.
        unlock = "pg_advisory_unlock_shared" if shared else "pg_advisory_unlock"
        with contextlib.suppress(Exception):
            connection.execute(text(f"SELECT {unlock}(:key, hashtext(current_schema()))"),
                               {"key": ADVISORY_KEY})
            connection.commit()
        connection.close()
        engine.dispose()

    return release


# ---------------------------------------------------------------------- one room per prefix
#
# The workers of a room find each other in Redis under ``--redis-prefix``: its tables' owners,
# its lobby, its live workers, its tables' channels. Two rooms (two databases, or two schemas
# of one) on one Redis under one prefix would play at each other's tables (a table 1 in each)
# and count each other's workers. So a room claims its prefix before any worker starts: the
# key ``{prefix}:room`` names the database (``room`` to compare, ``shown`` to print), says
# how long the claim lasts unrenewed (``life``, ms) and holds a field ``p:{parent}`` for each
# parent serving that room (several machines may): when Redis last heard from it. Each parent
# renews the claim every fifth of its life; a clean stop takes its own field out, and the last
# one out deletes the key. A killed parent's claim expires by itself, ``seconds`` after its
# last renewal.

_CLAIM = """
local now = redis.call('TIME')
now = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local life = tonumber(ARGV[4])
local held = redis.call('HGET', KEYS[1], 'room')
local fields = redis.call('HGETALL', KEYS[1])
if held and held ~= ARGV[1] then
  local newest = 0
  for i = 1, #fields, 2 do
    if string.sub(fields[i], 1, 2) == 'p:' then
      newest = math.max(newest, tonumber(fields[i + 1]))
    end
  end
  return {0, redis.call('HGET', KEYS[1], 'shown') or held, redis.call('PTTL', KEYS[1]),
          now - newest, tonumber(redis.call('HGET', KEYS[1], 'life') or life)}
end
for i = 1, #fields, 2 do
  if string.sub(fields[i], 1, 2) == 'p:' and tonumber(fields[i + 1]) < now - life then
    redis.call('HDEL', KEYS[1], fields[i])
  end
end
redis.call('HSET', KEYS[1], 'room', ARGV[1], 'shown', ARGV[2], 'life', life, 'p:' .. ARGV[3], now)
redis.call('PEXPIRE', KEYS[1], life)
return {1}
"""
_LET_GO = """
if redis.call('HGET', KEYS[1], 'room') ~= ARGV[1] then return 0 end
redis.call('HDEL', KEYS[1], 'p:' .. ARGV[2])
local now = redis.call('TIME')
now = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local fields = redis.call('HGETALL', KEYS[1])
for i = 1, #fields, 2 do
  local beat = tonumber(fields[i + 1])
  if string.sub(fields[i], 1, 2) == 'p:' and beat >= now - tonumber(ARGV[3]) then return 0 end
end
redis.call('DEL', KEYS[1])
return 1
"""


class PrefixBusy(Exception):
    """Another room holds the Redis prefix; the message says which and what to do."""


@dataclass(frozen=True)
class RoomName:
    """A database as a room: ``key``, the same for every parent of the room (its URL without
    the password, and the schema it resolves to), and ``shown``, for people."""

    key: str
    shown: str


def room_name(url: str) -> RoomName:
    """The room a database URL serves: PostgreSQL's by its URL without the password and the
    schema it resolves to (``current_schema()``), SQLite's by its file's resolved path."""
    from sqlalchemy.engine import make_url

    from stud.server.store import without_password

    path = sqlite_path(url)
    if path is not None:
        return RoomName(f"sqlite {path.resolve()}", str(path.resolve()))
    if not url.startswith(("postgresql", "postgres")):
        return RoomName(without_password(url), without_password(url))
    from sqlalchemy import create_engine, text
    from sqlalchemy.pool import NullPool

    engine = create_engine(url, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            schema = connection.execute(text("SELECT current_schema()")).scalar()
    finally:
        engine.dispose()
    if schema is None:
        raise ValueError("no schema named in its search_path exists (the URL's "
                         "options=-csearch_path=...): create it, or correct the name")
    bare = make_url(url)._replace(password=None).render_as_string(hide_password=False)
    return RoomName(f"{bare} schema {schema}", f"{without_password(url)} (schema {schema})")


def room_seconds(lease_seconds: float) -> float:
    """How long a room's claim on its prefix lasts unrenewed: three leases, at least 3 s; long
    enough that its renewals (every fifth of it) do not lapse on a busy machine, short enough
    that a killed room's prefix is soon free again (its workers, told to stop with it, have
    stopped by then)."""
    return max(3.0, 3 * lease_seconds)


class RoomClaim:
    """A room's claim on its Redis prefix (``{prefix}:room``), by one of its parents."""

    def __init__(self, redis_url: str, prefix: str, room: RoomName, parent: str,
                 seconds: float) -> None:
        import redis

        self.redis_url = redis_url
        self.prefix = prefix
        self.key = f"{prefix}:room"
        self.room = room
        self.parent = parent
        self.seconds = seconds
        self._client = redis.Redis.from_url(redis_url, socket_connect_timeout=1,
                                            socket_timeout=1, decode_responses=True)
        self._claim = self._client.register_script(_CLAIM)
        self._let_go = self._client.register_script(_LET_GO)
        self._stop = threading.Event()
        self._keeping: threading.Thread | None = None

    def take(self) -> None:
        """Claim the prefix, or renew the claim; ``PrefixBusy`` when another room holds it.
        Redis's errors pass."""
        found = self._claim(keys=[self.key], args=[
            self.room.key, self.room.shown, self.parent, max(1, round(self.seconds * 1000))])
        if int(found[0]) == 1:
            return
        shown, left_ms, quiet_ms, life_ms = (str(found[1]), int(found[2]), int(found[3]),
                                             int(found[4]))
        from stud.server.store import without_password

        message = (f"--redis-prefix {self.prefix}: this prefix on Redis "
                   f"{without_password(self.redis_url)} is held by another room, the database "
                   f"{shown}; each room needs its own: pass another --redis-prefix")
        if quiet_ms > 2 * life_ms / 5 and left_ms > 0:  # two renewals missed: stopped?
            message += (f" (that room has not renewed it for {quiet_ms / 1000:.0f} s: if it "
                        f"was stopped, try again in {math.ceil(left_ms / 1000)} s)")
        raise PrefixBusy(message)

    def keep(self, lost: Callable[[str], None]) -> None:
        """Renew the claim every fifth of its life, on a thread of its own, until ``let_go``;
        ``lost`` is told (once, and the renewing ends) if another room took the prefix
        meanwhile (this room did not renew it in time)."""
        def run() -> None:
            failing = False
            while not self._stop.wait(self.seconds / 5):
                try:
                    self.take()
                    failing = False
                except PrefixBusy as error:
                    lost(str(error))
                    return
                except Exception as error:  # Redis is away: said once, tried again
                    if not failing:
                        log.warning("could not renew the claim on the Redis prefix %s: %s",
                                    self.prefix, error)
                    failing = True

        self._keeping = threading.Thread(target=run, name="stud-room-claim", daemon=True)
        self._keeping.start()

    def let_go(self) -> None:
        """A clean stop: this parent's part of the claim taken out (the whole claim, when it
        was the last of its room's parents)."""
        self._stop.set()
        if self._keeping is not None:
            self._keeping.join(5)
        with contextlib.suppress(Exception):
            self._let_go(keys=[self.key], args=[
                self.room.key, self.parent, max(1, round(self.seconds * 1000))])
        self._client.close()
