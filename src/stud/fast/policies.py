"""The built-in players of the fast engine, compiled: each picks one of the legal actions.

- ``random``: uniform among the legal actions, with ``stud.bots.simple.RandomBot``'s generator
  (a 64-bit multiplicative congruential generator, the high 32 bits of each step): a seat
  seeded as a RandomBot is seeded picks the same index from the same legal actions;
- ``station``: checks or calls, brings in when it must, never raises (``CallingStation``);
- ``strength``: plays the strength of the cards it can see, as ``stud.bots.strength``'s
  StrengthBot does (its own cards; opponents' up cards that show more cost it), with its noise
  drawn from the hand's own generator.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from stud.fast.compiled import kernel
from stud.fast.layout import (
    ACTOR,
    BOARD,
    BRING_IN,
    CALL,
    CARD,
    CARDS,
    CHECK,
    COMMITTED,
    FOLD,
    FOLDED,
    G_BRING_IN,
    G_PLAYERS,
    G_VARIANT,
    HELD,
    RAZZ,
    SEATS,
    STREET,
    STUD,
    STUD8,
    WAGER,
    code,
)
from stud.fast.order import showing

RANDOM, STATION, STRENGTH = code(0), code(1), code(2)
POLICIES = ("random", "station", "strength")

_SPREAD = np.uint64(0x9E3779B97F4A7C15)
_OFFSET = np.uint64(0x632BE59BD9B4E019)
_STEP = np.uint64(0xF1357AEA2E62A9C5)
_ONE = np.uint64(1)
_HALF = np.uint64(32)
_HAND = code(SEATS)  # the hand's own generator, after the seats'
_NOISE = code(1 << 30)


def random_state(seed: int) -> int:
    """The generator state a RandomBot seeded with ``seed`` starts from."""
    return (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & (1 << 64) - 1 | 1


def seeded_states(seeds: Any) -> Any:
    """``random_state`` of an array of 64-bit seeds (uint64), at once."""
    with np.errstate(over="ignore"):
        return (seeds * _SPREAD + _OFFSET) | _ONE


@kernel
def _draw(rng: Any, k: int, count: int) -> int:
    """The next of generator k's numbers below ``count``."""
    state = rng[k] * _STEP
    rng[k] = state
    return int(state >> _HALF) % count


@kernel
def _card(r: Any, i: int, k: int) -> int:
    """Player i's card k, the community card after its own."""
    return r[CARD + CARDS * i + k] if k < r[HELD + i] else r[BOARD]


@kernel
def _high_strength(r: Any, i: int, count: int) -> float:
    """StrengthBot's high_strength of player i's ``count`` cards: made hands and draws."""
    ranks = suits = 0  # 3 bits a rank's count, 4 bits a suit's
    for k in range(count):
        card = _card(r, i, k)
        ranks += 1 << 3 * (card >> 2)
        suits += 1 << 4 * (card & 3)
    first = second = 0  # the two largest rank counts
    top_pair, high, trips = -1, -1, -1
    for rank in range(13):
        c = ranks >> 3 * rank & 7
        if c > first:
            first, second = c, first
        elif c > second:
            second = c
        if c >= 2:
            top_pair = rank
        if c == 3:
            trips = rank
        if c:
            high = rank
    flush = 0
    for s in range(4):
        flush = max(flush, suits >> 4 * s & 15)
    run = best = 1
    previous = -1 if ranks >> 36 & 7 else -2  # the ace plays low in a wheel
    for rank in range(13):
        if ranks >> 3 * rank & 7:
            run = run + 1 if rank == previous + 1 else 1
            best = max(best, run)
            previous = rank
    if first >= 3 and second >= 2:
        return 0.97
    if first >= 4 or flush >= 5 or best >= 5:
        return 0.95
    if first == 3:
        return 0.85 + 0.01 * trips
    if first == 2 and second == 2:
        return 0.65 + 0.01 * top_pair
    score = 0.35 + 0.02 * top_pair if first == 2 else 0.05 + 0.015 * high
    left = 7 - count
    if flush >= 3 and flush + left >= 5:
        score += 0.08 * (flush - 2)
    if best >= 3 and best + left >= 5:
        score += 0.06 * (best - 2)
    return min(score, 0.9)


@kernel
def _low_strength(r: Any, i: int, count: int, qualifier: bool) -> float:
    """StrengthBot's low_strength: distinct low ranks (8 or lower with the qualifier)."""
    present = 0
    for k in range(count):
        rank = ((_card(r, i, k) >> 2) + 1) % 13
        if not qualifier or rank <= 7:
            present |= 1 << rank
    if present == 0:
        return 0.0
    lows, top = 0, 12
    for rank in range(13):
        if present >> rank & 1 and lows < 5:
            lows += 1
            top = rank
    left = 7 - count
    if lows + left < 5:
        return 0.05
    return min(1.0, 0.15 * lows + 0.04 * (12 - top) - 0.1 * max(0, 5 - lows - left))


@kernel
def strength(r: Any, g: Any, i: int) -> float:
    """StrengthBot.strength: its own cards' strength, less for each opponent showing more."""
    count = r[HELD + i] + (1 if r[BOARD] >= 0 else 0)
    variant = g[G_VARIANT]
    if variant == STUD:
        mine = _high_strength(r, i, count)
    elif variant == RAZZ:
        mine = _low_strength(r, i, count, variant == STUD8)  # False: no qualifier
    else:
        mine = max(_high_strength(r, i, count),
                   0.9 * _low_strength(r, i, count, variant == STUD8))
    lowball = variant == RAZZ
    me = showing(r, i, lowball)
    for j in range(g[G_PLAYERS]):
        if j != i and r[FOLDED + j] == 0 and showing(r, j, lowball) > me:
            mine -= 0.05
    return max(0.0, min(1.0, mine))


@kernel
def choose(r: Any, g: Any, policy: int, rng: Any, kinds: Any, tos: Any, count: int) -> int:
    """The index of the legal action the player to act (``policy``) takes."""
    i = r[ACTOR]
    if policy == RANDOM:
        return _draw(rng, i, count)
    if policy == STATION:
        for wanted in (CHECK, CALL, BRING_IN):
            for k in range(count):
                if kinds[k] == wanted:
                    return k
        return 0
    noise = (_draw(rng, _HAND, _NOISE) / (1 << 30) - 0.5) * 0.1
    return strength_choice(r, g, i, strength(r, g, i) + noise, kinds, tos, count)


@kernel
def strength_choice(r: Any, g: Any, i: int, s: float, kinds: Any, tos: Any, count: int) -> int:
    """StrengthBot.act's choice for player i whose strength with its noise is ``s``."""
    first_wager, last_wager, check, bring_in, call, fold = -1, -1, -1, -1, -1, -1
    for k in range(count):
        kind = kinds[k]
        if kind == FOLD:
            fold = k
        elif kind == CHECK:
            check = k
        elif kind == CALL:
            call = k
        elif kind == BRING_IN:
            bring_in = k
        else:
            if first_wager < 0:
                first_wager = k
            last_wager = k
    if first_wager >= 0 and s > 0.75:
        return last_wager if s > 0.9 else first_wager
    if check >= 0:
        return check
    if bring_in >= 0:
        return bring_in
    if call >= 0:
        price = tos[call] - r[WAGER + i]
        pot = 0
        for j in range(g[G_PLAYERS]):
            pot += r[COMMITTED + j]
        if s >= 0.3 + price / max(1, pot + price) or (r[STREET] == 3
                                                      and price <= g[G_BRING_IN]):
            return call
    return fold if fold >= 0 else 0
