"""The compact observation of a seat, from the fast engine's table: what ``stud.rl``'s
vectorised environment hands a learner, and what ``stud.rl.encode_compact`` builds from the
engine's ``HandView`` (``tests/rl`` proves the two equal).

One float32 vector of ``COMPACT_SIZE`` (240) entries a seat, whatever the number of players.
Seat blocks are relative to the observer: block 0 is the observer, block ``k`` the ``k``-th
seat to its left; blocks past the last player are zero. Chips are in big bets. A card is its
id plus one (``stud.cards``: ``rank * 4 + suit``, deuce of clubs 1 .. ace of spades 52), 0
where no card is dealt or the observer may not see it: the observer's own cards and the other
seats' up cards, never another seat's down card (not even one shown at the showdown: the
showdown's outcome is in the reward).

Bets by street are the chips a seat put in on each street (the bring-in on third street;
antes are not bets: ``committed`` less the bets). Both environments keep them the same way:
a street's bets are fixed when the hand moves past it.

Once the hand is over (``over``) its pots have been awarded: each ``stack`` holds the seat's
chips after the awards, and ``pot`` and every ``committed`` are 0 (the bets by street stay,
what each seat bet), so the stacks and the pot always add up to the chips at the table.
"""

from __future__ import annotations

from typing import Any

from stud.fast.betting import legal
from stud.fast.compiled import entry, kernel
from stud.fast.layout import (
    ACTOR,
    BETTING,
    BOARD,
    BRING_IN,
    BRING_IN_SEAT,
    CALL,
    CARD,
    CARDS,
    CHECK,
    COMMITTED,
    CURRENT,
    FOLD,
    FOLDED,
    G_ANTE,
    G_BIG,
    G_BRING_IN,
    G_PLAYERS,
    G_SMALL,
    G_VARIANT,
    HELD,
    OVER,
    PHASE,
    SEATS,
    STACK,
    STREET,
    UP,
    WAGER,
    code,
)

STREETS = 5  # third .. seventh
# One block a seat: (name, size), in order.
SEAT_FIELDS: tuple[tuple[str, int], ...] = (
    ("cards", CARDS), ("held", 1), ("up", CARDS), ("present", 1), ("folded", 1),
    ("all_in", 1), ("to_act", 1), ("bring_in", 1), ("stack", 1), ("committed", 1),
    ("bets", STREETS),
)
TABLE_FIELDS: tuple[tuple[str, int], ...] = (
    ("board", 1), ("street", STREETS), ("over", 1), ("pot", 1), ("current_bet", 1),
    ("to_call", 1), ("seat_number", SEATS), ("variant", 3), ("stakes", 3),
)


def _offsets(fields: tuple[tuple[str, int], ...], start: int) -> dict[str, int]:
    found, at = {}, start
    for name, size in fields:
        found[name] = at
        at += size
    return found


_SEAT = _offsets(SEAT_FIELDS, 0)
SEAT_SIZE = sum(size for _, size in SEAT_FIELDS)
_TABLE = _offsets(TABLE_FIELDS, SEATS * SEAT_SIZE)
COMPACT_SIZE = SEATS * SEAT_SIZE + sum(size for _, size in TABLE_FIELDS)

# Numba reads these module-level ints as constants.
O_CARDS, O_HELD, O_UP, O_PRESENT, O_FOLDED, O_ALL_IN, O_TO_ACT, O_BRING_IN, O_STACK, \
    O_COMMITTED, O_BETS = (code(_SEAT[name]) for name, _ in SEAT_FIELDS)
O_BOARD, O_STREET, O_OVER, O_POT, O_CURRENT_BET, O_TO_CALL, O_SEAT_NUMBER, O_VARIANT, \
    O_STAKES = (code(_TABLE[name]) for name, _ in TABLE_FIELDS)
_SEAT_SIZE = code(SEAT_SIZE)

# The learner's discrete actions (stud.rl's Discrete(5)), and how many.
A_FOLD, A_CHECK_CALL, A_BRING_IN, A_WAGER_SMALL, A_WAGER_BIG = (code(k) for k in range(5))
ACTIONS = 5


def compact_layout() -> dict[str, slice]:
    """Each named field's slice of the vector: ``seat{k}.{name}`` for k in 0..7, then the
    table's fields."""
    layout = {}
    for k in range(SEATS):
        for name, size in SEAT_FIELDS:
            start = k * SEAT_SIZE + _SEAT[name]
            layout[f"seat{k}.{name}"] = slice(start, start + size)
    for name, size in TABLE_FIELDS:
        layout[name] = slice(_TABLE[name], _TABLE[name] + size)
    return layout


@kernel
def track_bets(r: Any, n: int, base: Any, bets: Any, street: Any) -> None:
    """After an action: when the hand has moved past ``street[0]``, that street's bets are
    fixed (what each seat committed beyond its antes and earlier streets' bets)."""
    now = r[STREET]
    last = street[0]
    if now == last:
        return
    for i in range(n):
        earlier = 0
        for s in range(last - 3):
            earlier += bets[i, s]
        bets[i, last - 3] = r[COMMITTED + i] - base[i] - earlier
    street[0] = now


@kernel
def action_slots(r: Any, g: Any, kinds: Any, tos: Any, slots: Any) -> None:
    """Which legal action (index of ``legal``'s list) each discrete action stands for, -1
    where none: fold; check or call; bring-in; the smallest wager; the largest wager when
    there are two or more."""
    for a in range(ACTIONS):
        slots[a] = -1
    if r[PHASE] != BETTING or r[ACTOR] < 0:
        return
    count = legal(r, g, kinds, tos)
    small, big, wagers = -1, -1, 0
    for k in range(count):
        kind = kinds[k]
        if kind == FOLD:
            slots[A_FOLD] = k
        elif kind == CHECK or kind == CALL:
            slots[A_CHECK_CALL] = k
        elif kind == BRING_IN:
            slots[A_BRING_IN] = k
        else:
            wagers += 1
            if small < 0 or tos[k] < tos[small]:
                small = k
            if big < 0 or tos[k] > tos[big]:
                big = k
    if wagers:
        slots[A_WAGER_SMALL] = small
    if wagers > 1:
        slots[A_WAGER_BIG] = big


@kernel
def encode(r: Any, g: Any, me: int, base: Any, bets: Any, out: Any) -> None:
    """Seat ``me``'s (index) compact observation of hand ``r`` into ``out`` (zeroed here)."""
    n = g[G_PLAYERS]
    unit = float(g[G_BIG])
    for c in range(out.shape[0]):
        out[c] = 0.0
    actor = r[ACTOR]
    over = r[PHASE] == OVER  # the pot awarded: in the stacks, no longer in the pot
    pot = 0
    for k in range(n):
        i = (me + k) % n
        o = k * _SEAT_SIZE
        held = r[HELD + i]
        up = r[UP + i]
        for slot in range(held):
            face_up = up >> slot & 1
            if face_up:
                out[o + O_UP + slot] = 1.0
            if face_up or i == me:
                out[o + O_CARDS + slot] = r[CARD + CARDS * i + slot] + 1
        out[o + O_HELD] = held
        out[o + O_PRESENT] = 1.0
        folded = r[FOLDED + i] != 0
        if folded:
            out[o + O_FOLDED] = 1.0
        if r[STACK + i] == 0 and not folded:
            out[o + O_ALL_IN] = 1.0
        if i == actor:
            out[o + O_TO_ACT] = 1.0
        if i == r[BRING_IN_SEAT]:
            out[o + O_BRING_IN] = 1.0
        committed = r[COMMITTED + i]
        out[o + O_STACK] = r[STACK + i] / unit
        if not over:
            pot += committed
            out[o + O_COMMITTED] = committed / unit
        street = r[STREET]
        earlier = 0
        for s in range(street - 3):
            out[o + O_BETS + s] = bets[i, s] / unit
            earlier += bets[i, s]
        out[o + O_BETS + street - 3] = (committed - base[i] - earlier) / unit
    if r[BOARD] >= 0:
        out[O_BOARD] = r[BOARD] + 1
    out[O_STREET + r[STREET] - 3] = 1.0
    if over:
        out[O_OVER] = 1.0
    out[O_POT] = pot / unit
    out[O_CURRENT_BET] = r[CURRENT] / unit
    owed = r[CURRENT] - r[WAGER + me]
    owed = min(max(0, owed), r[STACK + me])
    out[O_TO_CALL] = owed / unit
    out[O_SEAT_NUMBER + me] = 1.0
    out[O_VARIANT + g[G_VARIANT]] = 1.0
    out[O_STAKES] = g[G_ANTE] / unit
    out[O_STAKES + 1] = g[G_BRING_IN] / unit
    out[O_STAKES + 2] = g[G_SMALL] / unit


@entry
def observe_all(table: Any, game: Any, observer: Any, base: Any, bets: Any, out: Any,
                slots: Any, kinds: Any, tos: Any, lo: int, hi: int) -> None:
    """Hands lo..hi-1: each observer's (index) observation, and the discrete actions' slots
    where that observer is to act (-1 elsewhere), with the legal actions they index
    (``kinds[h]``, ``tos[h]``: the next step takes them from there)."""
    for h in range(lo, hi):
        r = table[h]
        me = observer[h]
        encode(r, game, me, base[h], bets[h], out[h])
        if r[ACTOR] == me:
            action_slots(r, game, kinds[h], tos[h], slots[h])
        else:
            for a in range(ACTIONS):
                slots[h, a] = -1
