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
from stud.fast import Batch, IllegalChoice
from stud.fast.agree import STAKES, random_rules, random_stacks, twin_decks
from stud.fast.history import Recorder, Writer, history, play_logged
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


def stepped_texts(variant: str, rules: Rules, stakes: Stakes, stacks: list[list[int]],
                  decks: list[Deck], seed: str, capacity: int = 64) -> tuple[list[str], list[str]]:
    """The same hands driven step by step with the same random choices (an index into the
    legal actions, as an agent gives them) on both engines: the fast engine's through a
    ``Recorder``, written as PHH, and the engine's ``from_hand``."""
    batch = Batch(variant, stakes, rules, stacks, decks)
    recorder = Recorder(batch, capacity)
    choose = np.random.default_rng(list(seed.encode()))
    hands = [Hand(variant, stakes, stacks[h], rules, deck) for h, deck in enumerate(decks)]
    while not batch.is_over.all():
        counts = batch.legal().counts
        choices = choose.integers(0, np.maximum(counts, 1))
        recorder.act(choices)
        for h in np.flatnonzero(counts):
            hands[h].act(hands[h].legal_actions()[int(choices[h])])
    assert all(hand.is_over for hand in hands)
    log = recorder.log()
    writer = Writer(batch, log)
    fast = [writer.text(h, Writer.fields(hand=h)) for h in range(len(decks))]
    assert fast == [dumps(history(batch, log, h, hand=h)) for h in range(len(decks))]
    return fast, [dumps(from_hand(hand, hand=h)) for h, hand in enumerate(hands)]


@pytest.mark.parametrize("variant", VARIANTS)
def test_hands_driven_step_by_step_write_the_engines_phh(variant: str) -> None:
    """A batch driven by the caller's own choices (``Batch.act`` through a ``Recorder``)
    writes, byte for byte, the PHH of the engine's hands given the same choices: both
    profiles and random rules, 2-8 players, short stacks; and the engine replays it."""
    rng = random.Random(f"fast phh stepped {variant}")
    for k, rules in enumerate([PROFILES["standard"], PROFILES["pokerkit"]]
                              + [random_rules(rng) for _ in range(4)]):
        run = a_run(rng, variant, rules, rng.randint(2, 8), 25, short=0.5)
        fast, reference = stepped_texts(variant, rules, run["stakes"],  # type: ignore[arg-type]
                                        run["stacks"], run["decks"],  # type: ignore[arg-type]
                                        f"{variant} {k}", capacity=1 if k == 0 else 64)
        assert fast == reference
        for text in fast[:5]:
            written = loads(text)
            assert list(replay(written, written.rules()).finishing_stacks) == \
                written.finishing_stacks


def test_a_recorder_refuses_what_it_did_not_see() -> None:
    """Made after an action, asked for the log while a hand is playing, or after an action
    taken around it: each refused with the hand named, and an illegal choice logs nothing."""
    run = a_run(random.Random("recorder refusals"), "stud8", PROFILES["standard"], 3, 4,
                short=0.0)
    batch = Batch("stud8", run["stakes"], PROFILES["standard"],  # type: ignore[arg-type]
                  run["stacks"], run["decks"])  # type: ignore[arg-type]
    recorder = Recorder(batch)
    with pytest.raises(IllegalChoice, match="hand 0: choice 9"):
        recorder.act([9, 0, 0, 0])
    assert not recorder.counts.any()
    recorder.act([0, 0, 0, 0])
    with pytest.raises(ValueError, match="hand 0 has actions already"):
        Recorder(batch)
    with pytest.raises(ValueError, match="hand 0 is not over yet"):
        recorder.log()
    batch.act([0, 0, 0, 0])
    with pytest.raises(ValueError, match=r"hand 0 took 2 actions, 1 of them through this"):
        recorder.log()
    batch.deal(run["decks"])  # type: ignore[arg-type]
    for use in (lambda: recorder.act([0, 0, 0, 0]), recorder.log):
        with pytest.raises(ValueError, match="the batch was dealt again"):
            use()
