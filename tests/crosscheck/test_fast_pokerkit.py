"""PokerKit 0.7.7 replays the fast engine's hands (``stud.fast.history``) under the
``pokerkit`` profile, strictly, and ends with the fast engine's stacks: every variant, 2 to 8
players, random stakes and short stacks (all-ins, side pots, hands turned up early)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from stud.cards import Deck
from stud.fast import Batch
from stud.fast.agree import random_stacks
from stud.fast.history import history, play_logged
from stud.rules import PROFILES, Stakes

from .pokerkit_oracle import random_game, replay_strict

VARIANTS = {"F7S": "stud", "F7S/8": "stud8", "FR": "razz"}


@pytest.mark.parametrize("code", list(VARIANTS))
def test_pokerkit_replays_the_fast_engines_hands_with_its_stacks(code: str) -> None:
    rng = random.Random(f"fast->pokerkit {code}")
    failures, hands = [], 0
    for _ in range(12):  # 240 hands: PokerKit replays about 70 a second
        ante, bring_in, small_bet, big_bet, stacks = random_game(rng, code)
        stakes = Stakes(ante, bring_in, small_bet, big_bet)
        players, count = len(stacks), 20  # its players; stacks from random_stacks, per hand
        decks = [Deck.seeded(rng.getrandbits(40)) for _ in range(count)]
        batch = Batch(VARIANTS[code], stakes, PROFILES["pokerkit"],
                      random_stacks(rng, players, count, stakes), decks)
        policies = [rng.choice(("random", "station", "strength")) for _ in range(players)]
        seeds = np.array([[rng.getrandbits(63) for _ in range(players)] for _ in range(count)],
                         dtype=np.uint64)
        log = play_logged(batch, policies, seeds=seeds)
        for h in range(count):
            hands += 1
            written = history(batch, log, h)
            try:
                theirs = replay_strict(code, ante, bring_in, small_bet, big_bet,
                                       written.starting_stacks, written.actions)
            except ValueError as error:
                failures.append(f"PokerKit refused: {error}\n  {written}")
                continue
            if theirs != written.finishing_stacks:
                failures.append(f"PokerKit {theirs} != fast {written.finishing_stacks}\n"
                                f"  {written}")
    assert not failures, f"{len(failures)} of {hands} hands disagree; first:\n{failures[0]}"


@pytest.mark.parametrize("code", list(VARIANTS))
def test_the_fast_engine_writes_no_showdown_line_for_a_hand_already_face_up(code: str) -> None:
    # Eight calling stations, all but one all in on third street: every hand turned up then,
    # three streets of up cards and a community card. PokerKit's showdown skips the hands, all
    # face up, and kills the losers: a line showing one again is refused.
    rng = random.Random(f"fast community {code}")
    stakes, count = Stakes(1, 2, 5, 10), 20
    stacks = [[rng.randint(1, 3) for _ in range(7)] + [rng.randint(1, 60)] for _ in range(count)]
    batch = Batch(VARIANTS[code], stakes, PROFILES["pokerkit"], stacks,
                  [Deck.seeded(rng.getrandbits(40)) for _ in range(count)])
    policies = ["station"] * 8
    seeds = np.array([[rng.getrandbits(63) for _ in range(8)] for _ in range(count)],
                     dtype=np.uint64)
    log = play_logged(batch, policies, seeds=seeds)
    failures, turned_up = [], 0
    for h in range(count):
        written = history(batch, log, h)
        actions = written.actions
        community = next(k for k, a in enumerate(actions) if a.startswith("d db"))
        turned_up += any(" sm " in a for a in actions[:community])
        try:
            theirs = replay_strict(code, 1, 2, 5, 10, written.starting_stacks, actions)
        except ValueError as error:
            failures.append(f"PokerKit refused: {error}\n  {written}")
            continue
        if theirs != written.finishing_stacks:
            failures.append(f"PokerKit {theirs} != fast {written.finishing_stacks}\n  {written}")
    # A short bring-in called leaves a 3-chip stack a chip behind: some hands are turned up
    # only at the showdown.
    assert turned_up >= count // 2, f"only {turned_up} hands turned up before seventh street"
    assert not failures, f"{len(failures)} of {count} hands disagree; first:\n{failures[0]}"
