"""Pots and awards in the fast engine, as ``stud.engine.showdown`` awards them (RULES.md 5-7).

Main and side pots from the chips committed; every pot awarded separately, the last side pot
first: the high hand (stud), the A-5 low (razz), or split high and 8-or-better low (stud8),
ties split with the odd chips by ``odd_chip`` and ``odd_chip_shares``, hi/lo halves by
``hi_lo_halves`` and ``scoop_split``. The hands' values come from ``stud.evaluate.batch``
(``high``, and ``low``: -1 for no 8-or-better low, the A-5 value in razz), per seat.

The engine's automatic showdown mucks a hand that cannot win against those shown before it;
such a hand wins no chip of any pot and (every hand is turned up when a player is all in, so
there is one pot then) changes no pot, so here every hand still in is compared.
"""

from __future__ import annotations

from typing import Any

from stud.fast.compiled import kernel
from stud.fast.layout import (
    A_AMOUNT,
    A_CHIPS,
    A_HALF,
    A_POT,
    A_SEAT,
    A_WINNERS,
    AWARDS,
    BOARD,
    CARD,
    CARDS,
    COMMITTED,
    FOLDED,
    G_ANY_LOW_HALVES,
    G_ODD_CHIP_BY_SUIT,
    G_ODD_CHIPS_ALL_TO_FIRST,
    G_PLAYERS,
    G_SCOOP_HALVES,
    G_VARIANT,
    HELD,
    HIGH_HALF,
    LOW_HALF,
    OVER,
    PHASE,
    RAZZ,
    SEATS,
    STACK,
    STUD,
    STUD8,
    WHOLE,
)

Table = Any
Game = Any
NO_LOW = -1
# The scratch space of a showdown (``work``, int64): each pot's chips and eligible players,
# winners in odd-chip order, and their sort keys.
W_AMOUNTS, W_ELIGIBLE, W_ORDER, W_KEYS = 0, SEATS, 2 * SEATS, 3 * SEATS
WORK = 4 * SEATS


@kernel
def _record(r: Table, awards: Any, pot: int, half: int, amount: int, work: Any, winners: int,
            all_to_first: bool) -> None:
    """One award: ``amount`` split among the winners in ``work``'s order, odd chips first."""
    a = awards[r[AWARDS]]
    r[AWARDS] += 1
    a[A_POT] = pot
    a[A_HALF] = half
    a[A_AMOUNT] = amount
    a[A_WINNERS] = winners
    share, odd = amount // winners, amount % winners
    for k in range(winners):
        extra = (odd if k == 0 else 0) if all_to_first else (1 if k < odd else 0)
        seat = work[W_ORDER + k]
        a[A_SEAT + k] = seat
        a[A_CHIPS + k] = share + extra
        r[STACK + seat] += share + extra


@kernel
def award_uncontested(r: Table, n: int, awards: Any) -> None:
    """Everyone else folded: the last player takes every chip in."""
    pot, winner = 0, 0
    for i in range(n):
        pot += r[COMMITTED + i]
        if r[FOLDED + i] == 0:
            winner = i
    a = awards[r[AWARDS]]
    r[AWARDS] += 1
    a[A_POT] = 0
    a[A_HALF] = WHOLE
    a[A_AMOUNT] = pot
    a[A_WINNERS] = 1
    a[A_SEAT] = winner
    a[A_CHIPS] = pot
    r[STACK + winner] += pot
    r[PHASE] = OVER


@kernel
def _pots(r: Table, n: int, live: int, amounts: Any, eligible: Any) -> int:
    """Main pot first, then side pots (pots.build_pots): each live player (a bit of ``live``)
    is eligible up to what they matched; chips above the highest level join the last pot."""
    count, previous = 0, 0
    while True:
        level = -1  # the smallest live commitment above the previous level
        for i in range(n):
            c = r[COMMITTED + i]
            if live >> i & 1 and c > previous and (level < 0 or c < level):
                level = c
        if level < 0:
            break
        amount, mask = 0, 0
        for i in range(n):
            c = r[COMMITTED + i]
            amount += min(c, level) - min(c, previous)
            if live >> i & 1 and c >= level:
                mask |= 1 << i
        if amount:
            amounts[count] = amount
            eligible[count] = mask
            count += 1
        previous = level
    rest = 0
    for i in range(n):
        rest += max(0, r[COMMITTED + i] - previous)
    if rest:
        if count:
            amounts[count - 1] += rest
        else:
            amounts[0] = rest
            eligible[0] = live
            count = 1
    return count


@kernel
def _winners(n: int, mask: int, values: Any) -> int:
    """The best hands of one half among ``mask``, as a mask; 0 when none qualifies."""
    best = NO_LOW
    for i in range(n):
        if mask >> i & 1:
            best = max(best, values[i])
    if best == NO_LOW:
        return 0
    winners = 0
    for i in range(n):
        if mask >> i & 1 and values[i] == best:
            winners |= 1 << i
    return winners


@kernel
def _top_card(r: Table, i: int, value: int) -> int:
    """The highest card (id) of a high hand, for the odd chip by suit (showdown._top_card_key):
    the top of its deciding ranks, in the flush suit for a flush."""
    category = value >> 20
    if category == 4 or category == 8:  # a straight: its top card, the five of a wheel
        top = value >> 16 & 15
    else:
        used = (2 if category in (6, 7) else 3 if category in (2, 3)
                else 4 if category == 1 else 5)
        top = 0
        for k in range(used):
            top = max(top, value >> (16 - 4 * k) & 15)
    held = r[HELD + i]
    suit = -1
    if category == 5 or category == 8:  # the flush suit: the one with five cards or more
        counts = 0  # a nibble a suit
        for k in range(held):
            counts += 1 << 4 * (r[CARD + CARDS * i + k] & 3)
        if r[BOARD] >= 0:
            counts += 1 << 4 * (r[BOARD] & 3)
        for s in range(4):
            if counts >> 4 * s & 15 >= 5:
                suit = s
    best = -1
    for k in range(held + 1):
        card = r[CARD + CARDS * i + k] if k < held else r[BOARD]
        if card >= 0 and card >> 2 == top and (suit < 0 or card & 3 == suit):
            best = max(best, card)
    return best


@kernel
def _lowest_suit(r: Table, i: int) -> int:
    """The suit of the lowest card (ace low) among the hand's cards, for a low's odd chip."""
    held = r[HELD + i]
    lowest, suit = 99, 99
    for k in range(held + 1):
        card = r[CARD + CARDS * i + k] if k < held else r[BOARD]
        if card < 0:
            continue
        rank = ((card >> 2) + 1) % 13
        if rank < lowest:
            lowest, suit = rank, card & 3
        elif rank == lowest:
            suit = min(suit, card & 3)
    return suit


@kernel
def _by_priority(r: Table, g: Game, winners: int, half: int, values: Any, work: Any) -> int:
    """``winners`` in the order odd chips go to them (``odd_chip``): the highest card by suit
    in a high split, the lowest card by suit in a low split, or seat order."""
    n = g[G_PLAYERS]
    count = 0
    for i in range(n):
        if winners >> i & 1:
            work[W_ORDER + count] = i
            count += 1
    if count == 1 or not g[G_ODD_CHIP_BY_SUIT]:
        return count
    for k in range(count):
        i = work[W_ORDER + k]
        work[W_KEYS + k] = (_lowest_suit(r, i) if half == LOW_HALF
                            else -_top_card(r, i, values[i]))
    for k in range(1, count):  # insertion sort by key; seats are in order, so ties stay so
        i, key = work[W_ORDER + k], work[W_KEYS + k]
        m = k - 1
        while m >= 0 and work[W_KEYS + m] > key:
            work[W_ORDER + m + 1] = work[W_ORDER + m]
            work[W_KEYS + m + 1] = work[W_KEYS + m]
            m -= 1
        work[W_ORDER + m + 1] = i
        work[W_KEYS + m + 1] = key
    return count


@kernel
def _award_pot(r: Table, g: Game, index: int, amount: int, mask: int, high: Any, low: Any,
               halve: int, awards: Any, work: Any) -> None:
    n = g[G_PLAYERS]
    variant = g[G_VARIANT]
    first = g[G_ODD_CHIPS_ALL_TO_FIRST] != 0
    if variant != STUD8:
        values = low if variant == RAZZ else high
        half = LOW_HALF if variant == RAZZ else HIGH_HALF  # whose odd chips: a low's or a high's
        count = _by_priority(r, g, _winners(n, mask, values), half, values, work)
        _record(r, awards, index, WHOLE, amount, work, count, first)
        return
    high_winners = _winners(n, mask, high)
    low_winners = _winners(n, mask, low)
    count = _by_priority(r, g, high_winners, HIGH_HALF, high, work)
    halved = halve == 1 if halve >= 0 else low_winners != 0
    if not halved or (not g[G_SCOOP_HALVES] and count > 1 and high_winners == low_winners):
        # No low, or identical scooping hands: the whole pot (RULES.md 7)
        _record(r, awards, index, WHOLE, amount, work, count, first)
        return
    low_amount = amount // 2
    _record(r, awards, index, HIGH_HALF, amount - low_amount, work, count, first)
    if low_winners:
        count = _by_priority(r, g, low_winners, LOW_HALF, low, work)
    else:  # halved, yet no hand of this pot has a low (PokerKit): its players share that half
        count = 0
        for i in range(n):
            if mask >> i & 1:
                work[W_ORDER + count] = i
                count += 1
    _record(r, awards, index, LOW_HALF, low_amount, work, count, first)


@kernel
def settle(r: Table, g: Game, high: Any, low: Any, awards: Any, work: Any) -> None:
    """Every pot's award at the showdown, the last side pot first; the hand is over. ``work``
    is scratch space (``WORK`` int64)."""
    n = g[G_PLAYERS]
    variant = g[G_VARIANT]
    live = 0
    for i in range(n):
        if r[FOLDED + i] == 0:
            live |= 1 << i
    amounts = work[W_AMOUNTS:W_AMOUNTS + SEATS]
    eligible = work[W_ELIGIBLE:W_ELIGIBLE + SEATS]
    halve = -1  # decided pot by pot, unless hi_lo_halves decides for the hand
    if g[G_ANY_LOW_HALVES]:
        # PokerKit: hands that win no part of any pot are out before the pots are built.
        winning = 0
        for p in range(_pots(r, n, live, amounts, eligible)):
            if variant != RAZZ:
                winning |= _winners(n, eligible[p], high)
            if variant != STUD:
                winning |= _winners(n, eligible[p], low)
        live = winning
        halve = 0
        if variant == STUD8:
            for i in range(n):
                if winning >> i & 1 and low[i] != NO_LOW:
                    halve = 1
    for index in range(_pots(r, n, live, amounts, eligible) - 1, -1, -1):
        _award_pot(r, g, index, amounts[index], eligible[index], high, low, halve, awards,
                   work)
    r[PHASE] = OVER
