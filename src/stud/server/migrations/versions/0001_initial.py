"""Accounts, tables, seats, hands and the chip ledger.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("nickname", sa.String(40), nullable=False),
        sa.Column("nickname_key", sa.String(40), unique=True),
        sa.Column("token_hash", sa.String(64), unique=True),
        sa.Column("bot", sa.String(20)),
        sa.Column("wallet", sa.BigInteger, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "tables",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("variant", sa.String(10), nullable=False),
        sa.Column("ante", sa.Integer, nullable=False),
        sa.Column("bring_in", sa.Integer, nullable=False),
        sa.Column("small_bet", sa.Integer, nullable=False),
        sa.Column("big_bet", sa.Integer, nullable=False),
        sa.Column("rules", sa.JSON, nullable=False),
        sa.Column("seats", sa.Integer, nullable=False),
        sa.Column("clock", sa.Integer, nullable=False),
        sa.Column("hands", sa.Integer, nullable=False),
        sa.Column("created_by", sa.Integer, sa.ForeignKey("accounts.id")),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "seats",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("stack", sa.BigInteger, nullable=False),
        sa.Column("sitting_out", sa.Boolean, nullable=False),
    )
    op.create_table(
        "hands",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("players", sa.JSON, nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True)),
        sa.Column("phh", sa.Text),
        sa.Column("dealer_phh", sa.Text),
        sa.Column("text", sa.JSON),
    )
    op.create_index("ix_hands_table_number", "hands", ["table_id", "number"])
    op.create_table(
        "ledger",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("place", sa.String(10), nullable=False),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id")),
        sa.Column("hand_id", sa.Integer, sa.ForeignKey("hands.id")),
        sa.Column("kind", sa.String(12), nullable=False),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_ledger_account_place", "ledger", ["account_id", "place", "table_id"])
    op.create_index("ix_ledger_hand", "ledger", ["hand_id"])


def downgrade() -> None:
    op.drop_table("ledger")
    op.drop_table("hands")
    op.drop_table("seats")
    op.drop_table("tables")
    op.drop_table("accounts")
