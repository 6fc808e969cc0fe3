"""Many tables for learning agents: each plays one hand after another, a learner's discrete
action at a time, with the built-in policies in the other seats (``stud.rl.vector_env``).

Every hand of a table comes from one 63-bit hand seed, exactly as ``stud.rl.SingleSeatEnv``
plays the hand of the same seed: the deck is ``Deck.seeded(seed)`` (CPython's shuffle, as in
``twister.py``, here sixteen decks at a time: ``seeded_decks``); the next hand's seed, the
learner's seat (when drawn) and the opponents' generators are the splitmix64 stream started
at the seed (``hand_stream``):

- value 0 >> 1: the next hand's seed;
- value 1 % players: the learner's seat index, when the seat is drawn each hand;
- value 1 + k >> 1 (k = 1 .. players - 1): the seed of the ``RandomBot`` k seats to the
  learner's left (the fast random policy is that generator);
- value players + 1 >> 1: the hand's own generator (unused: a strength seat draws its noise
  from its own ``random.Random(seed)``, seeded with its value 1 + k >> 1, as StrengthBot).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from stud.fast import twister
from stud.fast.betting import legal
from stud.fast.compiled import entry, kernel
from stud.fast.layout import (
    ACTOR,
    BETTING,
    COMMITTED,
    G_PLAYERS,
    G_RESHUFFLE,
    MAX_LEGAL,
    PHASE,
    SEATS,
    STREET,
)
from stud.fast.observe import track_bets
from stud.fast.policies import STRENGTH, choose, strength, strength_choice
from stud.fast.streets import start, step
from stud.fast.twister import KEY_WORDS

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
_G = np.uint64(GOLDEN)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S1 = (np.uint64(k) for k in (30, 27, 31, 1))
_SPREAD = np.uint64(0x9E3779B97F4A7C15)
_OFFSET = np.uint64(0x632BE59BD9B4E019)
_SALT = 1_000_003  # Deck.reshuffle: random.Random(seed * 1_000_003 + 1) for the first
_MT = 625

# What a table does on the next call: act (the learner's action), deal the hand of its seed,
# deal the next hand (the seed's successor): Gymnasium's autoreset; or nothing (a partial reset).
ACT, DEAL, DEAL_NEXT, SKIP = 0, 1, 2, 3


def hand_stream(seed: int, k: int) -> int:
    """Value k of the splitmix64 stream started at ``seed`` (the module docstring says what
    each value is for), in Python."""
    z = (seed + (k + 1) * GOLDEN) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


@kernel
def _stream(seed: Any, k: int) -> Any:
    """``hand_stream`` compiled: seed a uint64."""
    z = seed + np.uint64(k + 1) * _G
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@kernel
def _seed_key(key: Any, low: Any, high: Any, extra: Any) -> None:
    """CPython's seed words for the number ``extra << 64 | high << 32 | low`` (32-bit words,
    least significant first, at least one; unused words -1)."""
    words = (low, high, extra)
    used = 1
    for w in range(3):
        if words[w]:
            used = w + 1
    for w in range(KEY_WORDS):
        key[w] = words[w] if w < used else -1


def _initial_state() -> npt.NDArray[np.int64]:
    """The twister's state before CPython's ``init_by_array`` mixes the key in (the same for
    every seed: ``init_genrand(19650218)``), worked out once here rather than per deck."""
    mt = [19650218]
    for i in range(1, _N):
        mt.append((1812433253 * (mt[-1] ^ (mt[-1] >> 30)) + i) & 0xFFFFFFFF)
    return np.array(mt, dtype=np.int64)


_N = 624
_INITIAL = _initial_state().astype(np.uint32)
# Decks seeded side by side: seeding is a chain of dependent steps a lane, and 32 lanes keep
# more vectors' chains in flight than 16 (a deck 0.9 us rather than 1.3 on AVX-512).
LANES = 32
_U30, _U1664525, _U1566083941 = np.uint32(30), np.uint32(1664525), np.uint32(1566083941)


@kernel
def _draw_deck(s: Any, mt: Any, lane: int) -> None:
    """The shuffle of the 52 ids from lane ``lane``'s seeded state. Its 624 words are twisted
    one at a time as the shuffle draws them (a shuffle draws about 75), in the order and from
    the inputs CPython's whole twist uses."""
    for c in range(52):
        s[c] = c
    at = 0
    for c in range(51, 0, -1):
        bits = 0
        while (c + 1) >> bits:
            bits += 1
        while True:
            after = at + 1 if at < _N - 1 else 0
            ahead = at + 397 if at < _N - 397 else at + 397 - _N
            y = (mt[at, lane] & 0x80000000) | (mt[after, lane] & 0x7FFFFFFF)
            value = mt[ahead, lane] ^ (y >> 1)
            if y & 1:
                value ^= 0x9908B0DF
            mt[at, lane] = value
            at = after
            value ^= value >> 11
            value ^= (value << 7) & 0x9D2C5680
            value ^= (value << 15) & 0xEFC60000
            value ^= value >> 18
            drawn = value >> (32 - bits)
            if drawn <= c:
                break
        s[c], s[drawn] = s[drawn], s[c]


@kernel
def _seed_lanes(mt: Any, add: Any) -> None:
    """CPython's ``init_by_array`` for ``LANES`` keys at once (``add[d]``: what lane d adds
    at even and odd steps, key[j] + j), in uint32 as CPython computes: the lanes' steps fit
    the processor's vectors and their chains overlap."""
    for k in range(_N):
        for d in range(LANES):
            mt[k, d] = _INITIAL[k]
    i = 1
    for t in range(_N):
        odd = t & 1
        for d in range(LANES):
            p = mt[i - 1, d]
            mt[i, d] = np.uint32((mt[i, d] ^ np.uint32((p ^ (p >> _U30)) * _U1664525))
                                 + add[d, odd])
        i += 1
        if i >= _N:
            for d in range(LANES):
                mt[0, d] = mt[_N - 1, d]
            i = 1
    for _ in range(_N - 1):
        for d in range(LANES):
            p = mt[i - 1, d]
            mt[i, d] = np.uint32((mt[i, d] ^ np.uint32((p ^ (p >> _U30)) * _U1566083941))
                                 - np.uint32(i))
        i += 1
        if i >= _N:
            for d in range(LANES):
                mt[0, d] = mt[_N - 1, d]
            i = 1
    for d in range(LANES):
        mt[0, d] = 0x80000000


@kernel
def _lane_key(add: Any, d: int, seed: int) -> None:
    """Lane d's key from ``seed`` (0 <= seed < 2**63): its one or two 32-bit words, as
    ``_seed_lanes`` adds them (init_by_array adds key[j] + j, j cycling over the words)."""
    low = seed & 0xFFFFFFFF
    high = seed >> 32
    add[d, 0] = low
    add[d, 1] = high + 1 if high else low


@kernel
def seeded_decks(stub: Any, seeds: Any, which: Any, count: int, mt: Any, add: Any) -> None:
    """``Deck.seeded(seeds[h])``'s order into ``stub[h]`` for h in ``which[:count]`` (each
    0 <= seed < 2**63): CPython's ``random.Random(seed).shuffle`` of the 52 ids.

    Seeding the twister (``init_by_array``) is two chains of 624 dependent steps, most of a
    deck's cost; ``LANES`` decks are seeded side by side (``mt``: (624, LANES), ``add``:
    (LANES, 2), both uint32)."""
    for first in range(0, count, LANES):
        lanes = min(LANES, count - first)
        for d in range(LANES):  # spare lanes repeat the first
            _lane_key(add, d, seeds[which[first + (d if d < lanes else 0)]])
        _seed_lanes(mt, add)
        for d in range(lanes):
            _draw_deck(stub[which[first + d]], mt, d)


@kernel
def seeded_generators(noise: Any, rows: Any, seeds: Any, count: int, mt: Any,
                      add: Any) -> None:
    """``random.Random(seeds[k])``'s twister into ``noise[rows[k, 0], rows[k, 1]]`` (625
    int64, as ``twister.seed`` leaves it: the words, then the next word's place) for
    k < count, LANES at a time."""
    for first in range(0, count, LANES):
        lanes = min(LANES, count - first)
        for d in range(LANES):
            _lane_key(add, d, seeds[first + (d if d < lanes else 0)])
        _seed_lanes(mt, add)
        for d in range(lanes):
            state = noise[rows[first + d, 0], rows[first + d, 1]]
            for k in range(_N):
                state[k] = mt[k, d]
            state[_N] = _N


@kernel
def _deal(r: Any, s: Any, g: Any, seed: int, stacks: Any, key: Any, mt: Any, back: Any,
          awards: Any) -> None:
    """A new hand from the deck in ``s`` (``Deck.seeded(seed)``'s, 0 <= seed < 2**63)."""
    if g[G_RESHUFFLE]:
        # The key of seed * 1_000_003 + 1, in 32-bit words (the product needs 83 bits).
        low = (seed & 0xFFFFFFFF) * _SALT + 1
        high = (seed >> 32) * _SALT + (low >> 32)
        _seed_key(key, low & 0xFFFFFFFF, high & 0xFFFFFFFF, high >> 32)
    else:
        key[0] = 0
        for w in range(1, KEY_WORDS):
            key[w] = -1
    start(r, s, g, stacks, key, mt, back, awards)


@kernel
def _bots(r: Any, s: Any, g: Any, learner: int, codes: Any, rng: Any, noise: Any, key: Any,
          mt: Any, back: Any, awards: Any, kinds: Any, tos: Any, base: Any, bets: Any,
          street: Any) -> None:
    """The built-in policies play until it is the learner's turn or the betting is over. A
    strength seat draws its noise as StrengthBot does (``rng.uniform(-0.05, 0.05)`` of its
    own ``random.Random(seed)``, the twister in ``noise[seat]``)."""
    n = g[G_PLAYERS]
    while r[PHASE] == BETTING and r[ACTOR] >= 0 and r[ACTOR] != learner:
        count = legal(r, g, kinds, tos)
        actor = r[ACTOR]
        policy = codes[(actor - learner + n) % n - 1]
        if policy == STRENGTH:
            wobble = -0.05 + (0.05 - -0.05) * twister.random(noise[actor])
            choice = strength_choice(r, g, actor, strength(r, g, actor) + wobble, kinds, tos,
                                     count)
        else:
            choice = choose(r, g, policy, rng, kinds, tos, count)
        step(r, s, g, kinds[choice], tos[choice], key, mt, back, awards)
        track_bets(r, n, base, bets, street)


@entry
def advance(table: Any, stub: Any, game: Any, stacks: Any, keys: Any, awards: Any, rng: Any,
            seeds: Any, todo: Any, learner: Any, fixed_seat: int, codes: Any, slots: Any,
            legal_kinds: Any, legal_tos: Any, actions: Any, actor: Any, base: Any, bets: Any,
            street: Any, noise: Any, lo: int, hi: int) -> None:
    """Tables lo..hi-1 take their next step: a new hand (``todo``: DEAL, DEAL_NEXT), or the
    learner's discrete action ``actions[h]`` (``slots[h]`` maps it to one of the legal actions
    ``legal_kinds[h]``, ``legal_tos[h]`` that ``observe_all`` listed; the caller has checked
    it); then the bots play up to the learner's turn. ``learner`` is -1
    for every table when every seat is a learner (``codes`` empty): then ``actor[h]`` is
    the seat that acted. ``fixed_seat``: the learner's seat index, -1 for one drawn a hand.
    ``noise``: (tables, seats, 625) twister states of the strength seats (StrengthBot's own
    generators, seeded each hand), or an empty array when no seat plays strength.
    """
    kinds = np.zeros(MAX_LEGAL, dtype=np.int64)
    tos = np.zeros(MAX_LEGAL, dtype=np.int64)
    mt = np.zeros(_MT, dtype=np.int64)
    back = np.zeros(64, dtype=np.int64)
    n = game[G_PLAYERS]
    every_seat = codes.shape[0] == 0
    noise_none = np.zeros((1, _MT), dtype=np.int64)  # no strength seat: never read
    strong = noise.shape[0] > 0
    # The new hands' decks, seats and bots' generators first, the twisters seeded side by side.
    which = np.zeros(hi - lo, dtype=np.int64)
    rows = np.zeros((hi - lo if strong else 0, 2), dtype=np.int64)
    bot_seeds = np.zeros(rows.shape[0], dtype=np.int64)
    count = strong_count = 0
    for h in range(lo, hi):
        if todo[h] == DEAL_NEXT:
            seeds[h] = np.int64(_stream(np.uint64(seeds[h]), 0) >> _S1)
            todo[h] = DEAL
        if todo[h] != DEAL:
            continue
        which[count] = h
        count += 1
        if every_seat:
            continue
        seed = np.uint64(seeds[h])
        learner[h] = fixed_seat if fixed_seat >= 0 else np.int64(_stream(seed, 1)
                                                                 % np.uint64(n))
        for k in range(1, n):
            bot_seed = _stream(seed, 1 + k) >> _S1
            j = (learner[h] + k) % n
            rng[h, j] = (bot_seed * _SPREAD + _OFFSET) | _S1
            if codes[k - 1] == STRENGTH:
                if strong_count == rows.shape[0]:  # more strength seats than tables: grow
                    rows = np.concatenate((rows, rows))
                    bot_seeds = np.concatenate((bot_seeds, bot_seeds))
                rows[strong_count, 0] = h
                rows[strong_count, 1] = j
                bot_seeds[strong_count] = np.int64(bot_seed)
                strong_count += 1
        rng[h, SEATS] = ((_stream(seed, n + 1) >> _S1) * _SPREAD + _OFFSET) | _S1
    lanes = np.zeros((_N, LANES), dtype=np.uint32)
    adds = np.zeros((LANES, 2), dtype=np.uint32)
    if count:
        seeded_decks(stub, seeds, which, count, lanes, adds)
    if strong_count:
        seeded_generators(noise, rows, bot_seeds, strong_count, lanes, adds)
    for h in range(lo, hi):
        r = table[h]
        if todo[h] == SKIP:
            continue
        if todo[h] == DEAL:
            todo[h] = ACT
            _deal(r, stub[h], game, seeds[h], stacks[h], keys[h], mt, back, awards[h])
            for i in range(SEATS):
                base[h, i] = r[COMMITTED + i]
                for k in range(bets.shape[2]):
                    bets[h, i, k] = 0
            street[h, 0] = r[STREET]
        else:
            choice = slots[h, actions[h]]
            actor[h] = r[ACTOR]
            step(r, stub[h], game, legal_kinds[h, choice], legal_tos[h, choice], keys[h], mt,
                 back, awards[h])
            track_bets(r, n, base[h], bets[h], street[h])
        if not every_seat:
            _bots(r, stub[h], game, learner[h], codes, rng[h], noise[h] if noise.shape[0]
                  else noise_none, keys[h], mt, back, awards[h], kinds, tos, base[h], bets[h],
                  street[h])
