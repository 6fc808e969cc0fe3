"""Each player's own record of the hands kept before 0004 (their down cards and the PHH as they
saw it), rebuilt from the dealer's history that every finished hand keeps: 0004 gave those
hands no cards of their own, so "Your hands" showed them without cards.

A hand whose dealer's history cannot be replayed (none should) keeps its rows as they were.

Revision ID: 0007
Revises: 0006
"""

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

_hands = sa.table("hands", sa.column("id", sa.Integer), sa.column("status", sa.String),
                  sa.column("players", sa.JSON), sa.column("dealer_phh", sa.Text))
_hand_players = sa.table("hand_players", sa.column("hand_id", sa.Integer),
                         sa.column("account_id", sa.Integer), sa.column("cards", sa.JSON),
                         sa.column("phh", sa.Text))


def _own_records(dealer_phh: str, players: list[list[int]]) -> dict[int, dict[str, Any]]:
    """account id -> its cards and PHH, from the hand's dealer's history."""
    from stud.history.phh import PHHError, dumps, from_hand, loads
    from stud.history.replay import ReplayError, replay

    try:
        history = loads(dealer_phh)
        hand = replay(history, history.rules()).hand
    except (PHHError, ReplayError, ValueError):
        return {}
    fields = {name: history.fields[name] for name in
              ("table", "hand", "players", "seats", "seat_count") if name in history.fields}
    return {account: {"cards": [{"card": str(card), "up": up} for card, up
                                in zip(hand.cards[k - 1], hand.up[k - 1], strict=True)],
                      "phh": dumps(from_hand(hand, k, **fields))}
            for k, (_seat, account, _start) in enumerate(players, 1)}


def upgrade() -> None:
    db = op.get_bind()
    # JSON's null or SQL's NULL: either reads as None (so the test is made here, not in SQL).
    # A hand kept since 0004 has its players' records (a house bot's alone are left out): the
    # hands to rebuild are those with no record at all.
    missing: dict[int, set[int]] = {}
    recorded: set[int] = set()
    for hand_id, account, cards in db.execute(sa.select(
            _hand_players.c.hand_id, _hand_players.c.account_id, _hand_players.c.cards)):
        if cards is None:
            missing.setdefault(hand_id, set()).add(account)
        else:
            recorded.add(hand_id)
    for hand_id in recorded:
        missing.pop(hand_id, None)
    ids = sorted(missing)
    for start in range(0, len(ids), 500):  # a few hundred hands' histories at a time
        query = sa.select(_hands.c.id, _hands.c.players, _hands.c.dealer_phh).where(
            _hands.c.id.in_(ids[start:start + 500]), _hands.c.status == "finished",
            _hands.c.dealer_phh.is_not(None))
        for hand_id, players, dealer_phh in db.execute(query).all():
            for account, record in _own_records(dealer_phh, players or []).items():
                if account in missing[hand_id]:
                    db.execute(_hand_players.update().where(
                        _hand_players.c.hand_id == hand_id,
                        _hand_players.c.account_id == account).values(**record))


def downgrade() -> None:
    pass  # the records rebuilt are kept: they are what 0004 would have written
