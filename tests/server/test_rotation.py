"""The stud rotation at a cash table (issue 15): razz, stud and stud hi/lo in turn, changing
every N hands (one orbit by default); the table says the game in play and the next one, and
each hand's history names its game. And the store's audit of tournaments, from the command
line too."""

from __future__ import annotations

import json

from sqlalchemy import update
from typer.testing import CliRunner

from stud.cli import app
from stud.history.phh import loads
from stud.rules import PROFILES, Stakes, Variant
from stud.server.schema import ledger
from stud.server.store import Store

from .conftest import Server
from .wsclient import TableClient, bearer, finished, make_account


def test_a_rotation_table_plays_razz_stud_and_stud8_in_turn_and_names_each_hands_game(
        server: Server) -> None:
    with server.client() as http:
        _, ann = make_account(http, "Rita")
        made = http.post("/api/tables", json={"variant": "rotation", "every": 2, "seats": 3},
                         headers=bearer(ann))
        assert made.status_code == 201, made.text
        table = made.json()
        assert table["rotation"] == {"games": ["razz", "stud", "stud8"], "every": 2,
                                     "now": "razz", "next": "stud", "next_hand": 3,
                                     "in_hands": 2}
        assert table["variant"] == "razz"
        refused = http.post("/api/tables", json={"variant": "rotation", "every": 0},
                            headers=bearer(ann))
        assert (refused.status_code, refused.json()["field"]) == (400, "every")
        # The host seats three bots and watches (a table of bots alone waits for a watcher).
        with TableClient(server.ws, table["id"], ann) as client:
            client.first_state()
            for seat, bot in ((1, "station"), (2, "random"), (3, "station")):
                client.send({"type": "add_bot", "seat": seat, "bot": bot})
            shown = client.until_state(finished(7), timeout=30, what="seven hands")
        hands = http.get(f"/api/tables/{table['id']}/hands?limit=20",
                         headers=bearer(ann)).json()
    assert shown["table"]["rotation"]["games"] == ["razz", "stud", "stud8"]
    by_number = {h["number"]: h for h in hands if h["result"] == "finished"}
    expected = {1: "razz", 2: "razz", 3: "stud", 4: "stud", 5: "stud8", 6: "stud8", 7: "razz"}
    for number, game in expected.items():
        assert by_number[number]["variant"] == game, number
    store = Store(server.database)
    try:
        for number, game in expected.items():
            phh = loads(store.hand_phh(by_number[number]["id"]) or "")
            assert Variant.parse(phh.variant).value == game
    finally:
        store.close()


def test_the_audit_checks_each_tournaments_chips_and_prize_pool(sqlite_database: str) -> None:
    store = Store(sqlite_database)
    try:
        ann, _ = store.create_account("Ann")
        made = store.create_tournament("Sng", "stud", 3, 3, 250, 600, "standard", "hands",
                                       (750,), Variant.STUD, Stakes.for_limit(12),
                                       PROFILES["standard"], 30, ann.id)
        store.register(made.id, ann.id, 30_000)
        store.register(made.id, None, 30_000, "random")
        assert store.audit() == []
        books = store.books()
        assert (books["prize_pools"], books["tournament_chips"]) == (500, -1200)
        result = CliRunner().invoke(app, ["audit", "--database", sqlite_database, "--json"])
        assert result.exit_code == 0, result.output
        assert json.loads(result.output)["ok"]
        # Pool rows that lost chips: the tournament's pool no longer holds its buy-ins.
        with store.engine.begin() as db:
            db.execute(update(ledger).where(ledger.c.place == "pool", ledger.c.amount == 250)
                       .values(amount=200))
        problems = store.audit()
        assert any(f"tournament {made.id}: its pool holds 400, not 2 buy-ins of 250" in p
                   for p in problems), problems
        result = CliRunner().invoke(app, ["audit", "--database", sqlite_database])
        assert result.exit_code == 1 and "its pool holds 400" in result.output
    finally:
        store.close()
