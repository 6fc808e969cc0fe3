"""RULES.md sections 1 and 3: the structure of a game, antes, and third street's bring-in.

Cards are written per seat in dealing order: two down cards, the door card, 4th-6th street up,
7th street down. Amounts are "to" amounts (the player's whole wager on the street).
"""

from __future__ import annotations

import pytest

from scenarios import STAKES, amounts, hand_with, options, play
from stud.cards import Deck
from stud.engine import Action, ActionKind, Hand
from stud.engine.events import AntePosted, CardDealt, PotAwarded, StreetStarted
from stud.rules import PROFILES, RulesError, Stakes, Variant

FOLD, CALL, BRING_IN, COMPLETE, RAISE = (ActionKind.FOLD, ActionKind.CALL, ActionKind.BRING_IN,
                                          ActionKind.COMPLETE, ActionKind.RAISE)




def first_street_event(hand: Hand, street: int) -> StreetStarted:
    return next(e for e in hand.events if isinstance(e, StreetStarted) and e.street == street)


# ------------------------------------------------------------------ section 1: structure


def test_seed_game_is_2_4_fixed_limit_with_a_bring_in_of_half_the_small_bet() -> None:
    stakes = Stakes.for_limit(2)
    assert (stakes.bring_in, stakes.small_bet, stakes.big_bet) == (1, 2, 4)
    hand = hand_with("stud", {1: "7c 8c 5d", 2: "9d Td 2c", 3: "Jh Qh Ks"}, stakes=stakes)
    assert options(hand) == [(BRING_IN, 1), (COMPLETE, 2)]


@pytest.mark.parametrize(("name", "variant"), [
    ("stud", Variant.STUD), ("stud8", Variant.STUD8), ("razz", Variant.RAZZ),
    ("F7S", Variant.STUD), ("F7S/8", Variant.STUD8), ("FR", Variant.RAZZ),
])
def test_variants_are_stud_stud8_and_razz(name: str, variant: Variant) -> None:
    assert Variant.parse(name) is variant
    assert Hand(name, STAKES, [100, 100], deck=Deck.seeded(1)).variant is variant


def test_unknown_variant_is_refused() -> None:
    with pytest.raises(RulesError, match="unknown variant"):
        Variant.parse("holdem")


@pytest.mark.parametrize("players", [2, 8])
def test_two_to_eight_players(players: int) -> None:
    hand = Hand("stud", STAKES, [100] * players, deck=Deck.seeded(1))
    assert hand.players == players
    assert sum(1 for e in hand.events if isinstance(e, CardDealt)) == 3 * players


@pytest.mark.parametrize("players", [0, 1, 9])
def test_fewer_than_two_or_more_than_eight_players_is_refused(players: int) -> None:
    with pytest.raises(RulesError, match="2 to 8 players"):
        Hand("stud", STAKES, [100] * players)


def test_every_player_posts_the_ante_before_the_deal() -> None:
    stakes = Stakes(ante=3, bring_in=5, small_bet=10, big_bet=20)
    hand = hand_with("stud", {1: "7c 8c 5d", 2: "9d Td 2c", 3: "Jh Qh Ks", 4: "3h 4h 6s"},
                     stakes=stakes)
    assert hand.events[:4] == [AntePosted(seat, 3, False) for seat in (1, 2, 3, 4)]
    assert isinstance(hand.events[4], CardDealt)
    assert hand.committed == [3, 3, 3, 3]
    assert hand.stacks == [97, 97, 97, 97]
    assert hand.wagers == [0, 0, 0, 0]  # antes are not part of the third-street wager


def test_player_who_cannot_cover_the_ante_posts_what_they_have_and_is_all_in() -> None:
    stakes = Stakes(ante=5, bring_in=5, small_bet=10, big_bet=20)
    # Seat 2 (3 chips) has trip aces; seats 1 and 3 play on, seat 1's kings beat seat 3.
    hand = hand_with("stud", {
        1: "Kc Kd 5h 3s 9s Jc Qd",
        2: "As Ah 7d Ad 2d 8c 9d",
        3: "Qc Jh 2c 4d Th 8h 7c",
    }, stacks=[100, 3, 100], stakes=stakes)
    assert hand.events[:3] == [AntePosted(1, 5, False), AntePosted(2, 3, True),
                               AntePosted(3, 5, False)]
    assert hand.stacks == [95, 0, 95]
    assert hand.all_in(2)
    assert hand.to_act == 3  # seat 3's 2c brings in
    play(hand, "b", "c")
    while not hand.is_over:
        play(hand, "k")
    # Seats 1 and 3 are in for 10 (ante 5, bring-in 5). Main pot: 3 from each player, to
    # seat 2. Side pot: 7 each from seats 1 and 3, to seat 1.
    pots = [e for e in hand.events if isinstance(e, PotAwarded)]
    assert [(p.pot, p.amount, p.shares) for p in pots] == [(1, 14, ((1, 14),)),
                                                             (0, 9, ((2, 9),))]
    assert hand.stacks == [104, 9, 90]


# ------------------------------------------------------------------ section 3: who brings in


def test_lowest_up_card_brings_in() -> None:
    hand = hand_with("stud", {1: "Ac Ad 5h", 2: "Kc Kd 3d", 3: "Qc Qd 9c"})
    assert hand.to_act == 2
    assert hand.view().bring_in == 2
    assert first_street_event(hand, 3).first == 2


@pytest.mark.parametrize("variant", ["stud", "stud8"])
def test_ace_is_high_for_the_bring_in_in_stud_and_stud8(variant: str) -> None:
    hand = hand_with(variant, {1: "2c 2d Ac", 2: "3c 3d Kd", 3: "4c 4d 3s"})
    assert hand.to_act == 3


@pytest.mark.parametrize("variant", ["stud", "stud8"])
def test_bring_in_suit_tie_clubs_lowest(variant: str) -> None:
    # 2h at seat 1 and 2c at seat 3: the suit, not the seat, decides.
    hand = hand_with(variant, {1: "Ac Ad 2h", 2: "Kc Kd 9s", 3: "Qc Qd 2c"})
    assert hand.to_act == 3


@pytest.mark.parametrize(("low", "high"), [
    ("2c", "2d"), ("2d", "2h"), ("2h", "2s"), ("2c", "2s"), ("2d", "2s"), ("2c", "2h"),
])
@pytest.mark.parametrize("low_seat", [1, 2])
def test_bring_in_suit_order_clubs_diamonds_hearts_spades(low: str, high: str,
                                                          low_seat: int) -> None:
    doors = {low_seat: low, 3 - low_seat: high}
    hand = hand_with("stud", {1: f"Ac Ad {doors[1]}", 2: f"Kc Kd {doors[2]}", 3: "Qc Qd 9s"})
    assert hand.to_act == low_seat


def test_bring_in_player_may_post_the_bring_in_or_complete() -> None:
    hand = hand_with("stud", {1: "Ac Ad 5h", 2: "Kc Kd 3d", 3: "Qc Qd 9c"})
    assert options(hand) == [(BRING_IN, 1), (COMPLETE, 2)]


def test_bring_in_posts_the_bring_in_amount() -> None:
    hand = hand_with("stud", {1: "Ac Ad 5h", 2: "Kc Kd 3d", 3: "Qc Qd 9c"})
    play(hand, "b")
    assert hand.wagers == [0, 1, 0]
    assert hand.stacks == [99, 98, 99]
    assert hand.current_bet == 1


def test_facing_only_the_bring_in_a_player_may_fold_call_or_complete() -> None:
    hand = hand_with("stud", {1: "Ac Ad 5h", 2: "Kc Kd 3d", 3: "Qc Qd 9c"})
    play(hand, "b")
    assert hand.to_act == 3
    assert options(hand) == [(FOLD, 0), (CALL, 1), (COMPLETE, 2)]
    play(hand, "c")
    assert options(hand) == [(FOLD, 0), (CALL, 1), (COMPLETE, 2)]


def test_action_after_the_bring_in_goes_clockwise() -> None:
    hand = hand_with("stud", {1: "Ac Ad Kd", 2: "Kc Kh Qs", 3: "Qc Qd 2c", 4: "Jc Jd Jh"})
    order = []
    while hand.street == 3:
        order.append(hand.to_act)
        play(hand, "b" if hand.to_act == 3 and not order[:-1] else "c")
    assert order == [3, 4, 1, 2]


def test_third_street_ends_when_everyone_calls_the_bring_in() -> None:
    """The bring-in is the player's action: with everyone in for it, the round is over."""
    hand = hand_with("stud", {1: "Ac Ad 5h", 2: "Kc Kd 3d", 3: "Qc Qd 9c"})
    play(hand, "b", "c", "c")
    assert hand.street == 4
    assert hand.committed == [2, 2, 2]


def test_bring_in_player_who_completes_makes_raises_by_the_small_bet() -> None:
    hand = hand_with("stud", {1: "Ac Ad 5h", 2: "Kc Kd 3d", 3: "Qc Qd 9c"})
    play(hand, "cbr 2")
    assert options(hand) == [(FOLD, 0), (CALL, 2), (RAISE, 4)]


def test_after_a_completion_raises_are_by_the_small_bet() -> None:
    hand = hand_with("stud", {1: "Ac Ad 5h", 2: "Kc Kd 3d", 3: "Qc Qd 9c", 4: "Jc Jd Js"})
    play(hand, "b", "cbr 2")
    assert options(hand) == [(FOLD, 0), (CALL, 2), (RAISE, 4)]
    play(hand, "cbr 4")
    assert options(hand) == [(FOLD, 0), (CALL, 4), (RAISE, 6)]
    # The bring-in player, in for 1, faces the raise like anyone else.
    play(hand, "c")
    assert hand.to_act == 2
    assert options(hand) == [(FOLD, 0), (CALL, 4), (RAISE, 6)]


def test_completion_is_the_first_bet_for_the_cap_bring_in_is_not() -> None:
    hand = hand_with("stud", {1: "Ac Ad Kd", 2: "Kc Kh Qs", 3: "Qc Qd 2c", 4: "Jc Jd Jh"})
    play(hand, "b", "cbr 2", "cbr 4", "cbr 6", "cbr 8")  # completion and three raises
    assert hand.to_act == 4
    assert options(hand) == [(FOLD, 0), (CALL, 8)]


def test_completion_by_the_bring_in_player_is_the_first_bet_for_the_cap() -> None:
    hand = hand_with("stud", {1: "Ac Ad Kd", 2: "Kc Kh Qs", 3: "Qc Qd 2c", 4: "Jc Jd Jh"})
    play(hand, "cbr 2", "cbr 4", "cbr 6")
    assert amounts(hand, RAISE) == [8]
    play(hand, "cbr 8")
    assert options(hand) == [(FOLD, 0), (CALL, 8)]


# ------------------------------------------------------------------ short bring-in

SHORT_STAKES = Stakes(ante=1, bring_in=5, small_bet=10, big_bet=20)
# Seat 1 (4 chips: 1 ante, 3 left) brings in with the 2c and makes trip aces; seat 2 pairs kings.
SHORT_CARDS = {
    1: "As Ah 2c Ad 7d 8c 9d",
    2: "Kc Kd 5h 3s 9s Jc Qd",
    3: "Qc Jh 6s 4d Th 8h 7c",
}


def _check_down(hand: Hand) -> Hand:
    while not hand.is_over:
        play(hand, "k")
    return hand


def test_short_bring_in_posts_what_is_left_all_in() -> None:
    hand = hand_with("stud", SHORT_CARDS, stacks=[4, 100, 100], stakes=SHORT_STAKES)
    assert hand.to_act == 1
    assert options(hand) == [(BRING_IN, 3)]
    play(hand, "b")
    assert hand.all_in(1)
    assert hand.stacks[0] == 0


def test_short_bring_in_others_must_call_the_full_bring_in() -> None:
    rules = PROFILES["standard"].with_policies(short_bring_in="full")
    hand = hand_with("stud", SHORT_CARDS, stacks=[4, 100, 100], stakes=SHORT_STAKES, rules=rules)
    play(hand, "b")
    assert options(hand) == [(FOLD, 0), (CALL, 5), (COMPLETE, 10)]
    play(hand, "c")
    assert options(hand) == [(FOLD, 0), (CALL, 5), (COMPLETE, 10)]
    play(hand, "c")
    assert hand.street == 4
    _check_down(hand)
    # Main pot 3 x 4 = 12 to seat 1's aces; side pot 2 x 2 = 4 to seat 2's kings.
    assert hand.stacks == [12, 98, 94]


def test_short_bring_in_is_the_standard_default() -> None:
    assert PROFILES["standard"].short_bring_in == "full"
    hand = hand_with("stud", SHORT_CARDS, stacks=[4, 100, 100], stakes=SHORT_STAKES)
    play(hand, "b")
    assert amounts(hand, CALL) == [5]


def test_short_bring_in_posted_policy_others_call_what_was_posted() -> None:
    rules = PROFILES["standard"].with_policies(short_bring_in="posted")
    hand = hand_with("stud", SHORT_CARDS, stacks=[4, 100, 100], stakes=SHORT_STAKES, rules=rules)
    play(hand, "b")
    assert options(hand) == [(FOLD, 0), (CALL, 3), (COMPLETE, 10)]
    play(hand, "c", "c")
    assert hand.street == 4
    _check_down(hand)
    assert hand.stacks == [12, 96, 96]


def test_pokerkit_profile_others_call_what_the_short_bring_in_posted() -> None:
    hand = hand_with("stud", SHORT_CARDS, stacks=[4, 100, 100], stakes=SHORT_STAKES,
                     rules="pokerkit")
    play(hand, "b")
    assert options(hand) == [(FOLD, 0), (CALL, 3), (COMPLETE, 10)]


LOW_ALL_IN_CARDS = {1: "Ac Ad 9h", 2: "Kc Kd 2c", 3: "Qc Qd 8d", 4: "Jc Jd 7s"}


def test_low_card_all_in_from_the_ante_next_player_may_fold_bring_in_or_complete() -> None:
    hand = hand_with("stud", LOW_ALL_IN_CARDS, stacks=[100, 1, 100, 100])
    assert hand.all_in(2)
    assert hand.to_act == 3
    assert options(hand) == [(FOLD, 0), (BRING_IN, 1), (COMPLETE, 2)]
    play(hand, "b")
    assert hand.to_act == 4
    assert options(hand) == [(FOLD, 0), (CALL, 1), (COMPLETE, 2)]


def test_pokerkit_profile_substitute_bring_in_has_no_fold_as_in_pokerkit() -> None:
    """PokerKit 0.7 offers only the bring-in or the completion (checked against it)."""
    hand = hand_with("stud", LOW_ALL_IN_CARDS, stacks=[100, 1, 100, 100], rules="pokerkit")
    assert hand.to_act == 3
    assert options(hand) == [(BRING_IN, 1), (COMPLETE, 2)]


def test_low_card_all_in_from_the_ante_a_fold_passes_the_same_options_on() -> None:
    hand = hand_with("stud", LOW_ALL_IN_CARDS, stacks=[100, 1, 100, 100])
    play(hand, "f")
    assert hand.to_act == 4
    assert options(hand) == [(FOLD, 0), (BRING_IN, 1), (COMPLETE, 2)]


def test_low_card_all_in_from_the_ante_completion_by_the_next_player_is_the_first_bet() -> None:
    hand = hand_with("stud", LOW_ALL_IN_CARDS, stacks=[100, 1, 100, 100])
    play(hand, "cbr 2")
    assert options(hand) == [(FOLD, 0), (CALL, 2), (RAISE, 4)]


# ------------------------------------------------------------------ razz


def test_razz_highest_up_card_brings_in_king_high() -> None:
    hand = hand_with("razz", {1: "Ac 2d Qs", 2: "3c 4d Kd", 3: "5c 6d 9c"})
    assert hand.to_act == 2


def test_razz_ace_is_low_for_the_bring_in() -> None:
    hand = hand_with("razz", {1: "Kc Kd As", 2: "Qc Qd 2d", 3: "Jc Jd 3c"})
    assert hand.to_act == 3


def test_razz_suit_tie_spades_brings_in() -> None:
    hand = hand_with("razz", {1: "Ac 2d Ks", 2: "3c 4d Kh", 3: "5c 6d Kc"})
    assert hand.to_act == 1
    hand = hand_with("razz", {1: "Ac 2d Kc", 2: "3c 4d Kd", 3: "5c 6d Kh"})
    assert hand.to_act == 3


def test_razz_bring_in_player_may_post_the_bring_in_or_complete() -> None:
    hand = hand_with("razz", {1: "Ac 2d Qs", 2: "3c 4d Kd", 3: "5c 6d 9c"})
    assert options(hand) == [(BRING_IN, 1), (COMPLETE, 2)]
    hand.act(Action.bring_in(1))
    assert options(hand) == [(FOLD, 0), (CALL, 1), (COMPLETE, 2)]


def test_bring_in_player_short_of_the_small_bet_may_complete_all_in_for_less() -> None:
    # Seat 1 has 7 after the ante: it may bring in for 5 or complete all in for 7, which is
    # half the small bet or more and so counts as the completion (RULES.md 5, half_bet).
    hand = hand_with("stud", SHORT_CARDS, stacks=[8, 100, 100], stakes=SHORT_STAKES)
    assert options(hand) == [(BRING_IN, 5), (COMPLETE, 7)]
    play(hand, "cbr 7")
    assert hand.all_in(1)
    assert options(hand) == [(FOLD, 0), (CALL, 7), (RAISE, 17)]
