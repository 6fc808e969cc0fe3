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
    false,
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
    # An account that says it plays by program (``stud bot``): shown as a bot at the table.
    Column("own_bot", Boolean, nullable=False, server_default=false()),
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
    # Unlisted, joined by an invite link that carries this secret (migration 4); the host sees
    # the link again after a restart, so the secret itself is kept, not a hash of it.
    Column("private", Boolean, nullable=False, server_default=false()),
    Column("invite", String(64)),
    Column("paused", Boolean, nullable=False, server_default=false()),
    # The host closed the table during a hand: it closes when that hand ends, or on a restart.
    Column("closing", Boolean, nullable=False, server_default=false()),
    Column("closed_at", DateTime(timezone=True)),
    # {"start": s, "add": s, "every": hands, "cap": s}; NULL for the house's default.
    Column("time_bank", JSON),
    # The stud rotation (migration 5): razz, stud, stud hi/lo, changing every this many hands;
    # NULL for one game, ``variant``.
    Column("rotation", Integer),
)

seats = Table(
    "seats", metadata,
    Column("table_id", Integer, ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    # Chips at the table and not in a hand: 0 for a player while a hand is being played.
    Column("stack", BigInteger, nullable=False),
    Column("sitting_out", Boolean, nullable=False, default=False),
    # A leave asked for during a hand, kept so that a stop does not forget it (migration 4).
    Column("leaving", Boolean, nullable=False, server_default=false()),
    # The seat's time bank and the hands it has played since the bank last grew.
    Column("bank_ms", Integer, nullable=False, server_default="0"),
    Column("bank_hands", Integer, nullable=False, server_default="0"),
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
    # Tournaments (migration 5) add "pool" (table_id: the buy-ins waiting to be prizes) and
    # "issue" (table_id: minus the tournament chips in play, which are at the table or in hands).
    # grant, buy_in, rebuy, cash_out, hand_in, hand_out, void_refund; tournaments: t_buy_in,
    # t_chips, t_chips_back, prize
    Column("kind", String(12), nullable=False),
    Column("amount", BigInteger, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_ledger_account_place", "account_id", "place", "table_id"),
    Index("ix_ledger_hand", "hand_id"),
)

chat = Table(
    "chat", metadata,
    Column("id", Integer, primary_key=True),
    Column("table_id", Integer, ForeignKey("tables.id"), nullable=False),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("text", String(400), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_chat_table", "table_id", "id"),
)

# Whose chat an account does not want to read.
mutes = Table(
    "mutes", metadata,
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("muted_id", Integer, ForeignKey("accounts.id"), primary_key=True),
)

# Each player's own record of a hand: the stacks, and the down cards and PHH as the player saw
# them (NULL for hands kept before migration 4, whose public PHH stands in).
hand_players = Table(
    "hand_players", metadata,
    Column("hand_id", Integer, ForeignKey("hands.id"), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("start", BigInteger, nullable=False),
    Column("final", BigInteger),
    Column("cards", JSON),
    Column("phh", Text),
    Index("ix_hand_players_account", "account_id", "hand_id"),
)

# A sit-and-go played at one table (migration 5): its format, where it stands, and when.
tournaments = Table(
    "tournaments", metadata,
    Column("id", Integer, primary_key=True),
    Column("table_id", Integer, ForeignKey("tables.id"), nullable=False, unique=True),
    Column("name", String(60), nullable=False),
    Column("game", String(10), nullable=False),  # stud, stud8, razz or rotation
    Column("every", Integer, nullable=False),  # hands of each game of the rotation
    Column("players", Integer, nullable=False),
    Column("buy_in", BigInteger, nullable=False),
    Column("starting_stack", BigInteger, nullable=False),
    Column("structure", String(10), nullable=False),  # standard or turbo
    Column("per", String(10), nullable=False),  # levels by hands or by minutes
    Column("prizes", JSON, nullable=False),  # each paid place's prize, best first
    Column("status", String(12), nullable=False),  # registering, running, finished
    Column("level", Integer, nullable=False, server_default="1"),  # never goes back down
    Column("created_by", Integer, ForeignKey("accounts.id")),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("started_at", DateTime(timezone=True)),
    Column("ended_at", DateTime(timezone=True)),
)

# Each player of a tournament, in the seat they play from, and how they finished.
entries = Table(
    "tournament_entries", metadata,
    Column("tournament_id", Integer, ForeignKey("tournaments.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("name", String(40), nullable=False),
    Column("bot", String(20)),
    Column("place", Integer),  # NULL while still in
    Column("tied", Integer),  # how many share the place (same-hand busts with equal stacks)
    Column("hand", Integer),  # the tournament's hand (table hand number) it went out in
    Column("prize", BigInteger),
)

# Which worker process owns a table (``stud serve --workers N``, stud.server.lease): ``epoch``
# grows by one at every takeover, and a table's writes are made only under the epoch the writer
# holds. A lease lasts while its owner's row in ``lease_holders`` has not expired (the
# database's clock): one row a worker, renewed by one statement whatever its tables.
leases = Table(
    "leases", metadata,
    Column("table_id", Integer, ForeignKey("tables.id"), primary_key=True),
    Column("owner", String(80)),
    Column("epoch", BigInteger, nullable=False, server_default="0"),
)

lease_holders = Table(
    "lease_holders", metadata,
    Column("owner", String(80), primary_key=True),
    Column("expires_at", DateTime(timezone=True), nullable=False),
)
