"""Order of play in the fast engine: who brings in, who acts first later (RULES.md 3 and 4).

As ``stud.engine.order``: the lowest door card brings in (ace high, clubs lowest), the highest
in razz (king high, ace low, spades highest); later the best showing hand acts first (pairs,
two pair, trips, a full house and quads count, then high cards; razz: the lowest A-5 showing),
ties broken by ``first_actor_tie``; an all-in first actor is skipped; after a community card
sixth street's first actor acts first on seventh.
"""

from __future__ import annotations

from typing import Any

from stud.fast.compiled import kernel
from stud.fast.layout import (
    BOARD,
    CARD,
    CARDS,
    FIRST_ON_SIXTH,
    FOLDED,
    G_OPEN_PAIR_BIG_BET,
    G_PLAYERS,
    G_TIE_BY_SUIT,
    G_VARIANT,
    HELD,
    RAZZ,
    STACK,
    UP,
)

Table = Any  # one hand's row of the table (int64)
Game = Any  # the game vector (int64)


@kernel
def can_act(r: Table, i: int) -> bool:
    """Not folded, chips behind."""
    return r[FOLDED + i] == 0 and r[STACK + i] > 0


@kernel
def next_actor_after(r: Table, n: int, i: int) -> int:
    """The next player clockwise from ``i`` who can still bet (-1: none)."""
    for step in range(1, n + 1):
        j = (i + step) % n
        if r[FOLDED + j] == 0 and r[STACK + j] > 0:
            return j
    return -1


@kernel
def _rank(card: int, lowball: bool) -> int:
    """Deuce 0 .. ace 12; in razz the ace low: ace 0 .. king 12."""
    rank = card >> 2
    return (rank + 1) % 13 if lowball else rank


@kernel
def showing(r: Table, i: int, lowball: bool) -> int:
    """What player i's up cards (and the community card) show, as ``evaluate.showing`` values
    them: the shape (high card, pair, two pair, trips, full house, quads), then the ranks (+1)
    of its groups, bigger groups first, higher ranks first. A higher value acts first (razz:
    the lowest hand has the highest value)."""
    once = twice = thrice = four = 0  # ranks seen at least once, twice, ...
    up = r[UP + i]
    held = r[HELD + i]
    board = r[BOARD]
    for k in range(held + 1):
        if k < held:
            if not up >> k & 1:
                continue
            card = r[CARD + CARDS * i + k]
        elif board >= 0:
            card = board
        else:
            break
        bit = 1 << _rank(card, lowball)
        four |= thrice & bit
        thrice |= twice & bit
        twice |= once & bit
        once |= bit
    quads, trips, pairs = four, thrice & ~four, twice & ~thrice
    singles = once & ~twice
    if quads:
        category = 5
    elif trips and pairs:
        category = 4
    elif trips:
        category = 3
    elif pairs & (pairs - 1):
        category = 2
    elif pairs:
        category = 1
    else:
        category = 0
    value = category << 20
    shift = 16
    for count in range(4, 0, -1):
        ranks = quads if count == 4 else trips if count == 3 else pairs if count == 2 \
            else singles
        rank = 12
        while ranks:
            if ranks >> rank & 1:
                ranks ^= 1 << rank
                for _ in range(count):
                    value |= (rank + 1) << shift
                    shift -= 4
            rank -= 1
    return (1 << 24) - value if lowball else value


@kernel
def _highest_card(r: Table, i: int, lowball: bool) -> int:
    """The highest up card by suit (razz: king high, ace low), for ``first_actor_tie = suit``."""
    best = -1
    up = r[UP + i]
    for k in range(r[HELD + i]):
        if up >> k & 1:
            card = r[CARD + CARDS * i + k]
            key = _rank(card, lowball) * 4 + (card & 3)
            best = max(best, key)
    if r[BOARD] >= 0:
        card = r[BOARD]
        best = max(best, _rank(card, lowball) * 4 + (card & 3))
    return best


@kernel
def bring_in_player(r: Table, g: Game) -> int:
    """The player whose door card brings in: the lowest (stud, stud8), the highest (razz)."""
    lowball = g[G_VARIANT] == RAZZ
    best, chosen = -1, -1
    for i in range(g[G_PLAYERS]):
        card = r[CARD + CARDS * i + 2]  # the door card: third street's up card
        key = _rank(card, lowball) * 4 + (card & 3) if lowball else 51 - card
        if key > best:
            best, chosen = key, i
    return chosen


@kernel
def first_to_act(r: Table, g: Game, street: int) -> int:
    """Who acts first on a later street (-1 only when nobody can act)."""
    n = g[G_PLAYERS]
    if r[BOARD] >= 0 and street == 7 and r[FIRST_ON_SIXTH] >= 0:
        first = r[FIRST_ON_SIXTH]
        return first if can_act(r, first) else next_actor_after(r, n, first)
    lowball = g[G_VARIANT] == RAZZ
    best, top, tie = -1, -1, False
    for i in range(n):
        if r[FOLDED + i]:
            continue
        value = showing(r, i, lowball)
        if value > top:
            best, top, tie = i, value, False
        elif value == top:
            tie = True
    if tie and g[G_TIE_BY_SUIT]:
        card = -1
        for i in range(n):
            if r[FOLDED + i] == 0 and showing(r, i, lowball) == top:
                key = _highest_card(r, i, lowball)
                if key > card:
                    best, card = i, key
    return best if r[STACK + best] > 0 else next_actor_after(r, n, best)


@kernel
def open_pair(r: Table, g: Game) -> bool:
    """Fourth street: a pair showing among the players in makes the big bet an option."""
    if not g[G_OPEN_PAIR_BIG_BET] or g[G_VARIANT] == RAZZ:
        return False
    for i in range(g[G_PLAYERS]):
        if r[FOLDED + i] == 0 and showing(r, i, g[G_VARIANT] == RAZZ) >> 20 == 1:
            return True
    return False
