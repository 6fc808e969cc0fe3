"""Tournaments: sit-and-gos played at a table (``tournaments``, their players and finishes in
``tournament_entries``), and the stud rotation at cash tables (``tables.rotation``: razz, stud
and stud hi/lo changing every so many hands). The ledger needs no new column: a tournament's
buy-ins wait in place ``pool`` and its chips are issued from place ``issue``, both by table.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("rotation", sa.Integer))
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), nullable=False,
                  unique=True),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("game", sa.String(10), nullable=False),
        sa.Column("every", sa.Integer, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("buy_in", sa.BigInteger, nullable=False),
        sa.Column("starting_stack", sa.BigInteger, nullable=False),
        sa.Column("structure", sa.String(10), nullable=False),
        sa.Column("per", sa.String(10), nullable=False),
        sa.Column("prizes", sa.JSON, nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("level", sa.Integer, nullable=False, server_default="1"),
        sa.Column("created_by", sa.Integer, sa.ForeignKey("accounts.id")),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True)),
        sa.Column("ended_at", sa.DateTime(timezone=True)),
    )
    op.create_table(
        "tournament_entries",
        sa.Column("tournament_id", sa.Integer, sa.ForeignKey("tournaments.id"),
                  primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("bot", sa.String(20)),
        sa.Column("place", sa.Integer),
        sa.Column("tied", sa.Integer),
        sa.Column("hand", sa.Integer),
        sa.Column("prize", sa.BigInteger),
    )


def downgrade() -> None:
    op.drop_table("tournament_entries")
    op.drop_table("tournaments")
    op.drop_column("tables", "rotation")
