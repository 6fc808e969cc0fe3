"""The fast engine against the engine, over millions of hands; and its speed against peers.

Agreement: ``--hands`` hands per variant (default 1,000,000) are played on both engines from
the same ``Deck.seeded`` decks with the same random choices and compared at every step, as
``tests/fast`` does (``stud.fast.agree.compare``): the player to act, the legal actions with
their amounts, stacks, chips committed, wagers, folds, cards, and at the end every award and
the final stacks. The hands come in chunks, each drawn from the run's seed: the ``standard``
and ``pokerkit`` profiles and rules with every policy drawn at random, in turn; 2 to 8
players; six stakes; deep and short stacks; loose and tight play; a quarter of the chunks with
tied hands (seats 1 and 2 dealt the same ranks). Every mismatch is printed; there must be none.

Speed: random legal 6-player hands (1,000 chips, 1/2/5/10, a fresh deck a hand) per second of
CPU time on one core, in the same run, round by round: the fast engine (``Batch.play`` in
chunks of ``--chunk`` hands, the decks shuffled in the kernel), the library loop
(``bench/engine.py``: ``Hand`` with ``legal_actions()`` and ``act()``) and PokerKit 0.7.7;
medians and ratios. And the kernels' compile time, cold (an empty numba cache) and cached.

    python bench/fast_agree.py [--hands 1000000] [--workers 1] [--seed 0]
    python bench/fast_agree.py --speed-only [--rounds 5] [--speed-hands 200000]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor

from engine import ANTE, BIG, BRING_IN, PLAYERS, SMALL, STACK, ours, pokerkit
from stud.fast.agree import STAKES, Agreement, compare, random_rules, random_stacks, twin_decks
from stud.rules import Stakes

VARIANTS = ("stud", "stud8", "razz")
CHUNK = 400


def chunk(variant: str, seed: int, number: int, size: int) -> Agreement:
    """Chunk ``number`` of a variant's hands: its game drawn from (seed, variant, number)."""
    rng = random.Random(f"{seed}:{variant}:{number}")
    rules = ("standard", "pokerkit", None)[number % 3] or random_rules(rng)
    players = rng.randint(2, 8)
    stakes = rng.choice(STAKES)
    twins = number % 4 == 3
    return compare(variant, rules, stakes, players=players, hands=size,
                   seed=rng.getrandbits(32),
                   stacks=random_stacks(rng, players, size, stakes, rng.choice([0, 0.3, 0.7])),
                   decks=twin_decks(rng, players, size) if twins else None,
                   passive=1.0 if twins else rng.choice([0.0, 0.4, 0.8, 0.95]))


def _chunk(job: tuple[str, int, int, int]) -> Agreement:
    return chunk(*job)


def agreement(variant: str, hands: int, seed: int, workers: int) -> Agreement:
    jobs = [(variant, seed, k, min(CHUNK, hands - k * CHUNK))
            for k in range((hands + CHUNK - 1) // CHUNK)]
    total = Agreement()
    started = time.perf_counter()
    results: Iterator[Agreement]
    if workers > 1:
        pool = ProcessPoolExecutor(workers)
        results = pool.map(_chunk, jobs, chunksize=4)
    else:
        pool = None
        results = map(_chunk, jobs)
    last = started
    for found in results:
        total.add(found)
        for line in found.mismatches:
            print(f"  MISMATCH {line}", flush=True)
        now = time.perf_counter()
        if now - last > 60:
            last = now
            print(f"  {variant}: {total.hands:,} hands, {total.mismatched_hands} mismatched, "
                  f"{total.hands / (now - started):.0f} hands/s", flush=True)
    if pool is not None:
        pool.shutdown()
    return total


def fast(hands: int, seed: int, variant: str, chunk_size: int) -> float:
    """Random legal hands per CPU second on the fast engine, decks dealt in the kernel."""
    from stud.fast import Batch, shuffled_decks

    stakes = Stakes(ANTE, BRING_IN, SMALL, BIG)
    batch = None
    start = time.process_time()
    done = 0
    while done < hands:
        size = min(chunk_size, hands - done)
        decks = shuffled_decks(size, seed * 1_000_003 + done)
        if batch is None or len(batch) != size:
            batch = Batch(variant, stakes, "standard", [STACK] * PLAYERS, decks)
        else:
            batch.deal(decks)
        batch.play("random", seed * 1_000_003 + done)
        done += size
    return hands / (time.process_time() - start)


_COMPILE = """
import time
started = time.perf_counter()
from stud.cards import Deck
from stud.fast import Batch
from stud.rules import Stakes
import numpy as np
batch = Batch("stud8", Stakes(1, 1, 2, 4), "standard", [100] * 8, [Deck.seeded(1)])
batch.legal()
batch.act(np.zeros(1, dtype=np.int64))
batch.play("strength")
print(time.perf_counter() - started)
"""


def compile_seconds() -> tuple[float, float]:
    """Wall seconds to the first played hand in a new process: with an empty numba cache (the
    fast kernels and the evaluators they use compiled), then with that cache."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        times = []
        for _ in range(2):
            out = subprocess.run([sys.executable, "-c", _COMPILE], env=env, check=True,
                                 capture_output=True, text=True).stdout
            times.append(float(out.split()[-1]))
    return times[0], times[1]


def speed(variant: str, rounds: int, hands: int, chunk_size: int) -> None:
    fast(2_000, 99, variant, chunk_size)  # compiled (or loaded) before the clock starts
    library_hands = max(500, hands // 100)
    peer_hands = max(100, hands // 1000)
    quick, mine, theirs = [], [], []
    for round_ in range(rounds):
        quick.append(fast(hands, round_, variant, chunk_size))
        mine.append(ours(library_hands, round_, variant))
        theirs.append(pokerkit(peer_hands, round_, variant))
        print(f"round {round_ + 1}: fast {quick[-1]:9.0f} hands/s   library {mine[-1]:7.0f} "
              f"hands/s   PokerKit {theirs[-1]:5.0f} hands/s", flush=True)
    fastest, library, peer = (statistics.median(x) for x in (quick, mine, theirs))
    print(f"median ({variant}, {PLAYERS} players, random legal play, one core): fast "
          f"{fastest:.0f} hands/s, library {library:.0f} hands/s, PokerKit {peer:.0f} hands/s")
    print(f"fast / PokerKit {fastest / peer:.0f}x; fast / library {fastest / library:.0f}x; "
          f"library / PokerKit {library / peer:.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000, help="hands per variant")
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=VARIANTS)
    parser.add_argument("--workers", type=int, default=1, help="processes for the agreement")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--speed-only", action="store_true")
    parser.add_argument("--agree-only", action="store_true")
    parser.add_argument("--rounds", type=int, default=5, help="speed rounds")
    parser.add_argument("--speed-hands", type=int, default=200_000,
                        help="fast hands per speed round (library: 1/100, PokerKit: 1/1000)")
    parser.add_argument("--chunk", type=int, default=4_000, help="fast hands per batch")
    parser.add_argument("--speed-variant", default="stud", choices=VARIANTS)
    args = parser.parse_args()
    failed = False
    if not args.speed_only:
        for variant in args.variants:
            started = time.perf_counter()
            total = agreement(variant, args.hands, args.seed, args.workers)
            seconds = time.perf_counter() - started
            covered = ", ".join(f"{rule} {count:,}" for rule, count in
                                sorted(total.covered.items()))
            print(f"{variant}: {total.hands:,} hands, {total.steps:,} steps compared, "
                  f"{total.mismatched_hands} mismatches ({seconds:.0f} s, seed {args.seed})")
            print(f"  hands that met each rule: {covered}", flush=True)
            failed = failed or total.mismatched_hands > 0
    if not args.agree_only:
        cold, cached = compile_seconds()
        print(f"compile: {cold:.1f} s cold (empty numba cache), {cached:.1f} s cached, "
              f"to the first hand played in a new process")
        speed(args.speed_variant, args.rounds, args.speed_hands, args.chunk)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
