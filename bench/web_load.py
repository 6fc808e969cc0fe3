"""Web table load benchmark: many tables of bots and humans, many WebSocket clients, on loopback.

Starts ``stud serve`` as its own process on 127.0.0.1 (a free port, a fresh SQLite file in a
temporary folder, or a fresh schema of the PostgreSQL given with ``--database``), makes the
accounts and tables over HTTP, then connects the clients over WebSocket. Each table (stud, stud8
and razz in turn) gets two human clients that sit and act as soon as their state frame offers a
``legal`` action (one of the legal entries, exactly, chosen at random but mostly check or call, so
that hands reach the showdown), one or two bots seated with ``add_bot``, and spectators to make
up ``--clients`` in all. A human low on chips between hands leaves and sits down again with a
fresh buy-in; a bot that went broke (the room lets it go) is seated again.

Measured after a warm-up, over ``--seconds``:

- the latency of every action a human client sends: from just before it is sent until EVERY
  client of that table (the actor, the other human, the spectators) has received a state frame
  that reflects it, i.e. whose hand has more events than when the action was sent, or whose hand
  number has moved on. Timestamps are taken when the client's event loop gets the frame, so a
  busy client side makes the figures worse, never better. Also the time until the actor alone
  has its answer, and the acts that end a hand apart (those wait for the store to record the
  hand). Count, median, p90, p99 and max, in milliseconds; the target is a p99 under 50 ms
  (under 100 ms for the acts that end a hand);
- hands finished per second (from the ``last.number`` the clients see), table frames (whole
  states and small frames) and bytes received per second, and the mean frame (target: under
  1.5 KB);
- processor use, in cores: the server process (its event-loop thread apart from its other
  threads, the bots' and the store's if it has one, and from its child process, the store's,
  where ``stud serve`` runs the store in a process of its own), the client processes, the
  whole machine and so the other processes on it; and the share of the time the server's
  event-loop thread was ready to run but waiting for a CPU (from /proc/PID/schedstat), which is
  what a busy machine adds to the latencies.

The server and the client processes each run in a session of their own, so that where the
kernel groups tasks by session (autogroup) each gets its own share of the CPUs. The clients run
under asyncio in ``--client-procs`` processes (tables are split between them, so every latency
is measured within one process). ``--pin`` puts the server on the first CPU and the clients on
the others; without it the kernel shares the cores, and the CPU figures say who got what. On a
machine shared with other work, ``--realtime`` (root) runs the server and the clients under
SCHED_RR, so that they get a CPU when they need one, as on a machine of their own; the server's
database (PostgreSQL) is not covered. ``--profile FILE`` runs the server under cProfile.

The clients keep each table's state as the page does: a whole state, then small frames (deltas)
applied to it (``stud.table_state``). ``--frames both`` (the default) makes two runs in a row,
each with a fresh server: whole states every time (``?frames=full``, as before small frames)
and small frames; then their figures side by side, with ratios.

    python bench/web_load.py [--tables 100] [--clients 400] [--seconds 60]
        [--bot-delay 0.8] [--hand-pause 3.0] [--think 0] [--quick] [--database URL]
        [--client-procs 1] [--pin] [--realtime] [--no-compression] [--json out.json]
        [--frames both|delta|full]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import shlex
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

from stud.table_state import FrameGap, TableState

VARIANTS = ("stud", "stud8", "razz")
SMALL_BET = 2
BUY_IN = 500 * SMALL_BET  # the most a seat may buy in for: few rebuys in a run
REBUY_BELOW = 40 * SMALL_BET  # a human this short between hands leaves and buys in again
HUMANS_PER_TABLE = 2
LATE = (1 << 30)  # an events count above any real one: "this hand is over"
WEIGHTS = {"check": 6.0, "call": 6.0, "bring_in": 4.0, "fold": 1.0, "complete": 1.5,
           "bet": 1.5, "raise": 1.5}
LAUNCHER = "import sys\nfrom stud.cli import main\nsys.argv[0] = 'stud'\nmain()\n"
TICK = os.sysconf("SC_CLK_TCK")


# ---------------------------------------------------------------------------- the plan


@dataclass
class TablePlan:
    table_id: int
    variant: str
    humans: list[tuple[int, str]]  # (seat, token)
    bots: list[tuple[int, str]]  # (seat, bot)
    spectators: int


def plan_tables(tables: int, clients: int, bots: list[str]) -> list[tuple[str, int, int, int]]:
    """(variant, humans, bots, spectators) per table, clients spread as evenly as they go."""
    plans = []
    for t in range(tables):
        here = clients // tables + (1 if t < clients % tables else 0)
        humans = min(HUMANS_PER_TABLE, here)
        n_bots = max(1 + t % 2, 2 - humans)  # one or two bots; at least two players
        plans.append((VARIANTS[t % len(VARIANTS)], humans, n_bots, here - humans))
    return plans


# ---------------------------------------------------------------------------- the clients


@dataclass
class Act:
    sent: float
    marker: tuple[int, int]
    actor: int
    waiting: set[int]
    own: float | None = None


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)  # to every client of the table
    own: list[float] = field(default_factory=list)  # to the actor only
    ending: list[float] = field(default_factory=list)  # to every client, acts that end a hand
    frames: int = 0
    frame_bytes: int = 0
    acts_sent: int = 0
    refused: Counter[str] = field(default_factory=Counter)
    refusals: list[str] = field(default_factory=list)
    unanswered: int = 0
    rebuys: int = 0
    bots_reseated: int = 0
    disconnects: int = 0
    moves: int = 0  # reconnections: the table moved (4503, 1013) or its worker was lost
    failed: Counter[str] = field(default_factory=Counter)  # reconnections that failed, by error
    foreign_cards: int = 0  # another seat's down card seen in a hand in play (none expected)
    gaps: int = 0  # small frames that did not follow the one before (none expected)


class TableRun:
    def __init__(self, plan: TablePlan, think: float) -> None:
        self.plan = plan
        self.think = think
        self.clients: list[Client] = []
        self.pending: list[Act] = []
        self.finished = 0  # the number of the last hand finished, as the clients saw it
        self.dealt = 0  # the highest hand number seen before a worker's kill (--kill-after)
        self.resumed: float | None = None  # seconds from the kill to a later hand dealt
        self.adding: set[int] = set()  # bot seats asked for and not yet filled


class Client:
    def __init__(self, table: TableRun, index: int, seat: int | None, token: str | None,
                 rng: random.Random) -> None:
        self.table = table
        self.index = index
        self.seat = seat  # the seat a human client sits in; None for a spectator
        self.token = token
        self.rng = rng
        self.ws: ClientConnection | None = None
        self.acted = (-1, -1)
        self.phase = "out"  # out -> sitting -> seated -> leaving -> sitting ...
        self.act: Act | None = None
        self.state: dict[str, object] | None = None
        self.table_state = TableState()  # the whole state, then each small frame applied


class Worker:
    def __init__(self, plans: list[TablePlan], base: str, opts: dict[str, object],
                 seed: int) -> None:
        self.base = base
        self.opts = opts
        self.stats = Stats()
        self.start = float("inf")
        self.end = float("inf")
        self.kill_at = float("inf")  # when the bench kills a worker (--kill-after)
        rng = random.Random(seed)
        self.tables = []
        for plan in plans:
            table = TableRun(plan, float(opts["think"]))  # type: ignore[arg-type]
            for seat, token in plan.humans:
                table.clients.append(Client(table, len(table.clients), seat, token,
                                            random.Random(rng.random())))
            for _ in range(plan.spectators):
                table.clients.append(Client(table, len(table.clients), None, None, rng))
            self.tables.append(table)

    def in_window(self, moment: float) -> bool:
        return self.start <= moment < self.end

    async def run(self, pipe: Connection) -> None:
        limit = asyncio.Semaphore(64)
        await asyncio.gather(*(self.open(c, limit) for t in self.tables for c in t.clients))
        readers = [asyncio.create_task(self.read(c)) for t in self.tables for c in t.clients]
        deadline = time.monotonic() + 60
        while not self.all_seated() and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        loop = asyncio.get_running_loop()
        pipe.send(("ready", self.all_seated()))
        self.start, self.end, self.kill_at = await loop.run_in_executor(None, pipe.recv)
        await asyncio.sleep(max(0.0, self.start - time.monotonic()))
        cpu0, hands0 = time.process_time(), sum(t.finished for t in self.tables)
        await asyncio.sleep(max(0.0, self.end - time.monotonic()))
        cpu1, hands1 = time.process_time(), sum(t.finished for t in self.tables)
        drain = time.monotonic() + 5  # let the acts sent in the window be answered
        while time.monotonic() < drain and any(
                self.in_window(a.sent) for t in self.tables for a in t.pending):
            await asyncio.sleep(0.05)
        self.stats.unanswered = sum(self.in_window(a.sent) for t in self.tables
                                    for a in t.pending)
        for task in readers:
            task.cancel()
        await asyncio.gather(*(c.ws.close() for t in self.tables for c in t.clients
                               if c.ws is not None), return_exceptions=True)
        pipe.send(("done", {"stats": self.stats.__dict__, "cpu": cpu1 - cpu0,
                            "hands": hands1 - hands0,
                            "resumed": [t.resumed for t in self.tables],
                            "not_resumed": [t.plan.table_id for t in self.tables
                                            if t.resumed is None]}))

    def all_seated(self) -> bool:
        for table in self.tables:
            state = table.clients[0].state if table.clients else None
            if state is None:
                return False
            taken = {s["seat"] for s in state["seats"] if s}  # type: ignore[attr-defined]
            wanted = {s for s, _ in table.plan.humans} | {s for s, _ in table.plan.bots}
            if not wanted <= taken:
                return False
        return True

    async def open(self, client: Client, limit: asyncio.Semaphore) -> None:
        url = f"{self.base}/ws/tables/{client.table.plan.table_id}?frames={self.opts['frames']}"
        if client.token:
            url += f"&token={client.token}"
        async with limit:
            client.ws = await connect(url, max_size=None, open_timeout=120, ping_interval=None,
                                      compression="deflate" if self.opts["compression"] else None)

    async def read(self, client: Client) -> None:
        while True:
            ws = client.ws
            assert ws is not None
            try:
                async for text in ws:
                    now = time.monotonic()
                    await self.on_frame(client, text, now)  # type: ignore[arg-type]
            except ConnectionClosed:
                pass
            if ws.close_code == 1000 or time.monotonic() >= self.end:
                break
            # The table moved to another worker (4503; 1013: none plays it this moment) or
            # the connection was lost (its worker killed, say): reconnect, as the page does,
            # and start again from a whole state.
            self.stats.moves += 1
            client.table_state = TableState()
            try:
                await self.open(client, asyncio.Semaphore(1))
            except (OSError, WebSocketException, TimeoutError) as error:
                self.stats.failed[type(error).__name__] += 1
                await asyncio.sleep(0.5)
                continue
        if time.monotonic() < self.end:
            self.stats.disconnects += 1
            table = client.table
            for act in list(table.pending):
                act.waiting.discard(client.index)
                if not act.waiting:
                    table.pending.remove(act)

    async def on_frame(self, client: Client, text: str, now: float) -> None:
        message = json.loads(text)
        kind = message.get("type")
        table = client.table
        if kind == "error":
            if client.act is not None and client.act in table.pending:
                table.pending.remove(client.act)  # refused: nothing changed, nothing to wait for
                client.act = None
            if self.in_window(now):
                self.stats.refused[message["code"]] += 1
                if len(self.stats.refusals) < 5:
                    self.stats.refusals.append(message["message"])
            return
        if kind not in ("state", "delta"):
            return
        if self.in_window(now):
            self.stats.frames += 1
            self.stats.frame_bytes += len(text)
        try:
            state = client.table_state.read(message)
        except FrameGap:
            self.stats.gaps += 1
            assert client.ws is not None
            await client.ws.send(json.dumps({"type": "resync"}))
            return
        if state is None:
            return
        message = client.state = state
        hand, last = message["hand"], message["last"]
        if last is not None:
            table.finished = max(table.finished, last["number"])
        number = hand["number"] if hand is not None else last["number"] if last else 0
        if now <= self.kill_at:
            table.dealt = max(table.dealt, number)
        elif table.resumed is None and number > table.dealt:
            table.resumed = now - self.kill_at
        if hand is not None and not hand["over"]:
            self.stats.foreign_cards += foreign_down_cards(message, message["you"]["seat"])
        marker = ((hand["number"], len(hand["events"])) if hand is not None
                  else (last["number"], LATE) if last is not None else (0, 0))
        over = hand is None or bool(hand["over"])  # between hands (or the finished one shown)
        for act in list(table.pending):
            if marker > act.marker and client.index in act.waiting:
                act.waiting.discard(client.index)
                if client.index == act.actor:
                    act.own = now - act.sent
                if not act.waiting:
                    table.pending.remove(act)
                    if self.in_window(act.sent):
                        self.stats.latencies.append(now - act.sent)
                        self.stats.own.append(act.own if act.own is not None else now - act.sent)
                        if marker[0] > act.marker[0] or over:
                            self.stats.ending.append(now - act.sent)
        if client.seat is not None:
            await self.as_human(client, message, marker)
            if client.index == 0:
                await self.seat_bots(client, message)

    async def as_human(self, client: Client, message: dict, marker: tuple[int, int]) -> None:
        you, hand, seats = message["you"], message["hand"], message["seats"]
        ws = client.ws
        assert ws is not None
        if client.phase == "out" and you["seat"] is None:
            client.phase = "sitting"
            await ws.send(json.dumps({"type": "sit", "seat": client.seat, "buy_in": BUY_IN}))
        elif client.phase == "sitting" and you["seat"] == client.seat:
            client.phase = "seated"
        elif client.phase == "leaving" and you["seat"] is None:
            client.phase = "sitting"
            self.stats.rebuys += 1
            await ws.send(json.dumps({"type": "sit", "seat": client.seat, "buy_in": BUY_IN}))
        elif (client.phase == "seated" and (hand is None or hand["over"])
              and seats[client.seat - 1]["stack"] < REBUY_BELOW):
            client.phase = "leaving"
            await ws.send(json.dumps({"type": "leave"}))
        legal = hand["legal"] if hand is not None else []
        if not legal or marker <= client.acted:
            return
        client.acted = marker
        choice = client.rng.choices(legal, [
            0.0 if a["action"] == "fold" and any(b["action"] == "check" for b in legal)
            else WEIGHTS.get(a["action"], 1.0) for a in legal])[0]
        frame = json.dumps({"type": "act", "action": choice["action"], "to": choice["to"],
                            "hand": hand["number"]})
        if client.table.think > 0:
            asyncio.get_running_loop().call_later(
                client.table.think * client.rng.uniform(0.5, 1.5),
                lambda: asyncio.ensure_future(self.send_act(client, frame, marker)))
        else:
            await self.send_act(client, frame, marker)

    async def send_act(self, client: Client, frame: str, marker: tuple[int, int]) -> None:
        table = client.table
        act = Act(time.monotonic(), marker, client.index,
                  {c.index for c in table.clients})
        table.pending.append(act)
        client.act = act
        if self.in_window(act.sent):
            self.stats.acts_sent += 1
        assert client.ws is not None
        try:
            await client.ws.send(frame)
        except ConnectionClosed:
            table.pending.remove(act)

    async def seat_bots(self, client: Client, message: dict) -> None:
        """The table's first human seats its bots, again when one went broke and left."""
        table, seats = client.table, message["seats"]
        assert client.ws is not None
        for seat, bot in table.plan.bots:
            if seats[seat - 1] is not None:
                table.adding.discard(seat)
            elif seat not in table.adding:
                if table.finished > 0:
                    self.stats.bots_reseated += 1
                table.adding.add(seat)
                await client.ws.send(json.dumps({"type": "add_bot", "seat": seat, "bot": bot,
                                                 "buy_in": BUY_IN}))


def worker_main(pipe: Connection, plans: list[TablePlan], base: str, opts: dict[str, object],
                seed: int, cpus: set[int] | None) -> None:
    os.setsid()  # a session (and scheduler autogroup) of its own, apart from the server
    if opts["realtime"]:
        realtime()
    if cpus:
        os.sched_setaffinity(0, cpus)
    try:
        asyncio.run(Worker(plans, base, opts, seed).run(pipe))
    except Exception as error:  # noqa: BLE001 - the parent reports it
        pipe.send(("failed", repr(error)))


# ---------------------------------------------------------------------------- the server


def realtime() -> None:
    """Round-robin real-time scheduling for this process and the threads it starts. The
    kernel still leaves other work 5% of each CPU (sched_rt_runtime_us), and the bench uses
    far less than a core, so other work only waits while the bench actually runs."""
    os.sched_setscheduler(0, os.SCHED_RR, os.sched_param(10))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def foreign_down_cards(state: dict[str, Any], own: int | None) -> int:
    """Down cards of seats other than ``own`` that a client's state shows while the hand is
    in play and the seat has not shown its hand: none may be."""
    return sum(1 for entry in state["seats"]
               if entry is not None and entry.get("in_hand") and entry["seat"] != own
               and not entry["shown"]
               for card in entry["cards"] if not card["up"] and card["card"] is not None)


def kill_a_worker(parent: int) -> int:
    """SIGKILL the first worker process of ``stud serve --workers N``; its process id."""
    for stat in sorted(Path("/proc").glob("[0-9]*/stat"), key=lambda p: int(p.parent.name)):
        with contextlib.suppress(OSError, ValueError, IndexError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == parent and \
                    b"stud.server.workers" in (stat.parent / "cmdline").read_bytes():
                pid = int(stat.parent.name)
                os.kill(pid, signal.SIGKILL)
                return pid
    raise SystemExit("--kill-after: no worker process found")


def audit_books(database: str, postgres: Postgres | None) -> dict[str, Any]:
    """After a worker was killed: the hands voided, and ``stud audit`` of the database (every
    account's chips against the ledger), while the server still runs."""
    audited = subprocess.run([sys.executable, "-c", "from stud.cli import app; app()", "audit",
                              "--database", database], capture_output=True, text=True,
                             timeout=300)
    voided = None
    if postgres is not None:
        with postgres.engine.connect() as db:
            voided = int(db.execute(postgres.text(
                f'SELECT count(*) FROM "{postgres.schema}".hands WHERE status = \'voided\''
            )).scalar_one())
    return {"audit_ok": audited.returncode == 0, "voided_hands": voided,
            "audit": (audited.stdout + audited.stderr).strip().splitlines()[-3:]}


def cpu_seconds(pid: int) -> tuple[float, float, float]:
    """(all threads and descendant processes, the main thread, the descendant processes: the
    store's, or the workers' and their stores') of a process, in CPU seconds."""
    def ticks(path: str) -> float:
        fields = Path(path).read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parents[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):  # it ended meanwhile
            continue
    descendants, family = 0.0, {pid}
    for child in sorted(parents):  # a child's id is most often above its parent's
        if parents[child] in family or _descends(child, family, parents):
            family.add(child)
            with contextlib.suppress(OSError, ValueError, IndexError):
                descendants += ticks(f"/proc/{child}/stat")
    return (ticks(f"/proc/{pid}/stat") + descendants, ticks(f"/proc/{pid}/task/{pid}/stat"),
            descendants)


def _descends(child: int, family: set[int], parents: dict[int, int]) -> bool:
    seen = set()
    while child in parents and child not in seen:
        seen.add(child)
        child = parents[child]
        if child in family:
            return True
    return False


def run_queue_seconds(pid: int) -> float:
    """Seconds the process's main thread spent runnable but waiting for a CPU."""
    return int(Path(f"/proc/{pid}/task/{pid}/schedstat").read_text().split()[1]) / 1e9


def machine_seconds() -> tuple[float, float]:
    """(busy, all) CPU seconds of the whole machine since boot."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    idle = values[3] + values[4]
    return (sum(values[:8]) - idle) / TICK, sum(values[:8]) / TICK


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Postgres:
    """A fresh schema for the run, dropped at the end."""

    def __init__(self, url: str) -> None:
        from sqlalchemy import create_engine, text
        from sqlalchemy.engine import make_url

        from stud.server.store import database_url

        self.text = text
        self.schema = f"stud_bench_{os.getpid()}"
        self.engine = create_engine(database_url(url))
        with self.engine.begin() as db:
            db.execute(text(f'DROP SCHEMA IF EXISTS "{self.schema}" CASCADE'))
            db.execute(text(f'CREATE SCHEMA "{self.schema}"'))
        self.url = make_url(database_url(url)).update_query_dict(
            {"options": f"-csearch_path={self.schema}"}).render_as_string(hide_password=False)

    def drop(self) -> None:
        with self.engine.begin() as db:
            db.execute(self.text(f'DROP SCHEMA IF EXISTS "{self.schema}" CASCADE'))
        self.engine.dispose()


# ---------------------------------------------------------------------------- the run


def percentile(values: list[float], q: float) -> float:
    """Nearest rank: the smallest value with at least q of the values at or below it."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, int(-(-q * len(ordered) // 1)) - 1))]


def setup(base: str, plans: list[tuple[str, int, int, int]], bots: list[str]) -> list[TablePlan]:
    tables: list[TablePlan] = []
    with httpx.Client(base_url=base, timeout=60) as http:
        host = http.post("/api/accounts", json={"nickname": f"host{os.getpid()}"})
        host.raise_for_status()
        auth = {"Authorization": f"Bearer {host.json()['token']}"}
        for t, (variant, humans, n_bots, spectators) in enumerate(plans):
            answer = http.post("/api/tables", headers=auth, json={
                "name": f"Load {t + 1} {variant}", "variant": variant,
                "small_bet": SMALL_BET, "seats": 8, "clock": 30})
            answer.raise_for_status()
            table_id = answer.json()["id"]
            seated = []
            for k in range(humans):
                made = http.post("/api/accounts", json={"nickname": f"t{table_id}h{k + 1}"})
                made.raise_for_status()
                seated.append((1 + 3 * k, made.json()["token"]))  # seats 1 and 4
            robots = [(s, bots[(t + k) % len(bots)])
                      for k, s in enumerate(s for s in (2, 6, 7, 8) if s not in
                                            {h for h, _ in seated})][:n_bots]
            tables.append(TablePlan(table_id, variant, seated, robots, spectators))
    return tables


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=None, help="tables (default 100)")
    parser.add_argument("--clients", type=int, default=None,
                        help="WebSocket clients in all: 2 humans a table, the rest watch "
                             "(default 400)")
    parser.add_argument("--seconds", type=float, default=None,
                        help="the measured window (default 60)")
    parser.add_argument("--warmup", type=float, default=None,
                        help="seconds of play before the window (default 5)")
    parser.add_argument("--quick", action="store_true",
                        help="20 tables, 80 clients, 15 s, unless given")
    parser.add_argument("--bot-delay", type=float, default=0.8,
                        help="stud serve --bot-delay (default 0.8, as stud serve)")
    parser.add_argument("--hand-pause", type=float, default=3.0,
                        help="stud serve --hand-pause (default 3.0, as stud serve)")
    parser.add_argument("--think", type=float, default=0.0,
                        help="mean seconds a human client waits before acting (default 0)")
    parser.add_argument("--bots", default="strength,expert,station",
                        help="the bots to seat, in turn (default strength,expert,station)")
    parser.add_argument("--database", default=None,
                        help="a PostgreSQL URL; a fresh schema is made and dropped "
                             "(default: a fresh SQLite file)")
    parser.add_argument("--client-procs", type=int, default=1,
                        help="processes the clients are split over (default 1)")
    parser.add_argument("--pin", action="store_true",
                        help="server on the first CPU, clients on the others")
    parser.add_argument("--realtime", action="store_true",
                        help="run the server and the clients under SCHED_RR (needs root): on a "
                             "machine shared with other work, they then get a CPU when they "
                             "need one, as on a machine of their own")
    parser.add_argument("--no-compression", action="store_true",
                        help="clients do not offer permessage-deflate (browsers do)")
    parser.add_argument("--profile", default=None, help="run the server under cProfile, "
                        "writing its stats to this file")
    parser.add_argument("--json", default=None, help="also write the figures to this file")
    parser.add_argument("--keep-database", action="store_true",
                        help="keep the run's PostgreSQL schema (its name is printed)")
    parser.add_argument("--server-log", default=None,
                        help="keep the server's log (its workers' too) in this file")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--server-src", default=None,
                        help="run the server from this folder's stud package (the src folder "
                             "of another checkout: an earlier version, to compare with)")
    parser.add_argument("--workers", type=_worker_counts, default=[1],
                        help="stud serve --workers N (more than 1 needs --database "
                             "postgresql://... and Redis): the server CPU figures are then "
                             "the parent's and its workers' together; a list (1,2) runs each "
                             "in turn, each with a fresh server, and sets them side by side")
    parser.add_argument("--kill-after", type=float, default=None, metavar="SECONDS",
                        help="with --workers 2 or more: SIGKILL one worker this many seconds "
                             "into the measured window, then say how soon every table played "
                             "on, how many hands were voided, and whether the books balance "
                             "(stud audit); the clients reconnect as the page does")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0",
                        help="stud serve --redis, with --workers")
    parser.add_argument("--frames", choices=("both", "delta", "full"), default="both",
                        help="delta: small frames after the first state (as the page); full: "
                             "a whole state every time (?frames=full); both (default): one "
                             "run of each, full first, and their ratios")
    args = parser.parse_args()
    counts = args.workers
    modes = ["full", "delta"] if args.frames == "both" else [args.frames]
    window = args.seconds or (15.0 if args.quick else 60.0)
    if args.kill_after is not None and (min(counts) < 2 or not 0 <= args.kill_after < window):
        parser.error("--kill-after needs --workers 2 or more, and a moment within --seconds")
    if len(counts) > 1 and len(modes) > 1:
        parser.error("compare workers (--workers 1,2) or frames (--frames both), not both")
    runs = []
    for k, (workers, mode) in enumerate((w, m) for w in counts for m in modes):
        if k:
            print()
        args.workers = workers
        runs.append(run(args, parser, mode))
    if len(modes) == 2:
        compare(*runs)
    if len(counts) > 1:
        compare_workers(counts, runs)
    if args.json:
        Path(args.json).write_text(json.dumps(runs if len(runs) > 1 else runs[0]) + "\n")


def _worker_counts(text: str) -> list[int]:
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: a number of workers, or a list: 1,2") from None
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: each number of workers is at least 1")
    return counts


def compare_workers(counts: list[int], runs: list[dict[str, Any]]) -> None:
    """The runs side by side, one column a number of workers, same load."""
    print("\n| figure | " + " | ".join(f"{n} worker{'s' * (n > 1)}" for n in counts) + " |")
    print("| --- |" + " ---: |" * len(counts))
    rows = [
        ("p99 ms, to every client", lambda r: r["latency_ms"]["p99"]),
        ("median ms", lambda r: r["latency_ms"]["median"]),
        ("acts that end a hand, median ms", lambda r: r["hand_ending_latency_ms"]["median"]),
        ("acts that end a hand, p99 ms", lambda r: r["hand_ending_latency_ms"]["p99"]),
        ("hands per second", lambda r: r["hands_per_second"]),
        ("server cores", lambda r: r["server_cores"]),
        ("client cores", lambda r: r["client_cores"]),
        ("whole machine busy, cores", lambda r: r["machine_busy_cores"]),
    ]
    for name, figure in rows:
        values = [figure(r) for r in runs]
        print(f"| {name} | " + " | ".join("-" if v is None else f"{v:,.2f}" for v in values)
              + " |")
    for count, r in zip(counts, runs, strict=True):
        if count > 1:  # the target for several workers: p99 under 100 ms
            print(f"\ntarget with {count} workers (p99 under 100 ms, to every client): "
                  + ("met" if r["latency_ms"]["p99"] < 100 else "MISSED")
                  + f" ({r['latency_ms']['p99']:.1f} ms)")


def compare(full: dict[str, Any], delta: dict[str, Any]) -> None:
    """The two runs side by side: small frames against whole states, same load."""
    def ratio(a: float | None, b: float | None) -> str:
        return "-" if not a or not b else f"{b / a:.2f}x"

    print("\n| figure | whole states | small frames | small / whole |")
    print("| --- | ---: | ---: | ---: |")
    rows = [
        ("p99 ms, to every client", full["latency_ms"]["p99"], delta["latency_ms"]["p99"]),
        ("median ms", full["latency_ms"]["median"], delta["latency_ms"]["median"]),
        ("p99 ms, acts that end a hand", full["hand_ending_latency_ms"]["p99"],
         delta["hand_ending_latency_ms"]["p99"]),
        ("mean frame bytes", full["mean_frame_bytes"], delta["mean_frame_bytes"]),
        ("KiB per second", full["frame_kib_per_second"], delta["frame_kib_per_second"]),
        ("hands per second", full["hands_per_second"], delta["hands_per_second"]),
        ("server cores", full["server_cores"], delta["server_cores"]),
        ("client cores", full["client_cores"], delta["client_cores"]),
    ]
    for name, a, b in rows:
        print(f"| {name} | {'-' if a is None else f'{a:,.2f}'} | "
              f"{'-' if b is None else f'{b:,.2f}'} | {ratio(a, b)} |")


def run(args: argparse.Namespace, parser: argparse.ArgumentParser,  # noqa: C901, PLR0912, PLR0915
        frames: str) -> dict[str, Any]:
    """One straight run: a fresh server, the clients, the window; prints and returns the
    figures."""
    quick = args.quick
    tables = args.tables or (20 if quick else 100)
    clients = args.clients or (80 if quick else 400)
    seconds = args.seconds or (15.0 if quick else 60.0)
    warmup = args.warmup if args.warmup is not None else (3.0 if quick else 5.0)
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if tables < 1 or clients < tables:
        parser.error("need at least one table and one client a table")
    cpus = sorted(os.sched_getaffinity(0))
    pin = args.pin and len(cpus) >= 2
    server_cpus = {cpus[0]} if pin else None
    client_cpus = set(cpus[1:]) if pin else None

    folder = tempfile.TemporaryDirectory(prefix="stud-load-")
    postgres = Postgres(args.database) if args.database else None
    database = postgres.url if postgres else f"sqlite:///{folder.name}/load.db"
    port = free_port()
    launcher = Path(folder.name) / "serve.py"
    launcher.write_text(LAUNCHER)
    server_cmd = [sys.executable] + (["-m", "cProfile", "-o", str(Path(args.profile).resolve())]
                                     if args.profile else []) + [
        str(launcher), "serve", "--host", "127.0.0.1", "--port", str(port),
        "--database", database, "--bot-delay", str(args.bot_delay),
        "--hand-pause", str(args.hand_pause)] + (
        ["--workers", str(args.workers), "--redis", args.redis, "--redis-prefix",
         f"stud-bench-{os.getpid()}"] if args.workers > 1 else [])
    log_path = Path(folder.name) / "server.log"
    log = log_path.open("w")
    # Its own session, as a service would be: where the kernel groups tasks by session
    # (autogroup), the server then gets its own share of the CPUs, not one shared with the
    # clients.
    env = dict(os.environ)
    if args.server_src:
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (str(Path(args.server_src).resolve()), env.get("PYTHONPATH")) if p)
    server = subprocess.Popen(server_cmd, stdout=log, stderr=subprocess.STDOUT, env=env,
                              start_new_session=True,
                              preexec_fn=realtime if args.realtime else None)
    if server_cpus:
        os.sched_setaffinity(server.pid, server_cpus)
    base = f"http://127.0.0.1:{port}"
    workers: list[multiprocessing.Process] = []
    outcome: dict[str, object] = {}
    try:
        for _ in range(300):
            try:
                if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if server.poll() is not None:
                raise SystemExit(f"the server stopped:\n{log_path.read_text()[-3000:]}")
            time.sleep(0.1)
        began = time.monotonic()
        plans = setup(base, plan_tables(tables, clients, bots), bots)
        setup_http = time.monotonic() - began
        if args.workers > 1:  # the workers even their tables out (a round a second)
            time.sleep(3.0)

        context = multiprocessing.get_context("fork")
        procs = max(1, min(args.client_procs, len(plans)))
        opts = {"think": args.think, "compression": not args.no_compression,
                "realtime": args.realtime, "frames": frames}
        pipes = []
        for k in range(procs):
            ours, theirs = context.Pipe()
            process = context.Process(target=worker_main, daemon=True, args=(
                theirs, plans[k::procs], f"ws://127.0.0.1:{port}", opts, args.seed + k,
                client_cpus))
            process.start()
            workers.append(process)
            pipes.append(ours)
        seated = True
        for pipe in pipes:
            if not pipe.poll(180):
                raise SystemExit("the clients did not connect in 3 minutes")
            kind, value = pipe.recv()
            if kind != "ready":
                raise SystemExit(f"a client process failed: {value}")
            seated = seated and bool(value)
        setup_all = time.monotonic() - began
        start = time.monotonic() + warmup
        end = start + seconds
        kill_at = start + args.kill_after if args.kill_after is not None else float("inf")
        for pipe in pipes:
            pipe.send((start, end, kill_at))
        time.sleep(max(0.0, start - time.monotonic()))
        server0, machine0 = cpu_seconds(server.pid), machine_seconds()
        queued0 = run_queue_seconds(server.pid)
        killed = None
        if args.kill_after is not None:
            time.sleep(max(0.0, kill_at - time.monotonic()))
            killed = kill_a_worker(server.pid)
        time.sleep(max(0.0, end - time.monotonic()))
        server1, machine1 = cpu_seconds(server.pid), machine_seconds()
        queued1 = run_queue_seconds(server.pid)
        rss = rss_mib(server.pid)
        results = []
        for pipe in pipes:
            if not pipe.poll(120):
                raise SystemExit("a client process did not report")
            kind, value = pipe.recv()
            if kind != "done":
                raise SystemExit(f"a client process failed: {value}")
            results.append(value)
        books = audit_books(database, postgres) if killed is not None else None
        outcome = {"server0": server0, "server1": server1, "machine0": machine0,
                   "machine1": machine1, "rss": rss, "killed": killed, "books": books,
                   "queued": queued1 - queued0, "results": results, "seated": seated,
                   "setup_http": setup_http, "setup_all": setup_all}
    finally:
        for process in workers:
            process.join(10)
            if process.is_alive():
                process.kill()
        server.send_signal(signal.SIGINT)
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()
        server_log = log_path.read_text()
        if args.server_log:
            Path(args.server_log).write_text(server_log)
        if postgres and not args.keep_database:
            postgres.drop()
        elif postgres:
            print(f"kept: PostgreSQL schema {postgres.schema}", file=sys.stderr)
        folder.cleanup()

    results = outcome["results"]  # type: ignore[assignment]
    stats = Stats()
    client_cpu = 0.0
    hands = 0
    for r in results:  # type: ignore[attr-defined]
        s = r["stats"]
        stats.latencies += s["latencies"]
        stats.own += s["own"]
        stats.ending += s["ending"]
        for name in ("frames", "frame_bytes", "acts_sent", "unanswered", "rebuys",
                     "bots_reseated", "disconnects", "moves", "foreign_cards", "gaps"):
            setattr(stats, name, getattr(stats, name) + s[name])
        stats.refused.update(s["refused"])
        stats.failed.update(s["failed"])
        stats.refusals += s["refusals"]
        client_cpu += r["cpu"]
        hands += r["hands"]
    resumed = [t for r in results for t in r["resumed"]]  # type: ignore[attr-defined]
    server0, server1 = outcome["server0"], outcome["server1"]  # type: ignore[misc]
    machine0, machine1 = outcome["machine0"], outcome["machine1"]  # type: ignore[misc]
    server_cores = (server1[0] - server0[0]) / seconds
    loop_cores = (server1[1] - server0[1]) / seconds
    store_cores = (server1[2] - server0[2]) / seconds
    machine_cores = (machine1[0] - machine0[0]) / seconds
    total_cores = (machine1[1] - machine0[1]) / seconds
    lat = [x * 1000 for x in stats.latencies]
    own = [x * 1000 for x in stats.own]
    ending = [x * 1000 for x in stats.ending]
    errors = server_log.count("Traceback")
    figures = {
        "command": shlex.join([Path(sys.executable).name, *sys.argv]),
        "server_command": shlex.join(["stud", *server_cmd[2 + (4 if args.profile else 0):]]),
        "server_src": args.server_src,
        "tables": tables, "clients": clients, "humans": sum(len(p.humans) for p in plans),
        "bots": sum(len(p.bots) for p in plans),
        "spectators": sum(p.spectators for p in plans),
        "seconds": seconds, "warmup": warmup, "bot_delay": args.bot_delay,
        "hand_pause": args.hand_pause, "think": args.think,
        "database": "postgresql" if postgres else "sqlite", "workers": args.workers,
        "client_procs": procs, "pinned": pin, "cpus": len(cpus),
        "compression": not args.no_compression, "realtime": args.realtime, "frames": frames,
        "hands_per_second": hands / seconds,
        "acts": len(lat), "acts_per_second": len(lat) / seconds,
        "latency_ms": {"median": statistics.median(lat) if lat else None,
                       "p90": percentile(lat, 0.9) if lat else None,
                       "p99": percentile(lat, 0.99) if lat else None,
                       "max": max(lat) if lat else None},
        "actor_latency_ms": {"median": statistics.median(own) if own else None,
                             "p99": percentile(own, 0.99) if own else None},
        "hand_ending_acts": len(ending),
        "hand_ending_latency_ms": {"median": statistics.median(ending) if ending else None,
                                   "p99": percentile(ending, 0.99) if ending else None},
        "frames_per_second": stats.frames / seconds,
        "frame_kib_per_second": stats.frame_bytes / 1024 / seconds,
        "mean_frame_bytes": stats.frame_bytes / stats.frames if stats.frames else None,
        "server_cores": server_cores, "server_loop_cores": loop_cores,
        "server_other_threads_cores": server_cores - loop_cores - store_cores,
        "server_store_process_cores": store_cores,
        "server_loop_waiting_for_cpu": outcome["queued"] / seconds,
        "client_cores": client_cpu / seconds, "machine_busy_cores": machine_cores,
        "machine_cores": total_cores, "server_rss_mib": outcome["rss"],
        "unanswered": stats.unanswered, "refused": dict(stats.refused),
        "rebuys": stats.rebuys, "bots_reseated": stats.bots_reseated,
        "disconnects": stats.disconnects, "moves": stats.moves,
        "foreign_down_cards": stats.foreign_cards, "reconnections_failed": dict(stats.failed),
        "server_tracebacks": errors,
        "killed_worker": outcome["killed"], "books_after_kill": outcome["books"],
        "tables_not_resumed_after_kill": sorted(
            t for r in results for t in r["not_resumed"]) if outcome["killed"] else None,  # type: ignore[attr-defined]
        "tables_resumed_after_kill": sum(t is not None for t in resumed)
        if outcome["killed"] else None,
        "every_table_resumed_within_s": max(resumed)  # type: ignore[type-var]
        if outcome["killed"] and all(t is not None for t in resumed) else None,
        "all_seated_before_window": outcome["seated"],
        "setup_http_seconds": outcome["setup_http"], "setup_seconds": outcome["setup_all"],
        "load_average": os.getloadavg(),
    }
    mean_frame = stats.frame_bytes / stats.frames if stats.frames else 0.0
    met = (bool(lat) and percentile(lat, 0.99) < 50 and not stats.unanswered
           and (not ending or percentile(ending, 0.99) < 100) and mean_frame < 1536)

    def ms(value: object) -> str:
        return "-" if value is None else f"{value:,.1f}"

    cores = ("server and clients in sessions of their own; " + (
        f"server pinned to CPU {cpus[0]}, clients to CPU(s) {','.join(map(str, cpus[1:]))}"
        if pin else f"not pinned: the kernel shared {len(cpus)} CPU(s) between them"))
    print(f"$ {figures['command']}")
    print(f"server: {figures['server_command']}"
          + (f" (stud from {args.server_src})" if args.server_src else ""))
    print(f"{tables} tables ({', '.join(VARIANTS)} in turn), {clients} WebSocket clients "
          f"({figures['humans']} seated humans acting at once, {figures['spectators']} "
          f"spectators) and {figures['bots']} bots; {figures['database']}; "
          f"{args.workers} server worker process(es); bot delay "
          f"{args.bot_delay} s, hand pause {args.hand_pause} s; {seconds:g} s measured after "
          f"{warmup:g} s of warm-up; clients in {procs} process(es); {cores}; frames: "
          f"{'whole states only' if frames == 'full' else 'small (deltas)'}; "
          f"permessage-deflate {'offered' if figures['compression'] else 'off'}; "
          f"{'server and clients under SCHED_RR; ' if args.realtime else ''}setup "
          f"{outcome['setup_all']:.1f} s; load average "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}\n")
    print("| figure | value |")
    print("| --- | ---: |")
    rows = [
        ("hands finished per second", f"{figures['hands_per_second']:,.1f}"),
        ("human actions measured", f"{len(lat):,} ({len(lat) / seconds:,.1f}/s)"),
        ("action to every client's update, median ms", ms(figures["latency_ms"]["median"])),
        ("... p90 ms", ms(figures["latency_ms"]["p90"])),
        ("... p99 ms", ms(figures["latency_ms"]["p99"])),
        ("... max ms", ms(figures["latency_ms"]["max"])),
        ("action to the actor's own update, median / p99 ms",
         f"{ms(figures['actor_latency_ms']['median'])} / "
         f"{ms(figures['actor_latency_ms']['p99'])}"),
        (f"acts that end a hand ({len(ending):,}), to every client, median / p99 ms",
         f"{ms(figures['hand_ending_latency_ms']['median'])} / "
         f"{ms(figures['hand_ending_latency_ms']['p99'])}"),
        ("table frames (state, delta) received per second",
         f"{figures['frames_per_second']:,.0f}"),
        ("... KiB per second (mean frame bytes)",
         f"{figures['frame_kib_per_second']:,.0f} ({figures['mean_frame_bytes'] or 0:,.0f})"),
        ("server CPU, cores (event-loop thread + other threads + store process)",
         f"{server_cores:.2f} ({loop_cores:.2f} + {server_cores - loop_cores - store_cores:.2f}"
         f" + {store_cores:.2f})") if args.workers == 1 else
        ("server CPU, cores (the parent + its workers and their stores' processes)",
         f"{server_cores:.2f} ({server_cores - store_cores:.2f} + {store_cores:.2f})"),
        ("server event-loop thread runnable but waiting for a CPU, share of the time",
         f"{outcome['queued'] / seconds:.1%}"),
        ("client processes CPU, cores", f"{client_cpu / seconds:.2f}"),
        ("whole machine busy, cores (other processes)",
         f"{machine_cores:.2f} of {total_cores:.1f} "
         f"({max(0.0, machine_cores - server_cores - client_cpu / seconds):.2f})"),
        ("server memory, MiB", f"{outcome['rss']:,.0f}"),
        ("unanswered / refused actions",
         f"{stats.unanswered} / {sum(stats.refused.values())}"),
        ("rebuys / bots reseated / disconnects / frame gaps / tables moved (reconnections)",
         f"{stats.rebuys} / {stats.bots_reseated} / {stats.disconnects} / {stats.gaps} / "
         f"{stats.moves}" + (f" ({sum(stats.failed.values())} failed, then tried again: "
                             + ", ".join(f"{n} {k}" for k, n in stats.failed.items()) + ")"
                             if stats.failed else "")),
        ("another seat's down card seen in a hand in play", f"{stats.foreign_cards}"),
    ]
    if outcome["killed"]:
        books = outcome["books"]
        rows += [
            ("worker killed (SIGKILL) at, s into the window",
             f"{args.kill_after:g} (process {outcome['killed']})"),
            ("tables that dealt a new hand after it, of all",
             f"{figures['tables_resumed_after_kill']} of {len(resumed)}"),
            ("... every one within, s", "-" if figures["every_table_resumed_within_s"] is None
             else f"{figures['every_table_resumed_within_s']:.1f}"),
            ("hands voided (chips back) / stud audit", f"{books['voided_hands']} / "
             + ("balanced" if books["audit_ok"] else "FAILED: " + " ".join(books["audit"]))),
        ]
    for name, value in rows:
        print(f"| {name} | {value} |")
    print(f"\ntarget (p99 under 50 ms, under 100 ms for acts that end a hand, mean frame under "
          f"1.5 KB, every action answered): {'met' if met else 'MISSED'}")
    if not outcome["seated"]:
        print("warning: not every table had all its players seated before the window")
    if stats.refusals:
        print("refused, for example:", *stats.refusals[:3], sep="\n  ")
    if errors:
        print(f"warning: the server logged {errors} traceback(s); the first:\n"
              + server_log[server_log.index("Traceback"):][:2000])
    others = machine_cores - server_cores - client_cpu / seconds
    figures["other_processes_cores"] = max(0.0, others)
    if others > 0.25:
        print(f"note: other processes kept {others:.2f} cores busy during the window; " + (
            "SCHED_RR shielded the bench from them" if args.realtime else
            "the latencies include waiting for a CPU (see --realtime)"))
    if client_cpu / seconds / procs > 0.8:
        print("warning: the client processes were nearly saturated; their queueing is in the "
              "latencies (try --client-procs 2)")
    figures["target_met"] = met
    print(f"JSON: {json.dumps(figures)}")
    return figures


if __name__ == "__main__":
    main()
