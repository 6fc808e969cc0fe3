"""A finished hand the store cannot keep is voided, never shown as won: nothing is shown that is
not kept, every player keeps their starting stack, and the table deals on."""

from __future__ import annotations

import pytest

from stud.server.room import Timing
from stud.server.store import Store

from .conftest import serve_in_thread
from .wsclient import TableClient, make_account, make_table


def test_a_hand_the_store_cannot_keep_is_voided_and_the_table_goes_on(
        sqlite_database: str, monkeypatch: pytest.MonkeyPatch) -> None:
    failures = {"left": 3}  # the three tries of the first hand fail
    keep = Store.finish_hand

    def flaky(self: Store, *args: object, **kwargs: object) -> None:
        if failures["left"] > 0:
            failures["left"] -= 1
            raise RuntimeError("the disk is full")
        keep(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Store, "finish_hand", flaky)
    with serve_in_thread(sqlite_database, Timing(0.0, 0.05, 1.0, 0.0)) as server, \
            server.client() as http:
        _, token = make_account(http)
        table = make_table(http, token)
        with TableClient(server.ws, table, token) as watcher:
            watcher.first_state()
            for seat in (1, 2, 3):
                watcher.send({"type": "add_bot", "seat": seat, "bot": "station",
                              "buy_in": 200})
            frame = watcher.until_state(lambda f: f["last"] is not None, timeout=20,
                                        what="a hand kept after the failed one")
        hands = http.get(f"/api/tables/{table}/hands").json()
    first = next(h for h in hands if h["number"] == 1)
    assert first["result"] == "voided"
    assert frame["last"]["number"] >= 2  # the table went on dealing
    assert failures["left"] == 0
    store = Store(sqlite_database)
    try:
        assert store.audit() == []
        held = sum(store.books()[k] for k in ("wallets", "tables", "in_hands"))
        assert held == store.chips_in_play()
    finally:
        store.close()
