"""The rake an online room takes from a pot, and the stacks it leaves.

The engine awards the whole pot; a room first takes its rake, and shares out the rest. Here the
rake comes out of the main pot first (then the side pots, in order, if it is larger), and what
is left of each pot goes to the same winners as the engine's award, split by the same rule:
a hi/lo pot is halved again (the odd chip to the high half) and each half shared among its
winners, the odd chips by the hand's ``odd_chip_shares`` policy, in the award's order.
"""

from __future__ import annotations

from collections.abc import Sequence

from stud.engine import Half, PotAwarded, split
from stud.rules import Rules


def raked_stacks(stacks: Sequence[int], awards: Sequence[PotAwarded], rake: int,
                 rules: Rules) -> list[int]:
    """The stacks after the hand (``stacks``, the engine's) once ``rake`` is taken from the
    pots ``awards`` shared out."""
    if rake < 0:
        raise ValueError(f"the rake cannot be negative, not {rake}")
    out = list(stacks)
    by_pot: dict[int, list[PotAwarded]] = {}
    for award in awards:
        by_pot.setdefault(award.pot, []).append(award)
    left = rake
    for pot in sorted(by_pot):
        pieces = by_pot[pot]
        total = sum(a.amount for a in pieces)
        take = min(left, total)
        left -= take
        if not take:
            continue
        rest = total - take
        amounts = [rest] if len(pieces) == 1 else [rest - rest // 2, rest // 2]
        if len(pieces) == 2 and pieces[0].half is Half.LOW:
            amounts.reverse()
        for award, amount in zip(pieces, amounts, strict=True):
            for seat, chips in award.shares:
                out[seat - 1] -= chips
            order = [seat - 1 for seat, _ in award.shares]
            for player, chips in split(amount, order, rules.odd_chip_shares):
                out[player] += chips
    if left:
        raise ValueError(f"a rake of {rake} is more than the pot")
    return out
