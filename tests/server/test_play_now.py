"""Play now (issue 12, point 13): POST /api/play-now takes a player from an empty lobby to a
table of the chosen game with bots, ready to sit (docs/protocol.md)."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from .conftest import Server, serve_in_thread
from .wsclient import TableClient, bearer, make_account, make_table


@pytest.fixture
def server(sqlite_database: str) -> Iterator[Server]:
    """A fresh server for each test: its lobby starts empty."""
    with serve_in_thread(sqlite_database) as running:
        yield running


@pytest.fixture
def http(server: Server) -> Iterator[httpx.Client]:
    with server.client() as client:
        yield client


def play_now(http: httpx.Client, token: str, variant: str) -> dict:
    answer = http.post("/api/play-now", json={"variant": variant}, headers=bearer(token))
    assert answer.status_code == 200, answer.text
    return answer.json()


def sit(server: Server, table: int, token: str, seat: int, buy_in: int) -> None:
    with TableClient(server.ws, table, token) as client:
        client.first_state()
        client.send({"type": "sit", "seat": seat, "buy_in": buy_in})
        client.until_state(lambda f: f["you"]["seat"] == seat, what="a frame seating me")


def test_13_play_now_on_a_fresh_server_opens_a_table_with_three_bots(
        server: Server, http: httpx.Client) -> None:
    assert http.get("/api/tables").json() == []
    _, token = make_account(http)
    answer = play_now(http, token, "razz")
    table = answer["table"]
    assert table["variant"] == "razz" and not table["private"]
    assert (table["seats"], table["taken"], table["stakes"]["small_bet"]) == (6, 3, 2)
    assert (answer["seat"], answer["seated"], answer["buy_in"]) == (4, False, 200)
    assert [t["id"] for t in http.get("/api/tables").json()] == [table["id"]]
    with TableClient(server.ws, table["id"], token) as client:
        seats = client.first_state()["seats"]
    assert [s and s["bot"] for s in seats] == ["expert", "strength", "station", None, None, None]
    # Nothing left the wallet: the player sits, and chooses the buy-in, at the table.
    assert http.get("/api/me", headers=bearer(token)).json()["wallet"] == 10_000


def test_13_a_new_play_now_tables_bots_wait_for_the_player_to_sit_before_the_first_hand(
        server: Server, http: httpx.Client) -> None:
    """The bots would otherwise deal as soon as someone watches (this server's seat wait is 0):
    the player, still choosing a buy-in, found the first hand at fifth street. The hand waits,
    then is dealt as soon as the player sits, with the player in it."""
    _, token = make_account(http)
    answer = play_now(http, token, "stud")
    table = answer["table"]["id"]
    with TableClient(server.ws, table, token) as client:
        first = client.first_state()
        assert first["hand"] is None and first["next_hand_ms"] > 30_000, first["next_hand_ms"]
        client.send({"type": "sit", "seat": answer["seat"], "buy_in": answer["buy_in"]})
        dealt = client.until_state(lambda f: f["hand"] is not None, what="the first hand")
    assert answer["seat"] in [p["seat"] for p in dealt["hand"]["players"]]


def test_13_play_now_reuses_a_table_of_the_game_with_bots_and_a_free_seat(
        server: Server, http: httpx.Client) -> None:
    _, ann = make_account(http)
    _, bob = make_account(http)
    first = play_now(http, ann, "stud8")
    assert play_now(http, bob, "stud8")["table"]["id"] == first["table"]["id"]
    sit(server, first["table"]["id"], ann, first["seat"], first["buy_in"])
    # Ann is seated: she is sent back to her seat; Bob is offered the next free one.
    again = play_now(http, ann, "stud8")
    assert (again["table"]["id"], again["seat"], again["seated"]) == (
        first["table"]["id"], first["seat"], True)
    offered = play_now(http, bob, "stud8")
    assert (offered["table"]["id"], offered["seat"], offered["seated"]) == (
        first["table"]["id"], first["seat"] + 1, False)
    # Another game gets a table of its own.
    assert play_now(http, bob, "stud")["table"]["id"] != first["table"]["id"]


def test_13_play_now_passes_over_tables_without_bots_full_or_private(
        server: Server, http: httpx.Client) -> None:
    _, host = make_account(http)
    plain = make_table(http, host, variant="stud", seats=2)  # no bots
    private = http.post("/api/tables", json={"variant": "stud", "private": True},
                        headers=bearer(host)).json()["id"]
    bots = play_now(http, host, "stud")["table"]["id"]
    assert bots not in (plain, private)
    tokens = [make_account(http)[1] for _ in range(3)]
    for seat, token in zip((4, 5, 6), tokens, strict=True):
        sit(server, bots, token, seat, 40)
    _, late = make_account(http)
    fresh = play_now(http, late, "stud")  # the table with bots is full: a new one
    assert fresh["table"]["id"] not in (plain, private, bots)
    assert fresh["table"]["taken"] == 3


def test_13_play_now_needs_an_account_and_a_game(http: httpx.Client) -> None:
    assert http.post("/api/play-now", json={"variant": "stud"}).status_code == 401
    _, token = make_account(http)
    answer = http.post("/api/play-now", json={"variant": "omaha"}, headers=bearer(token))
    assert answer.status_code == 400 and "variant" in answer.json()["detail"]
    answer = http.post("/api/play-now", content="[]", headers=bearer(token))
    assert answer.status_code == 400
