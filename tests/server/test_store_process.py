"""The store in a process of its own (``stud serve``): the same answers, errors, order and group
commit as the store's thread, every call answered before it closes, and no process left behind,
even when the server is killed. On SQLite and PostgreSQL (the ``database`` fixture)."""

from __future__ import annotations

import asyncio
import os
import pickle
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psycopg
import pytest
from sqlalchemy import select, text

from stud.server.schema import hands
from stud.server.store import HandPlayer, Store, StoreError
from stud.server.store_process import StoreGone, StoreProcess, runner
from stud.server.store_thread import StoreThread

from .conftest import PHH, table_with_players


def gone(pid: int, seconds: float = 10.0) -> bool:
    """Whether the process has ended (or is a zombie) within the time."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            return True
        if state == "Z":
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)


def child_pid(runner: StoreProcess) -> int:
    process = runner._process  # which process to look for
    assert process is not None
    return process.pid


def test_hands_played_through_the_store_process_are_kept_as_through_the_thread(
        store: Store) -> None:
    tables = [table_with_players(store, f"T{k}") for k in range(4)]

    async def play(runner: StoreProcess | StoreThread, number: int) -> list[int]:
        async def one(table_id: int, players: list[HandPlayer]) -> int:
            hand_id = await runner.call(store.start_hand, table_id, number, players)
            await runner.call(store.finish_hand, hand_id, [150, 50], PHH, PHH, ["kept"])
            await runner.call(store.set_banks, table_id, {1: (35_000, number), 2: (30_000, 0)})
            return hand_id
        return list(await asyncio.gather(*(one(t, p) for t, p in tables)))

    async def both() -> tuple[list[int], list[int], int]:
        process, thread = StoreProcess(store), StoreThread(store)
        try:
            by_process = await play(process, 1)
            seats = await process.call(store.seats, tables[0][0])
            by_thread = await play(thread, 2)
        finally:
            process.close()
            thread.close()
        return by_process, by_thread, seats[0].bank_hands

    by_process, by_thread, bank_hands = asyncio.run(both())
    assert len(set(by_process + by_thread)) == 8
    assert bank_hands == 1
    with store.engine.connect() as db:
        statuses = dict(db.execute(select(hands.c.id, hands.c.status)).all())
    assert all(statuses[h] == "finished" for h in by_process + by_thread)
    assert [store.table(t).hands for t, _ in tables] == [2] * 4
    assert store.audit() == []


def test_errors_in_the_store_process_reach_the_caller_as_from_the_thread(store: Store) -> None:
    table_id, players = table_with_players(store, "T")

    async def errors() -> list[BaseException]:
        process = StoreProcess(store)
        found: list[BaseException] = []
        try:
            hand_id = await process.call(store.start_hand, table_id, 1, players)
            for call, args in ((store.table, (999,)),
                               (store.finish_hand, (10**9, [1, 2], PHH, PHH, [])),
                               # one stack for two players: a mistake of the caller's
                               (store.finish_hand, (hand_id, [200], PHH, PHH, []))):
                try:
                    await process.call(call, *args)
                except Exception as error:
                    found.append(error)
            await process.call(store.finish_hand, hand_id, [150, 50], PHH, PHH, [])
        finally:
            process.close()
        return found

    no_table, no_hand, mistake = asyncio.run(errors())
    assert isinstance(no_table, StoreError) and no_table.code == "no_table"
    assert str(no_table) == "there is no table 999"
    assert isinstance(no_hand, StoreError) and no_hand.code == "no_hand"
    assert isinstance(mistake, ValueError) and not isinstance(mistake, StoreError)
    assert any("in the store's process" in note for note in mistake.__notes__)
    assert store.audit() == []


async def until_blocked_by(blocker: int, database: str) -> None:
    """Until a statement of the store's process waits for the lock that ``blocker`` holds."""
    with psycopg.connect(database.replace("+psycopg", ""), autocommit=True) as watcher:
        for _ in range(200):
            if watcher.execute("SELECT count(*) FROM pg_stat_activity WHERE "
                               "%s = ANY(pg_blocking_pids(pid))", (blocker,)).fetchone() != (0,):
                return
            await asyncio.sleep(0.05)
    raise AssertionError("the store's process never waited for the lock")


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)
def test_hands_waiting_for_the_store_process_are_made_in_one_transaction(
        store: Store, database: str) -> None:
    tables = [table_with_players(store, f"T{k}") for k in range(5)]
    blocker = psycopg.connect(database.replace("+psycopg", ""))

    async def play() -> list[int]:
        process = StoreProcess(store)
        try:
            await process.call(store.table, tables[0][0])  # the process is up
            blocker.execute("LOCK TABLE hands IN EXCLUSIVE MODE")  # the first start waits
            first = asyncio.create_task(process.call(store.start_hand, tables[0][0], 1,
                                                     tables[0][1]))
            await until_blocked_by(blocker.info.backend_pid, database)
            waiting = [asyncio.create_task(process.call(store.start_hand, t, 1, players))
                       for t, players in tables[1:]]
            await asyncio.sleep(0.3)
            blocker.commit()
            return [await first] + list(await asyncio.gather(*waiting))
        finally:
            process.close()
            blocker.close()

    hand_ids = asyncio.run(play())
    with store.engine.connect() as db:  # xmin: the transaction that made the row
        made_by = dict(db.execute(text("SELECT id, xmin::text FROM hands")).all())
    assert len({made_by[h] for h in hand_ids[1:]}) == 1  # one transaction for the four
    assert made_by[hand_ids[0]] != made_by[hand_ids[1]]
    assert store.audit() == []


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
def test_closing_the_store_process_answers_every_call_made_so_far(store: Store) -> None:
    tables = [table_with_players(store, f"T{k}") for k in range(6)]

    async def play() -> tuple[list[int], int]:
        process = StoreProcess(store)
        await process.call(store.table, tables[0][0])
        pid = child_pid(process)
        calls = [asyncio.create_task(process.call(store.start_hand, t, 1, players))
                 for t, players in tables]
        await asyncio.sleep(0)  # each call is sent
        process.close()
        return list(await asyncio.gather(*calls)), pid

    hand_ids, pid = asyncio.run(play())
    assert len(set(hand_ids)) == 6 and all(isinstance(h, int) for h in hand_ids)
    assert gone(pid, 0.0)
    assert store.audit() == []


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
def test_a_store_process_that_stops_fails_what_waits_and_the_next_call_starts_another(
        store: Store) -> None:
    table_id, players = table_with_players(store, "T")

    async def play() -> tuple[BaseException | None, int]:
        process = StoreProcess(store)
        try:
            await process.call(store.table, table_id)
            os.kill(child_pid(process), signal.SIGKILL)
            failed = None
            try:
                await asyncio.wait_for(process.call(store.start_hand, table_id, 1, players), 10)
            except StoreGone as error:
                failed = error
            hand_id = await process.call(store.start_hand, table_id, 1, players)
        finally:
            process.close()
        return failed, hand_id

    failed, hand_id = asyncio.run(play())
    assert failed is not None and "stopped" in str(failed)
    with store.engine.connect() as db:
        assert db.execute(select(hands.c.status).where(hands.c.id == hand_id)).scalar() \
            == "running"
    assert store.audit() == []


KILLED = """
import asyncio, sys, time
from stud.server.store import Store
from stud.server.store_process import StoreProcess

store = Store(sys.argv[1])

async def main():
    process = StoreProcess(store)
    await process.call(store.tables)
    print(process._process.pid, flush=True)
    time.sleep(60)  # killed meanwhile

asyncio.run(main())
"""


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
def test_the_store_process_of_a_killed_server_stops_too(database: str) -> None:
    server = subprocess.Popen([sys.executable, "-c", textwrap.dedent(KILLED), database],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        child = int(server.stdout.readline())
        assert not gone(child, 0.0)
    finally:
        server.kill()
        server.wait(10)
    assert gone(child)


def test_an_in_memory_database_keeps_the_store_thread() -> None:
    memory = Store("sqlite://")
    try:
        assert isinstance(runner(memory, process=True), StoreThread)
        assert isinstance(runner(memory, process=False), StoreThread)
    finally:
        memory.close()


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
def test_a_file_database_gets_the_store_process_when_asked(store: Store) -> None:
    chosen = runner(store, process=True)
    try:
        assert isinstance(chosen, StoreProcess)
    finally:
        chosen.close()
    assert isinstance(runner(store, process=False), StoreThread)


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
def test_the_store_process_answers_on_whichever_event_loop_calls_it(store: Store) -> None:
    table_id, _players = table_with_players(store, "T")
    process = StoreProcess(store)
    try:
        first = asyncio.run(process.call(store.table, table_id))
        second = asyncio.run(process.call(store.table, table_id))  # a new loop, same process
    finally:
        process.close()
    assert first == second and first.name == "T"


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
def test_arguments_that_cannot_reach_the_store_process_fail_only_their_call(
        store: Store) -> None:
    table_id, _players = table_with_players(store, "T")

    async def play() -> str:
        process = StoreProcess(store)
        try:
            with pytest.raises((TypeError, AttributeError, pickle.PicklingError)):
                await process.call(store.table, lambda: table_id)  # a function is not data
            return (await process.call(store.table, table_id)).name
        finally:
            process.close()

    assert asyncio.run(play()) == "T"
