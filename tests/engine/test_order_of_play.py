"""RULES.md section 4: order of play on 4th to 7th street, the open-pair big bet, bet sizes.

Cards are written per seat in dealing order: two down cards, the door card, 4th-6th street up,
7th street down. Amounts are "to" amounts (the player's whole wager on the street).
"""

from __future__ import annotations

import pytest

from scenarios import STAKES, hand_with, options, play, to_street
from stud.engine import ActionKind, Hand, Opener, StreetStarted
from stud.rules import PROFILES

FOLD, CHECK, CALL, BET, RAISE = (ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL,
                                 ActionKind.BET, ActionKind.RAISE)






def deal(variant: str, *boards: str, stacks: list[int] | None = None,
         rules: object = None) -> Hand:
    """A hand where seat k gets ``boards[k-1]``: its seven cards in dealing order."""
    return hand_with(variant, dict(enumerate(boards, 1)), stacks=stacks, rules=rules)


# ------------------------------------------------------------------ who acts first


def test_fourth_street_best_up_cards_act_first_pair_beats_ace_king() -> None:
    hand = deal("stud", "2c 3c As Kd 4h 5h 6h", "7c 8c 9h 9d 4d 5d 6d", "Tc Jc 2d Qs 4s 5s 6s")
    to_street(hand, 4)
    assert hand.to_act == 2
    start = [e for e in hand.events if isinstance(e, StreetStarted)][-1]
    assert (start.street, start.first) == (4, 2)


def test_fourth_street_high_cards_in_order_ace_king_beats_ace_queen() -> None:
    hand = deal("stud", "2c 3c As Qd 4h 5h 6h", "7c 8c Ah Kc 4d 5d 6d", "Tc Jc 2d 9s 4s 5s 6s")
    to_street(hand, 4)
    assert hand.to_act == 2


# Two players reach 6th street; the seat whose four up cards rank best acts first.
SIXTH_STREET = [
    # (seat 1's up cards, seat 2's up cards, first to act)
    pytest.param("2c 2d 3h 4s", "Ac Kd Qh Js", 1, id="pair beats ace-king-queen-jack"),
    pytest.param("Ac Ad 7h 8s", "Kc Kd Qh Js", 1, id="aces beat kings"),
    pytest.param("Ac Ad Kh 3s", "Ah As Qc 4d", 1, id="pair kicker king beats queen"),
    pytest.param("Ac Ad Kh Qs", "2c 2d 3h 3s", 2, id="two pair beats one pair of aces"),
    pytest.param("Ac Ad Kh Ks", "Ah As Qc Qd", 1, id="aces up: kings beat queens"),
    pytest.param("Ac Ad Kh Ks", "2c 2d 2h 3s", 2, id="trips beat two pair"),
    pytest.param("Ac Ad Ah Ks", "2c 2d 2h 2s", 2, id="quads beat trips"),
    pytest.param("5c 6d 7h 8s", "Ac Kd 3h 2s", 2, id="a straight does not count"),
    pytest.param("2h 5h 7h 9h", "3c 3d 4c 6d", 2, id="a flush does not count"),
    pytest.param("2h 5h 7h 9h", "Tc 8d 6c 4d", 2, id="four flush is only nine-high"),
]


@pytest.mark.parametrize(("ups1", "ups2", "first"), SIXTH_STREET)
def test_later_streets_best_up_cards_act_first_only_pairs_trips_quads_then_high_cards(
        ups1: str, ups2: str, first: int) -> None:
    taken = set((ups1 + " " + ups2).split())
    spare = [c for c in "Tc Td Th Ts Jc Jd Jh Js 9c 9d 9s 8c 8d".split() if c not in taken]
    hand = deal("stud", f"{spare[0]} {spare[1]} {ups1} {spare[2]}",
                f"{spare[3]} {spare[4]} {ups2} {spare[5]}")
    to_street(hand, 6)
    assert hand.to_act == first
    why = hand.view().why
    assert why is not None and why.showing is not None
    assert (why.opener, why.showing.lowball, why.decider, why.seat) == (Opener.BEST_HAND, False,
                                                                        first, first)


def test_seventh_street_order_follows_the_up_cards() -> None:
    hand = deal("stud", "2c 3c Ac Kd 4h 5h 6h", "7c 8c 9h 9d Th Jd Qd")
    to_street(hand, 7)
    assert hand.to_act == 2


def test_razz_lowest_showing_hand_acts_first() -> None:
    hand = deal("razz", "Kc Qc 3s 4d", "Kd Qd Ah 2c", "Kh Qh 5h 6s")
    to_street(hand, 4)
    assert hand.to_act == 2  # 2-A is the lowest
    why = hand.view().why
    assert why is not None and why.showing is not None
    assert (why.opener, why.showing.lowball, why.decider, why.seat) == (Opener.BEST_HAND, True,
                                                                        2, 2)
    assert [r.char for r in why.showing.ranks] == ["2", "A"]


def test_razz_a_pair_showing_is_worse_than_any_unpaired_cards() -> None:
    hand = deal("razz", "Kc Qc 2s 2d", "Ad 3d Kh Qh", "Ac 4c Jh 9s")
    to_street(hand, 4)
    assert hand.to_act == 3  # J-9 is lower than K-Q; the pair of deuces is the worst


TIE = ["2c 3c Kh 9d 4h 5h 6h",  # seat 1: K-9, the king of hearts
       "7c 8c Kc 9c 4d 5d 6d",  # seat 2: K-9, the king of clubs
       "Tc Jc Ks 9h 4s 5s 6s"]  # seat 3: K-9, the king of spades, the highest card by suit


def test_first_actor_tie_seat_first_clockwise_from_the_dealer() -> None:
    rules = PROFILES["standard"].with_policies(first_actor_tie="seat")
    hand = deal("stud", *TIE, rules=rules)
    to_street(hand, 4)
    assert hand.to_act == 1
    assert hand.why is not None and hand.why.tie and hand.why.decider == 1


def test_first_actor_tie_seat_is_the_default_in_both_profiles() -> None:
    for name in ("standard", "pokerkit"):
        assert PROFILES[name].first_actor_tie == "seat"
        hand = deal("stud", *TIE, rules=name)
        to_street(hand, 4)
        assert hand.to_act == 1


def test_first_actor_tie_seat_goes_to_the_lowest_tied_seat() -> None:
    hand = deal("stud", "2c 3c 2d 9d 4h 5h 6h", *TIE[1:])
    to_street(hand, 4)
    assert hand.to_act == 2  # seats 2 and 3 tie with K-9; seat 1 shows 9-2


def test_first_actor_tie_suit_tied_player_with_the_highest_card_by_suit() -> None:
    rules = PROFILES["standard"].with_policies(first_actor_tie="suit")
    hand = deal("stud", *TIE, rules=rules)
    to_street(hand, 4)
    assert hand.to_act == 3


def test_first_actor_all_in_action_starts_with_the_next_player_who_can_act() -> None:
    # Seat 2 shows the best cards on 4th street but went all in on third; seat 3 folded.
    hand = deal("stud", "2c 3c 2s 9h Th Td 8h", "7c 8c Ah Kh 4d 5d 6d",
                "Tc Jc 5s 7d 4h 5h 6h", "9c Jd Qs Jh 3h 3d 8s", stacks=[100, 2, 100, 100])
    play(hand, "b", "c", "f", "c")
    assert hand.street == 4
    assert hand.all_in(2)
    assert hand.to_act == 4
    start = [e for e in hand.events if isinstance(e, StreetStarted)][-1]
    assert (start.street, start.first) == (4, 4)
    # The reason says whose cards decided, that it is all in, and who acts instead.
    assert (start.why.decider, start.why.decider_all_in, start.why.seat) == (2, True, 4)


# ------------------------------------------------------------------ bet sizes by street

NO_PAIR = ["2c 4c 9h Td 5h 6h 7h", "Jc Tc Kc 2d 5d 6d 7d", "8c 7c 3c Qs 5s 6s 8s"]


def test_fourth_street_check_or_bet_the_small_bet() -> None:
    hand = to_street(deal("stud", *NO_PAIR), 4)
    assert hand.to_act == 2  # K-2 beats Q-3 and T-9
    assert options(hand) == [(CHECK, 0), (BET, 2)]
    play(hand, "cbr 2")
    assert options(hand) == [(FOLD, 0), (CALL, 2), (RAISE, 4)]
    play(hand, "cbr 4")
    assert options(hand) == [(FOLD, 0), (CALL, 4), (RAISE, 6)]


@pytest.mark.parametrize("street", [5, 6, 7])
def test_fifth_sixth_and_seventh_street_bets_and_raises_are_the_big_bet(street: int) -> None:
    hand = to_street(deal("stud", *NO_PAIR), street)
    assert options(hand) == [(CHECK, 0), (BET, 4)]
    play(hand, "cbr 4")
    assert options(hand) == [(FOLD, 0), (CALL, 4), (RAISE, 8)]
    play(hand, "cbr 8")
    assert options(hand) == [(FOLD, 0), (CALL, 8), (RAISE, 12)]


# Seat 1 shows a pair of nines on 4th street and acts first; seat 3's 3c brings in.
OPEN_PAIR = ["2c 4c 9h 9d 5h 6h 7h", "Jc Tc Kc 2d 5d 6d 7d", "8c 7c 3c Qs 5s 6s 8s"]


@pytest.mark.parametrize("variant", ["stud", "stud8"])
def test_fourth_street_open_pair_allows_big_bet(variant: str) -> None:
    hand = to_street(deal(variant, *OPEN_PAIR), 4)
    assert hand.to_act == 1
    assert options(hand) == [(CHECK, 0), (BET, 2), (BET, 4)]


def test_fourth_street_open_pair_big_bet_is_on_by_default_in_standard() -> None:
    assert PROFILES["standard"].open_pair_big_bet is True


def test_fourth_street_open_pair_option_passes_on_after_a_check() -> None:
    hand = to_street(deal("stud", *OPEN_PAIR), 4)
    play(hand, "k")
    assert hand.to_act == 2  # not the player with the pair
    assert options(hand) == [(CHECK, 0), (BET, 2), (BET, 4)]
    play(hand, "k")
    assert options(hand) == [(CHECK, 0), (BET, 2), (BET, 4)]


def test_fourth_street_open_pair_of_an_all_in_player_allows_big_bet() -> None:
    hand = deal("stud", *OPEN_PAIR, stacks=[2, 100, 100])
    play(hand, "b", "c", "c")  # seat 1 calls the bring-in all in
    assert hand.street == 4 and hand.all_in(1)
    assert hand.to_act == 2
    assert options(hand) == [(CHECK, 0), (BET, 2), (BET, 4)]


def test_fourth_street_open_pair_after_small_bet_raise_may_be_small_or_big() -> None:
    hand = to_street(deal("stud", *OPEN_PAIR), 4)
    play(hand, "cbr 2")
    assert options(hand) == [(FOLD, 0), (CALL, 2), (RAISE, 4), (RAISE, 6)]


def test_fourth_street_open_pair_after_small_bet_and_small_raise_option_remains() -> None:
    hand = to_street(deal("stud", *OPEN_PAIR), 4)
    play(hand, "cbr 2", "cbr 4")
    assert options(hand) == [(FOLD, 0), (CALL, 4), (RAISE, 6), (RAISE, 8)]


def test_fourth_street_open_pair_after_big_bet_every_raise_is_big() -> None:
    hand = to_street(deal("stud", *OPEN_PAIR), 4)
    play(hand, "cbr 4")
    assert options(hand) == [(FOLD, 0), (CALL, 4), (RAISE, 8)]
    play(hand, "cbr 8")
    assert options(hand) == [(FOLD, 0), (CALL, 8), (RAISE, 12)]


def test_fourth_street_open_pair_after_big_raise_every_later_raise_is_big() -> None:
    hand = to_street(deal("stud", *OPEN_PAIR), 4)
    play(hand, "cbr 2", "cbr 6")
    assert options(hand) == [(FOLD, 0), (CALL, 6), (RAISE, 10)]
    play(hand, "cbr 10")
    assert options(hand) == [(FOLD, 0), (CALL, 10), (RAISE, 14)]


def test_fourth_street_open_pair_big_bet_after_a_check_makes_later_raises_big() -> None:
    hand = to_street(deal("stud", *OPEN_PAIR), 4)
    play(hand, "k", "cbr 4")
    assert options(hand) == [(FOLD, 0), (CALL, 4), (RAISE, 8)]


@pytest.mark.parametrize("variant", ["stud", "stud8"])
def test_open_pair_big_bet_off_only_the_small_bet(variant: str) -> None:
    rules = PROFILES["standard"].with_policies(open_pair_big_bet=False)
    hand = to_street(deal(variant, *OPEN_PAIR, rules=rules), 4)
    assert hand.to_act == 1
    assert options(hand) == [(CHECK, 0), (BET, 2)]
    play(hand, "cbr 2")
    assert options(hand) == [(FOLD, 0), (CALL, 2), (RAISE, 4)]


@pytest.mark.parametrize("variant", ["stud", "stud8"])
def test_pokerkit_profile_has_no_open_pair_big_bet(variant: str) -> None:
    assert PROFILES["pokerkit"].open_pair_big_bet is False
    hand = to_street(deal(variant, *OPEN_PAIR, rules="pokerkit"), 4)
    assert options(hand) == [(CHECK, 0), (BET, 2)]


def test_razz_never_has_the_open_pair_big_bet() -> None:
    # Seat 1 shows a pair of nines; seat 3's 3-Q is the lowest and acts first.
    hand = deal("razz", "2c 4c 9h 9d 5h 6h 7h", "Jc Tc Kc 2d 5d 6d 7d", "8c 7c 3c Qs 5s 6s 8s")
    to_street(hand, 4)
    assert hand.rules.open_pair_big_bet is True
    assert hand.to_act == 3
    assert options(hand) == [(CHECK, 0), (BET, 2)]
    play(hand, "k")
    assert options(hand) == [(CHECK, 0), (BET, 2)]


def test_small_bet_on_third_and_fourth_street_big_bet_from_fifth() -> None:
    assert (STAKES.small_bet, STAKES.big_bet) == (2, 4)
    hand = deal("stud", *NO_PAIR)
    play(hand, "b")
    assert options(hand) == [(FOLD, 0), (CALL, 1), (ActionKind.COMPLETE, 2)]
    to_street(hand, 4)
    assert options(hand)[-1] == (BET, 2)
    to_street(hand, 5)
    assert options(hand)[-1] == (BET, 4)


RAZZ_TIE = ["Kc Qc Ah 2c 9h 9d 9s",  # seat 1: 2-A
            "Kd Qd Ad 2s 8h 8d 8s",  # seat 2: 2-A with the deuce of spades, the highest card
            "Kh Qh 5h 6s 7h 7d 7s"]


def test_razz_first_actor_tie_seat() -> None:
    hand = deal("razz", *RAZZ_TIE)
    to_street(hand, 4)
    assert hand.to_act == 1


def test_razz_first_actor_tie_suit_highest_card_by_suit() -> None:
    rules = PROFILES["standard"].with_policies(first_actor_tie="suit")
    hand = deal("razz", *RAZZ_TIE, rules=rules)
    to_street(hand, 4)
    assert hand.to_act == 2
