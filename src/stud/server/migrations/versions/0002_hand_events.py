"""A hand's public events and its players' names, for histories in any language.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("hands") as hands:
        hands.add_column(sa.Column("events", sa.JSON))
        hands.add_column(sa.Column("names", sa.JSON))


def downgrade() -> None:
    with op.batch_alter_table("hands") as hands:
        hands.drop_column("names")
        hands.drop_column("events")
