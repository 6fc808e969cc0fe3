"""One street's fixed-limit betting in the fast engine, as ``stud.engine.betting`` bets.

``legal`` lists what the player to act may do, in the engine's order and with its amounts
("to" amounts: the street wager after the action); ``act`` does one of them and says who is
next. The bring-in and the completion, the open-pair big bet, the cap and heads-up, short
all-ins under ``half_bet`` or ``full_bet``, and raises for less that put everyone all in
(RULES.md 3-5) are all here, each read from the game vector where the engine reads its policy.
"""

from __future__ import annotations

from typing import Any

from stud.fast.compiled import kernel
from stud.fast.layout import (
    ACTED,
    ACTIONS,
    ACTOR,
    BET,
    BETS,
    BIG_OPEN,
    BRING_IN,
    BRING_IN_MAY_FOLD,
    BRING_IN_PENDING,
    CALL,
    CHECK,
    COMMITTED,
    COMPLETE,
    COMPLETES,
    CURRENT,
    FOLD,
    FOLD_ORDER,
    FOLDED,
    FOLDS,
    FULL_LEVEL,
    G_ALL_IN_RAISE_FOR_LESS,
    G_BIG,
    G_BRING_IN,
    G_FREE_FOLD,
    G_HALF_BET,
    G_HEADS_UP_UNCAPPED,
    G_MAX_BETS,
    G_PLAYERS,
    G_SHORT_BRING_IN_COMPLETES,
    G_SHORT_BRING_IN_FULL,
    G_SMALL,
    LARGEST,
    LAST_AGGRESSOR,
    NOTHING,
    RAISE,
    RAISE_SEQ,
    SEATS,
    SEQ_AT,
    SHORT_ALL_INS,
    SHORT_SUM,
    STACK,
    UNCAPPED,
    UNIT,
    WAGER,
    WAGERS_MADE,
)

Table = Any
Game = Any


@kernel
def open_round(r: Table, g: Game, street: int) -> None:
    """A new street's betting round: nothing wagered, nobody acted."""
    r[CURRENT] = 0
    r[FULL_LEVEL] = 0
    r[UNIT] = g[G_SMALL] if street <= 4 else g[G_BIG]
    r[BETS] = 0
    r[UNCAPPED] = 0
    r[BIG_OPEN] = 0
    r[RAISE_SEQ] = 0
    r[BRING_IN_PENDING] = 0
    r[BRING_IN_MAY_FOLD] = 0
    r[WAGERS_MADE] = 0
    r[LARGEST] = 0
    r[SHORT_ALL_INS] = 0
    r[SHORT_SUM] = 0
    r[LAST_AGGRESSOR] = -1
    r[COMPLETES] = 1 if street == 3 else 0
    for i in range(SEATS):
        r[WAGER + i] = 0
        r[ACTED + i] = 0
        r[SEQ_AT + i] = 0


@kernel
def count_live(r: Table, n: int) -> int:
    live = 0
    for i in range(n):
        if r[FOLDED + i] == 0:
            live += 1
    return live


@kernel
def count_actors(r: Table, n: int) -> int:
    """Players who have not folded and have chips behind."""
    actors = 0
    for i in range(n):
        if r[FOLDED + i] == 0 and r[STACK + i] > 0:
            actors += 1
    return actors


@kernel
def update_uncapped(r: Table, g: Game) -> None:
    """Heads-up before the cap, raising is unlimited (``heads_up_uncapped``)."""
    if (g[G_HEADS_UP_UNCAPPED] and r[UNCAPPED] == 0 and r[BETS] < g[G_MAX_BETS]
            and count_actors(r, g[G_PLAYERS]) <= 2):
        r[UNCAPPED] = 1


@kernel
def _reach(r: Table, n: int, i: int) -> int:
    """The most any opponent still in could have in on this street."""
    reach = 0
    for j in range(n):
        if j != i and r[FOLDED + j] == 0:
            reach = max(reach, r[STACK + j] + r[WAGER + j])
    return reach


@kernel
def _target(r: Table, g: Game, unit: int) -> int:
    """The "to" amount of a full bet or raise by ``unit`` (BettingRound.target)."""
    if g[G_HALF_BET]:
        return r[FULL_LEVEL] + unit
    if r[COMPLETES] and r[WAGERS_MADE] == 0:
        return g[G_SMALL]
    return r[CURRENT] + unit


@kernel
def _push(kinds: Any, tos: Any, k: int, kind: int, to: int) -> int:
    kinds[k] = kind
    tos[k] = to
    return k + 1


@kernel
def _raises(r: Table, g: Game, i: int, total: int, kinds: Any, tos: Any, k: int) -> int:
    """The bets or raises player i may make, after the k actions already listed."""
    if r[BETS] >= g[G_MAX_BETS] and not r[UNCAPPED]:
        return k
    current = r[CURRENT]
    reach = _reach(r, g[G_PLAYERS], i)
    if reach <= current:
        return k  # nobody could call a raise
    reopened = r[ACTED + i] == 0 or r[SEQ_AT + i] < r[RAISE_SEQ]
    if g[G_HALF_BET]:
        if not reopened:
            return k
    elif current - r[WAGER + i] < r[LARGEST]:
        return k  # PokerKit: a short all-in is not raised by who it did not reopen to
    elif r[SHORT_ALL_INS] and r[SHORT_SUM] < r[LARGEST] and not reopened:
        return k
    kind = RAISE if r[BETS] else (COMPLETE if r[COMPLETES] else BET)
    less = g[G_ALL_IN_RAISE_FOR_LESS]
    if not r[BIG_OPEN]:
        to = min(_target(r, g, r[UNIT]), total)
        if less and reach < to:  # for less than a full raise: it puts everyone all in
            k = _push(kinds, tos, k, kind, reach)
        return _push(kinds, tos, k, kind, to)
    small = min(_target(r, g, g[G_SMALL]), total)
    big = min(_target(r, g, g[G_BIG]), total)
    if less and current < reach < big and reach != small:
        if reach < small:
            k = _push(kinds, tos, k, kind, reach)
            k = _push(kinds, tos, k, kind, small)
        else:
            k = _push(kinds, tos, k, kind, small)
            k = _push(kinds, tos, k, kind, reach)
    else:
        k = _push(kinds, tos, k, kind, small)
    if big != small:
        k = _push(kinds, tos, k, kind, big)
    return k


@kernel
def legal(r: Table, g: Game, kinds: Any, tos: Any) -> int:
    """What the player to act may do: (kind, to) pairs into ``kinds`` and ``tos``, in the
    engine's order; how many (0 when nobody is to act)."""
    i = r[ACTOR]
    if i < 0:
        return 0
    wager = r[WAGER + i]
    total = wager + r[STACK + i]
    k = 0
    if r[BRING_IN_PENDING]:
        bring_in = g[G_BRING_IN]
        if r[BRING_IN_MAY_FOLD]:
            k = _push(kinds, tos, k, FOLD, NOTHING)
        k = _push(kinds, tos, k, BRING_IN, min(bring_in, total))
        if total > bring_in or g[G_SHORT_BRING_IN_COMPLETES]:
            k = _push(kinds, tos, k, COMPLETE, min(g[G_SMALL], total))
        return k
    current = r[CURRENT]
    if total <= current:  # covered: calling is all in
        k = _push(kinds, tos, k, FOLD, NOTHING)
        return _push(kinds, tos, k, CALL, total)
    if current > wager:
        k = _push(kinds, tos, k, FOLD, NOTHING)
        k = _push(kinds, tos, k, CALL, current)
    else:
        if g[G_FREE_FOLD]:
            k = _push(kinds, tos, k, FOLD, NOTHING)
        k = _push(kinds, tos, k, CHECK, NOTHING)
    return _raises(r, g, i, total, kinds, tos, k)


@kernel
def _put_in(r: Table, i: int, to: int) -> None:
    """Player i's street wager goes up to ``to``."""
    added = to - r[WAGER + i]
    r[STACK + i] -= added
    r[COMMITTED + i] += added
    r[WAGER + i] = to


@kernel
def _wager(r: Table, g: Game, i: int, to: int) -> None:
    """A completion, bet or raise to ``to`` (BettingRound._wager)."""
    before = r[CURRENT]
    small_target = _target(r, g, g[G_SMALL] if r[BIG_OPEN] else r[UNIT])
    big_made = r[BIG_OPEN] and to >= _target(r, g, g[G_BIG])
    _put_in(r, i, to)
    r[BRING_IN_PENDING] = 0
    r[BRING_IN_MAY_FOLD] = 0
    r[WAGERS_MADE] += 1
    r[LAST_AGGRESSOR] = i
    if big_made:
        r[BIG_OPEN] = 0
        r[UNIT] = g[G_BIG]
    unit = r[UNIT]
    if g[G_HALF_BET]:
        reach = _reach(r, g[G_PLAYERS], i)
        full = to >= small_target or (to >= reach and reach > before)
        if not full:
            prior = before if r[BETS] or r[WAGERS_MADE] > 1 else 0
            full = 2 * (to - prior) >= unit or to - r[FULL_LEVEL] >= unit
        if full:
            r[BETS] += 1
            r[FULL_LEVEL] = to
            r[RAISE_SEQ] += 1
    else:  # PokerKit's bookkeeping (BettingRound._count_full_bet)
        increment = to - before
        if increment >= r[LARGEST]:
            r[RAISE_SEQ] += 1
        r[LARGEST] = max(r[LARGEST], increment)
        r[BETS] += 1
        if r[STACK + i]:
            r[SHORT_ALL_INS] = 0
            r[SHORT_SUM] = 0
        else:
            r[SHORT_ALL_INS] += 1
            r[SHORT_SUM] += increment
        if r[SHORT_SUM] >= r[LARGEST]:
            r[SHORT_ALL_INS] = 0
            r[SHORT_SUM] = 0
        r[FULL_LEVEL] = max(before, before + increment)
    r[CURRENT] = max(before, to)


@kernel
def act(r: Table, g: Game, kind: int, to: int) -> int:
    """The player to act takes (kind, to), one of ``legal``'s; returns who acts next, -1 when
    the round is over."""
    i = r[ACTOR]
    n = g[G_PLAYERS]
    if kind == FOLD:
        r[FOLDED + i] = 1
        r[FOLD_ORDER + i] = r[FOLDS]
        r[FOLDS] += 1
    elif kind == CALL:
        _put_in(r, i, to)
    elif kind == BRING_IN:
        _put_in(r, i, to)
        r[BRING_IN_PENDING] = 0
        r[BRING_IN_MAY_FOLD] = 0
        owed = g[G_BRING_IN] if g[G_SHORT_BRING_IN_FULL] else to
        r[CURRENT] = max(owed, to)
    elif kind != CHECK:
        _wager(r, g, i, to)
    r[ACTED + i] = 1
    r[SEQ_AT + i] = r[RAISE_SEQ]
    r[ACTIONS] += 1
    if count_live(r, n) == 1:
        return -1
    actors = count_actors(r, n)
    if not r[UNCAPPED] and actors <= 2:
        update_uncapped(r, g)
    current = r[CURRENT]
    for step in range(1, n + 1):
        j = (i + step) % n
        if r[FOLDED + j] or r[STACK + j] == 0:
            continue
        if r[WAGER + j] < current or (actors >= 2 and r[ACTED + j] == 0):
            return j
    return -1
