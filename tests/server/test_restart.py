"""A server killed with SIGKILL loses no chip: the hand it was playing is voided on the next start
(every player gets their starting stack back), every finished hand stays with its history, the
seats come back and play goes on. On SQLite and PostgreSQL.

Each test runs a real server process (``serve_in_process``), plays at its table through a
WebSocket (an account in seat 1 that acts with legal actions, bots in the other seats), kills the
process, reads the books straight from the database, and starts a new process on the same
database. The books are read only while no server runs, so every read sees one moment.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from sqlalchemy import func, select

from stud.history.phh import loads
from stud.rules import PROFILES, Stakes, Variant
from stud.server.app import Casino
from stud.server.room import Timing
from stud.server.schema import accounts, hands, ledger, seats
from stud.server.store import STARTING_WALLET, HandPlayer, Store

from .conftest import FAST, Server, ServerProcess, serve_in_process
from .wsclient import Frame, TableClient, in_play, make_account, make_table

# Bots take a moment over each action, so that a hand is in flight for a while.
PLAYING = Timing(bot_delay=0.05, hand_pause=FAST.hand_pause, clock_scale=FAST.clock_scale,
                 seat_wait=0.0)
# A long pause between hands, so that a kill right after one lands before the next.
PAUSING = Timing(bot_delay=0.05, hand_pause=1.0, clock_scale=FAST.clock_scale, seat_wait=0.0)
BUY_IN = 1_000
BOTS = {2: "station", 3: "random"}


@dataclass
class Game:
    database: str
    table: int
    account: int
    token: str


@contextmanager
def books(database: str) -> Iterator[Store]:
    """The store, opened by the test while no server runs."""
    store = Store(database)
    try:
        yield store
    finally:
        store.close()


def choose(rng: random.Random, legal: list[Frame]) -> Frame:
    """Mostly check or call, sometimes a bet or raise, rarely a fold: chips move both ways."""
    passive = [e for e in legal if e["action"] in ("check", "call", "bring_in")]
    aggressive = [e for e in legal if e["action"] in ("bet", "raise", "complete")]
    roll = rng.random()
    if aggressive and roll < 0.25:
        return rng.choice(aggressive)
    if passive and roll < 0.95:
        return rng.choice(passive)
    return rng.choice(legal)


def play_until(client: TableClient, rng: random.Random, stop: Callable[[Frame], bool],
               timeout: float = 30.0, what: str = "the moment waited for") -> Frame:
    """Play this seat's turns until a state satisfies ``stop`` (asked before acting on it)."""
    deadline = time.monotonic() + timeout
    while True:
        frame = client.state
        if frame is not None:
            if stop(frame):
                return frame
            if client.my_turn(frame):  # the newest state, even one received before this call
                client.act(frame, choose(rng, frame["hand"]["legal"]))
        assert time.monotonic() < deadline, f"no {what} in time; newest state {frame}"
        with contextlib.suppress(TimeoutError):
            client.receive(0.05)


def my_turn_in_hand(number: int) -> Callable[[Frame], bool]:
    """A state of hand ``number`` or later, not over, with seat 1 (the account) to act: the hand
    cannot move on until it acts, so a kill now surely cuts it off."""
    def stop(frame: Frame) -> bool:
        hand = frame["hand"]
        return (hand is not None and not hand["over"] and hand["number"] >= number
                and hand["to_act"] == frame["you"]["seat"] and bool(hand["legal"]))
    return stop


def finished(number: int) -> Callable[[Frame], bool]:
    return lambda f: f["last"] is not None and f["last"]["number"] >= number


def between_hands_after(number: int) -> Callable[[Frame], bool]:
    return lambda f: in_play(f) is None and finished(number)(f)


def open_game(server: Server) -> Game:
    with server.client() as http:
        account, token = make_account(http, "Ann")
        table = make_table(http, token, name="Kill me", variant="stud", small_bet=2, seats=4,
                           clock=30)
    return Game(server.database, table, account, token)


def sit_down(client: TableClient) -> None:
    client.send({"type": "sit", "seat": 1, "buy_in": BUY_IN})
    for seat, bot in BOTS.items():
        client.send({"type": "add_bot", "seat": seat, "bot": bot, "buy_in": BUY_IN})
    client.until_state(lambda f: sum(s is not None for s in f["seats"]) == 1 + len(BOTS),
                       what="every seat taken")
    assert client.errors() == []


def connect(server: Server, game: Game) -> TableClient:
    return TableClient(server.ws, game.table, game.token, timeout=20)


# ---------------------------------------------------------------------- reading the books


def hand_rows(store: Store, status: str | None = None) -> list[object]:
    query = select(hands).order_by(hands.c.number)
    if status is not None:
        query = query.where(hands.c.status == status)
    with store.engine.connect() as db:
        return list(db.execute(query).all())


def moved(store: Store, hand_id: int, kind: str) -> Counter[int]:
    """Chips each account moved into (hand_in) or out of (void_refund) the hand."""
    with store.engine.connect() as db:
        rows = db.execute(select(ledger.c.account_id, ledger.c.amount).where(
            ledger.c.hand_id == hand_id, ledger.c.place == "hand", ledger.c.kind == kind))
        return Counter({a: abs(amount) for a, amount in rows})


def held_by(store: Store, account_id: int | None = None) -> int:
    """Chips in wallets, at tables and in running hands (of one account, or of everybody)."""
    def only(query: object, column: object) -> object:
        return query if account_id is None else query.where(column == account_id)  # type: ignore

    with store.engine.connect() as db:
        wallets = db.execute(only(select(func.coalesce(func.sum(accounts.c.wallet), 0)),
                                  accounts.c.id)).scalar_one()
        stacks = db.execute(only(select(func.coalesce(func.sum(seats.c.stack), 0)),
                                 seats.c.account_id)).scalar_one()
        in_hands = db.execute(only(
            select(func.coalesce(func.sum(ledger.c.amount), 0))
            .join(hands, hands.c.id == ledger.c.hand_id)
            .where(ledger.c.place == "hand", hands.c.status == "running"),
            ledger.c.account_id)).scalar_one()
    return int(wallets) + int(stacks) + int(in_hands)


def net_of_finished_hands(store: Store, account_id: int) -> int:
    """What the account won or lost over every finished hand, read from the hands' PHH."""
    net = 0
    for row in hand_rows(store, "finished"):
        phh = loads(row.phh)  # type: ignore[attr-defined]
        starts = [start for _seat, _account, start in row.players]  # type: ignore[attr-defined]
        assert phh.starting_stacks == starts, "the PHH and the ledger disagree"
        assert phh.finishing_stacks is not None
        for seat, account, _start in row.players:  # type: ignore[attr-defined]
            if account == account_id:
                k = phh.fields["seats"].index(seat)  # type: ignore[union-attr]
                net += phh.finishing_stacks[k] - phh.starting_stacks[k]
    return net


def assert_nothing_lost(store: Store, game: Game) -> None:
    """The books balance, every chip is somewhere, and the account holds what it won."""
    assert store.audit() == []
    assert held_by(store) == store.chips_in_play() == STARTING_WALLET + len(BOTS) * BUY_IN
    assert held_by(store, game.account) == STARTING_WALLET + net_of_finished_hands(
        store, game.account)


def assert_voided_with_refunds(store: Store, hand_id: int) -> None:
    [row] = [r for r in hand_rows(store) if r.id == hand_id]  # type: ignore[attr-defined]
    assert row.status == "voided"  # type: ignore[attr-defined]
    starts = Counter({a: start for _s, a, start in row.players})  # type: ignore[attr-defined]
    assert moved(store, hand_id, "hand_in") == starts
    assert moved(store, hand_id, "void_refund") == starts


# ---------------------------------------------------------------------- the tests


def test_a_hand_cut_off_by_a_kill_is_voided_and_every_player_gets_their_stack_back(
        database: str) -> None:
    rng = random.Random(1)
    with serve_in_process(database, PLAYING) as server:
        game = open_game(server)
        with connect(server, game) as ann:
            sit_down(ann)
            cut = play_until(ann, rng, my_turn_in_hand(4), what="hand 4 with seat 1 to act")
            server.kill()
    number = cut["hand"]["number"]

    with books(database) as store:
        [running] = hand_rows(store, "running")
        assert running.number == number  # type: ignore[attr-defined]
        finished_before = {r.id: r.phh for r in hand_rows(store, "finished")}  # type: ignore
        assert len(finished_before) == number - 1
        seated = {r.seat: r for r in store.seats(game.table)}
        assert all(seated[s].stack == 0 for s, _a, _st in running.players)  # type: ignore
        assert_nothing_lost(store, game)
    refunds = {seat: start for seat, _a, start in running.players}  # type: ignore[attr-defined]
    refunded = {seat: row.stack + refunds.get(seat, 0) for seat, row in seated.items()
                if not row.sitting_out}

    with serve_in_process(database, PLAYING) as server, connect(server, game) as ann:
        first = ann.first_state()
        for seat, row in seated.items():  # the seats are back, bots and all
            entry = first["seats"][seat - 1]
            assert entry is not None, f"seat {seat} is empty after the restart"
            assert entry["name"] == (f"{row.bot}-{seat}" if row.bot else row.nickname)
            assert (entry["bot"], entry["sitting_out"]) == (row.bot, row.sitting_out)
        assert first["you"]["seat"] == 1
        play_until(ann, rng, finished(number + 1), what=f"hand {number + 1} finished")
        server.kill()

    with books(database) as store:
        assert_voided_with_refunds(store, running.id)  # type: ignore[attr-defined]
        assert [r.number for r in hand_rows(store, "voided")] == [number]  # type: ignore
        for hand_id, phh in finished_before.items():
            assert store.hand_phh(hand_id) == phh
        recent = store.recent_hands(game.table, 100)
        assert [h["number"] for h in recent][-number:] == list(range(number, 0, -1))
        assert "voided" in " ".join(next(h["text"] for h in recent if h["number"] == number))
        # The first hand after the restart starts from the refunded stacks.
        [after] = [r for r in hand_rows(store, "finished") if r.number == number + 1]  # type: ignore
        phh = loads(after.phh)  # type: ignore[attr-defined]
        assert dict(zip(phh.fields["seats"], phh.starting_stacks, strict=True)) == {  # type: ignore
            seat: stack for seat, stack in refunded.items() if stack > 0}
        assert_nothing_lost(store, game)


def test_a_kill_between_hands_voids_nothing_and_loses_nothing(database: str) -> None:
    rng = random.Random(2)
    with serve_in_process(database, PAUSING) as server:
        game = open_game(server)
        with connect(server, game) as ann:
            sit_down(ann)
            pause = play_until(ann, rng, between_hands_after(2), what="the pause after hand 2")
            server.kill()
    number = pause["last"]["number"]

    with books(database) as store:
        assert hand_rows(store, "running") == []
        assert [r.number for r in hand_rows(store)] == list(range(1, number + 1))  # type: ignore
        stacks = {r.seat: r.stack for r in store.seats(game.table)}
        assert sum(stacks.values()) == (1 + len(BOTS)) * BUY_IN
        assert_nothing_lost(store, game)

    with serve_in_process(database, PLAYING) as server, connect(server, game) as ann:
        play_until(ann, rng, finished(number + 1), what=f"hand {number + 1} finished")
        server.kill()

    with books(database) as store:
        assert hand_rows(store, "voided") == []
        [after] = [r for r in hand_rows(store) if r.number == number + 1]  # type: ignore
        phh = loads(after.phh)  # type: ignore[attr-defined]
        assert dict(zip(phh.fields["seats"], phh.starting_stacks, strict=True)) == {  # type: ignore
            seat: stack for seat, stack in stacks.items() if stack > 0}
        assert_nothing_lost(store, game)


def test_kill_after_kill_at_random_moments_never_loses_a_chip(database: str) -> None:
    rng = random.Random(3)
    cut_off: list[int] = []
    number = 0

    def play_then_kill(server: ServerProcess, client: TableClient) -> None:
        """Play until a hand has finished in this process, a little more, then kill."""
        nonlocal number
        play_until(client, rng, finished(number + 1), what=f"hand {number + 1} finished")
        kill_at = time.monotonic() + rng.uniform(0.0, 0.6)
        frame = play_until(client, rng, lambda _f: time.monotonic() >= kill_at)
        server.kill()
        number = max(frame["last"]["number"], (frame["hand"] or {"number": 0})["number"])

    with serve_in_process(database, PLAYING) as server:
        game = open_game(server)
        with connect(server, game) as ann:
            sit_down(ann)
            play_then_kill(server, ann)
    for _kill in range(3):
        with books(database) as store:
            for hand_id in cut_off:
                assert_voided_with_refunds(store, hand_id)
            running = hand_rows(store, "running")
            assert len(running) <= 1
            cut_off += [r.id for r in running]  # type: ignore[attr-defined]
            assert_nothing_lost(store, game)
        with serve_in_process(database, PLAYING) as server, connect(server, game) as ann:
            play_then_kill(server, ann)

    with books(database) as store:
        for hand_id in cut_off:
            assert_voided_with_refunds(store, hand_id)
        assert len(hand_rows(store, "running")) <= 1
        assert len(hand_rows(store, "finished")) >= 4  # a hand finished after every start
        assert_nothing_lost(store, game)


def test_a_player_who_lost_every_chip_keeps_the_seat_through_a_restart(database: str) -> None:
    with books(database) as store:
        ann, _token = store.create_account("Ann")
        table = store.create_table("Busted", Variant.STUD, Stakes.for_limit(2),
                                   PROFILES["standard"], 4, 30)
        store.sit(table.id, 1, ann.id, 100)
        bot = store.add_bot(table.id, 2, "station", 100)
        hand = store.start_hand(table.id, 1, [HandPlayer(1, ann.id, 100),
                                              HandPlayer(2, bot.account_id, 100)])
        store.finish_hand(hand, [0, 200], "", "", ["Ann lost every chip"])

    async def start_and_stop() -> dict[int, tuple[int, bool]]:
        # What the server does when it starts: void cut-off hands, then restore every table.
        casino = Casino(await asyncio.to_thread(Store, database), FAST)
        try:
            await casino.open()
            room = casino.rooms[table.id]
            return {n: (s.stack, s.sitting_out) for n, s in room.table.seats.items()}
        finally:
            await casino.close()

    assert asyncio.run(start_and_stop()) == {1: (0, False), 2: (200, False)}
