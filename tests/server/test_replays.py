"""Your hands and the replayer over HTTP: your own down cards go to you and to nobody else.

Two accounts and a bot play a few hands at one table; then every answer each account (and a
client with no account) gets about those hands is searched for the down cards of the other
seats that were never shown, in its raw text. The dealer's PHH in the database says which
cards those are.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from stud.history.phh import dumps_all, load, loads
from stud.rules import PROFILES, Stakes, Variant
from stud.server.replays import MAX_PHH_BYTES
from stud.server.schema import hands
from stud.server.store import HandPlayer, Store

from .conftest import Server
from .wsclient import Frame, TableClient, bearer, finished, make_account, make_table, play

HANDS = 6
WSOP = Path(__file__).resolve().parents[3] / "shared" / "data" / "phh" / "wsop-2023-43-5"
CARDS = re.compile(r"(?<![A-Za-z0-9?])((?:[2-9TJQKA][shdc]|\?\?)+)(?![A-Za-z0-9?])")


def cards_in(text: str) -> set[str]:
    """Every card named in a text: JSON strings like "As", PHH runs like "AsKd??"."""
    return {run[k:k + 2] for run in CARDS.findall(text) for k in range(0, len(run), 2)} - {"??"}


@dataclass(frozen=True)
class Dealt:
    """One finished hand as the dealer knew it: by table seat, each seat's down cards that
    were never shown (nobody but the seat's owner may see them)."""

    hand_id: int
    number: int
    hidden: dict[int, set[str]]
    own: dict[int, list[str]]  # every card of each seat, in dealing order
    down: dict[int, set[str]]  # each seat's down cards, shown or not

    def foreign(self, seat: int | None) -> set[str]:
        return {c for s, cards in self.hidden.items() if s != seat for c in cards}


def _by_seat(text: str) -> tuple[list[int], dict[int, list[str]]]:
    history = loads(text)
    seats = list(history.fields["seats"])  # type: ignore[arg-type]
    cards: dict[int, list[str]] = {s: [] for s in seats}
    for line in history.actions:
        parts = line.split()
        if parts[:2] == ["d", "dh"]:
            seat = seats[int(parts[2][1:]) - 1]
            cards[seat] += [parts[3][k:k + 2] for k in range(0, len(parts[3]), 2)]
    return seats, cards


def dealt_hands(server: Server, table: int) -> dict[int, Dealt]:
    store = Store(server.database)
    try:
        with store.engine.connect() as db:
            rows = db.execute(select(hands.c.id, hands.c.number, hands.c.phh,
                                     hands.c.dealer_phh).where(
                hands.c.table_id == table, hands.c.status == "finished")).all()
    finally:
        store.close()
    out = {}
    for row in rows:
        _, every = _by_seat(row.dealer_phh)
        _, public = _by_seat(row.phh)
        seen = cards_in(row.phh)
        down = {s: {c for c, p in zip(every[s], public[s], strict=True) if p == "??"}
                for s in every}
        hidden = {s: cards - seen for s, cards in down.items()}
        out[row.id] = Dealt(row.id, row.number, hidden, every, down)
    return out


@dataclass
class Played:
    server: Server
    table: int
    tokens: dict[int, str]  # table seat -> the account's token
    dealt: dict[int, Dealt]

    def http(self, seat: int | None = None) -> httpx.Client:
        client = self.server.client()
        if seat is not None:
            client.headers.update(bearer(self.tokens[seat]))
        return client


def _choose(rng: random.Random, frame: Frame) -> Frame:
    legal = frame["hand"]["legal"]
    kinds = {e["action"]: e for e in legal}
    if rng.random() < 0.1 and "fold" in kinds:
        return kinds["fold"]
    for kind in ("check", "call", "bring_in"):
        if kind in kinds:
            return kinds[kind]
    return legal[0]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    """Seats 2 and 4: two accounts; seat 6: a calling station. A few hands, then they stop."""
    from .conftest import serve_in_thread

    database = f"sqlite:///{tmp_path_factory.mktemp('replays') / 'stud.db'}"
    with serve_in_thread(database) as server, server.client() as http:
        tokens: dict[int, str] = {}
        _, owner = make_account(http)
        table = make_table(http, owner, variant="stud8", seats=6)
        clients: list[TableClient] = []
        try:
            for seat in (2, 4):
                _, token = make_account(http)
                tokens[seat] = token
                client = TableClient(server.ws, table, token)
                clients.append(client)
                client.first_state()
                client.send({"type": "sit", "seat": seat, "buy_in": 400})
                client.until_state(lambda f, s=seat: f["you"]["seat"] == s)
            clients[0].send({"type": "add_bot", "seat": 6, "bot": "station", "buy_in": 400})
            rng = random.Random(3)
            play(clients, lambda: all(finished(HANDS)(c.state or {}) for c in clients),
                 lambda client, frame: _choose(rng, frame), timeout=60)
            for client in clients:
                client.send({"type": "sit_out"})
        finally:
            for client in clients:
                client.close()
        yield Played(server, table, tokens, dealt_hands(server, table))


def no_foreign_cards(text: str, dealt: Dealt, seat: int | None, where: str) -> None:
    leaked = cards_in(text) & dealt.foreign(seat)
    assert not leaked, f"{where}: hand {dealt.hand_id} shows {sorted(leaked)}, down cards " \
                       f"of seats other than {seat} that were never shown"


VIEWERS = [2, 4, None]


# ---------------------------------------------------------------------- your hands


@pytest.mark.parametrize("seat", [2, 4])
def test_your_hands_list_the_hands_you_played_with_your_own_cards_and_result(
        played: Played, seat: int) -> None:
    with played.http(seat) as http:
        answer = http.get("/api/me/hands")
    assert answer.status_code == 200, answer.text
    rows = answer.json()
    assert {r["id"] for r in rows} <= set(played.dealt)
    assert len(rows) >= HANDS - 1  # the last hand may have been dealt after the stop
    assert [r["id"] for r in rows] == sorted((r["id"] for r in rows), reverse=True)
    for row in rows:
        dealt = played.dealt[row["id"]]
        assert row["seat"] == seat and row["table"] == played.table
        assert [c["card"] for c in row["cards"]] == dealt.own[seat]
        assert row["net"] == row["final"] - row["start"]
        assert row["variant"] == "stud8"
        no_foreign_cards(str(row), dealt, seat, "/api/me/hands")


def test_your_hands_page_by_page_with_before(played: Played) -> None:
    with played.http(2) as http:
        every = [r["id"] for r in http.get("/api/me/hands").json()]
        first = http.get("/api/me/hands", params={"limit": 2}).json()
        rest = http.get("/api/me/hands", params={"before": first[-1]["id"]}).json()
        assert [r["id"] for r in first] + [r["id"] for r in rest] == every
        assert http.get("/api/me/hands", params={"limit": 0}).status_code == 400
        assert http.get("/api/me/hands", params={"limit": "x"}).status_code == 400


def test_your_hands_need_an_account(played: Played) -> None:
    with played.http() as http:
        answer = http.get("/api/me/hands")
    assert answer.status_code == 401
    assert "nickname" in answer.json()["detail"]


# ---------------------------------------------------------------------- the replayer


def seat_cards(replay: dict[str, Any], hand_seat: int) -> list[str | None]:
    last = replay["steps"][-1]["seats"][hand_seat - 1]
    return [c["card"] for c in last["cards"]]


@pytest.mark.parametrize("seat", VIEWERS)
def test_a_hands_replay_shows_you_your_own_down_cards_and_nobody_elses(
        played: Played, seat: int | None) -> None:
    shown_seen = 0  # others' down cards shown at a showdown, there to be seen
    with played.http(seat) as http:
        for hand_id, dealt in played.dealt.items():
            answer = http.get(f"/api/hands/{hand_id}/replay")
            assert answer.status_code == 200, answer.text
            no_foreign_cards(answer.text, dealt, seat, f"/api/hands/{hand_id}/replay")
            shown = {c for s, cards in dealt.down.items() if s != seat for c in cards}
            shown_seen += len(cards_in(answer.text) & (shown - dealt.foreign(seat)))
            replay = answer.json()
            seats = [p["table_seat"] for p in replay["players"]]
            if seat is None:
                assert replay["you"] is None
                continue
            assert replay["you"] == seats.index(seat) + 1
            assert seat_cards(replay, replay["you"]) == dealt.own[seat]
            assert replay["over"] and replay["checked"]  # the stacks the table kept
            for street in replay["streets"]:
                if street["seats"]:
                    assert sum(e["equity"] for e in street["seats"]) == pytest.approx(1.0)
    assert shown_seen, "no hand was shown at a showdown: nothing showed the check can see"


@pytest.mark.parametrize("seat", VIEWERS)
def test_your_phh_of_a_hand_has_your_cards_and_nobody_elses(
        played: Played, seat: int | None) -> None:
    with played.http(seat) as http:
        for hand_id, dealt in played.dealt.items():
            answer = http.get(f"/api/hands/{hand_id}/mine.phh")
            assert answer.status_code == 200, answer.text
            assert "attachment" in answer.headers["content-disposition"]
            no_foreign_cards(answer.text, dealt, seat, f"/api/hands/{hand_id}/mine.phh")
            if seat is not None:
                _, cards = _by_seat(answer.text)
                assert cards[seat] == dealt.own[seat]


@pytest.mark.parametrize("seat", VIEWERS)
def test_the_tables_last_hands_carry_your_own_cards_for_you_alone(
        played: Played, seat: int | None) -> None:
    with played.http(seat) as http:
        answer = http.get(f"/api/tables/{played.table}/hands", params={"limit": 20})
    assert answer.status_code == 200, answer.text
    rows = answer.json()
    assert rows
    for row in rows:
        if row["id"] not in played.dealt:
            continue
        dealt = played.dealt[row["id"]]
        no_foreign_cards(str(row), dealt, seat, "/api/tables/{id}/hands")
        if seat is None:
            assert "mine" not in row
        else:
            assert row["mine"]["seat"] == seat
            assert [c["card"] for c in row["mine"]["cards"]] == dealt.own[seat]


def test_a_hand_that_does_not_exist_has_no_replay(played: Played) -> None:
    with played.http(2) as http:
        for hand_id in (999_999, 0, -3):
            assert http.get(f"/api/hands/{hand_id}/replay").status_code == 404
            assert http.get(f"/api/hands/{hand_id}/mine.phh").status_code == 404


# ---------------------------------------------------------------------- uploads


def test_an_uploaded_phh_file_is_replayed(played: Played) -> None:
    path = WSOP / "10.phh"
    if not path.exists():
        pytest.skip(f"{path} is missing")
    with played.http() as http:
        answer = http.post("/api/replays", content=path.read_bytes(),
                           headers={"Content-Type": "text/plain"})
    assert answer.status_code == 200, answer.text
    replay = answer.json()
    history = load(path)
    assert replay["variant"] == "stud" and replay["checked"] and replay["over"]
    assert [p["final"] for p in replay["players"]] == history.finishing_stacks
    assert [p["name"] for p in replay["players"]] == history.fields["players"]
    assert replay["steps"][0]["kind"] == "antes"
    assert replay["you"] is None


def test_an_uploaded_phhs_file_is_replayed_hand_by_hand(played: Played) -> None:
    """A ``.phhs`` (several hands: [1], [2], ...): its first hand, or the one ``?hand=``
    names, with the names of all of them; a name it lacks is refused, naming those it has."""
    paths = sorted(WSOP.glob("*.phh"))[:3]
    if len(paths) < 3:
        pytest.skip(f"{WSOP} is missing")
    histories = [load(path) for path in paths]
    text = dumps_all(histories).encode()
    with played.http() as http:
        first = http.post("/api/replays", content=text).json()
        third = http.post("/api/replays", params={"hand": "3"}, content=text).json()
        missing = http.post("/api/replays", params={"hand": "9"}, content=text)
    assert first["bundle"] == {"hands": ["1", "2", "3"], "hand": "1"}
    assert third["bundle"] == {"hands": ["1", "2", "3"], "hand": "3"}
    assert [p["final"] for p in first["players"]] == histories[0].finishing_stacks
    assert [p["final"] for p in third["players"]] == histories[2].finishing_stacks
    assert missing.status_code == 400
    assert missing.json()["detail"] == ("the uploaded file has no hand [9]: its hands are "
                                        "[1], [2], [3]")


@pytest.mark.parametrize(("body", "code", "words"), [
    (b"", "bad_phh", "empty"),
    (b"variant = 'F7S'\n", "bad_phh", "'antes' is missing"),
    (b"\xff\xfe\x00garbage", "bad_phh", "UTF-8"),
    (b"x" * (MAX_PHH_BYTES + 1), "phh_too_large", "KiB"),
    (b'variant = "F7S"\nantes = [1, 1]\nbring_in = 1\nsmall_bet = 2\nbig_bet = 4\n'
     b'starting_stacks = [50, 50]\nactions = ["d dh p1 AsAd2c", "d dh p2 KhKd3c", "p2 pb"]\n',
     "bad_phh", "seat 1's turn"),
])
def test_a_bad_upload_is_refused_with_a_clear_reason(played: Played, body: bytes, code: str,
                                                     words: str) -> None:
    with played.http() as http:
        answer = http.post("/api/replays", content=body)
    assert answer.status_code == 400, answer.text
    refused = answer.json()
    assert refused["code"] == code
    assert words in refused["detail"], refused
    if words == "seat 1's turn":
        assert (refused["index"], refused["line"]) == (2, "p2 pb")


def test_the_replayer_and_your_hands_pages_are_served(played: Played) -> None:
    with played.http() as http:
        for path, module in (("/replayer", "replayer.js"), ("/me/hands", "hands.js")):
            answer = http.get(path)
            assert answer.status_code == 200
            assert module in answer.text
            assert '<link rel="icon" href="/static/favicon.svg"' in answer.text
        icon = http.get("/favicon.ico")  # asked for by browsers whatever the page says
        assert icon.status_code == 200 and icon.headers["content-type"] == "image/svg+xml"
        assert icon.text.startswith("<svg")


def test_ids_past_what_the_database_holds_are_not_found_on_both_databases(
        database: str) -> None:
    """A hand, table or tournament id no INTEGER column holds (PostgreSQL's end at 2**31 - 1)
    is one that does not exist (404), or a bad page start (400): never a server error."""
    from .conftest import serve_in_thread

    big = 99_999_999_999
    with serve_in_thread(database) as server, server.client() as http:
        _, token = make_account(http, "Ida")
        for path in (f"/api/hands/{big}.phh", f"/api/hands/{big}/replay",
                     f"/api/hands/{big}/mine.phh", f"/api/tables/{big}",
                     f"/api/tables/{big}/hands", f"/api/tournaments/{big}",
                     f"/api/tournaments/{big}/hands", f"/tables/{big}",
                     f"/tournaments/{big}"):
            assert http.get(path, headers=bearer(token)).status_code == 404, path
        answer = http.get("/api/me/hands", params={"before": big}, headers=bearer(token))
        assert answer.status_code == 400 and "before must be a hand id" in answer.text


# ---------------------------------------------------------------------- hands with no replay


@dataclass(frozen=True)
class Unplayable:
    """Hands of one table that have no replay, beside the hands of another table played in
    between (so that a hand's id is not its number at its table)."""

    table: str
    voided: int  # the id of hand #13 at the table, voided
    running: int  # the id of hand #15 there, still running
    private_voided: int  # hand #2 of a private table, voided
    host_token: str  # the private table's host


def unplayable_hands(database: str) -> Unplayable:
    """Written straight to the store of a server already started (which voids the hands left
    running only when it starts); the tables are closed, so no room deals at them."""
    store = Store(database)
    try:
        host, host_token = store.create_account("Host")
        players = []
        for seat in (1, 2):
            account, _ = store.create_account(f"Player{seat}")
            players.append(account)

        def table(name: str, private: bool = False) -> tuple[int, list[HandPlayer]]:
            spec = store.create_table(name, Variant.STUD, Stakes.for_limit(2),
                                      PROFILES["standard"], 4, 30, host.id, private)
            for seat, account in enumerate(players, 1):
                store.sit(spec.id, seat, account.id, 100)
            return spec.id, [HandPlayer(s, a.id, 100) for s, a in enumerate(players, 1)]

        night, at_night = table("Night owls")
        other, at_other = table("Early birds")
        ids = {}
        for number in range(1, 16):
            for table_id, seated in ((night, at_night), (other, at_other)):
                ids[table_id, number] = hand_id = store.start_hand(table_id, number, seated)
                if (table_id, number) == (night, 13):
                    store.void_hand(hand_id)
                elif (table_id, number) != (night, 15):
                    store.finish_hand(hand_id, [100, 100], "phh", "phh", ["text"])
        private, at_private = table("Hidden", private=True)
        store.finish_hand(store.start_hand(private, 1, at_private), [100, 100], "phh", "phh",
                          ["text"])
        hidden = store.start_hand(private, 2, at_private)
        store.void_hand(hidden)
        store.close_table(other)
        store.close_table(private)
        return Unplayable("Night owls", ids[night, 13], ids[night, 15], hidden, host_token)
    finally:
        store.close()


def test_a_voided_or_running_hand_has_no_replay_and_the_answer_says_which_and_where(
        server: Server) -> None:
    """The replayer's hand id is the server's; the table page calls the same hand by its
    number there ("Hand #13"): the answer names both, and why there is nothing to replay."""
    hands = unplayable_hands(server.database)
    assert hands.voided != 13
    with server.client() as http:
        for path in (f"/api/hands/{hands.voided}/replay", f"/api/hands/{hands.voided}/mine.phh"):
            answer = http.get(path)
            assert answer.status_code == 404, answer.text
            assert answer.json() | {"detail": ""} == {
                "detail": "", "code": "hand_voided", "hand": hands.voided, "table": "Night owls",
                "table_id": answer.json()["table_id"], "number": 13}
            assert "voided" in answer.json()["detail"]
            assert "#13" in answer.json()["detail"]
        running = http.get(f"/api/hands/{hands.running}/replay").json()
        assert (running["code"], running["table"]) == ("hand_running", "Night owls")
        assert "still being played" in running["detail"]
        missing = http.get("/api/hands/999999/replay")
        assert missing.status_code == 404
        assert missing.json()["code"] == "no_hand"


def test_a_hand_of_a_private_table_is_refused_as_private_before_anything_is_said_of_it(
        server: Server) -> None:
    hands = unplayable_hands(server.database)
    with server.client() as http:
        for path in (f"/api/hands/{hands.private_voided}/replay",
                     f"/api/hands/{hands.private_voided}/mine.phh"):
            refused = http.get(path)
            assert refused.status_code == 403, refused.text
            assert refused.json()["code"] == "private_hand"
            assert "Hidden" not in refused.text  # not even the table's name
            # Its host may see it: and learns that it was voided.
            seen = http.get(path, headers=bearer(hands.host_token))
            assert (seen.status_code, seen.json()["code"]) == (404, "hand_voided")
            assert (seen.json()["table"], seen.json()["number"]) == ("Hidden", 2)


def test_a_bad_hand_of_a_phhs_is_refused_with_the_files_hands_to_choose_another(
        played: Played) -> None:
    """A .phhs whose hand [2] deals a card twice: that hand is refused, and the answer still
    names every hand of the file (the replayer keeps its list), the first and third replay."""
    paths = sorted(WSOP.glob("*.phh"))[:3]
    if len(paths) < 3:
        pytest.skip(f"{WSOP} is missing")
    text = corrupted_second_hand([load(path) for path in paths])
    with played.http() as http:
        bad = http.post("/api/replays", params={"hand": "2"}, content=text.encode())
        first = http.post("/api/replays", content=text.encode())
        third = http.post("/api/replays", params={"hand": "3"}, content=text.encode())
    assert bad.status_code == 400, bad.text
    assert bad.json()["bundle"] == {"hands": ["1", "2", "3"], "hand": "2"}
    assert bad.json()["line"] == "d dh p4 9s9s2s"
    assert first.status_code == third.status_code == 200
    assert third.json()["bundle"] == {"hands": ["1", "2", "3"], "hand": "3"}


def corrupted_second_hand(histories: list[Any]) -> str:
    """The .phhs of these hands with hand [2]'s first deal to p4 made ``d dh p4 9s9s2s``."""
    text = dumps_all(histories)
    start, end = text.index("[2]"), text.index("[3]")
    second = re.sub(r'"d dh p4 [^"]*"', '"d dh p4 9s9s2s"', text[start:end], count=1)
    assert second != text[start:end]
    return text[:start] + second + text[end:]
