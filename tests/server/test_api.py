"""The HTTP API of docs/protocol.md: accounts, tables, pages, recent hands and PHH downloads."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import httpx
import pytest
from sqlalchemy import select

from stud.history.phh import HandHistory, loads
from stud.history.replay import replay
from stud.server.schema import hands
from stud.server.store import Store

from .conftest import Server, serve_in_thread
from .wsclient import Frame, TableClient, bearer, finished, make_account, make_table, nickname

STATIC = Path(__file__).resolve().parents[2] / "src" / "stud" / "server" / "static"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server (on SQLite) for this module's tests; each makes its own accounts and tables."""
    with serve_in_thread(f"sqlite:///{tmp_path_factory.mktemp('api') / 'stud.db'}") as running:
        yield running


@pytest.fixture
def http(server: Server) -> Iterator[httpx.Client]:
    """A fresh client for each test, so that no test sends another's cookie."""
    with server.client() as client:
        yield client


def table_ids(http: httpx.Client) -> set[int]:
    return {t["id"] for t in http.get("/api/tables").json()}


@pytest.fixture
def token(http: httpx.Client) -> str:
    return make_account(http)[1]


# ---------------------------------------------------------------------- accounts


def test_a_new_account_gets_201_its_token_an_httponly_cookie_and_10000_chips(
        http: httpx.Client) -> None:
    answer = http.post("/api/accounts", json={"nickname": "Ann"})
    assert answer.status_code == 201
    body = answer.json()
    assert set(body) == {"id", "nickname", "wallet", "bot", "token"}
    assert body["nickname"] == "Ann" and body["wallet"] == 10_000
    assert isinstance(body["token"], str) and len(body["token"]) >= 32
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith(f"stud_token={body['token']};")
    assert "httponly" in cookie.lower() and "samesite=lax" in cookie.lower()
    other = http.post("/api/accounts", json={"nickname": "Bob"}).json()
    assert other["token"] != body["token"] and other["id"] != body["id"]


@pytest.mark.parametrize("name", ["", "x" * 21, "   ", "Ann!", "a/b", "<b>Ann</b>", "tab\tname",
                                  "new\nline", "semi;colon", None, 5, ["Ann"]])
def test_a_nickname_is_1_to_20_letters_digits_spaces_dots_dashes_or_underscores(
        http: httpx.Client, name: object) -> None:
    answer = http.post("/api/accounts", json={"nickname": name})
    assert answer.status_code == 400, answer.text
    assert "nickname" in answer.json()["detail"] and answer.json()["field"] == "nickname"
    assert "set-cookie" not in answer.headers


@pytest.mark.parametrize("body", [{}, [], "Ann", None])
def test_an_account_request_without_a_nickname_object_is_400(http: httpx.Client,
                                                             body: object) -> None:
    answer = http.post("/api/accounts", json=body)
    assert answer.status_code == 400, answer.text
    assert answer.json()["detail"]


@pytest.mark.parametrize("name", ["x" * 20, "A", "7", "Ann Lee", "a.b-c_d", "Jürgen"])
def test_a_nickname_within_the_rules_is_accepted(http: httpx.Client, name: str) -> None:
    answer = http.post("/api/accounts", json={"nickname": name})
    assert answer.status_code == 201, answer.text
    assert answer.json()["nickname"] == name


def test_a_nickname_taken_in_any_case_is_409(http: httpx.Client) -> None:
    assert http.post("/api/accounts", json={"nickname": "Carol"}).status_code == 201
    for again in ("Carol", "carol", "CAROL", "cArOl"):
        answer = http.post("/api/accounts", json={"nickname": again})
        assert answer.status_code == 409, (again, answer.text)
        assert "nickname" in answer.json()["detail"]
        assert answer.json()["code"] == "nickname_taken" and answer.json()["field"] == "nickname"


def test_me_answers_with_the_cookie(server: Server) -> None:
    with server.client() as browser:
        created = browser.post("/api/accounts", json={"nickname": "Dora"}).json()
        answer = browser.get("/api/me")  # the cookie jar sends stud_token
    assert answer.status_code == 200
    assert answer.json() == {"id": created["id"], "nickname": "Dora", "wallet": 10_000,
                             "seats": []}


def test_me_answers_with_a_bearer_token(server: Server) -> None:
    with server.client() as first:
        created = first.post("/api/accounts", json={"nickname": "Eve"}).json()
    with server.client() as program:
        answer = program.get("/api/me", headers=bearer(created["token"]))
    assert answer.status_code == 200
    assert answer.json()["id"] == created["id"] and answer.json()["nickname"] == "Eve"


@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer nonsense"},
                                     {"Authorization": "Basic abc"}, {"Cookie": "stud_token=x"}])
def test_me_without_a_valid_token_is_401(server: Server, headers: dict[str, str]) -> None:
    with server.client() as stranger:
        answer = stranger.get("/api/me", headers=headers)
    assert answer.status_code == 401
    assert answer.json()["detail"]


# ---------------------------------------------------------------------- tables


def test_creating_a_table_needs_an_account(http: httpx.Client) -> None:
    before = table_ids(http)
    for headers in ({}, {"Authorization": "Bearer nonsense"}):
        answer = http.post("/api/tables", json={"name": "Mine"}, headers=headers)
        assert answer.status_code == 401, answer.text
    assert table_ids(http) == before


RULES_LIST = pytest.param("rules", ["standard"], id="rules-list")


@pytest.mark.parametrize(("field", "value"), [
    ("variant", "holdem"), ("variant", ""), ("variant", 7), ("variant", None),
    ("small_bet", 0), ("small_bet", 1), ("small_bet", "2"), ("small_bet", True),
    ("small_bet", 2.0), ("small_bet", -2), ("small_bet", 10_001),
    ("seats", 1), ("seats", 9), ("seats", "8"), ("seats", True), ("seats", 0),
    ("clock", 4), ("clock", 301), ("clock", "30"), ("clock", False),
    ("rules", "bogus"), ("rules", ""), ("rules", 3), RULES_LIST,
    ("name", "x" * 61), ("name", "   "), ("name", 5),
])
def test_each_bad_table_field_is_a_400_naming_that_field(http: httpx.Client, token: str,
                                                         field: str, value: object) -> None:
    before = table_ids(http)
    answer = http.post("/api/tables", json={field: value}, headers=bearer(token))
    assert answer.status_code == 400, answer.text
    assert field in answer.json()["detail"], answer.json()
    assert answer.json()["field"] == field  # as data too, for the form to mark it
    assert table_ids(http) == before


@pytest.mark.parametrize("body", [[], "stud", 7])
def test_a_table_request_that_is_not_an_object_is_400(http: httpx.Client, token: str,
                                                      body: object) -> None:
    answer = http.post("/api/tables", json=body, headers=bearer(token))
    assert answer.status_code == 400, answer.text


def test_a_new_table_has_the_documented_defaults(http: httpx.Client, token: str) -> None:
    answer = http.post("/api/tables", json={}, headers=bearer(token))
    assert answer.status_code == 201
    table = answer.json()
    assert table["variant"] == "stud" and table["title"] == "Seven Card Stud"
    assert table["stakes"] == {"ante": 1, "bring_in": 1, "small_bet": 2, "big_bet": 4}
    assert table["seats"] == 8 and table["clock"] == 30
    assert table["rules"]["name"] == "standard"
    assert table["taken"] == 0 and table["hands"] == 0 and table["hands_per_hour"] == 0
    assert isinstance(table["name"], str) and table["name"]
    assert table["private"] is False and table["paused"] is False
    assert table["time_bank"] == {"start": 30, "add": 5, "every": 10, "cap": 60}
    assert set(table) == {"id", "name", "variant", "title", "stakes", "rules", "seats", "taken",
                          "clock", "hands", "hands_per_hour", "private", "paused", "host",
                          "time_bank"}


@pytest.mark.parametrize(("fields", "stakes"), [
    ({"name": "Friday stud8", "variant": "stud8", "small_bet": 10, "seats": 6, "clock": 60,
      "rules": "pokerkit"}, {"ante": 2, "bring_in": 5, "small_bet": 10, "big_bet": 20}),
    ({"variant": "razz", "small_bet": 10_000, "seats": 2, "clock": 300},
     {"ante": 2500, "bring_in": 5000, "small_bet": 10_000, "big_bet": 20_000}),
    ({"variant": "stud", "small_bet": 2, "seats": 8, "clock": 5},
     {"ante": 1, "bring_in": 1, "small_bet": 2, "big_bet": 4}),
])
def test_a_new_table_keeps_the_fields_it_was_given(http: httpx.Client, token: str,
                                                   fields: Frame, stakes: Frame) -> None:
    table = http.post("/api/tables", json=fields, headers=bearer(token)).json()
    for name in ("name", "variant", "seats", "clock"):
        if name in fields:
            assert table[name] == fields[name]
    assert table["stakes"] == stakes
    assert table["rules"]["name"] == fields.get("rules", "standard")
    assert http.get(f"/api/tables/{table['id']}").json() == table


def test_the_table_list_shows_each_table_with_taken_hands_and_hands_per_hour(
        http: httpx.Client, token: str) -> None:
    before = table_ids(http)
    first = make_table(http, token, name="One")
    second = make_table(http, token, name="Two", variant="razz")
    listed = {t["id"]: t for t in http.get("/api/tables").json()}
    assert set(listed) == before | {first, second}
    assert listed[second]["name"] == "Two" and listed[second]["variant"] == "razz"
    for table in (listed[first], listed[second]):
        assert table["taken"] == 0 and table["hands"] == 0 and table["hands_per_hour"] == 0


@pytest.mark.parametrize("path", ["/api/tables", "/api/tournaments"])
@pytest.mark.parametrize("name", ['"x\\ud800y"', '"a\\nb"', '"' + "n" * 5000 + '"'])
def test_a_table_or_tournament_name_must_be_text_of_1_to_60_characters(
        http: httpx.Client, token: str, path: str, name: str) -> None:
    answer = http.post(path, content='{"name": ' + name + "}", headers={
        "Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    assert answer.status_code == 400, answer.text  # not a 500 (a lone surrogate)
    body = answer.json()
    assert body["field"] == "name" and body["detail"].startswith("name must be 1 to 60 ")
    assert len(body["detail"]) < 200  # a long name is not echoed whole


@pytest.mark.parametrize(("field", "value", "choices"), [
    ("variant", "holdem", ["stud", "stud8", "razz"]), ("rules", "wild", ["standard", "pokerkit"])])
def test_a_table_field_with_choices_names_them_as_data(http: httpx.Client, token: str,
                                                       field: str, value: str,
                                                       choices: list[str]) -> None:
    answer = http.post("/api/tables", json={field: value},
                       headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 400
    body = answer.json()
    assert body["field"] == field and body["code"] == "not_a_choice"
    assert body["choices"] == choices


# The pages of an unknown table are a 404 page for people: tests/server/test_pages.py.
@pytest.mark.parametrize("path", ["/api/tables/999", "/api/tables/999/hands",
                                  "/api/hands/999.phh"])
def test_an_unknown_table_or_hand_is_404(http: httpx.Client, path: str) -> None:
    answer = http.get(path)
    assert answer.status_code == 404
    assert "999" in answer.json()["detail"]


def test_health_answers_ok(http: httpx.Client) -> None:
    answer = http.get("/api/health")
    assert answer.status_code == 200 and answer.json() == {"ok": True}


# ---------------------------------------------------------------------- pages


@pytest.mark.parametrize(("page", "path"), [("lobby.html", "/"), ("table.html", "/tables/{id}"),
                                            ("rules.html", "/tables/{id}/rules")])
def test_the_pages_are_html(http: httpx.Client, token: str, page: str, path: str) -> None:
    if not (STATIC / page).exists():
        pytest.skip(f"static/{page} is not written yet")
    answer = http.get(path.format(id=make_table(http, token)))
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/html")
    assert re.search(r"<html|<!doctype html", answer.text, re.I)
    assert answer.text == (STATIC / page).read_text(encoding="utf-8")


def test_static_files_are_served_under_static(http: httpx.Client) -> None:
    present = sorted(p.name for p in STATIC.iterdir() if p.is_file())
    if not present:
        pytest.skip("no static files are written yet")
    for name in present:
        answer = http.get(f"/static/{name}")
        assert answer.status_code == 200, name
    assert http.get("/static/no-such-file.js").status_code == 404


# ---------------------------------------------------------------------- hands and histories


@dataclass
class Played:
    server: Server
    http: httpx.Client
    table: int
    frames: list[Frame]  # every state a watcher received while the bots played

    def end_stacks(self, number: int) -> dict[int, int] | None:
        """The table seats' stacks at the end of hand ``number``, as the watcher saw them."""
        for frame in self.frames:
            last = frame.get("last")
            if last is not None and last["number"] == number:
                return dict(map(tuple, last["events"][-1]["stacks"]))
        return None  # finished after the watcher left

    def dealer_histories(self) -> dict[int, str]:
        """The server's own record of every card, by hand number."""
        store = Store(self.server.database)
        try:
            with store.engine.connect() as db:
                rows = db.execute(select(hands.c.number, hands.c.dealer_phh).where(
                    hands.c.table_id == self.table, hands.c.status == "finished")).all()
        finally:
            store.close()
        return {row.number: row.dealer_phh for row in rows}


HANDS = 8


@pytest.fixture(scope="module")
def played(server: Server) -> Iterator[Played]:
    """Three bots play at least eight hands of stud8 while a watcher looks on, then stop."""
    with server.client() as http:
        _, token = make_account(http, nickname("owner"))
        table = make_table(http, token, variant="stud8", name="Played")
        with TableClient(server.ws, table, token) as watcher:
            watcher.first_state()
            for seat, bot in ((1, "random"), (3, "station"), (5, "strength")):
                watcher.send({"type": "add_bot", "seat": seat, "bot": bot, "buy_in": 1000})
            watcher.until_state(finished(HANDS), timeout=60, what=f"{HANDS} finished hands")
        # Nobody watches now: the bots finish the hand in play, then wait.
        for _ in range(200):
            recent = http.get(f"/api/tables/{table}/hands", params={"limit": 1}).json()
            if http.get(f"/api/tables/{table}").json()["hands"] == recent[0]["number"]:
                break
            time.sleep(0.05)
        else:
            raise AssertionError("the bots did not stop when nobody was watching")
        yield Played(server, http, table, watcher.frames)


def _finished_hands(played: Played) -> list[Frame]:
    answer = played.http.get(f"/api/tables/{played.table}/hands", params={"limit": 100})
    assert answer.status_code == 200
    return answer.json()


def test_recent_hands_are_the_finished_hands_newest_first(played: Played) -> None:
    recent = _finished_hands(played)
    assert len(recent) >= HANDS
    numbers = [h["number"] for h in recent]
    assert numbers == sorted(numbers, reverse=True)
    assert numbers == list(range(numbers[0], numbers[0] - len(numbers), -1))
    for entry in recent:
        assert set(entry) == {"id", "number", "ended_at", "text", "result", "events", "players",
                              "variant"}
        assert entry["result"] == "finished"
        assert entry["text"] and all(isinstance(line, str) for line in entry["text"])
        # The events tell the hand in any language: they end as the hand did, and name seats
        # of the players dealt in.
        assert entry["events"][-1]["kind"] == "end"
        seats = {p["seat"] for p in entry["players"]}
        assert {seat for seat, _ in entry["events"][-1]["stacks"]} == seats
        assert all(p["name"] for p in entry["players"])
        assert datetime.fromisoformat(entry["ended_at"]).tzinfo is not None
    default = played.http.get(f"/api/tables/{played.table}/hands").json()
    assert default == recent[:10]


@pytest.mark.parametrize("limit", [0, -1, 101, 1000])
def test_the_recent_hands_limit_is_from_1_to_100(played: Played, limit: int) -> None:
    answer = played.http.get(f"/api/tables/{played.table}/hands", params={"limit": limit})
    assert answer.status_code == 400
    assert "limit" in answer.json()["detail"]


@pytest.mark.parametrize("limit", [1, 3, 100])
def test_the_recent_hands_limit_caps_the_list(played: Played, limit: int) -> None:
    recent = _finished_hands(played)
    answer = played.http.get(f"/api/tables/{played.table}/hands", params={"limit": limit})
    assert answer.status_code == 200
    assert answer.json() == recent[:limit]


def test_a_table_counts_its_hands_and_hands_per_hour(played: Played) -> None:
    recent = _finished_hands(played)
    table = played.http.get(f"/api/tables/{played.table}").json()
    assert table["taken"] == 3
    assert table["hands"] >= len(recent) >= HANDS
    assert table["hands_per_hour"] == len(recent)  # every one finished within the hour
    listed = {t["id"]: t for t in played.http.get("/api/tables").json()}
    assert listed[played.table] == table


def _phh(played: Played, hand_id: int) -> httpx.Response:
    answer = played.http.get(f"/api/hands/{hand_id}.phh")
    assert answer.status_code == 200, answer.text
    return answer


def test_a_hands_phh_is_a_download_that_replays_to_the_same_finishing_stacks(
        played: Played) -> None:
    compared = 0
    for entry in _finished_hands(played):
        answer = _phh(played, entry["id"])
        assert answer.headers["content-type"].startswith("text/plain")
        disposition = answer.headers["content-disposition"]
        assert disposition.startswith("attachment")
        assert re.search(r'filename="[^"/\\]+\.phh"', disposition), disposition
        history = loads(answer.text)
        assert history.variant == "F7S/8"
        assert history.fields["hand"] == entry["number"]
        result = replay(history, history.rules())
        assert list(result.finishing_stacks) == history.finishing_stacks
        # ... and the stacks are the ones the table showed at the end of that hand.
        seats = history.fields["seats"]
        ended = played.end_stacks(entry["number"])
        if ended is not None:
            compared += 1
            assert {seat: ended[seat] for seat in seats} == dict(
                zip(seats, history.finishing_stacks, strict=True))
    assert compared >= HANDS - 1


def _dealt(history: HandHistory) -> dict[int, list[str]]:
    """Each player's cards in the order dealt, "??" for a card the history does not name."""
    cards: dict[int, list[str]] = {}
    for line in history.actions:
        parts = line.split()
        if parts[:2] == ["d", "dh"]:
            cards.setdefault(int(parts[2][1:]), []).extend(
                parts[3][k:k + 2] for k in range(0, len(parts[3]), 2))
    return cards


def _shown(history: HandHistory) -> dict[int, list[str]]:
    out = {}
    for line in history.actions:
        parts = line.split()
        if len(parts) == 3 and parts[1] == "sm":
            out[int(parts[0][1:])] = [parts[2][k:k + 2] for k in range(0, len(parts[2]), 2)]
    return out


def test_the_public_phh_holds_no_down_card_that_was_not_shown(played: Played) -> None:
    dealer = played.dealer_histories()
    unshown_seen = 0
    for entry in _finished_hands(played):
        text = _phh(played, entry["id"]).text
        public = loads(text)
        truth = loads(dealer[entry["number"]])
        public_cards, true_cards = _dealt(public), _dealt(truth)
        shown = _shown(public)
        assert public_cards.keys() == true_cards.keys()
        for player, cards in true_cards.items():
            assert "??" not in cards  # the dealer's history names every card
            seen = public_cards[player]
            assert len(seen) == len(cards)
            for k, (card, public_card) in enumerate(zip(cards, seen, strict=True)):
                down = k in (0, 1, 6)
                assert public_card == ("??" if down else card), (player, k, text)
                if down and card not in shown.get(player, []):
                    unshown_seen += 1
                    assert not re.search(rf"\b{card}\b", text), (card, text)
                    assert not any(re.search(rf"\b{card}\b", line) for line in entry["text"])
            if player in shown:
                assert shown[player] == cards[:len(shown[player])]
    assert unshown_seen, "no hand had a down card that stayed hidden"


def test_a_hand_id_beyond_any_hand_is_404(server: Server) -> None:
    with server.client() as http:
        for hand_id in ("0", "9223372036854775808", "99999999999999999999"):
            answer = http.get(f"/api/hands/{hand_id}.phh")
            assert answer.status_code == 404, (hand_id, answer.status_code, answer.text)
