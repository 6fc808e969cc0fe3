"""RULES.md section 8 (and the razz parts of sections 3 and 4): A-5 lowball stud.

No qualifier, pairs are bad, straights and flushes do not count; the highest up card brings in
(king high, ace low, spades highest); the lowest showing hand acts first; no open-pair big bet.
"""

from __future__ import annotations

from scenarios import amounts, hand_with, passive, play
from stud.engine import (
    ActionKind,
    Category,
    Half,
    Hand,
    HandMucked,
    HandShown,
    HandValue,
    PotAwarded,
    StreetStarted,
)


def low(value: HandValue | None) -> tuple[Category, str] | None:
    """A razz low as facts: its category and its five ranks, as the cards write them."""
    return None if value is None else (value.category, "".join(r.char for r in value.ranks))


def awards(hand: Hand) -> list[tuple[int, dict[int, int], tuple[Category, str] | None]]:
    """Each pot: its amount, who won how much, with what (a razz pot has no halves)."""
    pots = [e for e in hand.events if isinstance(e, PotAwarded)]
    assert all(e.half is Half.ALL and e.high is None for e in pots)
    return [(e.amount, dict(e.shares), low(e.low)) for e in pots]


def showdown_log(hand: Hand) -> list[tuple[str, int]]:
    return [("show" if isinstance(e, HandShown) else "muck", e.seat) for e in hand.events
            if isinstance(e, HandShown | HandMucked)]


# ---------------------------------------------------------------- the hand values


def test_razz_best_a5_low_wins_the_whole_pot():
    # 5-4-3-2-A beats 6-4-3-2-A. Seat 2 shows first: its Q-high up cards are the lowest.
    hand = passive(hand_with("razz", {1: "5c 4d 3h 2s Ac Kd Kh", 2: "6c 4c 3d 2d Ad Qs Qh"}))
    assert showdown_log(hand) == [("show", 2), ("show", 1)]
    assert awards(hand) == [(4, {1: 4}, (Category.LOW, "5432A"))]
    assert hand.stacks == [102, 98]


def test_razz_has_no_qualifier():
    # 9-7-5-3-2 against T-8-6-4-3: no eight-or-better needed, the nine low takes it all.
    hand = passive(hand_with("razz", {1: "9c 7d 5h 3s 2c Kd Kh", 2: "Tc 8d 6h 4s 3c Qd Qh"}))
    assert awards(hand) == [(4, {1: 4}, (Category.LOW, "97532"))]
    assert hand.stacks == [102, 98]


def test_razz_pairs_are_bad():
    # Seat 1's seven cards hold only four ranks (A-2-3-4): its best is a pair of aces, which
    # loses to seat 2's unpaired king-high.
    hand = passive(hand_with("razz", {1: "As Ad 2c 2d 3h 3s 4c", 2: "Kc Qd Jh Ts 9c 9d 9h"}))
    shown = {e.seat: e.low for e in hand.events if isinstance(e, HandShown)}
    assert low(shown[2]) == (Category.LOW, "KQJT9")
    assert sum(chips for e in hand.events if isinstance(e, PotAwarded)
               for seat, chips in e.shares if seat == 2) == 4
    assert hand.stacks == [98, 102]


def test_razz_straights_and_flushes_do_not_count():
    # A-2-3-4-5 of hearts is a straight flush for high, and the best razz hand.
    hand = passive(hand_with("razz", {1: "Ah 2h 3h 4h 5h Kd Kc", 2: "Ac 2c 3c 4c 6d Qd Qs"}))
    assert awards(hand) == [(4, {1: 4}, (Category.LOW, "5432A"))]


def test_razz_ties_split_the_pot():
    hand = passive(hand_with("razz", {1: "Ac 2c 3d 4c 6d Kd Kh", 2: "Ad 2d 3c 4d 6c Qd Qh"}))
    assert awards(hand) == [(4, {1: 2, 2: 2}, (Category.LOW, "6432A"))]


# ---------------------------------------------------------------- bring-in and order of play


def test_razz_highest_up_card_brings_in_with_king_high():
    hand = hand_with("razz", {1: "2c 3c Qs", 2: "4c 5c Kc", 3: "6c 7c 9d"})
    assert hand.to_act == 2
    assert [(a.kind, a.to) for a in hand.legal_actions()] == [
        (ActionKind.BRING_IN, 1), (ActionKind.COMPLETE, 2)]


def test_razz_ace_is_low_for_the_bring_in():
    # The ace is the lowest card in razz: between As, 2c and Ad the 2c brings in.
    hand = hand_with("razz", {1: "Kc Kd As", 2: "Qc Qd 2c", 3: "Jc Jd Ad"})
    assert hand.to_act == 2
    # And a king brings in before an ace.
    hand = hand_with("razz", {1: "2c 3c As", 2: "4c 5c Kd"})
    assert hand.to_act == 2


def test_razz_suit_ties_spades_highest_brings_in():
    hand = hand_with("razz", {1: "2c 3c Kc", 2: "4c 5c Ks", 3: "6c 7c Kh", 4: "8c 9c Kd"})
    assert hand.to_act == 2
    hand = hand_with("razz", {1: "2c 3c Kc", 2: "4c 5c Kd", 3: "6c 7c Kh"})
    assert hand.to_act == 3


def test_razz_lowest_showing_hand_acts_first():
    # Up cards on fourth street: K-2, 5-4 and A-A. The 5-4 is the lowest showing hand.
    hand = hand_with("razz", {1: "9c 9d Kc 2d", 2: "9h 9s 5c 4d", 3: "Tc Td Ac Ad"})
    play(hand, "b", "c", "c")  # seat 1's Kc brings in
    assert hand.street == 4 and hand.to_act == 2
    started = [e for e in hand.events if isinstance(e, StreetStarted)]
    assert started[-1].first == 2


def test_razz_a_showing_pair_is_worse_than_high_cards():
    # 8-7 acts before A-A on fourth street: pairs are bad in razz.
    hand = hand_with("razz", {1: "Tc Td 8c 7d", 2: "Jc Jd Ac Ad"})
    play(hand, "b", "c")  # seat 1's 8c brings in
    assert hand.street == 4 and hand.to_act == 1


def test_razz_no_open_pair_big_bet():
    # Seat 1 shows 7-7 on fourth street. In razz every fourth-street bet is the small bet.
    hand = hand_with("razz", {1: "2c 3c 7c 7d", 2: "4c 5c 8s 2h"})
    play(hand, "b", "c")  # seat 2's 8s brings in, seat 1 calls
    assert hand.street == 4 and hand.to_act == 2  # 8-2 is lower than a pair of sevens
    assert amounts(hand, ActionKind.BET) == [2]
    play(hand, "k")
    assert amounts(hand, ActionKind.BET) == [2]
    # The same open pair in stud allows the big bet (the control for this test).
    stud = hand_with("stud", {1: "2c 3c 7c 7d", 2: "4c 5c 8s 2h"})
    play(stud, "b", "c")
    assert stud.street == 4 and stud.to_act == 1
    assert amounts(stud, ActionKind.BET) == [2, 4]
