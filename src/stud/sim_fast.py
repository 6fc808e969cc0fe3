"""A match's hands on the compiled batch engine (``stud.fast``): the same hands, sooner.

The fast path deals every hand from the deck the reference path deals it from
(``Deck.seeded(derive_seed(seed, number, "deck"))``, shuffled here in a compiled kernel that is
CPython's ``random.Random(seed).shuffle``), seats the entrants as ``Match.seating`` does, and
seeds each seat's compiled policy as the reference path seeds that entrant's bot. The compiled
``random`` policy is RandomBot's generator, ``station`` is CallingStation, and ``strength``
seats are played by ``stud.fast.history.play_logged`` as StrengthBot plays, its noise drawn
from its own ``random.Random(seed)`` (CPython's twister, compiled), so the nets are the
reference path's, hand for hand (``tests/test_sim_fast.py``), and with ``write_phh`` its
hands' PHH files are the reference path's, byte for byte. ``expert`` and ``equity`` have no
fast form.

Importing this module imports numba; its kernel compiles (or loads from numba's cache) on its
first call.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import numpy.typing as npt

from stud.fast import Batch
from stud.fast.compiled import entry
from stud.fast.history import Writer, play_logged
from stud.fast.twister import KEY_WORDS, magnitudes
from stud.rules import PROFILES, Stakes, Variant
from stud.sim import Chunk, Match, derive_seeds

Array = npt.NDArray[Any]
_PURPOSES: dict[int, tuple[str, ...]] = {}


_N, _M, _MASK = 624, 397, 0xFFFFFFFF
_LANES = 8


def _first_state() -> Array:
    """CPython's ``init_genrand(19650218)``: where every ``init_by_array`` starts."""
    mt = [19650218]
    for i in range(1, _N):
        mt.append((1812433253 * (mt[-1] ^ (mt[-1] >> 30)) + i) & _MASK)
    return np.array(mt, dtype=np.int64)


_FIRST = _first_state()


@entry
def _seeded_decks(keys: Any, first: Any) -> Any:
    """``Deck.seeded``'s order (card ids) for each row of twister keys: CPython's
    ``random.Random(seed).shuffle`` as ``stud.fast.twister`` has it, less the work whose
    result is the same for every seed (the first state) or never read (the twist of words
    no draw reaches: each word is twisted as it is drawn, in order, which is the same)."""
    decks = np.empty((keys.shape[0], 52), dtype=np.uint8)
    cards = np.empty(52, dtype=np.int64)
    lanes = np.empty((_N, _LANES), dtype=np.int64)
    mt = np.empty(_N, dtype=np.int64)
    added = np.empty((_N, _LANES), dtype=np.int64)  # key[j] + j, step by step
    for h in range(keys.shape[0]):
        lane = h % _LANES
        if lane == 0:  # seed the next _LANES hands' twisters side by side: 8 times the speed
            for g in range(_LANES):
                key = keys[min(h + g, keys.shape[0] - 1)]
                length = 0
                while length < key.shape[0] and key[length] >= 0:
                    length += 1
                j = 0
                for step in range(_N):
                    added[step, g] = key[j] + j
                    j = j + 1 if j + 1 < length else 0
                for i in range(_N):
                    lanes[i, g] = first[i]
            i = 1
            for step in range(_N):
                for g in range(_LANES):
                    before = lanes[i - 1, g]
                    lanes[i, g] = ((lanes[i, g] ^ (((before ^ (before >> 30)) * 1664525)
                                                   & _MASK)) + added[step, g]) & _MASK
                i += 1
                if i >= _N:
                    for g in range(_LANES):
                        lanes[0, g] = lanes[_N - 1, g]
                    i = 1
            for _ in range(_N - 1):
                for g in range(_LANES):
                    before = lanes[i - 1, g]
                    lanes[i, g] = ((lanes[i, g] ^ (((before ^ (before >> 30)) * 1566083941)
                                                   & _MASK)) - i) & _MASK
                i += 1
                if i >= _N:
                    for g in range(_LANES):
                        lanes[0, g] = lanes[_N - 1, g]
                    i = 1
        for i in range(_N):
            mt[i] = lanes[i, lane]
        mt[0] = 0x80000000
        for c in range(52):
            cards[c] = c
        k = 0
        for top in range(51, 0, -1):
            n = top + 1
            bits = 0
            while n >> bits:
                bits += 1
            while True:
                y = (mt[k] & 0x80000000) | (mt[(k + 1) % _N] & 0x7FFFFFFF)
                word = mt[(k + _M) % _N] ^ (y >> 1)
                if y & 1:
                    word ^= 0x9908B0DF
                mt[k] = word
                k = (k + 1) % _N
                word ^= word >> 11
                word ^= (word << 7) & 0x9D2C5680
                word ^= (word << 15) & 0xEFC60000
                word ^= word >> 18
                value = word >> (32 - bits)
                if value < n:
                    break
            cards[top], cards[value] = cards[value], cards[top]
        for c in range(52):
            decks[h, c] = cards[c]
    return decks


def seeded_decks(seeds: Array) -> Array:
    """``[Deck.seeded(s).cards as ids for s in seeds]``, shape (N, 52), uint8, at once.

    >>> from stud.cards import Deck
    >>> [c.id for c in Deck.seeded(7).cards] == seeded_decks(np.array([7]))[0].tolist()
    True
    """
    values = magnitudes(seeds)  # Deck.seeded(-s) is Deck.seeded(s), as random.Random's
    keys = np.full((len(values), KEY_WORDS), -1, dtype=np.int64)
    keys[:, 0] = (values & np.uint64(0xFFFFFFFF)).astype(np.int64)
    high = (values >> np.uint64(32)).astype(np.int64)
    keys[:, 1] = np.where(high > 0, high, -1)  # CPython seeds with as few words as it can
    return _seeded_decks(keys, _FIRST)


_BATCHES: dict[Match, Batch] = {}  # one a match in each process: its arrays are reused


def play_chunk_fast(match: Match, first: int, count: int, write_phh: bool = False) -> Chunk:
    """Hands ``first`` to ``first + count - 1`` of ``match`` on the batch engine: the nets
    ``sim.play_chunk`` gives (every bot must have a fast form, ``sim.FAST_BOTS``), and with
    ``write_phh`` each hand's PHH, the text ``sim.phh_text`` writes (``stud.fast.history``)."""
    started = time.process_time()
    n = match.players
    purposes = _PURPOSES.setdefault(n, ("deck", *(f"bot{k}" for k in range(n))))
    seeds = np.array([derive_seeds(match.seed, number, purposes)
                      for number in range(first, first + count)], dtype=np.uint64)
    decks = seeded_decks(seeds[:, 0])
    numbers = np.arange(first, first + count)
    shifts = (numbers - 1) % n if match.rotate else np.zeros(count, dtype=np.int64)
    # seating[h, s]: the entrant in seat s + 1 of hand h (Match.seating, for every hand).
    seating = (np.arange(n)[None, :] - shifts[:, None]) % n
    policies = np.array(match.bots)[seating]
    nets = np.zeros((count, n), dtype=np.int64)
    texts = [""] * count if write_phh else []
    tails: dict[tuple[int, ...], str] = {}
    groups = [np.arange(count)] if len(set(match.bots)) == 1 else \
        [np.flatnonzero(shifts == shift) for shift in np.unique(shifts)]
    for rows in groups:
        if not len(rows):
            continue
        batch = _batch(match, decks[rows], seeds[rows, 0])
        bot_seeds = np.take_along_axis(seeds[rows, 1:], seating[rows], axis=1)
        seat_policies = [str(p) for p in policies[rows[0]]]
        if write_phh or "strength" in seat_policies:
            # play_logged's strength seats play as StrengthBot(seed), noise and all.
            log = play_logged(batch, seat_policies, seeds=bot_seeds)
        else:
            batch.play(seat_policies, seeds=bot_seeds)
        if write_phh:
            writer = Writer(batch, log)
            for h, row in enumerate(rows.tolist()):
                seats = tuple(seating[row].tolist())
                tail = tails.get(seats)
                if tail is None:  # the fields after the hand's number, one text a seating
                    tail = tails[seats] = Writer.fields(
                        _seed=match.seed, players=[match.names[e] for e in seats])
                texts[row] = writer.text(h, f"hand = {first + row}\n{tail}")
        part = np.zeros((len(rows), n), dtype=np.int64)
        np.put_along_axis(part, seating[rows], batch.net, axis=1)
        nets[rows] = part
    return Chunk(first, nets, tuple(texts), time.process_time() - started)


def _batch(match: Match, decks: Array, deck_seeds: Array) -> Batch:
    stacks = [match.buy_in * match.stakes.big_bet] * match.players
    batch = _BATCHES.get(match)
    if batch is None:
        batch = Batch(match.variant, match.stakes, match.rules, stacks, decks, seeds=deck_seeds)
        if len(_BATCHES) > 8:
            _BATCHES.clear()
        _BATCHES[match] = batch
    else:
        batch.deal(decks, stacks, seeds=deck_seeds)
    return batch


_WARM_HANDS = 64


def warm(match: Match | None = None, write_phh: bool = False) -> None:
    """Load the compiled kernels that ``match`` plays with (by default a 2-player stud match),
    and with ``write_phh`` those that write its PHH, from numba's cache or compiling them, by
    playing its first hands unseen. The workers' server does it once for the default before it
    forks; ``sim.simulate`` for the match here, and in every worker, before its clock starts.

    Kernels are compiled for the types they are called with, and some types differ by more
    than the match: the logged play and the PHH writer have kernels of their own, and a batch
    of one hand (one seating of a rotation, a chunk of one) passes its stacks read-only where
    a larger batch copies them; and the showdown's kernels load when a hand first reaches
    one. So a chunk of 64 hands is played (some reach a showdown, whoever plays), then a chunk
    of one hand: a few milliseconds once loaded."""
    if match is None:
        match = Match(Variant.STUD, Stakes.for_limit(2), PROFILES["standard"],
                      ("random", "station"), rotate=True)
    play_chunk_fast(match, 1, _WARM_HANDS, write_phh)
    play_chunk_fast(match, _WARM_HANDS + 1, 1, write_phh)
    _BATCHES.clear()


__all__ = ["play_chunk_fast", "seeded_decks", "warm"]
