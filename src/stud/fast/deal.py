"""The dealer of the fast engine: third street, a burn before each later street, the stub
running short (RULES.md 2), as ``stud.engine.dealer`` deals from a deck.

The stub is the hand's row of ``stub`` from ``TOP`` on, in the order the cards leave it. A
reshuffle (``deck_exhaustion = reshuffle``) puts the burned and mucked cards, shuffled as
``Deck.reshuffle`` shuffles them, under the cards left: it rewrites the row in place, in front
of its end.
"""

from __future__ import annotations

from typing import Any

from stud.fast.compiled import kernel
from stud.fast.layout import (
    BOARD,
    BURN_CARDS,
    BURNED,
    CARD,
    CARDS,
    FOLD_ORDER,
    FOLDED,
    FOLDS,
    G_PLAYERS,
    G_RESHUFFLE,
    HELD,
    MUCK_FROM,
    RESHUFFLES,
    SEATS,
    TOP,
    UP,
)
from stud.fast.twister import shuffle

Table = Any
Stub = Any  # one hand's stub row (uint8[52])
Game = Any
DECK = 52


@kernel
def _give(r: Table, i: int, card: int, up: bool) -> None:
    held = r[HELD + i]
    r[CARD + CARDS * i + held] = card
    if up:
        r[UP + i] |= 1 << held
    r[HELD + i] = held + 1


@kernel
def deal_third_street(r: Table, s: Stub, g: Game) -> None:
    """Two down cards and one up card to every player, a card at a time from seat 1."""
    n = g[G_PLAYERS]
    top = r[TOP]
    for round_ in range(3):
        for i in range(n):
            _give(r, i, s[top], round_ == 2)
            top += 1
    r[TOP] = top


@kernel
def _reshuffle(r: Table, s: Stub, key: Any, mt: Any, back: Any) -> None:
    """Burned cards, then folded hands in the order they folded, shuffled under the stub."""
    count = 0
    for k in range(r[BURNED]):
        back[count] = r[BURN_CARDS + k]
        count += 1
    for order in range(r[MUCK_FROM], r[FOLDS]):
        for i in range(SEATS):
            if r[FOLD_ORDER + i] == order:
                for k in range(r[HELD + i]):
                    back[count] = r[CARD + CARDS * i + k]
                    count += 1
    if count == 0:
        return
    # Only seventh street can find the stub short, so a hand reshuffles once at most: with
    # Deck.reshuffle's salt 1, whose key is ``key``.
    r[RESHUFFLES] += 1
    shuffle(back, count, key, mt)
    top = r[TOP]
    left = DECK - top
    start = DECK - left - count
    for k in range(left):  # the cards left first: forward, onto places already dealt
        s[start + k] = s[top + k]
    for k in range(count):
        s[start + left + k] = back[k]
    r[TOP] = start
    r[BURNED] = 0
    r[MUCK_FROM] = r[FOLDS]


@kernel
def deal_later_street(r: Table, s: Stub, g: Game, street: int, key: Any, mt: Any,
                      back: Any) -> None:
    """A burn card, then one card (up on 4th to 6th, down on 7th) to each player still in;
    when the stub runs short, no burn, then a community card (RULES.md 2)."""
    n = g[G_PLAYERS]
    need = 0
    for i in range(n):
        if r[FOLDED + i] == 0:
            need += 1
    if DECK - r[TOP] < need + 1 and g[G_RESHUFFLE]:
        _reshuffle(r, s, key, mt, back)
    top = r[TOP]
    if DECK - top >= need + 1:
        burned = r[BURNED]
        if burned < 4:
            r[BURN_CARDS + burned] = s[top]
        r[BURNED] = burned + 1
        top += 1
    if DECK - top < need:
        r[BOARD] = s[top]
        r[TOP] = top + 1
        return
    up = street < 7
    for i in range(n):
        if r[FOLDED + i] == 0:
            _give(r, i, s[top], up)
            top += 1
    r[TOP] = top
