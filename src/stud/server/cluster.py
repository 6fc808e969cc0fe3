"""One worker process among several (``stud serve --workers N``): which tables it plays, and
what the lobby shows of all of them.

Every ``TICK`` seconds a worker says it is alive (a sorted set in Redis, by time), renews the
leases of its tables (``stud.server.lease``; a table it lost is dropped and its clients told to
reconnect), takes over tables whose lease expired, up to its share of the open tables among the
live workers, gives up (between hands) the tables it holds beyond that share when another
live worker has room for them, so that a worker started later, or again, gets its part; and
writes a summary of each of its tables to a Redis hash, from which any worker
answers the lobby. Connections to tables owned elsewhere go through ``stud.server.relay``.

Every key is the room's, under its prefix: ``{prefix}:workers``, ``{prefix}:owners``,
``{prefix}:lobby``, and ``{prefix}:room``, the parents' claim on the prefix for their database
(``stud.server.holder.RoomClaim``), without which two rooms would meet at the same table ids.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from redis.asyncio import BlockingConnectionPool, Redis
from redis.exceptions import RedisError

from stud.server.connection import MOVED
from stud.server.frames import Json, table_json
from stud.server.lease import LeasedStore
from stud.server.relay import Relay
from stud.server.room import Room
from stud.server.store import StoreError, TableSpec

if TYPE_CHECKING:
    from stud.server.app import Casino

log = logging.getLogger("stud.server")
OPENING = 16  # tables a worker opens at once when it takes many over


@dataclass(frozen=True)
class Workers:
    """How a worker finds the others: Redis, a key prefix, how many workers were started, and
    how long a lease lasts unrenewed."""

    redis: str = "redis://127.0.0.1:6379/0"
    prefix: str = "stud"
    workers: int = 1
    lease_seconds: float = 5.0

    @property
    def tick(self) -> float:
        return self.lease_seconds / 5


def worker_name() -> str:
    """Unique to this process, and readable in the leases table: host, process, a nonce."""
    return f"{socket.gethostname()[:50]}:{os.getpid()}:{secrets.token_hex(3)}"


class Cluster:
    def __init__(self, casino: Casino, store: LeasedStore, workers: Workers) -> None:
        self.casino = casino
        self.store = store
        self.workers = workers
        self.name = store.owner
        self.redis = Redis(connection_pool=BlockingConnectionPool.from_url(
            workers.redis, max_connections=64, timeout=None, decode_responses=True))
        self.relay = Relay(self.redis, workers.prefix, self.name, casino)
        self.lobby = f"{workers.prefix}:lobby"
        self.owners = f"{workers.prefix}:owners"  # table -> the worker playing it (the router)
        self.alive = f"{workers.prefix}:workers"
        self._keeping: asyncio.Task[None] | None = None
        self._renewing: asyncio.Task[None] | None = None
        # Renewing, taking and claiming leases one at a time: a renewal compares the leases
        # the database has with those this worker holds, which a take must not change midway.
        self._leases = asyncio.Lock()

    async def start(self) -> None:
        await self.redis.ping()
        await self.relay.start()
        await self._beat()
        loop = asyncio.get_running_loop()
        self._renewing = loop.create_task(self._renew())
        self._keeping = loop.create_task(self._keep())

    async def stop_taking(self) -> None:
        """Take, open and even out no more tables (the first step of a stop)."""
        await _cancel(self._keeping)

    async def stop(self) -> None:
        """Give every table up at once, so that the others take them without waiting."""
        await self.stop_taking()
        await _cancel(self._renewing)
        held = list(self.store.epochs)
        with contextlib.suppress(Exception):
            await asyncio.to_thread(self.store.retire)
        with contextlib.suppress(Exception):
            await self.redis.zrem(self.alive, self.name)
            if held:
                await self.redis.hdel(self.lobby, *map(str, held))
                await self.redis.hdel(self.owners, *map(str, held))
        await self.relay.stop()
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    # ------------------------------------------------------------------ the worker's round

    async def _keep(self) -> None:
        # At the start, the workers started together share the tables: wait for them a moment.
        deadline = time.monotonic() + self.workers.lease_seconds
        while time.monotonic() < deadline and await self._live() < self.workers.workers:
            await asyncio.sleep(0.1)
        while True:
            try:
                await self._round()
            except Exception:
                log.exception("worker %s: a round of leases failed", self.name)
            await asyncio.sleep(self.workers.tick)

    async def _share_epochs(self) -> None:
        """The store's process fences the writes by the epochs of the tables this worker
        holds: a copy of them, sent after every change and before any write to a table just
        taken (the store's calls run in order)."""
        if self.casino.store_apart:
            await self.casino.db(self.store.adopt_epochs, dict(self.store.epochs))

    async def _renew(self) -> None:
        """Say this worker is alive and renew its leases every round, on a task of its own: a
        round that opens many tables (another worker's, taken over) takes longer than a
        lease lasts, and must not let this worker's own leases lapse meanwhile."""
        while True:
            try:  # the leases first: they must not wait on Redis
                async with self._leases:
                    lost = await asyncio.to_thread(self.store.renew)
                for table_id in lost:
                    await self._drop(table_id)
                if lost:
                    await self._share_epochs()
            except Exception:
                log.exception("worker %s: renewing its leases failed", self.name)
            try:
                await self._beat()
            except Exception:
                log.exception("worker %s: could not say it is alive in Redis", self.name)
            await asyncio.sleep(self.workers.tick)

    async def _round(self) -> None:
        async with self._leases:
            taken = await asyncio.to_thread(self.store.take_tables, await self._live())
        if taken:
            await self._share_epochs()
        opening = asyncio.Semaphore(OPENING)

        async def take(table_id: int, epoch: int, voided: list[int]) -> None:
            async with opening:
                if voided:
                    log.warning("worker %s took table %d over (epoch %d) and voided %s %s; their "
                                "chips went back", self.name, table_id, epoch,
                                "hand" if len(voided) == 1 else "hands",
                                ", ".join(map(str, voided)))
                try:
                    await self._own(table_id)
                except Exception:
                    log.exception("worker %s: table %d could not be opened", self.name,
                                  table_id)
                    await self._give_back(table_id)

        # Many at once (a dead worker's tables): each waits on the store and Redis in turn.
        await asyncio.gather(*(take(*taken_one) for taken_one in taken))
        await self._balance(await asyncio.to_thread(self.store.surplus, await self._live()))
        await self._publish()

    async def _balance(self, surplus: int) -> None:
        """Give up the tables beyond this worker's share, each between two hands (nobody's
        chips in play), the ones with the fewest clients first; the others take them at their
        next round, and the tables' clients reconnect to whichever worker."""
        rooms = sorted((room for room in self.casino.rooms.values()
                        if type(room) is Room and room.between_hands()
                        and not room.awaits_a_player()),
                       key=lambda room: (len(room.clients), room.spec.id))
        for room in rooms[:surplus]:
            async with room.lock:
                if room.stopped or not room.between_hands():
                    continue
                self._close_room(room.spec.id)
                # Through the store's own queue: after every write this table asked for.
                async with self._leases:
                    await self.casino.db(self.store.release, [room.spec.id])
                    self.store.epochs.pop(room.spec.id, None)
            log.info("worker %s gave table %d up to even the load", self.name, room.spec.id)
            await self.relay.disown(room.spec.id)
        if surplus:
            await self._share_epochs()

    async def _beat(self) -> None:
        await self.redis.zadd(self.alive, {self.name: time.time()})

    async def _live(self) -> int:
        """Workers heard from within three rounds (this one included)."""
        await self.redis.zremrangebyscore(self.alive, "-inf",
                                          time.time() - 3 * self.workers.tick)
        return max(1, int(await self.redis.zcard(self.alive)))

    async def _own(self, table_id: int) -> None:
        spec = await self.casino.db(self.store.table, table_id)
        if spec.closed:
            await self._give_back(table_id)
            return
        await self.casino.add_room(spec, claim=False)
        await self._note_owner(table_id)
        await self.relay.own(table_id)

    async def _note_owner(self, table_id: int) -> None:
        """The router's hint (``{prefix}:owners``): written before the table's move is
        announced, so that clients reconnecting at once come straight here; a hint only, so
        a Redis error does not stop the table."""
        with contextlib.suppress(RedisError, OSError):
            await self.redis.hset(self.owners, str(table_id), self.name)

    async def _give_back(self, table_id: int) -> None:
        """A table this worker took but cannot play: its room (if it opened) closed, its
        clients told to reconnect, its lease released for another worker."""
        self._close_room(table_id)
        with contextlib.suppress(Exception):
            async with self._leases:
                await asyncio.to_thread(self.store.release, [table_id])
        with contextlib.suppress(Exception):
            await self.relay.disown(table_id)

    async def claim(self, table_id: int) -> None:
        """A table this worker just opened: its lease, and its relayed connections."""
        async with self._leases:
            claimed = await asyncio.to_thread(self.store.claim_table, table_id)
        if not claimed:
            raise StoreError("lease_lost", f"table {table_id} was taken by another worker")
        try:
            await self._share_epochs()
            await self._note_owner(table_id)
            await self.relay.own(table_id)
        except Exception:  # no room will play it here: free for another worker
            await self._give_back(table_id)
            raise

    async def _drop(self, table_id: int) -> None:
        """A table another worker took (this one stalled): its clients reconnect there."""
        log.warning("worker %s lost table %d to another worker", self.name, table_id)
        self._close_room(table_id)
        with contextlib.suppress(Exception):  # its relays hear of the move from the new owner
            await self.relay.disown(table_id)

    def _close_room(self, table_id: int) -> None:
        """The table is no longer played here: its room (if open) closed, and its clients
        told to reconnect (to whichever worker plays it next)."""
        room = self.casino.rooms.pop(table_id, None)
        if room is not None:
            room.close()
            for client in list(room.clients):
                client.shut(MOVED, "the table moved: reconnect")

    async def forget(self, table_id: int) -> None:
        """A table closed by its host: no lease, no relays, not in the lobby."""
        await asyncio.to_thread(self.store.release, [table_id])
        await self.relay.disown(table_id)
        await self.redis.hdel(self.lobby, str(table_id))
        await self.redis.hdel(self.owners, str(table_id))

    # ------------------------------------------------------------------ the lobby

    async def _publish(self) -> None:
        rooms = list(self.casino.rooms.values())
        if rooms:
            await self.redis.hset(self.lobby, mapping={
                str(room.spec.id): json.dumps(_entry(room)) for room in rooms})
            await self.redis.hset(self.owners, mapping={
                str(room.spec.id): self.name for room in rooms})

    async def entries(self) -> dict[int, dict[str, Any]]:
        """Every table's last summary from its owner, by table."""
        found = await self.redis.hgetall(self.lobby)
        return {int(key): json.loads(value) for key, value in found.items()}

    async def entry(self, table_id: int) -> dict[str, Any] | None:
        """The table's summary, from its owner, or from the database while it has none
        (between owners); None for a table that is not there or closed."""
        found = await self.redis.hget(self.lobby, str(table_id))
        if found is not None:
            return dict(json.loads(found))
        try:
            spec = await self.casino.db(self.store.table, table_id)
        except StoreError:
            return None
        return None if spec.closed else _unplayed(spec)

    async def tables(self, account_id: int | None) -> list[Json]:
        """The lobby: every open table in the database, with its owner's live figures."""
        specs = await self.casino.db(self.store.tables)
        live = await self.entries()
        shown = []
        for spec in specs:
            entry = live.get(spec.id) or _unplayed(spec)
            if admits(entry, account_id, None):
                shown.append(entry["summary"])
        return shown


def admits(entry: dict[str, Any], account_id: int | None, invite: str | None) -> bool:
    """``Room.admits`` on a table's summary from its owner."""
    if not entry["private"]:
        return True
    if account_id is not None and (account_id == entry["host"]
                                   or account_id in entry["players"]):
        return True
    return entry["invite"] is not None and invite == entry["invite"]


async def _cancel(task: asyncio.Task[None] | None) -> None:
    if task is not None:
        task.cancel()
        with contextlib.suppress(BaseException):
            await task


def _unplayed(spec: TableSpec) -> dict[str, Any]:
    """A table's entry while no worker plays it (between owners): from the database alone."""
    return {"summary": table_json(spec, 0, 0.0), "private": spec.private, "host": spec.host,
            "players": [], "invite": spec.invite}


def _entry(room: Room) -> dict[str, Any]:
    return {"summary": room.summary(), "private": room.spec.private, "host": room.spec.host,
            "players": sorted(set(room.accounts.values())), "invite": room.invite}
