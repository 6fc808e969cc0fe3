"""Leases of tables between worker processes (stud.server.lease), on the real PostgreSQL: a
table is held by one worker at a time, an expired lease is taken over with a new epoch (and
the hand it cut off voided), and a stale owner can write no hand after a takeover."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from stud.rules import PROFILES, Stakes, Variant
from stud.server.lease import LeasedStore, lease_row
from stud.server.schema import leases, tables
from stud.server.store import STARTING_WALLET, HandPlayer, Store, StoreError
from stud.server.store_process import StoreGone, StoreProcess, runner

from .conftest import postgres_schema

LEASE = 0.5  # seconds: short, so that expiry is quick to wait for


@pytest.fixture
def url() -> Iterator[str]:
    with postgres_schema() as url:
        Store(url).close()  # the schema, as the parent process of `stud serve` makes it
        yield url


def _table(store: Store, name: str = "T") -> int:
    """A table made a minute ago: old enough to be offered to every worker."""
    table_id = store.create_table(name, Variant.STUD, Stakes.for_limit(2),
                                  PROFILES["standard"], 4, 30).id
    with store.engine.begin() as db:
        db.execute(tables.update().where(tables.c.id == table_id)
                   .values(created_at=datetime.now(UTC) - timedelta(minutes=1)))
    return table_id


def _seated_pair(store: Store, table_id: int) -> list[HandPlayer]:
    players = []
    for seat in (1, 2):
        account, _token = store.create_account(f"p{table_id}x{seat}")
        store.sit(table_id, seat, account.id, 100)
        players.append(HandPlayer(seat, account.id, 100))
    return players


def test_each_open_table_is_taken_by_one_worker_within_its_share(url: str) -> None:
    first, second = LeasedStore(url, "a", LEASE), LeasedStore(url, "b", LEASE)
    try:
        tables = [_table(first, f"T{n}") for n in range(4)]
        taken_a = {t for t, _e, _v in first.take_tables(workers=2)}
        taken_b = {t for t, _e, _v in second.take_tables(workers=2)}
        assert len(taken_a) == len(taken_b) == 2
        assert taken_a | taken_b == set(tables) and not taken_a & taken_b
        assert first.take_tables(workers=2) == [] and second.take_tables(workers=2) == []
        for table_id in taken_a:
            assert lease_row(first, table_id)["owner"] == "a"  # type: ignore[index]
    finally:
        first.close()
        second.close()


def test_a_lease_renewed_is_kept_and_an_expired_one_is_taken_with_a_new_epoch(url: str) -> None:
    lease = 2 * LEASE  # a renewal a third of it apart: a loaded machine's stall stays short
    first, second = LeasedStore(url, "a", lease), LeasedStore(url, "b", lease)
    try:
        table_id = _table(first)
        [(taken, epoch, _voided)] = first.take_tables(workers=1)
        assert taken == table_id
        for _ in range(3):  # renewed faster than it expires: nobody else may take it
            time.sleep(lease / 3)
            assert first.renew() == set()
            assert second.take_tables(workers=1) == []
        time.sleep(lease * 1.5)  # the owner stalls: its lease runs out
        [(again, new_epoch, _voided)] = second.take_tables(workers=1)
        assert again == table_id and new_epoch == epoch + 1
        assert first.renew() == {table_id}  # the stalled owner learns that it lost the table
        assert first.epochs == {} and second.epochs == {table_id: new_epoch}
    finally:
        first.close()
        second.close()


def test_a_stale_owner_cannot_write_a_hand_or_a_seat_after_a_takeover(url: str) -> None:
    first, second = LeasedStore(url, "a", LEASE), LeasedStore(url, "b", LEASE)
    try:
        table_id = _table(first)
        first.take_tables(workers=1)
        players = _seated_pair(first, table_id)
        hand_id = first.start_hand(table_id, 1, players)
        time.sleep(LEASE * 1.5)
        [(_table_id, _epoch, voided)] = second.take_tables(workers=1)
        assert voided == [hand_id]  # the cut-off hand is voided by the takeover
        # The stalled owner wakes up, not yet knowing: neither the hand's end, nor a void,
        # nor a new hand is written.
        with pytest.raises(StoreError) as end:
            first.finish_hand(hand_id, [150, 50], "phh", "dealer", ["text"])
        assert end.value.code == "lease_lost"
        with pytest.raises(StoreError):
            first.void_hand(hand_id)
        with pytest.raises(StoreError):
            first.start_hand(table_id, 2, players)
        # The books: every player has the starting stack back, at the table.
        assert [row.stack for row in first.seats(table_id)] == [100, 100]
        assert first.audit() == []
        assert all(first.account(p.account_id).wallet == STARTING_WALLET - 100
                   for p in players)
        # Nor may it move a seat's chips, or the seat, behind the new owner's back.
        for write in (lambda: first.leave(table_id, 1), lambda: first.add_chips(
                table_id, 1, players[0].account_id, 10),
                lambda: first.set_sitting_out(table_id, 2, True),
                lambda: first.set_banks(table_id, {1: (0, 0)})):
            with pytest.raises(StoreError) as refused:
                write()
            assert refused.value.code == "lease_lost"
        assert [(row.stack, row.sitting_out) for row in second.seats(table_id)] == \
            [(100, False), (100, False)]
        hand = second.start_hand(table_id, 2, players)  # the new owner plays on
        second.finish_hand(hand, [120, 80], "phh", "dealer", ["text"])
        assert second.audit() == []
    finally:
        first.close()
        second.close()


def test_a_new_table_is_its_makers_and_a_released_one_is_taken_at_once(url: str) -> None:
    first, second = LeasedStore(url, "a", 30.0), LeasedStore(url, "b", 30.0)
    try:
        table_id = first.create_table("New", Variant.STUD, Stakes.for_limit(2),
                                      PROFILES["standard"], 4, 30).id
        assert second.take_tables(workers=1) == []  # too new to be offered before its claim
        assert first.claim_table(table_id)
        assert second.take_tables(workers=1) == []
        assert not second.claim_table(table_id)
        first.release([table_id])
        assert [t for t, _e, _v in second.take_tables(workers=1)] == [table_id]
    finally:
        first.close()
        second.close()


def test_several_workers_on_sqlite_is_refused(tmp_path: object) -> None:
    with pytest.raises(StoreError, match="PostgreSQL"):
        LeasedStore(f"sqlite:///{tmp_path}/x.db", "a")


def test_a_workers_store_in_a_process_of_its_own_is_fenced_by_the_epochs_it_is_told(
        url: str) -> None:
    """stud serve --workers runs each worker's store in a process of its own: the child makes
    a LeasedStore of the same worker (not a plain Store), its fenced writes refuse a table
    until the worker has told it the table's epoch, and refuse it again after a takeover."""
    worker, rival = LeasedStore(url, "a", 30.0), LeasedStore(url, "b", 30.0)
    table_id = _table(worker)
    account, _token = worker.create_account("Pia")
    process = runner(worker, process=True)
    assert isinstance(process, StoreProcess)

    async def play() -> None:
        await process.call(worker.seats, table_id)  # the store's process, started
        [(taken, epoch, _voided)] = worker.take_tables(workers=1)  # the worker's own copy
        assert taken == table_id
        with pytest.raises(StoreError) as unknown:  # the child does not know the table yet
            await process.call(worker.sit, table_id, 1, account.id, 100)
        assert unknown.value.code == "lease_lost"
        await process.call(worker.adopt_epochs, dict(worker.epochs))
        await process.call(worker.sit, table_id, 1, account.id, 100)  # a fenced write
        hand = await process.call(worker.start_hand, table_id, 1,
                                  [HandPlayer(1, account.id, 100)])
        with worker.engine.begin() as db:  # another worker takes the table over
            db.execute(leases.update().where(leases.c.table_id == table_id)
                       .values(owner="b", epoch=epoch + 1))
        rival.epochs[table_id] = epoch + 1
        with pytest.raises(StoreError) as lost:
            await process.call(worker.finish_hand, hand, [100], "phh", "dealer", ["text"])
        assert lost.value.code == "lease_lost"
        with pytest.raises(StoreError):
            await process.call(worker.leave, table_id, 1)
        # The store's process stops (killed) and the next call starts another: made with the
        # epochs the worker holds now, it fences as the last one did.
        with worker.engine.begin() as db:
            db.execute(leases.update().where(leases.c.table_id == table_id)
                       .values(owner="a", epoch=epoch + 2))
        worker.epochs[table_id] = epoch + 2
        os.kill(process._process.pid, signal.SIGKILL)  # type: ignore[union-attr]
        with pytest.raises(StoreGone):
            while True:  # until the parent has seen the child go
                await process.call(worker.seats, table_id)
                await asyncio.sleep(0.05)
        await process.call(worker.set_sitting_out, table_id, 1, True)  # fenced, in a new child

    try:
        asyncio.run(play())
        process.close()
        assert [row.seat for row in rival.seats(table_id)] == [1]  # not left: still seated
        assert rival.audit() == []
    finally:
        process.close()
        worker.close()
        rival.close()


# ---------------------------------------------------------------------- evening tables out


def _held(store: LeasedStore, tables: int, workers: int) -> None:
    """``store``'s worker takes ``tables`` more tables (made now, old enough to be offered)."""
    for n in range(tables):
        _table(store, f"{store.owner}{n}")
    assert len(store.take_tables(workers)) == tables


def test_a_worker_holding_every_table_gives_up_what_beyond_its_share_a_live_one_can_take(
        url: str) -> None:
    first, second = LeasedStore(url, "a", LEASE), LeasedStore(url, "b", LEASE)
    try:
        _held(first, 4, workers=1)
        assert first.surplus(workers=2) == 0  # "b" never started: nobody to give them to
        assert second.renew() == set()  # "b" starts, holding nothing
        assert first.surplus(workers=2) == 2
        assert first.surplus(workers=1) == 0  # alone, every table is within its share
        # Among four a share is one: three beyond it, but only "b" runs, with room for one
        # (the two workers not running have no room to count).
        assert first.surplus(workers=4) == 1
        assert second.surplus(workers=2) == 0  # nothing beyond its share
        assert len(first.epochs) == 4  # asking gives nothing up
    finally:
        first.close()
        second.close()


def test_no_table_is_given_up_to_a_worker_whose_lease_expired(url: str) -> None:
    first, second = LeasedStore(url, "a", LEASE), LeasedStore(url, "b", LEASE)
    try:
        _held(first, 4, workers=1)
        second.renew()
        assert first.surplus(workers=2) == 2
        deadline = time.monotonic() + 10 * LEASE  # "b" stalls (or died): its row expires
        while first.surplus(workers=2) != 0:
            assert time.monotonic() < deadline, "the stalled worker still counts as live"
            time.sleep(LEASE / 5)
        first.renew()
        assert first.surplus(workers=2) == 0  # its own row, renewed, changes nothing
        second.renew()  # back again
        assert first.surplus(workers=2) == 2
    finally:
        first.close()
        second.close()


def test_nothing_is_given_up_within_the_share(url: str) -> None:
    first, second = LeasedStore(url, "a", LEASE), LeasedStore(url, "b", LEASE)
    try:
        for n in range(4):
            _table(first, f"T{n}")
        assert len(first.take_tables(workers=2)) == 2
        second.renew()  # live, holding nothing: room for two
        assert first.surplus(workers=2) == 0
        assert len(second.take_tables(workers=2)) == 2
        assert first.surplus(workers=2) == second.surplus(workers=2) == 0
    finally:
        first.close()
        second.close()


def test_no_table_is_given_up_while_the_other_workers_are_at_their_share(url: str) -> None:
    first, second, third = (LeasedStore(url, owner, LEASE) for owner in "abc")
    try:
        _held(first, 4, workers=1)
        _held(second, 2, workers=3)  # six open tables, a share of two each
        assert first.surplus(workers=3) == 0  # "b" is full, "c" is not running
        assert second.surplus(workers=3) == 0
        third.renew()  # "c" starts: it has room for two
        assert first.surplus(workers=3) == 2
        assert third.take_tables(workers=3) == []  # nothing is free before "a" lets go
        first.release(sorted(first.epochs)[:1])
        assert first.surplus(workers=3) == 1
        assert len(third.take_tables(workers=3)) == 1
        assert first.surplus(workers=3) == 1  # "c" has room for one more
        _held(third, 1, workers=3)  # a seventh table: a share of three each, "c" has two
        assert first.surplus(workers=3) == 0
    finally:
        first.close()
        second.close()
        third.close()
