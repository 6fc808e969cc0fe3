"""Pots from contributions, and the one way a pot is split among tied winners (odd chips by
policy)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pot:
    """A main or side pot: its chips and the (0-based) players who can win it."""

    amount: int
    eligible: tuple[int, ...]


def build_pots(committed: Sequence[int], live: Sequence[bool]) -> list[Pot]:
    """Main pot first, then side pots: each live player is eligible up to what they matched.

    Chips of folded players count in every pot they reached; chips above the highest live
    level (which the uncalled-bet return normally leaves none of) join the last pot.
    """
    levels = sorted({committed[i] for i in range(len(committed)) if live[i] and committed[i] > 0})
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, previous) for c in committed)
        eligible = tuple(i for i in range(len(committed)) if live[i] and committed[i] >= level)
        if amount:
            pots.append(Pot(amount, eligible))
        previous = level
    rest = sum(max(0, c - previous) for c in committed)
    if rest:
        if pots:
            pots[-1] = Pot(pots[-1].amount + rest, pots[-1].eligible)
        else:
            live_players = tuple(i for i in range(len(committed)) if live[i])
            pots.append(Pot(rest, live_players))
    return pots


def split(amount: int, winners_by_priority: Sequence[int], odd_chip_shares: str
          ) -> list[tuple[int, int]]:
    """Equal shares of ``amount``; the odd chips go one each to the first winners in priority
    order (``one_each``) or all to the first (``all_to_first``, as PokerKit 0.7 splits)."""
    share, odd = divmod(amount, len(winners_by_priority))
    if odd_chip_shares == "all_to_first":
        return [(w, share + (odd if k == 0 else 0)) for k, w in enumerate(winners_by_priority)]
    return [(w, share + (1 if k < odd else 0)) for k, w in enumerate(winners_by_priority)]


def pots_so_far(committed: Sequence[int], live: Sequence[bool], all_in: Sequence[bool]
                ) -> list[int]:
    """Main and side pots as a table shows them mid-hand: a side pot starts only at an all-in
    player's level; bets not yet called sit in the last pot."""
    return [amount for amount, _ in open_pots(committed, live, all_in)] or [0]


def open_pots(committed: Sequence[int], live: Sequence[bool], all_in: Sequence[bool]
              ) -> list[tuple[int, tuple[int, ...]]]:
    """The pots as they stand mid-hand (as ``pots_so_far``), each with the players (0-based)
    who can still win it: a player all in up to their level, one who can still bet all."""
    n = len(committed)
    levels = sorted({committed[i] for i in range(n) if live[i] and all_in[i]})
    pots: list[tuple[int, tuple[int, ...]]] = []
    previous = 0
    for level in [*levels, None]:
        if level is None:  # above every all-in: bets not yet called, and what comes
            amount = sum(max(0, c - previous) for c in committed)
            eligible = tuple(i for i in range(n) if live[i] and not all_in[i])
            if not amount and pots:
                break
        else:
            amount = sum(min(c, level) - min(c, previous) for c in committed)
            eligible = tuple(i for i in range(n) if live[i] and
                             (not all_in[i] or committed[i] >= level))
            previous = level
        if amount:
            pots.append((amount, eligible))
    return pots
