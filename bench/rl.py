"""Learning-environment benchmark: AEC steps per second, our stud environment against
PettingZoo's limit Texas Hold'em (``texas_holdem_v4``, on RLCard) in the same run.

Both are driven by the loop a learning agent would use: ``env.agent_iter()``, ``env.last()``
(the observation and its action mask), a random action among the legal ones, ``env.step()``,
and a new hand (``reset``) when every agent is done. A "step" is one decision; the steps that
retire finished agents are not counted. Rounds alternate between the environments; the
medians and their ratio are reported, since these machines are noisy.

    python bench/rl.py [--steps 20000] [--rounds 5] [--players 6] [--variant stud8]
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


def steps_per_second(make: Callable[[], Any], steps: int, seed: int) -> tuple[float, float]:
    """Decisions per second and hands per second over ``steps`` random legal decisions."""
    env = make()
    rng = np.random.default_rng(seed)
    done = hands = 0
    start = time.perf_counter()
    while done < steps:
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
    elapsed = time.perf_counter() - start
    return done / elapsed, hands / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20000, help="decisions per round and env")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--variant", default="stud8", choices=["stud", "stud8", "razz"])
    args = parser.parse_args()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pygame's and RLCard's import-time notices
        from pettingzoo.classic import texas_holdem_v4

    def ours() -> Any:
        return rl.env(variant=args.variant, players=args.players)

    def holdem() -> Any:
        return texas_holdem_v4.env(num_players=args.players)

    mine: list[tuple[float, float]] = []
    theirs: list[tuple[float, float]] = []
    for round_ in range(args.rounds):
        mine.append(steps_per_second(ours, args.steps, round_))
        theirs.append(steps_per_second(holdem, args.steps, round_))
        print(f"round {round_ + 1}: stud {mine[-1][0]:8.0f} steps/s   "
              f"texas_holdem_v4 {theirs[-1][0]:8.0f} steps/s")
    our_steps = statistics.median(s for s, _ in mine)
    peer_steps = statistics.median(s for s, _ in theirs)
    our_hands = statistics.median(h for _, h in mine)
    peer_hands = statistics.median(h for _, h in theirs)
    print()
    print(f"{args.players} players, random legal actions, medians of {args.rounds} rounds of "
          f"{args.steps} decisions")
    print()
    print("| environment | steps per second | hands per second |")
    print("| --- | --- | --- |")
    print(f"| stud.rl ({args.variant}) | {our_steps:.0f} | {our_hands:.0f} |")
    print(f"| PettingZoo texas_holdem_v4 | {peer_steps:.0f} | {peer_hands:.0f} |")
    print(f"| ratio (stud / holdem) | {our_steps / peer_steps:.2f}x | "
          f"{our_hands / peer_hands:.2f}x |")


if __name__ == "__main__":
    main()
