"""The parent of ``stud serve --workers N`` accepts every connection and hands it to a worker.

A table's WebSocket (``GET /ws/tables/{id}``) goes to the worker that owns the table, so that
its frames go straight to the client rather than through Redis (``stud.server.relay``, which
still serves whatever cannot be handed over: a table owned on another machine, one whose owner
is not known yet or just changed). Every other connection (pages, the API, the lobby's socket)
goes to the workers in turn.

The parent reads a new connection's first bytes without taking them (``MSG_PEEK``), looks the
table's owner up in Redis (``{prefix}:owners``, kept by the workers: ``stud.server.cluster``)
and passes the connection's descriptor to that worker over a Unix socket (``SCM_RIGHTS``); the
worker's server then reads the request itself, as if it had accepted it. Handing over costs
the parent one lookup per connection, not per frame: a table's connections last.
"""

from __future__ import annotations

import contextlib
import logging
import re
import selectors
import socket
import threading
import time
from collections.abc import Callable, Sequence

log = logging.getLogger("stud.server")
PEEK = 2048  # bytes read (and left) of a new connection: its request line
WAIT = 2.0  # seconds a new connection may take to send its request line, else any worker
HOLD = 10.0  # seconds a connection waits for a worker that can take it (all busy), else closed
_TABLE_SOCKET = re.compile(rb"GET /ws/tables/(\d+)[?/ ]")


def table_of(request: bytes) -> int | None:
    """The table a request's first line opens a WebSocket to; None for any other request."""
    match = _TABLE_SOCKET.match(request)
    return int(match.group(1)) if match else None


def handoff_pair() -> tuple[socket.socket, socket.socket]:
    """The parent's and a worker's ends of the socket connections are handed over by (one
    message, one descriptor each)."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    ours.setblocking(False)
    theirs.set_inheritable(True)
    return ours, theirs


def hand_over(to: socket.socket, connection: socket.socket) -> bool:
    """Pass ``connection`` to a worker; False when that worker cannot take it now."""
    try:
        return socket.send_fds(to, [b"c"], [connection.fileno()]) == 1
    except OSError:  # gone, or its queue is full
        return False


def take_handed(inbox: socket.socket) -> list[socket.socket] | None:
    """The connections handed to this worker now; None once the parent is gone."""
    taken: list[socket.socket] = []
    while True:
        try:
            data, fds, _flags, _address = socket.recv_fds(inbox, 16, 1)
        except (BlockingIOError, InterruptedError):
            return taken
        except OSError:
            return None
        if not data and not fds:
            return None if not taken else taken
        taken += [socket.socket(fileno=fd) for fd in fds]


class Router:
    """The parent's thread that accepts, peeks and hands over.

    ``workers()`` gives the workers' handoff sockets now (a restarted worker has a new one),
    and ``owner(table)`` the index among them of the worker that owns a table, if known."""

    def __init__(self, listening: socket.socket,
                 workers: Callable[[], Sequence[socket.socket | None]],
                 owner: Callable[[int], int | None]) -> None:
        self.listening = listening
        self.workers = workers
        self.owner = owner
        self._turn = 0
        self._complained = 0.0  # when it last said it could not accept (said once in 5 s)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="stud-router", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)

    def _run(self) -> None:
        selector = selectors.DefaultSelector()
        self.listening.setblocking(False)
        selector.register(self.listening, selectors.EVENT_READ, None)
        waiting: dict[socket.socket, float] = {}  # connections not yet sent their request line
        # Connections no worker could take (each one's queue full, at a burst of reconnections
        # after another died): tried again every few milliseconds for HOLD seconds.
        held: dict[socket.socket, float] = {}
        try:
            while not self._stop.is_set():
                ready: list[socket.socket] = []
                for key, _events in selector.select(0.005 if held else 0.2):
                    if key.data is None:
                        self._accept(selector, waiting)
                    else:
                        connection = key.fileobj
                        assert isinstance(connection, socket.socket)
                        selector.unregister(connection)
                        waiting.pop(connection, None)
                        ready.append(connection)
                now = time.monotonic()
                for connection, since in list(waiting.items()):
                    if now - since > WAIT:
                        selector.unregister(connection)
                        del waiting[connection]
                        ready.append(connection)
                for connection in [*held, *ready]:
                    since = held.pop(connection, now)
                    if self._route(connection):
                        continue
                    if now - since < HOLD:
                        held[connection] = since
                    else:
                        log.warning("no worker took a connection in %g s: closed", HOLD)
                        connection.close()
        finally:
            for connection in [*waiting, *held]:
                connection.close()
            selector.close()

    def _accept(self, selector: selectors.BaseSelector,
                waiting: dict[socket.socket, float]) -> None:
        for _ in range(64):
            try:
                connection, _address = self.listening.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as error:  # out of descriptors, say: a moment, then again
                if time.monotonic() - self._complained > 5.0:
                    self._complained = time.monotonic()
                    log.warning("the router could not accept a connection: %s", error)
                time.sleep(0.05)  # the socket stays readable: do not spin on it
                return
            connection.setblocking(False)
            selector.register(connection, selectors.EVENT_READ, True)
            waiting[connection] = time.monotonic()

    def _route(self, connection: socket.socket) -> bool:
        """Hand the connection over (the parent's copy then closed), or drop it if it ended
        before it said anything: True; False when no worker can take it now (left open)."""
        try:
            request = connection.recv(PEEK, socket.MSG_PEEK)
        except (BlockingIOError, InterruptedError):
            request = None  # nothing said within WAIT: any worker (it times it out)
        except OSError:
            request = b""
        if request == b"":  # closed (or broken) before it said anything
            connection.close()
            return True
        workers = self.workers()
        table = table_of(request or b"")
        first = self.owner(table) if table is not None else None
        if first is None:
            first, self._turn = self._turn % max(1, len(workers)), self._turn + 1
        for k in range(len(workers)):
            to = workers[(first + k) % len(workers)]
            if to is not None and hand_over(to, connection):
                connection.close()  # the worker has its own copy of the descriptor
                return True
        return False


def owners_lookup(redis_url: str, prefix: str, pids: Callable[[], Sequence[int | None]]
                  ) -> Callable[[int], int | None]:
    """``Router.owner`` from Redis: the index of the worker (by its process, on this machine)
    that ``{prefix}:owners`` names for the table (``stud.server.cluster.worker_name``); None
    when unknown, on another machine, or Redis does not answer."""
    import redis

    client = redis.Redis.from_url(redis_url, socket_connect_timeout=0.5, socket_timeout=0.5,
                                  decode_responses=True)
    here = socket.gethostname()[:50]

    def owner(table: int) -> int | None:
        with contextlib.suppress(redis.RedisError, OSError, ValueError):
            name = client.hget(f"{prefix}:owners", str(table))
            host, _, rest = str(name or "").partition(":")
            pid = int(rest.partition(":")[0]) if host == here else None
            current = list(pids())
            if pid is not None and pid in current:
                return current.index(pid)
        return None

    return owner
