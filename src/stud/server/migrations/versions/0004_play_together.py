"""Playing together: private tables (an invite secret, a host who can pause or close), a time
bank at every seat, a leave that survives a stop, chat and mutes, accounts that say they are
bots, and each player's own record of every hand (``hand_players``: the stacks, the down cards
and the PHH as that player saw them).

Hands kept before this get their players' rows from ``hands.players`` and the ledger, with no
cards or PHH of their own (their public PHH stands in).

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

_hands = sa.table("hands", sa.column("id", sa.Integer), sa.column("status", sa.String),
                  sa.column("players", sa.JSON))
_ledger = sa.table("ledger", sa.column("hand_id", sa.Integer),
                   sa.column("account_id", sa.Integer), sa.column("kind", sa.String),
                   sa.column("place", sa.String), sa.column("amount", sa.BigInteger))


def upgrade() -> None:
    # Plain ALTER TABLE (no batch copy, which would break the foreign keys pointing here).
    op.add_column("accounts", sa.Column("own_bot", sa.Boolean, nullable=False,
                                        server_default=sa.false()))
    for column in (sa.Column("private", sa.Boolean, nullable=False, server_default=sa.false()),
                   sa.Column("closing", sa.Boolean, nullable=False, server_default=sa.false()),
                   sa.Column("invite", sa.String(64)),
                   sa.Column("paused", sa.Boolean, nullable=False, server_default=sa.false()),
                   sa.Column("closed_at", sa.DateTime(timezone=True)),
                   sa.Column("time_bank", sa.JSON)):
        op.add_column("tables", column)
    for column in (sa.Column("leaving", sa.Boolean, nullable=False, server_default=sa.false()),
                   sa.Column("bank_ms", sa.Integer, nullable=False, server_default="0"),
                   sa.Column("bank_hands", sa.Integer, nullable=False, server_default="0")):
        op.add_column("seats", column)
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("text", sa.String(400), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Index("ix_chat_table", "table_id", "id"),
    )
    op.create_table(
        "mutes",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("muted_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    )
    hand_players = op.create_table(
        "hand_players",
        sa.Column("hand_id", sa.Integer, sa.ForeignKey("hands.id"), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("start", sa.BigInteger, nullable=False),
        sa.Column("final", sa.BigInteger),
        sa.Column("cards", sa.JSON),
        sa.Column("phh", sa.Text),
        sa.Index("ix_hand_players_account", "account_id", "hand_id"),
    )
    db = op.get_bind()
    # The players seated now get the house's starting time bank (30 s).
    db.execute(sa.text("UPDATE seats SET bank_ms = 30000"))
    # A hand's chips leave it (place "hand", a negative amount) as each player's final stack.
    finals = {(r.hand_id, r.account_id): -r.amount for r in db.execute(
        sa.select(_ledger.c.hand_id, _ledger.c.account_id, _ledger.c.amount)
        .where(_ledger.c.kind.in_(("hand_out", "void_refund")),
               _ledger.c.place == "hand"))}
    rows = [{"hand_id": h.id, "account_id": account, "seat": seat, "start": start,
             "final": finals.get((h.id, account)) if h.status != "running" else None}
            for h in db.execute(sa.select(_hands)) for seat, account, start in h.players or ()]
    if rows:
        op.bulk_insert(hand_players, rows)


def downgrade() -> None:
    op.drop_table("hand_players")
    op.drop_table("mutes")
    op.drop_table("chat")
    # ALTER TABLE ... DROP COLUMN (SQLite has it from 3.35), for the same reason.
    for table, column in (("seats", "bank_hands"), ("seats", "bank_ms"), ("seats", "leaving"),
                          ("tables", "time_bank"), ("tables", "closed_at"), ("tables", "paused"),
                          ("tables", "invite"), ("tables", "closing"), ("tables", "private"),
                          ("accounts", "own_bot")):
        op.drop_column(table, column)
