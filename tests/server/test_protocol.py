"""The WebSocket protocol of docs/protocol.md, spoken by real clients to a real server.

Each refused message is answered by an error frame with its code, and changes nothing: the
table (as a fresh watcher sees it), whose turn it is and the wallet stay as they were.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import random
import re
import socket
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from stud.server.room import Timing

from .conftest import Server, free_port, serve_in_thread
from .wsclient import (
    Frame,
    TableClient,
    finished,
    in_play,
    make_account,
    make_table,
    me,
    play,
    summary,
)

BUY_IN = 200  # 100 small bets at the default small bet of 2


@dataclass
class Player:
    token: str
    account: int
    client: TableClient
    wallet: int  # after sitting down


@dataclass
class Game:
    server: Server
    http: httpx.Client
    table: int
    host_token: str
    clients: list[TableClient] = field(default_factory=list)

    def join(self, token: str | None = None) -> TableClient:
        client = TableClient(self.server.ws, self.table, token)
        self.clients.append(client)
        client.first_state()
        return client

    def host(self) -> TableClient:
        """The account that opened the table (which may seat bots without a seat of its own),
        connected."""
        return self.join(self.host_token)

    def close(self) -> None:
        for client in self.clients:
            client.close()

    def player(self, seat: int | None = None, buy_in: int = BUY_IN) -> Player:
        """A new account, connected; seated at ``seat`` when given."""
        account, token = make_account(self.http)
        client = self.join(token)
        if seat is not None:
            client.send({"type": "sit", "seat": seat, "buy_in": buy_in})
            client.until_state(lambda f: f["you"]["seat"] == seat, what=f"seat {seat}")
        wallet = me(self.http, token)["wallet"]
        assert wallet == client.state["you"]["wallet"]
        return Player(token, account, client, wallet)

    def now(self) -> Frame:
        """The table as a new watcher sees it now."""
        with TableClient(self.server.ws, self.table) as watcher:
            return watcher.first_state()

    def assert_unchanged(self, before: Frame, *players: Player) -> None:
        """Nothing changed since ``before``: the table, the turn, and each player's wallet."""
        for p in players:
            for frame in p.client.ping():
                if frame["type"] == "state":
                    assert summary(frame) == summary(before)
        assert summary(self.now()) == summary(before)
        for p in players:
            assert me(self.http, p.token)["wallet"] == p.wallet
            assert p.client.state["you"]["wallet"] == p.wallet


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server (on SQLite, bots acting at once) for this module; each test has its own
    table and accounts."""
    with serve_in_thread(f"sqlite:///{tmp_path_factory.mktemp('ws') / 'stud.db'}") as running:
        yield running


@contextlib.contextmanager
def new_game(server: Server, **fields: object) -> Iterator[Game]:
    """A new table; every connection made through it is closed at the end."""
    with server.client() as http:
        _, token = make_account(http)
        game = Game(server, http, make_table(http, token, **fields), token)
        try:
            yield game
        finally:
            game.close()


@pytest.fixture
def game(server: Server) -> Iterator[Game]:
    with new_game(server) as running:
        yield running


def add_bot(client: TableClient, seat: int, bot: str = "station") -> None:
    client.send({"type": "add_bot", "seat": seat, "bot": bot})
    client.until_state(lambda f: f["seats"][seat - 1] is not None, what=f"a bot in seat {seat}")


def human_to_act(game: Game, seat: int = 1, bot_seat: int = 2) -> tuple[Player, Frame]:
    """A human at ``seat`` against a calling station, waiting for the human to act."""
    a = game.player(seat)
    add_bot(a.client, bot_seat)
    return a, a.client.wait_for_turn()


def legal_text(entry: Frame) -> str:
    """How the engine writes a legal action in its messages ("call 2", "complete to 4")."""
    label = {"bring_in": "bring in", "complete": "complete to"}.get(entry["action"],
                                                                    entry["action"])
    return label if entry["action"] in ("fold", "check") else f"{label} {entry['to']}"


def passive(_client: TableClient, frame: Frame) -> Frame:
    """Check, call or bring in; never fold, never raise."""
    legal = {e["action"]: e for e in frame["hand"]["legal"]}
    for kind in ("check", "call", "bring_in"):
        if kind in legal:
            return legal[kind]
    return frame["hand"]["legal"][0]


def forced(legal: list[Frame]) -> str:
    """What the house does for a seat that does not act: check if it can, else fold; a
    bring-in that cannot be folded is posted."""
    kinds = {e["action"] for e in legal}
    return next(k for k in ("check", "fold", "bring_in") if k in kinds)


def seat_entry(frame: Frame, seat: int) -> Frame:
    entry = frame["seats"][seat - 1]
    assert entry is not None, f"seat {seat} is empty"
    return entry


def actions_of(hand: Frame, seat: int) -> list[Frame]:
    return [e for e in hand["events"] if e["kind"] == "action" and e["seat"] == seat]


# ---------------------------------------------------------------------- connecting and watching


def test_a_state_frame_arrives_at_once_on_connect(game: Game) -> None:
    with TableClient(game.server.ws, game.table, timeout=2) as watcher:
        frame = watcher.receive()
    assert frame["type"] == "state"
    assert frame["table"]["id"] == game.table
    assert frame["seats"] == [None] * 8
    assert in_play(frame) is None and frame["last"] is None
    assert frame["you"]["seat"] is None and frame["you"]["account"] is None


def test_an_account_connecting_sees_itself_in_you(game: Game) -> None:
    a = game.player()
    you = a.client.state["you"]
    assert you == {"account": a.account, "nickname": you["nickname"], "wallet": 10_000,
                   "seat": None, "host": False}


def test_a_spectator_watches_but_cannot_sit_act_or_seat_bots(game: Game) -> None:
    a, before = human_to_act(game)
    with TableClient(game.server.ws, game.table) as watcher:
        frame = watcher.first_state()
        assert frame["you"]["seat"] is None
        assert frame["hand"]["number"] == before["hand"]["number"]
        assert frame["hand"]["legal"] == []
        for message in ({"type": "sit", "seat": 3, "buy_in": BUY_IN},
                        {"type": "act", "action": "fold"},
                        {"type": "act", **before["hand"]["legal"][0]},
                        {"type": "add_bot", "seat": 3, "bot": "random"},
                        {"type": "remove_bot", "seat": 2}):
            error = watcher.error_for(message)
            assert error["code"] == "no_account", error
        game.assert_unchanged(before, a)
    assert game.now()["seats"][2] is None


def test_a_spectator_sees_no_down_card_of_any_seat(game: Game) -> None:
    a, before = human_to_act(game)
    with TableClient(game.server.ws, game.table) as watcher:
        frame = watcher.first_state()
    for entry in frame["seats"]:
        if entry is not None:
            assert entry["cards"], "both seats are in the hand"
            assert all(c["card"] is None for c in entry["cards"] if not c["up"])
            assert all(c["card"] is not None for c in entry["cards"] if c["up"])
    mine = seat_entry(a.client.state, 1)["cards"]
    assert all(c["card"] is not None for c in mine)


def test_an_unknown_table_accepts_the_websocket_and_closes_it_saying_why(game: Game) -> None:
    """Accepted, then closed with 4404: refused in the handshake, a browser would see only a
    failed connection (1006) and try it again for ever."""
    with TableClient(game.server.ws, 999, timeout=3) as client, \
            pytest.raises(ConnectionClosed) as closed:
        client.receive()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404
    assert closed.value.rcvd.reason == "there is no table 999"


# ---------------------------------------------------------------------- malformed messages


@pytest.mark.parametrize("text", ["{not json", "", "[1, 2]", '"sit"', "null", "7",
                                  "[" * 1100 + "]" * 1100])
def test_text_that_is_not_a_json_object_is_bad_json(game: Game, text: str) -> None:
    a, before = human_to_act(game)
    error = a.client.error_for(text)
    assert error["code"] == "bad_json" and error["message"]
    game.assert_unchanged(before, a)


def test_a_binary_frame_is_bad_json_and_the_connection_stays(game: Game) -> None:
    a, before = human_to_act(game)
    error = a.client.error_for(b'{"type": "ping"}')
    assert error["code"] == "bad_json"
    game.assert_unchanged(before, a)


@pytest.mark.parametrize("message", [{}, {"type": "dance"}, {"type": 5}, {"type": None},
                                     {"type": "SIT", "seat": 3, "buy_in": BUY_IN}])
def test_an_unknown_type_is_bad_message(game: Game, message: Frame) -> None:
    a, before = human_to_act(game)
    error = a.client.error_for(message)
    assert error["code"] == "bad_message" and "type" in error["message"]
    game.assert_unchanged(before, a)


@pytest.mark.parametrize(("message", "field"), [
    ({"type": "sit", "buy_in": BUY_IN}, "seat"),
    ({"type": "sit", "seat": "3", "buy_in": BUY_IN}, "seat"),
    ({"type": "sit", "seat": 3.0, "buy_in": BUY_IN}, "seat"),
    ({"type": "sit", "seat": True, "buy_in": BUY_IN}, "seat"),
    ({"type": "sit", "seat": 3}, "buy_in"),
    ({"type": "sit", "seat": 3, "buy_in": "200"}, "buy_in"),
    ({"type": "sit", "seat": 3, "buy_in": None}, "buy_in"),
    ({"type": "add_bot", "seat": 3}, "bot"),
    ({"type": "add_bot", "seat": 3, "bot": "genius"}, "bot"),
    ({"type": "add_bot", "seat": "3", "bot": "random"}, "seat"),
    ({"type": "add_bot", "seat": 3, "bot": "random", "buy_in": False}, "buy_in"),
    ({"type": "remove_bot"}, "seat"),
    ({"type": "remove_bot", "seat": [2]}, "seat"),
])
def test_a_missing_or_ill_typed_field_is_bad_message_naming_it(game: Game, message: Frame,
                                                                 field: str) -> None:
    a, before = human_to_act(game)
    b = game.player()
    error = b.client.error_for(message)
    assert error["code"] == "bad_message", error
    assert re.search(rf"\b{field}\b", error["message"]), error
    game.assert_unchanged(before, a, b)


@pytest.mark.parametrize(("message", "field"), [
    ({"type": "act"}, "action"),
    ({"type": "act", "action": "shove"}, "action"),
    ({"type": "act", "action": 3, "to": 3}, "action"),
    ({"type": "act", "action": "call"}, "to"),
    ({"type": "act", "action": "call", "to": "2"}, "to"),
    ({"type": "act", "action": "raise", "to": 4.5}, "to"),
    ({"type": "act", "action": "fold", "hand": "1"}, "hand"),
    ({"type": "act", "action": "fold", "hand": None}, "hand"),
])
def test_an_act_with_a_missing_or_ill_typed_field_is_bad_message_naming_it(
        game: Game, message: Frame, field: str) -> None:
    a, before = human_to_act(game)
    error = a.client.error_for(message)
    assert error["code"] == "bad_message", error
    assert re.search(rf"\b{field}\b", error["message"]), error
    game.assert_unchanged(before, a)


# ---------------------------------------------------------------------- sitting


def test_sitting_on_a_taken_seat_is_seat_taken(game: Game) -> None:
    a, before = human_to_act(game)
    b = game.player()
    for seat in (1, 2):  # a human's seat, a bot's seat
        error = b.client.error_for({"type": "sit", "seat": seat, "buy_in": BUY_IN})
        assert error["code"] == "seat_taken", error
    error = b.client.error_for({"type": "add_bot", "seat": 1, "bot": "random"})
    assert error["code"] == "seat_taken", error
    game.assert_unchanged(before, a, b)
    assert me(game.http, b.token)["seats"] == []
    assert me(game.http, b.token)["wallet"] == 10_000


@pytest.mark.parametrize("seat", [0, 9, -1, 100])
def test_sitting_on_a_seat_that_does_not_exist_is_no_such_seat(game: Game, seat: int) -> None:
    a, before = human_to_act(game)
    b = game.player()
    error = b.client.error_for({"type": "sit", "seat": seat, "buy_in": BUY_IN})
    assert error["code"] == "no_such_seat", error
    error = b.client.error_for({"type": "add_bot", "seat": seat, "bot": "random"})
    assert error["code"] == "no_such_seat", error
    game.assert_unchanged(before, a, b)


def test_a_seat_beyond_the_tables_size_is_no_such_seat(server: Server) -> None:
    with new_game(server, seats=6) as game:
        b = game.player()
        before = b.client.state
        error = b.client.error_for({"type": "sit", "seat": 7, "buy_in": BUY_IN})
        assert error["code"] == "no_such_seat" and "7" in error["message"]
        game.assert_unchanged(before, b)


@pytest.mark.parametrize("buy_in", [19, 1001, 0, -200])
def test_a_buy_in_outside_10_to_500_small_bets_is_bad_buy_in(game: Game, buy_in: int) -> None:
    a, before = human_to_act(game)
    b = game.player()
    error = b.client.error_for({"type": "sit", "seat": 3, "buy_in": buy_in})
    assert error["code"] == "bad_buy_in", error
    assert "20" in error["message"] and "1000" in error["message"]
    error = b.client.error_for({"type": "add_bot", "seat": 3, "bot": "random", "buy_in": buy_in})
    assert error["code"] == "bad_buy_in", error
    game.assert_unchanged(before, a, b)


def test_the_smallest_and_largest_buy_ins_are_allowed(game: Game) -> None:
    a = game.player(1, buy_in=20)
    b = game.player(2, buy_in=1000)
    assert me(game.http, a.token)["wallet"] == 10_000 - 20
    assert me(game.http, b.token)["wallet"] == 10_000 - 1000


def test_a_buy_in_beyond_the_wallet_is_wallet_short(server: Server) -> None:
    with new_game(server, small_bet=100) as game:
        b = game.player()
        before = b.client.state
        error = b.client.error_for({"type": "sit", "seat": 1, "buy_in": 20_000})
        assert error["code"] == "wallet_short", error
        game.assert_unchanged(before, b)
        assert me(game.http, b.token)["wallet"] == 10_000


def test_a_rebuy_adds_chips_from_the_wallet_between_hands(game: Game) -> None:
    a = game.player(3, buy_in=300)  # alone at the table: no hand is dealt
    a.client.send({"type": "rebuy", "amount": 200})
    frame = a.client.until_state(lambda f: seat_entry(f, 3)["stack"] == 500, what="500 chips")
    assert frame["you"]["wallet"] == 10_000 - 500
    assert me(game.http, a.token)["wallet"] == 10_000 - 500
    assert me(game.http, a.token)["seats"] == [{"table": game.table, "seat": 3, "stack": 500}]
    a.wallet -= 200
    # A stack holds at most 500 small bets (1,000 chips here).
    before = a.client.state
    for amount in (0, -5, 501):
        error = a.client.error_for({"type": "rebuy", "amount": amount})
        assert error["code"] == "bad_buy_in" and "500" in error["message"], error
    error = a.client.error_for({"type": "rebuy", "amount": "100"})
    assert error["code"] == "bad_message" and "amount" in error["message"], error
    game.assert_unchanged(before, a)


def test_a_rebuy_waits_for_the_hand_in_play_and_needs_a_seat(game: Game) -> None:
    a, before = human_to_act(game)
    error = a.client.error_for({"type": "rebuy", "amount": 10})
    assert error["code"] == "in_hand", error
    game.assert_unchanged(before, a)
    b = game.player()
    error = b.client.error_for({"type": "rebuy", "amount": 10})
    assert error["code"] == "not_seated", error


def test_a_rebuy_beyond_the_wallet_is_wallet_short(server: Server) -> None:
    with new_game(server, small_bet=100) as game:
        b = game.player(1, buy_in=9_000)
        before = b.client.state
        error = b.client.error_for({"type": "rebuy", "amount": 2_000})
        assert error["code"] == "wallet_short", error
        game.assert_unchanged(before, b)
        assert me(game.http, b.token)["wallet"] == 1_000


def test_sitting_twice_is_already_seated(game: Game) -> None:
    a, before = human_to_act(game)
    error = a.client.error_for({"type": "sit", "seat": 3, "buy_in": BUY_IN})
    assert error["code"] == "already_seated", error
    game.assert_unchanged(before, a)
    assert me(game.http, a.token)["wallet"] == 10_000 - BUY_IN


def test_sitting_takes_the_buy_in_from_the_wallet(game: Game) -> None:
    a = game.player(3, buy_in=300)
    frame = a.client.state
    assert frame["you"]["wallet"] == 10_000 - 300
    entry = seat_entry(frame, 3)
    assert entry["stack"] == 300 and entry["bot"] is None and entry["connected"]
    assert frame["table"]["taken"] == 1
    body = me(game.http, a.token)
    assert body["wallet"] == 10_000 - 300
    assert body["seats"] == [{"table": game.table, "seat": 3, "stack": 300}]


# ---------------------------------------------------------------------- acting


def test_me_reports_the_stack_the_table_shows_during_a_hand(game: Game) -> None:
    a, turn = human_to_act(game)
    stack = seat_entry(turn, 1)["stack"]
    assert stack < BUY_IN  # the ante (and perhaps the bring-in) is in the pot
    body = me(game.http, a.token)
    assert body["seats"] == [{"table": game.table, "seat": 1, "stack": stack}]
    assert body["wallet"] == turn["you"]["wallet"] == 10_000 - BUY_IN


def test_acting_without_a_seat_is_not_seated(game: Game) -> None:
    a, before = human_to_act(game)
    b = game.player()
    for message in ({"type": "act", **before["hand"]["legal"][0]},
                    {"type": "act", "action": "fold"}, {"type": "sit_out"},
                    {"type": "sit_in"}, {"type": "leave"}):
        error = b.client.error_for(message)
        assert error["code"] == "not_seated", (message, error)
    game.assert_unchanged(before, a, b)


def test_acting_when_no_hand_is_played_is_not_your_turn(game: Game) -> None:
    a = game.player(1)
    before = a.client.state
    assert in_play(before) is None
    error = a.client.error_for({"type": "act", "action": "check"})
    assert error["code"] == "not_your_turn", error
    game.assert_unchanged(before, a)


def test_a_client_can_act_only_for_its_own_seat(game: Game) -> None:
    a = game.player(1)
    b = game.player(2)
    frame = a.client.until_state(lambda f: in_play(f) is not None, what="a hand")
    to_act = frame["hand"]["to_act"]
    mover, other = (a, b) if to_act == 1 else (b, a)
    turn = mover.client.wait_for_turn()
    waiting = other.client.until_state(
        lambda f: in_play(f) is not None and f["hand"]["to_act"] == to_act)
    assert waiting["hand"]["legal"] == []
    for entry in turn["hand"]["legal"]:
        error = other.client.error_for({"type": "act", **entry, "hand": turn["hand"]["number"]})
        assert error["code"] == "not_your_turn", error
    game.assert_unchanged(turn, a, b)
    assert mover.client.my_turn(mover.client.state)


def test_a_stale_hand_number_is_refused(game: Game) -> None:
    a, before = human_to_act(game)
    number = before["hand"]["number"]
    entry = before["hand"]["legal"][0]
    for stale in (number - 1, number + 1, 0):
        error = a.client.error_for({"type": "act", **entry, "hand": stale})
        assert error["code"] == "stale_hand", error
    game.assert_unchanged(before, a)
    a.client.act(before, entry)  # the hand in play is accepted
    frame = a.client.until_state(lambda f: in_play(f) is None or actions_of(f["hand"], 1))
    assert not a.client.errors()[3:], a.client.errors()
    if in_play(frame) is not None:
        assert actions_of(frame["hand"], 1)[0]["action"] == entry["action"]


def test_a_stale_hand_number_between_hands_is_refused(game: Game) -> None:
    a = game.player(1)
    error = a.client.error_for({"type": "act", "action": "check", "hand": 1})
    assert error["code"] == "stale_hand", error


def test_an_illegal_action_is_refused_saying_what_is_legal(game: Game) -> None:
    a, before = human_to_act(game)
    legal = before["hand"]["legal"]
    kinds = {e["action"] for e in legal}
    tries = [{"action": "raise", "to": 999}, {"action": "bet", "to": 10_000}]
    tries += [{"action": k, "to": 0} for k in ("check", "call") if k not in kinds]
    top = max(legal, key=lambda e: e["to"])
    tries.append({"action": top["action"], "to": top["to"] + 1})  # a legal kind, wrong amount
    for attempt in tries:
        error = a.client.error_for({"type": "act", **attempt, "hand": before["hand"]["number"]})
        assert error["code"] == "illegal_action", (attempt, error)
        for entry in legal:
            assert legal_text(entry) in error["message"], (entry, error["message"])
    game.assert_unchanged(before, a)


def test_an_illegal_action_message_names_the_table_seat(game: Game) -> None:
    a, before = human_to_act(game, seat=5, bot_seat=2)  # the human is the hand's player 2
    error = a.client.error_for({"type": "act", "action": "raise", "to": 999})
    assert error["code"] == "illegal_action"
    assert "seat 5" in error["message"], error["message"]


def test_whole_hands_are_played_with_the_legal_actions_as_given(game: Game) -> None:
    a = game.player(1)
    add_bot(a.client, 2, "station")
    add_bot(a.client, 3, "random")
    rng = random.Random(7)
    first = a.client.until_state(lambda f: in_play(f) is not None, what="a hand")["hand"]["number"]
    play([a.client], lambda: finished(first + 4)(a.client.state),
         lambda _c, f: rng.choice(f["hand"]["legal"]))
    a.client.send({"type": "sit_out"})
    play([a.client], lambda: in_play(a.client.state) is None
         or not seat_entry(a.client.state, 1)["in_hand"], passive)
    assert not a.client.errors()
    frame = a.client.state
    hands = {f["last"]["number"]: f["last"] for f in a.client.frames
             if f["type"] == "state" and f["last"] is not None}
    assert sorted(hands) == list(range(first, max(hands) + 1))
    mine = 0
    for number, last in hands.items():
        assert last["over"] and last["number"] == number
        assert last["events"][-1]["kind"] == "end"
        showdown = last["showdown"]
        assert showdown is not None and showdown["pots"], last
        net = dict(map(tuple, showdown["net"]))
        assert sum(net.values()) == 0
        mine += net.get(1, 0)
    # The stack moved by the hands' results; the wallet only by the buy-in.
    stack = seat_entry(frame, 1)["stack"]
    assert stack == BUY_IN + mine
    body = me(game.http, a.token)
    assert body["wallet"] == 10_000 - BUY_IN == frame["you"]["wallet"]
    assert body["seats"] == [{"table": game.table, "seat": 1, "stack": stack}]
    a.client.send({"type": "leave"})
    gone = a.client.until_state(lambda f: f["seats"][0] is None, what="seat 1 empty")
    assert gone["you"]["wallet"] == 10_000 - BUY_IN + stack
    assert me(game.http, a.token)["wallet"] == 10_000 - BUY_IN + stack
    assert me(game.http, a.token)["seats"] == []


def test_each_finished_hand_has_a_showdown_and_end_stacks_that_match_the_seats(
        game: Game) -> None:
    watcher = game.host()  # bots are seated by the host or a player
    add_bot(watcher, 1, "random")
    add_bot(watcher, 2, "station")
    add_bot(watcher, 4, "strength")
    watcher.until_state(finished(5), timeout=30, what="five finished hands")
    for frame in watcher.frames:
        last = frame.get("last")
        if last is None:
            continue
        end = last["events"][-1]
        assert end["kind"] == "end" and last["showdown"] is not None
        net = dict(map(tuple, last["showdown"]["net"]))
        won = {seat: 0 for seat in net}
        for pot in last["showdown"]["pots"]:
            assert pot["amount"] == sum(award["amount"] for award in pot["awards"])
            for award in pot["awards"]:
                for seat, chips in award["shares"]:
                    won[seat] += chips
        assert sum(won.values()) == sum(p["amount"] for p in last["showdown"]["pots"])
        if in_play(frame) is None:  # between hands the seats hold the end stacks
            for seat, stack in end["stacks"]:
                if frame["seats"][seat - 1] is not None:
                    assert frame["seats"][seat - 1]["stack"] == stack
    watcher.close()


# ---------------------------------------------------------------------- sitting out, leaving


def test_a_seat_sitting_out_is_not_dealt_in_and_sitting_in_deals_it_again(game: Game) -> None:
    a = game.player(1)
    add_bot(a.client, 2, "station")
    add_bot(a.client, 3, "station")
    frame = a.client.wait_for_turn()
    number = frame["hand"]["number"]
    a.client.send({"type": "sit_out"})
    frame = a.client.until_state(lambda f: seat_entry(f, 1)["sitting_out"], what="sitting out")
    assert frame["hand"]["number"] == number and seat_entry(frame, 1)["in_hand"]
    # Seat 1 still plays the hand it is in.
    play([a.client], lambda: a.client.state["last"] is not None
         and a.client.state["last"]["number"] >= number, passive)
    later = a.client.until_state(lambda f: in_play(f) is not None
                                 and f["hand"]["number"] > number, what="the next hand")
    entry = seat_entry(later, 1)
    assert entry["sitting_out"] and not entry["in_hand"] and entry["cards"] == []
    assert all(e.get("seat") != 1 for e in later["hand"]["events"])
    a.client.send({"type": "sit_in"})
    back = a.client.until_state(lambda f: in_play(f) is not None and seat_entry(f, 1)["in_hand"],
                                what="seat 1 dealt in again", timeout=15)
    assert not seat_entry(back, 1)["sitting_out"]
    assert len(seat_entry(back, 1)["cards"]) >= 3


def test_leaving_in_a_hand_folds_the_seat_when_it_is_to_act(game: Game) -> None:
    a, turn = human_to_act(game)
    assert turn["hand"]["street"] == 3
    a.client.send({"type": "leave"})
    frame = a.client.until_state(lambda f: in_play(f) is None or actions_of(f["hand"], 1)
                                 or f["seats"][0] is None, what="seat 1 acted for")
    hand = frame["hand"] or frame["last"]
    assert hand["number"] == turn["hand"]["number"]
    assert actions_of(hand, 1)[0]["action"] == forced(turn["hand"]["legal"])
    gone = a.client.until_state(lambda f: f["seats"][0] is None, what="seat 1 empty")
    stack = dict(map(tuple, gone["last"]["events"][-1]["stacks"]))[1]
    assert gone["last"]["number"] == turn["hand"]["number"]
    assert gone["you"]["seat"] is None
    assert gone["you"]["wallet"] == 10_000 - BUY_IN + stack
    assert me(game.http, a.token)["wallet"] == 10_000 - BUY_IN + stack
    assert me(game.http, a.token)["seats"] == []


def test_leaving_in_a_hand_waits_for_the_seats_turn_and_the_hands_end(game: Game) -> None:
    a = game.player(1)
    b = game.player(2)
    a.client.until_state(lambda f: in_play(f) is not None, what="a hand")
    # The one who is not to act asks to leave.
    mover, leaver, seat = (a, b, 2) if a.client.state["hand"]["to_act"] == 1 else (b, a, 1)
    turn = mover.client.wait_for_turn()
    leaver.client.send({"type": "leave"})
    marked = mover.client.until_state(lambda f: seat_entry(f, seat)["leaving"],
                                      what="the leaving mark")
    assert marked["hand"]["to_act"] == turn["hand"]["to_act"]  # nothing was done out of turn
    assert seat_entry(marked, seat)["in_hand"] and not seat_entry(marked, seat)["folded"]
    play([mover.client], lambda: mover.client.state["seats"][seat - 1] is None, passive)
    gone = mover.client.state
    left = gone["last"]
    assert left["number"] == turn["hand"]["number"]
    for event in actions_of(left, seat):
        if event["street"] > 3 or event["action"] != "bring_in":
            assert event["action"] in ("fold", "check"), event
    stack = dict(map(tuple, left["events"][-1]["stacks"]))[seat]
    assert me(game.http, leaver.token)["wallet"] == 10_000 - BUY_IN + stack
    assert me(game.http, leaver.token)["seats"] == []


def test_leaving_between_hands_returns_the_stack_at_once(game: Game) -> None:
    a = game.player(4, buy_in=500)
    assert me(game.http, a.token)["wallet"] == 9_500
    a.client.send({"type": "leave"})
    frame = a.client.until_state(lambda f: f["seats"][3] is None, what="seat 4 empty")
    assert frame["you"]["seat"] is None and frame["you"]["wallet"] == 10_000
    assert me(game.http, a.token)["wallet"] == 10_000
    assert me(game.http, a.token)["seats"] == []
    error = a.client.error_for({"type": "leave"})
    assert error["code"] == "not_seated"


# ---------------------------------------------------------------------- bots


def test_bots_are_added_and_removed_at_any_time(game: Game) -> None:
    a, turn = human_to_act(game)  # a hand is being played
    number = turn["hand"]["number"]
    a.client.send({"type": "add_bot", "seat": 5, "bot": "random"})
    frame = a.client.until_state(lambda f: f["seats"][4] is not None, what="a bot in seat 5")
    bot = seat_entry(frame, 5)
    assert bot["bot"] == "random" and bot["stack"] == 200 and not bot["in_hand"]
    assert frame["hand"]["number"] == number and frame["table"]["taken"] == 3
    # Removing a bot that is in the hand: it leaves when the hand ends.
    a.client.send({"type": "remove_bot", "seat": 2})
    frame = a.client.until_state(lambda f: seat_entry(f, 2)["leaving"], what="bot 2 leaving")
    assert frame["hand"]["number"] == number
    play([a.client], lambda: a.client.state["seats"][1] is None, passive)
    assert a.client.state["last"]["number"] == number
    # Removing a bot between hands or outside the hand: at once.
    a.client.send({"type": "sit_out"})
    a.client.until_state(lambda f: seat_entry(f, 1)["sitting_out"])
    play([a.client], lambda: in_play(a.client.state) is None
         or not seat_entry(a.client.state, 1)["in_hand"], passive)
    a.client.send({"type": "remove_bot", "seat": 5})
    frame = a.client.until_state(lambda f: f["seats"][4] is None, what="bot 5 gone")
    assert frame["table"]["taken"] == 1
    for seat, code in ((1, "no_such_seat"), (2, "no_such_seat"), (9, "no_such_seat")):
        error = a.client.error_for({"type": "remove_bot", "seat": seat})
        assert error["code"] == code, error
    assert game.now()["seats"][0] is not None  # the human was not removed as a bot


def test_a_bot_gets_the_buy_in_it_is_given(game: Game) -> None:
    watcher = game.host()
    watcher.send({"type": "add_bot", "seat": 8, "bot": "expert", "buy_in": 1000})
    frame = watcher.until_state(lambda f: f["seats"][7] is not None, what="a bot in seat 8")
    assert seat_entry(frame, 8)["stack"] == 1000 and seat_entry(frame, 8)["bot"] == "expert"


def test_ping_is_answered_with_pong(game: Game) -> None:
    watcher = game.join()
    frames = watcher.ping()
    assert frames[-1] == {"type": "pong"}
    assert watcher.raw[-1] == '{"type": "pong"}'


# ---------------------------------------------------------------------- the clock


def test_the_clock_in_a_frame_belongs_to_the_seat_to_act(game: Game) -> None:
    a, turn = human_to_act(game)
    clock = turn["hand"]["clock"]
    assert clock["seat"] == 1 and clock["total_ms"] == 30_000
    assert 0 < clock["remaining_ms"] <= clock["total_ms"]
    a.client.act(turn, passive(a.client, turn))
    for frame in a.client.frames:
        hand = frame.get("hand")
        if frame["type"] == "state" and hand is not None and hand["to_act"] is not None:
            if seat_entry(frame, hand["to_act"])["bot"] is None:
                assert hand["clock"]["seat"] == hand["to_act"]
    # No clock when nobody is to act (between hands), and none for the last hand.
    for frame in a.client.frames:
        if frame["type"] == "state" and frame["last"] is not None:
            assert frame["last"]["clock"] is None


@contextlib.contextmanager
def quick_clock_game(rules: str) -> Iterator[Game]:
    """A server whose clocks run at 1/20 speed: a 5 s clock is a quarter of a second."""
    with contextlib.ExitStack() as stack:
        folder = stack.enter_context(tempfile.TemporaryDirectory())
        server = stack.enter_context(serve_in_thread(
            f"sqlite:///{folder}/stud.db", Timing(bot_delay=0, hand_pause=0.05,
                                                  clock_scale=0.05, seat_wait=0.0)))
        yield stack.enter_context(new_game(server, clock=5, rules=rules))


def expiries(game: Game, enough: Callable[[list[tuple[list[Frame], str]]], bool],
             hands: int) -> list[tuple[list[Frame], str]]:
    """A human who never acts against a calling station, sitting in again after each hand until
    ``enough`` of the clock's runs are seen: the legal actions when it ran out, and what the
    house did for the seat."""
    a = game.player(1)
    add_bot(a.client, 2, "station")
    out: list[tuple[list[Frame], str]] = []
    for _ in range(hands):
        turn = a.client.wait_for_turn()
        number = turn["hand"]["number"]
        clock = turn["hand"]["clock"]
        assert clock["seat"] == 1 and clock["total_ms"] == 250
        assert 0 <= clock["remaining_ms"] <= 250
        # The clock runs out; the seat sits out, and the table waits when the hand is over.
        over = a.client.until_state(lambda f, n=number: in_play(f) is None
                                    and f["last"]["number"] == n, what="the hand to end")
        assert seat_entry(over, 1)["sitting_out"]
        done = actions_of(over["last"], 1)
        assert done, over["last"]
        out.append((turn["hand"]["legal"], done[0]["action"]))
        assert {e["action"] for e in done} <= {"check", "fold", "bring_in"}, done
        if enough(out):
            break
        a.client.send({"type": "sit_in"})
        a.client.until_state(lambda f: not seat_entry(f, 1)["sitting_out"])
    time.sleep(0.2)  # four hand pauses: no hand starts for a seat sitting out
    with TableClient(game.server.ws, game.table) as watcher:
        assert in_play(watcher.first_state()) is None
    return out


def test_the_clock_checks_else_folds_else_posts_the_bring_in_and_sits_the_seat_out() -> None:
    def both(runs: list[tuple[list[Frame], str]]) -> bool:
        done = {d for _legal, d in runs}
        return "bring_in" in done and bool(done & {"check", "fold"})

    with quick_clock_game("standard") as game:
        runs = expiries(game, both, hands=16)
    assert both(runs), runs
    for legal, done in runs:
        assert done == forced(legal), (legal, done)


# ---------------------------------------------------------------------- reconnecting


def test_a_reconnecting_client_gets_the_same_seat_and_down_cards(game: Game) -> None:
    a, turn = human_to_act(game)
    mine = seat_entry(turn, 1)["cards"]
    assert len(mine) == 3 and all(c["card"] for c in mine)
    with TableClient(game.server.ws, game.table, a.token) as reload:
        again = reload.first_state()
        assert again["you"]["seat"] == 1 and again["you"]["account"] == a.account
        assert seat_entry(again, 1)["cards"] == mine
        assert again["hand"]["legal"] == turn["hand"]["legal"]
        assert again["hand"]["number"] == turn["hand"]["number"]
        a.client.close()  # the old tab goes away; the seat stays with the account
        still = reload.until_state(lambda f: f["hand"]["to_act"] == 1)
        assert seat_entry(still, 1)["cards"] == mine
        reload.act(still, passive(reload, still))
        moved = reload.until_state(lambda f: in_play(f) is None or actions_of(f["hand"], 1))
        assert not reload.errors()
        assert moved["you"]["seat"] == 1


# ---------------------------------------------------------------------- a client that never reads


def _masked_text_frame(payload: bytes) -> bytes:
    mask = os.urandom(4)
    size = (bytes([0x80 | len(payload)]) if len(payload) < 126
            else bytes([0x80 | 126]) + struct.pack("!H", len(payload)))
    return bytes([0x81]) + size + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def test_a_client_that_sends_without_reading_is_cut_off(game: Game) -> None:
    """Answers wait for a client in a bounded queue: a flood of pings that are never read ends
    with the server closing the connection, not with its memory growing."""
    host, port = game.server.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as raw:
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        key = base64.b64encode(os.urandom(16)).decode()
        raw.sendall(f"GET /ws/tables/{game.table} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket"
                    f"\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                    "Sec-WebSocket-Version: 13\r\n\r\n".encode())
        assert b" 101 " in raw.recv(1024)
        raw.settimeout(2)  # a server that stopped reading leaves sendall waiting
        # Each answer echoes the unknown type, so the socket's buffers fill quickly.
        batch = _masked_text_frame(json.dumps({"type": "x" * 8000}).encode()) * 20
        deadline = time.monotonic() + 20
        with pytest.raises(OSError):  # the server hung up or stopped reading
            while time.monotonic() < deadline:
                raw.sendall(batch)
    # Other clients are served as before.
    assert game.join().ping()[-1] == {"type": "pong"}


def test_a_wallet_change_at_one_table_shows_at_the_accounts_other_tables(server: Server) -> None:
    with new_game(server) as first, new_game(server) as second:
        ann = first.player()
        elsewhere = TableClient(server.ws, second.table, ann.token)
        second.clients.append(elsewhere)
        assert elsewhere.first_state()["you"]["wallet"] == 10_000
        ann.client.send({"type": "sit", "seat": 1, "buy_in": 1_000})
        frame = elsewhere.until_state(lambda f: f["you"]["wallet"] == 9_000,
                                      what="the wallet after the buy-in at the other table")
        assert frame["table"]["id"] == second.table


def test_a_hand_names_the_players_dealt_in_after_a_seat_changes_hands(game: Game) -> None:
    a = game.player(1)
    add_bot(a.client, 2, "station")
    play([a.client], lambda: a.client.state["last"] is not None, passive)
    a.client.send({"type": "sit_out"})
    a.client.send({"type": "remove_bot", "seat": 2})
    a.client.until_state(lambda f: f["seats"][1] is None, what="the bot gone")
    b = game.player(2)  # a new player takes the bot's seat
    frame = b.client.state
    dealt = {p["seat"]: p["name"] for p in frame["last"]["players"]}
    assert dealt[2] == "station-2" and frame["seats"][1]["name"] != "station-2"


def test_chips_added_while_the_finished_hand_shows_are_on_the_seat_at_once(game: Game) -> None:
    a = game.player(1, buy_in=BUY_IN)
    add_bot(a.client, 2, "station")
    a.client.wait_for_turn()
    a.client.send({"type": "sit_out"})  # plays this hand out, then no more hands are dealt
    play([a.client], lambda: a.client.state["last"] is not None, passive)
    frame = a.client.until_state(lambda f: f["hand"] is not None and f["hand"]["over"],
                                 what="the finished hand on the table")
    stack = seat_entry(frame, 1)["stack"]
    a.client.send({"type": "rebuy", "amount": 300})
    after = a.client.until_state(lambda f: seat_entry(f, 1)["stack"] == stack + 300,
                                 what="the stack with the chips added")
    assert after["hand"]["over"] and after["hand"]["number"] == frame["hand"]["number"]
    assert me(game.http, a.token)["seats"][0]["stack"] == stack + 300


def test_serve_closes_a_message_over_64_kib_with_1009_and_reads_smaller_ones(
        tmp_path: Path) -> None:
    import asyncio

    import websockets

    port = free_port()
    server = subprocess.Popen([sys.executable, "-c", "from stud.cli import app; app()", "serve",
                               "--port", str(port), "--database", str(tmp_path / "s.db")],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None and "serving" in server.stdout.readline()
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as http:
            _, token = make_account(http)
            table = {"id": make_table(http, token, name="big")}

        async def talk() -> tuple[dict[str, object], int | None]:
            url = f"ws://127.0.0.1:{port}/ws/tables/{table['id']}"
            async with websockets.connect(url) as socket:
                await socket.send(json.dumps({"type": "ping", "pad": "x" * 60_000}))
                small = json.loads(await socket.recv())
                while small["type"] != "pong":  # after the frames of connecting
                    small = json.loads(await socket.recv())
                await socket.send(json.dumps({"type": "ping", "pad": "x" * 70_000}))
                with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
                    async with asyncio.timeout(20):  # closed at once, not read
                        while True:
                            await socket.recv()
                return small, closed.value.rcvd.code if closed.value.rcvd else None

        small, code = asyncio.run(talk())
        assert small["type"] == "pong" and code == 1009
    finally:
        server.terminate()
        server.wait(timeout=30)
