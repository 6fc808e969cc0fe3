"""The database tables. Alembic's migrations (``migrations/versions``) create and upgrade them;
these definitions are what the store queries with. Change both together."""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

metadata = MetaData()

accounts = Table(
    "accounts", metadata,
    Column("id", Integer, primary_key=True),
    Column("nickname", String(40), nullable=False),
    # The nickname folded to lower case; NULL for bots, whose names need not be unique.
    Column("nickname_key", String(40), unique=True),
    Column("token_hash", String(64), unique=True),
    Column("bot", String(20)),
    Column("wallet", BigInteger, nullable=False, default=0),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

tables = Table(
    "tables", metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(60), nullable=False),
    Column("variant", String(10), nullable=False),
    Column("ante", Integer, nullable=False),
    Column("bring_in", Integer, nullable=False),
    Column("small_bet", Integer, nullable=False),
    Column("big_bet", Integer, nullable=False),
    Column("rules", JSON, nullable=False),
    Column("seats", Integer, nullable=False),
    Column("clock", Integer, nullable=False),
    Column("hands", Integer, nullable=False, default=0),
    Column("created_by", Integer, ForeignKey("accounts.id")),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

seats = Table(
    "seats", metadata,
    Column("table_id", Integer, ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    # Chips at the table and not in a hand: 0 for a player while a hand is being played.
    Column("stack", BigInteger, nullable=False),
    Column("sitting_out", Boolean, nullable=False, default=False),
)

hands = Table(
    "hands", metadata,
    Column("id", Integer, primary_key=True),
    Column("table_id", Integer, ForeignKey("tables.id"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("status", String(10), nullable=False),  # running, finished, voided
    # [[table seat, account id, starting stack], ...] in the hand's seat order.
    Column("players", JSON, nullable=False),
    Column("started_at", DateTime(timezone=True), nullable=False),
    Column("ended_at", DateTime(timezone=True)),
    Column("phh", Text),  # as the public saw it: down cards ?? unless shown
    Column("dealer_phh", Text),  # every card, for the house's audit; never sent to a client
    Column("text", JSON),
    # The public events as the protocol sends them, and [[table seat, name], ...] (migration 2).
    Column("events", JSON),
    Column("names", JSON),
    Index("ix_hands_table_number", "table_id", "number"),
)

ledger = Table(
    "ledger", metadata,
    Column("id", Integer, primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    # Where the chips are: "wallet", "table" (table_id) or "hand" (hand_id).
    Column("place", String(10), nullable=False),
    Column("table_id", Integer, ForeignKey("tables.id")),
    Column("hand_id", Integer, ForeignKey("hands.id")),
    # grant, buy_in, rebuy, cash_out, hand_in, hand_out, void_refund
    Column("kind", String(12), nullable=False),
    Column("amount", BigInteger, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_ledger_account_place", "account_id", "place", "table_id"),
    Index("ix_ledger_hand", "hand_id"),
)
