"""Equity benchmark: Monte Carlo deals per second on one core, ours against poker-equity and
PokerKit, and the time of an exact 3-player fifth-street stud hi/lo spot.

Every calculator gets the same spots in the same run. Ours is ``stud.equity.equity`` with one
worker (after a warm-up call, so compiling is not timed); poker-equity (Rust) is
``chunk_from_text`` with ``threads=1``; PokerKit is ``pokerkit.analysis.calculate_equities``
with no executor. A deal is one completion of every hand to seven cards, valued and settled.
poker-equity writes an unknown card as ``*`` and wants every hand on the same street, so the
spots are written for it that way; PokerKit takes the known cards and deals the rest of seven.
Rates are per second of this process's CPU time (``time.process_time``: what one core does,
even while other processes share the machine); the wall-clock rates are printed beside them.
Each round runs every calculator on every spot once; medians over rounds and their ratios are
reported, since these machines are noisy.

    python bench/equity.py [--rounds 5] [--trials 2000000] [--peer-trials 1000000]
                           [--pokerkit-trials 200] [--exact-rounds 3]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time
import warnings
from collections.abc import Callable
from importlib.metadata import version

from stud.equity import equity

# (variant, hands in our notation): poker-equity gets "??" as "*".
SPOTS = [
    ("stud", ["AsKs2d", "QhQd5c"]),
    ("stud8", ["As2s3d", "Kh5c6c", "QdQs7h"]),
    ("razz", ["As2s3d", "Kh5c6c", "4d7h8h", "9c9dTs"]),
    ("stud", ["????Ah7d", "????Kc7s", "????QhQd"]),
    ("stud8", ["As2s3d4h9c", "Kh5c6c7c8d", "QdQs7hJhJc"]),
]
EXACT_SPOT = ("stud8", ["As2s3d4h9c", "Kh5c6c7c8d", "QdQs7hJhJc"])
TARGETS = {"poker-equity": 1.5, "PokerKit": 1000.0, "exact_seconds": 5.0}
PE_VARIANT = {"stud": "stud", "stud8": "stud_hi_lo", "razz": "razz"}


def timed(run: Callable[[], object]) -> tuple[float, float, object]:
    """CPU seconds, wall seconds, and what ``run`` returned."""
    cpu, wall = time.process_time(), time.perf_counter()
    out = run()
    return time.process_time() - cpu, time.perf_counter() - wall, out


def ours(variant: str, hands: list[str], trials: int, seed: int) -> tuple[float, float, float]:
    cpu, wall, result = timed(lambda: equity(variant, hands, trials=trials, seed=seed))
    return trials / cpu, trials / wall, result.players[0].equity  # type: ignore[attr-defined]


def poker_equity(variant: str, hands: list[str], trials: int,
                 seed: int) -> tuple[float, float, float]:
    import poker_equity as pe

    fields = [h.replace("??", "*") for h in hands]
    cpu, wall, result = timed(lambda: pe.chunk_from_text(PE_VARIANT[variant], fields,
                                                          samples=trials, seed=seed, threads=1))
    deals = result["samples"]  # type: ignore[index]
    return deals / cpu, deals / wall, result["players"][0]["equity"]  # type: ignore[index]


def pokerkit(variant: str, hands: list[str], trials: int,
             seed: int) -> tuple[float, float, float]:
    from pokerkit import Card, Deck, EightOrBetterLowHand, RegularLowHand, StandardHighHand
    from pokerkit.analysis import calculate_equities

    hand_types = {"stud": (StandardHighHand,), "stud8": (StandardHighHand, EightOrBetterLowHand),
                  "razz": (RegularLowHand,)}[variant]
    ranges = [[list(Card.parse(h.replace("?", "")))] for h in hands]
    random.seed(seed)  # PokerKit samples with the global generator
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cpu, wall, result = timed(lambda: calculate_equities(ranges, [], 7, 0, Deck.STANDARD,
                                                             hand_types, sample_count=trials))
    return trials / cpu, trials / wall, result[0]  # type: ignore[index]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--trials", type=int, default=2_000_000, help="our deals per spot")
    parser.add_argument("--peer-trials", type=int, default=1_000_000,
                        help="poker-equity's deals per spot")
    parser.add_argument("--pokerkit-trials", type=int, default=200,
                        help="PokerKit's deals per spot")
    parser.add_argument("--exact-rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}, poker-equity {version('poker-equity')}, PokerKit "
          f"{version('pokerkit')}")
    for variant, hands in SPOTS:  # warm-up: compile (or load) the kernels, build the tables
        equity(variant, hands, trials=1000, seed=0)
    calculators = {"stud": (ours, args.trials), "poker-equity": (poker_equity, args.peer_trials),
                   "PokerKit": (pokerkit, args.pokerkit_trials)}
    rates: dict[tuple[int, str], list[tuple[float, float, float]]] = {}
    for round_ in range(args.rounds):
        for index, (variant, hands) in enumerate(SPOTS):
            for name, (run, trials) in calculators.items():
                rates.setdefault((index, name), []).append(run(variant, hands, trials, round_))
        print(f"round {round_ + 1} of {args.rounds} done")

    exact_times = []
    for _ in range(args.exact_rounds):
        cpu, wall, result = timed(lambda: equity(EXACT_SPOT[0], EXACT_SPOT[1], exact=True))
        exact_times.append((cpu, wall))
    import poker_equity as pe

    peer_exact = pe.exact_from_text(PE_VARIANT[EXACT_SPOT[0]], EXACT_SPOT[1])

    def median(index: int, name: str, k: int) -> float:
        return statistics.median(r[k] for r in rates[(index, name)])

    lines = ["| spot | stud | poker-equity | PokerKit | vs poker-equity | vs PokerKit |",
             "| --- | ---: | ---: | ---: | ---: | ---: |"]
    worst = {"poker-equity": float("inf"), "PokerKit": float("inf")}
    print()
    print("deals per CPU-second (wall-clock deals per second); first player's equity")
    for index, (variant, hands) in enumerate(SPOTS):
        cpu = {name: median(index, name, 0) for name in calculators}
        wall = {name: median(index, name, 1) for name in calculators}
        eq = {name: median(index, name, 2) for name in calculators}
        ratios = {name: cpu["stud"] / cpu[name] for name in worst}
        for name in worst:
            worst[name] = min(worst[name], ratios[name])
        spot = f"{variant} {' '.join(hands)}"
        print(f"  {spot}: " + ", ".join(f"{name} {cpu[name]:,.0f} ({wall[name]:,.0f}) "
                                        f"eq {eq[name]:.4f}" for name in calculators))
        lines.append(f"| {variant} `{' '.join(hands)}` | {cpu['stud']:,.0f} | "
                     f"{cpu['poker-equity']:,.0f} | {cpu['PokerKit']:,.0f} | "
                     f"{ratios['poker-equity']:.2f}x | {ratios['PokerKit']:,.0f}x |")
    exact_cpu = statistics.median(t[0] for t in exact_times)
    exact_wall = statistics.median(t[1] for t in exact_times)
    print()
    print(f"exact {EXACT_SPOT[0]} {' '.join(EXACT_SPOT[1])}: {result.deals:,} deals in "  # type: ignore[attr-defined]
          f"{exact_wall:.2f} s wall, {exact_cpu:.2f} s CPU (median of {args.exact_rounds}); "
          f"poker-equity's exact_from_text: "
          + ("declines (too many deals)" if peer_exact is None else "answers"))
    print()
    print("\n".join(lines))
    print()
    print(f"Exact {EXACT_SPOT[0]} `{' '.join(EXACT_SPOT[1])}` ({result.deals:,} deals): "  # type: ignore[attr-defined]
          f"{exact_wall:.2f} s (target < {TARGETS['exact_seconds']:.0f} s)")
    print()
    for name, ratio in worst.items():
        verdict = "met" if ratio >= TARGETS[name] else "MISSED"
        print(f"target >= {TARGETS[name]:g}x {name} per core: worst spot {ratio:,.2f}x, {verdict}")
    verdict = "met" if exact_wall < TARGETS["exact_seconds"] else "MISSED"
    print(f"target exact under {TARGETS['exact_seconds']:g} s: {exact_wall:.2f} s, {verdict}")


if __name__ == "__main__":
    main()
