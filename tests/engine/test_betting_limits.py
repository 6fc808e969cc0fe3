"""RULES.md section 5: the raise cap (``max_bets``) and heads-up raising (``heads_up_uncapped``).

Cards are written per seat in dealing order: two down cards, the door card, 4th-6th street up,
7th street down. Amounts are "to" amounts (the player's whole wager on the street). With these
cards seat 3's 3c brings in, and from 4th street on seat 2 acts first, then 3, 4 (if any), 1.
"""

from __future__ import annotations

import pytest

from scenarios import hand_with, options, play, to_street
from stud.engine import ActionKind, Hand
from stud.rules import PROFILES, Rules

FOLD, CHECK, CALL, BET, RAISE = (ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL,
                                 ActionKind.BET, ActionKind.RAISE)

BOARDS = ["2c 4c 9h Td 5h 6h 7h", "Jc Tc Kc 2d 5d 6d 7d", "8c 7c 3c Qs 5s 6s 8s",
          "Ac 3d 4h 6c 9s Ts Js"]




def deal(players: int, stacks: list[int] | None = None,
         rules: Rules | str | None = None) -> Hand:
    return hand_with("stud", dict(enumerate(BOARDS[:players], 1)), stacks=stacks, rules=rules)




def raise_steps(hand: Hand, unit: int, times: int, start: int = 0) -> int:
    """Bet or raise by ``unit`` ``times`` times, each by the next player; the last "to"."""
    to = start
    for _ in range(times):
        to += unit
        play(hand, f"cbr {to}")
    return to


# ------------------------------------------------------------------ the cap


@pytest.mark.parametrize(("street", "unit"), [(4, 2), (5, 4), (6, 4), (7, 4)])
def test_cap_is_one_bet_and_three_raises_per_street_with_three_or_more_players(
        street: int, unit: int) -> None:
    hand = to_street(deal(3), street)
    raise_steps(hand, unit, 3)
    assert options(hand) == [(FOLD, 0), (CALL, 3 * unit), (RAISE, 4 * unit)]
    play(hand, f"cbr {4 * unit}")
    assert options(hand) == [(FOLD, 0), (CALL, 4 * unit)]
    play(hand, "c")
    assert options(hand) == [(FOLD, 0), (CALL, 4 * unit)]


def test_cap_with_four_players_one_of_them_all_in_still_counts_three_with_chips() -> None:
    hand = deal(4, stacks=[100, 100, 100, 2])
    play(hand, "b", "c", "c", "c")  # seat 3 brings in; seat 4 calls all in
    assert hand.all_in(4)
    to_street(hand, 5)
    raise_steps(hand, 4, 4)
    assert options(hand) == [(FOLD, 0), (CALL, 16)]


def test_max_bets_is_four_in_both_profiles() -> None:
    assert PROFILES["standard"].max_bets == PROFILES["pokerkit"].max_bets == 4


@pytest.mark.parametrize("max_bets", [1, 3, 5])
def test_max_bets_policy_sets_the_cap(max_bets: int) -> None:
    rules = PROFILES["standard"].with_policies(max_bets=max_bets)
    hand = to_street(deal(3, rules=rules), 5)
    raise_steps(hand, 4, max_bets - 1)
    assert options(hand)[-1][1] == 4 * max_bets
    play(hand, f"cbr {4 * max_bets}")
    assert options(hand) == [(FOLD, 0), (CALL, 4 * max_bets)]


# ------------------------------------------------------------------ heads-up


def test_heads_up_uncapped_is_on_in_standard_and_off_in_pokerkit() -> None:
    assert PROFILES["standard"].heads_up_uncapped is True
    assert PROFILES["pokerkit"].heads_up_uncapped is False


@pytest.mark.parametrize(("street", "unit"), [(4, 2), (5, 4)])
def test_heads_up_raising_is_unlimited(street: int, unit: int) -> None:
    hand = to_street(deal(2), street)
    to = raise_steps(hand, unit, 10)
    assert options(hand) == [(FOLD, 0), (CALL, to), (RAISE, to + unit)]


def test_heads_up_raising_is_unlimited_on_third_street() -> None:
    hand = hand_with("stud", {1: BOARDS[0], 2: BOARDS[2]})  # seat 2's 3c brings in
    play(hand, "b", "cbr 2")
    to = raise_steps(hand, 2, 8, start=2)
    assert to == 18
    assert options(hand) == [(FOLD, 0), (CALL, 18), (RAISE, 20)]


def test_heads_up_uncapped_when_players_fold_to_two_before_the_cap() -> None:
    hand = to_street(deal(3), 5)
    play(hand, "cbr 4", "cbr 8", "f")  # seats 2, 3 and 1: seat 1 folds with two bets made
    to = raise_steps(hand, 4, 4, start=8)
    assert to == 24  # six bets on the street
    assert options(hand) == [(FOLD, 0), (CALL, 24), (RAISE, 28)]


def test_capped_street_stays_capped_when_players_fold_to_heads_up() -> None:
    hand = to_street(deal(3), 5)
    raise_steps(hand, 4, 4)  # seat 2 bets, 3 and 1 raise, seat 2 caps it at 16
    assert hand.to_act == 3
    play(hand, "f")
    assert hand.to_act == 1
    assert options(hand) == [(FOLD, 0), (CALL, 16)]


def test_heads_up_after_a_capped_street_the_next_street_is_uncapped() -> None:
    hand = to_street(deal(3), 5)
    raise_steps(hand, 4, 4)
    play(hand, "f", "c")
    assert hand.street == 6
    to = raise_steps(hand, 4, 6)
    assert options(hand) == [(FOLD, 0), (CALL, to), (RAISE, to + 4)]


def test_heads_up_counts_only_players_who_are_not_all_in() -> None:
    hand = deal(3, stacks=[100, 100, 2])
    play(hand, "b", "c", "c")  # seat 3 brings in all in
    assert hand.all_in(3)
    to = raise_steps(hand, 2, 6)  # 4th street: seats 2 and 1 have chips
    assert options(hand) == [(FOLD, 0), (CALL, to), (RAISE, to + 2)]


def test_all_in_before_the_cap_leaves_two_players_uncapped() -> None:
    # Seat 3 has 8 chips left on 5th street (1 ante, 1 bring-in): its raise to 8 is all in.
    hand = to_street(deal(3, stacks=[100, 100, 10]), 5)
    play(hand, "cbr 4", "cbr 8")
    assert hand.all_in(3)
    to = raise_steps(hand, 4, 4, start=8)  # seats 1 and 2 go on past four bets
    assert options(hand) == [(FOLD, 0), (CALL, to), (RAISE, to + 4)]


def test_all_in_at_the_cap_keeps_the_street_capped() -> None:
    # Seat 3 has 16 chips left on 5th street: its raise to 16 is the fourth bet and all in.
    hand = to_street(deal(3, stacks=[100, 100, 18]), 5)
    play(hand, "k", "cbr 4", "cbr 8", "cbr 12")  # seat 2 checks; seats 3, 1 and 2
    assert hand.to_act == 3
    play(hand, "cbr 16")
    assert hand.all_in(3)
    assert hand.to_act == 1
    assert options(hand) == [(FOLD, 0), (CALL, 16)]


def test_heads_up_uncapped_off_the_cap_always_holds() -> None:
    rules = PROFILES["standard"].with_policies(heads_up_uncapped=False)
    hand = to_street(deal(2, rules=rules), 5)
    raise_steps(hand, 4, 4)
    assert options(hand) == [(FOLD, 0), (CALL, 16)]


def test_heads_up_uncapped_off_the_cap_holds_after_folds() -> None:
    rules = PROFILES["standard"].with_policies(heads_up_uncapped=False)
    hand = to_street(deal(3, rules=rules), 5)
    play(hand, "cbr 4", "cbr 8", "f", "cbr 12", "cbr 16")
    assert options(hand) == [(FOLD, 0), (CALL, 16)]


def test_pokerkit_profile_caps_heads_up() -> None:
    hand = to_street(deal(2, rules="pokerkit"), 5)
    raise_steps(hand, 4, 4)
    assert options(hand) == [(FOLD, 0), (CALL, 16)]


def test_short_all_in_under_half_bet_does_not_count_toward_the_cap() -> None:
    # Seat 1 has 13 on 5th street: its raise to 13 is 1 more than 12, less than half a bet.
    hand = to_street(deal(4, stacks=[15, 100, 100, 100]), 5)
    play(hand, "cbr 4", "cbr 8", "cbr 12")  # seats 2, 3 and 4
    play(hand, "cbr 13")
    assert hand.all_in(1)
    assert hand.to_act == 2  # seat 2 bet, then faced full raises: the betting is open to it
    assert options(hand) == [(FOLD, 0), (CALL, 13), (RAISE, 16)]
    play(hand, "cbr 16")  # the fourth bet
    assert options(hand) == [(FOLD, 0), (CALL, 16)]
