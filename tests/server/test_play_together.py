"""Playing together (issue 12), spoken by real clients to a real server: private tables and their
invite links, the host's powers (pause, resume, remove a player, close the table), who may seat
bots, chat and mutes, the time bank and timed-out seats, a leave kept through a stop, the wait
for more players and "start", the limits on unread answers, lookalike nicknames and accounts that
say they are bots.

Most tests share one server per timing (bots at once, short pauses); each test opens its own
tables and accounts. Clocks run at a twentieth of their speed where a clock is waited for.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from stud.server import connection
from stud.server.connection import MAX_BEHIND, MAX_UNREAD, Client
from stud.server.names import nickname_key
from stud.server.room import Timing
from stud.server.store import Store, TimeBank

from .conftest import FAST, Server, serve_in_process, serve_in_thread
from .wsclient import Frame, TableClient, bearer, in_play, me, nickname

BUY_IN = 200  # 100 small bets at the default small bet of 2
# Clocks at a twentieth: a 5 s clock is a quarter of a second, a 20 s bank one second.
QUICK = Timing(bot_delay=0.0, hand_pause=0.05, clock_scale=0.05, seat_wait=0.0)
WAITING = Timing(bot_delay=0.0, hand_pause=0.05, clock_scale=1.0, seat_wait=1.5)


# ---------------------------------------------------------------------- servers and helpers


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serve_in_thread(f"sqlite:///{tmp_path_factory.mktemp('together') / 'stud.db'}",
                         FAST) as running:
        yield running


@pytest.fixture(scope="module")
def quick_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serve_in_thread(f"sqlite:///{tmp_path_factory.mktemp('quick') / 'stud.db'}",
                         QUICK) as running:
        yield running


@pytest.fixture(scope="module")
def waiting_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serve_in_thread(f"sqlite:///{tmp_path_factory.mktemp('waiting') / 'stud.db'}",
                         WAITING) as running:
        yield running


@dataclass
class Lobby:
    """Accounts, tables and connections of one test; every connection closes at its end."""

    server: Server
    http: httpx.Client
    clients: list[TableClient] = field(default_factory=list)

    def account(self, name: str | None = None, bot: bool = False) -> tuple[int, str]:
        answer = self.http.post("/api/accounts", json={"nickname": name or nickname("t"),
                                                       "bot": bot})
        assert answer.status_code == 201, answer.text
        return answer.json()["id"], answer.json()["token"]

    def open(self, token: str, **fields: object) -> Frame:
        answer = self.http.post("/api/tables", json=fields, headers=bearer(token))
        assert answer.status_code == 201, answer.text
        return answer.json()

    def connect(self, table: int, token: str | None = None, invite: str | None = None,
                first: bool = True) -> TableClient:
        client = TableClient(self.server.ws, table, token, timeout=5, invite=invite)
        self.clients.append(client)
        if first:
            client.first_state()
        return client

    def listed(self, token: str | None) -> set[int]:
        answer = self.http.get("/api/tables", headers=bearer(token) if token else {})
        assert answer.status_code == 200, answer.text
        return {t["id"] for t in answer.json()}

    def books(self) -> list[str]:
        store = Store(self.server.database, upgrade=False)
        try:
            return store.audit()
        finally:
            store.close()


@contextlib.contextmanager
def lobby_at(server: Server) -> Iterator[Lobby]:
    with server.client() as http:
        lobby = Lobby(server, http)
        try:
            yield lobby
        finally:
            for client in lobby.clients:
                with contextlib.suppress(Exception):
                    client.close()


@pytest.fixture
def lobby(server: Server) -> Iterator[Lobby]:
    with lobby_at(server) as opened:
        yield opened


@pytest.fixture
def quick(quick_server: Server) -> Iterator[Lobby]:
    with lobby_at(quick_server) as opened:
        yield opened


@pytest.fixture
def waiting(waiting_server: Server) -> Iterator[Lobby]:
    with lobby_at(waiting_server) as opened:
        yield opened


@dataclass
class Hosted:
    table: int
    host_id: int
    host_token: str
    host: TableClient
    invite: str | None


def hosted(lobby: Lobby, **fields: object) -> Hosted:
    """A new table, its host connected (without a seat)."""
    host_id, token = lobby.account()
    made = lobby.open(token, **fields)
    return Hosted(made["id"], host_id, token, lobby.connect(made["id"], token),
                  made.get("invite"))


@dataclass
class Player:
    account: int
    token: str
    client: TableClient


def player(lobby: Lobby, table: int, seat: int | None = None, invite: str | None = None,
           buy_in: int = BUY_IN, bot: bool = False) -> Player:
    """A new account, connected to the table; seated when ``seat`` is given."""
    account, token = lobby.account(bot=bot)
    client = lobby.connect(table, token, invite)
    if seat is not None:
        sit(client, seat, buy_in)
    return Player(account, token, client)


def sit(client: TableClient, seat: int, buy_in: int = BUY_IN) -> Frame:
    client.send({"type": "sit", "seat": seat, "buy_in": buy_in})
    return client.until_state(lambda f: f["you"]["seat"] == seat, what=f"seat {seat}")


def add_bot(client: TableClient, seat: int, buy_in: int = BUY_IN) -> Frame:
    client.send({"type": "add_bot", "seat": seat, "bot": "station", "buy_in": buy_in})
    return client.until_state(lambda f: f["seats"][seat - 1] is not None,
                              what=f"a bot in seat {seat}")


def passive(_client: TableClient, frame: Frame) -> Frame:
    """Check, call or bring in; never fold, never raise."""
    legal = {e["action"]: e for e in frame["hand"]["legal"]}
    return next((legal[k] for k in ("check", "call", "bring_in") if k in legal),
                frame["hand"]["legal"][0])


def folding(_client: TableClient, frame: Frame) -> Frame:
    legal = {e["action"]: e for e in frame["hand"]["legal"]}
    return next(legal[k] for k in ("fold", "check", "bring_in", "call") if k in legal)


def entry(frame: Frame, seat: int) -> Frame:
    seat_entry = frame["seats"][seat - 1]
    assert seat_entry is not None, f"seat {seat} is empty"
    return seat_entry


def notice(client: TableClient, kind: str, timeout: float | None = None) -> Frame:
    """The next notice of this kind (or one received already)."""
    for frame in client.frames:
        if frame.get("type") == "notice" and frame.get("kind") == kind:
            return frame
    return client.until(lambda f: f.get("type") == "notice" and f.get("kind") == kind,
                        timeout, what=f"a {kind!r} notice")


def closed_with(client: TableClient, timeout: float = 5.0) -> int | None:
    """Read until the server closes the connection; the close code."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            client.receive(max(0.01, deadline - time.monotonic()))
        except TimeoutError:
            continue
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd is not None else None
    raise AssertionError(f"the connection stayed open; newest state {client.state}")


def quiet(client: TableClient, seconds: float) -> list[Frame]:
    """Every frame that arrives in the next ``seconds``."""
    start, deadline = len(client.frames), time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        with contextlib.suppress(TimeoutError):
            client.receive(left)
    return client.frames[start:]


def error_code(client: TableClient, message: Frame) -> str:
    return str(client.error_for(message)["code"])


def hand_over(number: int) -> Callable[[Frame], bool]:
    return lambda f: (f.get("last") is not None and f["last"]["number"] >= number
                      and in_play(f) is None)


def drive(acting: TableClient, until: Callable[[], bool], others: tuple[TableClient, ...] = (),
          choose: Callable[[TableClient, Frame], Frame] = passive, timeout: float = 10) -> None:
    """``acting`` plays its turns (the others only read) until ``until()``."""
    deadline = time.monotonic() + timeout
    while not until():
        assert time.monotonic() < deadline, f"not in time; newest state {acting.state}"
        if acting.state is not None and acting.my_turn(acting.state):
            acting.act(acting.state, choose(acting, acting.state))
        for client in (acting, *others):
            with contextlib.suppress(TimeoutError):
                client.receive(0.02)


def chat_lines(client: TableClient, history: bool = False) -> list[Frame]:
    return [line for f in client.frames if f.get("type") == "chat"
            and f.get("history") is history for line in f["lines"]]


# ---------------------------------------------------------------------- 1. private tables


def test_a_private_table_gives_its_creator_an_invite_and_is_listed_only_for_host_and_players(
        lobby: Lobby) -> None:
    host_id, host = lobby.account()
    made = lobby.open(host, private=True)
    table, invite = made["id"], made["invite"]
    assert isinstance(invite, str) and len(invite) >= 16
    assert made["private"] is True and made["host"] == host_id
    _, stranger = lobby.account()
    assert table not in lobby.listed(None)
    assert table not in lobby.listed(stranger)
    assert table in lobby.listed(host)
    seated = player(lobby, table, seat=1, invite=invite)
    assert table in lobby.listed(seated.token)
    public = lobby.open(host)
    assert public["private"] is False and "invite" not in public
    assert public["id"] in lobby.listed(None) and public["id"] in lobby.listed(stranger)


def test_a_private_table_and_its_hands_are_refused_without_the_invite_and_shown_with_it(
        lobby: Lobby) -> None:
    _, host = lobby.account()
    made = lobby.open(host, private=True)
    table, invite = made["id"], made["invite"]
    _, stranger = lobby.account()
    for path in (f"/api/tables/{table}", f"/api/tables/{table}/hands"):
        assert lobby.http.get(path).status_code == 403
        assert lobby.http.get(path, headers=bearer(stranger)).status_code == 403
        assert lobby.http.get(path, params={"invite": "wrong"}).status_code == 403
        assert lobby.http.get(path, params={"invite": invite}).status_code == 200
        assert lobby.http.get(path, params={"invite": invite},
                              headers=bearer(stranger)).status_code == 200
        assert lobby.http.get(path, headers=bearer(host)).status_code == 200
    assert lobby.http.get(f"/api/tables/{table}", params={"invite": invite}).json()["id"] == table


def test_a_websocket_without_the_invite_is_closed_with_4403_and_with_it_gets_the_state(
        lobby: Lobby) -> None:
    _, host = lobby.account()
    made = lobby.open(host, private=True)
    table, invite = made["id"], made["invite"]
    _, stranger = lobby.account()
    assert closed_with(lobby.connect(table, first=False)) == 4403
    assert closed_with(lobby.connect(table, stranger, first=False)) == 4403
    assert closed_with(lobby.connect(table, invite="not-it", first=False)) == 4403
    watcher = lobby.connect(table, invite=invite)
    assert watcher.state is not None and watcher.state["table"]["id"] == table
    assert "invite" not in watcher.state["you"]  # only the host is shown the secret
    with_account = lobby.connect(table, stranger, invite=invite)
    assert "invite" not in with_account.state["you"]
    host_client = lobby.connect(table, host)
    assert host_client.state["you"]["host"] is True
    assert host_client.state["you"]["invite"] == invite


def test_renewing_the_invite_shuts_out_the_old_link_but_keeps_players_and_the_host(
        lobby: Lobby) -> None:
    t = hosted(lobby, private=True)
    old = t.invite
    assert old is not None
    seated = player(lobby, t.table, seat=1, invite=old)
    anonymous = lobby.connect(t.table, invite=old)
    _, watcher_token = lobby.account()
    watcher = lobby.connect(t.table, watcher_token, invite=old)
    t.host.send({"type": "renew_invite"})
    renewed = t.host.until_state(lambda f: f["you"].get("invite") not in (None, old),
                                 what="the host's new invite")
    new = renewed["you"]["invite"]
    assert closed_with(anonymous) == 4403
    assert closed_with(watcher) == 4403
    assert seated.client.ping()[-1] == {"type": "pong"}
    assert t.host.ping()[-1] == {"type": "pong"}
    assert "invite" not in seated.client.state["you"]
    path = f"/api/tables/{t.table}"
    assert lobby.http.get(path, params={"invite": old}).status_code == 403
    assert lobby.http.get(f"{path}/hands", params={"invite": old}).status_code == 403
    assert lobby.http.get(path, params={"invite": new}).status_code == 200
    assert closed_with(lobby.connect(t.table, invite=old, first=False)) == 4403
    assert lobby.connect(t.table, invite=new).state["table"]["id"] == t.table


def test_a_player_removed_after_the_invite_was_renewed_is_shown_out_and_cannot_sit_again(
        lobby: Lobby) -> None:
    # Renewed first, then removed: the player came by the old link and is no longer a player,
    # so the open page is shown out (4403) as a watcher of the old link would have been.
    t = hosted(lobby, private=True)
    dee = player(lobby, t.table, seat=3, invite=t.invite)
    t.host.send({"type": "renew_invite"})
    t.host.until_state(lambda f: f["you"].get("invite") not in (None, t.invite),
                       what="the host's new invite")
    t.host.send({"type": "remove_player", "seat": 3})
    assert closed_with(dee.client) == 4403
    assert me(lobby.http, dee.token)["seats"] == []
    assert closed_with(lobby.connect(t.table, dee.token, invite=t.invite, first=False)) == 4403


def test_a_private_tables_hands_are_not_served_by_hand_id_without_the_invite(
        lobby: Lobby) -> None:
    t = hosted(lobby, private=True)
    add_bot(t.host, 1)
    add_bot(t.host, 2)
    t.host.until_state(lambda f: f["last"] is not None, what="a hand played")
    t.host.send({"type": "pause"})
    hands = lobby.http.get(f"/api/tables/{t.table}/hands", params={"invite": t.invite}).json()
    hand_id = hands[0]["id"]
    _, stranger = lobby.account()
    for path in (f"/api/hands/{hand_id}.phh", f"/api/hands/{hand_id}/replay",
                 f"/api/hands/{hand_id}/mine.phh"):
        for headers in ({}, bearer(stranger)):
            assert lobby.http.get(path, headers=headers).status_code in (403, 404), path


@pytest.mark.parametrize("message", [{"type": "renew_invite"}, {"type": "pause"},
                                     {"type": "resume"}, {"type": "remove_player", "seat": 1},
                                     {"type": "close_table"}])
def test_the_hosts_powers_are_refused_to_others_with_not_host(lobby: Lobby,
                                                             message: Frame) -> None:
    t = hosted(lobby, private=True)
    seated = player(lobby, t.table, seat=1, invite=t.invite)
    watcher = player(lobby, t.table, invite=t.invite)
    for client in (seated.client, watcher.client):
        assert error_code(client, message) == "not_host"
    frame = lobby.connect(t.table, t.host_token).state
    assert entry(frame, 1)["name"] == seated.client.state["seats"][0]["name"]
    assert frame["table"]["paused"] is False and frame["you"]["invite"] == t.invite
    assert t.table in lobby.listed(t.host_token)


def test_renewing_the_invite_of_a_public_table_is_not_private(lobby: Lobby) -> None:
    t = hosted(lobby)
    assert error_code(t.host, {"type": "renew_invite"}) == "not_private"


# ---------------------------------------------------------------------- 2. pause and resume


def test_a_paused_table_plays_the_hand_in_play_to_its_end_and_deals_no_more_until_resumed(
        lobby: Lobby) -> None:
    t = hosted(lobby)
    a = player(lobby, t.table, seat=1)
    add_bot(t.host, 2)
    number = a.client.wait_for_turn()["hand"]["number"]
    t.host.send({"type": "pause"})
    paused = a.client.until_state(lambda f: f["table"]["paused"], what="a paused table")
    assert in_play(paused) is not None and in_play(paused)["number"] == number
    assert notice(a.client, "paused")["hand"] == number
    drive(a.client, lambda: hand_over(number)(a.client.state))
    frames = quiet(a.client, 0.4)  # eight hand pauses
    assert all(f["hand"]["number"] == number for f in frames if f["type"] == "state")
    assert in_play(a.client.state) is None and a.client.state["next_hand_ms"] is None
    assert a.client.state["table"]["paused"] is True
    assert error_code(a.client, {"type": "start"}) == "paused"
    t.host.send({"type": "resume"})
    dealt = a.client.until_state(lambda f: in_play(f) is not None, what="a hand after resuming")
    assert dealt["hand"]["number"] == number + 1 and dealt["table"]["paused"] is False
    notice(a.client, "resumed")


def test_a_table_with_only_bots_deals_no_hand_while_paused(lobby: Lobby) -> None:
    t = hosted(lobby)
    add_bot(t.host, 1)
    add_bot(t.host, 2)
    t.host.until_state(lambda f: f["last"] is not None, what="a hand played by the bots")
    t.host.send({"type": "pause"})
    t.host.until_state(lambda f: f["table"]["paused"] and in_play(f) is None,
                       what="the table paused between hands")
    number = t.host.state["last"]["number"]
    quiet(t.host, 0.4)
    assert t.host.state["last"]["number"] == number and in_play(t.host.state) is None
    t.host.send({"type": "resume"})
    t.host.until_state(lambda f: f["last"]["number"] > number, what="hands after resuming")


# ---------------------------------------------------------------------- 3. removing a player


def test_a_player_removed_between_hands_leaves_at_once_with_the_chips_in_the_wallet(
        lobby: Lobby) -> None:
    t = hosted(lobby)
    a = player(lobby, t.table, seat=3)
    assert me(lobby.http, a.token)["wallet"] == 10_000 - BUY_IN
    name = entry(a.client.state, 3)["name"]
    t.host.send({"type": "remove_player", "seat": 3})
    gone = a.client.until_state(lambda f: f["seats"][2] is None, what="seat 3 emptied")
    assert gone["you"]["seat"] is None and gone["you"]["wallet"] == 10_000
    assert me(lobby.http, a.token)["wallet"] == 10_000
    assert me(lobby.http, a.token)["seats"] == []
    removed = notice(a.client, "removed")
    assert removed == {"type": "notice", "kind": "removed", "seat": 3, "name": name}
    assert notice(t.host, "removed")["seat"] == 3
    assert lobby.books() == []


def test_a_player_removed_during_a_hand_is_marked_leaving_checks_or_folds_and_goes_after_it(
        lobby: Lobby) -> None:
    t = hosted(lobby)
    a = player(lobby, t.table, seat=1)
    b = player(lobby, t.table, seat=2)

    def b_to_act() -> bool:
        hand = in_play(b.client.state) if b.client.state else None
        return hand is not None and hand["to_act"] == 2

    drive(a.client, b_to_act, (b.client,))  # only seat 1 plays: seat 2 holds the hand
    number = b.client.state["hand"]["number"]
    t.host.send({"type": "remove_player", "seat": 1})
    marked = b.client.until_state(lambda f: f["seats"][0] is not None
                                  and f["seats"][0]["leaving"], what="seat 1 leaving")
    assert in_play(marked)["number"] == number
    after = len(marked["hand"]["events"])
    assert notice(a.client, "removed")["seat"] == 1
    drive(b.client, lambda: hand_over(number)(b.client.state), (a.client,))
    end = b.client.until_state(lambda f: f["seats"][0] is None, what="seat 1 empty")
    last = end["last"]
    assert last["number"] == number
    forced = [e["action"] for e in last["events"][after:]
              if e["kind"] == "action" and e["seat"] == 1]
    assert set(forced) <= {"check", "fold"}, forced
    net = dict(map(tuple, last["showdown"]["net"]))[1]
    mine = me(lobby.http, a.token)
    assert (mine["wallet"], mine["seats"]) == (10_000 + net, [])
    assert lobby.books() == []


def test_the_host_cannot_remove_its_own_seat(lobby: Lobby) -> None:
    t = hosted(lobby)
    sit(t.host, 1)
    assert error_code(t.host, {"type": "remove_player", "seat": 1}) == "bad_message"
    assert error_code(t.host, {"type": "remove_player", "seat": 5}) == "no_such_seat"
    assert t.host.ping() and entry(t.host.state, 1)["name"] == t.host.state["you"]["nickname"]


# ---------------------------------------------------------------------- 4. closing a table


def test_closing_between_hands_pays_every_stack_back_and_takes_the_table_away(
        lobby: Lobby) -> None:
    t = hosted(lobby)
    a = player(lobby, t.table, seat=1)
    a.client.send({"type": "sit_out"})
    a.client.until_state(lambda f: entry(f, 1)["sitting_out"])
    add_bot(t.host, 2, buy_in=300)
    watcher = lobby.connect(t.table)
    assert in_play(watcher.state) is None
    t.host.send({"type": "close_table"})
    for client in (a.client, watcher, t.host):
        assert notice(client, "closed") == {"type": "notice", "kind": "closed"}
        assert closed_with(client) == 4410
    assert me(lobby.http, a.token)["wallet"] == 10_000 and me(lobby.http, a.token)["seats"] == []
    assert t.table not in lobby.listed(None) and t.table not in lobby.listed(t.host_token)
    assert lobby.http.get(f"/api/tables/{t.table}").status_code == 404
    # No such table: accepted, then closed saying so (4404), so a page stops trying.
    assert closed_with(lobby.connect(t.table, first=False)) == 4404
    store = Store(lobby.server.database, upgrade=False)
    try:
        assert store.seats(t.table) == []
        assert t.table not in {spec.id for spec in store.tables()}
        assert store.seats_of(a.account) == []
        assert store.audit() == []
    finally:
        store.close()


def test_closing_during_a_hand_says_closing_and_closes_when_the_hand_ends(lobby: Lobby) -> None:
    t = hosted(lobby)
    a = player(lobby, t.table, seat=1)
    add_bot(t.host, 2)
    number = a.client.wait_for_turn()["hand"]["number"]
    t.host.send({"type": "close_table"})
    assert notice(a.client, "closing")["hand"] == number
    closing = a.client.until_state(lambda f: f["closing"], what="a closing table")
    assert in_play(closing) is not None and in_play(closing)["number"] == number
    assert t.table in lobby.listed(None)  # still there while the hand is played
    code = None
    deadline = time.monotonic() + 10
    while code is None:
        assert time.monotonic() < deadline
        if a.client.state is not None and a.client.my_turn(a.client.state):
            a.client.act(a.client.state, passive(a.client, a.client.state))
        try:
            a.client.receive(0.05)
        except TimeoutError:
            pass
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd else -1
    assert code == 4410
    kinds = [f.get("kind") for f in a.client.frames if f["type"] == "notice"]
    assert kinds.index("closing") < kinds.index("closed")
    assert me(lobby.http, a.token)["seats"] == []
    assert t.table not in lobby.listed(None)
    assert lobby.books() == []


def test_a_table_closed_during_a_hand_shows_that_hands_end_before_it_closes(
        lobby: Lobby) -> None:
    t = hosted(lobby)
    a = player(lobby, t.table, seat=1)
    add_bot(t.host, 2)
    number = a.client.wait_for_turn()["hand"]["number"]
    t.host.send({"type": "close_table"})
    with contextlib.suppress(ConnectionClosed, AssertionError):
        drive(a.client, lambda: False, timeout=10)
    ends = [f for f in a.client.frames if f["type"] == "state" and f["last"] is not None
            and f["last"]["number"] == number]
    assert ends, "the players never saw how the last hand ended"
    net = dict(map(tuple, ends[-1]["last"]["showdown"]["net"]))[1]
    assert me(lobby.http, a.token)["wallet"] == 10_000 + net


# ---------------------------------------------------------------------- 5. who may seat bots


def test_a_watcher_who_is_neither_seated_nor_the_host_cannot_add_or_remove_bots(
        lobby: Lobby) -> None:
    t = hosted(lobby)
    add_bot(t.host, 2)
    watcher = player(lobby, t.table)
    assert error_code(watcher.client, {"type": "add_bot", "seat": 3, "bot": "station"}) \
        == "not_seated"
    assert error_code(watcher.client, {"type": "remove_bot", "seat": 2}) == "not_seated"
    anonymous = lobby.connect(t.table)
    assert error_code(anonymous, {"type": "add_bot", "seat": 3, "bot": "station"}) \
        == "no_account"
    frame = lobby.connect(t.table).state
    assert frame["seats"][2] is None and entry(frame, 2)["bot"] == "station"


def test_a_seated_player_and_the_host_may_add_and_remove_bots(lobby: Lobby) -> None:
    t = hosted(lobby)
    a = player(lobby, t.table, seat=1)
    a.client.send({"type": "sit_out"})  # no hand starts: seats change at once
    a.client.until_state(lambda f: entry(f, 1)["sitting_out"])
    add_bot(a.client, 2)
    t.host.send({"type": "remove_bot", "seat": 2})
    a.client.until_state(lambda f: f["seats"][1] is None, what="the host removing the bot")
    add_bot(t.host, 3)
    a.client.send({"type": "remove_bot", "seat": 3})
    a.client.until_state(lambda f: f["seats"][2] is None, what="the player removing the bot")
    assert a.client.errors() == [] and t.host.errors() == []


# ---------------------------------------------------------------------- 6. chat


def test_a_chat_line_from_a_player_or_a_watcher_with_an_account_reaches_every_client(
        lobby: Lobby) -> None:
    t = hosted(lobby)
    a = player(lobby, t.table, seat=1)
    w = player(lobby, t.table)
    anonymous = lobby.connect(t.table)
    everyone = (a.client, w.client, anonymous, t.host)
    for speaker, text in ((a, "good luck"), (w, "hello from the rail")):
        speaker.client.send({"type": "chat", "text": text})
        for client in everyone:
            frame = client.until(lambda f, x=text: f.get("type") == "chat"
                                 and not f["history"] and f["lines"][0]["text"] == x,
                                 what=f"the line {text!r}")
            [line] = frame["lines"]
            assert set(line) == {"id", "account", "name", "text", "at"}
            assert line["account"] == speaker.account
            assert line["name"] == speaker.client.state["you"]["nickname"]
            assert isinstance(line["id"], int)
            assert datetime.fromisoformat(line["at"]).tzinfo is not None


def test_an_anonymous_watcher_cannot_chat(lobby: Lobby) -> None:
    t = hosted(lobby)
    anonymous = lobby.connect(t.table)
    assert error_code(anonymous, {"type": "chat", "text": "hi"}) == "no_account"


def test_chat_keeps_markup_as_plain_text_and_folds_runs_of_whitespace(lobby: Lobby) -> None:
    t = hosted(lobby)
    reader = lobby.connect(t.table)
    for sent, kept in (("<b>x</b> & <script>alert(1)</script>", None),
                       ("  so \t many\n\n   spaces  ", "so many spaces")):
        t.host.send({"type": "chat", "text": sent})
        frame = reader.until(lambda f: f.get("type") == "chat" and not f["history"])
        assert frame["lines"][0]["text"] == (kept or sent)
    assert '"<b>x</b> & <script>alert(1)</script>"' in next(
        r for r in reader.raw if "script" in r)  # sent as it was, not escaped


@pytest.mark.parametrize("text", ["a" * 201, "bell\x07", "nul\x00", "zero\u200bwidth", "",
                                  "   \n\t "])
def test_a_chat_line_too_long_empty_or_with_control_characters_is_bad_chat(
        lobby: Lobby, text: str) -> None:
    t = hosted(lobby)
    assert error_code(t.host, {"type": "chat", "text": text}) == "bad_chat"
    assert error_code(t.host, {"type": "chat", "text": 5}) == "bad_message"
    t.host.send({"type": "chat", "text": "b" * 200})  # 200 is allowed
    assert t.host.until(lambda f: f.get("type") in ("chat", "error"))["type"] == "chat"


def test_an_emoji_joined_by_zero_width_joiners_is_chat_but_a_lone_joiner_is_not(
        lobby: Lobby) -> None:
    t = hosted(lobby)
    family = "gg \U0001f468\u200d\U0001f469\u200d\U0001f467 \U0001f3f3\ufe0f\u200d\U0001f308"
    t.host.send({"type": "chat", "text": family})
    frame = t.host.until(lambda f: f.get("type") == "error" or (
        f.get("type") == "chat" and not f["history"]))
    assert frame["type"] == "chat" and frame["lines"][0]["text"] == family
    for hidden in ("a\u200db", "\u200d\U0001f600", "\U0001f600\u200d"):
        assert error_code(t.host, {"type": "chat", "text": hidden}) == "bad_chat"


def test_the_sixth_chat_line_within_ten_seconds_is_chat_rate(lobby: Lobby) -> None:
    t = hosted(lobby)
    other = player(lobby, t.table)
    for n in range(5):
        t.host.send({"type": "chat", "text": f"line {n}"})
        t.host.until(lambda f, n=n: f.get("type") == "chat" and not f["history"]
                     and f["lines"][0]["text"] == f"line {n}")
    assert error_code(t.host, {"type": "chat", "text": "line 5"}) == "chat_rate"
    other.client.send({"type": "chat", "text": "mine"})  # the limit is each account's
    frame = other.client.until(lambda f: f.get("type") == "error" or (
        f.get("type") == "chat" and f["lines"] and f["lines"][0]["text"] == "mine"))
    assert frame["type"] == "chat" and frame["lines"][0]["account"] == other.account


def test_a_new_client_gets_the_last_lines_after_its_first_state(lobby: Lobby) -> None:
    t = hosted(lobby)
    for text in ("one", "two", "three"):
        t.host.send({"type": "chat", "text": text})
        t.host.until(lambda f, x=text: f.get("type") == "chat" and f["lines"]
                     and f["lines"][0]["text"] == x)
    late = TableClient(lobby.server.ws, t.table, timeout=5)
    lobby.clients.append(late)
    first, second = late.receive(), late.receive()
    assert first["type"] == "state"
    assert second["type"] == "chat" and second["history"] is True
    assert [line["text"] for line in second["lines"]] == ["one", "two", "three"]
    ids = [line["id"] for line in second["lines"]]
    assert ids == sorted(ids)


def test_a_mute_stops_a_players_lines_reaching_the_muter_even_after_reconnecting(
        lobby: Lobby) -> None:
    t = hosted(lobby)
    talker = player(lobby, t.table, seat=1)
    muter = player(lobby, t.table)
    bystander = lobby.connect(t.table)

    def say(text: str) -> None:
        talker.client.send({"type": "chat", "text": text})
        bystander.until(lambda f: f.get("type") == "chat" and not f["history"]
                        and f["lines"][0]["text"] == text, what=f"the line {text!r}")

    def heard(client: TableClient) -> list[str]:
        client.ping()  # what was sent to it before the pong has arrived
        return [line["text"] for line in chat_lines(client)]

    muter.client.send({"type": "mute", "account": talker.account, "muted": True})
    answer = muter.client.until(lambda f: f.get("type") == "muted")
    assert answer["accounts"] == [talker.account]
    say("first")
    assert "first" not in heard(muter.client)
    muter.client.close()
    again = lobby.connect(t.table, muter.token)
    again.ping()
    assert chat_lines(again, history=True) == []  # "first" is not in the history either
    say("second")
    assert "second" not in heard(again)
    again.send({"type": "mute", "account": talker.account, "muted": False})
    assert again.until(lambda f: f.get("type") == "muted")["accounts"] == []
    say("third")
    assert "third" in heard(again)
    fresh = lobby.connect(t.table, muter.token)
    fresh.ping()
    assert [line["text"] for line in chat_lines(fresh, history=True)] == [
        "first", "second", "third"]


def test_the_muted_frame_names_whom_you_mute_on_muting_and_on_connecting(
        lobby: Lobby) -> None:
    """chat.py: a muted player's lines are never sent, so the ``muted`` frame itself carries
    their nicknames (the page's list of muted players shows names, not account ids)."""
    t = hosted(lobby)
    ann_id, _ = lobby.account("KeyAnn")
    bob_id, _ = lobby.account("KeyBob")
    muter = player(lobby, t.table)
    muter.client.send({"type": "mute", "account": ann_id, "muted": True})
    first = muter.client.until(lambda f: f.get("type") == "muted" and f["accounts"])
    assert first == {"type": "muted", "accounts": [ann_id], "names": {str(ann_id): "KeyAnn"}}
    muter.client.send({"type": "mute", "account": bob_id, "muted": True})
    both = muter.client.until(lambda f: f.get("type") == "muted" and len(f["accounts"]) == 2)
    assert both["names"] == {str(ann_id): "KeyAnn", str(bob_id): "KeyBob"}
    again = lobby.connect(t.table, muter.token)  # a reload: the names come with the greeting
    again.ping()
    [greeted] = [f for f in again.frames if f.get("type") == "muted"]
    assert greeted["accounts"] == sorted([ann_id, bob_id])
    assert greeted["names"] == {str(ann_id): "KeyAnn", str(bob_id): "KeyBob"}
    again.send({"type": "mute", "account": ann_id, "muted": False})
    left = again.until(lambda f: f.get("type") == "muted" and len(f["accounts"]) == 1)
    assert left["names"] == {str(bob_id): "KeyBob"}


def test_muting_yourself_is_bad_mute(lobby: Lobby) -> None:
    t = hosted(lobby)
    assert error_code(t.host, {"type": "mute", "account": t.host_id}) == "bad_mute"


def test_a_mute_holds_at_the_muters_other_tables_too(lobby: Lobby) -> None:
    """chat.py: a muted player's lines are not sent to the reader's connections "at any table"."""
    here, there = hosted(lobby), hosted(lobby)
    talker = player(lobby, there.table)
    muter = player(lobby, here.table)
    elsewhere = lobby.connect(there.table, muter.token)
    muter.client.send({"type": "mute", "account": talker.account, "muted": True})
    muter.client.until(lambda f: f.get("type") == "muted")
    talker.client.send({"type": "chat", "text": "can you hear me"})
    there.host.until(lambda f: f.get("type") == "chat" and not f["history"])
    elsewhere.ping()
    assert chat_lines(elsewhere) == []


def test_chat_lines_and_a_pause_are_kept_across_a_restart(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'stud.db'}"
    with serve_in_thread(database, FAST) as first, lobby_at(first) as lobby:
        t = hosted(lobby)
        t.host.send({"type": "chat", "text": "see you later"})
        t.host.until(lambda f: f.get("type") == "chat" and not f["history"])
        t.host.send({"type": "pause"})
        t.host.until_state(lambda f: f["table"]["paused"])
    with serve_in_thread(database, FAST) as second, lobby_at(second) as lobby:
        late = lobby.connect(t.table)
        late.ping()
        [line] = chat_lines(late, history=True)
        assert line["text"] == "see you later" and line["account"] == t.host_id
        assert late.state["table"]["paused"] is True  # a pause is kept too


# ---------------------------------------------------------------------- 7. the time bank


BANK = {"start": 20, "add": 5, "every": 1, "cap": 30}  # a 20 s bank is 1 s at QUICK's pace


def test_when_the_clock_runs_out_the_time_bank_runs_and_what_is_left_is_kept(
        quick: Lobby) -> None:
    t = hosted(quick, clock=5, time_bank=BANK)
    a = player(quick, t.table, seat=1)
    add_bot(a.client, 2)
    turn = a.client.wait_for_turn()
    assert turn["hand"]["clock"]["bank"] is False and turn["hand"]["clock"]["total_ms"] == 250
    assert entry(turn, 1)["time_bank_ms"] == 20_000
    banking = a.client.until_state(lambda f: f["hand"]["clock"] is not None
                                   and f["hand"]["clock"]["bank"], what="the bank running")
    clock = banking["hand"]["clock"]
    assert clock["seat"] == 1 and clock["total_ms"] == 1000
    assert 0 < clock["remaining_ms"] <= 1000
    time.sleep(0.3)
    with TableClient(quick.server.ws, t.table, timeout=5) as watcher:
        left = entry(watcher.first_state(), 1)["time_bank_ms"]
    assert 0 < left < 16_000  # 0.3 s of the real second is 6 of the bank's 20 s
    a.client.act(banking, passive(a.client, banking))
    acted = a.client.until_state(lambda f: f["hand"]["clock"] is None
                                 or f["hand"]["clock"]["seat"] != 1 or not f["hand"]["clock"]
                                 ["bank"], what="the state after acting")
    kept = entry(acted, 1)["time_bank_ms"]
    assert 0 < kept <= left
    assert entry(acted, 1)["timed_out"] is False
    assert not [e for e in a.client.errors()]


def test_when_the_bank_is_empty_too_the_house_acts_and_the_seat_is_timed_out_until_it_acts(
        quick: Lobby) -> None:
    t = hosted(quick, clock=5, time_bank={"start": 5, "add": 0, "every": 1, "cap": 5})
    a = player(quick, t.table, seat=1)
    add_bot(a.client, 2)
    first = a.client.wait_for_turn()
    number = first["hand"]["number"]

    def check_legal(f: Frame) -> bool:
        return (a.client.my_turn(f) and f["hand"]["street"] > 3
                and any(e["action"] == "check" for e in f["hand"]["legal"]))

    # Third street played; on a later street, where the house checks, the seat does not act.
    drive(a.client, lambda: check_legal(a.client.state) or in_play(a.client.state) is None,
          choose=passive)
    assert in_play(a.client.state)["number"] == number, "the hand ended on third street"
    events = len(a.client.state["hand"]["events"])
    timed = notice(a.client, "timed_out", timeout=3)
    assert timed["seat"] == 1 and timed["hand"] == number
    assert timed["name"] == entry(first, 1)["name"]
    marked = a.client.until_state(lambda f: entry(f, 1)["timed_out"], what="seat 1 timed out")
    assert entry(marked, 1)["time_bank_ms"] == 0 and entry(marked, 1)["sitting_out"]
    done = [e for e in (marked["hand"] if in_play(marked) else marked["last"])["events"][events:]
            if e["kind"] == "action" and e["seat"] == 1]
    assert done and done[0]["action"] == "check"
    # The seat's next turn in this hand: acting clears the mark.
    again = a.client.until_state(lambda f: a.client.my_turn(f) or in_play(f) is None,
                                 what="seat 1's next turn")
    assert in_play(again) is not None, "the hand ended before seat 1 was to act again"
    a.client.act(again, passive(a.client, again))
    cleared = a.client.until_state(lambda f: not entry(f, 1)["timed_out"], what="cleared")
    assert cleared["seats"][0]["timed_out"] is False


def test_a_timed_out_seat_is_cleared_by_sitting_in(quick: Lobby) -> None:
    t = hosted(quick, clock=5, time_bank={"start": 0, "add": 0, "every": 1, "cap": 0})
    a = player(quick, t.table, seat=1)
    add_bot(a.client, 2)
    a.client.wait_for_turn()
    notice(a.client, "timed_out", timeout=3)
    a.client.until_state(lambda f: entry(f, 1)["timed_out"] and entry(f, 1)["sitting_out"])
    a.client.send({"type": "sit_in"})
    sat = a.client.until_state(lambda f: not entry(f, 1)["sitting_out"], what="sitting in")
    assert entry(sat, 1)["timed_out"] is False


@pytest.mark.parametrize("bank", [5, "x", [], {"start": 50, "cap": 40}, {"extra": 3}])
def test_a_time_bank_that_is_no_object_has_unknown_parts_or_starts_above_its_cap_is_400(
        lobby: Lobby, bank: object) -> None:
    _, token = lobby.account()
    answer = lobby.http.post("/api/tables", json={"time_bank": bank}, headers=bearer(token))
    assert answer.status_code == 400, answer.text
    assert answer.json()["field"] == "time_bank" and "time_bank" in answer.json()["detail"]


@pytest.mark.parametrize("bank", [{"start": -1}, {"start": 601}, {"add": 121}, {"every": 0},
                                  {"cap": 700}, {"start": True}, {"start": "ten"}])
def test_a_time_bank_part_out_of_its_range_is_400(lobby: Lobby, bank: dict[str, object]) -> None:
    _, token = lobby.account()
    answer = lobby.http.post("/api/tables", json={"time_bank": bank}, headers=bearer(token))
    assert answer.status_code == 400, answer.text
    [part] = bank
    assert part in answer.json()["detail"]


@pytest.mark.parametrize("bank", [{"start": -1}, {"add": 121}, {"every": 0}, {"cap": 700},
                                  {"start": "ten"}])
def test_an_out_of_range_time_bank_part_is_named_as_a_part_of_time_bank(
        lobby: Lobby, bank: object) -> None:
    _, token = lobby.account()
    answer = lobby.http.post("/api/tables", json={"time_bank": bank}, headers=bearer(token))
    assert answer.status_code == 400
    assert answer.json()["field"] == "time_bank"
    assert "time_bank" in answer.json()["detail"]


def test_a_good_time_bank_is_the_tables_and_missing_parts_are_the_houses(lobby: Lobby) -> None:
    _, token = lobby.account()
    made = lobby.open(token, time_bank={"start": 12, "cap": 40})
    assert made["time_bank"] == {"start": 12, "add": 5, "every": 10, "cap": 40}
    assert lobby.open(token)["time_bank"] == {"start": 30, "add": 5, "every": 10, "cap": 60}


def test_a_time_bank_grows_by_add_every_so_many_hands_and_never_past_the_cap() -> None:
    bank = TimeBank(start=10, add=5, every=3, cap=22)
    state = (10_000, 0)
    seen = []
    for _ in range(9):
        state = bank.grown(*state)
        seen.append(state)
    assert seen == [(10_000, 1), (10_000, 2), (15_000, 0), (15_000, 1), (15_000, 2),
                    (20_000, 0), (20_000, 1), (20_000, 2), (22_000, 0)]
    assert bank.grown(22_000, 2) == (22_000, 0)  # at the cap it stays there
    assert TimeBank(every=1, add=5, cap=60).grown(3_000, 0) == (8_000, 0)  # a used bank too
    assert TimeBank(add=0, every=1).grown(4_000, 0) == (4_000, 0)


def test_a_seats_bank_grows_after_every_so_many_hands_and_is_kept_across_a_restart(
        tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'stud.db'}"
    bank = {"start": 10, "add": 5, "every": 2, "cap": 18}
    banks = {}
    with serve_in_thread(database, FAST) as first, lobby_at(first) as lobby:
        t = hosted(lobby, time_bank=bank)
        a = player(lobby, t.table, seat=1)
        add_bot(a.client, 2)

        def after_hand(n: int) -> Callable[[], bool]:
            return lambda: a.client.state["last"] is not None and \
                a.client.state["last"]["number"] >= n

        for n in range(1, 5):
            if n == 4:
                a.client.wait_for_turn()
                a.client.send({"type": "sit_out"})  # hand 4 is the last
            drive(a.client, after_hand(n))
            banks[n] = entry(a.client.state, 1)["time_bank_ms"]
        a.client.until_state(lambda f: in_play(f) is None)
    assert banks == {1: 10_000, 2: 15_000, 3: 15_000, 4: 18_000}
    store = Store(database)
    try:
        [row] = [r for r in store.seats(t.table) if r.seat == 1]
        assert (row.bank_ms, row.bank_hands) == (18_000, 0)
    finally:
        store.close()
    with serve_in_thread(database, FAST) as second, lobby_at(second) as lobby:
        again = lobby.connect(t.table, a.token)
        assert entry(again.state, 1)["time_bank_ms"] == 18_000


# ---------------------------------------------------------------------- 8. a leave kept


def test_a_leave_asked_for_in_a_hand_is_carried_out_after_a_stop(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'stud.db'}"
    with serve_in_process(database, FAST) as first, lobby_at(first) as lobby:
        t = hosted(lobby)
        a = player(lobby, t.table, seat=1, buy_in=1_000)
        b = player(lobby, t.table, seat=2, buy_in=1_000)

        def b_to_act() -> bool:
            hand = in_play(b.client.state) if b.client.state else None
            return hand is not None and hand["to_act"] == 2

        drive(a.client, b_to_act, (b.client,))
        a.client.send({"type": "leave"})
        b.client.until_state(lambda f: entry(f, 1)["leaving"], what="seat 1 leaving")
        assert in_play(b.client.state) is not None
        first.kill()
    store = Store(database)
    try:
        assert [h for h in store.books().items() if h[0] == "running_hands"] == [
            ("running_hands", 1)]
        assert [r.leaving for r in store.seats(t.table) if r.seat == 1] == [True]
    finally:
        store.close()
    with serve_in_process(database, FAST) as second, lobby_at(second) as lobby:
        mine = me(lobby.http, a.token)
        assert (mine["wallet"], mine["seats"]) == (10_000, [])
        assert [s["seat"] for s in me(lobby.http, b.token)["seats"]] == [2]
        frame = lobby.connect(t.table).state
        assert frame["seats"][0] is None and entry(frame, 2)["stack"] == 1_000
    store = Store(database)
    try:
        assert store.audit() == []
        assert store.books()["running_hands"] == 0
    finally:
        store.close()


def test_a_close_asked_for_in_a_hand_is_carried_out_after_a_stop(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'stud.db'}"
    with serve_in_process(database, FAST) as first, lobby_at(first) as lobby:
        t = hosted(lobby)
        a = player(lobby, t.table, seat=1)
        add_bot(t.host, 2)
        a.client.wait_for_turn()
        t.host.send({"type": "close_table"})
        a.client.until_state(lambda f: f["closing"], what="a closing table")
        first.kill()
    with serve_in_process(database, FAST) as second, lobby_at(second) as lobby:
        assert t.table not in lobby.listed(None)
        assert me(lobby.http, a.token)["seats"] == []


# ---------------------------------------------------------------------- 9. waiting for players


def test_after_a_seat_is_taken_the_next_hand_waits_for_more_players(waiting: Lobby) -> None:
    t = hosted(waiting)
    a = player(waiting, t.table, seat=1)
    assert a.client.state["next_hand_ms"] is None  # one player: nothing is waited for
    b = player(waiting, t.table, seat=2)
    sat = time.monotonic()
    frame = b.client.state
    assert in_play(frame) is None
    assert isinstance(frame["next_hand_ms"], int) and 0 < frame["next_hand_ms"] <= 1_500
    assert not [f for f in quiet(b.client, 0.7) if f["type"] == "state" and in_play(f)]
    dealt = b.client.until_state(lambda f: in_play(f) is not None, timeout=3,
                                 what="a hand after the wait")
    assert time.monotonic() - sat >= 1.2
    assert dealt["hand"]["number"] == 1 and dealt["next_hand_ms"] is None


def test_start_from_a_seated_player_deals_at_once(waiting: Lobby) -> None:
    t = hosted(waiting)
    a = player(waiting, t.table, seat=1)
    b = player(waiting, t.table, seat=2)
    asked = time.monotonic()
    a.client.send({"type": "start"})
    b.client.until_state(lambda f: in_play(f) is not None, timeout=1.0,
                         what="a hand dealt at once")
    assert time.monotonic() - asked < 1.0


def test_start_from_a_watcher_is_not_seated(waiting: Lobby) -> None:
    t = hosted(waiting)
    player(waiting, t.table, seat=1)
    player(waiting, t.table, seat=2)
    watcher = player(waiting, t.table)
    assert error_code(watcher.client, {"type": "start"}) == "not_seated"
    assert error_code(waiting.connect(t.table), {"type": "start"}) == "no_account"
    assert in_play(watcher.client.state) is None


# ---------------------------------------------------------------------- 10. unread limits


def test_a_client_that_reads_everything_gets_every_answer_and_stays(lobby: Lobby) -> None:
    t = hosted(lobby)
    for _ in range(300):
        t.host.send({"type": "ping"})
    deadline = time.monotonic() + 10
    while sum(f == {"type": "pong"} for f in t.host.frames) < 300:
        assert time.monotonic() < deadline, "not every pong came"
        t.host.receive(5)
    assert t.host.ping()[-1] == {"type": "pong"}
    assert not t.host.errors()


def client_with(send: Callable[[str], object]) -> tuple[Client, list[tuple[int, str]]]:
    closes: list[tuple[int, str]] = []

    async def close(code: int, reason: str) -> None:
        closes.append((code, reason))

    return Client(None, send, close=close), closes


def test_a_client_that_reads_nothing_is_held_at_most_max_behind_frames_and_cut_off() -> None:
    async def never(_frame: str) -> None:
        await asyncio.Event().wait()

    client, _ = client_with(never)
    for n in range(MAX_BEHIND + 500):
        client.push_error(f'{{"n": {n}}}')
    assert len(client.errors) == MAX_BEHIND
    assert client.flooding is True
    assert client.shut_with is not None and client.shut_with[0] == 1008


def test_answers_stop_being_read_while_max_unread_wait_and_a_stalled_reader_is_given_up(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(connection, "READ_WAIT", 0.2)

    async def stalled() -> bool:
        async def never(_frame: str) -> None:
            await asyncio.Event().wait()

        client, _ = client_with(never)
        pump = asyncio.get_running_loop().create_task(client.pump())
        for _ in range(MAX_UNREAD + 1):
            client.push_error('{"type": "pong"}')
        try:
            return await client.room_to_answer()
        finally:
            pump.cancel()

    async def reading() -> tuple[bool, list[str]]:
        sent: list[str] = []

        async def send(frame: str) -> None:
            await asyncio.sleep(0.001)
            sent.append(frame)

        client, _ = client_with(send)
        pump = asyncio.get_running_loop().create_task(client.pump())
        for _ in range(MAX_UNREAD * 2):
            client.push_error('{"type": "pong"}')
        room = await client.room_to_answer()
        assert len(client.errors) < MAX_UNREAD
        await asyncio.sleep(0.3)
        pump.cancel()
        return room, sent

    assert asyncio.run(stalled()) is False
    room, sent = asyncio.run(reading())
    assert room is True and len(sent) == MAX_UNREAD * 2


def test_a_shut_client_gets_what_waits_first_state_then_answers_then_the_close() -> None:
    async def run() -> tuple[list[str], list[tuple[int, str]]]:
        sent: list[str] = []

        async def send(frame: str) -> None:
            sent.append(frame)

        client, closes = client_with(send)
        client.push_error("notice")
        client.push_state('"x": 1')
        client.shut(4410, "closed")
        await asyncio.wait_for(client.pump(), 2)
        return sent, closes

    sent, closes = asyncio.run(run())
    assert sent == ['{"type": "state", "seq": 1, "x": 1}', "notice"]
    assert closes == [(4410, "closed")]


# ---------------------------------------------------------------------- 11. lookalike nicknames


def test_a_nickname_that_looks_like_a_taken_one_is_refused_naming_it(lobby: Lobby) -> None:
    base = f"Alice{nickname('')}"  # "Alice" and a number no other test used
    lobby.account(base)
    for alike in (base.replace("A", "\u0410", 1), base.upper(), base.replace("A", "\uff21", 1),
                  base.lower(), base):
        answer = lobby.http.post("/api/accounts", json={"nickname": alike})
        assert answer.status_code == 409, (alike, answer.text)
        body = answer.json()
        assert body["code"] == "nickname_taken" and body["field"] == "nickname"
        assert repr(base) in body["detail"], body
    lobby.account(base.replace("Alice", "Alicia"))


def test_nickname_keys_fold_case_width_and_other_scripts_letters() -> None:
    assert nickname_key("Alice") == nickname_key("ALICE") == nickname_key("alice") == "alice"
    assert nickname_key("\u0410lice") == nickname_key("alice")  # Cyrillic A
    assert nickname_key("\uff21lice") == nickname_key("alice")  # fullwidth A
    assert nickname_key("\u039caria") == nickname_key("Maria")  # Greek M
    assert nickname_key("p\u0430yp\u0430l") == nickname_key("paypal")  # Cyrillic a
    assert nickname_key("Stra\u00dfe") == nickname_key("STRASSE")
    assert nickname_key("Alicia") != nickname_key("Alice")
    assert nickname_key("Bob") != nickname_key("Rob")
    assert nickname_key("Zo\u00eb") != nickname_key("Zoe")
    assert len(nickname_key("x" * 60)) == 40


def test_nickname_keys_hold_no_capital_so_a_zero_is_an_o() -> None:
    assert nickname_key("B0B") == nickname_key("BOB")
    assert nickname_key("B0B") == nickname_key("B0B").casefold()


# ---------------------------------------------------------------------- 12. accounts that are bots


def test_an_account_made_as_a_bot_is_shown_as_its_own_bot_at_the_table(lobby: Lobby) -> None:
    t = hosted(lobby)
    answer = lobby.http.post("/api/accounts", json={"nickname": nickname("bot"), "bot": True})
    assert answer.status_code == 201 and answer.json()["bot"] is True
    program = lobby.connect(t.table, answer.json()["token"])
    sit(program, 1)
    person = player(lobby, t.table, seat=2)
    frame = person.client.until_state(lambda f: f["seats"][0] is not None
                                      and f["seats"][1] is not None)
    assert entry(frame, 1)["own_bot"] is True and entry(frame, 1)["bot"] is None
    assert entry(frame, 2)["own_bot"] is False
    assert lobby.http.post("/api/accounts", json={"nickname": nickname(),
                                                  "bot": "yes"}).status_code == 400


def test_an_own_bots_mark_is_kept_across_a_restart(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'stud.db'}"
    with serve_in_thread(database, FAST) as first, lobby_at(first) as lobby:
        t = hosted(lobby)
        program = player(lobby, t.table, seat=3, bot=True)
        assert entry(program.client.state, 3)["own_bot"] is True
    with serve_in_thread(database, FAST) as second, lobby_at(second) as lobby:
        assert entry(lobby.connect(t.table).state, 3)["own_bot"] is True


def test_a_player_who_leaves_a_private_table_is_not_shown_out_but_may_not_sit_again_unasked(
        lobby: Lobby) -> None:
    # Sat by the invite, then watching on a connection without it (as the lobby links a
    # private table to its players): leaving is not being removed, so the page stays, but a
    # player no more without the link may not take a seat again.
    t = hosted(lobby, private=True)
    kim = player(lobby, t.table, seat=2, invite=t.invite)
    page = lobby.connect(t.table, kim.token)
    page.send({"type": "leave"})
    page.until_state(lambda f: f["seats"][1] is None, what="seat 2 emptied")
    assert page.ping()[-1] == {"type": "pong"}
    error = error_code(page, {"type": "sit", "seat": 3, "buy_in": BUY_IN})
    assert error == "not_invited"
    assert kim.client.ping()[-1] == {"type": "pong"}  # the invite's connection may sit again
    sit(kim.client, 3, BUY_IN)
