"""RULES.md section 7: Seven Card Stud Hi/Lo, 8 or better (``stud8``).

Pots here are small: antes of 1, a bring-in of 1 called by everyone, and checks, unless a test
says otherwise. Each test names the hands; cards are per seat in dealing order (two down, the
door card, fourth to sixth street up, seventh street down).
"""

from __future__ import annotations

from scenarios import hand_with, passive, play
from stud.engine import Category, Half, Hand, HandShown, HandValue, PotAwarded
from stud.rules import PROFILES, Stakes

SUIT = PROFILES["standard"].with_policies(odd_chip="suit")
SEAT = PROFILES["standard"].with_policies(odd_chip="seat")




Facts = tuple[Category, str]


def facts(value: HandValue | None) -> Facts | None:
    """A hand value as its category and the ranks that name it, as the cards write them."""
    return None if value is None else (value.category, "".join(r.char for r in value.ranks))


def awards(hand: Hand) -> list[tuple[int, str, dict[int, int], Facts | None]]:
    """Each award: its amount, which half, who won how much, and the winning hand."""
    return [(e.amount, e.half, dict(e.shares), facts(e.low if e.half is Half.LOW else e.high))
            for e in hand.events if isinstance(e, PotAwarded)]


def pots(hand: Hand) -> list[PotAwarded]:
    return [e for e in hand.events if isinstance(e, PotAwarded)]


def won(hand: Hand) -> dict[int, int]:
    """Chips each seat took from the pots."""
    out: dict[int, int] = {}
    for e in hand.events:
        if isinstance(e, PotAwarded):
            for seat, chips in e.shares:
                out[seat] = out.get(seat, 0) + chips
    return out


def test_stud8_pot_splits_half_to_high_half_to_qualifying_low():
    # Seat 1: kings and nines, no low. Seat 2: 7-5-4-3-2 low, queen-high.
    hand = passive(hand_with("stud8", {1: "Kc Kd 9s Qh 5h Js 9d",
                                          2: "7d 5d 4h 3h 2s Qs Jd"}))
    assert awards(hand) == [(2, "high", {1: 2}, (Category.TWO_PAIR, "K9Q")),
                            (2, "low", {2: 2}, (Category.LOW, "75432"))]
    assert hand.stacks == [100, 100]


def test_stud8_low_qualifies_with_five_different_ranks_eight_or_lower():
    # 8-7-6-5-4, the worst qualifying low, still takes the low half (and its straight does not
    # spoil it); aces full take the high half.
    hand = passive(hand_with("stud8", {1: "8c 7d 6h 5s 4c Kd Jh",
                                          2: "Ah Ad As Qc Qs 9h 9d"}))
    assert awards(hand) == [(2, "high", {2: 2}, (Category.FULL_HOUSE, "AQ")),
                            (2, "low", {1: 2}, (Category.LOW, "87654"))]


def test_stud8_ace_is_low_for_the_low_hand():
    hand = passive(hand_with("stud8", {1: "Ac 2d 3h 4s 6c Kd Qh",
                                          2: "Kc Ks Qd Qs 9h 9d Jc"}))
    assert awards(hand) == [(2, "high", {2: 2}, (Category.TWO_PAIR, "KQJ")),
                            (2, "low", {1: 2}, (Category.LOW, "6432A"))]


def test_stud8_nine_low_does_not_qualify():
    # Seat 1's lowest five different ranks are 9-7-6-5-3: no low.
    hand = passive(hand_with("stud8", {1: "9c 7d 6h 5s 3c Kd Jh",
                                          2: "Qc Qd Th Ts 2d Jc Js"}))
    assert won(hand) == {2: 4}
    assert not [a for a in awards(hand) if a[1] == "low"]
    assert [(a.half, a.no_low) for a in pots(hand)] == [(Half.ALL, True)]  # the whole pot


def test_stud8_paired_low_cards_do_not_make_a_low():
    # Seat 1 holds A-A-2-2-3-4 and a king: only four different low ranks.
    hand = passive(hand_with("stud8", {1: "Ac Ad 2c 2d 3h 4s Kd",
                                          2: "Qc Qd Qh Ts 9d Jc Js"}))
    assert won(hand) == {2: 4}
    assert not [a for a in awards(hand) if a[1] == "low"]
    assert [(a.half, a.no_low) for a in pots(hand)] == [(Half.ALL, True)]  # the whole pot
    shown = {e.seat: e.low for e in hand.events if isinstance(e, HandShown)}
    low = shown[1]
    assert low is not None and low.category is Category.NO_LOW and not low.qualified


def test_stud8_no_qualifying_low_high_scoops():
    hand = passive(hand_with("stud8", {1: "9c 9d Kh Ks Qc 3d 5h",
                                          2: "Ac Ad Qs Jd Th 9h 9s"}))
    assert won(hand) == {2: 4}
    assert not [a for a in awards(hand) if a[1] == "low"]
    assert [(a.half, a.no_low) for a in pots(hand)] == [(Half.ALL, True)]  # the whole pot
    assert hand.stacks == [98, 102]


def test_stud8_straights_and_flushes_do_not_count_against_a_low():
    # Seat 1's A-2-3-4-5 is a straight for high and the best low: it scoops.
    hand = passive(hand_with("stud8", {1: "Ah 2c 3d 4s 5h Kd Qc",
                                          2: "Ks Kc Qd Qh 9s 9d 8c"}))
    assert awards(hand) == [(2, "high", {1: 2}, (Category.STRAIGHT, "5")),
                            (2, "low", {1: 2}, (Category.LOW, "5432A"))]
    # A flush of low cards is a low too.
    hand = passive(hand_with("stud8", {1: "Ah 2h 3h 4h 6h Kd Qc",
                                          2: "Ks Kc Qd Qs 9s 9d 7c"}))
    assert awards(hand) == [(2, "high", {1: 2}, (Category.FLUSH, "A6432")),
                            (2, "low", {1: 2}, (Category.LOW, "6432A"))]


def test_stud8_lows_compare_from_the_highest_card_down():
    # 7-5-4-3-2 beats 7-6-4-3-2; 7-6-5-4-2 beats 8-5-4-3-2.
    hand = passive(hand_with("stud8", {1: "7d 5d 4h 3h 2s Qs Jd",
                                          2: "7c 6c 4c 3d 2d Ks Kh"}))
    assert awards(hand) == [(2, "high", {2: 2}, (Category.ONE_PAIR, "K764")),
                            (2, "low", {1: 2}, (Category.LOW, "75432"))]
    hand = passive(hand_with("stud8", {1: "8d 5d 4h 3h 2s Qs Qd",
                                          2: "7c 6c 5c 4d 2d Ks Jh"}))
    assert [(half, shares) for _, half, shares, _ in awards(hand)] == [
        ("high", {1: 2}), ("low", {2: 2})]


def test_stud8_player_may_use_different_five_cards_for_high_and_low():
    # Seat 1's high is K-K-7-6-4 and its low 7-6-4-3-2: different five cards; it wins both.
    hand = passive(hand_with("stud8", {1: "Ks Kh 2c 3d 4h 6s 7c",
                                          2: "Qs Qh 9c 5d Th Jc 2d"}))
    assert awards(hand) == [(2, "high", {1: 2}, (Category.ONE_PAIR, "K764")),
                            (2, "low", {1: 2}, (Category.LOW, "76432"))]


def test_stud8_scoop_one_player_wins_both_halves():
    hand = hand_with("stud8", {1: "Ah 2c 3d 4s 5h Kd Qc", 2: "Ks Kc Qd Qh 9s 9d 8c",
                               3: "Js Jd Th Tc 9h 9c 7s"})
    passive(hand)
    assert won(hand) == {1: 6}
    assert hand.stacks == [104, 98, 98]


def test_stud8_tied_highs_split_the_high_half():
    # Seats 1 and 2 both have kings and nines with an ace; seat 3 has the only low. Pot 12.
    hand = hand_with("stud8", {1: "Kc Ac Kd Qs Jh 9c 9d", 2: "Ks Ad Kh Qd Jc 9h 9s",
                               3: "2c 3c Td 4d 5s 7h 8h"})
    play(hand, "b", "c", "c")  # seat 3's Td brings in
    play(hand, "cbr 2", "c", "c")  # fourth street: seat 1 (K-Q, tied with seat 2) bets
    passive(hand)
    assert awards(hand) == [(6, "high", {1: 3, 2: 3}, (Category.TWO_PAIR, "K9A")),
                            (6, "low", {3: 6}, (Category.LOW, "75432"))]
    assert hand.stacks == [99, 99, 102]


def test_stud8_two_tied_lows_each_get_a_quarter():
    # Seat 1: kings full, no low. Seats 2 and 3: 6-4-3-2-A each. The pot is 12.
    hand = hand_with("stud8", {1: "Kc Kd Ks Qh Qd 9s 9h", 2: "Ad 2d 3h 4s 6c Jc Tc",
                               3: "Ac 2c 3d 4h 6s Jd Td"})
    play(hand, "b", "c", "c")  # seat 3's 3d brings in
    play(hand, "cbr 2", "c", "c")  # fourth street: seat 1 bets, both call
    passive(hand)
    assert awards(hand) == [(6, "high", {1: 6}, (Category.FULL_HOUSE, "KQ")),
                            (6, "low", {2: 3, 3: 3}, (Category.LOW, "6432A"))]
    assert hand.stacks == [102, 99, 99]


def test_stud8_odd_chip_between_the_halves_goes_to_high():
    # Pot 5 (seat 3 folds): 3 to the high hand, 2 to the low.
    hand = hand_with("stud8", {1: "Kc Kd 9s Qh 5h Js 9d", 2: "7d 5d 4h 3h 2s Qs Jd",
                               3: "8c 8s Ac"})
    play(hand, "b", "f", "c")  # seat 2's 4h brings in, seat 3 folds, seat 1 calls
    passive(hand)
    assert awards(hand) == [(3, "high", {1: 3}, (Category.TWO_PAIR, "K9Q")),
                            (2, "low", {2: 2}, (Category.LOW, "75432"))]


def test_stud8_odd_chip_within_the_low_half_goes_to_lowest_card_by_suit():
    # Pot 6: high 3 to seat 1; low 3 between seats 2 (Ad) and 3 (Ac): the Ac is lowest by suit.
    cards = {1: "Kc Kd Ks Qh Qd 9s 9h", 2: "Ad 2d 3h 4s 6c Jc Tc", 3: "Ac 2c 3d 4h 6s Jd Td"}
    hand = passive(hand_with("stud8", cards, rules=SUIT))
    assert awards(hand)[1][:3] == (3, "low", {3: 2, 2: 1})
    hand = passive(hand_with("stud8", cards, rules=SEAT))
    assert awards(hand)[1][:3] == (3, "low", {2: 2, 3: 1})


def test_stud8_odd_chip_within_the_high_half_goes_to_highest_card_by_suit():
    # Pot 6: tied highs (a pair of kings, A-Q-J) share 3; seat 2 holds the As.
    cards = {1: "Kc Ah Kd Qs Jh 9c 9d", 2: "Ks As Kh Qd Jc 9h 9s", 3: "2c 3c Td 4d 5s 7h 8h"}
    hand = passive(hand_with("stud8", cards, rules=SUIT))
    assert awards(hand)[0][:3] == (3, "high", {2: 2, 1: 1})
    hand = passive(hand_with("stud8", cards, rules=SEAT))
    assert awards(hand)[0][:3] == (3, "high", {1: 2, 2: 1})


def test_stud8_identical_hands_winning_both_halves_split_the_whole_pot_evenly():
    # Both make a five-high straight and 5-4-3-2-A. Split by halves (3 + 3), seat 2 would get
    # both odd chips (the 5d is its high card, the Ah its low card): 4 to 2. The whole pot is
    # split instead, 3 and 3.
    stakes = Stakes(ante=2, bring_in=1, small_bet=2, big_bet=4)
    hand = passive(hand_with("stud8", {1: "As 2d 3d 4d 5c Kc Qh", 2: "Ah 2h 3h 4c 5d Ks Qc"},
                                stakes=stakes, rules=SUIT))
    assert won(hand) == {1: 3, 2: 3}
    # One award of the whole pot, with both winning hands.
    assert [(a.half, facts(a.high), facts(a.low)) for a in pots(hand)] == [
        (Half.ALL, (Category.STRAIGHT, "5"), (Category.LOW, "5432A"))]
    assert hand.stacks == [100, 100]



def test_stud8_each_pot_is_split_on_its_own():
    # Seat 1 (6-4-3-2-A) completes all in for 2; seats 2 (kings and queens) and 3 (7-5-4-3-2)
    # bet on: the main pot of 9 goes 5 high / 4 low, the side pot of 4 goes 2 / 2.
    hand = hand_with("stud8", {1: "Ac 2c 3d 4h 6s Kd Qh", 2: "Kc Ks Qs Qd Jh Jd 9s",
                               3: "7d 5d 4c 3h 2s Ts 9h"}, stacks=[3, 100, 100])
    play(hand, "cbr 2", "c", "c")  # seat 1's 3d brings in: it completes, all in
    play(hand, "cbr 2", "c")  # fourth street: seat 2 bets, seat 3 calls
    passive(hand)
    assert [(e.pot, e.amount, e.half, dict(e.shares)) for e in hand.events
            if isinstance(e, PotAwarded)] == [
        (1, 2, "high", {2: 2}), (1, 2, "low", {3: 2}),
        (0, 5, "high", {2: 5}), (0, 4, "low", {1: 4}),
    ]
    assert hand.stacks == [4, 102, 97]
