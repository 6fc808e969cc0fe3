"""The store: accounts, tables, seats, hands and the chip ledger, on SQLite and PostgreSQL.

Every test runs on both databases (the ``database`` fixture). The books are right when
``audit()`` is empty and the ledger adds up to the chips ever granted; most tests check both.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import event, func, select, update

from stud.rules import PROFILES, Rules, Stakes, Variant
from stud.server.schema import accounts, hands, ledger, seats
from stud.server.store import STARTING_WALLET, HandPlayer, Store, StoreError, TableSpec

PHH = 'variant = "7S"\n'
DEALER_PHH = 'variant = "7S"\n# every card\n'


def new_table(store: Store, rules: Rules = PROFILES["standard"], size: int = 6) -> TableSpec:
    return store.create_table("Main", Variant.STUD, Stakes.for_limit(2), rules, size, 30)


def ledger_rows(store: Store, **where: object) -> list[tuple[int, str, int | None, int | None,
                                                             str, int]]:
    """(account, place, table, hand, kind, amount) in the order written."""
    query = select(ledger.c.account_id, ledger.c.place, ledger.c.table_id, ledger.c.hand_id,
                   ledger.c.kind, ledger.c.amount).order_by(ledger.c.id)
    for name, value in where.items():
        query = query.where(ledger.c[name] == value)
    with store.engine.connect() as db:
        return [tuple(row) for row in db.execute(query)]  # type: ignore[misc]


def hand_row(store: Store, hand_id: int) -> object:
    with store.engine.connect() as db:
        return db.execute(select(hands).where(hands.c.id == hand_id)).one()


def snapshot(store: Store) -> tuple[object, ...]:
    """Everything a refused request must leave as it was."""
    with store.engine.connect() as db:
        return (db.execute(select(accounts.c.id, accounts.c.wallet).order_by(accounts.c.id)).all(),
                db.execute(select(seats).order_by(seats.c.table_id, seats.c.seat)).all(),
                db.execute(select(ledger.c.id, ledger.c.amount).order_by(ledger.c.id)).all(),
                db.execute(select(hands.c.id, hands.c.status).order_by(hands.c.id)).all())


def holdings(store: Store) -> int:
    """Chips in wallets, at tables and in running hands."""
    with store.engine.connect() as db:
        wallets = db.execute(select(func.coalesce(func.sum(accounts.c.wallet), 0))).scalar_one()
        stacks = db.execute(select(func.coalesce(func.sum(seats.c.stack), 0))).scalar_one()
        in_hands = db.execute(
            select(func.coalesce(func.sum(ledger.c.amount), 0))
            .join(hands, hands.c.id == ledger.c.hand_id)
            .where(ledger.c.place == "hand", hands.c.status == "running")).scalar_one()
    return int(wallets) + int(stacks) + int(in_hands)


def assert_books_balance(store: Store) -> None:
    assert store.audit() == []
    with store.engine.connect() as db:
        total = db.execute(select(func.coalesce(func.sum(ledger.c.amount), 0))).scalar_one()
    assert int(total) == store.chips_in_play()
    assert holdings(store) == store.chips_in_play()


def seated_hand(store: Store, stacks: tuple[int, ...] = (300, 200)) -> tuple[TableSpec, list[
        HandPlayer], int]:
    """A table whose players (an account in seat 1, bots after) are in a running hand 1."""
    table = new_table(store)
    ann, _ = store.create_account("Ann")
    store.sit(table.id, 1, ann.id, stacks[0])
    for seat, stack in enumerate(stacks[1:], start=2):
        store.add_bot(table.id, seat, "station", stack)
    players = [HandPlayer(s.seat, s.account_id, s.stack) for s in store.seats(table.id)]
    return table, players, store.start_hand(table.id, 1, players)


def seated_hand_at_new_table(store: Store) -> tuple[TableSpec, list[HandPlayer], int]:
    """Two bots in a running hand 1 at a table of their own."""
    table = new_table(store)
    bots = [store.add_bot(table.id, seat, "random", 100) for seat in (1, 2)]
    players = [HandPlayer(b.seat, b.account_id, b.stack) for b in bots]
    return table, players, store.start_hand(table.id, 1, players)


# ---------------------------------------------------------------------- accounts


def test_a_new_account_starts_with_10000_chips_granted_by_a_ledger_row(store: Store) -> None:
    account, _ = store.create_account("Ann")
    assert account.wallet == STARTING_WALLET == 10_000
    assert store.account(account.id) == account
    assert account.bot is None
    assert ledger_rows(store) == [(account.id, "wallet", None, None, "grant", 10_000)]
    assert store.chips_in_play() == 10_000
    assert_books_balance(store)


def test_a_nickname_is_1_to_20_letters_digits_spaces_underscores_dashes_or_dots(
        store: Store) -> None:
    for good in ("Ann", "a" * 20, "J. Doe-1_x", "Zoë", "  Bob  "):
        account, _ = store.create_account(good)
        assert account.nickname == good.strip()
    for bad in ("", "   ", "a" * 21, "Ann!", "<b>x</b>", "tab\there", "new\nline", "a/b", None,
                42):
        with pytest.raises(StoreError) as refused:
            store.create_account(bad)  # type: ignore[arg-type]
        assert refused.value.code == "bad_nickname", bad
    with store.engine.connect() as db:
        assert len(db.execute(select(accounts.c.id)).all()) == 5
    assert_books_balance(store)


def test_a_nickname_is_unique_regardless_of_case(store: Store) -> None:
    store.create_account("Ann")
    before = snapshot(store)
    for taken in ("Ann", "ANN", "ann", " aNn "):
        with pytest.raises(StoreError) as refused:
            store.create_account(taken)
        assert refused.value.code == "nickname_taken"
    assert snapshot(store) == before  # no account, no grant
    assert store.create_account("Anna")[0].nickname == "Anna"


def test_bots_may_share_a_name(store: Store) -> None:
    table = new_table(store)
    first = store.add_bot(table.id, 1, "station", 100)
    second = store.add_bot(table.id, 2, "station", 100)
    assert first.nickname == second.nickname == "station"
    assert first.account_id != second.account_id


def test_only_the_hash_of_a_token_is_stored(store: Store) -> None:
    account, token = store.create_account("Ann")
    other, other_token = store.create_account("Bob")
    assert len(token) >= 32 and token != other_token
    assert store.account_by_token(token) == account
    assert store.account_by_token(other_token) == other
    for wrong in ("", None, token[:-1], token + "x", hashlib.sha256(token.encode()).hexdigest()):
        assert store.account_by_token(wrong) is None
    with store.engine.connect() as db:
        row = db.execute(select(accounts).where(accounts.c.id == account.id)).one()
        every_value = [str(v) for r in db.execute(select(accounts)) for v in r]
    assert row.token_hash == hashlib.sha256(token.encode()).hexdigest()
    assert not any(token in value for value in every_value)


def test_an_unknown_account_is_refused(store: Store) -> None:
    with pytest.raises(StoreError) as refused:
        store.account(999)
    assert refused.value.code == "no_account"


# ---------------------------------------------------------------------- tables


CUSTOM = PROFILES["standard"].with_policies(max_bets=3, first_actor_tie="suit",
                                            open_pair_big_bet=False)


@pytest.mark.parametrize("rules", [PROFILES["standard"], PROFILES["pokerkit"], CUSTOM],
                         ids=["standard", "pokerkit", "custom"])
def test_a_table_keeps_its_variant_stakes_and_every_policy(store: Store, rules: Rules) -> None:
    made = [store.create_table(f"Table {variant.value}", variant, stakes, rules, size, clock)
            for variant, stakes, size, clock in (
                (Variant.STUD, Stakes.for_limit(2), 8, 30),
                (Variant.STUD8, Stakes(5, 10, 20, 40), 2, 5),
                (Variant.RAZZ, Stakes.for_limit(10_000), 5, 300))]
    for spec in made:
        again = store.table(spec.id)
        assert again == spec
        assert again.rules == rules  # the name and every policy
        assert again.hands == 0
    assert [t.variant for t in made] == [Variant.STUD, Variant.STUD8, Variant.RAZZ]
    assert made[1].stakes == Stakes(5, 10, 20, 40)
    assert (made[1].seats, made[1].clock) == (2, 5)
    assert store.tables() == made


def test_an_unknown_table_is_refused(store: Store) -> None:
    with pytest.raises(StoreError) as refused:
        store.table(999)
    assert refused.value.code == "no_table"


# ---------------------------------------------------------------------- seats


def test_sitting_moves_the_buy_in_from_the_wallet_to_the_table(store: Store) -> None:
    table = new_table(store)
    ann, _ = store.create_account("Ann")
    row = store.sit(table.id, 3, ann.id, 400)
    assert (row.seat, row.account_id, row.nickname, row.bot, row.stack, row.sitting_out) == (
        3, ann.id, "Ann", None, 400, False)
    assert store.account(ann.id).wallet == 9_600
    assert store.seats(table.id) == [row]
    assert store.seats_of(ann.id) == [row]
    assert ledger_rows(store, kind="buy_in") == [
        (ann.id, "table", table.id, None, "buy_in", 400),
        (ann.id, "wallet", None, None, "buy_in", -400)]
    assert_books_balance(store)


def test_a_taken_seat_is_refused_and_nothing_changes(store: Store) -> None:
    table = new_table(store)
    ann, _ = store.create_account("Ann")
    bob, _ = store.create_account("Bob")
    store.sit(table.id, 1, ann.id, 400)
    before = snapshot(store)
    with pytest.raises(StoreError) as refused:
        store.sit(table.id, 1, bob.id, 300)
    assert refused.value.code == "seat_taken"
    assert snapshot(store) == before
    assert store.account(bob.id).wallet == 10_000
    assert_books_balance(store)


def test_a_buy_in_larger_than_the_wallet_is_refused_and_nothing_changes(store: Store) -> None:
    table, other = new_table(store), new_table(store)
    ann, _ = store.create_account("Ann")
    store.sit(table.id, 1, ann.id, 9_000)
    before = snapshot(store)
    with pytest.raises(StoreError) as refused:
        store.sit(other.id, 2, ann.id, 1_001)
    assert refused.value.code == "wallet_short"
    assert snapshot(store) == before
    store.sit(other.id, 2, ann.id, 1_000)  # the whole wallet is enough
    assert store.account(ann.id).wallet == 0
    assert_books_balance(store)


def test_an_account_takes_at_most_one_seat_at_a_table(store: Store) -> None:
    # The protocol's rule (already_seated), and the ledger's: table rows name the table and
    # the account, not the seat, so two seats of one account could not be told apart.
    table = new_table(store)
    ann, _ = store.create_account("Ann")
    store.sit(table.id, 1, ann.id, 400)
    before = snapshot(store)
    with pytest.raises(StoreError) as refused:
        store.sit(table.id, 2, ann.id, 400)
    assert refused.value.code == "already_seated"
    assert snapshot(store) == before
    assert_books_balance(store)


def test_a_bot_is_granted_its_buy_in_by_the_house_then_sits(store: Store) -> None:
    table = new_table(store)
    row = store.add_bot(table.id, 4, "expert", 250)
    assert (row.seat, row.bot, row.nickname, row.stack) == (4, "expert", "expert", 250)
    bot = store.account(row.account_id)
    assert bot.wallet == 0 and bot.bot == "expert"
    assert ledger_rows(store, account_id=row.account_id) == [
        (row.account_id, "wallet", None, None, "grant", 250),
        (row.account_id, "table", table.id, None, "buy_in", 250),
        (row.account_id, "wallet", None, None, "buy_in", -250)]
    assert store.chips_in_play() == 250
    assert_books_balance(store)


def test_sitting_out_is_kept_with_the_seat(store: Store) -> None:
    table = new_table(store)
    ann, _ = store.create_account("Ann")
    store.sit(table.id, 1, ann.id, 400)
    store.set_sitting_out(table.id, 1, True)
    assert store.seats(table.id)[0].sitting_out is True
    store.set_sitting_out(table.id, 1, False)
    assert store.seats(table.id)[0].sitting_out is False
    assert store.seats(table.id)[0].stack == 400


def test_leaving_moves_the_stack_back_to_the_wallet_and_frees_the_seat(store: Store) -> None:
    table = new_table(store)
    ann, _ = store.create_account("Ann")
    store.sit(table.id, 2, ann.id, 400)
    assert store.leave(table.id, 2) == 400
    assert store.seats(table.id) == []
    assert store.account(ann.id).wallet == 10_000
    assert ledger_rows(store, kind="cash_out") == [
        (ann.id, "wallet", None, None, "cash_out", 400),
        (ann.id, "table", table.id, None, "cash_out", -400)]
    with pytest.raises(StoreError) as refused:
        store.leave(table.id, 2)
    assert refused.value.code == "not_seated"
    store.sit(table.id, 2, ann.id, 100)  # the seat is free again
    assert_books_balance(store)


# ---------------------------------------------------------------------- hands


def test_a_hand_moves_the_stacks_in_when_it_starts_and_out_when_it_finishes(
        store: Store) -> None:
    table, players, hand_id = seated_hand(store, (300, 200, 100))
    running = hand_row(store, hand_id)
    assert running.status == "running" and running.phh is None and running.ended_at is None
    assert running.players == [[p.seat, p.account_id, p.stack] for p in players]
    assert [s.stack for s in store.seats(table.id)] == [0, 0, 0]
    assert ledger_rows(store, kind="hand_in") == [
        row for p in players for row in (
            (p.account_id, "hand", None, hand_id, "hand_in", p.stack),
            (p.account_id, "table", table.id, None, "hand_in", -p.stack))]
    assert_books_balance(store)

    store.finish_hand(hand_id, [450, 0, 150], PHH, DEALER_PHH, ["Ann wins", "bye"])
    finished = hand_row(store, hand_id)
    assert finished.status == "finished"
    assert (finished.phh, finished.dealer_phh, finished.text) == (PHH, DEALER_PHH,
                                                                   ["Ann wins", "bye"])
    assert finished.ended_at is not None
    assert [s.stack for s in store.seats(table.id)] == [450, 0, 150]
    assert ledger_rows(store, kind="hand_out") == [
        row for p, stack in zip(players, (450, 0, 150), strict=True) for row in (
            (p.account_id, "table", table.id, None, "hand_out", stack),
            (p.account_id, "hand", None, hand_id, "hand_out", -stack))]
    assert store.table(table.id).hands == 1
    assert store.hand_phh(hand_id) == PHH
    assert_books_balance(store)


def test_finishing_a_hand_writes_nothing_when_its_last_statement_fails(store: Store) -> None:
    table, players, hand_id = seated_hand(store)
    before = snapshot(store)

    written: list[str] = []

    def fail_on_the_table_count(_conn: object, _cursor: object, statement: str,
                                *_args: object) -> None:
        if statement.lstrip().upper().startswith("UPDATE TABLES"):
            raise RuntimeError("the disk is full")
        written.append(statement.lstrip().upper())

    event.listen(store.engine, "before_cursor_execute", fail_on_the_table_count)
    try:
        with pytest.raises(RuntimeError, match="disk is full"):
            store.finish_hand(hand_id, [500, 0], PHH, DEALER_PHH, ["text"])
    finally:
        event.remove(store.engine, "before_cursor_execute", fail_on_the_table_count)
    # The chips had moved and the hand was marked finished before the failure; none of it stays.
    assert any(w.startswith("INSERT INTO LEDGER") for w in written)
    assert any(w.startswith("UPDATE HANDS") for w in written)
    assert snapshot(store) == before
    row = hand_row(store, hand_id)
    assert (row.status, row.phh, row.dealer_phh, row.text) == ("running", None, None, None)
    assert ledger_rows(store, kind="hand_out") == []
    assert [s.stack for s in store.seats(table.id)] == [0, 0]
    assert store.table(table.id).hands == 0
    assert_books_balance(store)
    store.finish_hand(hand_id, [500, 0], PHH, DEALER_PHH, ["text"])  # and it can still finish
    assert hand_row(store, hand_id).status == "finished"
    assert_books_balance(store)


def test_finishing_a_hand_with_too_few_final_stacks_writes_nothing(store: Store) -> None:
    table, players, hand_id = seated_hand(store, (300, 200, 100))
    before = snapshot(store)
    with pytest.raises(ValueError):
        # One stack short: two players' chips have moved out when zip(strict) finds the third
        # missing and raises.
        store.finish_hand(hand_id, [600, 0], PHH, DEALER_PHH, ["text"])
    assert snapshot(store) == before
    assert hand_row(store, hand_id).status == "running"
    assert ledger_rows(store, kind="hand_out") == []
    assert [s.stack for s in store.seats(table.id)] == [0, 0, 0]
    assert_books_balance(store)


def test_only_a_running_hand_can_be_finished(store: Store) -> None:
    _table, _players, hand_id = seated_hand(store)
    store.finish_hand(hand_id, [250, 250], PHH, DEALER_PHH, ["text"])
    before = snapshot(store)
    with pytest.raises(StoreError) as refused:
        store.finish_hand(hand_id, [500, 0], PHH, DEALER_PHH, ["again"])
    assert refused.value.code == "not_running"
    assert snapshot(store) == before

    _table, _players, cut_off = seated_hand_at_new_table(store)
    store.void_running_hands()
    with pytest.raises(StoreError) as refused:
        store.finish_hand(cut_off, [100, 100], PHH, DEALER_PHH, ["late"])
    assert refused.value.code == "not_running"
    assert hand_row(store, cut_off).status == "voided"
    assert_books_balance(store)


def test_voiding_gives_every_player_of_a_running_hand_their_starting_stack_back(
        store: Store) -> None:
    table, players, hand_id = seated_hand(store, (300, 200, 100))
    store.finish_hand(hand_id, [350, 150, 100], PHH, DEALER_PHH, ["one"])
    after_first = [s.stack for s in store.seats(table.id)]
    players = [HandPlayer(s.seat, s.account_id, s.stack) for s in store.seats(table.id)]
    cut_off = store.start_hand(table.id, 2, players)
    other_table, other_players, other_cut_off = seated_hand_at_new_table(store)

    assert sorted(store.void_running_hands()) == sorted([cut_off, other_cut_off])
    assert hand_row(store, cut_off).status == "voided"
    assert hand_row(store, cut_off).ended_at is not None
    assert hand_row(store, hand_id).status == "finished"  # a finished hand is left alone
    assert [s.stack for s in store.seats(table.id)] == after_first
    assert [s.stack for s in store.seats(other_table.id)] == [100, 100]
    for hand, spec, in_hand in ((cut_off, table, players),
                                (other_cut_off, other_table, other_players)):
        into_hand = [(a, amount) for a, *_, amount in ledger_rows(store, hand_id=hand,
                                                                  kind="hand_in")]
        assert into_hand == [(p.account_id, p.stack) for p in in_hand]
        assert [(a, -amount) for a, *_, amount in ledger_rows(
            store, hand_id=hand, kind="void_refund")] == into_hand
        assert [(a, amount) for a, *_, amount in ledger_rows(
            store, table_id=spec.id, kind="void_refund")] == into_hand
    assert store.table(table.id).hands == 2  # the voided hand keeps its number
    assert store.void_running_hands() == []
    assert_books_balance(store)


def play_hand(store: Store, table: TableSpec, number: int, finish: bool = True) -> int:
    """Hand ``number`` at the table, everybody seated in it; the first player wins 10 chips
    from the second."""
    players = [HandPlayer(s.seat, s.account_id, s.stack) for s in store.seats(table.id)]
    hand_id = store.start_hand(table.id, number, players)
    if finish:
        final = [p.stack for p in players]
        final[0], final[1] = final[0] + 10, final[1] - 10
        store.finish_hand(hand_id, final, f"{PHH}hand = {number}\n", DEALER_PHH,
                          [f"hand {number}"])
    return hand_id


def test_recent_hands_are_newest_first_and_a_voided_hand_says_what_happened(
        store: Store) -> None:
    table, _players, first = seated_hand(store)
    store.finish_hand(first, [310, 190], f"{PHH}hand = 1\n", DEALER_PHH, ["hand 1"])
    second = play_hand(store, table, 2)
    voided = play_hand(store, table, 3, finish=False)
    store.void_running_hands()
    running = play_hand(store, table, 4, finish=False)

    recent = store.recent_hands(table.id)
    assert [(h["id"], h["number"], h["result"]) for h in recent] == [
        (voided, 3, "voided"), (second, 2, "finished"), (first, 1, "finished")]
    assert recent[1]["text"] == ["hand 2"]
    assert "voided" in " ".join(recent[0]["text"])  # type: ignore[arg-type]
    assert "starting stack back" in " ".join(recent[0]["text"])  # type: ignore[arg-type]
    for h in recent:
        ended = datetime.fromisoformat(str(h["ended_at"]))
        assert ended.tzinfo is not None
        assert abs(ended - datetime.now(UTC)) < timedelta(minutes=5)
    assert [h["number"] for h in store.recent_hands(table.id, limit=2)] == [3, 2]
    assert store.recent_hands(new_table(store).id) == []

    assert store.hand_phh(first) == f"{PHH}hand = 1\n"
    assert store.hand_phh(second) == f"{PHH}hand = 2\n"
    assert store.hand_phh(voided) is None
    assert store.hand_phh(running) is None
    assert store.hand_phh(99_999) is None


def test_hand_times_are_the_finished_hands_of_the_last_period(store: Store) -> None:
    table, _players, first = seated_hand(store)
    store.finish_hand(first, [310, 190], PHH, DEALER_PHH, ["hand 1"])
    play_hand(store, table, 2)
    play_hand(store, table, 3, finish=False)
    store.void_running_hands()  # a voided hand was not played to the end
    play_hand(store, table, 4, finish=False)
    with store.engine.begin() as db:  # the first hand was two hours ago
        db.execute(update(hands).where(hands.c.id == first)
                   .values(ended_at=datetime.now(UTC) - timedelta(hours=2)))
    times = store.hand_times(table.id, timedelta(hours=1))
    assert len(times) == 1
    assert times[0].tzinfo is not None
    assert abs(times[0] - datetime.now(UTC)) < timedelta(minutes=5)
    assert len(store.hand_times(table.id, timedelta(hours=3))) == 2
    assert store.hand_times(new_table(store).id, timedelta(hours=3)) == []


# ---------------------------------------------------------------------- the audit


def test_the_audit_names_an_account_whose_wallet_does_not_match_its_ledger(
        store: Store) -> None:
    ann, _ = store.create_account("Ann")
    bob, _ = store.create_account("Bob")
    assert store.audit() == []
    with store.engine.begin() as db:
        db.execute(update(accounts).where(accounts.c.id == bob.id).values(wallet=10_500))
    problems = store.audit()
    assert len(problems) == 1
    assert f"account {bob.id}" in problems[0]
    assert "10500" in problems[0] and "10000" in problems[0]
    assert not any(f"account {ann.id}:" in p for p in problems)


def test_the_audit_names_a_seat_whose_stack_does_not_match_its_ledger(store: Store) -> None:
    table = new_table(store)
    ann, _ = store.create_account("Ann")
    store.sit(table.id, 1, ann.id, 400)
    with store.engine.begin() as db:
        db.execute(update(seats).values(stack=401))
    problems = store.audit()
    assert len(problems) == 1
    assert f"table {table.id} account {ann.id}" in problems[0]


def test_the_audit_names_a_finished_hand_still_holding_chips(store: Store) -> None:
    table, _players, hand_id = seated_hand(store)
    assert store.audit() == []  # a running hand holds its players' chips, rightly
    # The hand is marked finished without its chips moving out: 500 chips stay in it.
    with store.engine.begin() as db:
        db.execute(update(hands).where(hands.c.id == hand_id).values(status="finished"))
    problems = store.audit()
    assert problems == [f"hand {hand_id} is finished but holds 500 chips"]


def test_the_audit_finds_a_negative_wallet(store: Store) -> None:
    ann, _ = store.create_account("Ann")
    with store.engine.begin() as db:  # a ledger that agrees with a wallet below zero
        db.execute(update(accounts).where(accounts.c.id == ann.id).values(wallet=-5))
        db.execute(update(ledger).where(ledger.c.account_id == ann.id).values(amount=-5))
    assert any(f"account {ann.id}" in p for p in store.audit())


# ---------------------------------------------------------------------- random play


class Books:
    """What the balances must be, kept apart from the store by the test."""

    def __init__(self) -> None:
        self.wallets: dict[int, int] = {}
        self.stacks: dict[tuple[int, int], tuple[int, int]] = {}  # (table, seat) -> account, stack
        self.sitting_out: set[tuple[int, int]] = set()
        self.running: dict[int, tuple[int, list[HandPlayer]]] = {}  # hand -> table, players
        self.numbers: dict[int, int] = {}

    def busy(self, table_id: int) -> set[int]:
        return {p.seat for t, players in self.running.values() if t == table_id
                for p in players}


def random_step(store: Store, books: Books, rng: random.Random, tables_: list[TableSpec],
                names: Iterator[str]) -> str:
    table = rng.choice(tables_)
    taken = {seat for (t, seat) in books.stacks if t == table.id}
    free = [s for s in range(1, table.seats + 1) if s not in taken]
    busy = books.busy(table.id)
    running_here = [h for h, (t, _) in books.running.items() if t == table.id]
    idle = [seat for (t, seat) in books.stacks if t == table.id and seat not in busy]
    ready = [seat for (t, seat), (_a, stack) in sorted(books.stacks.items())
             if t == table.id and stack > 0 and (t, seat) not in books.sitting_out]
    weights = {"account": 1, "sit": 3, "bot": 1 if free else 0,
               "start": 4 if len(ready) >= 2 and not running_here else 0,
               "finish": 4 if running_here else 0, "void": 1 if books.running else 0,
               "leave": 1 if idle else 0, "sit_out": 1 if idle else 0}
    kind = rng.choices(list(weights), list(weights.values()))[0]
    if kind == "account" or not books.wallets:
        account, _ = store.create_account(next(names))
        books.wallets[account.id] = STARTING_WALLET
        return "account"
    if kind == "sit":
        here = {a for (t, _s), (a, _stack) in books.stacks.items() if t == table.id}
        unseated = sorted(set(books.wallets) - here)
        if not unseated:
            return "nobody to sit"
        account_id = rng.choice(unseated)
        seat = rng.choice(free) if free and rng.random() < 0.75 else rng.randint(1, table.seats)
        buy_in = rng.choice([100, 1_000, 4_000, 9_000])
        short = books.wallets[account_id] < buy_in
        try:
            store.sit(table.id, seat, account_id, buy_in)
        except StoreError as refused:
            reasons = ({"seat_taken"} if seat in taken else set()) | (
                {"wallet_short"} if short else set())
            assert refused.code in reasons
            return refused.code
        assert seat not in taken and not short
        books.wallets[account_id] -= buy_in
        books.stacks[table.id, seat] = (account_id, buy_in)
        return "sit"
    if kind == "bot":
        seat = rng.choice(free)
        row = store.add_bot(table.id, seat, rng.choice(["random", "station"]), 200)
        books.wallets[row.account_id] = 0
        books.stacks[table.id, seat] = (row.account_id, 200)
        return "bot"
    if kind == "start":
        players = [HandPlayer(s, *books.stacks[table.id, s]) for s in ready]
        number = books.numbers.get(table.id, 0) + 1
        hand_id = store.start_hand(table.id, number, players)
        books.numbers[table.id] = number
        for p in players:
            books.stacks[table.id, p.seat] = (p.account_id, 0)
        books.running[hand_id] = (table.id, players)
        return "start"
    if kind == "finish":
        hand_id = running_here[0]
        _t, players = books.running.pop(hand_id)
        total = sum(p.stack for p in players)
        cuts = sorted(rng.randint(0, total) for _ in players[1:])
        final = [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]
        assert sum(final) == total and min(final) >= 0
        store.finish_hand(hand_id, final, PHH, DEALER_PHH, ["random"])
        for p, stack in zip(players, final, strict=True):
            books.stacks[table.id, p.seat] = (p.account_id, stack)
        return "finish"
    if kind == "void":
        assert sorted(store.void_running_hands()) == sorted(books.running)
        for t, players in books.running.values():
            for p in players:
                books.stacks[t, p.seat] = (p.account_id, p.stack)
        books.running.clear()
        return "void"
    if kind == "leave":
        seat = rng.choice(idle)
        account_id, stack = books.stacks.pop((table.id, seat))
        books.sitting_out.discard((table.id, seat))
        assert store.leave(table.id, seat) == stack
        books.wallets[account_id] += stack
        return "leave"
    assert kind == "sit_out"
    seat = rng.choice(idle)
    out = (table.id, seat) not in books.sitting_out
    store.set_sitting_out(table.id, seat, out)
    (books.sitting_out.add if out else books.sitting_out.discard)((table.id, seat))
    return "sit_out"


def assert_store_agrees(store: Store, books: Books, tables_: list[TableSpec]) -> None:
    for account_id, wallet in books.wallets.items():
        assert store.account(account_id).wallet == wallet
    rows = [row for t in tables_ for row in store.seats(t.id)]
    assert {(r.table_id, r.seat): (r.account_id, r.stack) for r in rows} == books.stacks
    assert {(r.table_id, r.seat) for r in rows if r.sitting_out} == books.sitting_out
    with store.engine.connect() as db:
        running = set(db.execute(select(hands.c.id).where(hands.c.status == "running"))
                      .scalars())
    assert running == set(books.running)


@pytest.mark.parametrize("seed", [7, 2024])
def test_random_play_keeps_the_books_right_after_every_step(store: Store, seed: int) -> None:
    rng = random.Random(seed)
    tables_ = [new_table(store, size=4), new_table(store, PROFILES["pokerkit"], size=3)]
    books = Books()
    names = (f"player{n}" for n in range(1000))
    done = []
    for _step in range(50):
        done.append(random_step(store, books, rng, tables_, names))
        assert_books_balance(store)
        assert_store_agrees(store, books, tables_)
    assert {"sit", "start", "finish"} <= set(done), done  # the walk did play hands
    cut_off = sorted(books.running)  # the hands still running end voided; the books stay right
    assert sorted(store.void_running_hands()) == cut_off
    assert all(hand_row(store, hand_id).status == "voided" for hand_id in cut_off)
    assert_books_balance(store)
    bots = [a for a in books.wallets if store.account(a).bot]
    assert store.chips_in_play() == (STARTING_WALLET * (len(books.wallets) - len(bots))
                                     + 200 * len(bots))


def test_a_rebuy_moves_chips_from_the_wallet_to_the_seat(store: Store) -> None:
    table = new_table(store)
    ann, _ = store.create_account("Ann")
    bob, _ = store.create_account("Bob")
    store.sit(table.id, 2, ann.id, 300)
    row = store.add_chips(table.id, 2, ann.id, 200)
    assert row.stack == 500 and store.account(ann.id).wallet == 10_000 - 500
    assert ledger_rows(store, kind="rebuy") == [(ann.id, "table", table.id, None, "rebuy", 200),
                                                (ann.id, "wallet", None, None, "rebuy", -200)]
    with pytest.raises(StoreError) as refused:
        store.add_chips(table.id, 2, bob.id, 100)  # not Bob's seat
    assert refused.value.code == "not_seated"
    with pytest.raises(StoreError) as refused:
        store.add_chips(table.id, 2, ann.id, 9_501)
    assert refused.value.code == "wallet_short"
    assert store.seats(table.id)[0].stack == 500 and store.account(ann.id).wallet == 9_500
    assert_books_balance(store)


def test_the_audit_reports_a_stack_below_zero(store: Store) -> None:
    table = new_table(store)
    ann, _ = store.create_account("Ann")
    store.sit(table.id, 1, ann.id, 300)
    hand_id = store.start_hand(table.id, 1, [HandPlayer(1, ann.id, 300)])
    store.start_hand(table.id, 2, [HandPlayer(1, ann.id, 300)])  # the same stack moved twice
    assert any("below 0" in problem for problem in store.audit()), store.audit()
    assert hand_id
