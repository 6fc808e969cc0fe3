"""Which worker process owns a table: leases in the database, with a fencing epoch.

With ``stud serve --workers N`` each table is played by exactly one worker at a time. A worker
holds a table by its row of ``leases``: ``owner`` (the worker's name, unique to the process) and
``epoch``, which grows by one every time the table changes hands. The leases last while the
owner's row of ``lease_holders`` has not expired (by the database's clock, so that machines
whose clocks differ agree): a worker renews that one row every second or so, whatever the
number of its tables. A worker that dies stops renewing; once its row has expired another takes
its tables over, voiding the hands it cut off in the same transaction (every player gets their
starting stack back, as a restart does).

The lease lives in the database, beside the hands, so that fencing is one transaction: every
write of a table's state (a hand's start and end, a seat, chips) locks the table's lease row
(``FOR SHARE``) and is made only if it still names this worker and the epoch it took the table
with. A worker that stalled past its lease (a long pause, a lost network) and wakes up after
another took the table can therefore never write to it: its write fails with ``lease_lost`` and
nothing of it is kept. A takeover locks the rows it takes (``FOR UPDATE SKIP LOCKED``), so a
write and a takeover never interleave, and a takeover never waits for one.

PostgreSQL only (``SKIP LOCKED``); SQLite serves one process and needs no lease.
"""

from __future__ import annotations

import functools
import math
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, Engine, select, text

from stud.server.schema import hands, leases, tournaments
from stud.server.store import HandPlayer, OwnRecord, Store, StoreError

_SEED = text(
    "INSERT INTO leases (table_id, owner, epoch) "
    "SELECT t.id, NULL, 0 FROM tables t "
    "WHERE t.closed_at IS NULL AND t.created_at < now() - interval '10 seconds' "
    "ON CONFLICT (table_id) DO NOTHING")
_BEAT = text(
    "INSERT INTO lease_holders (owner, expires_at) "
    "VALUES (:owner, now() + :seconds * interval '1 second') "
    "ON CONFLICT (owner) DO UPDATE SET expires_at = excluded.expires_at")
_FORGET = text("DELETE FROM lease_holders WHERE expires_at < now() - interval '1 hour'")
_OPEN = text("SELECT count(*) FROM tables WHERE closed_at IS NULL")
_TAKE = text(
    "WITH free AS (SELECT l.table_id FROM leases l JOIN tables t ON t.id = l.table_id "
    "  LEFT JOIN lease_holders h ON h.owner = l.owner "
    "  WHERE t.closed_at IS NULL AND (h.expires_at IS NULL OR h.expires_at < now()) "
    "  ORDER BY l.table_id LIMIT :limit FOR UPDATE OF l SKIP LOCKED) "
    "UPDATE leases SET owner = :owner, epoch = leases.epoch + 1 "
    "FROM free WHERE leases.table_id = free.table_id "
    "RETURNING leases.table_id, leases.epoch")
_CLAIM = text(
    "INSERT INTO leases (table_id, owner, epoch) VALUES (:table_id, :owner, 1) "
    "ON CONFLICT (table_id) DO NOTHING RETURNING epoch")
_HELD = text("SELECT table_id, epoch FROM leases WHERE owner = :owner")
_RELEASE = text(
    "UPDATE leases SET owner = NULL WHERE owner = :owner AND table_id = ANY(:tables)")
_LOADS = text(
    "SELECT h.owner, count(l.table_id) AS tables FROM lease_holders h "
    "LEFT JOIN leases l ON l.owner = h.owner "
    "WHERE h.expires_at > now() AND h.owner <> :owner GROUP BY h.owner")
_RETIRE = text("DELETE FROM lease_holders WHERE owner = :owner")


# The store's writes of one table's state (seats, chips, the table itself), and of a
# tournament's (by its id): each is made only under the table's lease (``LeasedStore``).
# (``set_banks`` is fenced by ``_set_banks``, as ``start_hand`` and ``finish_hand`` are: left a
# bound method, it is still committed with the hands' writes, stud.server.store_thread.)
TABLE_WRITES = ("sit", "add_chips", "add_bot", "set_sitting_out", "set_leaving", "leave",
                "close_table", "set_paused", "renew_invite")
TOURNAMENT_WRITES = ("register", "unregister", "set_level", "place_busts")


class _FencedEngine:
    """The engine, but every transaction begun while a table write is being made
    (``LeasedStore._writing``) first checks that table's lease, inside that transaction."""

    def __init__(self, engine: Engine, store: LeasedStore) -> None:
        self._engine = engine
        self._store = store

    def __getattr__(self, name: str) -> Any:
        return getattr(self._engine, name)

    @contextmanager
    def begin(self) -> Iterator[Connection]:
        with self._engine.begin() as db:
            table_id = getattr(self._store._writing, "table", None)
            if table_id is not None:
                self._store._fence(db, table_id)
            yield db


class LeasedStore(Store):
    """The store of one worker process: every write of a table's state (a hand's start, end
    and void, a seat, chips, the table itself) fenced by the table's lease, and the leases
    themselves (taken, claimed, renewed, released)."""

    def __init__(self, url: str, owner: str, seconds: float = 5.0,
                 epochs: dict[int, int] | None = None) -> None:
        super().__init__(url, upgrade=False)  # the parent process upgraded it, once
        if self.engine.dialect.name != "postgresql":
            raise StoreError("not_postgresql", "several workers need PostgreSQL, not "
                             f"{self.engine.dialect.name}")
        self.owner = owner
        self.seconds = seconds
        # The tables this worker holds, each with the epoch it took it under. Written by the
        # lease calls, read by the fenced writes (a dict's get is atomic across threads).
        self.epochs: dict[int, int] = dict(epochs or {})
        self._writing = threading.local()  # .table: the table whose write is being made
        self.engine = _FencedEngine(self.engine, self)  # type: ignore[assignment]
        for name in TABLE_WRITES:
            setattr(self, name, self._fenced(getattr(self, name), self._same))
        for name in TOURNAMENT_WRITES:
            setattr(self, name, self._fenced(getattr(self, name), self._table_of_tournament))

    def recipe(self) -> tuple[str, str, tuple[Any, ...]]:
        # With the epochs held now: a store's process started again mid-game (its last one
        # stopped) fences the writes of every table at once, not only after the next change.
        return ("stud.server.lease", "LeasedStore",
                (self.url, self.owner, self.seconds, dict(self.epochs)))

    def adopt_epochs(self, epochs: dict[int, int]) -> None:
        """The tables and epochs the worker holds, as its own copy says (``Cluster``): for the
        copy of this store in the store's process, whose fenced writes check them. The
        database decides all the same: a write under an epoch that is no longer the lease's
        is refused there."""
        self.epochs = dict(epochs)

    def _same(self, table_id: int) -> int:
        return table_id

    def _table_of_tournament(self, tournament_id: int) -> int:
        with self.engine.connect() as db:
            table_id = db.execute(select(tournaments.c.table_id)
                                  .where(tournaments.c.id == tournament_id)).scalar()
        if table_id is None:
            raise StoreError("no_tournament", f"there is no tournament {tournament_id}")
        return int(table_id)

    def _fenced(self, write: Callable[..., Any], table_of: Callable[[int], int]
                ) -> Callable[..., Any]:
        @functools.wraps(write)
        def fenced(key: int, *args: Any, **kwargs: Any) -> Any:
            outer = getattr(self._writing, "table", None)
            self._writing.table = table_of(key)
            try:
                return write(key, *args, **kwargs)
            finally:
                self._writing.table = outer
        return fenced

    # ------------------------------------------------------------------ the leases

    def take_tables(self, workers: int) -> list[tuple[int, int, list[int]]]:
        """Take tables whose lease expired (or never was), up to this worker's share of the
        open tables among ``workers`` live workers; void the hands each had running. Each
        table taken: (table id, epoch, hands voided)."""
        with self.engine.begin() as db:
            db.execute(_BEAT, {"owner": self.owner, "seconds": self.seconds})
            db.execute(_FORGET)
            db.execute(_SEED)
            open_tables = int(db.execute(_OPEN).scalar_one())
            share = math.ceil(open_tables / max(1, workers))
            limit = share - len(self.epochs)
            if limit <= 0:
                return []
            taken = [(int(r.table_id), int(r.epoch)) for r in db.execute(
                _TAKE, {"limit": limit, "owner": self.owner})]
            result = []
            for table_id, epoch in taken:
                voided = self._void(db, hands.c.table_id == table_id)
                result.append((table_id, epoch, voided))
        for table_id, epoch, _voided in result:
            self.epochs[table_id] = epoch
        return result

    def surplus(self, workers: int) -> int:
        """How many of its tables this worker should give up: those beyond its share of the
        open tables among ``workers`` live workers, but no more than the other live workers
        have room for below that share (so that none comes back to it)."""
        with self.engine.begin() as db:
            open_tables = int(db.execute(_OPEN).scalar_one())
            share = math.ceil(open_tables / max(1, workers))
            room = sum(max(0, share - int(r.tables))
                       for r in db.execute(_LOADS, {"owner": self.owner}))
        return max(0, min(len(self.epochs) - share, room))

    def claim_table(self, table_id: int) -> bool:
        """A table this worker just opened is its own. Nobody else takes it first: tables
        without a lease are offered to every worker only ten seconds after they were made
        (``_SEED``), so that a worker dying between the two still loses no table."""
        with self.engine.begin() as db:
            db.execute(_BEAT, {"owner": self.owner, "seconds": self.seconds})
            row = db.execute(_CLAIM, {"table_id": table_id, "owner": self.owner}
                             ).one_or_none()
        if row is not None:
            self.epochs[table_id] = int(row.epoch)
        return row is not None

    def renew(self) -> set[int]:
        """Renew every lease this worker holds (its one row of ``lease_holders``); the tables
        it lost (another took them while it was late)."""
        with self.engine.begin() as db:
            db.execute(_BEAT, {"owner": self.owner, "seconds": self.seconds})
            held = {int(r.table_id): int(r.epoch) for r in db.execute(
                _HELD, {"owner": self.owner})}
        lost = {t for t, epoch in list(self.epochs.items()) if held.get(t) != epoch}
        for table_id in lost:
            self.epochs.pop(table_id, None)
        return lost

    def release(self, table_ids: Sequence[int]) -> None:
        """Give tables up at once (a clean stop): another worker takes them without waiting
        for the leases to expire."""
        for table_id in table_ids:
            self.epochs.pop(table_id, None)
        if table_ids:
            with self.engine.begin() as db:
                db.execute(_RELEASE, {"owner": self.owner, "tables": list(table_ids)})

    def retire(self) -> None:
        """A clean stop: every table given up, and this worker's row gone."""
        self.release(list(self.epochs))
        with self.engine.begin() as db:
            db.execute(_RETIRE, {"owner": self.owner})

    # ------------------------------------------------------------------ fenced writes

    def _fence(self, db: Connection, table_id: int) -> None:
        """Lock the table's lease row; refuse unless it is still this worker's, under the
        epoch it took the table with."""
        row = db.execute(select(leases.c.owner, leases.c.epoch)
                         .where(leases.c.table_id == table_id)
                         .with_for_update(read=True)).one_or_none()
        self._check(table_id, row)

    def _fence_hand(self, db: Connection, hand_id: int) -> None:
        """``_fence`` for the table a hand is played at, in one round trip."""
        row = db.execute(select(leases.c.owner, leases.c.epoch, hands.c.table_id)
                         .join_from(hands, leases, leases.c.table_id == hands.c.table_id)
                         .where(hands.c.id == hand_id)
                         .with_for_update(read=True, of=leases)).one_or_none()
        if row is None:
            if db.execute(select(hands.c.id).where(hands.c.id == hand_id)).first() is None:
                raise StoreError("no_hand", f"there is no hand {hand_id}")
            raise StoreError("lease_lost", f"hand {hand_id} is at no table this worker plays")
        self._check(int(row.table_id), row)

    def _check(self, table_id: int, row: Any) -> None:
        epoch = self.epochs.get(table_id)
        if epoch is None or row is None or row.owner != self.owner or row.epoch != epoch:
            raise StoreError("lease_lost", f"table {table_id} is no longer played by this "
                             f"worker (epoch {epoch}, the lease says "
                             f"{None if row is None else row.epoch})")

    def _start_hand(self, db: Connection, table_id: int, number: int,
                    players: Sequence[HandPlayer]) -> int:
        self._fence(db, table_id)
        return super()._start_hand(db, table_id, number, players)

    def _set_banks(self, db: Connection, table_id: int,
                   banks: dict[int, tuple[int, int]]) -> None:
        self._fence(db, table_id)  # in a group of writes (group commit), on its own
        super()._set_banks(db, table_id, banks)

    def _finish_hand(self, db: Connection, hand_id: int, final_stacks: Sequence[int], phh: str,
                     dealer_phh: str, text: Sequence[str], events: Sequence[object] | None = None,
                     names: Sequence[tuple[int, str]] | None = None,
                     own: Sequence[OwnRecord] = ()) -> None:
        self._fence_hand(db, hand_id)
        super()._finish_hand(db, hand_id, final_stacks, phh, dealer_phh, text, events, names,
                             own)

    def void_hand(self, hand_id: int) -> None:
        with self.engine.begin() as db:
            self._fence_hand(db, hand_id)
            self._void(db, hands.c.id == hand_id)

    def void_running_hands(self) -> list[int]:
        """Never all of them: the other workers' hands are in play. A worker voids only the
        hands of the tables it takes over (``take_tables``)."""
        return []


def lease_row(store: Store, table_id: int) -> dict[str, Any] | None:
    """The table's lease as the database holds it (for tests and ``stud audit``-like checks)."""
    with store.engine.connect() as db:
        row = db.execute(select(leases).where(leases.c.table_id == table_id)).one_or_none()
    return None if row is None else dict(row._mapping)
