"""The parent of ``stud serve --workers N`` hands each connection to a worker
(stud.server.router), on real sockets on loopback: a table's WebSocket goes to the worker that
owns the table, anything else to the workers in turn, a dead worker is passed over, a handed
connection works in the worker as if it had accepted it (the bytes the parent peeked at
included), and the owners are read from Redis."""

from __future__ import annotations

import contextlib
import logging
import os
import select
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from stud.server import router
from stud.server.router import Router, hand_over, handoff_pair, owners_lookup, table_of, take_handed

from .conftest import REDIS

TABLE_SOCKET = b"GET /ws/tables/7 HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n\r\n"
LOBBY_PAGE = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
SECONDS = 5.0  # the longest any wait here lasts


# ---------------------------------------------------------------------- table_of


@pytest.mark.parametrize(("request_line", "table"), [
    (b"GET /ws/tables/7 HTTP/1.1\r\n", 7),
    (b"GET /ws/tables/12?invite=abc123 HTTP/1.1\r\n", 12),
    (b"GET /ws/tables/12?lang=de&invite=x HTTP/1.1\r\nHost: a\r\n\r\n", 12),
    (b"GET /ws/tables/3/ HTTP/1.1\r\n", 3),
    (b"GET /ws/tables/0042 HTTP/1.1\r\n", 42),
])
def test_a_tables_websocket_request_names_its_table(request_line: bytes, table: int) -> None:
    assert table_of(request_line) == table


@pytest.mark.parametrize("request_line", [
    b"GET / HTTP/1.1\r\n",
    b"GET /ws/lobby HTTP/1.1\r\n",
    b"GET /tables/7 HTTP/1.1\r\n",  # the table's page, not its socket
    b"GET /api/tables/7 HTTP/1.1\r\n",
    b"GET /api/tables/7/hands HTTP/1.1\r\n",
    b"POST /ws/tables/7 HTTP/1.1\r\n",
    b"HEAD /ws/tables/7 HTTP/1.1\r\n",
    b"get /ws/tables/7 HTTP/1.1\r\n",
    b" GET /ws/tables/7 HTTP/1.1\r\n",
    b"GET /ws/tables/ HTTP/1.1\r\n",
    b"GET /ws/tables/abc HTTP/1.1\r\n",
    b"GET /ws/tables/7x HTTP/1.1\r\n",
    b"GET /ws/tables/-7 HTTP/1.1\r\n",
    b"GET /ws/tables/7.5 HTTP/1.1\r\n",
    b"GET /ws/tables/7",  # the request line cut short: not known yet which table
    b"GET /x/ws/tables/7 HTTP/1.1\r\n",
    b"\x16\x03\x01\x02\x00\x01",  # a TLS hello, say
    b"",
])
def test_any_other_request_names_no_table(request_line: bytes) -> None:
    assert table_of(request_line) is None


# ---------------------------------------------------------------------- handing over


@contextlib.contextmanager
def listening() -> Iterator[socket.socket]:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    try:
        yield server
    finally:
        server.close()


def dial(server: socket.socket) -> socket.socket:
    client = socket.create_connection(server.getsockname()[:2], timeout=SECONDS)
    client.settimeout(SECONDS)
    return client


def receive_exactly(connection: socket.socket, size: int) -> bytes:
    connection.settimeout(SECONDS)
    data = b""
    while len(data) < size:
        chunk = connection.recv(size - len(data))
        assert chunk, f"closed after {data!r}"
        data += chunk
    return data


def handed_within(inbox: socket.socket, seconds: float = SECONDS) -> list[socket.socket]:
    """The connections handed to the worker whose end is ``inbox``, waiting until at least
    one has come (or the time is up: then none)."""
    taken: list[socket.socket] = []
    deadline = time.monotonic() + seconds
    while not taken and (left := deadline - time.monotonic()) > 0:
        select.select([inbox], [], [], left)
        got = take_handed(inbox)
        assert got is not None, "the parent's end closed"
        taken += got
    return taken


def test_a_handed_connection_is_read_and_answered_by_the_worker_after_the_parent_lets_go(
        ) -> None:
    ours, theirs = handoff_pair()
    theirs.setblocking(False)  # as a worker reads it (stud.server.workers.HandedServer)
    with listening() as server, dial(server) as client, ours, theirs:
        client.sendall(TABLE_SOCKET)
        accepted, _address = server.accept()
        with accepted:
            accepted.settimeout(SECONDS)
            assert accepted.recv(len(TABLE_SOCKET), socket.MSG_PEEK) == TABLE_SOCKET
            assert hand_over(ours, accepted)
        # The parent's copy is closed: the connection lives on in the worker.
        [connection] = handed_within(theirs)
        with connection:
            assert receive_exactly(connection, len(TABLE_SOCKET)) == TABLE_SOCKET  # peeked too
            connection.sendall(b"HTTP/1.1 101 Switching Protocols\r\n\r\n")
            assert receive_exactly(client, 36) == b"HTTP/1.1 101 Switching Protocols\r\n\r\n"
            client.sendall(b"a frame")
            assert receive_exactly(connection, 7) == b"a frame"
        assert client.recv(16) == b""  # the worker's close is the connection's end
        assert take_handed(theirs) == []  # nothing more was handed


def test_the_worker_learns_that_the_parent_is_gone_and_a_closed_worker_takes_nothing(
        ) -> None:
    ours, theirs = handoff_pair()
    theirs.setblocking(False)
    with theirs:
        assert take_handed(theirs) == []
        ours.close()
        assert take_handed(theirs) is None
    ours, theirs = handoff_pair()
    with ours, listening() as server, dial(server), server.accept()[0] as accepted:
        theirs.close()  # the worker died
        assert not hand_over(ours, accepted)


def test_several_connections_handed_at_once_are_all_taken_in_order() -> None:
    ours, theirs = handoff_pair()
    theirs.setblocking(False)
    with listening() as server, ours, theirs:
        clients = [dial(server) for _ in range(5)]
        try:
            for n, client in enumerate(clients):
                client.sendall(f"client {n}".encode())
                accepted, _address = server.accept()
                with accepted:
                    assert hand_over(ours, accepted)
            taken = take_handed(theirs)
            assert taken is not None and len(taken) == 5
            for n, connection in enumerate(taken):
                with connection:
                    assert receive_exactly(connection, 8) == f"client {n}".encode()
        finally:
            for client in clients:
                client.close()


# ---------------------------------------------------------------------- the router


@dataclass
class Routed:
    """A router on loopback in front of two workers' inboxes."""

    server: socket.socket
    ours: list[socket.socket | None]
    inboxes: list[socket.socket]

    def connect(self, request: bytes | None) -> socket.socket:
        client = dial(self.server)
        if request is not None:
            client.sendall(request)
        return client

    def worker_of(self, client: socket.socket, request: bytes) -> int:
        """The worker the client's connection went to (checked to be the same connection:
        what it reads is what the client sent, and it answers the client)."""
        ready, _w, _x = select.select(self.inboxes, [], [], SECONDS)
        assert ready, "no worker was handed the connection"
        [inbox] = ready
        [connection] = handed_within(inbox)
        with connection:
            if request:
                assert receive_exactly(connection, len(request)) == request
            connection.sendall(b"yours")
            assert receive_exactly(client, 5) == b"yours"
        assert all(take_handed(other) == [] for other in self.inboxes if other is not inbox)
        return self.inboxes.index(inbox)


@contextlib.contextmanager
def routed(owners: dict[int, int] | None = None) -> Iterator[Routed]:
    pairs = [handoff_pair() for _ in range(2)]
    for _ours, theirs in pairs:
        theirs.setblocking(False)
    owners = owners or {}
    with listening() as server:
        setup = Routed(server, [ours for ours, _theirs in pairs],
                       [theirs for _ours, theirs in pairs])
        running = Router(server, lambda: setup.ours, owners.get)
        running.start()
        try:
            yield setup
        finally:
            running.stop()
            assert not running._thread.is_alive()
            for ours, theirs in pairs:
                ours.close()
                theirs.close()


def test_a_tables_websocket_goes_to_the_worker_that_owns_the_table_every_time() -> None:
    with routed({7: 1}) as setup:
        for _ in range(3):
            with setup.connect(TABLE_SOCKET) as client:
                assert setup.worker_of(client, TABLE_SOCKET) == 1


def test_other_requests_and_tables_without_a_known_owner_go_to_the_workers_in_turn() -> None:
    with routed({7: 1}) as setup:
        unowned = TABLE_SOCKET.replace(b"/7 ", b"/8 ")
        went = []
        for request in (LOBBY_PAGE, LOBBY_PAGE, unowned, LOBBY_PAGE, TABLE_SOCKET, LOBBY_PAGE):
            with setup.connect(request) as client:
                went.append(setup.worker_of(client, request))
        # The owned table's socket goes to its owner and takes nobody's turn.
        assert went == [0, 1, 0, 1, 1, 0]


def test_a_dead_worker_is_passed_over_and_the_other_gets_the_connection(
        caplog: pytest.LogCaptureFixture) -> None:
    with routed({7: 0}) as setup:
        setup.inboxes[0].close()  # worker 0 died: its end of the pair is gone
        for request in (TABLE_SOCKET, LOBBY_PAGE, LOBBY_PAGE):
            with setup.connect(request) as client:
                [connection] = handed_within(setup.inboxes[1])
                with connection:
                    assert receive_exactly(connection, len(request)) == request
                    connection.sendall(b"yours")
                    assert receive_exactly(client, 5) == b"yours"
        setup.ours[0] = None  # as the parent knows it between a death and the restart
        with setup.connect(LOBBY_PAGE):
            assert len(handed_within(setup.inboxes[1])) == 1
    assert "no worker took" not in caplog.text


def test_a_connection_that_no_worker_can_take_is_held_then_handed_to_the_first_that_can(
) -> None:
    """Every worker busy (its queue full) or being started again: the connection waits, and
    goes to the first worker that can take it within HOLD seconds."""
    with routed() as setup:
        live = setup.ours
        setup.ours = [None, None]
        with setup.connect(LOBBY_PAGE) as client:
            time.sleep(0.3)
            setup.ours = [None, live[1]]
            [connection] = handed_within(setup.inboxes[1], 2.0)
            with connection:
                assert receive_exactly(connection, len(LOBBY_PAGE)) == LOBBY_PAGE
                connection.sendall(b"HTTP/1.1 200 OK\r\n\r\n")
                assert client.recv(64).startswith(b"HTTP/1.1 200")
        setup.ours = live


def test_a_connection_that_no_worker_can_take_is_closed_with_a_warning_after_hold(
        caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(router, "HOLD", 0.2)
    with routed() as setup:
        for inbox in setup.inboxes:
            inbox.close()
        with caplog.at_level(logging.WARNING, "stud.server"), \
                setup.connect(LOBBY_PAGE) as client:
            try:  # closed by the parent (reset: the request was never read), not left hanging
                assert client.recv(16) == b""
            except ConnectionResetError:
                pass
    assert "no worker took a connection" in caplog.text


def test_a_connection_that_sends_nothing_is_handed_to_a_worker_after_the_wait(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(router, "WAIT", 0.2)
    with routed() as setup, setup.connect(None) as client:
        [connection] = handed_within(setup.inboxes[0], 2.0)
        with connection:
            client.sendall(LOBBY_PAGE)  # it speaks at last, to the worker
            assert receive_exactly(connection, len(LOBBY_PAGE)) == LOBBY_PAGE


def test_a_connection_closed_before_it_said_anything_is_dropped_quietly(
        caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG), routed() as setup:
        setup.connect(None).close()
        time.sleep(0.3)  # the router sees the close at once; nothing may follow it
        assert [take_handed(inbox) for inbox in setup.inboxes] == [[], []]
        with setup.connect(LOBBY_PAGE) as client:  # the router goes on, at worker 0's turn
            assert setup.worker_of(client, LOBBY_PAGE) == 0
    assert caplog.records == []


# ---------------------------------------------------------------------- owners in Redis


def test_a_tables_owner_is_the_worker_of_this_machine_that_redis_names(prefix: str) -> None:
    import redis

    here = socket.gethostname()[:50]
    pids: list[int | None] = [1111, 2222, None]
    client = redis.Redis.from_url(REDIS)
    try:
        client.hset(f"{prefix}:owners", mapping={
            "1": f"{here}:2222:a1b2c3", "2": f"{here}:1111:d4e5f6",
            "3": f"not-{here}:2222:a1b2c3",  # a worker of another machine
            "4": f"{here}:3333:0a0b0c",  # a worker that is no longer running here
            "5": "garbage"})
    finally:
        client.close()
    owner = owners_lookup(REDIS, prefix, lambda: pids)
    assert [owner(table) for table in (1, 2, 3, 4, 5, 6)] == [1, 0, None, None, None, None]
    pids[1] = 4444  # worker 1 was started again: its new process owns nothing yet
    assert owner(1) is None
    assert owners_lookup(REDIS, f"{prefix}-other", lambda: pids)(2) is None


def test_no_owner_is_known_while_redis_does_not_answer() -> None:
    owner = owners_lookup("redis://127.0.0.1:1/0", "stud", lambda: [os.getpid()])
    started = time.monotonic()
    assert owner(1) is None
    assert time.monotonic() - started < 2.0  # the router does not stall on it


class _OutOfDescriptors(socket.socket):
    """A listening socket whose accept fails as a process out of descriptors does."""

    accepts = 0

    def accept(self) -> tuple[socket.socket, object]:  # type: ignore[override]
        type(self).accepts += 1
        raise OSError(24, "Too many open files")


def test_a_router_that_cannot_accept_waits_a_moment_and_says_so_once(
        caplog: pytest.LogCaptureFixture) -> None:
    """Out of descriptors, the waiting connection keeps the socket readable: the router must
    not spin on it, nor fill the log."""
    server = _OutOfDescriptors()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    ours, theirs = handoff_pair()
    running = Router(server, lambda: [ours], lambda table: None)
    try:
        with caplog.at_level(logging.WARNING, "stud.server"), dial(server):
            running.start()
            time.sleep(0.5)
            running.stop()
        assert 1 <= _OutOfDescriptors.accepts <= 15  # about one try in 50 ms, not thousands
        assert caplog.text.count("could not accept a connection") == 1
    finally:
        server.close()
        ours.close()
        theirs.close()
