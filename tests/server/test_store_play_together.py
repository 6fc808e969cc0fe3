"""The store's side of playing together (issue 12), on SQLite and PostgreSQL: each player's own
record of a hand (``hands_of``, ``own_phh``), the back-fill of migration 0004, closing a table,
the time bank and a leave kept with the seat, chat lines, mutes, invites, and accounts that say
they are bots. Every test that moves chips ends with the books balanced."""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, select

import stud.server.store
from stud.history.phh import loads
from stud.rules import PROFILES, Stakes, Variant
from stud.server.schema import hand_players, seats
from stud.server.store import HandPlayer, Store, StoreError, TableSpec, TimeBank

from .conftest import FAST, serve_in_thread
from .wsclient import Frame, TableClient, bearer, in_play, make_account

BUY_IN = 200
MIGRATIONS = Path(stud.server.store.__file__).parent / "migrations"


def new_table(store: Store, **options: object) -> TableSpec:
    return store.create_table("Main", Variant.STUD, Stakes.for_limit(2), PROFILES["standard"],
                              6, 30, **options)


def migrate(engine: Engine, direction: str, revision: str) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        getattr(command, direction)(config, revision)


def hand_player_rows(store: Store) -> dict[tuple[int, int], tuple[int, int, int | None]]:
    """(hand, account) -> (seat, start, final)."""
    with store.engine.connect() as db:
        return {(r.hand_id, r.account_id): (r.seat, r.start, r.final)
                for r in db.execute(select(hand_players))}


# ---------------------------------------------------------------------- a hand of two humans


@dataclass
class Played:
    table: int
    accounts: tuple[int, int]  # seat 1's, seat 2's
    cards: tuple[list[Frame], list[Frame]]  # each seat's cards as its own frames showed them


def folding(frame: Frame) -> Frame:
    legal = {e["action"]: e for e in frame["hand"]["legal"]}
    return next(legal[k] for k in ("fold", "check", "bring_in", "call") if k in legal)


def play_one_hand(database: str) -> Played:
    """Two humans play one hand, each folding as soon as it may (so no card is shown), and sit
    out, so that it is the only hand."""
    with serve_in_thread(database, FAST) as server, server.client() as http:
        _, host = make_account(http)
        table = http.post("/api/tables", json={"seats": 2},
                          headers=bearer(host)).json()["id"]
        players = [make_account(http) for _ in range(2)]
        with contextlib.ExitStack() as stack:
            clients = [stack.enter_context(TableClient(server.ws, table, token, timeout=5))
                       for _, token in players]
            for seat, client in enumerate(clients, 1):
                client.send({"type": "sit", "seat": seat, "buy_in": BUY_IN})
                client.until_state(lambda f, s=seat: f["you"]["seat"] == s)
            for client in clients:
                client.until_state(lambda f: in_play(f) is not None, what="the hand dealt")
                client.send({"type": "sit_out"})
            cards = tuple([e for e in client.state["seats"][seat - 1]["cards"]]
                          for seat, client in enumerate(clients, 1))
            deadline = time.monotonic() + 10
            while not all(c.state["last"] is not None for c in clients):
                assert time.monotonic() < deadline, "the hand did not end"
                for client in clients:
                    if client.my_turn(client.state):
                        client.act(client.state, folding(client.state))
                    with contextlib.suppress(TimeoutError):
                        client.receive(0.02)
            assert all(c.errors() == [] for c in clients)
    return Played(table, (players[0][0], players[1][0]), cards)


def test_each_player_of_a_hand_has_its_own_record_with_seat_cards_and_net(
        database: str) -> None:
    played = play_one_hand(database)
    store = Store(database)
    try:
        records = [store.hands_of(account) for account in played.accounts]
        assert [len(r) for r in records] == [1, 1]
        mine, theirs = records[0][0], records[1][0]
        assert mine["id"] == theirs["id"] and mine["table"] == played.table
        assert (mine["seat"], theirs["seat"]) == (1, 2)
        assert mine["number"] == 1 and mine["ended_at"] is not None
        for record, dealt in zip(records, played.cards, strict=True):
            assert [c["card"] for c in record[0]["cards"][:len(dealt)]] == \
                [c["card"] for c in dealt]
            assert [c["up"] for c in record[0]["cards"]] == [False, False, True]
            assert record[0]["start"] == BUY_IN
            assert record[0]["net"] == record[0]["final"] - record[0]["start"]
        assert mine["net"] + theirs["net"] == 0  # no rake: what one lost the other won
        assert mine["net"] != 0
        assert store.audit() == []
    finally:
        store.close()


def test_a_players_own_phh_holds_its_down_cards_and_not_the_opponents_unshown_ones(
        database: str) -> None:
    played = play_one_hand(database)
    store = Store(database)
    try:
        hand_id = int(store.hands_of(played.accounts[0])[0]["id"])
        cards = [[c["card"] for c in store.hands_of(a)[0]["cards"]]
                 for a in played.accounts]

        def third_street(text: str | None, k: int) -> str:
            assert text is not None
            return next(line for line in loads(text).actions if line.startswith(f"d dh p{k} "))

        for me, other in ((1, 2), (2, 1)):
            own = store.own_phh(hand_id, played.accounts[me - 1])
            assert third_street(own, me) == f"d dh p{me} {''.join(cards[me - 1])}"
            assert third_street(own, other) == f"d dh p{other} ????{cards[other - 1][2]}"
            assert own is not None
            for down in cards[other - 1][:2]:
                assert down not in third_street(own, other)
        public = store.own_phh(hand_id, None)
        for k in (1, 2):
            assert third_street(public, k).startswith(f"d dh p{k} ????")
        assert store.own_phh(hand_id, None) == store.hand_phh(hand_id)
        assert store.own_phh(10**9, played.accounts[0]) is None
    finally:
        store.close()


# ---------------------------------------------------------------------- voided hands, back-fill


def test_a_voided_hands_players_get_their_starting_stack_as_final(store: Store) -> None:
    table = new_table(store)
    ann, _ = store.create_account("Ann")
    bob, _ = store.create_account("Bob")
    store.sit(table.id, 1, ann.id, 300)
    store.sit(table.id, 2, bob.id, 200)
    players = [HandPlayer(1, ann.id, 300), HandPlayer(2, bob.id, 200)]
    first = store.start_hand(table.id, 1, players)
    store.void_hand(first)
    second = store.start_hand(table.id, 2, players)
    assert store.void_running_hands() == [second]
    rows = hand_player_rows(store)
    for hand_id in (first, second):
        assert rows[hand_id, ann.id] == (1, 300, 300)
        assert rows[hand_id, bob.id] == (2, 200, 200)
        assert store.own_hands(ann.id, [hand_id])[hand_id]["net"] == 0
    assert store.hands_of(ann.id) == []  # only finished hands are listed
    assert store.own_phh(first, ann.id) is None
    assert store.audit() == []


def test_migration_0004_back_fills_old_hands_with_each_players_start_and_final(
        store: Store) -> None:
    table = new_table(store)
    ann, _ = store.create_account("Ann")
    bob, _ = store.create_account("Bob")
    store.sit(table.id, 1, ann.id, 100)
    store.sit(table.id, 2, bob.id, 100)
    players = [HandPlayer(1, ann.id, 100), HandPlayer(2, bob.id, 100)]
    finished = store.start_hand(table.id, 1, players)
    store.finish_hand(finished, [104, 96], "phh", "phh", ["a line"], [], [(1, "Ann"), (2, "Bob")])
    broke = store.start_hand(table.id, 2, [HandPlayer(1, ann.id, 104),
                                           HandPlayer(2, bob.id, 96)])
    store.finish_hand(broke, [200, 0], "phh", "phh", ["a line"], [], [(1, "Ann"), (2, "Bob")])
    voided = store.start_hand(table.id, 3, [HandPlayer(1, ann.id, 200)] +
                              [HandPlayer(2, bob.id, 0)])
    store.void_hand(voided)
    store.add_chips(table.id, 2, bob.id, 100)
    running = store.start_hand(table.id, 4, [HandPlayer(1, ann.id, 200),
                                             HandPlayer(2, bob.id, 100)])
    migrate(store.engine, "downgrade", "0003")
    migrate(store.engine, "upgrade", "head")
    rows = hand_player_rows(store)
    assert rows == {
        (finished, ann.id): (1, 100, 104), (finished, bob.id): (2, 100, 96),
        (broke, ann.id): (1, 104, 200), (broke, bob.id): (2, 96, 0),
        (voided, ann.id): (1, 200, 200), (voided, bob.id): (2, 0, 0),
        (running, ann.id): (1, 200, None), (running, bob.id): (2, 100, None)}
    listed = store.hands_of(bob.id)
    assert [(h["id"], h["net"]) for h in listed] == [(broke, -96), (finished, -4)]
    assert listed[0]["cards"] is None  # an old hand has no cards of its own
    assert store.own_phh(finished, ann.id) == "phh"  # the public PHH stands in
    assert store.audit() == []


def test_a_seat_kept_from_before_0004_has_the_houses_starting_time_bank(store: Store) -> None:
    table = new_table(store)
    ann, _ = store.create_account("Ann")
    store.sit(table.id, 1, ann.id, 100, TimeBank().start * 1000)
    migrate(store.engine, "downgrade", "0003")
    migrate(store.engine, "upgrade", "head")
    [row] = store.seats(table.id)
    assert row.bank_ms == TimeBank().start * 1000


# ---------------------------------------------------------------------- tables and seats


def test_closing_a_table_pays_every_stack_back_at_once_and_refuses_a_running_hand(
        store: Store) -> None:
    table = new_table(store)
    ann, _ = store.create_account("Ann")
    store.sit(table.id, 1, ann.id, 300)
    bot = store.add_bot(table.id, 4, "station", 250)
    running = store.start_hand(table.id, 1, [HandPlayer(1, ann.id, 300),
                                             HandPlayer(4, bot.account_id, 250)])
    with pytest.raises(StoreError) as refused:
        store.close_table(table.id)
    assert refused.value.code == "in_hand"
    assert len(store.seats(table.id)) == 2 and table.id in {t.id for t in store.tables()}
    store.finish_hand(running, [350, 200], "phh", "phh", ["a line"])
    assert store.close_table(table.id) == [(1, ann.id, 350), (4, bot.account_id, 200)]
    assert store.seats(table.id) == []
    assert store.account(ann.id).wallet == 10_000 - 300 + 350
    assert store.account(bot.account_id).wallet == 200
    assert table.id not in {t.id for t in store.tables()}
    spec = store.table(table.id)
    assert spec.closed and spec.paused
    assert store.audit() == []


def test_a_private_table_has_a_host_and_an_invite_that_renewing_replaces(store: Store) -> None:
    ann, _ = store.create_account("Ann")
    table = new_table(store, created_by=ann.id, private=True)
    assert table.private and table.host == ann.id and table.invite is None
    first = store.renew_invite(table.id)
    second = store.renew_invite(table.id)
    assert first != second and len(second) >= 16
    assert store.table(table.id).invite == second
    store.set_paused(table.id, True)
    assert store.table(table.id).paused
    assert not new_table(store).private


def test_a_tables_time_bank_is_kept_and_the_house_default_stands_in(store: Store) -> None:
    bank = TimeBank(start=12, add=3, every=4, cap=40)
    assert new_table(store, time_bank=bank).time_bank == bank
    assert new_table(store).time_bank == TimeBank()


def test_a_seats_time_bank_and_a_leave_are_kept_with_the_seat(store: Store) -> None:
    table = new_table(store)
    ann, _ = store.create_account("Ann")
    row = store.sit(table.id, 2, ann.id, 100, 30_000)
    assert (row.bank_ms, row.bank_hands, row.leaving) == (30_000, 0, False)
    store.set_banks(table.id, {2: (35_000, 3)})
    store.set_leaving(table.id, 2, True)
    [row] = store.seats(table.id)
    assert (row.bank_ms, row.bank_hands, row.leaving) == (35_000, 3, True)
    with store.engine.connect() as db:
        assert db.execute(select(seats.c.bank_ms)).scalar_one() == 35_000


# ---------------------------------------------------------------------- chat and mutes


def test_chat_lines_come_back_oldest_first_the_newest_ones_only(store: Store) -> None:
    table, other = new_table(store), new_table(store)
    ann, _ = store.create_account("Ann")
    lines = [store.add_chat(table.id, ann.id, f"line {n}") for n in range(6)]
    store.add_chat(other.id, ann.id, "elsewhere")
    assert lines[0].nickname == "Ann" and lines[0].at.tzinfo is not None
    recent = store.recent_chat(table.id, 4)
    assert [line.text for line in recent] == ["line 2", "line 3", "line 4", "line 5"]
    assert [line.id for line in recent] == [line.id for line in lines[2:]]
    assert recent[-1].at == lines[-1].at
    assert [line.text for line in store.recent_chat(other.id)] == ["elsewhere"]


def test_mutes_are_kept_undone_and_nobody_mutes_themselves(store: Store) -> None:
    ann, _ = store.create_account("Ann")
    bob, _ = store.create_account("Bob")
    cid, _ = store.create_account("Cid")
    store.set_muted(ann.id, bob.id, True)
    store.set_muted(ann.id, bob.id, True)  # twice is once
    store.set_muted(ann.id, cid.id, True)
    assert store.muted_by(ann.id) == {bob.id, cid.id} and store.muted_by(bob.id) == set()
    store.set_muted(ann.id, bob.id, False)
    assert store.muted_by(ann.id) == {cid.id}
    with pytest.raises(StoreError) as refused:
        store.set_muted(ann.id, ann.id, True)
    assert refused.value.code == "bad_mute"


# ---------------------------------------------------------------------- accounts


def test_a_nickname_like_a_taken_one_is_refused_naming_it_and_a_bot_account_says_so(
        store: Store) -> None:
    alice, _ = store.create_account("Alice")
    assert alice.own_bot is False
    for alike in ("\u0410lice", "ALICE", "\uff21lice"):
        with pytest.raises(StoreError) as refused:
            store.create_account(alike)
        assert refused.value.code == "nickname_taken" and "'Alice'" in str(refused.value)
    program, token = store.create_account("Alicia", own_bot=True)
    assert program.own_bot is True and store.account_by_token(token) == program
    store.sit(new_table(store).id, 1, program.id, 100)
    assert [row.own_bot for row in store.seats_of(program.id)] == [True]
