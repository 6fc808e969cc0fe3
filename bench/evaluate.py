"""Evaluation benchmark: 7-card hands per second on one core, ours against phevaluator and eval7.

Every evaluator gets the same random seven-card hands (a NumPy array of shape (N, 7), uint8,
card id = rank * 4 + suit, which is also phevaluator's id). Ours are the numba batch kernels
(``stud.evaluate.batch``), called on the whole array (``--repeat`` times a round) after a
warm-up call, so that compiling and building tables is not timed; the array is checked (shape,
ids, repeated cards) inside the timed call. Three more rows pass the same hands as int64 (NumPy's
default), which the kernels read as they are, with no conversion: eight times the bytes to
read; one more reads that int64 array once and does nothing else (a compiled OR of every id:
the memory's floor for any int64 evaluation), and the ratios of int64 to uint8 are printed (each
int64 row runs straight after its uint8 row, and the ratio is the median of the rounds' ratios).
The peers have no batch or array API: phevaluator's ``evaluate_cards`` and the C
function behind it (``_pheval.evaluate_7cards``) and ``eval7.evaluate`` (on Card objects built
beforehand) are called once per hand from Python, as a user of theirs would.
Neither peer evaluates an 8-or-better or A-5 low, so our lows are compared with their high
evaluation. Every round runs every evaluator once; medians over the rounds and their ratios are
reported, since these machines are noisy. Rates are per second of the benchmark thread's CPU
time (``time.thread_time``), which is what one core does even while other processes share it;
the wall-clock medians are printed beside them.

    python bench/evaluate.py [--hands 2000000] [--rounds 5] [--plain-hands 200000]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from collections.abc import Callable
from importlib.metadata import version

import numpy as np

from stud.evaluate.batch import REFERENCES, high7, low8, low_a5

NAMES = [r + s for r in "23456789TJQKA" for s in "cdhs"]
TARGETS = {"high7": 50e6, "low8": 200e6}  # the targets, hands per second on one core
PEER_FACTORS = {"phevaluator evaluate_cards": 10, "eval7 evaluate": 20}


def random_hands(count: int, seed: int) -> np.ndarray:
    """``count`` hands of seven distinct cards: the first seven of a shuffled deck each."""
    rng = np.random.default_rng(seed)
    hands = np.empty((count, 7), dtype=np.uint8)
    chunk = 250_000  # a shuffled deck per hand, a chunk at a time to bound the memory
    for start in range(0, count, chunk):
        rows = min(chunk, count - start)
        decks = rng.permuted(np.tile(np.arange(52, dtype=np.uint8), (rows, 1)), axis=1)
        hands[start : start + rows] = decks[:, :7]
    return hands


def timed(run: Callable[[], object], hands: int) -> tuple[float, float]:
    """Hands per second of this thread's CPU time, and of wall-clock time."""
    cpu, wall = time.thread_time(), time.perf_counter()
    run()
    return hands / (time.thread_time() - cpu), hands / (time.perf_counter() - wall)


def repeated(run: Callable[[], object], times: int) -> Callable[[], None]:
    def again() -> None:
        for _ in range(times):
            run()

    return again


def contestants(hands: np.ndarray, plain_hands: int,
                repeat: int) -> dict[str, tuple[int, Callable[[], object]]]:
    """name -> (hands evaluated, a call that evaluates them)."""
    from eval7 import Card as Eval7Card
    from eval7 import evaluate as eval7_evaluate
    from phevaluator import _pheval, evaluate_cards

    rows = [tuple(hand) for hand in hands.tolist()]
    deck = [Eval7Card(name) for name in NAMES]
    eval7_rows = [[deck[c] for c in hand] for hand in rows]
    evaluate_7cards = _pheval.evaluate_7cards
    plain = rows[:plain_hands]

    def per_hand(evaluate: Callable[..., int], hands: list) -> Callable[[], None]:
        def run() -> None:
            for hand in hands:
                evaluate(*hand)

        return run

    def eval7_run() -> None:
        for hand in eval7_rows:
            eval7_evaluate(hand)

    n = len(rows)
    wide = hands.astype(np.int64)
    table: dict[str, tuple[int, Callable[[], object]]] = {}
    for f in (high7, low8, low_a5):  # each int64 row straight after its uint8 row: see WIDE
        table[f"stud {f.__name__}"] = (n * repeat, repeated(lambda f=f: f(hands), repeat))
        table[WIDE.format(f.__name__)] = (n * repeat, repeated(lambda f=f: f(wide), repeat))
    read = read_once()
    read(wide[:10])
    table[READ_ONCE] = (n * repeat, repeated(lambda: read(wide), repeat))
    table["phevaluator evaluate_cards"] = (n, per_hand(evaluate_cards, rows))
    table["phevaluator _pheval.evaluate_7cards"] = (n, per_hand(evaluate_7cards, rows))
    table["eval7 evaluate"] = (n, eval7_run)
    for reference in REFERENCES.values():
        table[f"stud {reference.__name__} (plain)"] = (
            len(plain), lambda r=reference: [r(hand) for hand in plain])
    return table


READ_ONCE = "int64 input read once, nothing evaluated"
# The int64 row of an evaluator runs straight after its uint8 row in every round, and their
# ratio is the median of the rounds' ratios: these machines change speed for seconds at a time,
# and a ratio of two medians taken apart would carry that into it.
WIDE = "stud {}, int64 input"


def read_once() -> Callable[[np.ndarray], int]:
    """A compiled pass that reads every id of an int64 array once (their OR, which the
    compiler vectorises): no evaluation of int64 input can beat it on an array out of cache."""
    import numba

    @numba.njit(nogil=True)
    def read(cards: np.ndarray) -> int:
        flat = cards.ravel()
        marks = 0
        for k in range(flat.shape[0]):
            marks |= flat[k]
        return marks

    return read  # type: ignore[no-any-return]


def check_peers_agree(hands: np.ndarray) -> None:
    """The peers see the same hands as we do: their order of 20,000 hands is ours."""
    from eval7 import Card as Eval7Card
    from eval7 import evaluate as eval7_evaluate
    from phevaluator import evaluate_cards

    sample = hands[:20_000]
    ours = high7(sample).tolist()
    deck = [Eval7Card(name) for name in NAMES]
    theirs = {
        "phevaluator": [-evaluate_cards(*hand) for hand in sample.tolist()],  # lower is better
        "eval7": [eval7_evaluate([deck[c] for c in hand]) for hand in sample.tolist()],
    }
    for name, values in theirs.items():
        pairs = sorted(set(zip(ours, values, strict=True)))
        same = len(pairs) == len(set(ours)) == len(set(values))
        assert same and all(a[1] < b[1] for a, b in zip(pairs, pairs[1:], strict=False)), name


def cpu() -> str:
    try:
        with open("/proc/cpuinfo") as info:
            return next(line.split(":", 1)[1].strip() for line in info
                        if line.startswith("model name"))
    except (OSError, StopIteration):
        return platform.processor() or platform.machine()


def millions(rate: float) -> str:
    return f"{rate / 1e6:,.1f} M" if rate >= 1e6 else f"{rate / 1e3:,.0f} k"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2_000_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--plain-hands", type=int, default=200_000,
                        help="hands for our plain Python evaluators (slow), the first of the set")
    parser.add_argument("--repeat", type=int, default=5, help="our calls a round")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for name, what in (("hands", "hand"), ("rounds", "round"), ("plain_hands", "hand"),
                       ("repeat", "call a round")):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} {getattr(args, name)}: at least one {what}")

    hands = random_hands(args.hands, args.seed)
    for evaluate in (high7, low8, low_a5):
        evaluate(hands[:1000])  # warm-up: compile or load the kernels, build the tables
    check_peers_agree(hands)
    table = contestants(hands, min(args.plain_hands, args.hands), args.repeat)
    rates: dict[str, list[float]] = {name: [] for name in table}
    walls: dict[str, list[float]] = {name: [] for name in table}
    for round_ in range(args.rounds):
        for name, (count, run) in table.items():
            cpu_rate, wall_rate = timed(run, count)
            rates[name].append(cpu_rate)
            walls[name].append(wall_rate)
        print(f"round {round_ + 1} (CPU time): " + ", ".join(
            f"{name} {millions(r[-1])}" for name, r in rates.items()), flush=True)
    median = {name: statistics.median(r) for name, r in rates.items()}

    load = ", load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()) if hasattr(
        os, "getloadavg") else ""
    print(f"\n{cpu()}{load}, Python {platform.python_version()}, "
          f"numba {version('numba')}, phevaluator {version('phevaluator')}, "
          f"eval7 {version('eval7')}; {args.hands:,} random 7-card hands, one core, "
          f"medians of {args.rounds} rounds\n")
    print("| evaluator | hands timed a round | hands per CPU second | best round | "
          "hands per wall-clock second |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, (count, _) in table.items():
        print(f"| {name} | {count:,} | {millions(median[name])} | {millions(max(rates[name]))} "
              f"| {millions(statistics.median(walls[name]))} |")
    peers = ["phevaluator evaluate_cards", "phevaluator _pheval.evaluate_7cards", "eval7 evaluate"]
    print("\n| ours / peer | " + " | ".join(peers) + " |")
    print("| --- |" + " ---: |" * len(peers))
    for ours in ("high7", "low8", "low_a5"):
        cells = [f"{median['stud ' + ours] / median[peer]:,.0f}x" for peer in peers]
        print(f"| {ours} | " + " | ".join(cells) + " |")

    print("\n| int64 input | hands per CPU second | / uint8 input (median of the rounds' "
          "ratios, each pair run back to back) | / reading it once |")
    print("| --- | ---: | ---: | ---: |")
    for ours in ("high7", "low8", "low_a5"):
        wide_rate = median[WIDE.format(ours)]
        paired = statistics.median(
            w / u for w, u in zip(rates[WIDE.format(ours)], rates["stud " + ours], strict=True))
        print(f"| {ours} | {millions(wide_rate)} | {paired:.2f}x | "
              f"{wide_rate / median[READ_ONCE]:.2f}x |")

    print()
    for ours, target in TARGETS.items():
        rate = median["stud " + ours]
        checks = [f">= {target / 1e6:.0f} M/s: {'met' if rate >= target else 'MISSED'}"]
        for peer, factor in PEER_FACTORS.items():
            ratio = rate / median[peer]
            verdict = "met" if ratio >= factor else "MISSED"
            checks.append(f">= {factor}x {peer.split()[0]}: {verdict} ({ratio:,.0f}x)")
        print(f"{ours}: " + "; ".join(checks))


if __name__ == "__main__":
    main()
