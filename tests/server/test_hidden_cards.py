"""No frame ever holds a down card of another seat before that seat shows it.

Humans driven by these tests, bots and watchers share a table for many hands while every frame
each client receives is kept; the server's own record of every card (the dealer's PHH in the
database) then says which cards each client must not have seen, and when.
"""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from sqlalchemy import select

from stud.history.phh import loads
from stud.server.schema import hands
from stud.server.store import Store

from .conftest import Server
from .wsclient import Frame, TableClient, finished, make_account, make_table, play

HANDS = 30
HUMANS = (1, 3, 6)
BOTS = ((2, "random"), (5, "station"))


@dataclass(frozen=True)
class Truth:
    """Every card of one finished hand, by table seat, and which of them were dealt down."""

    cards: dict[int, list[str]]
    down: dict[int, list[bool]]

    def down_cards(self, seat: int) -> list[str]:
        return [c for c, d in zip(self.cards[seat], self.down[seat], strict=True) if d]


def _dealt(text: str) -> tuple[list[int], dict[int, list[str]]]:
    history = loads(text)
    seats = list(history.fields["seats"])  # type: ignore[arg-type]
    cards: dict[int, list[str]] = {seat: [] for seat in seats}
    for line in history.actions:
        parts = line.split()
        if parts[:2] == ["d", "dh"]:
            seat = seats[int(parts[2][1:]) - 1]
            cards[seat] += [parts[3][k:k + 2] for k in range(0, len(parts[3]), 2)]
    return seats, cards


def truths(server: Server, table: int) -> dict[int, Truth]:
    """From the database: the dealer's PHH names every card, the public one hides the down ones."""
    store = Store(server.database)
    try:
        with store.engine.connect() as db:
            rows = db.execute(select(hands.c.number, hands.c.phh, hands.c.dealer_phh).where(
                hands.c.table_id == table, hands.c.status == "finished")).all()
    finally:
        store.close()
    out = {}
    for row in rows:
        _, cards = _dealt(row.dealer_phh)
        _, public = _dealt(row.phh)
        assert all("??" not in c for c in cards.values())
        out[row.number] = Truth(cards, {s: [c == "??" for c in public[s]] for s in cards})
    return out


def _shown_seats(events: list[Frame]) -> set[int]:
    return {e["seat"] for e in events if e["kind"] == "shown"}


def _visible(part: Frame | None, seats: list[Frame | None] | None) -> set[str]:
    """Every card a part of a frame names (its events, showdown, board, and the seats)."""
    found: set[str] = set()
    if part is not None:
        found.update(part["board"])
        for event in part["events"]:
            if event["kind"] in ("card", "board") and event["card"] is not None:
                found.add(event["card"])
            if event["kind"] == "shown":
                found.update(event["cards"])
        for shown in (part["showdown"] or {}).get("shown", []):
            found.update(shown["cards"])
    for entry in seats or []:
        if entry is not None:
            found.update(c["card"] for c in entry["cards"] if c["card"] is not None)
    return found


@dataclass
class Audit:
    """What the checks looked at, so that a run that checked nothing fails."""

    hidden_checked: int = 0  # (frame, hidden card) pairs searched for in the raw text
    own_seen: int = 0  # frames in which a seat saw its own down cards
    shown_seen: int = 0  # other seats' hands shown (so their cards could be seen)


def check_frame(raw: str, frame: Frame, own: int | None, truth: dict[int, Truth],
                audit: Audit) -> None:
    """Assert that ``frame``, sent to the client owning seat ``own`` (None: no seat), holds no
    down card of another seat that had not shown it by then."""
    if frame.get("type") != "state":
        assert "card" not in raw, raw
        return
    hand, last = frame["hand"], frame["last"]
    # The hand in play: the seats' cards and the events.
    if hand is not None:
        shown = _shown_seats(hand["events"]) | {
            e["seat"] for e in frame["seats"] if e is not None and e["shown"]}
        for entry in frame["seats"]:
            if entry is None or not entry["in_hand"]:
                continue
            seat = entry["seat"]
            for k, card in enumerate(entry["cards"]):
                if card["up"]:
                    assert card["card"] is not None
                    continue
                if seat == own:
                    assert card["card"] is not None, f"seat {own} does not see its own card"
                    audit.own_seen += 1
                elif card["card"] is not None:
                    assert seat in shown, f"hand {hand['number']}: seat {seat}'s down card " \
                        f"{card['card']} sent to seat {own} before it was shown"
                    audit.shown_seen += 1
                known = truth.get(hand["number"])
                if known is not None and card["card"] is not None:
                    assert card["card"] == known.cards[seat][k]
        _check_events(hand, own, audit)
    if last is not None:
        _check_events(last, own, audit)
    # The raw text: no hidden card of either hand appears anywhere in it.
    for part, seats, other in ((hand, frame["seats"], (last, None)),
                               (last, None, (hand, frame["seats"]))):
        if part is None or part["number"] not in truth:
            continue
        known = truth[part["number"]]
        shown = _shown_seats(part["events"]) | {
            e["seat"] for e in seats or [] if e is not None and e["shown"]}
        elsewhere = _visible(*other)  # the other hand's cards may be any cards
        for seat in known.cards:
            if seat == own or seat in shown:
                continue
            for card in known.down_cards(seat):
                if card in elsewhere:
                    continue
                audit.hidden_checked += 1
                assert f'"{card}"' not in raw, f"hand {part['number']}: seat {seat}'s down " \
                    f"card {card} is in a frame sent to seat {own}"


def _check_events(part: Frame, own: int | None, audit: Audit) -> None:
    shown = _shown_seats(part["events"])
    for event in part["events"]:
        if event["kind"] != "card" or event["up"]:
            continue
        if event["seat"] == own:
            assert event["card"] is not None, f"seat {own} does not see its own card"
        elif event["card"] is not None:
            assert event["seat"] in shown, f"hand {part['number']}: seat {event['seat']}'s " \
                f"down card {event['card']} sent to seat {own} before it was shown"
    audit.shown_seen += len(shown - {own})


def choose(rng: random.Random, frame: Frame) -> Frame:
    """Mostly check or call, sometimes fold, sometimes bet or raise: showdowns and folds."""
    legal = frame["hand"]["legal"]
    by_kind = {e["action"]: e for e in legal}
    roll = rng.random()
    if roll < 0.12 and "fold" in by_kind:
        return by_kind["fold"]
    if roll < 0.35:
        wagers = [e for e in legal if e["action"] in ("complete", "bet", "raise")]
        if wagers:
            return rng.choice(wagers)
    for kind in ("check", "call", "bring_in"):
        if kind in by_kind:
            return by_kind[kind]
    return legal[0]


@pytest.fixture
def table(server: Server) -> Iterator[tuple[Server, int, list[tuple[TableClient, int | None]]]]:
    """Three humans (each its own account), two bots, a spectator and a seatless account."""
    with server.client() as http:
        _, owner = make_account(http)
        table_id = make_table(http, owner)
        clients: list[tuple[TableClient, int | None]] = []
        try:
            for seat in HUMANS:
                _, token = make_account(http)
                client = TableClient(server.ws, table_id, token)
                clients.append((client, seat))
                client.first_state()
                client.send({"type": "sit", "seat": seat, "buy_in": 1000})
                client.until_state(lambda f, s=seat: f["you"]["seat"] == s)
            for seat, bot in BOTS:
                clients[0][0].send({"type": "add_bot", "seat": seat, "bot": bot,
                                    "buy_in": 1000})
            clients.append((TableClient(server.ws, table_id), None))
            _, token = make_account(http)
            clients.append((TableClient(server.ws, table_id, token), None))
            yield server, table_id, clients
        finally:
            for client, _seat in clients:
                client.close()


def test_no_frame_holds_another_seats_down_card_before_it_is_shown(
        table: tuple[Server, int, list[tuple[TableClient, int | None]]]) -> None:
    server, table_id, clients = table
    stop = threading.Event()
    failures: list[BaseException] = []

    def human(client: TableClient, seed: int) -> None:
        rng = random.Random(seed)
        try:
            play([client], lambda: stop.is_set() or finished(HANDS)(client.state or {}),
                 lambda _c, f: choose(rng, f), timeout=90)
        except BaseException as error:  # handed to the test's thread
            failures.append(error)
            stop.set()

    def watcher(client: TableClient) -> None:
        try:
            while not stop.is_set():
                try:
                    client.receive(0.1)
                except TimeoutError:
                    pass
        except BaseException as error:
            failures.append(error)

    threads = [threading.Thread(target=human, args=(c, k)) for k, (c, seat) in
               enumerate(clients) if seat is not None]
    watchers = [threading.Thread(target=watcher, args=(c,)) for c, seat in clients
                if seat is None]
    for thread in threads + watchers:
        thread.start()
    for thread in threads:
        thread.join()
    stop.set()
    for thread in watchers:
        thread.join()
    assert not failures, failures

    truth = truths(server, table_id)
    assert len(truth) >= HANDS
    audit = Audit()
    showdowns = 0
    for client, seat in clients:
        assert not client.errors(), client.errors()
        assert len(client.raw) > HANDS
        # Most frames are small ones (deltas): their raw text is what is searched.
        assert sum(r.startswith('{"type": "delta"') for r in client.raw) > HANDS
        own = None  # no seat until the sit is answered
        for raw, frame in zip(client.raw, client.frames, strict=True):
            if frame["type"] == "state":
                assert frame["you"]["seat"] in (own, seat)
                own = frame["you"]["seat"]
            check_frame(raw, frame, own, truth, audit)
            if frame["type"] == "state" and frame["last"] and frame["last"]["showdown"]:
                showdowns += bool(frame["last"]["showdown"]["shown"])
    assert audit.hidden_checked > 1000 and audit.own_seen > 100, audit
    assert audit.shown_seen > 0 and showdowns > 0, audit


def test_the_last_hand_shows_down_cards_only_to_the_account_that_held_them(
        server: Server) -> None:
    """After a hand, its seat may change hands: the new occupant must not see the old one's
    down cards in ``last``."""
    with server.client() as http:
        _, owner = make_account(http)
        table_id = make_table(http, owner)
        _, a_token = make_account(http)
        _, b_token = make_account(http)
        with TableClient(server.ws, table_id, a_token) as a, \
                TableClient(server.ws, table_id, b_token) as b:
            a.first_state()
            b.first_state()
            a.send({"type": "sit", "seat": 1, "buy_in": 200})
            a.send({"type": "add_bot", "seat": 2, "bot": "random"})
            for _attempt in range(10):
                # Seat 1 plays one hand and sits out, so that no other hand follows it.
                turn = a.wait_for_turn()
                number = turn["hand"]["number"]
                a.send({"type": "sit_out"})
                play([a], lambda n=number: finished(n)(a.state),
                     lambda _c, f: next(e for e in f["hand"]["legal"]
                                        if e["action"] in ("fold", "check", "bring_in")))
                last = a.state["last"]
                if 1 not in _shown_seats(last["events"]):
                    break
                a.send({"type": "sit_in"})
            else:
                pytest.fail("seat 1 showed its cards in every hand")
            mine = [e["card"] for e in last["events"]
                    if e["kind"] == "card" and e["seat"] == 1 and not e["up"]]
            assert mine and all(mine), "seat 1 sees its own down cards"
            a.send({"type": "leave"})
            a.until_state(lambda f: f["seats"][0] is None)
            b.send({"type": "sit", "seat": 1, "buy_in": 200})
            frame = b.until_state(lambda f: f["you"]["seat"] == 1)
            raw = b.raw[b.frames.index(frame)]
    assert frame["last"]["number"] == number
    seen = [e["card"] for e in frame["last"]["events"]
            if e["kind"] == "card" and e["seat"] == 1 and not e["up"]]
    assert seen == [None] * len(mine), f"B sees A's down cards {seen} from hand {number}"
    assert not any(json.dumps(card) in raw for card in mine)
