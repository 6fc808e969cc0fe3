"""Frames speak of table seats: the engine's own seat numbers never reach a client."""

from __future__ import annotations

from stud.engine.events import StreetStarted
from stud.server.frames import event_json, table_reason


def test_a_reason_names_table_seats_not_the_engines() -> None:
    seat_of = {1: 2, 2: 5, 3: 7}.__getitem__
    reason = "bring-in: lowest up card 2c, all in from the ante; seat 2 acts first"
    assert table_reason(reason, seat_of).endswith("seat 5 acts first")
    later = "best up cards (seat 1, all in; next to the left acts)"
    assert table_reason(later, seat_of) == "best up cards (seat 2, all in; next to the left acts)"
    sent = event_json(StreetStarted(3, 2, reason), seat_of)
    assert sent == {"kind": "street", "street": 3, "first": 5,
                    "reason": "bring-in: lowest up card 2c, all in from the ante; "
                              "seat 5 acts first"}
