"""RULES.md section 5: all-ins for less, short all-ins (``short_all_in``), bets for less that put
every opponent all-in, uncalled bets returned, and side pots.

Most scenarios are on 4th street of a game with a 20 small bet and no ante, so that "$15 all-in
on a $20 street" reads literally. Third street is always: seat 3's 3c (heads up: seat 2's Qd)
brings in for 10 and everyone calls; on 4th to 6th street seat 1 (A-K showing) acts first, then
seats 2, 3, 4, 5.
"""

from __future__ import annotations

import pytest
from pokerkit import Automation, FixedLimitSevenCardStud

from scenarios import hand_with, options, play
from stud.engine import Action, ActionKind, Hand, IllegalAction
from stud.engine.events import ActionTaken, HandShown, PotAwarded, UncalledReturned
from stud.rules import PROFILES, Rules, Stakes

FOLD, CHECK, CALL, BET, RAISE = (ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL,
                                 ActionKind.BET, ActionKind.RAISE)
S20 = Stakes(ante=0, bring_in=10, small_bet=20, big_bet=40)
FULL_BET = PROFILES["standard"].with_policies(short_all_in="full_bet")

# Up cards per seat (door, 4th, 5th, 6th); no pair, straight or flush among them.
UPS = {1: "Ah Kh 2h 4d", 2: "Qd Jd 2d 5c", 3: "3c 9c 2s 4c", 4: "5s 7s 3d 6c", 5: "6h 8h 3s 4s"}
# Down cards (two, and the 7th street card) that make trips; none pairs or straightens the ups
# of the seats they are given to below.
TRIPS = {"A": "As Ad Ac", "K": "Ks Kd Kc", "J": "Js Jh Jc", "T": "Ts Th Td", "9": "9s 9h 9d"}


def cards(trips: str) -> dict[int, str]:
    """Seat k gets trips of ``trips[k-1]``: the hands rank A > K > J > T > 9."""
    out = {}
    for seat, rank in enumerate(trips, 1):
        down = TRIPS[rank].split()
        out[seat] = f"{down[0]} {down[1]} {UPS[seat]} {down[2]}"
    return out




def tos(hand: Hand) -> list[int]:
    """The "to" amounts of fold/check, call and the wagers the player to act may make."""
    return [a.to for a in hand.legal_actions()]


def at_fourth(stacks: list[int], trips: str | None = None, rules: Rules | str | None = None
              ) -> Hand:
    """Seats 1..len(stacks); third street brought in for 10 and called all round."""
    trips = trips or "AKTJ9"[:len(stacks)]
    hand = hand_with("stud", cards(trips), stacks=stacks, stakes=S20, rules=rules)
    assert hand.to_act == (3 if len(stacks) >= 3 else 2)  # the 3c, or heads up the Qd
    play(hand, "b", *["c"] * (len(stacks) - 1))
    assert hand.street == 4 and hand.to_act == 1
    return hand


def check_down(hand: Hand) -> Hand:
    while not hand.is_over:
        play(hand, "k")
    return hand


def pots_awarded(hand: Hand) -> list[tuple[int, int, tuple[tuple[int, int], ...]]]:
    return [(e.pot, e.amount, e.shares) for e in hand.events if isinstance(e, PotAwarded)]


# ------------------------------------------------------------------ all in for less


def test_player_may_call_for_less_and_be_all_in() -> None:
    hand = at_fourth([100, 22, 100])  # seat 2 has 12 left
    play(hand, "cbr 20")
    assert options(hand) == [(FOLD, 0), (CALL, 12)]
    play(hand, "c")
    assert hand.all_in(2)
    last = hand.events[-1]
    assert isinstance(last, ActionTaken)
    assert (last.seat, last.action, last.added, last.all_in) == (2, Action.call(12), 12, True)


def test_player_may_bet_for_less_and_be_all_in() -> None:
    hand = at_fourth([25, 100, 100])  # seat 1 has 15 left
    assert options(hand) == [(CHECK, 0), (BET, 15)]
    play(hand, "cbr 15")
    assert hand.all_in(1)
    assert hand.current_bet == 15


# ------------------------------------------------------------------ half_bet (standard)


def test_short_all_in_is_half_bet_in_standard_and_full_bet_in_pokerkit() -> None:
    assert PROFILES["standard"].short_all_in == "half_bet"
    assert PROFILES["pokerkit"].short_all_in == "full_bet"


def test_all_in_of_half_a_bet_counts_as_full_raise_15_on_20_raises_to_35() -> None:
    hand = at_fourth([25, 100, 100])
    play(hand, "cbr 15")
    assert options(hand) == [(FOLD, 0), (CALL, 15), (RAISE, 35)]
    play(hand, "cbr 35")
    assert options(hand) == [(FOLD, 0), (CALL, 35), (RAISE, 55)]


def test_all_in_of_half_a_bet_or_more_counts_as_a_bet_for_the_cap() -> None:
    hand = at_fourth([25, 100, 100, 100])
    play(hand, "cbr 15", "cbr 35", "cbr 55", "cbr 75")  # 15 is the bet, then three raises
    assert hand.to_act == 2
    assert options(hand) == [(FOLD, 0), (CALL, 75)]


@pytest.mark.parametrize(("all_in", "raise_to"), [(30, 50), (35, 55)])
def test_all_in_raise_of_half_a_bet_or_more_reopens_the_betting(all_in: int,
                                                                 raise_to: int) -> None:
    hand = at_fourth([100, 10 + all_in, 100])
    play(hand, "cbr 20", f"cbr {all_in}")
    assert hand.all_in(2)
    assert options(hand) == [(FOLD, 0), (CALL, all_in), (RAISE, raise_to)]
    play(hand, "c")
    assert hand.to_act == 1  # already acted, but the all-in counts as a full raise
    assert options(hand) == [(FOLD, 0), (CALL, all_in), (RAISE, raise_to)]


@pytest.mark.parametrize("all_in", [21, 28, 29])
def test_short_all_in_under_half_bet_does_not_reopen_betting(all_in: int) -> None:
    hand = at_fourth([100, 10 + all_in, 100])
    play(hand, "cbr 20", f"cbr {all_in}", "c")
    assert hand.to_act == 1
    assert options(hand) == [(FOLD, 0), (CALL, all_in)]
    play(hand, "c")
    assert hand.street == 5


def test_short_all_in_under_half_bet_player_yet_to_act_may_fold_call_or_complete_the_raise(
        ) -> None:
    hand = at_fourth([100, 38, 100])
    play(hand, "cbr 20", "cbr 28")
    assert hand.to_act == 3
    assert options(hand) == [(FOLD, 0), (CALL, 28), (RAISE, 40)]
    play(hand, "cbr 40")  # a full raise: now the betting is reopened for seat 1
    assert options(hand) == [(FOLD, 0), (CALL, 40), (RAISE, 60)]


def test_short_all_in_bet_under_half_next_player_may_complete_to_a_full_bet() -> None:
    hand = at_fourth([18, 100, 100])  # seat 1 has 8 left
    play(hand, "cbr 8")
    assert tos(hand) == [0, 8, 20]
    assert [a.kind for a in hand.legal_actions()][:2] == [FOLD, CALL]
    play(hand, "cbr 20")
    assert options(hand) == [(FOLD, 0), (CALL, 20), (RAISE, 40)]


def test_short_all_in_player_to_whom_the_betting_was_reopened_may_complete_the_raise() -> None:
    hand = at_fourth([100, 100, 55, 100])  # seat 3 has 45 left
    play(hand, "cbr 20", "cbr 40", "cbr 45")  # seat 3's 5 more is a short all-in
    assert hand.to_act == 4
    assert options(hand) == [(FOLD, 0), (CALL, 45), (RAISE, 60)]
    play(hand, "c")
    assert hand.to_act == 1  # seat 2's full raise reopened the betting for seat 1
    assert options(hand) == [(FOLD, 0), (CALL, 45), (RAISE, 60)]
    play(hand, "c")
    assert hand.to_act == 2  # in for all previous full bets: call or fold only
    assert options(hand) == [(FOLD, 0), (CALL, 45)]


def test_several_short_all_ins_that_together_make_a_full_raise_reopen_the_betting() -> None:
    # 20 is bet; 29, 38 and 40 are all-ins of 9, 9 and 2 more: 20 in all, a full raise.
    hand = at_fourth([100, 39, 48, 50, 100])
    play(hand, "cbr 20", "cbr 29", "cbr 38")
    assert options(hand) == [(FOLD, 0), (CALL, 38), (RAISE, 40)]
    play(hand, "cbr 40")
    assert hand.to_act == 5
    assert options(hand) == [(FOLD, 0), (CALL, 40), (RAISE, 60)]
    play(hand, "c")
    assert hand.to_act == 1
    assert options(hand) == [(FOLD, 0), (CALL, 40), (RAISE, 60)]


def test_several_short_all_ins_short_of_a_full_raise_do_not_reopen_the_betting() -> None:
    hand = at_fourth([100, 39, 48, 100, 100])
    play(hand, "cbr 20", "cbr 29", "cbr 38")  # 18 more in all: less than a bet
    assert hand.to_act == 4
    assert options(hand) == [(FOLD, 0), (CALL, 38), (RAISE, 40)]
    play(hand, "c", "c")
    assert hand.to_act == 1
    assert options(hand) == [(FOLD, 0), (CALL, 38)]


def test_short_all_in_over_a_short_all_in_is_half_a_bet_only_by_its_own_increment() -> None:
    # 8 all in (less than half of 20), then 15 all in: 7 more, and 15 in all, short of a bet.
    hand = at_fourth([18, 100, 25, 100])
    play(hand, "cbr 8", "c", "cbr 15")
    assert hand.to_act == 4
    assert tos(hand) == [0, 15, 20]  # complete to a full bet, not raise to 35
    play(hand, "c")
    assert hand.to_act == 2
    assert options(hand) == [(FOLD, 0), (CALL, 15)]  # not reopened for seat 2


def test_short_completions_over_the_bring_in_reopen_nothing_until_together_a_full_bet() -> None:
    stakes = Stakes(ante=0, bring_in=3, small_bet=10, big_bet=20)
    hand = hand_with("stud", cards("AKTJ9"), stacks=[100, 100, 100, 4, 6], stakes=stakes)
    assert hand.to_act == 3  # the 3c brings in
    play(hand, "b", "cbr 4", "cbr 6")  # all in to 4 (short), then to 6: only 2 more
    assert hand.to_act == 1
    assert tos(hand) == [0, 6, 10]  # complete to the small bet, not raise to 16
    play(hand, "c", "c")
    assert hand.to_act == 3
    assert options(hand) == [(FOLD, 0), (CALL, 6)]


# ------------------------------------------------------------------ full_bet (PokerKit)


@pytest.mark.parametrize("rules", [FULL_BET, "pokerkit"], ids=["full_bet", "pokerkit"])
def test_full_bet_short_all_in_never_reopens_for_players_who_acted_even_at_half_a_bet(
        rules: Rules | str) -> None:
    hand = at_fourth([100, 45, 100], rules=rules)
    play(hand, "cbr 20", "cbr 35")
    assert options(hand) == [(FOLD, 0), (CALL, 35), (RAISE, 55)]
    play(hand, "c")
    assert hand.to_act == 1
    assert options(hand) == [(FOLD, 0), (CALL, 35)]


@pytest.mark.parametrize("rules", [FULL_BET, "pokerkit"], ids=["full_bet", "pokerkit"])
def test_full_bet_raise_is_to_the_current_amount_plus_one_full_bet(rules: Rules | str) -> None:
    hand = at_fourth([100, 38, 100], rules=rules)
    play(hand, "cbr 20", "cbr 28")
    assert options(hand) == [(FOLD, 0), (CALL, 28), (RAISE, 48)]
    play(hand, "c")
    assert options(hand) == [(FOLD, 0), (CALL, 28)]


@pytest.mark.parametrize("rules", [FULL_BET, "pokerkit"], ids=["full_bet", "pokerkit"])
@pytest.mark.parametrize(("all_in", "raise_to"), [(15, 35), (8, 28)])
def test_full_bet_all_in_bet_for_less_is_raised_to_the_all_in_plus_one_full_bet(
        rules: Rules | str, all_in: int, raise_to: int) -> None:
    hand = at_fourth([10 + all_in, 100, 100], rules=rules)
    play(hand, f"cbr {all_in}")
    assert tos(hand) == [0, all_in, raise_to]


# PokerKit 0.7's own bookkeeping of short all-ins, which the pokerkit profile follows
# (RULES.md 9: "the details of short all-ins"). Third street, no ante, bring-in 10, small bet 20:
# seat 1's 2c brings in and completes to the first amount; then each amount is a completion,
# bet or raise by the next player, "c" a call. The expected answer is PokerKit's, checked live.
POKERKIT_CASES = [
    # (stacks, actions, (seat to act, call to, smallest raise to or None))
    pytest.param([1000, 1000, 1000, 65, 1000], "20 40 60 65", (5, 65, None),
                 id="a short all-in raise counts toward the cap"),
    pytest.param([1000, 29, 40, 1000], "20 29 40 c", (1, 40, 60),
                 id="short all-ins that together make a full raise reopen"),
    pytest.param([1000, 29, 38, 1000], "20 29 38 c", (1, 38, None),
                 id="short all-ins short of a full raise do not reopen"),
    pytest.param([1000, 35, 1000], "20 35 c", (1, 35, None),
                 id="a single short all-in never reopens"),
    pytest.param([1000, 28, 1000], "20 28", (3, 28, 48),
                 id="raise to the current amount plus a bet"),
    pytest.param([15, 1000, 1000], "15", (2, 15, 35),
                 id="completion all in for 15 is raised to 35"),
]
DOORS = ["2c", "Ac", "Ad", "Ah", "As"]


def _pokerkit_answer(stacks: list[int], actions: str) -> tuple[int, int, int | None]:
    automations = (Automation.ANTE_POSTING, Automation.BET_COLLECTION,
                   Automation.BLIND_OR_STRADDLE_POSTING, Automation.CARD_BURNING,
                   Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING,
                   Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING)
    state = FixedLimitSevenCardStud.create_state(automations, False, 0, 10, 20, 40, stacks,
                                                 len(stacks))
    spare = iter(["3c", "3d", "4c", "4d", "5c", "5d", "6c", "6d", "7c", "7d"])
    for _ in range(2):
        for _ in stacks:
            state.deal_hole(next(spare))
    for door in DOORS[:len(stacks)]:
        state.deal_hole(door)
    for word in actions.split():
        if word == "c":
            state.check_or_call()
        else:
            state.complete_bet_or_raise_to(int(word))
    actor = state.actor_index
    assert actor is not None
    call_to = state.bets[actor] + (state.checking_or_calling_amount or 0)
    raise_to = (state.min_completion_betting_or_raising_to_amount
                if state.can_complete_bet_or_raise_to() else None)
    return actor + 1, call_to, raise_to


def _our_answer(stacks: list[int], actions: str) -> tuple[int, int, int | None]:
    spare = iter(["3c", "3d", "4c", "4d", "5c", "5d", "6c", "6d", "7c", "7d"])
    seats = {seat: f"{next(spare)} {next(spare)} {DOORS[seat - 1]}"
             for seat in range(1, len(stacks) + 1)}
    hand = hand_with("stud", seats, stacks=stacks, stakes=S20, rules="pokerkit")
    assert hand.to_act == 1
    for word in actions.split():
        play(hand, "c" if word == "c" else f"cbr {word}")
    legal = hand.legal_actions()
    call_to = next(a.to for a in legal if a.kind is CALL)
    wagers = [a.to for a in legal if a.wagers]
    assert hand.to_act is not None
    return hand.to_act, call_to, min(wagers) if wagers else None


@pytest.mark.parametrize(("stacks", "actions", "expected"), POKERKIT_CASES)
def test_pokerkit_profile_short_all_ins_as_in_pokerkit(
        stacks: list[int], actions: str, expected: tuple[int, int, int | None]) -> None:
    assert _pokerkit_answer(stacks, actions) == expected
    assert _our_answer(stacks, actions) == expected


# ------------------------------------------------------------------ bets for less


def test_bet_for_less_is_allowed_when_it_puts_every_opponent_all_in() -> None:
    hand = at_fourth([100, 22], trips="JA")  # heads up; seat 2 has 12 left
    assert options(hand) == [(CHECK, 0), (BET, 12), (BET, 20)]
    hand.act(Action.bet(15))  # anything from 12 to the full 20 puts seat 2 all in
    assert options(hand) == [(FOLD, 0), (CALL, 12)]
    play(hand, "c")
    assert UncalledReturned(1, 3) in hand.events
    assert hand.is_over
    # Seat 2's aces win 2 x 22; seat 1 lost only the 22 that was called.
    assert hand.stacks == [78, 44]


def test_raise_for_less_that_puts_every_opponent_all_in_is_legal_as_in_wsop_hand_85() -> None:
    hand = at_fourth([45, 100], trips="JA")  # seat 1 has 35 left
    play(hand, "cbr 20")
    assert options(hand) == [(FOLD, 0), (CALL, 20), (RAISE, 35), (RAISE, 40)]
    hand.act(Action.raise_to(37))
    assert options(hand) == [(FOLD, 0), (CALL, 35)]
    play(hand, "c")
    assert UncalledReturned(2, 2) in hand.events
    assert hand.stacks == [0, 145]


def test_completion_for_less_that_puts_every_opponent_all_in_is_legal() -> None:
    # Heads up on third street: seat 2's Qd brings in for 10 with 15 in all; seat 1 may
    # complete to 15 (or anything up to the full 20), which puts seat 2 all in.
    hand = hand_with("stud", cards("JA"), stacks=[100, 15], stakes=S20)
    play(hand, "b")
    assert options(hand) == [(FOLD, 0), (CALL, 10), (ActionKind.COMPLETE, 15),
                             (ActionKind.COMPLETE, 20)]
    hand.act(Action.complete(18))
    assert options(hand) == [(FOLD, 0), (CALL, 15)]
    play(hand, "c")
    assert ActionTaken(2, 3, Action.call(15), 5, True) in hand.events
    assert UncalledReturned(1, 3) in hand.events


def test_bet_for_less_must_put_every_opponent_all_in() -> None:
    hand = at_fourth([100, 22, 26])  # seats 2 and 3 have 12 and 16 left
    assert options(hand) == [(CHECK, 0), (BET, 16), (BET, 20)]
    for short in (12, 14, 15):
        with pytest.raises(IllegalAction):
            hand.act(Action.bet(short))
    hand.act(Action.bet(16))
    assert hand.wagers[0] == 16


def test_bet_for_less_is_illegal_while_an_opponent_could_call_a_full_bet() -> None:
    hand = at_fourth([100, 22, 100])
    assert options(hand) == [(CHECK, 0), (BET, 20)]
    with pytest.raises(IllegalAction):
        hand.act(Action.bet(12))


# ------------------------------------------------------------------ uncalled bets


def test_uncalled_bet_is_returned_when_everyone_folds() -> None:
    hand = at_fourth([100, 100, 100])
    play(hand, "cbr 20", "f", "f")
    assert hand.is_over
    assert UncalledReturned(1, 20) in hand.events
    assert pots_awarded(hand) == [(0, 30, ((1, 30),))]
    assert hand.stacks == [120, 90, 90]


def test_uncalled_raise_is_returned_when_everyone_folds() -> None:
    hand = at_fourth([100, 100, 100])
    play(hand, "cbr 20", "cbr 40", "f", "f")
    assert UncalledReturned(2, 20) in hand.events
    assert hand.stacks == [70, 140, 90]


def test_uncalled_part_of_a_bet_is_returned_before_the_showdown() -> None:
    hand = at_fourth([100, 22, 100], trips="JAT")
    play(hand, "cbr 20", "c", "f")  # seat 2 calls 12 all in, seat 3 folds
    assert hand.is_over
    returned = hand.events.index(UncalledReturned(1, 8))
    first_shown = next(k for k, e in enumerate(hand.events) if isinstance(e, HandShown))
    assert returned < first_shown
    # Seat 2's aces take 22 + 22 + seat 3's 10.
    assert pots_awarded(hand) == [(0, 54, ((2, 54),))]
    assert hand.stacks == [78, 54, 90]


def test_uncalled_part_is_what_no_other_player_matched_folded_chips_included() -> None:
    # Seat 1 bets 20, seat 2 calls all in for 12, seat 3 raises to 40 and seat 1 folds: seat 3
    # gets back the 20 that nobody matched; seat 1's folded 20 stays in the pots.
    hand = at_fourth([100, 22, 100], trips="JAT")
    play(hand, "cbr 20", "c", "cbr 40", "f")
    assert hand.is_over
    assert UncalledReturned(3, 20) in hand.events
    # Main pot 3 x 22 to seat 2's aces; side pot 8 + 8 (seats 1 and 3) to seat 3 alone.
    assert pots_awarded(hand) == [(1, 16, ((3, 16),)), (0, 66, ((2, 66),))]
    assert hand.stacks == [70, 66, 86]


# ------------------------------------------------------------------ side pots


def test_all_in_player_is_eligible_only_for_what_they_matched() -> None:
    # Seat 2 (aces) is all in for 22; seat 1 (jacks) beats seat 3 (tens) for the rest.
    hand = at_fourth([100, 22, 100], trips="JAT")
    play(hand, "cbr 20", "c", "c")
    assert hand.street == 5
    assert hand.view().pots == (66, 16)
    check_down(hand)
    assert pots_awarded(hand) == [(1, 16, ((1, 16),)), (0, 66, ((2, 66),))]
    assert hand.stacks == [86, 66, 70]


def test_side_pots_are_awarded_separately_last_formed_first() -> None:
    # Seat 2 (aces) all in for 22, seat 3 (kings) all in for 38; seats 1 (tens) and 4 (jacks)
    # bet on. Main pot 4 x 22 to aces, side pot 3 x 16 to kings, second side pot to jacks.
    hand = at_fourth([100, 22, 38, 100], trips="TAKJ")
    play(hand, "cbr 20", "c", "cbr 28", "c", "c")
    assert hand.street == 5
    assert hand.view().pots == (88, 48)
    play(hand, "cbr 40", "c")  # 5th street: seat 1 bets, seat 4 calls
    assert hand.view().pots == (88, 48, 80)
    check_down(hand)
    assert pots_awarded(hand) == [(2, 80, ((4, 80),)), (1, 48, ((3, 48),)), (0, 88, ((2, 88),))]
    assert hand.stacks == [22, 88, 48, 102]


def test_folded_chips_stay_in_the_pots_they_reached() -> None:
    # Seat 3 folds to seat 1's bet after calling third street: its 10 is in the main pot.
    hand = at_fourth([100, 22, 100, 100], trips="JATK")
    play(hand, "cbr 20", "c", "f", "c")
    check_down(hand)
    # Main pot: 22 from seats 1, 2, 4 and 10 from seat 3 = 76, to seat 2's aces.
    # Side pot: 8 each from seats 1 and 4 = 16, to seat 4's kings.
    assert pots_awarded(hand) == [(1, 16, ((4, 16),)), (0, 76, ((2, 76),))]
    assert hand.stacks == [70, 76, 90, 86]
