"""Train a small policy network on many tables at once (``stud.rl.vector_env``), in NumPy,
and plot its learning curve.

The agent plays one seat of a 6-player table against the fast engine's bots (``--opponents``,
the strength policy by default) at ``--envs`` tables together. It reads only its compact
observation and action mask, boils them down to a few features (its own cards' pairs, trips,
flush and low draws, what the live opponents show, the street, the price of a call), and
picks an action with a one-hidden-layer network, trained by REINFORCE with a learned baseline
(advantage actor-critic over whole hands: every decision of a hand is credited with the
hand's chips).

Every ``--eval-every`` updates it plays ``--eval-tables`` hands greedily on the same fixed
seeds (the same deals and seats each time), and so do two fixed policies for scale: uniformly
random legal actions (the untrained network's play) and a calling station. The plot shows
the greedy evaluations and the training hands' average as training goes on, in big bets
per hand.

    python examples/train_vector.py --minutes 2 --plot docs/vector_training.png
    python examples/train_vector.py --minutes 0.3            # a quick look
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from stud import rl

L = rl.COMPACT_LAYOUT
LOW = np.zeros(13, bool)
LOW[[12, 0, 1, 2, 3, 4, 5, 6]] = True  # ace, deuce .. eight (rank index: deuce 0 .. ace 12)
Policy = Callable[[np.ndarray, np.ndarray], np.ndarray]


SEAT_SIZE = L["seat1.cards"].start
RANKS = np.arange(13)


def features(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """What the policy sees: a few numbers a table, all from the observation and mask."""
    n = len(obs)
    seats = obs[:, :8 * SEAT_SIZE].reshape(n, 8, SEAT_SIZE)
    cards = seats[:, :, L["seat0.cards"]].astype(np.int64)  # (n, 8 seats, 7): id + 1, 0 none
    seen = cards > 0
    counts = (((cards - 1) // 4)[..., None] == RANKS).__and__(seen[..., None]).sum(axis=2)
    suits = (((cards[:, 0] - 1) % 4)[..., None] == np.arange(4)).__and__(
        seen[:, 0, :, None]).sum(axis=1)
    mine = counts[:, 0]  # (n, 13) my rank counts
    top = mine.max(axis=1)
    pair_rank = np.where(mine >= 2, RANKS, -1).max(axis=1)
    high = np.where(mine > 0, RANKS, 0).max(axis=1)
    lows = ((mine > 0) & LOW).sum(axis=1)
    others = counts[:, 1:]
    alive = (seats[:, 1:, L["seat0.present"].start] > 0) & (seats[:, 1:, L["seat0.folded"].start]
                                                            == 0)
    shows_pair = (alive & (others.max(axis=2) >= 2)).any(axis=1)
    shows_high = (alive * np.where(others > 0, RANKS, 0).max(axis=2)).max(axis=1)
    pot = obs[:, L["pot"].start]
    to_call = obs[:, L["to_call"].start]
    return np.column_stack([
        np.ones(n), obs[:, L["street"]], obs[:, L["variant"]], mask,
        top >= 2, top >= 3, (mine >= 2).sum(axis=1) >= 2, (pair_rank + 1) / 13, high / 12,
        suits.max(axis=1) / 5, lows / 5, obs[:, L["seat0.held"].start] / 7,
        alive.sum(axis=1) / 7, shows_pair, shows_high / 12,
        np.log1p(pot), to_call, to_call / (pot + to_call + 1e-9),
    ]).astype(np.float64)


class Network:
    """One tanh layer; a softmax over the open actions and a value, trained with Adam."""

    def __init__(self, inputs: int, hidden: int, seed: int, lr: float) -> None:
        rng = np.random.default_rng(seed)
        self.p = {"w1": rng.normal(0, 1 / np.sqrt(inputs), (inputs, hidden)),
                  "w2": np.zeros((hidden, rl.NUM_ACTIONS)), "wv": np.zeros(hidden)}
        self.m = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.lr, self.t = lr, 0

    def forward(self, x: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, ...]:
        h = np.tanh(x @ self.p["w1"])
        logits = np.where(mask, h @ self.p["w2"], -1e9)
        logits -= logits.max(axis=1, keepdims=True)
        probs = np.exp(logits) * mask
        # A table with nothing open (its next step only deals) gets a harmless uniform row.
        probs = np.where(mask.any(axis=1, keepdims=True), probs, 1.0)
        probs /= probs.sum(axis=1, keepdims=True)
        return h, probs, h @ self.p["wv"]

    def sample(self, x: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        _, probs, _ = self.forward(x, mask)
        return (probs.cumsum(axis=1) > rng.random((len(x), 1))).argmax(axis=1)

    def greedy(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return self.forward(x, mask)[1].argmax(axis=1)

    def learn(self, x: np.ndarray, mask: np.ndarray, actions: np.ndarray,
              returns: np.ndarray) -> None:
        h, probs, value = self.forward(x, mask)
        advantage = returns - value
        advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-6)
        n = len(x)
        dlogits = probs.copy()
        dlogits[np.arange(n), actions] -= 1.0
        dlogits *= advantage[:, None] / n
        entropy = -(probs * np.log(probs + 1e-12)).sum(axis=1)
        dlogits += 0.01 * probs * (np.log(probs + 1e-12) + entropy[:, None]) * mask / n
        dvalue = 0.5 * (value - returns) / n
        grads = {"w2": h.T @ dlogits, "wv": h.T @ dvalue}
        dh = (dlogits @ self.p["w2"].T + np.outer(dvalue, self.p["wv"])) * (1 - h * h)
        grads["w1"] = x.T @ dh
        self.t += 1
        for k, g in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            m_hat = self.m[k] / (1 - 0.9 ** self.t)
            v_hat = self.v[k] / (1 - 0.999 ** self.t)
            self.p[k] -= self.lr * m_hat / (np.sqrt(v_hat) + 1e-8)


def evaluate(make: Callable[[], rl.StudVectorEnv], policy: Policy, seed: int) -> float:
    """Big bets a hand of ``policy`` over one hand at each table, the same deals each time."""
    env = make()
    obs, info = env.reset(seed=seed)
    total = np.zeros(env.num_envs)
    done = np.zeros(env.num_envs, bool)
    while not done.all():
        obs, reward, over, _, info = env.step(policy(obs, info["action_mask"]))
        total += np.where(done, 0.0, reward)
        done |= over
    env.close()
    return float(total.mean() / rl.DEFAULT_STAKES.big_bet)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].replace("\n", " "))
    parser.add_argument("--minutes", type=float, default=2.0, help="training time")
    parser.add_argument("--variant", default="stud", choices=["stud", "stud8", "razz"])
    parser.add_argument("--opponents", default="strength", choices=["random", "station",
                                                                   "strength"])
    parser.add_argument("--envs", type=int, default=512, help="tables trained on together")
    parser.add_argument("--steps", type=int, default=8, help="steps between updates")
    parser.add_argument("--eval-every", type=int, default=20, help="updates")
    parser.add_argument("--eval-tables", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--plot", default=None, help="write the learning curve here (PNG)")
    args = parser.parse_args()
    for option, least in (("envs", 1), ("steps", 1), ("eval_every", 1), ("eval_tables", 1),
                          ("seed", 0)):
        if getattr(args, option) < least:
            parser.error(f"--{option.replace('_', '-')} must be at least {least}")
    if args.plot:  # before training, so that a bad path costs no training time
        plot_path = Path(args.plot)
        if plot_path.is_dir():
            parser.error(f"--plot {args.plot}: is a folder; name a PNG file")
        try:
            plot_path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            parser.error(f"--plot {args.plot}: cannot make its folder: {error.strerror}")
        if not os.access(plot_path.parent, os.W_OK):
            parser.error(f"--plot {args.plot}: cannot write in {plot_path.parent}")
    rng = np.random.default_rng(args.seed)

    def make(tables: int) -> rl.StudVectorEnv:
        return rl.vector_env(variant=args.variant, players=6, num_envs=tables,
                             opponents=args.opponents)

    env = make(args.envs)
    obs, info = env.reset(seed=args.seed)
    net = Network(features(obs, info["action_mask"]).shape[1], 32, args.seed, lr=3e-3)
    eval_seed = 10**9 + args.seed

    def greedy(o: np.ndarray, m: np.ndarray) -> np.ndarray:
        return net.greedy(features(o, m), m)

    def uniform(o: np.ndarray, m: np.ndarray) -> np.ndarray:
        return (m * rng.random(m.shape)).argmax(axis=1)

    def station(o: np.ndarray, m: np.ndarray) -> np.ndarray:
        return np.where(m[:, rl.CHECK_CALL], rl.CHECK_CALL, rl.BRING_IN)

    evaluations = [(0, 0.0, evaluate(lambda: make(args.eval_tables), greedy, eval_seed))]
    scale = {name: evaluate(lambda: make(args.eval_tables), policy, eval_seed)
             for name, policy in (("uniformly random", uniform), ("calling station", station))}
    print(f"before training: greedy {evaluations[0][2]:+.3f} big bets a hand; "
          + ", ".join(f"{k} {v:+.3f}" for k, v in scale.items()))

    hand = np.arange(args.envs)  # each table's current hand, numbered across tables
    next_hand = args.envs
    results = np.full(1 << 16, np.nan)  # each hand's big bets, by its number (NaN: playing)
    dealing = np.zeros(args.envs, bool)  # tables whose next step only deals their next hand
    memory: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
    curve: list[tuple[int, float, float]] = []  # hands played, seconds, training average
    played, updates, start = 0, 0, time.perf_counter()
    window: list[float] = []
    while time.perf_counter() - start < args.minutes * 60:
        for _ in range(args.steps):
            mask = info["action_mask"]
            x = features(obs, mask)
            actions = net.sample(x, mask, rng)
            acting = ~dealing
            memory.append((x[acting], mask[acting], actions[acting], hand[acting]))
            obs, reward, over, _, info = env.step(actions)
            won = reward[over] / rl.DEFAULT_STAKES.big_bet
            results[hand[over]] = won
            window.extend(won.tolist())
            # Tables that finished deal next step: their hands get new numbers now.
            fresh = np.flatnonzero(dealing)
            hand[fresh] = np.arange(next_hand, next_hand + len(fresh))
            next_hand += len(fresh)
            if next_hand > len(results):
                results = np.concatenate([results, np.full(len(results), np.nan)])
            dealing = over
        finished = results
        xs, masks, acts, hands = (np.concatenate(part) for part in zip(*memory, strict=True))
        ready = ~np.isnan(finished[hands])
        net.learn(xs[ready], masks[ready], acts[ready], finished[hands[ready]])
        memory = [(x[~r], m[~r], a[~r], h[~r]) for x, m, a, h, r in
                  [(xs, masks, acts, hands, ready)]]
        updates += 1
        played = next_hand - args.envs
        evaluating = updates % args.eval_every == 0
        if (updates % 10 == 0 or evaluating) and window:
            curve.append((played, time.perf_counter() - start, float(np.mean(window))))
            window = []
        if evaluating:
            score = evaluate(lambda: make(args.eval_tables), greedy, eval_seed)
            evaluations.append((played, time.perf_counter() - start, score))
            recent = f"  (training hands {curve[-1][2]:+.3f})" if curve else ""
            print(f"{evaluations[-1][1]:6.0f} s  {played:>9,} hands  greedy {score:+.3f} "
                  f"big bets a hand{recent}")
    elapsed = time.perf_counter() - start
    final = evaluate(lambda: make(args.eval_tables), greedy, eval_seed)
    evaluations.append((played, elapsed, final))
    print(f"trained {elapsed:.0f} s on {played:,} hands ({updates} updates): greedy "
          f"{evaluations[0][2]:+.3f} -> {final:+.3f} big bets a hand against {args.opponents} "
          f"bots ({args.eval_tables} evaluation hands, the same deals each time)")
    env.close()
    if args.plot:
        plot(args, curve, evaluations, scale)


def plot(args: argparse.Namespace, curve: list[tuple[int, float, float]],
         evaluations: list[tuple[int, float, float]], scale: dict[str, float]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4), dpi=90)
    if curve:
        ax.plot([c[0] for c in curve], [c[2] for c in curve], color="tab:blue", alpha=0.45,
                label="training hands (sampled actions)")
    ax.plot([e[0] for e in evaluations], [e[2] for e in evaluations], "o-",
            color="tab:blue", label=f"greedy policy, {args.eval_tables} fixed evaluation hands")
    for (name, value), color in zip(scale.items(), ("tab:gray", "tab:orange"), strict=True):
        ax.axhline(value, color=color, linestyle="--", label=name)
    ax.set_xlabel("training hands")
    ax.set_ylabel("big bets per hand")
    ax.set_title(f"{args.variant}, one seat of 6 against {args.opponents} bots, "
                 f"{args.envs} tables at once ({evaluations[-1][1]:.0f} s)", fontsize=10)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(args.plot)
    print(f"wrote {args.plot}")


if __name__ == "__main__":
    main()
