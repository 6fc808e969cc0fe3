"""The fast engine's hands written as PHH (``stud.fast.history``) are the engine's: the same
deck, stacks and bots (random, station and strength, each seeded as the engine's bot is) make
the same file, byte for byte, under every policy of the rules, and the engine's replay of the
file ends with its finishing stacks."""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np
import pytest

from stud.bots import make_bot
from stud.cards import Deck
from stud.engine import Hand
from stud.fast import Batch
from stud.fast.agree import STAKES, random_rules, random_stacks, twin_decks
from stud.fast.history import Writer, history, play_logged
from stud.history.phh import dumps, from_hand, loads
from stud.history.replay import replay
from stud.rules import PROFILES, Rules, Stakes

VARIANTS = ("stud", "stud8", "razz")


def reference_texts(variant: str, rules: Rules, stakes: Stakes, stacks: list[list[int]],
                    decks: list[Deck], policies: Sequence[str], seeds: np.ndarray) -> list[str]:
    """Each hand played by the engine with the bots the policies copy, as PHH."""
    texts = []
    for h, deck in enumerate(decks):
        hand = Hand(variant, stakes, stacks[h], rules, deck)
        bots = [make_bot(name, int(seed)) for name, seed in zip(policies, seeds[h], strict=True)]
        while not hand.is_over:
            actor = hand.actor
            assert actor is not None
            hand.act(bots[actor].act(hand.view(actor + 1)), actor + 1)
        texts.append(dumps(from_hand(hand, hand=h)))
    return texts


def fast_texts(variant: str, rules: Rules, stakes: Stakes, stacks: list[list[int]],
               decks: list[Deck], policies: Sequence[str], seeds: np.ndarray,
               capacity: int = 64) -> list[str]:
    batch = Batch(variant, stakes, rules, stacks, decks)
    log = play_logged(batch, list(policies), seeds=seeds, capacity=capacity)
    texts = [dumps(history(batch, log, h, hand=h)) for h in range(len(decks))]
    writer = Writer(batch, log)  # the fast path of the same text
    assert [writer.text(h, Writer.fields(hand=h)) for h in range(len(decks))] == texts
    return texts


def a_run(rng: random.Random, variant: str, rules: Rules, players: int, hands: int,
          short: float) -> dict[str, object]:
    stakes = rng.choice(STAKES)
    decks = twin_decks(rng, players, hands) if rng.random() < 0.3 else \
        [Deck.seeded(rng.getrandbits(40)) for _ in range(hands)]
    policies = [rng.choice(("random", "random", "station", "strength")) for _ in range(players)]
    return {"variant": variant, "rules": rules, "stakes": stakes,
            "stacks": random_stacks(rng, players, hands, stakes, short), "decks": decks,
            "policies": policies,
            "seeds": np.array([[rng.getrandbits(63) for _ in range(players)]
                               for _ in range(hands)], dtype=np.uint64)}


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("profile", ["standard", "pokerkit"])
def test_the_fast_engines_phh_is_the_engines_byte_for_byte(variant: str, profile: str) -> None:
    rng = random.Random(f"fast phh {variant} {profile}")
    for players in range(2, 9):
        run = a_run(rng, variant, PROFILES[profile], players, 40, short=0.5)
        assert fast_texts(**run) == reference_texts(**run)  # type: ignore[arg-type]


@pytest.mark.parametrize("variant", VARIANTS)
def test_under_every_policy_of_the_rules_the_phh_is_the_engines(variant: str) -> None:
    """Random rules (every policy drawn: deck exhaustion by reshuffle, all-in muck, odd chips
    by seat, ...), short stacks and tied hands: all-ins turned up before the last street,
    side pots, and hands mucked at the showdown."""
    rng = random.Random(f"fast phh rules {variant}")
    shows = mucks = early = 0
    for _ in range(20):
        run = a_run(rng, variant, random_rules(rng), rng.randint(2, 8), 30, short=0.6)
        fast = fast_texts(**run)  # type: ignore[arg-type]
        assert fast == reference_texts(**run)  # type: ignore[arg-type]
        for text in fast:
            actions = loads(text).actions
            shows += sum(" sm " in a for a in actions)
            mucks += sum(a.endswith(" sm") for a in actions)
            early += any(" sm " in line and following.startswith("d ")
                         for line, following in zip(actions, actions[1:], strict=False))
    assert shows and mucks and early  # the showdown's every path was met


def test_a_log_that_fills_up_grows_and_changes_no_hand() -> None:
    rng = random.Random("fast phh capacity")
    run = a_run(rng, "stud", PROFILES["standard"], 6, 30, short=0.3)
    assert fast_texts(**run, capacity=1) == reference_texts(**run)  # type: ignore[arg-type]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("profile", ["standard", "pokerkit"])
def test_the_engine_replays_the_fast_engines_phh_exactly(variant: str, profile: str) -> None:
    rng = random.Random(f"fast phh replay {variant} {profile}")
    run = a_run(rng, variant, PROFILES[profile], rng.randint(2, 8), 60, short=0.5)
    for text in fast_texts(**run):  # type: ignore[arg-type]
        written = loads(text)
        assert written.finishing_stacks is not None
        assert list(replay(written, written.rules()).finishing_stacks) == \
            written.finishing_stacks


def test_a_negative_seed_plays_as_strength_bot_of_that_seed() -> None:
    """``random.Random(-s)`` is ``random.Random(s)``: a signed seed array's strength seats
    draw the noise of ``StrengthBot(seed)``, not of the seed's two's complement."""
    rng = random.Random("fast phh negative seeds")
    run = a_run(rng, "stud", PROFILES["standard"], 4, 30, short=0.0)
    seeds = np.array([[-rng.getrandbits(62) for _ in range(4)] for _ in range(30)],
                     dtype=np.int64)
    seeds[0, 0] = np.iinfo(np.int64).min
    run.update(policies=["strength", "strength", "random", "strength"], seeds=seeds)
    assert fast_texts(**run) == reference_texts(**run)  # type: ignore[arg-type]
