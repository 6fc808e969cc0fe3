"""A hand's flow from street to street in the fast engine, as ``stud.engine.hand`` flows:
antes and third street, the bring-in, the end of a betting round (the uncalled bet back), the
next street dealt and opened (or dealt without betting while fewer than two can bet), and the
hand over when one player is left; at the end of seventh street, the showdown waits for the
hands' values (``showdown.py``).
"""

from __future__ import annotations

from typing import Any

from stud.fast.betting import act, count_actors, count_live, open_round, update_uncapped
from stud.fast.compiled import kernel
from stud.fast.deal import deal_later_street, deal_third_street
from stud.fast.layout import (
    ACTOR,
    BIG_OPEN,
    BOARD,
    BRING_IN_MAY_FOLD,
    BRING_IN_PENDING,
    BRING_IN_SEAT,
    COMMITTED,
    FIRST_ON_SIXTH,
    FOLD_ORDER,
    G_ANTE,
    G_FOLD_FACING_ALL_IN_BRING_IN,
    G_PLAYERS,
    LAST_AGGRESSOR,
    PHASE,
    SEATS,
    SHOWDOWN,
    STACK,
    START,
    STREET,
    WAGER,
    WIDTH,
)
from stud.fast.order import bring_in_player, first_to_act, next_actor_after, open_pair
from stud.fast.showdown import award_uncontested

Table = Any
Stub = Any
Game = Any


@kernel
def start(r: Table, s: Stub, g: Game, stacks: Any, key: Any, mt: Any, back: Any,
          awards: Any) -> None:
    """A new hand: antes, third street dealt, the bring-in to act (or the streets dealt out
    while nobody can bet)."""
    for c in range(WIDTH):
        r[c] = 0
    r[ACTOR] = -1
    r[BOARD] = -1
    r[FIRST_ON_SIXTH] = -1
    r[LAST_AGGRESSOR] = -1
    r[STREET] = 3
    n = g[G_PLAYERS]
    ante = g[G_ANTE]
    for i in range(SEATS):
        r[FOLD_ORDER + i] = -1
    for i in range(n):
        stack = stacks[i]
        r[START + i] = stack
        posted = ante if stack > ante else stack
        r[STACK + i] = stack - posted
        r[COMMITTED + i] = posted
    deal_third_street(r, s, g)
    open_round(r, g, r[STREET])
    low = bring_in_player(r, g)
    r[BRING_IN_SEAT] = low
    if count_actors(r, n) < 2:
        end_round(r, s, g, key, mt, back, awards)
        return
    all_in = r[STACK + low] == 0
    r[BRING_IN_PENDING] = 1
    r[BRING_IN_MAY_FOLD] = 1 if all_in and g[G_FOLD_FACING_ALL_IN_BRING_IN] else 0
    update_uncapped(r, g)
    r[ACTOR] = next_actor_after(r, n, low) if all_in else low


@kernel
def _return_uncalled(r: Table, n: int) -> None:
    """The part of the largest commitment nobody matched goes back to its owner."""
    top, most, others = 0, -1, -1
    for k in range(n):
        amount = r[COMMITTED + k]
        if amount > most:
            top, most, others = k, amount, most
        elif amount > others:
            others = amount
    extra = most - others
    if extra > 0:
        r[WAGER + top] = max(0, r[WAGER + top] - extra)
        r[COMMITTED + top] -= extra
        r[STACK + top] += extra


@kernel
def end_round(r: Table, s: Stub, g: Game, key: Any, mt: Any, back: Any, awards: Any) -> None:
    """The betting round is over: the uncalled bet back, then the hand is won, or the next
    street is dealt."""
    n = g[G_PLAYERS]
    r[ACTOR] = -1
    _return_uncalled(r, n)
    if count_live(r, n) == 1:
        award_uncontested(r, n, awards)
        return
    while True:
        street = r[STREET]
        if street == 7:
            r[PHASE] = SHOWDOWN
            return
        street += 1
        r[STREET] = street
        open_round(r, g, street)
        deal_later_street(r, s, g, street, key, mt, back)
        if count_actors(r, n) >= 2:
            first = first_to_act(r, g, street)
            if street == 6:
                r[FIRST_ON_SIXTH] = first
            if street == 4 and open_pair(r, g):
                r[BIG_OPEN] = 1
            update_uncapped(r, g)
            r[ACTOR] = first
            return
        if street == 6:
            r[FIRST_ON_SIXTH] = -1


@kernel
def step(r: Table, s: Stub, g: Game, kind: int, to: int, key: Any, mt: Any, back: Any,
         awards: Any) -> None:
    """The player to act takes (kind, to), one of the legal actions; the hand goes on to the
    next decision, the showdown, or its end."""
    following = act(r, g, kind, to)
    r[ACTOR] = following
    if following < 0:
        end_round(r, s, g, key, mt, back, awards)

