"""``stud serve --workers 2`` on the real PostgreSQL and Redis: a worker killed with SIGKILL in the
middle of a hand, its tables taken over by the other within seconds (the cut hand voided, every
chip back), play going on as the clients reconnect, the restarted worker given its share of the
tables back, the books audited, and no frame with another seat's down card; and two such servers
on one database and one Redis, as on two machines, relaying each other's tables' clients."""

from __future__ import annotations

import contextlib
import os
import random
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from sqlalchemy import select
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from stud.server.schema import hands, leases
from stud.server.store import Store

from .conftest import REDIS, free_port, postgres_schema
from .test_hidden_cards import Audit, check_frame, choose, truths
from .wsclient import TableClient, bearer, make_account, make_table

TABLES = 4
LEASE = 1.0  # seconds: the takeover is quick to wait for


@dataclass
class Workers:
    url: str
    database: str
    process: subprocess.Popen[bytes]
    log: Path
    pids: list[int]  # the workers started first

    @property
    def ws(self) -> str:
        return "ws" + self.url[len("http"):]

    def owner(self, table_id: int) -> int | None:
        """The process id of the worker holding the table's lease; None between two."""
        store = Store(self.database, upgrade=False)
        try:
            with store.engine.connect() as db:
                owner = db.execute(select(leases.c.owner)
                                   .where(leases.c.table_id == table_id)).scalar_one()
        finally:
            store.close()
        return None if owner is None else int(owner.split(":")[-2])


@contextlib.contextmanager
def serve_workers(database: str, prefix: str, tmp_path: Path, name: str = "workers",
                  lease: float = LEASE) -> Iterator[Workers]:
    port = free_port()
    log = tmp_path / f"{name}.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-c", "from stud.cli import app; app()", "serve", "--workers", "2",
             "--port", str(port), "--database", database, "--redis", REDIS, "--redis-prefix",
             prefix, "--lease", str(lease), "--bot-delay", "0.02", "--hand-pause", "0.05",
             "--seat-wait", "0"], stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    pids: list[int] = []
    try:
        # "serving" is said once the workers serve: from then on the first answer is prompt.
        deadline = time.monotonic() + 120
        while "serving" not in log.read_text():
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        assert httpx.get(f"{url}/api/health", timeout=20).status_code == 200
        banner = log.read_text()
        pids = [int(p) for p in re.findall(r"\d+", banner.split("processes ")[1].split(")")[0])]
        yield Workers(url, database, process, log, pids)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for pid in pids:  # none may be left behind, even if the parent was killed
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


@dataclass
class Seat:
    """One role at one table (a player in seat 1, or a watcher): each connection it had."""

    table: int
    token: str | None
    seat: int | None
    ws: str
    connections: list[TableClient] = field(default_factory=list)
    closes: list[int | None] = field(default_factory=list)  # close codes, when one ended

    @property
    def client(self) -> TableClient:
        return self.connections[-1]

    def connect(self, deadline: float) -> None:
        while True:
            try:
                client = TableClient(self.ws, self.table, self.token, timeout=5)
                client.first_state()
                self.connections.append(client)
                return
            # A handshake may meet a worker as it is killed or started again (no answer, or half
            # of one): tried again, as the page does.
            except (OSError, ConnectionClosed, InvalidHandshake, AssertionError, TimeoutError):
                assert time.monotonic() < deadline, f"table {self.table}: no reconnect"
                time.sleep(0.2)

    def step(self, rng: random.Random, deadline: float) -> None:
        """Read what came; play a turn; reconnect when the connection ended."""
        client = self.client
        try:
            with contextlib.suppress(TimeoutError):
                client.receive(0.005)
            frame = client.state
            if self.seat is not None and frame is not None and client.my_turn(frame):
                client.act(frame, choose(rng, frame))
        except ConnectionClosed as closed:
            self.closes.append(closed.rcvd.code if closed.rcvd else None)
            client.close()
            self.connect(deadline)

    def last_number(self) -> int:
        state = self.client.state
        return 0 if state is None or state["last"] is None else int(state["last"]["number"])


def _frames_read_again(server: Workers, roles: list[Seat]) -> Audit:
    """Every frame each connection got, checked for another seat's down card (against the
    dealer's record of each hand); the connections closed."""
    audit = Audit()
    for role in roles:
        truth = truths(server, role.table)  # type: ignore[arg-type]
        for client in role.connections:
            own = None
            for raw, frame in zip(client.raw, client.frames, strict=True):
                if frame["type"] == "state":
                    own = frame["you"]["seat"]
                check_frame(raw, frame, own, truth, audit)
            client.close()
    return audit


def _balanced(server: Workers, players: list[Seat]) -> None:
    """Wait until the tables (all made through one worker) are shared out, two each, and
    each new owner has opened its tables."""
    deadline = time.monotonic() + 30
    while sorted(Counter(owners := [server.owner(p.table) for p in players]).values()) \
            != [2, 2] or None in owners:
        assert time.monotonic() < deadline, f"the tables stayed at {owners}"
        time.sleep(0.1)
    time.sleep(4 * LEASE / 5)


def _seat(roles: list[Seat], players: list[Seat], deadline: float,
          bots: tuple[tuple[int, str], ...] = ((2, "station"),)) -> None:
    """Each player sits in seat 1 and has its bots seated, as a page would: asked again after
    a reconnection that lost the request (the table moved meanwhile)."""
    rng = random.Random(7)
    asked: dict[int, float] = {}
    while True:
        waiting = False
        for player in players:
            state = player.client.state
            if state is not None and state["you"]["seat"] == 1 and all(
                    state["seats"][seat - 1] is not None for seat, _ in bots):
                continue
            waiting = True
            if time.monotonic() - asked.get(player.table, 0.0) > 2.0:
                asked[player.table] = time.monotonic()
                with contextlib.suppress(ConnectionClosed):
                    if state is None or state["you"]["seat"] is None:
                        player.client.send({"type": "sit", "seat": 1, "buy_in": 500})
                    for seat, bot in bots:
                        if state is None or state["seats"][seat - 1] is None:
                            player.client.send({"type": "add_bot", "seat": seat, "bot": bot,
                                                "buy_in": 500})
        if not waiting:
            return
        assert time.monotonic() < deadline, "the players could not all sit down"
        for role in roles:
            role.step(rng, deadline)


def _play(roles: list[Seat], players: list[Seat], done: int, seconds: float) -> None:
    rng = random.Random(14)
    deadline = time.monotonic() + seconds
    while min(p.last_number() for p in players) < done:
        assert time.monotonic() < deadline, [p.last_number() for p in players]
        for role in roles:
            role.step(rng, deadline)


def test_a_worker_killed_mid_hand_loses_nothing_and_play_goes_on(prefix: str,
                                                                  tmp_path: Path) -> None:
    with postgres_schema() as database, serve_workers(database, prefix, tmp_path) as server:
        roles: list[Seat] = []
        players: list[Seat] = []
        with httpx.Client(base_url=server.url, timeout=10) as http:
            for _ in range(TABLES):
                _, token = make_account(http)
                table = make_table(http, token, seats=4, clock=30)
                _, watcher = make_account(http)
                player = Seat(table, token, 1, server.ws)
                players.append(player)
                roles += [player, Seat(table, watcher, None, server.ws),
                          Seat(table, None, None, server.ws)]
            _balanced(server, players)
            for role in roles:
                role.connect(time.monotonic() + 10)
            _seat(roles, players, time.monotonic() + 30, ((2, "station"), (3, "random")))
            _play(roles, players, 2, 30)
            # The lobby, asked of either worker, shows every table with its live figures.
            for _ in range(6):
                listed = {t["id"]: t for t in http.get("/api/tables").json()}
                assert sorted(listed) == sorted(p.table for p in players)
                assert all(t["taken"] == 3 and t["hands"] >= 2 for t in listed.values())

        # Kill the worker playing table 1 while seat 1 has to act there: its hand is cut.
        victim = players[0]
        pid = server.owner(victim.table)
        deadline = time.monotonic() + 20
        rng = random.Random(1)
        while True:
            state = victim.client.state
            if state is not None and state["hand"] is not None and not state["hand"]["over"] \
                    and victim.client.my_turn(state):
                break
            assert time.monotonic() < deadline, "seat 1 never came to act"
            for role in roles:
                if role is not victim:
                    role.step(rng, deadline)
            with contextlib.suppress(TimeoutError):
                victim.client.receive(0.01)
        cut = int(state["hand"]["number"])
        killed_at = time.monotonic()
        os.kill(pid, signal.SIGKILL)

        before = {p.table: p.last_number() for p in players}
        try:
            _play(roles, players, max(before.values()) + 3, 40)
        except AssertionError:
            print(server.log.read_text()[-5000:])  # the workers' side, for whoever reads it
            raise
        assert victim.last_number() > cut
        new_owner = server.owner(victim.table)
        assert new_owner != pid
        taken_in = time.monotonic() - killed_at
        assert taken_in < 40

        # The parent started the dead worker again, and it gets its share of the tables back:
        # the other gives two up between hands, and their clients reconnect and play on.
        deadline = time.monotonic() + 15
        while "starting it again" not in server.log.read_text():
            assert time.monotonic() < deadline, server.log.read_text()
            time.sleep(0.1)
        deadline = time.monotonic() + 30
        while sorted(Counter(owners := [server.owner(p.table) for p in players]).values()) \
                != [2, 2]:
            assert time.monotonic() < deadline, f"the tables stayed at {owners}"
            for role in roles:
                role.step(rng, deadline)
        _play(roles, players, max(p.last_number() for p in players) + 2, 40)

    # ---------------------------------------------------------------- the books, the frames
        store = Store(database, upgrade=False)
        try:
            with store.engine.connect() as db:
                status = db.execute(select(hands.c.status).where(
                    hands.c.table_id == victim.table, hands.c.number == cut)).scalar_one()
            assert status == "voided"
            assert store.audit() == []
        finally:
            store.close()
        audited = subprocess.run([sys.executable, "-c", "from stud.cli import app; app()",
                                  "audit", "--database", database], capture_output=True,
                                 text=True, timeout=60)
        assert audited.returncode == 0, audited.stdout + audited.stderr

        relayed = sum(code == 4503 for role in roles for code in role.closes)
        cut_off = sum(code is None or code == 1006 for role in roles for code in role.closes)
        assert relayed + cut_off >= 3  # at least the victim table's three connections ended
        audit = _frames_read_again(server, roles)
        assert audit.hidden_checked > 200 and audit.own_seen > 20, audit


def test_clients_of_a_table_played_on_another_machine_are_relayed_and_see_no_hidden_card(
        prefix: str, tmp_path: Path) -> None:
    """Two ``stud serve --workers 2`` on one database and one Redis, as on two machines: each
    parent hands a table's connection to its own worker that plays it, and the others'
    tables' connections go to one of its workers, which relays them through Redis."""
    # Leases of 5 s (the default): four workers and their stores on two cores are slow to
    # renew, and a lease of 1 s would move tables for that alone.
    with postgres_schema() as database, \
            serve_workers(database, prefix, tmp_path, "a", 5.0) as first, \
            serve_workers(database, prefix, tmp_path, "b", 5.0) as second:
        machines = (first, second)
        roles: list[Seat] = []
        players: list[Seat] = []
        with httpx.Client(base_url=first.url, timeout=10) as http:
            for k in range(TABLES):
                _, token = make_account(http)
                table = make_table(http, token, seats=4, clock=30)
                player = Seat(table, token, 1, machines[k % 2].ws)
                players.append(player)
                roles += [player, Seat(table, None, None, machines[(k + 1) % 2].ws)]
        # Four workers in all: a table each, once the first one has given the others theirs.
        deadline = time.monotonic() + 30
        while len({first.owner(p.table) for p in players} - {None}) < TABLES:
            assert time.monotonic() < deadline, [first.owner(p.table) for p in players]
            time.sleep(0.2)
        time.sleep(2.0)  # each new owner has opened its table, and told the relays so
        for role in roles:
            role.connect(time.monotonic() + 10)
        _seat(roles, players, time.monotonic() + 30)
        _play(roles, players, 3, 60)

        played_by = {p.table: first.owner(p.table) for p in players}
        relayed = [role for role in roles if played_by[role.table] not in
                   next(m.pids for m in machines if m.ws == role.ws)]
        assert len(relayed) == len(roles) // 2  # each table has one role on each machine
        audit = _frames_read_again(first, roles)
        assert audit.hidden_checked > 50 and audit.own_seen > 10, audit


def test_several_workers_on_sqlite_is_a_one_line_error(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", "from stud.cli import app; app()", "serve",
                           "--workers", "2", "--database", f"sqlite:///{tmp_path / 'x.db'}"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0
    assert "--workers 2 needs PostgreSQL" in done.stderr


def test_a_redis_that_does_not_answer_is_a_one_line_error_without_its_password() -> None:
    done = subprocess.run([sys.executable, "-c", "from stud.cli import app; app()", "serve",
                           "--workers", "2", "--database", "postgresql://postgres@127.0.0.1/test",
                           "--redis", "redis://:hunter2@127.0.0.1:1/0"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0
    assert "no Redis answers" in done.stderr and "redis://:***@127.0.0.1:1/0" in done.stderr
    assert "hunter2" not in done.stderr


def test_sit_and_gos_play_now_and_table_pages_work_whichever_worker_answers(
        prefix: str, tmp_path: Path) -> None:
    """Each request on a connection of its own, so that either worker may answer it: a
    sit-and-go's registrations reach the worker playing its table, wherever they land."""
    with postgres_schema() as database, serve_workers(database, prefix, tmp_path) as server:
        def ask(method: str, path: str, token: str, **fields: object) -> httpx.Response:
            return httpx.request(method, server.url + path, headers=bearer(token),
                                 timeout=10, **fields)  # type: ignore[arg-type]

        with httpx.Client(base_url=server.url, timeout=10) as http:
            tokens = [make_account(http)[1] for _ in range(4)]
        made = ask("POST", "/api/tournaments", tokens[0], json={"players": 6, "buy_in": 100})
        assert made.status_code == 201, made.text
        number = made.json()["id"]
        for token in tokens:
            answer = ask("POST", f"/api/tournaments/{number}/register", token)
            assert answer.status_code == 200, answer.text
        for _ in range(4):  # each answer from whichever worker, the same
            detail = ask("GET", f"/api/tournaments/{number}", tokens[1]).json()
            assert detail["registered"] == 4 and detail["status"] == "registering"
        filled = ask("POST", f"/api/tournaments/{number}/bots", tokens[0], json={})
        assert filled.status_code == 200 and filled.json()["status"] == "running", filled.text
        with TableClient(server.ws, made.json()["table"], tokens[2]) as client:
            assert client.first_state()["table"]["tournament"]["id"] == number

        found = ask("POST", "/api/play-now", tokens[3], json={"variant": "razz"})
        assert found.status_code == 200, found.text
        table = found.json()["table"]["id"]
        # The owner writes its live figures every round: on a loaded machine a round may come
        # late, so wait for them (bounded), then every answer, from either worker, shows the
        # bots seated. (Not always all three: they play among themselves meanwhile, and one
        # that goes broke leaves; the last one cannot.)
        deadline = time.monotonic() + 20 * LEASE
        while not ask("GET", f"/api/tables/{table}", tokens[3]).json()["taken"]:
            shown = ask("GET", f"/api/tables/{table}", tokens[3]).json()
            assert time.monotonic() < deadline, {k: shown[k] for k in ("taken", "seats", "live")
                                                 if k in shown}
            time.sleep(LEASE / 5)
        for _ in range(4):
            assert 1 <= ask("GET", f"/api/tables/{table}", tokens[3]).json()["taken"] <= 3
            assert ask("GET", f"/tables/{table}", tokens[3]).status_code == 200
        assert ask("GET", "/tables/999", tokens[3]).status_code == 404
        with TableClient(server.ws, table, tokens[3]) as client:
            client.send({"type": "sit", "seat": found.json()["seat"],
                         "buy_in": found.json()["buy_in"]})
            client.until_state(lambda f: f["you"]["seat"] is not None and f["hand"] is not None,
                               what="a hand dealt to the Play now seat")


def test_a_relayed_connection_takes_frames_from_the_first_owner_that_answers_only() -> None:
    """For a moment after a takeover, a stalled owner and the new one may both answer a join:
    their frames must not interleave on one connection."""
    import redis.asyncio

    from stud.server.relay import Relay, Relayed

    relay = Relay(redis.asyncio.Redis(), "p", "w", None)  # type: ignore[arg-type]
    relayed = relay.relayed["c1"] = Relayed(7)
    relay._dispatch(relay.inbox, 'c1 new\n{"type": "state", "seq": 1}')
    relay._dispatch(relay.inbox, 'c1 old\n{"type": "state", "seq": 1, "stale": true}')
    relay._dispatch(relay.inbox, "c1 old\n\x004503 the table moved: reconnect")
    relay._dispatch(relay.inbox, 'c1 new\n{"type": "delta", "seq": 2}')
    taken = [relayed.outbox.get_nowait() for _ in range(relayed.outbox.qsize())]
    assert taken == ['{"type": "state", "seq": 1}', '{"type": "delta", "seq": 2}']
    relay._dispatch(relay.moved, "7")  # the table moved: the connection is told to reconnect
    assert relayed.outbox.get_nowait() == (4503, "the table moved: reconnect")


def test_workers_stop_when_their_parent_is_killed(prefix: str, tmp_path: Path) -> None:
    with postgres_schema() as database, serve_workers(database, prefix, tmp_path) as server:
        banner = server.log.read_text()
        pids = [int(p) for p in re.findall(r"\d+", banner.split("processes ")[1].split(")")[0])]
        server.process.send_signal(signal.SIGKILL)
        server.process.wait(timeout=10)
        deadline = time.monotonic() + 20
        for pid in pids:
            while Path(f"/proc/{pid}").exists() and \
                    Path(f"/proc/{pid}/stat").read_text().split(")")[1].split()[0] != "Z":
                assert time.monotonic() < deadline, f"worker {pid} outlived its parent"
                time.sleep(0.1)
