"""Group commit: the hands' writes that wait for the store's thread are made in one transaction,
and each hand stays whole: a write that fails costs only itself, a hand is never half kept, and a
failed commit keeps none of the group. On SQLite and PostgreSQL (the ``database`` fixture)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence
from typing import Any

import pytest
from sqlalchemy import event, select

from stud.server.schema import hands, ledger, seats
from stud.server.store import Move, Store, StoreError
from stud.server.store_thread import StoreThread

from .conftest import PHH, table_with_players


def finish(hand_id: int, finals: Sequence[int]) -> tuple[str, tuple[Any, ...]]:
    return "finish_hand", (hand_id, list(finals), PHH, PHH, [f"hand {hand_id}"])


def status(store: Store, hand_id: int) -> str:
    with store.engine.connect() as db:
        return str(db.execute(select(hands.c.status).where(hands.c.id == hand_id)).scalar())


def stacks(store: Store, table_id: int) -> list[int]:
    with store.engine.connect() as db:
        return list(db.execute(select(seats.c.stack).where(seats.c.table_id == table_id)
                               .order_by(seats.c.seat)).scalars())


def ledger_rows_of_hand(store: Store, hand_id: int) -> list[str]:
    with store.engine.connect() as db:
        return list(db.execute(select(ledger.c.kind).where(ledger.c.hand_id == hand_id))
                    .scalars())


def test_writes_made_together_are_kept_as_if_made_one_by_one(store: Store) -> None:
    tables = [table_with_players(store, f"T{k}") for k in range(3)]
    started = store.write_together([("start_hand", (t, 1, players)) for t, players in tables])
    assert all(isinstance(h, int) for h in started) and len(set(started)) == 3
    assert [stacks(store, t) for t, _ in tables] == [[0, 0]] * 3  # every stack is in its hand
    outcomes = store.write_together(
        [finish(h, (150, 50)) for h in started]
        + [("set_banks", (t, {1: (35_000, 0), 2: (30_000, 4)})) for t, _ in tables])
    assert outcomes == [None] * 6
    assert [status(store, h) for h in started] == ["finished"] * 3
    assert [stacks(store, t) for t, _ in tables] == [[150, 50]] * 3
    assert [(s.bank_ms, s.bank_hands) for s in store.seats(tables[0][0])] == [
        (35_000, 0), (30_000, 4)]
    assert [store.table(t).hands for t, _ in tables] == [1, 1, 1]
    assert store.audit() == []


def test_a_write_that_fails_in_a_group_costs_only_itself(store: Store) -> None:
    (t1, p1), (t2, p2), (t3, p3) = (table_with_players(store, f"T{k}") for k in range(3))
    first, done = store.start_hand(t1, 1, p1), store.start_hand(t2, 1, p2)
    store.finish_hand(done, [100, 100], PHH, PHH, ["kept before"])
    outcomes = store.write_together([finish(first, (180, 20)), finish(done, (0, 200)),
                                     ("start_hand", (t3, 1, p3))])
    assert outcomes[0] is None
    assert isinstance(outcomes[1], StoreError) and outcomes[1].code == "not_running"
    assert isinstance(outcomes[2], int) and status(store, outcomes[2]) == "running"
    assert stacks(store, t1) == [180, 20] and stacks(store, t2) == [100, 100]
    assert store.audit() == []


def test_a_hand_that_fails_half_way_is_not_half_kept_and_the_others_are_kept(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    (t1, p1), (t2, p2), (t3, p3) = (table_with_players(store, f"T{k}") for k in range(3))
    ok1, cut, ok2 = (store.start_hand(t, 1, p) for t, p in ((t1, p1), (t2, p2), (t3, p3)))
    post = Store._post

    def fails_after_the_ledger_rows(self: Store, db: Any, moves: Sequence[Move]) -> None:
        post(self, db, moves)  # the rows are written, then the disk fills up
        if any(move.source == ("hand", cut) for move in moves):
            raise RuntimeError("the disk is full")

    monkeypatch.setattr(Store, "_post", fails_after_the_ledger_rows)
    outcomes = store.write_together([finish(ok1, (150, 50)), finish(cut, (150, 50)),
                                     finish(ok2, (20, 180))])
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], RuntimeError)
    assert status(store, ok1) == status(store, ok2) == "finished"
    assert status(store, cut) == "running"
    assert ledger_rows_of_hand(store, cut) == ["hand_in"] * 2  # no row of its end was kept
    assert store.audit() == []
    monkeypatch.setattr(Store, "_post", post)
    store.finish_hand(cut, [150, 50], PHH, PHH, ["kept at last"])  # it can still be kept
    assert stacks(store, t2) == [150, 50] and store.audit() == []


def test_a_failed_commit_keeps_none_of_the_group_and_fails_each_write(store: Store) -> None:
    (t1, p1), (t2, p2) = (table_with_players(store, f"T{k}") for k in range(2))
    h1, h2 = store.start_hand(t1, 1, p1), store.start_hand(t2, 1, p2)

    def refuse(_connection: object) -> None:
        raise RuntimeError("the commit failed")

    event.listen(store.engine, "commit", refuse)
    try:
        outcomes = store.write_together([finish(h1, (150, 50)), finish(h2, (150, 50))])
    finally:
        event.remove(store.engine, "commit", refuse)
    assert [str(o) for o in outcomes] == ["the commit failed"] * 2
    assert status(store, h1) == status(store, h2) == "running"  # nothing written twice later
    assert stacks(store, t1) == stacks(store, t2) == [0, 0]
    assert store.audit() == []


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
def test_writes_waiting_for_the_store_thread_are_made_in_one_transaction(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    tables = [table_with_players(store, f"T{k}") for k in range(4)]
    groups: list[int] = []
    write_together = Store.write_together

    def counted(self: Store, writes: Sequence[tuple[str, tuple[Any, ...]]]) -> list[Any]:
        groups.append(len(writes))
        return write_together(self, writes)

    monkeypatch.setattr(Store, "write_together", counted)
    thread = StoreThread(store)
    busy = threading.Event()

    async def play() -> list[int]:
        held = asyncio.create_task(thread.call(busy.wait, 10))  # the thread is busy meanwhile
        starts = [asyncio.create_task(thread.call(store.start_hand, t, 1, players))
                  for t, players in tables]
        await asyncio.sleep(0.05)
        busy.set()
        await held
        return list(await asyncio.gather(*starts))

    try:
        hand_ids = asyncio.run(play())
    finally:
        thread.close()
    assert groups == [4]
    assert [status(store, h) for h in hand_ids] == ["running"] * 4
    assert store.audit() == []
