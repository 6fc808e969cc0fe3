"""Train a tabular agent for stud against bots, and show that it got better.

The agent sees only what ``stud.rl.SingleSeatEnv`` gives it: the observation vector and the
action mask. It boils the vector down to a small state (street, which actions are open, how
strong its own cards are for high and for low, whether a live opponent shows a pair, how many
opponents are left) and learns each state-action's value by Monte Carlo: every decision of a
hand is credited with the chips the hand won or lost. It explores epsilon-greedily while it
trains and plays greedily (ties broken at random) when it is evaluated, so the untrained agent,
whose values are all zero, plays uniformly at random among the legal actions.

Before and after training it plays the same evaluation hands (the same seeds: the same cards,
seats and opponents' choices where the play allows); the difference is paired, hand by hand.
For scale it also shows a calling station (always check or call) in the same seat.

    python examples/train_tabular.py --minutes 3
    python examples/train_tabular.py --episodes 2000 --eval-hands 500   # a quick look
"""

from __future__ import annotations

import argparse
import math
import time
from collections import defaultdict
from collections.abc import Callable

import numpy as np

from stud import rl
from stud.bots import BOTS

State = tuple[int, ...]
Policy = Callable[[dict[str, np.ndarray]], int]

CARDS = rl.OBSERVATION_LAYOUT["seat0.cards"]
LOW_RANKS = {12, 0, 1, 2, 3, 4, 5, 6}  # ace, deuce .. eight (rank index: deuce 0 .. ace 12)


def own_cards(vector: np.ndarray) -> np.ndarray:
    """Card ids of the agent's own cards, read from its observation."""
    return np.flatnonzero(vector[CARDS]) % 52


def state_of(observation: dict[str, np.ndarray]) -> State:
    vector, mask = observation["observation"], observation["action_mask"]
    cards = own_cards(vector)
    ranks = np.bincount(cards // 4, minlength=13)
    pairs = int((ranks >= 2).sum())
    top = int(ranks.max())
    if top >= 3:
        high = 4
    elif pairs >= 2:
        high = 3
    elif pairs == 1:
        high = 2 if int(np.flatnonzero(ranks >= 2)[0]) >= 8 else 1  # tens or better
    else:
        high = 0
    suits = int(np.bincount(cards % 4, minlength=4).max())
    draw = int(suits >= 3 and suits + 7 - len(cards) >= 5)
    low = min(3, max(0, len({int(r) for r in cards // 4} & LOW_RANKS) - 1))
    street = int(np.flatnonzero(vector[rl.OBSERVATION_LAYOUT["street"]])[0])
    opponents = shows_pair = 0
    for k in range(1, rl.MAX_SEATS):
        present = vector[rl.OBSERVATION_LAYOUT[f"seat{k}.present"]][0]
        folded = vector[rl.OBSERVATION_LAYOUT[f"seat{k}.folded"]][0]
        if not present or folded:
            continue
        opponents += 1
        up = np.flatnonzero(vector[rl.OBSERVATION_LAYOUT[f"seat{k}.cards"]]) % 52
        up_ranks = np.bincount(up // 4, minlength=13)
        shows_pair |= int(up_ranks.max() >= 2)
    return (street, *mask.tolist(), high, draw, low, shows_pair, min(opponents, 3))


class TabularAgent:
    """Monte Carlo action values over ``state_of``; epsilon-greedy while training."""

    def __init__(self, seed: int) -> None:
        self.total: dict[State, np.ndarray] = defaultdict(lambda: np.zeros(rl.NUM_ACTIONS))
        self.count: dict[State, np.ndarray] = defaultdict(lambda: np.zeros(rl.NUM_ACTIONS))
        self.rng = np.random.default_rng(seed)

    def value(self, state: State) -> np.ndarray:
        count = self.count.get(state)
        if count is None:
            return np.zeros(rl.NUM_ACTIONS)
        return self.total[state] / np.maximum(count, 1)

    def greedy(self, observation: dict[str, np.ndarray], rng: np.random.Generator) -> int:
        legal = np.flatnonzero(observation["action_mask"])
        values = self.value(state_of(observation))[legal]
        best = legal[values == values.max()]
        return int(rng.choice(best))

    def explore(self, observation: dict[str, np.ndarray], epsilon: float) -> int:
        if self.rng.random() < epsilon:
            return int(self.rng.choice(np.flatnonzero(observation["action_mask"])))
        return self.greedy(observation, self.rng)

    def learn(self, visits: list[tuple[State, int]], reward: float) -> None:
        for state, action in visits:
            self.total[state][action] += reward
            self.count[state][action] += 1


def station(observation: dict[str, np.ndarray]) -> int:
    mask = observation["action_mask"]
    return rl.CHECK_CALL if mask[rl.CHECK_CALL] else rl.BRING_IN


def evaluate(env: rl.SingleSeatEnv, policy: Policy, seeds: range) -> np.ndarray:
    """The agent's net chips in each hand, dealt from each seed."""
    results = np.zeros(len(seeds))
    for i, seed in enumerate(seeds):
        observation, _ = env.reset(seed=seed)
        done = False
        while not done:
            observation, reward, done, _, _ = env.step(policy(observation))
        results[i] = reward
    return results


def summary(results: np.ndarray) -> str:
    stderr = results.std(ddof=1) / math.sqrt(len(results))
    return f"{results.mean():+7.2f} chips/hand (+/- {stderr:.2f})"


def at_least(low: int) -> Callable[[str], int]:
    """An argparse type: a whole number >= ``low`` (else argparse's one-line error)."""
    def whole(text: str) -> int:
        if not text.strip().lstrip("-").isdigit() or int(text) < low:
            raise argparse.ArgumentTypeError(f"a whole number >= {low}, not {text!r}")
        return int(text)
    return whole


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="stud8", choices=["stud", "stud8", "razz"])
    parser.add_argument("--players", type=int, default=2, choices=range(2, 9))
    parser.add_argument("--opponent", default="random", choices=list(BOTS),
                        help="stud.bots name for every opponent")
    parser.add_argument("--minutes", type=float, default=3.0, help="training time")
    parser.add_argument("--episodes", type=at_least(1), default=None,
                        help="train this many hands instead of for --minutes")
    parser.add_argument("--eval-hands", type=at_least(2), default=3000)
    parser.add_argument("--epsilon", type=float, default=0.2, help="exploration, decays to 0.02")
    parser.add_argument("--seed", type=at_least(0), default=0)
    args = parser.parse_args()

    env = rl.SingleSeatEnv(args.variant, args.players, opponents=args.opponent)
    eval_seeds = range(10**9 + args.seed * args.eval_hands,
                       10**9 + (args.seed + 1) * args.eval_hands)
    agent = TabularAgent(args.seed)
    print(f"{args.variant}, {args.players} players, against {args.opponent}; stakes "
          f"{env.table.stakes}; evaluation on {args.eval_hands} fixed hands")

    def greedy_policy() -> Policy:
        rng = np.random.default_rng(args.seed)  # the same tie-breaks before and after
        return lambda observation: agent.greedy(observation, rng)

    before = evaluate(env, greedy_policy(), eval_seeds)
    print(f"before training (uniform random legal play): {summary(before)}")

    deadline = time.monotonic() + 60 * args.minutes
    report_every = max(1, (args.episodes or 20000) // 10)
    hands = 0
    chunk: list[float] = []
    observation, _ = env.reset(seed=args.seed)
    start = time.monotonic()
    while (hands < args.episodes) if args.episodes is not None else time.monotonic() < deadline:
        progress = (hands / args.episodes if args.episodes is not None
                    else (time.monotonic() - start) / (60 * args.minutes))
        epsilon = max(0.02, args.epsilon * (1 - progress))
        visits: list[tuple[State, int]] = []
        done = False
        while not done:
            action = agent.explore(observation, epsilon)
            visits.append((state_of(observation), action))
            observation, reward, done, _, _ = env.step(action)
        agent.learn(visits, reward)
        chunk.append(reward)
        hands += 1
        if hands % report_every == 0:
            print(f"  {hands:7d} hands, {time.monotonic() - start:6.1f} s, epsilon {epsilon:.2f}: "
                  f"last {len(chunk)} hands {np.mean(chunk):+7.2f} chips/hand")
            chunk = []
        observation, _ = env.reset()
    print(f"trained on {hands} hands in {time.monotonic() - start:.1f} s; "
          f"{len(agent.count)} states seen")

    after = evaluate(env, greedy_policy(), eval_seeds)
    reference = evaluate(env, station, eval_seeds)
    gain = after - before
    print(f"after training (greedy):                     {summary(after)}")
    print(f"calling station, same hands (for scale):     {summary(reference)}")
    print(f"improvement, paired by hand:                 {summary(gain)}")


if __name__ == "__main__":
    main()
