"""The rake an online room takes before it shares out a pot (stud.history.rake)."""

from __future__ import annotations

import pytest

from scenarios import hand_with, passive
from stud.engine import PotAwarded
from stud.history.rake import raked_stacks


def awards(hand) -> list[PotAwarded]:  # noqa: ANN001
    return [e for e in hand.events if isinstance(e, PotAwarded)]


def test_the_rake_comes_from_a_single_winners_pot() -> None:
    hand = passive(hand_with("stud", {1: "As Ad 2c Ah Ac 3d 4d", 2: "Ks Kd 5h Kh 9s 9d 7c"}))
    before = list(hand.stacks)
    after = raked_stacks(hand.stacks, awards(hand), 1, hand.rules)
    assert after == [before[0] - 1, before[1]]


def test_a_split_pot_is_shared_after_the_rake_odd_chip_by_the_policy() -> None:
    # Stud hi/lo: seat 1 the high hand, seat 2 the low; a pot of 4, raked 1, leaves 3: the
    # high half gets the odd chip (2), the low half 1.
    hand = passive(hand_with("stud8", {1: "Kc Kd 9s Qh 5h Js 9d", 2: "7d 5d 4h 3h 2s Qs Jd"}))
    pot = sum(a.amount for a in awards(hand))
    start = [s - sum(c for a in awards(hand) for seat, c in a.shares if seat == k + 1)
             for k, s in enumerate(hand.stacks)]
    after = raked_stacks(hand.stacks, awards(hand), 1, hand.rules)
    assert pot == 4 and [a - s for a, s in zip(after, start, strict=True)] == [2, 1]


def test_tied_hands_share_the_raked_pot_odd_chip_first_in_the_awards_order() -> None:
    hand = passive(hand_with("razz", {1: "As 2d 3c 4h 5s Kd Kc", 2: "Ac 2h 3d 4s 5h Qd Qc"}))
    (award,) = awards(hand)
    assert dict(award.shares) == {1: 2, 2: 2}
    first = award.shares[0][0]  # the odd chip's player by the odd_chip policy
    after = raked_stacks(hand.stacks, [award], 1, hand.rules)
    gained = {k + 1: a - b + 2 for k, (a, b) in enumerate(zip(after, hand.stacks, strict=True))}
    assert gained[first] == 2 and gained[3 - first] == 1


def test_a_rake_larger_than_the_pot_is_an_error() -> None:
    hand = passive(hand_with("stud", {1: "As Ad 2c Ah Ac 3d 4d", 2: "Ks Kd 5h Kh 9s 9d 7c"}))
    with pytest.raises(ValueError, match="more than the pot"):
        raked_stacks(hand.stacks, awards(hand), 1000, hand.rules)
    with pytest.raises(ValueError, match="cannot be negative"):
        raked_stacks(hand.stacks, awards(hand), -1, hand.rules)
