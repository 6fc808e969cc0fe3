"""The fast engine (``stud.fast``) is the engine: the same decks and the same choices make the
same hands, step for step.

Tens of thousands of random hands are played on both, from the same ``Deck.seeded`` decks and
the same random choices, and compared at every step: the street, the player to act, the legal
actions with their amounts, the stacks, the chips committed (the pots), this street's wagers
and the folds; at every street and at the end the cards, up or down, and the community card;
at the end every pot's award (pot, half, chips, winners in odd-chip order) and the final
stacks. Every variant, 2 to 8 players, both profiles and every policy value, short stacks
(all-ins, side pots), eight players to seventh street (deck exhaustion) and tied hands (split
pots, odd chips). Each test also says which rules its hands met, so that none passes empty.

``STUD_FAST_HANDS`` multiplies the hands (``bench/fast_agree.py`` plays millions).
"""

from __future__ import annotations

import os
import random
import re

import numpy as np
import pytest

from stud.bots import make_bot
from stud.cards import Deck
from stud.engine import Hand, PotAwarded
from stud.fast import Batch, IllegalChoice, NotImplementedPolicy, game
from stud.fast import layout as L
from stud.fast.agree import (
    STAKES,
    Agreement,
    compare,
    random_rules,
    random_stacks,
    twin_decks,
)
from stud.fast.twister import seed_key, shuffle
from stud.rules import POLICIES, PROFILES, Rules, RulesError, Stakes

SCALE = float(os.environ.get("STUD_FAST_HANDS", "1"))
VARIANTS = ("stud", "stud8", "razz")


def hands(count: int) -> int:
    return max(1, int(count * SCALE))


def agree_over(runs: list[dict]) -> Agreement:
    """Every run compared; the total, which must hold no mismatch."""
    total = Agreement()
    for run in runs:
        total.add(compare(**run))
    assert total.mismatched_hands == 0, (
        f"{total.mismatched_hands} of {total.hands} hands differ; first:\n"
        + "\n".join(total.mismatches[:3]))
    return total


def mixed_runs(rng: random.Random, variant: str, rules: Rules | str, per_players: int,
               players: range = range(2, 9)) -> list[dict]:
    """Runs for 2 to 8 players, random stakes, deep and short stacks, loose and tight play."""
    runs = []
    for n in players:
        stakes = rng.choice(STAKES)
        count = hands(per_players)
        runs.append(dict(variant=variant, rules=rules, stakes=stakes, players=n, hands=count,
                         seed=rng.getrandbits(32), passive=rng.choice([0.0, 0.4, 0.8]),
                         stacks=random_stacks(rng, n, count, stakes, rng.choice([0.2, 0.6]))))
    return runs


@pytest.mark.parametrize("profile", ["standard", "pokerkit"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_same_deck_and_choices_make_the_same_hand_at_every_step(variant: str,
                                                                 profile: str) -> None:
    rng = random.Random(f"every step {variant} {profile}")
    total = agree_over(mixed_runs(rng, variant, profile, per_players=300))
    assert total.hands >= hands(2100)
    for rule in ("showdown", "uncontested", "side pot", "all-in wager",
                 "uncalled bet returned", "all-in first actor skipped"):
        assert total.covered[rule], f"no hand met {rule!r}: {dict(total.covered)}"
    if variant == "stud8":
        assert total.covered["hi/lo halves"] and total.covered["no low"]
    if variant != "razz" and profile == "standard":
        assert total.covered["open pair"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_deck_exhaustion_deals_a_community_card_or_reshuffles(variant: str) -> None:
    """Eight players to seventh street: ``community`` (standard) deals one card face up in the
    centre, ``reshuffle`` (pokerkit) shuffles burned and mucked cards back as Deck.reshuffle
    does; the first actor of sixth street acts first on seventh."""
    rng = random.Random(f"exhaustion {variant}")
    runs = []
    for profile in ("standard", "pokerkit"):
        count = hands(250)
        runs.append(dict(variant=variant, rules=profile, stakes=Stakes(1, 1, 2, 4), players=8,
                         hands=count, seed=rng.getrandbits(32), passive=0.93,
                         stacks=random_stacks(rng, 8, count, Stakes(1, 1, 2, 4), 0.1)))
    total = agree_over(runs)
    assert total.covered["community card"] > 10 and total.covered["reshuffle"] > 10, \
        dict(total.covered)


def test_tied_hands_split_pots_with_odd_chips_by_suit_and_by_seat() -> None:
    """Seats 1 and 2 dealt the same ranks: split pots, quartered hi/lo pots, and odd chips by
    ``odd_chip`` (suit: the highest card of a high, the lowest of a low; seat) and
    ``odd_chip_shares``, and identical hands scooping under ``scoop_split``."""
    rng = random.Random("ties")
    runs = []
    for variant in VARIANTS:
        for profile in ("standard", "pokerkit"):
            for n in (3, 5):
                count = hands(150)
                stakes = rng.choice(STAKES)
                runs.append(dict(variant=variant, rules=profile, stakes=stakes, players=n,
                                 hands=count, seed=rng.getrandbits(32), passive=1.0,
                                 decks=twin_decks(rng, n, count),
                                 stacks=random_stacks(rng, n, count, stakes, 0.3)))
    total = agree_over(runs)
    for rule in ("split pot", "odd chip by suit", "odd chip by seat", "hi/lo halves"):
        assert total.covered[rule] > 10, f"{rule!r}: {dict(total.covered)}"


def test_every_value_of_every_policy_agrees() -> None:
    """Rules with every policy drawn at random (``max_bets`` 1 to 5 included), all variants,
    2 to 8 players: every value of every policy of stud.rules is played."""
    rng = random.Random("policies")
    seen: dict[str, set[object]] = {policy: set() for policy in POLICIES}
    runs = []
    for k in range(36):
        rules = random_rules(rng)
        for policy in POLICIES:
            seen[policy].add(getattr(rules, policy))
        n = 2 + k % 7
        stakes = rng.choice(STAKES)
        count = hands(120)
        twins = k % 3 == 0
        runs.append(dict(variant=VARIANTS[k % 3], rules=rules, stakes=stakes, players=n,
                         hands=count, seed=rng.getrandbits(32),
                         passive=1.0 if twins else rng.choice([0.0, 0.5, 0.9]),
                         decks=twin_decks(rng, n, count) if twins else None,
                         stacks=random_stacks(rng, n, count, stakes, 0.5)))
    agree_over(runs)
    for policy, values in seen.items():
        wanted = 2 if policy != "max_bets" else 4
        assert len(values) >= wanted, f"{policy}: only {values} played"


def test_short_stacks_all_in_on_the_ante_and_the_bring_in() -> None:
    """Stacks of a few chips: all in on the ante (the next player brings in), short bring-ins
    (``short_bring_in``, ``short_bring_in_completes``), all-ins for less on every street, side
    pots by the dozen."""
    rng = random.Random("short")
    runs = []
    for variant in VARIANTS:
        for profile in ("standard", "pokerkit"):
            stakes = Stakes(2, 2, 5, 10)
            n = rng.randint(3, 8)
            count = hands(300)
            stacks = [[rng.randint(1, 12) if rng.random() < 0.7 else 400 for _ in range(n)]
                      for _ in range(count)]
            runs.append(dict(variant=variant, rules=profile, stakes=stakes, players=n,
                             hands=count, seed=rng.getrandbits(32), passive=0.5,
                             stacks=stacks))
    total = agree_over(runs)
    for rule in ("short bring-in", "all-in first actor skipped", "street without betting",
                 "side pot"):
        assert total.covered[rule] > 5, f"{rule!r}: {dict(total.covered)}"


def test_a_short_all_in_over_a_short_all_in_counts_only_its_own_increment() -> None:
    """``half_bet``: on a street with no full bet yet, an all-in of less than half a bet more
    than an earlier short all-in is short too (until together they make a bet)."""
    rng = random.Random("short over short")
    stakes = Stakes(0, 1, 2, 10)  # fifth street's bet is five small bets: short all-ins there
    runs = []
    for variant in VARIANTS:
        count = hands(300)
        runs.append(dict(variant=variant, rules="standard", stakes=stakes, players=6,
                         hands=count, seed=rng.getrandbits(32), passive=0.8,
                         stacks=[[rng.randint(4, 9) for _ in range(6)] for _ in range(count)]))
    total = agree_over(runs)
    assert total.covered["short all-in over a short all-in"] >= hands(8), dict(total.covered)


# ---------------------------------------------------------------- the parts


def test_reshuffle_shuffles_as_pythons_random_does() -> None:
    rng = random.Random("twister")
    mt = np.zeros(625, dtype=np.int64)
    for count in (0, 1, 2, 9, 30, 52):
        for seed in (0, 1, 7, 2**32 - 1, 2**32, 2**63 - 1, rng.getrandbits(63) * 1_000_003 + 1,
                     -5):
            cards = list(range(100, 100 + count))
            expected = cards[:]
            random.Random(seed).shuffle(expected)
            ours = np.array(cards + [0] * 4, dtype=np.int64)
            shuffle(ours, count, seed_key(seed), mt)
            assert ours[:count].tolist() == expected, (seed, count)


def _reference_play(variant: str, rules: str, stakes: Stakes, stacks: list[int], deck: Deck,
                    bot: str, seeds: list[int]) -> Hand:
    hand = Hand(variant, stakes, stacks, rules, deck)
    bots = [make_bot(bot, s) for s in seeds]
    while not hand.is_over:
        actor = hand.actor
        assert actor is not None
        hand.act(bots[actor].act(hand.view(actor + 1)), actor + 1)
    return hand


@pytest.mark.parametrize("bot", ["random", "station"])
def test_built_in_random_and_station_policies_play_as_the_bots_do(bot: str) -> None:
    """``play("random")`` draws as RandomBot seeded alike; ``play("station")`` is the calling
    station: the same hands as the bots make on the engine."""
    rng = random.Random(f"bots {bot}")
    for variant in VARIANTS:
        for rules in ("standard", "pokerkit"):
            n = rng.randint(2, 8)
            count = hands(60)
            stakes = rng.choice(STAKES)
            stacks = random_stacks(rng, n, count, stakes, 0.4)
            decks = [Deck.seeded(rng.getrandbits(40)) for _ in range(count)]
            seeds = [[rng.getrandbits(63) for _ in range(n)] for _ in range(count)]
            batch = Batch(variant, stakes, rules, stacks, decks)
            batch.play(bot, seeds=np.array(seeds, dtype=np.uint64))
            for h in range(count):
                hand = _reference_play(variant, rules, stakes, stacks[h], decks[h], bot,
                                       seeds[h])
                awards = [(e.pot, e.half.value, e.amount, e.shares) for e in hand.events
                          if isinstance(e, PotAwarded)]
                assert batch.stacks[h].tolist() == hand.stacks, (variant, rules, h)
                assert [(a.pot, a.half, a.amount, a.shares)
                        for a in batch.awards(h)] == awards, (variant, rules, h)


def test_strength_policy_plays_every_hand_to_its_end_and_conserves_chips() -> None:
    for variant in VARIANTS:
        stakes = Stakes(1, 2, 5, 10)
        stacks = random_stacks(random.Random(variant), 6, 400, stakes, 0.3)
        batch = Batch(variant, stakes, "standard", stacks,
                      [Deck.seeded(s) for s in range(400)])
        batch.play(["strength", "random", "station", "strength", "strength", "random"], 5)
        assert batch.is_over.all()
        assert (batch.stacks.sum(axis=1) == np.array(stacks).sum(axis=1)).all()
        assert (batch.stacks >= 0).all()
        assert batch.table[:, L.ACTIONS].min() > 0  # every hand was played, none folded out


def test_rules_with_a_policy_it_does_not_play_are_refused_by_name(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(game, "IMPLEMENTED", game.IMPLEMENTED - {"free_fold"})
    with pytest.raises(NotImplementedPolicy, match="free_fold"):
        Batch("stud", Stakes(1, 1, 2, 4), "standard", [50, 50], [Deck.seeded(1)])


@pytest.mark.parametrize("stacks", [[2**63 - 1] * 2, [2**64] * 2, [2**50 + 1, 5]])
def test_a_stack_beyond_the_chip_limit_is_refused_before_any_sum_wraps(stacks: list[int]) -> None:
    with pytest.raises(RulesError, match="a starting stack must be at most 1,125,899,906,842,624"):
        Batch("stud", Stakes(1, 2, 5, 10), None, stacks, [Deck.seeded(1)])


def test_the_built_in_policies_seed_is_a_whole_number_from_zero() -> None:
    batch = Batch("razz", Stakes(1, 1, 2, 4), None, [50, 50], [Deck.seeded(1)])
    for seed in (-5, 1.5, "1", True):
        with pytest.raises(ValueError, match=re.escape(
                f"seed must be a whole number >= 0, not {seed!r}")):
            batch.play(seed=seed)  # type: ignore[arg-type]
    batch.play(seed=np.int64(5))


def test_a_choice_that_is_not_legal_changes_no_hand() -> None:
    batch = Batch("razz", Stakes(1, 1, 2, 4), PROFILES["standard"], [50, 50, 50],
                  [Deck.seeded(s) for s in range(4)])
    before = batch.table.copy()
    choices = np.zeros(4, dtype=np.int64)
    choices[2] = 5
    with pytest.raises(IllegalChoice, match="hand 2: choice 5"):
        batch.act(choices)
    # Choices that are not whole numbers a hand, or past any index, are refused by what they
    # are, never read as some other choice.
    huge = np.zeros(4, dtype=np.uint64)
    huge[1] = 2**63 + 5
    for bad, words in [(1.9, r"shape \(4,\) expected, got \(\)"),
                       (np.full(4, 1.9), "whole numbers .* got dtype float64"),
                       (["1"] * 4, "got dtype <U1"), ([None] * 4, "got dtype object"),
                       (np.zeros(4, bool), "got dtype bool"),
                       (huge, f"hand 1: choice {2**63 + 5} is not one of")]:
        with pytest.raises(IllegalChoice, match=words):
            batch.act(bad)  # type: ignore[arg-type]
    assert (batch.table == before).all()


def test_a_reshuffle_needs_the_decks_seeds() -> None:
    decks = np.array([[c.id for c in Deck.seeded(3).cards]])
    with pytest.raises(RulesError, match="seed"):
        Batch("stud", Stakes(1, 1, 2, 4), "pokerkit", [50] * 8, decks)
    Batch("stud", Stakes(1, 1, 2, 4), "pokerkit", [50] * 8, decks, seeds=[3])
