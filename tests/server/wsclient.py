"""A small synchronous client for the web table's tests: one WebSocket, every frame kept.

``TableClient`` connects to ``/ws/tables/{id}`` (with ``?token=`` for an account), sends
messages, and receives frames until a predicate holds, keeping each frame both parsed
(``frames``) and as the raw text the server sent (``raw``). A small frame (``delta``) is kept
in ``frames`` as the whole state it makes (``stud.table_state``), in ``raw`` as it came; a gap
asks for the whole state again. The helpers below make accounts and
tables over HTTP.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import time
from collections.abc import Callable
from typing import Any

import httpx
from websockets.sync.client import connect

from stud.table_state import FrameGap, TableState

Frame = dict[str, Any]
_names = itertools.count(1)


def nickname(prefix: str = "p") -> str:
    """A nickname no other test of this run has used."""
    return f"{prefix}{next(_names)}"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def make_account(http: httpx.Client, name: str | None = None) -> tuple[int, str]:
    """A new account: its id and token."""
    answer = http.post("/api/accounts", json={"nickname": name or nickname()})
    assert answer.status_code == 201, answer.text
    body = answer.json()
    return body["id"], body["token"]


def make_table(http: httpx.Client, token: str, **fields: object) -> int:
    answer = http.post("/api/tables", json=fields, headers=bearer(token))
    assert answer.status_code == 201, answer.text
    return int(answer.json()["id"])


def me(http: httpx.Client, token: str) -> Frame:
    answer = http.get("/api/me", headers=bearer(token))
    assert answer.status_code == 200, answer.text
    return answer.json()


class TableClient:
    """One connection to one table. Use it as a context manager, or call ``close()``."""

    def __init__(self, ws_base: str, table: int, token: str | None = None,
                 timeout: float = 10.0, invite: str | None = None,
                 frames: str | None = None) -> None:
        query = "&".join(f"{name}={value}" for name, value in (
            ("token", token), ("invite", invite), ("frames", frames)) if value)
        url = f"{ws_base}/ws/tables/{table}" + (f"?{query}" if query else "")
        self.timeout = timeout
        self._exit = contextlib.ExitStack()
        self.connection = self._exit.enter_context(
            connect(url, open_timeout=timeout, max_queue=None))
        self.frames: list[Frame] = []
        self.raw: list[str] = []
        self.state: Frame | None = None  # the newest state (sent whole, or made by a delta)
        self.table = TableState()
        self.gaps = 0  # deltas that did not follow the frame before (each asked for a resync)
        self._acted_on: tuple[int, int] | None = None  # (hand, events) of the last turn taken

    def __enter__(self) -> TableClient:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._exit.close()

    # ------------------------------------------------------------------ sending

    def send(self, message: object) -> None:
        """Send a message: a dict (as JSON), or text or bytes exactly as given."""
        if not isinstance(message, str | bytes):
            message = json.dumps(message)
        self.connection.send(message)

    # ------------------------------------------------------------------ receiving

    def receive(self, timeout: float | None = None) -> Frame:
        """The next frame; raises TimeoutError when none comes in time."""
        text = self.connection.recv(timeout=self.timeout if timeout is None else timeout)
        assert isinstance(text, str), f"a binary frame: {text!r}"
        frame = json.loads(text)
        try:
            state = self.table.read(frame)
        except FrameGap:
            self.gaps += 1
            self.send({"type": "resync"})
            state = None
        if state is not None:
            frame = self.state = state
        self.raw.append(text)
        self.frames.append(frame)
        return frame

    def until(self, predicate: Callable[[Frame], bool], timeout: float | None = None,
              what: str = "a frame") -> Frame:
        """Receive frames until one satisfies ``predicate``; return it."""
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {what} within the time; the newest state was "
                                     f"{json.dumps(self.state)[:3000]}")
            try:
                frame = self.receive(left)
            except TimeoutError:
                continue
            if predicate(frame):
                return frame

    def until_state(self, predicate: Callable[[Frame], bool], timeout: float | None = None,
                    what: str = "a state") -> Frame:
        """Like ``until``, but first asks the newest state already received."""
        if self.state is not None and predicate(self.state):
            return self.state
        return self.until(lambda f: f.get("type") == "state" and predicate(f), timeout, what)

    def first_state(self) -> Frame:
        return self.until_state(lambda _f: True, what="a first state")

    def error_for(self, message: object) -> Frame:
        """Send ``message`` and return the error frame that answers it."""
        self.send(message)
        return self.until(lambda f: f.get("type") == "error", what=f"an error for {message!r}")

    def ping(self) -> list[Frame]:
        """A ping/pong round trip; returns the frames received until the pong (pong included)."""
        start = len(self.frames)
        self.send({"type": "ping"})
        self.until(lambda f: f.get("type") == "pong", what="a pong")
        return self.frames[start:]

    # ------------------------------------------------------------------ reading a state

    @property
    def seat(self) -> int | None:
        return None if self.state is None else self.state["you"]["seat"]

    def my_turn(self, frame: Frame) -> bool:
        """This seat is to act in ``frame`` and has not acted on that turn yet."""
        hand = frame.get("hand")
        return (frame.get("type") == "state" and hand is not None and not hand["over"]
                and hand["to_act"] is not None and hand["to_act"] == frame["you"]["seat"]
                and bool(hand["legal"])
                and (hand["number"], len(hand["events"])) != self._acted_on)

    def act(self, frame: Frame, entry: Frame) -> None:
        """Send one entry of ``frame``'s ``legal`` exactly as given, naming the hand."""
        hand = frame["hand"]
        assert entry in hand["legal"], f"{entry} is not in {hand['legal']}"
        self._acted_on = (hand["number"], len(hand["events"]))
        self.send({"type": "act", "action": entry["action"], "to": entry["to"],
                   "hand": hand["number"]})

    def errors(self) -> list[Frame]:
        return [f for f in self.frames if f.get("type") == "error"]

    def wait_for_turn(self, timeout: float | None = None) -> Frame:
        return self.until_state(self.my_turn, timeout, "a state with this seat to act")


def play(clients: list[TableClient], done: Callable[[], bool],
         choose: Callable[[TableClient, Frame], Frame], timeout: float = 30.0) -> None:
    """Receive on every client in turn and act for each when it is to act, until ``done()``."""
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            newest = [c.state and {k: c.state[k] for k in ("you", "hand")} for c in clients]
            raise AssertionError(f"play did not finish in time; newest states: {newest}")
        for client in clients:
            if client.state is not None and client.my_turn(client.state):
                client.act(client.state, choose(client, client.state))
            try:
                client.receive(0.02 if len(clients) > 1 else 0.2)
            except TimeoutError:
                continue


def finished(number: int) -> Callable[[Frame], bool]:
    """A state frame whose ``last`` hand is number ``number`` or later."""
    return lambda f: f.get("last") is not None and f["last"]["number"] >= number


def summary(frame: Frame) -> Frame:
    """What a refused message must not change: stacks, seats, the hand and whose turn it is."""
    hand = frame["hand"]
    return {
        "seats": [None if s is None else (s["seat"], s["name"], s["stack"], s["sitting_out"],
                                          s["leaving"], s["wager"], s["committed"])
                  for s in frame["seats"]],
        "hand": None if hand is None else (hand["number"], hand["street"], hand["to_act"],
                                           hand["pot"], len(hand["events"])),
        "last": None if frame["last"] is None else frame["last"]["number"],
    }


def in_play(frame: dict) -> dict | None:
    """The hand being played, or None: between hands the finished hand stays in ``hand``
    (``over`` true, with its showdown) until the next is dealt."""
    hand = frame.get("hand")
    return hand if hand is not None and not hand["over"] else None
