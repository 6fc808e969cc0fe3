"""Small frames: after a whole state, a client gets only what changed (docs/protocol.md).

Applied in order, the deltas give exactly the whole state the server would have sent at every
change, for every kind of viewer (seated players, watchers with and without an account); a
client that misses one asks for the whole state again and gets it; a client that asks for
whole states only gets nothing else.
"""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from stud.server import deltas
from stud.server.connection import MAX_DELTAS, Client
from stud.server.deltas import TableFrames, body_delta
from stud.table_state import FrameGap, TableState, apply_delta

from .conftest import Server
from .test_hidden_cards import choose
from .wsclient import TableClient, finished, make_account, make_table, play

HANDS = 12


def _without_seq(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k != "seq"}


class Shadow:
    """Beside the server's own frames: for each client, the whole state it was last given,
    and every delta it is given applied to that and compared with the whole state of the
    same moment. Runs in the server's thread; a mismatch is kept, not raised there."""

    def __init__(self) -> None:
        self.states: dict[int, dict[str, Any]] = {}
        self.failures: list[str] = []
        self.deltas = 0
        self.delta_bytes = 0
        self.whole_bytes = 0
        self.viewers: set[object] = set()

    def send(self, original: Any, frames: TableFrames, bodies: Any, members: Any) -> None:
        before = {id(client): list(client.frames) for client, _key, _you in members}
        original(frames, bodies, members)
        for client, key, _you in members:
            whole_text = f'{{"type": "state", "seq": 0, "you": {client.you}, ' \
                         f'{frames.groups[key].full()}}}'
            whole = json.loads(whole_text)
            queued = client.frames[len(before[id(client)]):] if client.frames[
                :len(before[id(client)])] == before[id(client)] else client.frames
            previous = self.states.get(id(client))
            for kind, body in queued:
                if kind == "delta":
                    delta = json.loads(f'{{"type": "delta", "seq": 0, {body}}}')
                    self.deltas += 1
                    self.delta_bytes += len(body)
                    self.whole_bytes += len(whole_text)
                    self.viewers.add(key)
                    if previous is None:
                        self.failures.append("a delta with no whole state before it")
                        continue
                    previous = apply_delta(previous, delta)
                else:
                    previous = json.loads(f'{{"type": "state", "seq": 0, {body}}}')
            if previous is not None and _without_seq(previous) != _without_seq(whole):
                self.failures.append(f"client {id(client)} ({key}): the deltas give "
                                     f"{json.dumps(previous)[:1500]}, the whole state is "
                                     f"{whole_text[:1500]}")
            self.states[id(client)] = whole


@pytest.fixture
def shadow(monkeypatch: pytest.MonkeyPatch) -> Iterator[Shadow]:
    watch = Shadow()
    original = deltas.TableFrames.send

    def send(frames: TableFrames, bodies: Any, members: Any) -> None:
        watch.send(original, frames, bodies, members)

    monkeypatch.setattr(deltas.TableFrames, "send", send)
    yield watch


def test_deltas_applied_in_order_give_exactly_the_whole_state_at_every_change(
        server: Server, shadow: Shadow) -> None:
    """Three players, two bots, a watcher without an account and one with, and each of the
    players' and the watcher's whole-state twins (``?frames=full``), over many hands."""
    with server.client() as http:
        _, owner = make_account(http)
        table_id = make_table(http, owner, seats=6)
        tokens = [make_account(http)[1] for _ in range(3)]
        watcher_token = make_account(http)[1]
    clients: list[TableClient] = []
    try:
        players = [TableClient(server.ws, table_id, t) for t in tokens]
        twins = [TableClient(server.ws, table_id, t, frames="full") for t in tokens]
        watchers = [TableClient(server.ws, table_id), TableClient(server.ws, table_id,
                                                                  watcher_token),
                    TableClient(server.ws, table_id, frames="full")]
        clients = players + twins + watchers
        for seat, client in zip((1, 3, 4), players, strict=True):
            client.first_state()
            client.send({"type": "sit", "seat": seat, "buy_in": 1000})
            client.until_state(lambda f, s=seat: f["you"]["seat"] == s)
        players[0].send({"type": "add_bot", "seat": 2, "bot": "random", "buy_in": 1000})
        players[0].send({"type": "add_bot", "seat": 6, "bot": "station", "buy_in": 1000})
        stop = threading.Event()
        failures: list[BaseException] = []

        def human(client: TableClient, seed: int) -> None:
            rng = random.Random(seed)
            try:
                play([client], lambda: stop.is_set() or finished(HANDS)(client.state or {}),
                     lambda _c, f: choose(rng, f), timeout=60)
            except BaseException as error:  # handed to the test's thread
                failures.append(error)
            stop.set()

        def reader(client: TableClient) -> None:
            try:
                while not stop.is_set():
                    try:
                        client.receive(0.1)
                    except TimeoutError:
                        pass
            except BaseException as error:
                failures.append(error)

        threads = [threading.Thread(target=human, args=(c, k)) for k, c in enumerate(players)]
        threads += [threading.Thread(target=reader, args=(c,)) for c in twins + watchers]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert not failures, failures
        # On the wire too: each client's last state, from deltas or whole, is its twin's.
        for client in clients:
            client.send({"type": "resync"})
        for client in clients:
            client.until(lambda f, c=client: f.get("type") == "state" and c.raw[-1].startswith(
                '{"type": "state"'), what="the whole state asked for")
        for player, twin in zip(players, twins, strict=True):
            assert _without_seq(player.state or {}) == _without_seq(twin.state or {})
        for client in clients:
            assert not client.gaps and not client.errors(), client.errors()
            kinds = {json.loads(r)["type"] for r in client.raw}
            assert ("delta" in kinds) == (client not in twins and client is not watchers[2])
    finally:
        for client in clients:
            client.close()
    assert not shadow.failures, shadow.failures[:3]
    # Every kind of viewer got deltas: three seats, the public.
    assert len(shadow.viewers) >= 4, shadow.viewers
    assert shadow.deltas > 20 * HANDS
    # Small: a delta is a small part of the whole state it stands for.
    assert shadow.delta_bytes < shadow.whole_bytes / 8, (shadow.delta_bytes, shadow.whole_bytes)


def test_a_client_that_misses_a_frame_asks_for_and_gets_the_whole_state(server: Server) -> None:
    with server.client() as http:
        _, owner = make_account(http)
        table_id = make_table(http, owner)
        _, token = make_account(http)
    with TableClient(server.ws, table_id) as watcher, \
            TableClient(server.ws, table_id, token) as player:
        watcher.first_state()
        player.first_state()
        # The watcher "loses" its last frame: its next delta does not follow.
        assert watcher.table.state is not None
        watcher.table.state = dict(watcher.table.state, seq=watcher.table.state["seq"] - 1)
        player.send({"type": "sit", "seat": 2, "buy_in": 200})
        frame = watcher.until_state(lambda f: f["seats"][1] is not None
                                    and watcher.raw[-1].startswith('{"type": "state"'),
                                    what="a whole state after the gap")
        assert watcher.gaps == 1
        assert player.state is not None
        assert frame["seats"][1]["name"] == player.state["you"]["nickname"]
        # The whole state follows the frames before it: seq goes on counting.
        seqs = [json.loads(r)["seq"] for r in watcher.raw if '"seq"' in r[:40]]
        assert seqs == list(range(1, len(seqs) + 1))
    # A new connection (a reload) starts with a whole state.
    with TableClient(server.ws, table_id, token) as again:
        again.first_state()
        first = next(f for f in map(json.loads, again.raw) if "seq" in f)
        assert first["type"] == "state" and first["seq"] == 1 and first["you"]["seat"] == 2


def test_frames_full_gets_whole_states_only_and_a_bad_frames_value_is_refused(
        server: Server) -> None:
    with server.client() as http:
        _, owner = make_account(http)
        table_id = make_table(http, owner)
    with TableClient(server.ws, table_id, owner, frames="full") as host:
        host.first_state()
        host.send({"type": "add_bot", "seat": 1, "bot": "station"})
        host.until_state(lambda f: f["seats"][0] is not None)
        assert all(json.loads(r)["type"] != "delta" for r in host.raw)
    with connect(f"{server.ws}/ws/tables/{table_id}?frames=small") as socket, \
            pytest.raises(ConnectionClosed) as closed:
        socket.recv(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4400
    assert "frames must be delta or full, not 'small'" in closed.value.rcvd.reason


def test_a_client_too_far_behind_gets_one_whole_state_instead_of_its_deltas() -> None:
    async def send(_frame: str) -> None:
        return None

    client = Client(None, send)
    frames = TableFrames()
    body = {"table": {"id": 1}, "seats": [None, None], "hand": None, "last": None,
            "next_hand_ms": None, "closing": False}
    you = {"account": None, "seat": None}
    frames.send({(None, None): body}, [(client, (None, None), you)])
    assert [k for k, _ in client.frames] == ["state"]
    for ms in range(MAX_DELTAS + 5):
        frames.send({(None, None): dict(body, next_hand_ms=ms)}, [(client, (None, None), you)])
    # Never more than MAX_DELTAS wait; past that a whole state replaced them.
    assert len(client.frames) <= MAX_DELTAS
    kind, text = client.frames[0]
    assert kind == "state" and f'"next_hand_ms": {MAX_DELTAS - 1}' in text
    state = TableState()
    for seq, (kind, text) in enumerate(client.frames, 1):
        got = state.read(json.loads(f'{{"type": "{kind}", "seq": {seq}, {text}}}'))
    assert got is not None and got["next_hand_ms"] == MAX_DELTAS + 4


def test_a_seat_taken_left_and_a_new_hand_are_told_by_what_changed() -> None:
    hand = {"number": 4, "over": True, "events": [{"kind": "end"}], "pot": 9}
    old = {"table": {"hands": 4, "seats": 2}, "seats": [None, {"seat": 2, "stack": 5, "cards": []}],
           "hand": hand, "last": None, "next_hand_ms": 10, "closing": False}
    new_hand = {"number": 5, "over": False, "events": [{"kind": "ante"}], "pot": 2}
    new = {"table": {"hands": 5, "seats": 2}, "seats": [{"seat": 1, "stack": 7, "cards": []}, None],
           "hand": new_hand, "last": hand, "next_hand_ms": None, "closing": False}
    delta = body_delta(old, new)
    assert delta == {"table": {"hands": 5}, "next_hand_ms": None,
                     "seats": {"1": {"seat": 1, "stack": 7, "cards": []}, "2": None},
                     "last_was_hand": True, "hand": new_hand}
    state = {"type": "state", "seq": 1, "you": {}} | old
    assert _without_seq(apply_delta(state, {"seq": 2} | delta)) == {"type": "state",
                                                                       "you": {}} | new
    # The same hand played on: only its fields that changed, and the events added.
    later = dict(new_hand, pot=4, events=[{"kind": "ante"}, {"kind": "card"}])
    assert body_delta(new, dict(new, hand=later)) == {
        "hand_changes": {"pot": 4, "events": [{"kind": "card"}]}}
    # A seat's fields that changed, and nothing at all when nothing changed.
    moved = dict(new, seats=[{"seat": 1, "stack": 3, "cards": []}, None])
    assert body_delta(new, moved) == {"seats": {"1": {"stack": 3}}}
    assert body_delta(new, new) == {}
    # Events that are not the old ones played on: the whole hand.
    rewritten = dict(new_hand, events=[{"kind": "card"}])
    assert body_delta(new, dict(new, hand=rewritten)) == {"hand": rewritten}


def test_a_delta_that_does_not_follow_is_a_gap_and_deltas_wait_for_a_whole_state() -> None:
    state = TableState()
    with pytest.raises(FrameGap):
        state.read({"type": "delta", "seq": 1})
    assert state.read({"type": "delta", "seq": 2}) is None  # skipped: waiting
    whole = {"type": "state", "seq": 3, "you": {}, "table": {}, "seats": [], "hand": None,
             "last": None, "next_hand_ms": 5, "closing": False}
    assert state.read(whole) is whole
    got = state.read({"type": "delta", "seq": 4, "next_hand_ms": 1})
    assert got is not None and got["next_hand_ms"] == 1 and got["seq"] == 4
    with pytest.raises(FrameGap):
        state.read({"type": "delta", "seq": 6, "next_hand_ms": 0})
