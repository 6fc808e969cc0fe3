"""Fixtures for the web table: databases (SQLite, and the real PostgreSQL when one answers) and
servers on loopback (in a thread, or as a real process that a test may kill).

Every server binds 127.0.0.1 on a free port and stops by itself at the end of its test.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

import httpx
import pytest
import uvicorn

from stud.rules import PROFILES, Stakes, Variant
from stud.server.app import create_app
from stud.server.room import Timing
from stud.server.store import HandPlayer, Store

POSTGRES = os.environ.get("STUD_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
FAST = Timing(bot_delay=0.0, hand_pause=0.05, clock_scale=1.0, seat_wait=0.0)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _postgres_answers() -> str | None:
    """None when the server answers, else why not."""
    import psycopg

    try:
        with psycopg.connect(POSTGRES.replace("+psycopg", ""), connect_timeout=3):
            return None
    except psycopg.Error as error:
        return f"no PostgreSQL answers at {POSTGRES}: {str(error).strip().splitlines()[0]}"


def missing(reason: str, required_by: str) -> NoReturn:
    """A service or tool the test needs is not here: skipped, with the reason shown, or a
    failure where the environment variable ``required_by`` is set (CI must have them all)."""
    if os.environ.get(required_by):
        pytest.fail(reason)
    pytest.skip(reason)


@contextlib.contextmanager
def postgres_schema() -> Iterator[str]:
    """A URL whose tables live in a fresh schema of the test database, dropped afterwards."""
    import psycopg

    reason = _postgres_answers()
    if reason is not None:
        missing(reason, "STUD_REQUIRE_POSTGRES")
    schema = f"stud_test_{uuid.uuid4().hex[:12]}"
    plain = POSTGRES.replace("+psycopg", "")
    with psycopg.connect(plain, autocommit=True) as db:
        db.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{POSTGRES}?options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(plain, autocommit=True) as db:
            db.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Each store test runs on an SQLite file and on the real PostgreSQL."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'stud.db'}"
        return
    with postgres_schema() as url:
        yield url


@pytest.fixture
def sqlite_database(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'stud.db'}"


@dataclass
class Server:
    url: str
    database: str

    @property
    def ws(self) -> str:
        return "ws" + self.url[len("http"):]

    def client(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=10)


def _wait_until_up(url: str, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                return
        time.sleep(0.05)
    raise TimeoutError(f"no server answered at {url} within {seconds} s")


@contextlib.contextmanager
def serve_in_thread(database: str, timing: Timing = FAST) -> Iterator[Server]:
    port = free_port()
    config = uvicorn.Config(create_app(database, timing), host="127.0.0.1", port=port,
                            log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(url)
        yield Server(url, database)
    finally:
        server.should_exit = True
        thread.join(timeout=15)


@pytest.fixture
def server(sqlite_database: str) -> Iterator[Server]:
    """A server in this process, on an SQLite file, with bots that act at once."""
    with serve_in_thread(sqlite_database) as running:
        yield running


# As `stud serve` runs it: the store in a process of its own (stud.server.store_process).
SERVE = """
import sys, uvicorn
from stud.server.app import create_app
from stud.server.room import Timing
uvicorn.run(create_app(sys.argv[1], Timing({bot_delay}, {hand_pause}, {clock_scale}, 0.0),
                       store_process=True),
            host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
"""


def child_processes(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (a server's store process)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
    return found


def ended(pid: int) -> bool:
    """Gone, or a zombie nobody has reaped yet."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


@dataclass
class ServerProcess(Server):
    process: subprocess.Popen[bytes]

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as when the machine loses power to the process.
        Its store process must stop with it (no process is left behind)."""
        children = child_processes(self.process.pid)
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)
        deadline = time.monotonic() + 10
        while not all(ended(child) for child in children):
            assert time.monotonic() < deadline, f"the killed server left {children} behind"
            time.sleep(0.05)


@contextlib.contextmanager
def serve_in_process(database: str, timing: Timing = FAST) -> Iterator[ServerProcess]:
    port = free_port()
    code = SERVE.format(bot_delay=timing.bot_delay, hand_pause=timing.hand_pause,
                        clock_scale=timing.clock_scale)
    process = subprocess.Popen([sys.executable, "-c", code, database, str(port)])
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(url)
        yield ServerProcess(url, database, process)
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


# A store of the database fixture's kind (the store's tests), and a table of two bots in it.
PHH = 'variant = "7S"\n'


@pytest.fixture
def store(database: str) -> Iterator[Store]:
    opened = Store(database)
    yield opened
    opened.close()


def table_with_players(store: Store, name: str) -> tuple[int, list[HandPlayer]]:
    table = store.create_table(name, Variant.STUD, Stakes.for_limit(2), PROFILES["standard"], 6,
                               30)
    bots = [store.add_bot(table.id, seat, "station", 100) for seat in (1, 2)]
    return table.id, [HandPlayer(b.seat, b.account_id, b.stack) for b in bots]


# ---------------------------------------------------------------------- Redis (several workers)

REDIS = os.environ.get("STUD_TEST_REDIS", "redis://127.0.0.1:6379/0")


@pytest.fixture
def prefix() -> Iterator[str]:
    """A Redis key prefix of this test alone, its keys deleted afterwards; the test is skipped
    (failed where CI requires Redis) when no Redis answers."""
    import redis

    from stud.server.workers import redis_problem

    problem = redis_problem(REDIS)
    if problem is not None:
        missing(problem, "STUD_REQUIRE_REDIS")
    name = f"stud-test-{uuid.uuid4().hex[:10]}"
    yield name
    client = redis.Redis.from_url(REDIS)
    try:
        keys = list(client.scan_iter(f"{name}:*"))
        if keys:
            client.delete(*keys)
    finally:
        client.close()
