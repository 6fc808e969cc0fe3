"""Python's ``random.Random(seed).shuffle``, compiled: the reshuffle of a seeded deck.

Under ``deck_exhaustion = reshuffle`` the engine shuffles burned and mucked cards back into the
stub with ``random.Random(deck.seed * 1_000_003 + k).shuffle`` (``Deck.reshuffle``, the k-th
reshuffle of the hand). The fast engine must draw the very same order, so this is CPython's
Mersenne Twister (``init_by_array``, ``genrand_uint32``, ``getrandbits``) and the shuffle of
Python 3.11, step for step. ``seed_key`` makes the key CPython seeds with, in Python.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from stud.fast.compiled import kernel

KEY_WORDS = 4  # a key of up to 128 bits: a 63-bit deck seed times 1_000_003, plus k
_N, _M = 624, 397
_MASK = 0xFFFFFFFF


def seed_key(seed: int) -> np.ndarray:
    """The 32-bit words CPython's ``random.seed(seed)`` seeds the twister with: the absolute
    value, least significant word first, at least one word; unused words are -1."""
    value = abs(seed)
    words = []
    while True:
        words.append(value & _MASK)
        value >>= 32
        if not value:
            break
    if len(words) > KEY_WORDS:
        raise ValueError(f"reshuffle seed {seed} is wider than {32 * KEY_WORDS} bits")
    return np.array(words + [-1] * (KEY_WORDS - len(words)), dtype=np.int64)


def magnitudes(seeds: Any) -> np.ndarray:
    """``abs(seed)`` of every seed of an integer array, as uint64: ``random.Random(seed)``
    seeds its twister with the absolute value, so a negative seed of a signed array must not
    be read as its two's complement (``np.asarray(seeds, dtype=np.uint64)`` does that)."""
    given = np.asarray(seeds)
    wrapped = given.astype(np.uint64)
    if given.dtype.kind == "i":
        wrapped = np.where(given < 0, np.uint64(0) - wrapped, wrapped)  # -x mod 2**64 = |x|
    return wrapped


def _first_state() -> np.ndarray:
    """CPython's ``init_genrand(19650218)``: where every ``init_by_array`` starts."""
    mt = [19650218]
    for i in range(1, _N):
        mt.append((1812433253 * (mt[-1] ^ (mt[-1] >> 30)) + i) & _MASK)
    return np.array(mt, dtype=np.int64)


_FIRST = _first_state()  # numba compiles it in as a constant


@kernel
def _init_by_array(mt: Any, key: Any) -> None:
    length = 0
    while length < key.shape[0] and key[length] >= 0:
        length += 1
    for i in range(_N):
        mt[i] = _FIRST[i]
    i, j = 1, 0
    for _ in range(max(_N, length)):
        mt[i] = ((mt[i] ^ (((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525) & _MASK))
                 + key[j] + j) & _MASK
        i += 1
        j += 1
        if i >= _N:
            mt[0] = mt[_N - 1]
            i = 1
        if j >= length:
            j = 0
    for _ in range(_N - 1):
        mt[i] = ((mt[i] ^ (((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941) & _MASK)) - i) & _MASK
        i += 1
        if i >= _N:
            mt[0] = mt[_N - 1]
            i = 1
    mt[0] = 0x80000000
    mt[_N] = _N  # the position of the next word


@kernel
def _next_word(mt: Any) -> int:
    """The next word. CPython twists all 624 words when it has drawn the last; each is
    twisted here as it is drawn instead, in the same order, from the same words (the next
    one and the 397th on, not yet twisted this round, or the ones before it, already
    twisted): the same words, with no work for those a shuffle or a bot never draws."""
    k = mt[_N]
    if k >= _N:
        k = 0
    y = (mt[k] & 0x80000000) | (mt[(k + 1) % _N] & 0x7FFFFFFF)
    y = mt[(k + _M) % _N] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
    mt[k] = y
    mt[_N] = k + 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y


@kernel
def _below(mt: Any, n: int) -> int:
    """``Random._randbelow(n)``: ``getrandbits(n.bit_length())`` until below n."""
    bits = 0
    while n >> bits:
        bits += 1
    while True:
        value = _next_word(mt) >> (32 - bits)
        if value < n:
            return value


@kernel
def shuffle(cards: Any, count: int, key: Any, mt: Any) -> None:
    """``random.Random(seed).shuffle(cards[:count])`` in place; ``key`` is ``seed_key(seed)``,
    ``mt`` scratch space of 625 int64."""
    _init_by_array(mt, key)
    for i in range(count - 1, 0, -1):
        j = _below(mt, i + 1)
        cards[i], cards[j] = cards[j], cards[i]


@kernel
def seed(mt: Any, key: Any) -> None:
    """``random.Random(seed)``'s state in ``mt`` (625 int64); ``key`` is ``seed_key(seed)``."""
    _init_by_array(mt, key)


@kernel
def random(mt: Any) -> float:
    """``random.Random.random()``: 53 bits from two words, as CPython's ``genrand_res53``."""
    a = _next_word(mt) >> 5
    b = _next_word(mt) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)
