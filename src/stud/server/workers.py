"""``stud serve --workers N``: N worker processes serving one port, and the parent that keeps them.

The parent binds the port once and accepts every connection itself: a table's WebSocket goes to
the worker that owns the table, any other connection to the workers in turn
(``stud.server.router``; each worker is given its connections over a Unix socket of its own).
Each worker is a whole server (``create_app(..., workers=...)``) that plays the tables it holds
a lease on and relays the clients it was given of tables it does not own: one whose owner
changed since, or is on another machine (``stud.server.cluster``, ``stud.server.relay``).

A worker that dies is started again by the parent (its tables are meanwhile taken over by the
others as their leases expire; the new worker gets its share back as the others give up,
between hands, what they hold beyond theirs: ``stud.server.cluster``). One that
keeps dying at once (five times within a few seconds of starting) stops the parent: something is
wrong that a restart does not mend. Ctrl-C or SIGTERM stops the workers cleanly: each gives its
tables up, and the parent waits for them.

Several machines run the same command with the same ``--redis`` and ``--database`` URLs.
Before any worker starts, the parent claims the Redis prefix for its database (one room per
prefix, ``stud.server.holder.RoomClaim``) and renews the claim while it runs: a second room on
the same Redis and prefix with another database is refused at its start, in one line.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import logging
import os
import select
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

import uvicorn

from stud.server.cluster import Workers, worker_name
from stud.server.connection import MAX_MESSAGE
from stud.server.holder import PrefixBusy, RoomClaim, room_name, room_seconds
from stud.server.parent import end_with
from stud.server.room import Timing
from stud.server.router import Router, handoff_pair, owners_lookup, take_handed

log = logging.getLogger("stud.server")
QUICK_DEATH = 5.0  # seconds: a worker dying sooner after its start counts toward giving up
GIVE_UP = 5  # quick deaths in a row that stop the parent
READY_WITHIN = 120.0  # seconds the parent waits for its workers to serve before it says so


@dataclass
class Worker:
    number: int
    process: subprocess.Popen[bytes]
    started: float
    handoff: socket.socket  # the parent's end: the connections handed to this worker


def redis_problem(url: str) -> str | None:
    """None when Redis answers at ``url``, else why not, in one line."""
    import redis

    from stud.server.store import without_password

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3)
        try:
            client.ping()
        finally:
            client.close()
    except (redis.RedisError, ValueError, OSError) as error:
        return (f"--redis {without_password(url)}: no Redis answers: "
                f"{str(error).strip().splitlines()[0]}")
    return None


def supervise(listening: socket.socket, database: str, workers: Workers, timing: Timing,
              on_started: Callable[[list[int]], None] | None = None) -> int:
    """Run ``workers.workers`` workers on ``listening`` until a signal stops the parent; the
    exit status (2 when another room holds the Redis prefix, at the start or later)."""
    claim = _claim_prefix(database, workers)
    if claim is None:
        return 2
    config = json.dumps({"database": database, "workers": dataclasses.asdict(workers),
                         "timing": dataclasses.asdict(timing), "parent": os.getpid()})
    stopping = False
    lost: list[str] = []

    def lose(message: str) -> None:
        nonlocal stopping
        print(f"stud: {message}; this room stops", file=sys.stderr, flush=True)
        lost.append(message)
        stopping = True

    def start(number: int) -> Worker:
        ours, theirs = handoff_pair()
        with theirs:
            process = subprocess.Popen([sys.executable, "-m", "stud.server.workers",
                                        str(theirs.fileno()), config],
                                       pass_fds=[theirs.fileno()])
        return Worker(number, process, time.monotonic(), ours)

    def stop(_signal: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True

    previous = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)}
    running: list[Worker] = []
    router: Router | None = None
    quick_deaths = 0
    status = 0
    try:  # whatever fails from here, the workers started stop and the claim is let go
        claim.keep(lose)
        running.extend(start(n) for n in range(workers.workers))
        router = Router(listening, lambda: [w.handoff for w in running],
                        owners_lookup(workers.redis, workers.prefix,
                                      lambda: [w.process.pid for w in running]))
        router.start()
        _wait_ready(running, lambda: stopping)
        if on_started is not None and not stopping:
            on_started([w.process.pid for w in running])
        while not stopping:
            time.sleep(0.2)
            for index, worker in enumerate(running):
                code = worker.process.poll()
                if code is None or stopping:
                    continue
                lived = time.monotonic() - worker.started
                quick_deaths = quick_deaths + 1 if lived < QUICK_DEATH else 0
                print(f"stud: worker {worker.number} (process {worker.process.pid}) ended "
                      f"with {_how(code)} after {lived:.0f} s; "
                      + ("giving up" if quick_deaths >= GIVE_UP else "starting it again"),
                      file=sys.stderr, flush=True)
                if quick_deaths >= GIVE_UP:
                    stopping, status = True, 1
                    break
                worker.handoff.close()
                running[index] = start(worker.number)
    finally:
        if router is not None:
            router.stop()
        for worker in running:
            if worker.process.poll() is None:
                worker.process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 20
        for worker in running:
            try:
                worker.process.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                worker.process.kill()
                worker.process.wait()
            worker.handoff.close()
        claim.let_go()  # once no worker of this room is left
        for number, handler in previous.items():
            signal.signal(number, handler)
    return 2 if lost else status


def _claim_prefix(database: str, workers: Workers) -> RoomClaim | None:
    """This room's claim on its Redis prefix (``stud.server.holder.RoomClaim``), taken before
    any worker starts; None when another room holds the prefix, or the claim could not be
    made, once that is said in one line."""
    import redis
    from sqlalchemy.exc import SQLAlchemyError

    from stud.server.store import without_password

    try:
        claim = RoomClaim(workers.redis, workers.prefix, room_name(database), worker_name(),
                          room_seconds(workers.lease_seconds))
    except (SQLAlchemyError, ValueError) as error:
        print(f"error: --database {without_password(database)}: "
              f"{str(error).strip().splitlines()[0]}", file=sys.stderr, flush=True)
        return None
    try:
        claim.take()
    except PrefixBusy as error:
        print(f"error: {error}", file=sys.stderr, flush=True)
    except (redis.RedisError, OSError) as error:
        print(f"error: --redis {without_password(workers.redis)}: could not claim the prefix "
              f"{workers.prefix}: {str(error).strip().splitlines()[0]}", file=sys.stderr,
              flush=True)
    else:
        return claim
    claim.let_go()
    return None


def _wait_ready(running: list[Worker], stopping: Callable[[], bool],
                timeout: float = READY_WITHIN) -> None:
    """Wait until every worker has said it serves (one message on its hand-over socket, once
    its app has started), one has ended, a signal came, or ``timeout`` seconds passed: so the
    parent says "serving" once the workers answer."""
    waiting = {w.handoff: w for w in running}
    deadline = time.monotonic() + timeout
    while waiting and not stopping() and time.monotonic() < deadline:
        ready, _, _ = select.select(list(waiting), [], [], 0.2)
        for handoff in ready:
            said = b""
            with contextlib.suppress(OSError):
                said = handoff.recv(16)
            worker = waiting.pop(handoff)
            if not said:  # its end closed: it died before serving
                print(f"stud: worker {worker.number} (process {worker.process.pid}) ended "
                      "before it served", file=sys.stderr, flush=True)
        if any(w.process.poll() is not None for w in waiting.values()):
            return  # the supervising loop says so and starts it again
    for worker in waiting.values():
        if not stopping():
            print(f"stud: worker {worker.number} (process {worker.process.pid}) has not said "
                  f"it serves after {timeout:.0f} s", file=sys.stderr, flush=True)


def _how(code: int) -> str:
    return f"signal {-code} ({signal.Signals(-code).name})" if code < 0 else f"status {code}"


def _worker(fd: int, config: str) -> None:
    """One worker: a whole server, serving the connections the parent hands it on ``fd``."""
    from stud.server.app import create_app
    from stud.server.collector import tune_for_serving

    given = json.loads(config)
    # SIGTERM when the parent ends, even by SIGKILL: the worker gives its tables up and stops
    # rather than serve on alone.
    if not end_with(int(given["parent"]), signal.SIGTERM):
        sys.exit(1)
    workers = Workers(**given["workers"])
    timing = Timing(**given["timing"])
    server = HandedServer(uvicorn.Config(
        create_app(given["database"], timing, store_process=True, workers=workers),
        log_level="warning",
        ws_ping_interval=20, ws_ping_timeout=20, ws_per_message_deflate=False,
        ws_max_size=MAX_MESSAGE),
        socket.socket(fileno=fd))
    tune_for_serving()
    server.run(sockets=[])  # no listening socket of its own
    if not server.started:
        sys.exit(1)


class HandedServer(uvicorn.Server):
    """A worker's server: it accepts nothing itself, and serves each connection the parent
    hands it (``stud.server.router``) as if it had accepted it."""

    def __init__(self, config: uvicorn.Config, inbox: socket.socket) -> None:
        super().__init__(config)
        self.inbox = inbox

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.should_exit:
            return
        with contextlib.suppress(OSError):
            self.inbox.send(b"serving")  # the parent waits for it before it says "serving"
        self.inbox.setblocking(False)
        asyncio.get_running_loop().add_reader(self.inbox.fileno(), self._take)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        with contextlib.suppress(Exception):
            asyncio.get_running_loop().remove_reader(self.inbox.fileno())
        await super().shutdown(sockets)

    def _take(self) -> None:
        loop = asyncio.get_running_loop()
        taken = take_handed(self.inbox)
        if taken is None:  # the parent is gone (and this worker is told to stop)
            loop.remove_reader(self.inbox.fileno())
            return
        config = self.config
        for connection in taken:
            connection.setblocking(False)
            loop.create_task(self._serve_handed(connection, lambda: config.http_protocol_class(
                config=config, server_state=self.server_state,  # type: ignore[call-arg]
                app_state=self.lifespan.state)))

    async def _serve_handed(self, connection: socket.socket,
                            protocol: Callable[[], asyncio.Protocol]) -> None:
        try:
            await asyncio.get_running_loop().connect_accepted_socket(protocol, connection)
        except OSError:  # the client left before it could be served
            connection.close()


def main() -> None:
    parser = argparse.ArgumentParser(description="one worker of `stud serve --workers N`")
    parser.add_argument("fd", type=int)
    parser.add_argument("config")
    arguments = parser.parse_args()
    logging.basicConfig(level=logging.WARNING,
                        format=f"%(asctime)s worker {os.getpid()} %(levelname)s %(message)s")
    _worker(arguments.fd, arguments.config)


if __name__ == "__main__":
    main()
