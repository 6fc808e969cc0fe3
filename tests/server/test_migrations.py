"""Alembic's migrations build the schema that ``stud.server.schema`` describes, on SQLite and
PostgreSQL, and can be run again, undone and redone."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, inspect, select, text

import stud.server.store
from stud.rules import PROFILES, Stakes, Variant
from stud.server.schema import accounts, hands, ledger, metadata
from stud.server.store import Account, HandPlayer, Store, TableSpec, database_url

MIGRATIONS = Path(stud.server.store.__file__).parent / "migrations"
TABLES = {"accounts", "tables", "seats", "hands", "ledger", "chat", "mutes", "hand_players",
          "tournaments", "tournament_entries", "leases",
          "lease_holders"}


def config() -> Config:
    """The configuration ``Store.upgrade`` uses."""
    made = Config()
    made.set_main_option("script_location", str(MIGRATIONS))
    return made


def head() -> str:
    heads = ScriptDirectory.from_config(config()).get_heads()
    assert len(heads) == 1, f"the migrations must form one line, not branch: heads {heads}"
    return heads[0]


def migrate(engine: Engine, direction: str, revision: str) -> None:
    with engine.begin() as connection:
        made = config()
        made.attributes["connection"] = connection
        getattr(command, direction)(made, revision)


def table_names(engine: Engine) -> set[str]:
    return set(inspect(engine).get_table_names())


def version(engine: Engine) -> list[str]:
    with engine.connect() as db:
        return list(db.execute(text("SELECT version_num FROM alembic_version")).scalars())


def test_the_migrations_form_one_line_each_with_a_way_back() -> None:
    script = ScriptDirectory.from_config(config())
    revisions = list(script.walk_revisions())
    assert revisions[0].revision == head()
    assert revisions[-1].down_revision is None
    for revision in revisions:
        assert callable(revision.module.downgrade), revision.revision
        assert revision.doc, f"migration {revision.revision} says nothing of what it does"


def test_upgrading_an_empty_database_creates_every_table(database: str) -> None:
    engine = create_engine(database_url(database))
    try:
        assert table_names(engine) == set()
        Store(database).close()
        assert table_names(engine) == TABLES | {"alembic_version"}
        assert version(engine) == [head()]
    finally:
        engine.dispose()


def test_opening_the_store_again_changes_nothing(database: str) -> None:
    first = Store(database)
    ann, token = first.create_account("Ann")
    first.close()
    second = Store(database)
    try:
        assert version(second.engine) == [head()]
        assert second.account_by_token(token) == ann
        with second.engine.connect() as db:
            assert db.execute(select(accounts.c.nickname)).scalars().all() == ["Ann"]
            assert len(db.execute(select(ledger)).all()) == 1
        assert second.audit() == []
    finally:
        second.close()


def test_the_migrated_schema_is_the_one_the_store_queries_with(database: str) -> None:
    store = Store(database)
    try:
        with store.engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={
                "compare_type": True, "compare_server_default": True})
            # Columns, types, nullability, server defaults, indexes and unique constraints.
            assert compare_metadata(context, metadata) == []
    finally:
        store.close()


def test_downgrading_to_nothing_and_upgrading_again_works(database: str) -> None:
    store = Store(database)
    store.create_account("Ann")
    try:
        migrate(store.engine, "downgrade", "base")
        assert table_names(store.engine) <= {"alembic_version"}
        if "alembic_version" in table_names(store.engine):
            assert version(store.engine) == []
        migrate(store.engine, "upgrade", "head")
        assert table_names(store.engine) == TABLES | {"alembic_version"}
        assert version(store.engine) == [head()]
        account, token = store.create_account("Ann")  # the old account went with its table
        assert account.id == 1 and account.wallet == 10_000
        assert store.account_by_token(token) == account
        assert store.audit() == []
    finally:
        store.close()


def _ann_and_bob(store: Store, seats: tuple[int, int]) -> tuple[Account, Account, TableSpec]:
    """Two accounts seated with 100 chips each at a new 4-seat stud table of 2/4."""
    ann, _ = store.create_account("Ann")
    bob, _ = store.create_account("Bob")
    table = store.create_table("Main", Variant.STUD, Stakes.for_limit(2), PROFILES["standard"],
                               4, 30)
    for seat, account in zip(seats, (ann, bob), strict=True):
        store.sit(table.id, seat, account.id, 100)
    return ann, bob, table


def test_events_kept_in_words_are_dropped_and_events_as_facts_kept(database: str) -> None:
    # Hands recorded before events carried facts had English in them; 0003 leaves those hands
    # to their text histories, and keeps every hand whose events are facts.
    store = Store(database)
    try:
        ann, bob, table = _ann_and_bob(store, (1, 2))
        players = [HandPlayer(1, ann.id, 100), HandPlayer(2, bob.id, 100)]
        words = [{"kind": "street", "street": 3, "first": 1, "reason": "lowest up card 2c"},
                 {"kind": "pot", "index": 0, "amount": 4, "half": "all", "shares": [[1, 4]],
                  "hand": "uncontested"}]
        facts = [{"kind": "street", "street": 3, "first": 1, "why": {"opener": "low_card"}},
                 {"kind": "pot", "pot": 0, "amount": 4, "half": "all", "shares": [[1, 4]],
                  "high": None, "low": None, "uncontested": True}]
        kept = {}
        for number, events in ((1, words), (2, facts)):
            hand_id = store.start_hand(table.id, number, players)
            store.finish_hand(hand_id, [102, 98], "phh", "phh", ["a line"], events,
                              [(1, "Ann"), (2, "Bob")])
            kept[number] = hand_id
        migrate(store.engine, "downgrade", "0002")
        migrate(store.engine, "upgrade", "head")
        with store.engine.connect() as db:
            rows = dict(db.execute(select(hands.c.id, hands.c.events)).all())
        assert rows[kept[1]] is None
        assert rows[kept[2]] == facts
        recent = {h["number"]: h for h in store.recent_hands(table.id)}
        assert "events" not in recent[1] and recent[1]["text"] == ["a line"]
        assert recent[2]["events"] == facts
    finally:
        store.close()


def test_hands_kept_before_own_records_get_each_players_cards_from_the_dealers_history(
        database: str) -> None:
    # A hand finished with no record of its own per player (as 0004 left the hands kept
    # before it): 0007 rebuilds each player's down cards and PHH from the dealer's history.
    from stud.cards import Deck
    from stud.engine import Hand
    from stud.history.phh import dumps, from_hand, loads

    store = Store(database)
    try:
        ann, bob, table = _ann_and_bob(store, (1, 3))
        hand = Hand("stud", Stakes.for_limit(2), [100, 100], deck=Deck.seeded(7))
        while not hand.is_over:
            hand.act(hand.legal_actions()[-1 if hand.street < 5 else 0])
        fields = {"table": "Main", "hand": 1, "players": ["Ann", "Bob"], "seats": [1, 3],
                  "seat_count": 4}
        hand_id = store.start_hand(table.id, 1, [HandPlayer(1, ann.id, 100),
                                                 HandPlayer(3, bob.id, 100)])
        store.finish_hand(hand_id, list(hand.stacks), dumps(from_hand(hand, None, **fields)),
                          dumps(from_hand(hand, 0, **fields)), ["a line"])
        assert store.own_hands(ann.id, [hand_id])[hand_id]["cards"] is None
        migrate(store.engine, "downgrade", "0006")
        migrate(store.engine, "upgrade", "head")
        for k, account in enumerate((ann, bob), 1):
            own = store.own_hands(account.id, [hand_id])[hand_id]
            assert [c["card"] for c in own["cards"]] == [str(c) for c in hand.cards[k - 1]]
            assert [c["up"] for c in own["cards"]] == list(hand.up[k - 1])
            mine = store.own_phh(hand_id, account.id)
            assert mine == dumps(from_hand(hand, k, **fields))
            assert loads(mine).actions == from_hand(hand, k, **fields).actions
    finally:
        store.close()
