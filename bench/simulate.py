"""Simulation benchmark: bot-against-bot hands per second per core, and scaling with workers.

Six bots of one kind (random legal play, or the strength bot) play 6-player stud through
``stud.sim.simulate``, as ``stud simulate`` does: fresh stacks of 50 big bets, decks and bot
seeds derived per hand. Each round times the same hands on 1 worker (in this process) and on
2 (a process pool, its start-up included), alternating; medians over the rounds are reported,
since these machines are noisy, and every round checks that both gave the same results.

"hands per CPU second" is the hands over the processor time the workers spent on them: the
speed of one core, whatever else the machine is doing. The wall-clock rates, and so the
scaling, do depend on how busy the machine is (its load average is printed); "cores used at
2" (CPU seconds over wall seconds with 2 workers) shows how much of two cores the pool got.

    python bench/simulate.py [--hands 2000] [--rounds 5] [--variant stud]
"""

from __future__ import annotations

import argparse
import os
import statistics

import numpy as np

from stud.rules import Stakes, Variant, profile
from stud.sim import Match, simulate

PLAYERS = 6
LINEUPS = ("random", "strength")


def timed(match: Match, hands: int, workers: int) -> tuple[float, float, float, np.ndarray]:
    """Hands per wall-clock second, hands per CPU second, cores used, and the results."""
    results = simulate(match, hands, workers=workers, progress=False)
    return (results.hands_per_second, hands / results.cpu_seconds,
            results.cpu_seconds / results.seconds, results.nets)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands per timing")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--variant", default="stud", choices=["stud", "stud8", "razz"])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    rows = []
    for bot in LINEUPS:
        match = Match(Variant.parse(args.variant), Stakes(1, 2, 5, 10), profile("standard"),
                      (bot,) * PLAYERS, seed=args.seed, rotate=True)
        simulate(match, 20, workers=2, progress=False)  # start the fork server once
        timings: dict[int, list[float]] = {1: [], 2: []}
        per_cpu: list[float] = []
        cores: list[float] = []
        for round_ in range(args.rounds):
            nets = []
            for workers in (1, 2) if round_ % 2 == 0 else (2, 1):
                speed, cpu_speed, used, result = timed(match, args.hands, workers)
                timings[workers].append(speed)
                per_cpu.append(cpu_speed)
                if workers == 2:
                    cores.append(used)
                nets.append(result)
            assert np.array_equal(nets[0], nets[1]), "workers changed the results"
        one, two = (statistics.median(timings[w]) for w in (1, 2))
        rows.append((bot, statistics.median(per_cpu), one, two, statistics.median(cores)))

    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"{args.variant}, {PLAYERS} bots of one kind, {args.hands} hands a timing, medians of "
          f"{args.rounds} rounds; {os.cpu_count()} CPUs, load average {load}\n")
    print("| bots | hands per CPU second | 1 worker, hands/s | 2 workers, hands/s "
          "| scaling 1 to 2 | cores used at 2 |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for bot, cpu, one, two, used in rows:
        print(f"| {bot} | {cpu:,.0f} | {one:,.0f} | {two:,.0f} | {two / one:.2f}x | {used:.2f} |")


if __name__ == "__main__":
    main()
