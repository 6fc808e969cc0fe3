"""Many tables for learning agents: each plays one hand after another, a learner's discrete
action at a time, with the built-in policies in the other seats (``stud.rl.vector_env``).

Every hand of a table comes from one 63-bit hand seed, exactly as ``stud.rl.SingleSeatEnv``
plays the hand of the same seed: the deck is ``Deck.seeded(seed)`` (CPython's shuffle,
``twister.py``); the next hand's seed, the learner's seat (when drawn) and the opponents'
generators are the splitmix64 stream started at the seed (``hand_stream``):

- value 0 >> 1: the next hand's seed;
- value 1 % players: the learner's seat index, when the seat is drawn each hand;
- value 1 + k >> 1 (k = 1 .. players - 1): the seed of the ``RandomBot`` k seats to the
  learner's left (the fast random policy is that generator);
- value players + 1 >> 1: the hand's own generator (the fast strength policy's noise).
"""

from __future__ import annotations

from typing import Any

import numpy as np

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
from stud.fast.policies import choose
from stud.fast.streets import start, step
from stud.fast.twister import KEY_WORDS, shuffle

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
_G = np.uint64(GOLDEN)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S32, _S1 = (np.uint64(k) for k in (30, 27, 31, 32, 1))
_SPREAD = np.uint64(0x9E3779B97F4A7C15)
_OFFSET = np.uint64(0x632BE59BD9B4E019)
_WORD = np.uint64(0xFFFFFFFF)
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
def _seed_key(key: Any, low: int, high: int, extra: int) -> None:
    """CPython's seed words for the number ``extra << 64 | high << 32 | low`` (32-bit words,
    least significant first, at least one; unused words -1)."""
    words = (low, high, extra)
    used = 1
    for w in range(3):
        if words[w]:
            used = w + 1
    for w in range(KEY_WORDS):
        key[w] = words[w] if w < used else -1


@kernel
def _deal(r: Any, s: Any, g: Any, seed: int, stacks: Any, key: Any, mt: Any, back: Any,
          awards: Any) -> None:
    """A new hand from ``Deck.seeded(seed)`` (0 <= seed < 2**63)."""
    for c in range(52):
        s[c] = c
    _seed_key(key, seed & 0xFFFFFFFF, seed >> 32, 0)
    shuffle(s, 52, key, mt)
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
def _bots(r: Any, s: Any, g: Any, learner: int, codes: Any, rng: Any, key: Any, mt: Any,
          back: Any, awards: Any, kinds: Any, tos: Any, base: Any, bets: Any,
          street: Any) -> None:
    """The built-in policies play until it is the learner's turn or the betting is over."""
    n = g[G_PLAYERS]
    while r[PHASE] == BETTING and r[ACTOR] >= 0 and r[ACTOR] != learner:
        count = legal(r, g, kinds, tos)
        policy = codes[(r[ACTOR] - learner + n) % n - 1]
        choice = choose(r, g, policy, rng, kinds, tos, count)
        step(r, s, g, kinds[choice], tos[choice], key, mt, back, awards)
        track_bets(r, n, base, bets, street)


@entry
def advance(table: Any, stub: Any, game: Any, stacks: Any, keys: Any, awards: Any, rng: Any,
            seeds: Any, todo: Any, learner: Any, fixed_seat: int, codes: Any, slots: Any,
            actions: Any, actor: Any, base: Any, bets: Any, street: Any, lo: int,
            hi: int) -> None:
    """Tables lo..hi-1 take their next step: a new hand (``todo``: DEAL, DEAL_NEXT), or the
    learner's discrete action ``actions[h]`` (``slots[h]`` maps it to a legal action; the
    caller has checked it); then the bots play up to the learner's turn. ``learner`` is -1
    for every table when every seat is a learner (``codes`` empty): then ``actor[h]`` is
    the seat that acted. ``fixed_seat``: the learner's seat index, -1 for one drawn a hand.
    """
    kinds = np.zeros(MAX_LEGAL, dtype=np.int64)
    tos = np.zeros(MAX_LEGAL, dtype=np.int64)
    mt = np.zeros(_MT, dtype=np.int64)
    back = np.zeros(64, dtype=np.int64)
    n = game[G_PLAYERS]
    every_seat = codes.shape[0] == 0
    for h in range(lo, hi):
        r = table[h]
        if todo[h] == SKIP:
            continue
        if todo[h] != ACT:
            if todo[h] == DEAL_NEXT:
                seeds[h] = np.int64(_stream(np.uint64(seeds[h]), 0) >> _S1)
            todo[h] = ACT
            seed = np.uint64(seeds[h])
            _deal(r, stub[h], game, seeds[h], stacks[h], keys[h], mt, back, awards[h])
            if not every_seat:
                learner[h] = fixed_seat if fixed_seat >= 0 else np.int64(_stream(seed, 1)
                                                                         % np.uint64(n))
                for k in range(1, n):
                    bot_seed = _stream(seed, 1 + k) >> _S1
                    rng[h, (learner[h] + k) % n] = (bot_seed * _SPREAD + _OFFSET) | _S1
                rng[h, SEATS] = ((_stream(seed, n + 1) >> _S1) * _SPREAD + _OFFSET) | _S1
            for i in range(SEATS):
                base[h, i] = r[COMMITTED + i]
                for k in range(bets.shape[2]):
                    bets[h, i, k] = 0
            street[h, 0] = r[STREET]
        else:
            legal(r, game, kinds, tos)
            choice = slots[h, actions[h]]
            actor[h] = r[ACTOR]
            step(r, stub[h], game, kinds[choice], tos[choice], keys[h], mt, back, awards[h])
            track_bets(r, n, base[h], bets[h], street[h])
        if not every_seat:
            _bots(r, stub[h], game, learner[h], codes, rng[h], keys[h], mt, back, awards[h],
                  kinds, tos, base[h], bets[h], street[h])
