"""Leases: which worker process of ``stud serve --workers N`` owns each table and under which
epoch (the fencing token a table's writes are checked against), and until when each worker
holds its leases (``lease_holders``).

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "leases",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("owner", sa.String(80)),
        sa.Column("epoch", sa.BigInteger, nullable=False, server_default="0"),
    )
    op.create_table(
        "lease_holders",
        sa.Column("owner", sa.String(80), primary_key=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("lease_holders")
    op.drop_table("leases")
