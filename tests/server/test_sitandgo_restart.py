"""A server killed (SIGKILL) in the middle of a sit-and-go resumes it on its next start from the
last finished hand: the hand it cut off is voided and its chips go back to the stacks at its
start, the placed players stay placed, and the tournament plays on to its end with its chips
and prizes conserved. On SQLite only: the killed server is a process, which takes seconds to
start (the store's side of tournaments runs on PostgreSQL too, in test_sitandgo)."""

from __future__ import annotations

import random

from sqlalchemy import select

from stud.server.room import Timing
from stud.server.schema import hand_players, hands
from stud.server.store import STARTING_WALLET

from .conftest import serve_in_process, serve_in_thread
from .test_restart import books, my_turn_in_hand, play_until
from .test_sitandgo import audited, create, until_over
from .wsclient import TableClient, bearer, make_account

# Ann plays her turns at first (her clock is 5 s): killed on her turn, a hand is surely cut.
PLAYING = Timing(bot_delay=0.0, hand_pause=0.0, clock_scale=1.0, seat_wait=0.0)
# After the restart she is not there: away within a moment, and blinded off to the end.
AWAY = Timing(bot_delay=0.0, hand_pause=0.0, clock_scale=0.01, seat_wait=0.0)


def test_a_sit_and_go_cut_off_by_a_kill_resumes_after_its_last_finished_hand(
        sqlite_database: str) -> None:
    database = sqlite_database
    with serve_in_process(database, PLAYING) as server:
        with server.client() as http:
            _, ann = make_account(http, "Ann")
            made = create(http, ann, variant="stud", players=3, buy_in=100,
                          starting_stack=500, structure="turbo")
            number, table = made["id"], made["table"]
            http.post(f"/api/tournaments/{number}/register", headers=bearer(ann))
            with TableClient(server.ws, table, ann, timeout=20) as client:
                client.first_state()
                assert http.post(f"/api/tournaments/{number}/bots", json={},
                                 headers=bearer(ann)).status_code == 200
                cut = play_until(client, random.Random(3), my_turn_in_hand(3),
                                 what="hand 3 with Ann to act")
                server.kill()

    with books(database) as store:
        with store.engine.connect() as db:
            running = db.execute(select(hands.c.id, hands.c.number).where(
                hands.c.table_id == table, hands.c.status == "running")).all()
        before = store.tournament(number)
        placed_before = {e.seat: e.place for e in store.entries(number) if e.place}
        assert before.status == "running"
        assert [n for _, n in running] == [cut["hand"]["number"]]
        # Chips in play (at the table and in the running hand) are the five starting stacks.
        assert store.audit() == []

    # The next start: in this process (a new server on the same database starts in a moment).
    with serve_in_thread(database, AWAY) as server:
        with server.client() as http:
            over = until_over(http, number)
            me = http.get("/api/me", headers=bearer(ann)).json()

    with books(database) as store:
        with store.engine.connect() as db:
            for hand_id, _ in running:  # the cut hand: voided, every stack back to its start
                status = db.execute(select(hands.c.status).where(
                    hands.c.id == hand_id)).scalar_one()
                assert status == "voided"
                rows = db.execute(select(hand_players.c.start, hand_players.c.final).where(
                    hand_players.c.hand_id == hand_id)).all()
                assert rows and all(start == final for start, final in rows)
        for seat, place in placed_before.items():  # who was placed stays so
            assert next(e.place for e in store.entries(number) if e.seat == seat) == place
    totals = audited(database)
    assert totals["prize_pools"] == 0 and totals["tournament_chips"] == 0
    assert sum(s["prize"] for s in over["standings"]) == 300
    mine = next(s for s in over["standings"] if s["name"] == "Ann")
    assert me["wallet"] == STARTING_WALLET - 100 + mine["prize"]
