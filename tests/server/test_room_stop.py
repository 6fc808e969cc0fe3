"""A room stops cleanly (stud.server.room.Room.close, stud.server.app.Casino.close): once
closed no hand starts, no bot acts, no client's message is applied and a client that comes
late is told to reconnect; a casino closed while
its bots play lets the steps under way end before its store's process stops and writes nothing
after; and a server stopped with SIGTERM while its bots play logs no traceback and leaves books
that ``stud audit`` finds balanced."""

from __future__ import annotations

import asyncio
import logging
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stud.cli import app
from stud.rules import PROFILES, Stakes, Variant
from stud.server.app import Casino
from stud.server.connection import MOVED, Client
from stud.server.room import Room, Timing
from stud.server.store import Store

from .conftest import SERVE, _wait_until_up, free_port
from .wsclient import TableClient

# Bots act at once and hands follow each other at once: a closed room that went on playing
# would deal or act many times within the quiet spell below.
QUICK = Timing(bot_delay=0.0, hand_pause=0.0, clock_scale=1.0, seat_wait=0.0)
PAUSED = Timing(bot_delay=0.0, hand_pause=0.3, clock_scale=1.0, seat_wait=0.0)
# Bots that take a moment over each action: the hands in play when the watchers are cut off
# (the first thing a stopping server does) are still being played, and ended, as the rooms
# and the store close.
PLAYING = Timing(bot_delay=0.02, hand_pause=0.0, clock_scale=1.0, seat_wait=0.0)
TABLES = 16
QUIET = 0.4  # seconds a closed room is watched for anything happening
BOTS = {1: "station", 2: "random", 3: "station"}


def bots_table(database: str, name: str = "Bots") -> int:
    """A table of bots alone (they play while somebody watches)."""
    store = Store(database)
    try:
        table = store.create_table(name, Variant.STUD, Stakes.for_limit(2), PROFILES["standard"],
                                   6, 30)
        for seat, bot in BOTS.items():
            store.add_bot(table.id, seat, bot, 1_000)
        return table.id
    finally:
        store.close()


def audited(database: str) -> None:
    result = CliRunner().invoke(app, ["audit", "--database", database])
    assert result.exit_code == 0, result.output


async def _nothing_to_send(_text: str) -> None:
    return None


async def until(done: Callable[[], bool], what: str, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, f"no {what} within {seconds} s"
        await asyncio.sleep(0.001)


def moment(room: Room) -> tuple[object, ...]:
    """Everything a hand started, a bot's action or a hand's end would change."""
    hand = room.table.hand
    return (room.number, hand, None if hand is None else len(hand.public_events()),
            None if hand is None else hand.is_over, room._turn,
            {seat: s.stack for seat, s in room.table.seats.items()})


async def watched_room(database: str, timing: Timing) -> tuple[Casino, Room, Client]:
    """The server's rooms, as it starts them, and somebody watching the bots' table."""
    table_id = bots_table(database)
    store = await asyncio.to_thread(Store, database)
    account, _token = await asyncio.to_thread(store.create_account, "Watcher")
    casino = Casino(store, timing)
    await casino.open()
    room = casino.rooms[table_id]
    watcher = Client(account, _nothing_to_send)
    await room.join(watcher)
    return casino, room, watcher


def test_a_room_closed_in_a_hand_plays_no_more_and_applies_no_message(
        sqlite_database: str) -> None:
    async def scenario() -> None:
        casino, room, watcher = await watched_room(sqlite_database, QUICK)
        try:
            # Between two steps of the third hand (none under way: a step under way ends
            # first, as Casino.close waits for it).
            await until(lambda: room.number >= 3 and not room.between_hands()
                        and not room.lock.locked(), "third hand in play")
            room.close()
            assert room.stopped
            before = moment(room)
            assert not room.between_hands()  # cut off in the middle of the hand
            await room.handle(watcher, {"type": "chat", "text": "still there?"})
            await asyncio.sleep(QUIET)  # the bots had every chance to act, and a hand to end
            assert moment(room) == before
            assert await casino.db(casino.store.recent_chat, room.spec.id, 10) == []
            assert casino.rooms[room.spec.id] is room  # stopped here, not closed by its host
        finally:
            await casino.close()

    asyncio.run(scenario())
    audited(sqlite_database)  # the hand cut off is still running in the books, balanced


def test_a_room_closed_between_hands_deals_no_next_hand(sqlite_database: str) -> None:
    async def scenario() -> None:
        casino, room, _watcher = await watched_room(sqlite_database, PAUSED)
        try:
            await until(lambda: room.number >= 2 and room.between_hands()
                        and room.table.hand is not None and not room.lock.locked(),
                        "pause after the second hand")
            room.close()
            before = moment(room)
            number = room.number
            newcomer = Client(None, _nothing_to_send)
            await room.join(newcomer)  # a newcomer would deal a hand
            # ... but it is told the table moved (to reconnect where it is played now), and
            # is not one of the room's clients, who would never hear from it again.
            assert newcomer.shut_with == (MOVED, "the table moved: reconnect")
            assert newcomer not in room.clients
            await asyncio.sleep(PAUSED.hand_pause + QUIET)
            assert moment(room) == before and room.between_hands()
            hands = await casino.db(casino.store.recent_hands, room.spec.id, 100)
            # none started in the books
            assert {h["number"] for h in hands} == set(range(1, number + 1))
        finally:
            await casino.close()

    asyncio.run(scenario())
    audited(sqlite_database)


def test_a_casino_closed_while_its_bots_play_writes_nothing_after_its_store_closed(
        sqlite_database: str, caplog: pytest.LogCaptureFixture) -> None:
    """As a stopping server closes its rooms: steps under way (a hand's end being written,
    then its time banks) end before the store's process stops, and nothing is written after."""
    tables = [bots_table(sqlite_database, f"Bots {n}") for n in range(TABLES)]

    async def scenario() -> None:
        store = await asyncio.to_thread(Store, sqlite_database)
        casino = Casino(store, QUICK, store_process=True)
        try:
            await casino.open()
            for table_id in tables:
                await casino.rooms[table_id].join(Client(None, _nothing_to_send))
            rooms = [casino.rooms[t] for t in tables]
            await until(lambda: all(room.number >= 3 for room in rooms), "third hands")
        finally:
            await casino.close()
        await asyncio.sleep(QUIET)  # whatever a room still had scheduled would run now
        assert all(room.stopped for room in rooms)

    with caplog.at_level(logging.WARNING, "stud.server"):
        asyncio.run(scenario())
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    audited(sqlite_database)


def test_a_server_stopped_while_its_bots_play_logs_no_traceback_and_its_books_balance(
        sqlite_database: str, tmp_path: Path) -> None:
    tables = [bots_table(sqlite_database, f"Bots {n}") for n in range(TABLES)]
    port = free_port()
    code = SERVE.format(bot_delay=PLAYING.bot_delay, hand_pause=PLAYING.hand_pause,
                        clock_scale=PLAYING.clock_scale)
    log = tmp_path / "server.log"
    with log.open("wb") as output:
        process = subprocess.Popen([sys.executable, "-c", code, sqlite_database, str(port)],
                                   stdout=output, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(url)
        watchers = [TableClient("ws" + url[len("http"):], table) for table in tables]
        try:
            for watcher in watchers:  # every table is dealing, quickly
                watcher.until(lambda f: f.get("type") == "state"
                              and (f.get("last") or {}).get("number", 0) >= 1,
                              what="first hand over")
            process.send_signal(signal.SIGTERM)
            # uvicorn shuts down, then ends by the signal it caught (newer ones re-raise it)
            assert process.wait(timeout=20) in (0, -signal.SIGTERM)
        finally:
            for watcher in watchers:
                watcher.close()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    said = log.read_text()
    assert "Traceback" not in said and "ERROR" not in said, said
    assert "StoreGone" not in said and "store is closed" not in said, said
    audited(sqlite_database)
