"""The web sit-and-go (issue 15): a tournament opened from the lobby's API, registered for,
filled with bots, played to its end at a fast pace, its prizes paid to the wallets through the
ledger, and the books audited; on SQLite and the real PostgreSQL."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest
from sqlalchemy import select

from stud.history.phh import loads
from stud.rules import PROFILES, Stakes, Variant
from stud.server.room import Timing
from stud.server.schema import hands
from stud.server.store import STARTING_WALLET, HandPlayer, Store

from .conftest import Server, serve_in_thread
from .wsclient import TableClient, bearer, make_account

# Bots act at once and hands follow each other; a player's clock runs out in a moment (5 s at
# 0.01: 50 ms, and the same for the time bank), so an absent player is soon away.
QUICK = Timing(bot_delay=0.0, hand_pause=0.0, clock_scale=0.01, seat_wait=0.0)


@pytest.fixture
def quick_server(database: str) -> Iterator[Server]:
    with serve_in_thread(database, QUICK) as running:
        yield running


def create(http: httpx.Client, token: str, **fields: object) -> dict:
    answer = http.post("/api/tournaments", json={"clock": 5} | fields, headers=bearer(token))
    assert answer.status_code == 201, answer.text
    return answer.json()


def until_over(http: httpx.Client, tournament: int, seconds: float = 60.0) -> dict:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = http.get(f"/api/tournaments/{tournament}").json()
        if found["status"] == "finished":
            return found
        time.sleep(0.1)
    raise AssertionError(f"tournament {tournament} not over in {seconds} s: {found}")


def audited(database: str) -> dict[str, int]:
    store = Store(database)
    try:
        assert store.audit() == []
        books = store.books()
    finally:
        store.close()
    held = (books["wallets"] + books["tables"] + books["in_hands"] + books["prize_pools"]
            + books["tournament_chips"])
    assert held == books["granted"]
    return books


def test_a_sit_and_go_filled_with_bots_is_played_to_its_end_and_pays_the_prizes(
        quick_server: Server) -> None:
    with quick_server.client() as http:
        ann_id, ann = make_account(http, "Ann")
        bob_id, bob = make_account(http, "Bob")
        made = create(http, ann, variant="rotation", players=4, buy_in=250,
                      starting_stack=400, structure="turbo")
        number = made["id"]
        assert (made["status"], made["prize_pool"], made["prizes"]) == ("registering", 1000,
                                                                        [650, 350])
        assert made["levels"][0] == {"level": 1, "length": 5, "ante": 2, "bring_in": 4,
                                     "small_bet": 8, "big_bet": 16}
        listed = http.get("/api/tournaments").json()
        assert [(t["id"], t["registered"]) for t in listed] == [(number, 0)]
        for token in (ann, bob):
            answer = http.post(f"/api/tournaments/{number}/register", headers=bearer(token))
            assert answer.status_code == 200, answer.text
        again = http.post(f"/api/tournaments/{number}/register", headers=bearer(bob))
        assert (again.status_code, again.json()["code"]) == (400, "already_registered")
        assert http.get("/api/me", headers=bearer(ann)).json()["wallet"] == STARTING_WALLET - 250
        # Bob changes his mind before the start, and gets his buy-in back; then comes back.
        assert http.post(f"/api/tournaments/{number}/unregister",
                         headers=bearer(bob)).status_code == 200
        assert http.get("/api/me", headers=bearer(bob)).json()["wallet"] == STARTING_WALLET
        http.post(f"/api/tournaments/{number}/register", headers=bearer(bob))
        audited(quick_server.database)
        # A stranger may not seat bots; Ann may, and the last bot starts the tournament.
        _, eve = make_account(http, "Eve")
        refused = http.post(f"/api/tournaments/{number}/bots", json={}, headers=bearer(eve))
        assert refused.json()["code"] == "not_registered"
        filled = http.post(f"/api/tournaments/{number}/bots", json={}, headers=bearer(ann))
        assert filled.status_code == 200, filled.text
        assert filled.json()["status"] == "running"
        table = made["table"]
        with TableClient(quick_server.ws, table, ann) as client:
            state = client.first_state()
            assert state["table"]["tournament"]["id"] == number
            assert state["table"]["rotation"]["games"] == ["razz", "stud", "stud8"]
            for message in ({"type": "leave"}, {"type": "sit", "seat": 1, "buy_in": 100},
                            {"type": "add_bot", "seat": 1, "bot": "random"},
                            {"type": "pause"}):
                assert client.error_for(message)["code"] == "tournament_table", message
            assert client.error_for({"type": "dance"})["code"] == "bad_message"
        # Ann and Bob are not at the table: their clocks run out, they are away, and they are
        # dealt in to the end (antes and bring-ins posted, folded when they must act).
        over = until_over(http, number)
    standings = over["standings"]
    assert sorted(s["place"] for s in standings) in ([1, 2, 3, 4], [1, 2, 3, 3], [1, 2, 2, 4],
                                                     [1, 3, 3, 3], [1, 2, 2, 2])
    assert sum(s["prize"] for s in standings) == 1000
    assert [s["place"] for s in standings] == sorted(s["place"] for s in standings)
    winner = standings[0]
    assert winner["place"] == 1 and winner["prize"] >= 650
    books = audited(quick_server.database)
    assert books["prize_pools"] == 0 and books["tournament_chips"] == 0
    with quick_server.client() as http:
        for who, token in (("Ann", ann), ("Bob", bob)):
            mine = next(s for s in standings if s["name"] == who)
            wallet = http.get("/api/me", headers=bearer(token)).json()["wallet"]
            assert wallet == STARTING_WALLET - 250 + mine["prize"], who
        # The results stay; the hands are kept with their games named.
        assert http.get(f"/api/tournaments/{number}").json()["standings"] == standings
        kept = http.get(f"/api/tournaments/{number}/hands?limit=100").json()
        # The next page: the hands numbered below a given one, newest first.
        older = http.get(f"/api/tournaments/{number}/hands",
                         params={"limit": 3, "before": kept[1]["number"]}).json()
        assert [h["id"] for h in older] == [h["id"] for h in kept[2:5]]
        assert kept and {h["variant"] for h in kept if h["result"] == "finished"} <= {
            "razz", "stud", "stud8"}
        assert http.get(f"/api/hands/{kept[0]['id']}.phh").status_code == 200
        # As a table's last hands: those Ann played carry her own seat, cards and result.
        annes = http.get(f"/api/tournaments/{number}/hands?limit=100",
                         headers=bearer(ann)).json()
        played = [h for h in annes if "mine" in h]
        assert played and all(len(h["mine"]["cards"]) >= 3 for h in played)
        assert not any("mine" in h for h in kept)  # a stranger's list: nobody's own cards
    store = Store(quick_server.database)
    try:
        games = {loads(store.hand_phh(h["id"]) or "").variant
                 for h in store.recent_hands(table, 100) if h["result"] == "finished"}
        # razz, stud and stud hi/lo in turn, four hands each: one game or more was played
        assert games <= {"FR", "F7S", "F7S/8"} and len(games) >= 2, games
        assert store.tournament(number).level >= 2
        # Away, Ann and Bob were dealt every hand until they went out (antes posted, folded).
        dealt = {n: {a for _s, a, _st in players} for n, players in _players(store, table)}
        for who, account in (("Ann", ann_id), ("Bob", bob_id)):
            out = next(s["hand"] for s in standings if s["name"] == who)
            assert all(account in dealt[n] for n in range(1, out + 1)), who
    finally:
        store.close()


def _players(store: Store, table: int) -> list[tuple[int, list[list[int]]]]:
    """Each hand of the table (its number) and its players: [table seat, account, stack]."""
    with store.engine.connect() as db:
        return [(r.number, r.players) for r in db.execute(
            select(hands.c.number, hands.c.players).where(hands.c.table_id == table))]


def test_a_tournament_refuses_bad_fields_by_name_and_levels_may_go_by_minutes(
        quick_server: Server) -> None:
    with quick_server.client() as http:
        _, ann = make_account(http, "Zed")
        for fields, field in (({"variant": "holdem"}, "variant"), ({"players": 9}, "players"),
                              ({"buy_in": 0}, "buy_in"), ({"structure": "slow"}, "structure"),
                              ({"starting_stack": 50}, "starting_stack"),
                              ({"per": "orbits"}, "per"), ({"name": ""}, None)):
            answer = http.post("/api/tournaments", json=fields, headers=bearer(ann))
            if field is None:  # an empty name is the house's default name
                assert answer.status_code == 201, answer.text
                continue
            assert (answer.status_code, answer.json()["field"]) == (400, field), answer.text
            assert field in answer.json()["detail"]
        made = create(http, ann, variant="razz", players=2, per="minutes", structure="turbo")
        assert http.get("/api/tournaments/999").status_code == 404
        assert http.get("/tournaments/999").status_code == 404
        # Bots alone: it starts at once, and level 2 is five minutes away.
        http.post(f"/api/tournaments/{made['id']}/bots", json={"bots": ["random", "random"]},
                  headers=bearer(ann))
        now = http.get(f"/api/tournaments/{made['id']}").json()["now"]
        assert (now["status"], now["level"], now["next"]["level"]) == ("running", 1, 2)
        assert 4.5 * 60_000 < now["next"]["in_ms"] <= 5 * 60_000
        # Play now never sends a player to a tournament's table.
        answer = http.post("/api/play-now", json={"variant": "razz"}, headers=bearer(ann))
        assert answer.json()["table"]["id"] != made["table"]


def play_hand(store: Store, table: int, number: int, starts: dict[int, tuple[int, int]],
              finals: dict[int, int]) -> None:
    """A hand kept as the room keeps one: the stacks in at its start, the final ones out."""
    players = [HandPlayer(seat, account, stack) for seat, (account, stack) in starts.items()]
    hand_id = store.start_hand(table, number, players)
    store.finish_hand(hand_id, [finals[seat] for seat in starts], 'variant = "F7S"\n',
                      'variant = "F7S"\n', [f"hand {number}"])


def test_busts_are_placed_by_their_stacks_at_the_hands_start_and_ties_share_the_prizes(
        database: str) -> None:
    store = Store(database)
    try:
        people = [store.create_account(name)[0] for name in ("P1", "P2", "P3", "P4")]
        made = store.create_tournament("Ties", "stud", 4, 4, 100, 1000, "standard", "hands",
                                       (260, 140), Variant.STUD, Stakes.for_limit(20),
                                       PROFILES["standard"], 30, people[0].id)
        for account in people:
            store.register(made.id, account.id, 30_000)
        table, ids = made.table_id, {k: a.id for k, a in enumerate(people, start=1)}
        # Hand 1: seat 4 loses half its stack to seat 1.
        play_hand(store, table, 1, {s: (ids[s], 1000) for s in ids},
                  {1: 1500, 2: 1000, 3: 1000, 4: 500})
        assert store.place_busts(made.id) == [] and store.audit() == []
        # Hand 2: seats 3 and 4 go out together: 3 started with more, so it places higher.
        play_hand(store, table, 2, {1: (ids[1], 1500), 2: (ids[2], 1000), 3: (ids[3], 1000),
                                    4: (ids[4], 500)}, {1: 3000, 2: 1000, 3: 0, 4: 0})
        placed = store.place_busts(made.id)
        assert [(e.seat, e.place, e.tied, e.hand) for e in placed] == [(3, 3, 1, 2),
                                                                        (4, 4, 1, 2)]
        assert store.place_busts(made.id) == []  # placed once, however often asked
        assert store.audit() == []
        # Hand 3: seat 2 goes out; seat 1 wins, and the prizes are paid.
        play_hand(store, table, 3, {1: (ids[1], 3000), 2: (ids[2], 1000)}, {1: 4000, 2: 0})
        placed = store.place_busts(made.id)
        assert [(e.seat, e.place) for e in placed] == [(2, 2), (1, 1)]
        assert store.tournament(made.id).status == "finished"
        assert {e.seat: e.prize for e in store.entries(made.id)} == {1: 260, 2: 140, 3: 0,
                                                                      4: 0}
        wallets = [store.account(a.id).wallet for a in people]
        assert wallets == [STARTING_WALLET - 100 + 260, STARTING_WALLET - 100 + 140,
                           STARTING_WALLET - 100, STARTING_WALLET - 100]
        assert store.audit() == [] and store.seats(table) == []
        books = store.books()
        assert (books["prize_pools"], books["tournament_chips"], books["tables"]) == (0, 0, 0)
    finally:
        store.close()


def test_three_equal_stacks_out_in_one_hand_tie_and_share_the_prizes_of_their_places(
        database: str) -> None:
    store = Store(database)
    try:
        people = [store.create_account(name)[0] for name in ("Q1", "Q2", "Q3", "Q4")]
        made = store.create_tournament("Tie", "stud", 4, 4, 100, 1000, "turbo", "hands",
                                       (260, 140), Variant.STUD, Stakes.for_limit(20),
                                       PROFILES["standard"], 30, None)
        for account in people:
            store.register(made.id, account.id, 30_000)
        ids = {k: a.id for k, a in enumerate(people, start=1)}
        play_hand(store, made.table_id, 1, {s: (ids[s], 1000) for s in ids},
                  {1: 4000, 2: 0, 3: 0, 4: 0})
        store.place_busts(made.id)
        finishes = {e.seat: (e.place, e.tied, e.prize) for e in store.entries(made.id)}
        # 2nd to 4th shared: (140 + 0 + 0) / 3, the odd chips to the earlier seats.
        assert finishes == {1: (1, 1, 260), 2: (2, 3, 47), 3: (2, 3, 47), 4: (2, 3, 46)}
        assert store.audit() == []
    finally:
        store.close()


def test_the_tables_level_line_counts_the_hand_just_over_and_stops_at_the_end(
        quick_server: Server) -> None:
    """Every state the table sends counts the hand just over as played (its level's hands to
    go do not go back up when it ends), and once the tournament is over there is no next
    level, and the level named is the one whose stakes were last played."""
    with quick_server.client() as http:
        _, ann = make_account(http, "Una")
        made = create(http, ann, variant="razz", players=3, structure="turbo",
                      starting_stack=200)
        with TableClient(quick_server.ws, made["table"], timeout=60) as watcher:
            http.post(f"/api/tournaments/{made['id']}/bots",
                      json={"bots": ["random", "random", "random"]}, headers=bearer(ann))
            last = watcher.until_state(
                lambda s: s["table"]["tournament"]["status"] == "finished",
                what="the tournament's end")
    seen = 0
    for frame in watcher.frames:
        if frame.get("type") != "state" or frame["table"]["tournament"]["status"] != "running":
            continue
        hand, now = frame.get("hand"), frame["table"]["tournament"]
        if hand is None:
            continue
        seen += 1
        played = hand["number"] if hand["over"] else hand["number"] - 1
        assert now["hands"] == played, (hand["number"], hand["over"], now)
        ends = 5 * now["level"]  # turbo by hands: five hands a level
        assert now["next"]["in_hands"] == ends - played - (0 if hand["over"] else 1), now
    assert seen > 10
    over = last["table"]["tournament"]
    assert over["next"] is None
    assert over["stakes"] == {k: last["table"]["stakes"][k]
                              for k in ("ante", "bring_in", "small_bet", "big_bet")}
