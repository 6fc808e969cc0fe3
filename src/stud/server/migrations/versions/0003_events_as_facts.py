"""Events are facts: a hand's events kept before they were (with English reasons and hand
names in them) are dropped, and that hand is told by its text history instead.

Nothing reads English back into facts; the text history, written when the hand ended, stays.
The way back changes nothing: events in the new shape are kept as they are.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

hands = sa.table("hands", sa.column("id", sa.Integer), sa.column("events", sa.JSON))


def _in_words(events: object) -> bool:
    """Events of the first shape: a street with a ``reason`` sentence, a pot with a ``hand``
    name, a shown hand named in words."""
    if not isinstance(events, list):
        return False
    for event in events:
        if not isinstance(event, dict):
            return True
        kind = event.get("kind")
        if kind == "street" and "why" not in event:
            return True
        if kind == "pot" and "hand" in event:
            return True
        if kind == "shown" and any(isinstance(event.get(h), str) for h in ("high", "low")):
            return True
    return False


def upgrade() -> None:
    db = op.get_bind()
    rows = db.execute(sa.select(hands.c.id, hands.c.events)
                      .where(hands.c.events.is_not(None))).all()
    stale = [row.id for row in rows if _in_words(row.events)]
    for start in range(0, len(stale), 500):
        db.execute(hands.update().where(hands.c.id.in_(stale[start:start + 500]))
                   .values(events=sa.null()))


def downgrade() -> None:
    pass
