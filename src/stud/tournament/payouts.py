"""The prizes by finishing place: a default table by number of players, paid in whole chips.

>>> payout_table(6)
(65, 35)
>>> prizes(6, 600)
(390, 210)
>>> prizes(7, 701)  # 350.5, 210.3, 140.2: rounded down, the chip left over to the winner
(351, 210, 140)

The pool is conserved exactly: every paid place gets its percentage of the pool rounded down,
and the chips the rounding leaves (fewer than the paid places) go to the winner, as a split
pot's odd chips go to the better hand.
"""

from __future__ import annotations

from collections.abc import Sequence

# Percentages of the pool by place, best first, for each number of players. Heads-up (and
# three-handed) the winner takes all: paying two of three would pay two thirds of the field,
# more than the half paid at four (65/35) and the three of seven or eight (50/30/20).
DEFAULT_PAYOUTS: dict[int, tuple[int, ...]] = {
    2: (100,), 3: (100,),
    4: (65, 35), 5: (65, 35), 6: (65, 35),
    7: (50, 30, 20), 8: (50, 30, 20),
}


class PayoutError(ValueError):
    """A payout table that cannot pay a tournament: which place or total, and why."""


def payout_table(players: int) -> tuple[int, ...]:
    """The default percentages of the pool by place for ``players`` players (2 to 8)."""
    try:
        return DEFAULT_PAYOUTS[players]
    except KeyError:
        raise PayoutError(f"a sit-and-go is for 2 to 8 players, not {players}") from None


def check_payouts(percentages: Sequence[int], players: int) -> tuple[int, ...]:
    """``percentages`` if they can pay ``players`` players: whole percentages, best place
    first, none larger than the one before, at most one place per player, 100 in all."""
    table = tuple(percentages)
    if not table:
        raise PayoutError("payouts: at least one paid place")
    if len(table) > players:
        raise PayoutError(f"payouts: {len(table)} paid places for {players} players")
    for place, share in enumerate(table, start=1):
        if not isinstance(share, int) or isinstance(share, bool) or share <= 0:
            raise PayoutError(f"payouts: place {place} must get a whole percentage > 0, "
                              f"not {share!r}")
        if place > 1 and share > table[place - 2]:
            raise PayoutError(f"payouts: place {place} gets {share}%, more than place "
                              f"{place - 1}'s {table[place - 2]}%")
    if sum(table) != 100:
        raise PayoutError(f"payouts: the places get {sum(table)}% of the pool, not 100%")
    return table


def prizes(players: int, pool: int, percentages: Sequence[int] = ()) -> tuple[int, ...]:
    """Each paid place's prize in chips of ``pool``, best first (the default table unless
    ``percentages`` are given); they add up to ``pool`` exactly."""
    if pool < 0:
        raise PayoutError(f"a prize pool of {pool}: at least 0")
    table = check_payouts(percentages, players) if percentages else payout_table(players)
    paid = [pool * share // 100 for share in table]
    paid[0] += pool - sum(paid)
    return tuple(paid)


__all__ = ["DEFAULT_PAYOUTS", "PayoutError", "check_payouts", "payout_table", "prizes"]
