"""Learning-environment benchmark: steps per second of our environments against PettingZoo's
limit Texas Hold'em (``texas_holdem_v4``, on RLCard), all in the same run.

- one table, every seat an agent (AEC): ``env.agent_iter()``, ``env.last()`` (the
  observation and its action mask), a random legal action, ``env.step()``, a new hand
  (``reset``) when every agent is done; the same loop for ``texas_holdem_v4``. A step is one
  decision; the steps that retire finished agents are not counted.
- one seat against random bots (``SingleSeatEnv(observation="compact")``): a step is one
  decision of the agent (the bots' decisions happen inside it).
- ``stud.rl.vector_env`` with compact observations, ``--envs`` tables on ``--threads``
  threads: every seat in turn (a step is one decision, as in AEC) and one seat against the
  fast engine's random policy (a step is one decision of the agent, as in SingleSeatEnv).
  The actions are random legal ones drawn for all tables at once in NumPy, as a batched
  learner would; as Gymnasium's ``benchmark_vector_step`` counts, a table's autoreset step
  (which only deals its next hand) is not a step.

Steps per CPU second (the process's CPU time, every thread's) say what the machine's other
work does not: on a busy machine the wall-clock figures fall, these much less.

Each environment runs ``--seconds`` a round; rounds alternate between the environments and
the medians and ratios are reported, since these machines are noisy.

    python bench/rl.py [--seconds 2] [--rounds 3] [--players 6] [--variant stud8]
                       [--envs 2048] [--threads 2]
"""

from __future__ import annotations

import argparse
import statistics
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from stud import rl

Rates = tuple[float, float, float]  # steps per second, hands per second, steps per CPU second


def aec_rates(make: Callable[[], Any], seconds: float, seed: int) -> Rates:
    """Decisions and hands per second of an AEC environment, random legal decisions."""
    env = make()
    rng = np.random.default_rng(seed)
    done = hands = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        # Seeded once: reseeding texas_holdem_v4 rebuilds its RLCard game.
        env.reset(seed=seed if hands == 0 else None)
        hands += 1
        for _agent in env.agent_iter():
            observation, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            done += 1
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    return done / elapsed, hands / elapsed, done / cpu


def single_seat_rates(variant: str, players: int, seconds: float, seed: int) -> Rates:
    """The agent's decisions and hands per second, one table against random bots."""
    env = rl.SingleSeatEnv(variant=variant, players=players, opponents="random",
                           observation="compact")
    rng = np.random.default_rng(seed)
    done = hands = 0
    start, cpu = time.perf_counter(), time.process_time()
    _, info = env.reset(seed=seed)
    while time.perf_counter() - start < seconds:
        _, _, over, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        done += 1
        if over:
            hands += 1
            _, info = env.reset()
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    return done / elapsed, hands / elapsed, done / cpu


def vector_rates(variant: str, players: int, opponents: str | None, envs: int, threads: int,
                 seconds: float, seed: int) -> Rates:
    """Steps (autoreset steps not counted) and hands per second of the vectorised env."""
    env = rl.vector_env(variant=variant, players=players, num_envs=envs, opponents=opponents,
                        threads=threads)
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    mask = info["action_mask"]
    dealing = np.zeros(envs, dtype=bool)
    done = hands = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        actions = np.argmax(mask * rng.random(mask.shape), axis=1)  # random open actions
        _, _, over, _, info = env.step(actions)
        mask = info["action_mask"]
        done += envs - int(dealing.sum())
        hands += int(over.sum())
        dealing = over
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    env.close()
    return done / elapsed, hands / elapsed, done / cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per round and environment")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--variant", default="stud8", choices=["stud", "stud8", "razz"])
    parser.add_argument("--envs", type=int, default=2048, help="tables of the vectorised env")
    parser.add_argument("--threads", type=int, default=2, help="of the vectorised env")
    args = parser.parse_args()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pygame's and RLCard's import-time notices
        from pettingzoo.classic import texas_holdem_v4
    v, p, s = args.variant, args.players, args.seconds
    tables = f"{args.envs} tables, {args.threads} threads"
    runs: dict[str, Callable[[int], Rates]] = {
        f"stud.rl.env ({v}, AEC, one table)":
            lambda seed: aec_rates(lambda: rl.env(variant=v, players=p), s, seed),
        "PettingZoo texas_holdem_v4 (AEC)":
            lambda seed: aec_rates(lambda: texas_holdem_v4.env(num_players=p), s, seed),
        f"stud.rl.SingleSeatEnv ({v}, one seat vs random, compact)":
            lambda seed: single_seat_rates(v, p, s, seed),
        f"stud.rl.vector_env ({v}, every seat, {tables})":
            lambda seed: vector_rates(v, p, None, args.envs, args.threads, s, seed),
        f"stud.rl.vector_env ({v}, one seat vs random, {tables})":
            lambda seed: vector_rates(v, p, "random", args.envs, args.threads, s, seed),
    }
    # The kernels (the showdown's evaluators too) load or compile once, outside the rounds.
    vector_rates(v, p, None, 64, 1, 0.5, 0)
    results: dict[str, list[Rates]] = {name: [] for name in runs}
    for round_ in range(args.rounds):
        for name, run in runs.items():
            results[name].append(run(round_))
        print(f"round {round_ + 1}: " + ", ".join(
            f"{results[name][-1][0]:.0f}" for name in runs) + " steps/s")
    steps = {name: statistics.median(r[0] for r in rates) for name, rates in results.items()}
    hands = {name: statistics.median(r[1] for r in rates) for name, rates in results.items()}
    per_cpu = {name: statistics.median(r[2] for r in rates) for name, rates in results.items()}
    names = list(runs)
    aec, holdem, single, every, one = names
    print()
    print(f"{p} players, random legal actions, medians of {args.rounds} rounds of {s:g} s")
    print()
    print("| environment | steps per second | hands per second | steps per CPU second |")
    print("| --- | ---: | ---: | ---: |")
    for name in names:
        print(f"| {name} | {steps[name]:,.0f} | {hands[name]:,.0f} | {per_cpu[name]:,.0f} |")
    print()
    print("| ratio | steps |")
    print("| --- | --- |")
    for label, top, bottom in (
            ("stud.rl.env / texas_holdem_v4", aec, holdem),
            ("vector every seat / stud.rl.env (one table)", every, aec),
            ("vector every seat / texas_holdem_v4", every, holdem),
            ("vector one seat / SingleSeatEnv (one table)", one, single)):
        print(f"| {label} | {steps[top] / steps[bottom]:.0f}x |" if steps[top] > 10 *
              steps[bottom] else f"| {label} | {steps[top] / steps[bottom]:.2f}x |")


if __name__ == "__main__":
    main()
