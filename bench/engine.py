"""Engine benchmark: random legal 6-player stud hands per second, ours against PokerKit.

Both engines play the same kind of hand in the same run: six players with 1,000 chips, a
1/2/5/10 game, every decision chosen uniformly among the legal ones, a fresh shuffled deck per
hand. Three loops are timed, in turn, each round:

- the library loop: ``Hand`` with ``legal_actions()`` and ``act()``;
- ``stud simulate``: the same game through ``stud.sim.simulate`` on one worker, the random bot
  in every seat deciding from its seat's ``view()`` (a table, bots, views, results);
- PokerKit 0.7.7 with its automations.

Rates are per second of CPU time (this process's); the medians and the ratios are reported,
since these machines are noisy.

    python bench/engine.py [--hands 2000] [--rounds 5] [--variant stud]
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
        hand = Hand(variant, stakes, stacks, rules, Deck.seeded(rng.getrandbits(32)))
        while not hand.is_over:
            hand.act(rng.choice(hand.legal_actions()))
    return hands / (time.process_time() - start)


def simulated(hands: int, seed: int, variant: str) -> float:
    from stud.rules import Variant
    from stud.sim import Match, simulate

    stakes = Stakes(ANTE, BRING_IN, SMALL, BIG)
    match = Match(Variant.parse(variant), stakes, PROFILES["standard"], ("random",) * PLAYERS,
                  buy_in=STACK // BIG, seed=seed)
    start = time.process_time()
    simulate(match, hands, workers=1, progress=False)
    return hands / (time.process_time() - start)


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
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--variant", default="stud", choices=["stud", "stud8", "razz"])
    args = parser.parse_args()
    peer_hands = max(100, args.hands // 10)
    mine, sims, theirs = [], [], []
    for round_ in range(args.rounds):
        mine.append(ours(args.hands, round_, args.variant))
        sims.append(simulated(args.hands, round_, args.variant))
        theirs.append(pokerkit(peer_hands, round_, args.variant))
        print(f"round {round_ + 1}: library {mine[-1]:8.0f} hands/s   stud simulate "
              f"{sims[-1]:8.0f} hands/s   PokerKit {theirs[-1]:6.0f} hands/s")
    library, simulate, peer = (statistics.median(x) for x in (mine, sims, theirs))
    print(f"median ({args.variant}, {PLAYERS} players, random legal play): library {library:.0f}"
          f" hands/s, stud simulate {simulate:.0f} hands/s, PokerKit {peer:.0f} hands/s")
    print(f"library / PokerKit {library / peer:.1f}x; simulate / library "
          f"{simulate / library:.0%}; simulate / PokerKit {simulate / peer:.1f}x")


if __name__ == "__main__":
    main()
