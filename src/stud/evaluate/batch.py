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
>>> from stud.evaluate.low import low8_ranks
>>> lows = low8(hands)
>>> int(lows[0]), low8_ranks(int(lows[1]))  # no low in the first hand
(-1, (8, 6, 4, 2, 1))

Importing this module imports neither numba nor anything compiled: the kernels are compiled (or
loaded from numba's on-disk cache) and the tables built on the first call.

How the kernels work, per hand (about fifty machine instructions for a high hand, twenty-five
for an 8-or-better low, no branch but a rare one for flushes):

- Each card adds a 64-bit word from a 256-entry table. Rank r's count goes to a base-5 digit:
  deuce..eight in one field (LO, below 5**7), nine..ace in another (HI, below 5**6); each
  suit's count goes to a nibble that starts at 3, so a nibble's top bit is set exactly when the
  suit has five cards or more (a flush).
- Without a flush a high hand depends only on the rank counts: ``offset[HI] + index[LO]`` is a
  minimal perfect hash of the 49,205 count vectors of seven cards (``index`` numbers LO among
  the LO fields with the same card total, ``offset`` is a running sum over HI), and a table
  built by calling ``high_value`` once per count vector finishes the hand. With a flush (3% of
  hands; seven cards cannot also hold quads or a full house) the flush suit's 13-bit rank mask
  indexes a table built from ``high_value`` of the suited cards.
- An A-5 low depends only on the rank counts too: the same hash, a table of ``a5_value`` (of
  its own table ``A5_UNPAIRED`` where five ranks or more differ).
- An 8-or-better low depends only on which of ace..eight are present: the OR of one word per
  card holds them in bits 52-59, which index the plain evaluator's own 256-entry ``LOW8``.
- Every card also sets its own bit in a card set: seven distinct ids make seven bits (one
  POPCNT per hand), and an id over 51 leaves a mark in the accumulator (or, beyond a byte or
  below 0, a bit above the low byte that a vector test of the hand's seven ids finds). So the
  shape, the ids and repeated cards are all checked, and a bad hand is a ValueError that
  names it.
- Input of any integer dtype is read as it is, with no conversion: each card by one byte load
  of its id's low byte, as from uint8. Input wider than a byte (NumPy's default int64: 56
  bytes a hand) is prefetched 64 hands ahead, so that its loads do not wait on memory one by
  one; it still costs more than uint8, eight times the bytes (the README has the figures).

The tables are built from the plain evaluators on the first call (about half a second); the
kernels themselves come from numba's cache after the first process compiled them.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt

from stud.cards import CARDS
from stud.evaluate.high import high_value
from stud.evaluate.low import A5_UNPAIRED, LOW8, a5_value, low8_value

Array = npt.NDArray[Any]

__all__ = ["REFERENCES", "a5_value", "high7", "high_value", "low8", "low8_value", "low_a5"]

CARDS_PER_HAND = 7

_LO_RANKS = 7  # deuce..eight: base-5 digits at bits 0-16 of the accumulator
_HI_SHIFT = 20  # nine..ace: base-5 digits at bits 20-34
_SUIT_SHIFT = 44  # clubs, diamonds, hearts, spades: one nibble each at bits 44-59
_SUIT_BIAS = 0x3333 << _SUIT_SHIFT  # 3 + count has its top bit set when count >= 5
_FLUSH_BITS = 0x8888 << _SUIT_SHIFT
_LO_MASK = (1 << 17) - 1  # wide enough for any sum of seven weights, repeated cards included
_HI_MASK = (1 << 15) - 1
_BAD_SHIFT = 60  # what an id over 51 adds to the accumulator: seven of them still fit
_CARD_SET = (1 << 52) - 1  # a hand's cards as bits 0-51; a low8 word has its low ranks above
_LOW_SHIFT = 52


def _popcount(x: int) -> int:
    """Set bits of x (numba compiles it to one POPCNT instruction: see ``_load``)."""
    return int(x).bit_count()


_AHEAD = 64  # hands: how far ahead ``_prefetch`` asks for wider input (3.5 KB of int64)


def _no_marks(cards: Array) -> Any:
    """What ``_mark`` starts from: nothing marked. Numba compiles it, for wider ids, to a
    vector of four zero ids held in a register through the kernel's loop (``Marks``)."""
    return 0


def _mark(marks: Any, cards: Array, i: int) -> Any:
    """``marks`` with the ids of hand ``i`` ORed in (for bytes, which the kernels' tables check
    themselves, nothing). Numba compiles it, for wider ids, to two overlapping vector loads of
    the hand's seven ids (0-3 and 3-6, every load inside the hand) ORed into the register:
    two instructions a hand with AVX-512 (a load, and a load folded into a three-way OR), none
    on the hand's own critical path."""
    if cards.dtype.itemsize == 1:
        return marks
    return marks | int(np.bitwise_or.reduce(cards[i]))


def _marked(cards: Array, marks: Any) -> int:
    """1 when some id ORed into ``marks`` had a bit beyond its low byte (over 255, or below
    0), which no table holds; else 0. One test of the register after the loop."""
    if cards.dtype.itemsize == 1:
        return 0
    return int(marks >> 8 != 0)


def _card(cards: Array, low_bytes: Array, i: int, j: int) -> int:
    """Card ``j`` of hand ``i``: for wider ids, its low byte, read from ``low_bytes`` (the
    input's memory seen as bytes) by one byte load, as from uint8 input."""
    return int(cards[i, j]) & 255


def _prefetch(cards: Array, low_bytes: Array, i: int) -> None:
    """Ask the CPU now for the cards ``_AHEAD`` hands after hand ``i`` (numba compiles it to one
    prefetch instruction for input wider than a byte, to nothing for uint8: see ``_load``).

    A kernel's loop over int64 input, 56 bytes a hand, would otherwise wait on each hand's
    cache line as it reaches it; asked for early, the line is there in time (the README has the
    measured figures). Plain Python has nothing to ask for."""


# The kernels, as plain Python over NumPy arrays (NUMBA_DISABLE_JIT=1 runs them as they read);
# numba compiles them on first use, once for each dtype. Each returns 0 when every hand has
# seven distinct ids 0..51, else nonzero; the values of bad hands are then meaningless, but
# every table index stays in bounds. Seven distinct ids make a card set of seven bits; an id
# from 52 to 255 adds a mark above the suit counts (high, A-5) or no bit at all (8-or-better);
# an id below 0 or over 255 (wider dtypes) is caught by ``_mark``, and is read as its low byte
# meanwhile. No branch per card and none per id check: the loop over a hand's cards is the same
# seven byte loads for every dtype.


def _slot(acc: int, offset: Array, index: Array) -> int:
    """The perfect hash of an accumulator's rank counts."""
    return int(offset[(acc >> _HI_SHIFT) & _HI_MASK]) + int(index[acc & _LO_MASK])


def _counted(cards: Array, low_bytes: Array, i: int, weight: Array,
             acc: int) -> tuple[int, int]:
    """``acc`` with the weights of hand ``i``'s cards added, and the hand's card set."""
    seen = 0
    for j in range(CARDS_PER_HAND):
        c = _card(cards, low_bytes, i, j)
        acc += weight[c]
        seen |= 1 << (c & 63)
    return acc, seen


def _high7_kernel(cards: Array, low_bytes: Array, out: Array, weight: Array, offset: Array,
                  index: Array, unsuited: Array, suited: Array) -> int:
    bad = 0
    marks = _no_marks(cards)
    for i in range(cards.shape[0]):
        _prefetch(cards, low_bytes, i)
        marks = _mark(marks, cards, i)
        acc, seen = _counted(cards, low_bytes, i, weight, _SUIT_BIAS)
        bad |= (_popcount(seen) ^ CARDS_PER_HAND) | acc >> _BAD_SHIFT
        flush = acc & _FLUSH_BITS
        if flush == 0:
            out[i] = unsuited[_slot(acc, offset, index)]
        else:
            suit = 0
            while flush >> (_SUIT_SHIFT + 3 + 4 * suit) & 1 == 0:
                suit += 1
            # The flush suit's ranks: its bits of the card set, one in every four.
            mask = 0
            for rank in range(13):
                mask |= (seen >> (4 * rank + suit) & 1) << rank
            out[i] = suited[mask]
    return bad | _marked(cards, marks)


def _low_a5_kernel(cards: Array, low_bytes: Array, out: Array, weight: Array, offset: Array,
                   index: Array, a5: Array) -> int:
    bad = 0
    marks = _no_marks(cards)
    for i in range(cards.shape[0]):
        _prefetch(cards, low_bytes, i)
        marks = _mark(marks, cards, i)
        acc, seen = _counted(cards, low_bytes, i, weight, 0)
        bad |= (_popcount(seen) ^ CARDS_PER_HAND) | acc >> _BAD_SHIFT
        out[i] = a5[_slot(acc, offset, index)]
    return bad | _marked(cards, marks)


def _low8_kernel(cards: Array, low_bytes: Array, out: Array, low_card: Array,
                 low8: Array) -> int:
    bad = 0
    marks = _no_marks(cards)
    for i in range(cards.shape[0]):
        _prefetch(cards, low_bytes, i)
        marks = _mark(marks, cards, i)
        seen = 0
        for j in range(CARDS_PER_HAND):
            seen |= int(low_card[_card(cards, low_bytes, i, j)])
        bad |= _popcount(seen & _CARD_SET) ^ CARDS_PER_HAND
        out[i] = low8[(seen >> _LOW_SHIFT) & 255]  # the mask keeps the index unsigned
    return bad | _marked(cards, marks)


@dataclass(frozen=True)
class _Tables:
    weight: np.ndarray  # int64[256]: what one card adds to the accumulator
    low_card: np.ndarray  # int64[256]: the card's bit, its rank among ace..eight from bit 52
    offset: np.ndarray  # uint16[2**15]: HI -> the first slot of its count vectors
    index: np.ndarray  # uint16[2**17]: LO -> its place among LOs of the same card total
    unsuited: np.ndarray  # int32: high value of each count vector (no flush)
    a5: np.ndarray  # int32: A-5 value of each count vector
    suited: np.ndarray  # int32[8192]: high value of a flush suit's rank mask
    low8: np.ndarray  # int64[256]: LOW8 of the plain evaluator


def _digits(ranks: int) -> np.ndarray:
    """Every number below 5**ranks as a row of its base-5 digits, least significant first."""
    numbers = np.arange(5**ranks)
    return np.stack([numbers // 5**r % 5 for r in range(ranks)], axis=1)


def _count_vectors() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The perfect hash of rank counts: (offset, index, counts of every slot, shape (S, 13))."""
    lo_digits, hi_digits = _digits(_LO_RANKS), _digits(13 - _LO_RANKS)
    lo_totals, hi_totals = lo_digits.sum(axis=1), hi_digits.sum(axis=1)
    index = np.zeros(_LO_MASK + 1, dtype=np.uint16)
    lo_by_total = [np.flatnonzero(lo_totals == t) for t in range(CARDS_PER_HAND + 1)]
    for los in lo_by_total:
        index[los] = np.arange(len(los))
    offset = np.zeros(_HI_MASK + 1, dtype=np.uint16)
    blocks = []
    slots = 0
    for hi in np.flatnonzero(hi_totals <= CARDS_PER_HAND):
        los = lo_by_total[CARDS_PER_HAND - hi_totals[hi]]
        offset[hi] = slots
        slots += len(los)
        blocks.append(np.hstack([lo_digits[los], np.repeat(hi_digits[hi][None], len(los), 0)]))
    return offset, index, np.vstack(blocks)


def _build_tables() -> _Tables:
    weight = np.full(256, 1 << _BAD_SHIFT, dtype=np.int64)
    low_card = np.zeros(256, dtype=np.int64)
    for card in range(52):
        rank, suit = card >> 2, card & 3
        digit = 5**rank if rank < _LO_RANKS else 5 ** (rank - _LO_RANKS) << _HI_SHIFT
        weight[card] = digit + (1 << (_SUIT_SHIFT + 4 * suit))
        low_rank = (rank + 1) % 13  # ace = 0 .. king = 12
        low_card[card] = 1 << card | (1 << low_rank + _LOW_SHIFT if low_rank < 8 else 0)

    offset, index, counts = _count_vectors()
    # One hand per count vector, its cards in rank order and dealt the suits in turn: no suit
    # gets more than two cards, and no rank a suit twice.
    ranks = np.repeat(np.tile(np.arange(13), len(counts)), counts.ravel()).reshape(-1, 7)
    hands = (ranks * 4 + np.arange(CARDS_PER_HAND) % 4).tolist()
    size = int(offset.max()) + int(index.max()) + 1  # in bounds for any key, even a bad one
    unsuited = np.zeros(size, dtype=np.int32)
    unsuited[: len(hands)] = [high_value(hand) for hand in hands]
    # Five distinct ranks or more: a5_value's own table of unpaired lows; else a5_value itself.
    low_masks = np.bitwise_or.reduce(1 << (ranks + 1) % 13, axis=1)
    a5 = np.zeros(size, dtype=np.int32)
    a5[: len(hands)] = np.array(A5_UNPAIRED)[low_masks]
    for slot in np.flatnonzero((counts > 0).sum(axis=1) < 5):
        a5[slot] = a5_value(hands[slot])

    suited = np.zeros(1 << 13, dtype=np.int32)
    for count in (5, 6, 7):
        for flush in combinations(range(13), count):
            suited[sum(1 << r for r in flush)] = high_value([r * 4 for r in flush])
    return _Tables(weight, low_card, offset, index, unsuited, a5, suited,
                   np.array(LOW8, dtype=np.int64))


@dataclass(frozen=True)
class _Kernels:
    tables: _Tables
    high7: Callable[..., int]
    low8: Callable[..., int]
    low_a5: Callable[..., int]


_loaded: _Kernels | None = None
_loading = threading.Lock()


def _kernels() -> _Kernels:
    """The compiled kernels and their tables, built on the first call in a process."""
    global _loaded
    if _loaded is None:
        with _loading:
            if _loaded is None:
                _loaded = _load()
    return _loaded


def _load() -> _Kernels:
    import numba
    from numba.extending import intrinsic, overload, register_jitable

    @intrinsic
    def ctpop(typingctx: Any, x: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.ctpop(args[0])

        return numba.types.int64(numba.types.int64), codegen

    @overload(_popcount)
    def popcount(x):  # type: ignore[no-untyped-def]  # what numba compiles for _popcount (the signatures must match)
        return lambda x: ctpop(x)  # type: ignore[call-arg]  # numba supplies typingctx

    from llvmlite import binding, ir  # type: ignore[import-untyped]  # numba's own, untyped
    from numba.core import cgutils

    insert_function: Any = cgutils.get_or_insert_function

    # LLVM 15 and later name the intrinsic by an opaque pointer, earlier ones by an i8*.
    prefetch_name = "llvm.prefetch.p0" if binding.llvm_version_info[0] >= 15 else \
        "llvm.prefetch.p0i8"

    @intrinsic
    def prefetch_byte(typingctx: Any, data: Any, at: Any) -> Any:
        """Prefetch (for reading, into every cache level) byte ``at`` of a byte array (past
        its end too: a prefetch never faults)."""
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            array = context.make_array(signature.args[0])(context, builder, args[0])
            pointer = builder.gep(array.data, [args[1]])
            i32 = ir.IntType(32)
            function = insert_function(
                builder.module, ir.FunctionType(ir.VoidType(), [pointer.type, i32, i32, i32]),
                prefetch_name)
            builder.call(function, [pointer, ir.Constant(i32, 0), ir.Constant(i32, 3),
                                    ir.Constant(i32, 1)])
            return context.get_dummy_value()

        return numba.types.void(data, at), codegen

    from numba.extending import models, register_model

    class Marks(numba.types.Type):
        """The OR of ids ``bits`` wide, four at a time: one vector register (``<4 x iN>``)."""

        def __init__(self, bits: int) -> None:
            self.bits = bits
            super().__init__(name=f"Marks{bits}")

    @register_model(Marks)
    class MarksModel(models.PrimitiveModel):
        def __init__(self, dmm: Any, fe_type: Any) -> None:
            super().__init__(dmm, fe_type,  # type: ignore[no-untyped-call]  # numba's, untyped
                             ir.VectorType(ir.IntType(fe_type.bits), 4))

    @intrinsic
    def zero_marks(typingctx: Any, data: Any) -> Any:
        bits = data.dtype.bitwidth

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return ir.Constant(ir.VectorType(ir.IntType(bits), 4), [0] * 4)

        return Marks(bits)(data), codegen

    @intrinsic
    def mark_hand(typingctx: Any, marks: Any, data: Any, hand: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            array = context.make_array(signature.args[1])(context, builder, args[1])
            i64 = ir.IntType(64)
            four = ir.VectorType(ir.IntType(signature.args[0].bits), 4)
            first = builder.gep(array.data,
                                [builder.mul(args[2], ir.Constant(i64, CARDS_PER_HAND))])
            low, high = (builder.load(builder.bitcast(builder.gep(first, [ir.Constant(i64, at)]),
                                                      four.as_pointer()), align=1)
                         for at in (0, CARDS_PER_HAND - 4))
            return builder.or_(builder.or_(args[0], low), high)

        return marks(marks, data, hand), codegen

    @intrinsic
    def any_wide(typingctx: Any, marks: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            bits = signature.args[0].bits
            four = ir.VectorType(ir.IntType(bits), 4)
            above = builder.and_(args[0], ir.Constant(four, [-256 & (1 << bits) - 1] * 4))
            whole = ir.IntType(4 * bits)
            wide = builder.icmp_unsigned("!=", builder.bitcast(above, whole),
                                         ir.Constant(whole, 0))
            return builder.zext(wide, ir.IntType(64))

        return numba.types.int64(marks), codegen

    # What numba compiles for the kernels' helpers, chosen by the input's width: for bytes the
    # cards as they are and no check (every byte indexes the tables); for wider ids, their low
    # bytes (``width`` apart, ``hand`` bytes a hand), every id ORed into ``Marks`` for the rest.
    low_end = 0 if sys.byteorder == "little" else -1

    @overload(_no_marks)
    def no_marks(cards):  # type: ignore[no-untyped-def]
        if cards.dtype.bitwidth == 8:
            return lambda cards: 0
        return lambda cards: zero_marks(cards)  # type: ignore[call-arg]

    @overload(_mark)
    def mark(marks, cards, i):  # type: ignore[no-untyped-def]
        if cards.dtype.bitwidth == 8:
            return lambda marks, cards, i: marks
        # An unsigned index: no test for a negative one to wrap around.
        return lambda marks, cards, i: mark_hand(  # type: ignore[call-arg]
            marks, cards, numba.uint64(i))

    @overload(_marked)
    def marked(cards, marks):  # type: ignore[no-untyped-def]
        if cards.dtype.bitwidth == 8:
            return lambda cards, marks: 0
        return lambda cards, marks: any_wide(marks)  # type: ignore[call-arg]

    @overload(_card)
    def card(cards, low_bytes, i, j):  # type: ignore[no-untyped-def]
        if cards.dtype.bitwidth == 8:
            return lambda cards, low_bytes, i, j: int(cards[i, j])
        width = cards.dtype.bitwidth // 8
        hand, low = CARDS_PER_HAND * width, low_end % width
        return lambda cards, low_bytes, i, j: int(
            low_bytes[numba.uint64(i * hand + j * width + low)])

    @overload(_prefetch)
    def prefetch(cards, low_bytes, i):  # type: ignore[no-untyped-def]
        if cards.dtype.bitwidth == 8:  # uint8 is 7 bytes a hand: it never waited
            return lambda cards, low_bytes, i: None
        hand = CARDS_PER_HAND * cards.dtype.bitwidth // 8
        ahead = _AHEAD * hand
        return lambda cards, low_bytes, i: prefetch_byte(  # type: ignore[call-arg]
            low_bytes, numba.uint64(i * hand + ahead))

    register_jitable(_slot)
    register_jitable(_counted)

    # A later process loads the machine code from __pycache__ and compiles nothing. Numba keys
    # its cache on this file but records the module's name, so this file loaded under another
    # name (python -m doctest batch.py) would leave entries that break the package: no cache.
    cache = __name__ == "stud.evaluate.batch"

    def compile_(kernel: Callable[..., int]) -> Callable[..., int]:
        return numba.njit(cache=cache, nogil=True)(kernel)

    return _Kernels(_build_tables(), compile_(_high7_kernel), compile_(_low8_kernel),
                    compile_(_low_a5_kernel))


def _as_hands(cards: Any) -> np.ndarray:
    """``cards`` as a C-contiguous integer array of shape (N, 7), of its own dtype (the kernels
    take any integer dtype as it is, NumPy's default int64 with no conversion, and check every
    id themselves), or a ValueError saying why not."""
    array = np.asarray(cards)
    if array.shape == (0,):  # no hands at all, as [] is
        array = np.zeros((0, CARDS_PER_HAND), dtype=np.uint8)
    if array.ndim != 2 or array.shape[1] != CARDS_PER_HAND:
        raise ValueError(
            f"hands must be an array of shape (N, {CARDS_PER_HAND}), one row of seven card ids "
            f"per hand; got shape {array.shape}")
    if array.dtype == np.bool_ or not np.issubdtype(array.dtype, np.integer):
        raise ValueError(f"card ids must be integers, got dtype {array.dtype}")
    if not array.dtype.isnative:  # big-endian ids ('>i8'): numba reads native ones only
        array = array.astype(array.dtype.newbyteorder("="))
    if array.dtype == np.uint64:  # numba reads it as unsigned: ids over 2**63 stay large
        array = array.view(np.int64) if array.flags.c_contiguous else array.astype(np.int64)
    if array.dtype == np.int8:  # as bytes: -1 is 255, an id the tables mark as bad
        array = array.view(np.uint8) if array.flags.c_contiguous else array.astype(np.uint8)
    return np.ascontiguousarray(array)


def _raise_bad_hand(hands: np.ndarray, row: int | None = None) -> None:
    if row is None:  # the first hand with an id outside 0..51 or a repeated id
        ordered = np.sort(hands, axis=1)
        bad = ((ordered[:, 0] < 0) | (ordered[:, -1] > 51)
               | (np.diff(ordered, axis=1) == 0).any(axis=1))
        row = int(np.argmax(bad))
    ids = [int(c) for c in hands[row]]
    outside = [c for c in ids if not 0 <= c <= 51]
    if outside:
        raise ValueError(f"hand {row} {ids}: card id {outside[0]} is not between 0 and 51")
    repeated = next(c for c in ids if ids.count(c) > 1)
    raise ValueError(f"hand {row} {ids}: card id {repeated} ({CARDS[repeated]}) appears twice")


def _run(cards: Any, kernel: Callable[..., int], *tables: np.ndarray) -> np.ndarray:
    hands = _as_hands(cards)
    out = np.empty(hands.shape[0], dtype=np.int64)
    low_bytes = hands if hands.dtype.itemsize == 1 else hands.reshape(-1).view(np.uint8)
    if kernel(hands, low_bytes, out, *tables):
        _raise_bad_hand(np.asarray(cards))  # the ids as given (a uint64 is read as int64)
    return out


def high7(cards: Any) -> np.ndarray:
    """High values (as ``high_value``) of hands of seven distinct cards, shape (N, 7)."""
    k = _kernels()
    t = k.tables
    return _run(cards, k.high7, t.weight, t.offset, t.index, t.unsuited, t.suited)


def low8(cards: Any) -> np.ndarray:
    """8-or-better low values (as ``low8_value``, -1 for no low) of hands, shape (N, 7)."""
    k = _kernels()
    t = k.tables
    return _run(cards, k.low8, t.low_card, t.low8)


def low_a5(cards: Any) -> np.ndarray:
    """A-5 low values (as ``a5_value``) of hands of seven distinct cards, shape (N, 7)."""
    k = _kernels()
    t = k.tables
    return _run(cards, k.low_a5, t.weight, t.offset, t.index, t.a5)


# Each batch function and the plain evaluator whose values it returns.
REFERENCES: dict[Callable[[Any], np.ndarray], Callable[..., int]] = {
    high7: high_value,
    low8: low8_value,
    low_a5: a5_value,
}
