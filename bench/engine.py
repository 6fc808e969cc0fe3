"""Engine benchmark: random legal 6-player stud hands per second, ours against PokerKit.

Both engines play the same kind of hand in the same run: six players with 1,000 chips, a
1/2/5/10 game, every decision chosen uniformly among the legal ones, a fresh deck per hand
shuffled by one seeded generator (PokerKit shuffles with the global one; ours are
``Deck.drawn(rng)``, the same shuffle: neither loop seeds a generator for each hand, which
costs about 10 µs, a tenth of one of our hands). Three loops are timed, in turn, each round:

- the library loop: ``Hand`` with ``legal_actions()`` and ``act()``;
- ``stud simulate``: the same game through ``stud.sim.simulate`` on one worker, the random bot
  in every seat deciding from its seat's ``view()`` (a table, bots, views, results);
- ``stud simulate --engine fast``: the same match on the compiled batch engine (``sim_fast``:
  the same hands, decks and random bots' choices), ``--fast-hands`` hands on one worker, then
  on two (``--workers 2``);
- PokerKit 0.7.7 with its automations.

Rates are per second of CPU time (this process's), except the fast engine on two workers,
whose rate is per second of wall-clock time and is compared with the one worker's wall-clock
rate of the same round; the medians and the ratios are reported, since these machines are
noisy. The fast engine's kernels are loaded (from numba's cache) before the first round.

    python bench/engine.py [--hands 2000] [--fast-hands 400000] [--rounds 5] [--variant stud]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import warnings

from stud.cards import Deck
from stud.engine import Hand
from stud.rules import PROFILES, Stakes

PLAYERS = 6
STACK = 1000
ANTE, BRING_IN, SMALL, BIG = 1, 2, 5, 10


def ours(hands: int, seed: int, variant: str) -> float:
    rng = random.Random(seed)
    stakes = Stakes(ANTE, BRING_IN, SMALL, BIG)
    rules = PROFILES["standard"]
    stacks = [STACK] * PLAYERS
    start = time.process_time()
    for _ in range(hands):
        hand = Hand(variant, stakes, stacks, rules, Deck.drawn(rng))
        while not hand.is_over:
            hand.act(rng.choice(hand.legal_actions()))
    return hands / (time.process_time() - start)


def simulated(hands: int, seed: int, variant: str, engine: str = "reference",
              workers: int = 1) -> tuple[float, float]:
    """Hands per CPU second of this process, and per wall-clock second."""
    from stud.rules import Variant
    from stud.sim import Match, simulate

    stakes = Stakes(ANTE, BRING_IN, SMALL, BIG)
    match = Match(Variant.parse(variant), stakes, PROFILES["standard"], ("random",) * PLAYERS,
                  buy_in=STACK // BIG, seed=seed)
    start, wall = time.process_time(), time.perf_counter()
    simulate(match, hands, workers=workers, progress=False, engine=engine)  # type: ignore[arg-type]
    return hands / (time.process_time() - start), hands / (time.perf_counter() - wall)


def pokerkit(hands: int, seed: int, variant: str) -> float:
    from pokerkit import (
        Automation,
        FixedLimitRazz,
        FixedLimitSevenCardStud,
        FixedLimitSevenCardStudHighLowSplitEightOrBetter,
    )

    game = {"stud": FixedLimitSevenCardStud,
            "stud8": FixedLimitSevenCardStudHighLowSplitEightOrBetter,
            "razz": FixedLimitRazz}[variant]
    automations = tuple(Automation)  # dealing, showdown and payouts automated, like ours
    rng = random.Random(seed)
    random.seed(seed)  # PokerKit shuffles with the global generator
    start = time.process_time()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(hands):
            state = game.create_state(automations, True, ANTE, BRING_IN, SMALL, BIG,
                                      [STACK] * PLAYERS, PLAYERS)
            while state.status:
                moves = []
                if state.can_post_bring_in():
                    moves.append(state.post_bring_in)
                if state.can_check_or_call():
                    moves.append(state.check_or_call)
                if state.can_fold():
                    moves.append(state.fold)
                if state.can_complete_bet_or_raise_to():
                    moves.append(state.complete_bet_or_raise_to)
                rng.choice(moves)()
    return hands / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="our hands per round")
    parser.add_argument("--fast-hands", type=int, default=400_000,
                        help="hands per round on the fast engine")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--variant", default="stud", choices=["stud", "stud8", "razz"])
    args = parser.parse_args()
    peer_hands = max(100, args.hands // 10)
    simulated(20_000, 0, args.variant, "fast")  # its kernels loaded, its forkserver started
    simulated(20_000, 0, args.variant, "fast", workers=2)
    mine, sims, fast, fast_wall, fast2, theirs = [], [], [], [], [], []
    for round_ in range(args.rounds):
        mine.append(ours(args.hands, round_, args.variant))
        sims.append(simulated(args.hands, round_, args.variant)[0])
        rate, wall = simulated(args.fast_hands, round_, args.variant, "fast")
        fast.append(rate)
        fast_wall.append(wall)
        fast2.append(simulated(args.fast_hands, round_, args.variant, "fast", workers=2)[1])
        theirs.append(pokerkit(peer_hands, round_, args.variant))
        print(f"round {round_ + 1}: library {mine[-1]:8.0f} hands/s   stud simulate "
              f"{sims[-1]:8.0f} hands/s   --engine fast {fast[-1]:8.0f} hands/s (2 workers "
              f"{fast2[-1]:8.0f} a wall-clock second, {fast2[-1] / wall:.2f}x one's)   "
              f"PokerKit {theirs[-1]:6.0f} hands/s")
    library, simulate, quick, peer = (statistics.median(x) for x in (mine, sims, fast, theirs))
    two = statistics.median(fast2)
    scaling = statistics.median(b / a for a, b in zip(fast_wall, fast2, strict=True))
    print(f"median ({args.variant}, {PLAYERS} players, random legal play): library {library:.0f}"
          f" hands/s, stud simulate {simulate:.0f} hands/s, --engine fast {quick:.0f} hands/s "
          f"(2 workers {two:.0f} a wall-clock second), PokerKit {peer:.0f} hands/s")
    print(f"library / PokerKit {library / peer:.1f}x; simulate / library "
          f"{simulate / library:.0%}; simulate / PokerKit {simulate / peer:.1f}x; "
          f"--engine fast / PokerKit {quick / peer:.0f}x; 2 workers / 1 {scaling:.2f}x")

if __name__ == "__main__":
    main()
