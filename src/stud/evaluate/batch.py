"""Batch evaluation of seven-card hands: numba kernels beside the plain evaluators.

``high7``, ``low8`` and ``low_a5`` take an array of shape (N, 7) of card ids and return N values
that are exactly those of the plain references (``high_value``, ``low8_value`` with ``NO_LOW``
= -1, ``a5_value``), so the two are interchangeable. The seven cards of a hand must be distinct.

>>> import numpy as np
>>> from stud.cards import parse_cards
>>> hands = np.array([[c.id for c in parse_cards("AsKsQsJsTs2c3d")],
...                   [c.id for c in parse_cards("8s6d4h2cAsKdKh")]], dtype=np.uint8)
>>> [int(v) for v in high7(hands)] == [high_value(h) for h in hands.tolist()]
True
>>> [int(v) for v in low8(hands)]
[-1, 148]

Importing this module imports neither numba nor anything compiled: the kernels are compiled (or
loaded from numba's on-disk cache) and the tables built on the first call.

How the kernels work, per hand:

- Every card adds a 64-bit word from a 256-entry table (ids over 51 map to nothing). Rank r's
  count goes to a base-5 digit: ranks deuce..seven in one field (``LO``, < 5**6), eight..ace in
  another (``HI``, < 5**7); each suit's count goes to a nibble that starts at 3, so a nibble's
  top bit is set exactly when that suit has five cards or more (a flush).
- Without a flush, a high hand depends only on the rank counts: ``OFFSET[HI] + INDEX[LO]`` is a
  minimal perfect hash of the 49,205 possible count vectors (``INDEX`` numbers the LO digits
  among those with the same card total, ``OFFSET`` is a running sum over HI digits), and a table
  of that many values, built by calling ``high_value`` once per count vector, finishes the hand.
  With a flush (3% of hands; seven cards can make neither quads nor a full house beside one) the
  flush suit's 13-bit rank mask indexes a table built from ``high_value`` of the suited cards.
- An A-5 low depends only on the rank counts too: the same perfect hash, a table of ``a5_value``.
- An 8-or-better low depends only on which of ace..eight are present: an OR of one byte per card
  indexes the 256 entries of the plain evaluator's own ``LOW8`` table.
- A card-set bitmask accumulated both by OR and by addition catches a repeated card (the two
  differ) or an id over 51 (a sentinel bit) in the same pass.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np

from stud.evaluate.high import high_value
from stud.evaluate.low import LOW8, a5_value, low8_value

__all__ = ["a5_value", "high7", "high_value", "low8", "low8_value", "low_a5"]

CARDS_PER_HAND = 7

_LO_RANKS = 6  # deuce..seven: base-5 digits at bits 0-14 of the accumulator
_HI_SHIFT = 16  # eight..ace: base-5 digits at bits 16-32
_SUIT_SHIFT = 44  # clubs, diamonds, hearts, spades: one nibble each at bits 44-59
_SUIT_BIAS = 0x3333 << _SUIT_SHIFT  # 3 + count has its top bit set when count >= 5
_FLUSH_BITS = 0x8888 << _SUIT_SHIFT
_LO_MASK = (1 << 15) - 1  # wide enough for any sum of seven weights, repeated cards included
_HI_MASK = (1 << 17) - 1
_BAD_CARD = 1 << 62  # the card-set bit of an id over 51


# The kernels, as plain Python over NumPy arrays; numba compiles them on first use. Each returns
# the index of the first hand with a repeated card or an id over 51, or -1 when all are good.


def _high7_kernel(cards, out, weight, card_bit, offset, index, unsuited, suited):  # noqa: ANN001
    for i in range(cards.shape[0]):
        acc = _SUIT_BIAS
        seen = 0
        total = 0
        for j in range(CARDS_PER_HAND):
            c = cards[i, j]
            acc += weight[c]
            bit = card_bit[c]
            seen |= bit
            total += bit
        if seen != total or seen >> 52 != 0:
            return i
        flush = acc & _FLUSH_BITS
        if flush == 0:
            out[i] = unsuited[offset[(acc >> _HI_SHIFT) & _HI_MASK] + index[acc & _LO_MASK]]
        else:
            suit = 0
            while flush >> (_SUIT_SHIFT + 3 + 4 * suit) & 1 == 0:
                suit += 1
            mask = 0
            for j in range(CARDS_PER_HAND):
                c = cards[i, j]
                if c & 3 == suit:
                    mask |= 1 << (c >> 2)
            out[i] = suited[mask]
    return -1


def _low_a5_kernel(cards, out, weight, card_bit, offset, index, values):  # noqa: ANN001
    for i in range(cards.shape[0]):
        acc = 0
        seen = 0
        total = 0
        for j in range(CARDS_PER_HAND):
            c = cards[i, j]
            acc += weight[c]
            bit = card_bit[c]
            seen |= bit
            total += bit
        if seen != total or seen >> 52 != 0:
            return i
        out[i] = values[offset[(acc >> _HI_SHIFT) & _HI_MASK] + index[acc & _LO_MASK]]
    return -1


def _low8_kernel(cards, out, low_bit, card_bit, values):  # noqa: ANN001
    for i in range(cards.shape[0]):
        mask = 0
        seen = 0
        total = 0
        for j in range(CARDS_PER_HAND):
            c = cards[i, j]
            mask |= low_bit[c]
            bit = card_bit[c]
            seen |= bit
            total += bit
        if seen != total or seen >> 52 != 0:
            return i
        out[i] = values[mask]
    return -1


@dataclass(frozen=True)
class _Tables:
    weight: np.ndarray  # int64[256]: what one card adds to the accumulator
    card_bit: np.ndarray  # int64[256]: the card's bit in a card set, _BAD_CARD past 51
    low_bit: np.ndarray  # int64[256]: the card's bit among ace..eight (ace = bit 0), or 0
    offset: np.ndarray  # int32[2**17]: HI digits -> first slot of their count vectors
    index: np.ndarray  # int32[2**15]: LO digits -> place among LO digits of the same total
    unsuited: np.ndarray  # int32: high value of each count vector (no flush)
    a5: np.ndarray  # int32: A-5 value of each count vector
    suited: np.ndarray  # int32[8192]: high value of a flush suit's rank mask
    low8: np.ndarray  # int64[256]: LOW8 of the plain evaluator


def _digit_totals(ranks: int) -> np.ndarray:
    """For every number below 5**ranks, the sum of its base-5 digits."""
    totals = np.zeros(5**ranks, dtype=np.int64)
    values = np.arange(5**ranks)
    for _ in range(ranks):
        totals += values % 5
        values //= 5
    return totals


def _build_tables() -> _Tables:
    weight = np.zeros(256, dtype=np.int64)
    card_bit = np.full(256, _BAD_CARD, dtype=np.int64)
    low_bit = np.zeros(256, dtype=np.int64)
    for card in range(52):
        rank, suit = card >> 2, card & 3
        digit = 5**rank if rank < _LO_RANKS else 5 ** (rank - _LO_RANKS) << _HI_SHIFT
        weight[card] = digit + (1 << (_SUIT_SHIFT + 4 * suit))
        card_bit[card] = 1 << card
        low_rank = (rank + 1) % 13  # ace = 0 .. king = 12
        low_bit[card] = 1 << low_rank if low_rank < 8 else 0

    lo_totals = _digit_totals(_LO_RANKS)
    hi_totals = _digit_totals(13 - _LO_RANKS)
    index = np.zeros(_LO_MASK + 1, dtype=np.int32)
    per_total = np.zeros(CARDS_PER_HAND + 1, dtype=np.int64)
    for lo, total in enumerate(lo_totals.tolist()):
        if total <= CARDS_PER_HAND:
            index[lo] = per_total[total]
            per_total[total] += 1
    offset = np.zeros(_HI_MASK + 1, dtype=np.int32)
    vectors: list[tuple[int, ...]] = []
    lo_by_total = [
        [lo for lo in range(5**_LO_RANKS) if lo_totals[lo] == t] for t in range(CARDS_PER_HAND + 1)
    ]
    for hi, total in enumerate(hi_totals.tolist()):
        if total <= CARDS_PER_HAND:
            offset[hi] = len(vectors)
            vectors.extend((hi, lo) for lo in lo_by_total[CARDS_PER_HAND - total])

    # One hand per count vector, suits dealt in turn so that no suit has more than two cards.
    size = int(offset.max()) + int(index.max()) + 1  # in bounds for any key, even a bad one
    unsuited = np.zeros(size, dtype=np.int32)
    a5 = np.zeros(size, dtype=np.int32)
    for slot, (hi, lo) in enumerate(vectors):
        hand: list[int] = []
        digits = lo + hi * 5**_LO_RANKS
        for rank in range(13):
            for _ in range(digits % 5):
                hand.append(rank * 4 + len(hand) % 4)
            digits //= 5
        unsuited[slot] = high_value(hand)
        a5[slot] = a5_value(hand)

    suited = np.zeros(1 << 13, dtype=np.int32)
    for count in (5, 6, 7):
        for ranks in combinations(range(13), count):
            suited[sum(1 << r for r in ranks)] = high_value([r * 4 for r in ranks])
    return _Tables(weight, card_bit, low_bit, offset, index, unsuited, a5, suited,
                   np.array(LOW8, dtype=np.int64))


@dataclass(frozen=True)
class _Kernels:
    tables: _Tables
    high7: Callable[..., int]
    low8: Callable[..., int]
    low_a5: Callable[..., int]


_loaded: _Kernels | None = None


def _kernels() -> _Kernels:
    """Compile the kernels (or load them from numba's cache) and build the tables, once."""
    global _loaded
    if _loaded is None:
        import numba

        def compile_(kernel: Callable[..., int]) -> Callable[..., int]:
            return numba.njit(cache=True, nogil=True, boundscheck=False)(kernel)

        _loaded = _Kernels(_build_tables(), compile_(_high7_kernel), compile_(_low8_kernel),
                           compile_(_low_a5_kernel))
    return _loaded


def _as_hands(cards: Any) -> np.ndarray:
    """``cards`` as a C-contiguous uint8 array of shape (N, 7), or a ValueError saying why not."""
    array = np.asarray(cards)
    if array.ndim != 2 or array.shape[1] != CARDS_PER_HAND:
        raise ValueError(
            f"hands must be an array of shape (N, {CARDS_PER_HAND}), one row of seven card ids "
            f"per hand; got shape {array.shape}")
    if array.dtype == np.bool_ or not np.issubdtype(array.dtype, np.integer):
        raise ValueError(f"card ids must be integers, got dtype {array.dtype}")
    if array.dtype != np.uint8 and array.size:
        bad = (array < 0) | (array > 51)
        if bad.any():
            _raise_bad_hand(array, int(np.argmax(bad.any(axis=1))))
    return np.ascontiguousarray(array, dtype=np.uint8)


def _raise_bad_hand(hands: np.ndarray, row: int) -> None:
    ids = [int(c) for c in hands[row]]
    outside = [c for c in ids if not 0 <= c <= 51]
    if outside:
        raise ValueError(f"hand {row} {ids}: card id {outside[0]} is not between 0 and 51")
    repeated = next(c for c in ids if ids.count(c) > 1)
    raise ValueError(f"hand {row} {ids}: card id {repeated} appears twice")


def _run(cards: Any, kernel: Callable[..., int], *tables: np.ndarray) -> np.ndarray:
    hands = _as_hands(cards)
    out = np.empty(hands.shape[0], dtype=np.int64)
    bad = kernel(hands, out, *tables)
    if bad >= 0:
        _raise_bad_hand(hands, bad)
    return out


def high7(cards: Any) -> np.ndarray:
    """High values (as ``high_value``) of hands of seven distinct cards, shape (N, 7)."""
    k = _kernels()
    t = k.tables
    return _run(cards, k.high7, t.weight, t.card_bit, t.offset, t.index, t.unsuited, t.suited)


def low8(cards: Any) -> np.ndarray:
    """8-or-better low values (as ``low8_value``, -1 for no low) of hands, shape (N, 7)."""
    k = _kernels()
    t = k.tables
    return _run(cards, k.low8, t.low_bit, t.card_bit, t.low8)


def low_a5(cards: Any) -> np.ndarray:
    """A-5 low values (as ``a5_value``) of hands of seven distinct cards, shape (N, 7)."""
    k = _kernels()
    t = k.tables
    return _run(cards, k.low_a5, t.weight, t.card_bit, t.offset, t.index, t.a5)
