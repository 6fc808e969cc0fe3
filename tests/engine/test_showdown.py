"""RULES.md section 6: the order of showing, mucking, all-in hands turned up, the best five of
seven, split pots and odd chips, and no button."""

from __future__ import annotations

import pytest

from scenarios import STAKES, hand_with, play, to_street
from stud.cards import Card, Deck, parse_cards
from stud.engine import (
    Action,
    ActionKind,
    CardBurned,
    CardDealt,
    Category,
    Hand,
    HandMucked,
    HandShown,
    HandValue,
    IllegalAction,
    PotAwarded,
    StreetStarted,
)
from stud.history.phh import dumps, from_hand
from stud.history.text import text_history
from stud.rules import PROFILES, Stakes, Variant
from stud.table import Table

SHOW = Action(ActionKind.SHOW)
MUCK = Action(ActionKind.MUCK)
SUIT = PROFILES["standard"].with_policies(odd_chip="suit")
SEAT = PROFILES["standard"].with_policies(odd_chip="seat")


def check_down(hand: Hand) -> Hand:
    """Bring in, then check or call until the betting is over."""
    while hand.to_act is not None and hand.phase == "betting":
        kinds = {a.kind: a for a in hand.legal_actions()}
        for kind in (ActionKind.BRING_IN, ActionKind.CHECK, ActionKind.CALL):
            if kind in kinds:
                hand.act(kinds[kind])
                break
    return hand


def showdown_log(hand: Hand) -> list[tuple[str, int]]:
    return [("show" if isinstance(e, HandShown) else "muck", e.seat) for e in hand.events
            if isinstance(e, HandShown | HandMucked)]


def facts(value: HandValue | None) -> tuple[Category, str] | None:
    """A hand value as its category and the ranks that name it, as the cards write them."""
    return None if value is None else (value.category, "".join(r.char for r in value.ranks))


def awards(hand: Hand) -> list[tuple[int, dict[int, int]]]:
    """Each pot: its amount and who won how much (stud and razz pots have no halves)."""
    return [(e.amount, dict(e.shares)) for e in hand.events if isinstance(e, PotAwarded)]


# Seat 2 shows the best up cards (a pair of aces); seat 3 holds the best hand (three tens).
# Doors 9c, As, 4s: seat 3 brings in; on later streets seat 2 acts first.
THREE = {
    1: "Qh Qd 9c 8d 5s 3h Jc",  # a pair of queens
    2: "Kc Kd As Ac 7h 2d Qs",  # aces and kings
    3: "Th Td 4s Tc 6h 5d 8h",  # three tens
}


def to_seventh(hand: Hand) -> Hand:
    play(hand, "b", "c", "c")  # third street: seat 3 brings in, seats 1 and 2 call
    for _ in (4, 5, 6):
        play(hand, "k", "k", "k")  # seat 2, seat 3, seat 1
    assert hand.street == 7 and hand.to_act == 2
    return hand


# ---------------------------------------------------------------- order of showing


def test_last_bettor_on_seventh_street_shows_first():
    hand = to_seventh(hand_with("stud", THREE, auto_showdown=False))
    play(hand, "k", "cbr 4", "c", "c")  # seat 2 checks, seat 3 bets, seats 1 and 2 call
    order = []
    while not hand.is_over:
        order.append(hand.to_act)
        hand.act(SHOW)
    assert order == [3, 1, 2]


def test_last_raiser_on_seventh_street_shows_first_then_clockwise():
    hand = to_seventh(hand_with("stud", THREE, auto_showdown=False))
    # Seat 2 bets, seat 3 calls, seat 1 raises, seats 2 and 3 call.
    play(hand, "cbr 4", "c", "cbr 8", "c", "c")
    order = []
    while not hand.is_over:
        order.append(hand.to_act)
        hand.act(SHOW)
    assert order == [1, 2, 3]
    assert showdown_log(hand) == [("show", 1), ("show", 2), ("show", 3)]
    assert awards(hand) == [(30, {3: 30})]
    assert hand.stacks == [90, 90, 120]


def test_without_a_seventh_street_bet_best_up_cards_show_first():
    hand = hand_with("stud", THREE, auto_showdown=False)
    play(hand, "b", "c", "c")
    play(hand, "k", "k", "k", "k", "k", "k")  # fourth and fifth street
    play(hand, "k", "k", "cbr 4", "c", "c")  # sixth: seat 1 bets, seats 2 and 3 call
    play(hand, "k", "k", "k")  # seventh street: nobody bets
    order = []
    while not hand.is_over:
        order.append(hand.to_act)
        hand.act(SHOW)
    assert order == [2, 3, 1]  # seat 2's pair of aces showing, then clockwise


def test_histories_show_hands_in_showdown_order():
    hand = to_seventh(hand_with("stud", THREE))
    play(hand, "cbr 4", "cbr 8", "c", "c")
    actions = from_hand(hand).actions
    shows = [a for a in actions if " sm" in a]
    assert shows == ["p3 sm ThTd4sTc6h5d8h", "p1 sm", "p2 sm"]


# ---------------------------------------------------------------- mucking


def test_player_who_cannot_win_may_muck():
    hand = to_seventh(hand_with("stud", THREE, auto_showdown=False))
    play(hand, "cbr 4", "cbr 8", "c", "c")
    assert hand.to_act == 3
    hand.act(SHOW)  # three tens
    assert hand.to_act == 1
    assert MUCK in hand.legal_actions()
    hand.act(MUCK)  # a pair of queens cannot win
    assert hand.to_act == 2
    hand.act(MUCK)
    assert showdown_log(hand) == [("show", 3), ("muck", 1), ("muck", 2)]
    assert hand.mucked == [True, True, False]
    assert hand.stacks == [90, 90, 120]


def test_a_player_who_can_still_win_must_show_and_only_a_beaten_hand_may_muck():
    """RULES.md 6: only a player who cannot win any part of a pot may muck. The first to show
    has nothing to beat; aces up beat the queens shown, and three tens beat both."""
    hand = to_seventh(hand_with("stud", THREE, auto_showdown=False))
    play(hand, "cbr 4", "c", "cbr 8", "c", "c")  # seat 1 raises last: it shows first
    assert (hand.to_act, hand.legal_actions()) == (1, (SHOW,))
    hand.act(SHOW)  # a pair of queens
    assert (hand.to_act, hand.legal_actions()) == (2, (SHOW,))
    with pytest.raises(IllegalAction):
        hand.act(MUCK)  # aces up would hand the pot to a worse hand
    hand.act(SHOW)
    assert (hand.to_act, hand.legal_actions()) == (3, (SHOW,))
    hand.act(SHOW)
    assert hand.stacks == [90, 90, 120]


def test_a_replayed_history_may_concede_a_hand_that_could_win():
    """A history is taken as written (RULES.md 10): a player there mucked aces up against the
    queens shown, and the queens took the pot the history says they took."""
    hand = to_seventh(hand_with("stud", THREE, auto_showdown=False, as_written=True))
    play(hand, "cbr 4", "c", "cbr 8", "c", "c")
    hand.act(SHOW)
    assert MUCK in hand.legal_actions()
    hand.act(MUCK)
    hand.act(MUCK)  # three tens, mucked too: the queens win
    assert hand.stacks == [120, 90, 90]


def test_engine_mucks_for_a_player_who_cannot_win_and_shows_one_who_can():
    hand = to_seventh(hand_with("stud", THREE))
    play(hand, "k", "k", "k")
    # Seat 2 (aces and kings) shows first; seat 3 (three tens) can beat it; seat 1 cannot.
    assert showdown_log(hand) == [("show", 2), ("show", 3), ("muck", 1)]
    assert hand.stacks == [98, 98, 104]


def test_mucked_cards_never_appear_in_any_public_view_or_history():
    hand = to_seventh(hand_with("stud", THREE, auto_showdown=False))
    play(hand, "k", "cbr 4", "c", "c", "show", "muck", "muck")  # seat 3 bets and shows
    hidden = {1: parse_cards("Qh Qd Jc"), 2: parse_cards("Kc Kd Qs")}
    for viewer in (None, 3):
        view = hand.view(viewer)
        for seat, cards in hidden.items():
            player = view.player(seat)
            assert player.mucked
            assert player.down_cards == (None, None, None)
            assert not set(cards) & {c for c in player.cards if c is not None}
            for event in view.events:
                if isinstance(event, CardDealt):
                    assert event.card not in cards
    # A seat's own view still holds its own cards.
    assert hand.view(1).player(1).down_cards == hidden[1]
    public = from_hand(hand, viewer=None)
    assert "p1 sm" in public.actions and "p2 sm" in public.actions
    text = dumps(public)
    for cards in hidden.values():
        for card in cards:
            assert str(card) not in text
    assert "p3 sm ThTd4sTc6h5d8h" in public.actions
    lines = "\n".join(text_history(hand.public_events()))
    for cards in hidden.values():
        for card in cards:
            assert str(card) not in lines


# ---------------------------------------------------------------- all in: hands turned up


ALL_IN = {1: "As Ad 2c 3c 8d Jh 9c", 2: "Ks Kd 9h 3d 4c 5d Kh"}


def test_all_in_with_no_more_betting_turns_up_all_live_hands():
    hand = hand_with("stud", ALL_IN, stacks=[5, 100])
    play(hand, "cbr 2", "cbr 4", "c")  # seat 1 calls all in on third street
    kinds = [type(e) for e in hand.events]
    first_burn = kinds.index(CardBurned)
    shown = [e for e in hand.events[:first_burn] if isinstance(e, HandShown)]
    # Turned up at once, before fourth street, best up cards first.
    assert [(e.seat, e.cards) for e in shown] == [
        (2, parse_cards("Ks Kd 9h")), (1, parse_cards("As Ad 2c"))]
    assert hand.is_over
    public = hand.view(None)
    assert public.player(1).cards == parse_cards("As Ad 2c 3c 8d Jh 9c")
    assert public.player(2).cards == parse_cards("Ks Kd 9h 3d 4c 5d Kh")
    assert not any(isinstance(e, HandMucked) for e in hand.events)
    assert [e.first for e in hand.events if isinstance(e, StreetStarted)] == [1, None, None,
                                                                            None, None]
    assert awards(hand) == [(10, {2: 10})]
    assert hand.stacks == [0, 105]


def test_all_in_on_seventh_street_turns_up_all_live_hands():
    # Seat 1 calls all in on seventh street and loses: no more betting is possible, so both
    # hands are turned up; the losing all-in hand is not mucked.
    hand = hand_with("stud", {1: "Ks Kd 2c 3c 4d 5h 9c", 2: "As Ad 9h 3d 4c 5d 7d"},
                     stacks=[10, 100])
    play(hand, "b", "c", "k", "k", "k", "k", "k", "k")
    play(hand, "k", "cbr 4", "cbr 8", "c")
    assert hand.is_over and hand.stacks[0] == 0
    assert sorted(seat for kind, seat in showdown_log(hand) if kind == "show") == [1, 2]
    assert not any(isinstance(e, HandMucked) for e in hand.events)
    assert hand.view(None).player(1).down_cards == parse_cards("Ks Kd 9c")


def test_hands_stay_down_while_betting_is_still_possible_beside_an_all_in():
    hand = hand_with("stud", {1: "As Ad 2c", 2: "Ks Kd 9h", 3: "Qs Qd Th"},
                     stacks=[5, 100, 100])
    play(hand, "cbr 2", "cbr 4", "c", "c")  # seat 1 all in; seats 2 and 3 can still bet
    assert hand.street == 4 and hand.to_act is not None
    assert not any(isinstance(e, HandShown) for e in hand.events)
    assert hand.view(None).player(1).down_cards == (None, None)


# ---------------------------------------------------------------- the best hand and split pots


def test_best_five_of_seven_wins():
    # Seat 1 makes a king-high flush from five of its seven hearts-and-sevens; seat 2 shows
    # the better up cards (a pair of queens) and two pair.
    hand = check_down(hand_with("stud", {1: "2h 9h Kh 4h 7c 7d Jh",
                                         2: "Ac 3c Qs Qd 8s 3d 6s"}))
    shown = {e.seat: facts(e.high) for e in hand.events if isinstance(e, HandShown)}
    assert showdown_log(hand) == [("show", 2), ("show", 1)]
    assert shown == {2: (Category.TWO_PAIR, "Q3A"), 1: (Category.FLUSH, "KJ942")}
    assert awards(hand) == [(4, {1: 4})]
    assert hand.stacks == [102, 98]


def test_equal_hands_split_the_pot_equally():
    hand = check_down(hand_with("stud", {1: "As Ks Qd Jd 9c 4h 2h",
                                         2: "Ah Kh Qc Jc 9d 4s 2s"}))
    assert awards(hand) == [(4, {1: 2, 2: 2})]
    assert hand.stacks == [100, 100]


# Seats 1 and 2 tie with ace-king-queen-jack-nine; seat 2 holds the ace of spades. Seat 1's
# Qc brings in, seat 2 calls, seat 3 folds: the pot is 5.
ODD = {1: "Ah Kh Qc Jc 9d 4s 2s", 2: "As Ks Qd Jd 9c 4h 2h", 3: "5c 6d Kc"}


def test_odd_chip_suit_goes_to_highest_card_by_suit():
    hand = hand_with("stud", ODD, rules=SUIT)
    play(hand, "b", "c", "f")
    check_down(hand)
    assert awards(hand) == [(5, {2: 3, 1: 2})]
    assert hand.stacks == [100, 101, 99]


def test_odd_chip_seat_goes_to_first_clockwise_from_the_dealer():
    hand = hand_with("stud", ODD, rules=SEAT)
    play(hand, "b", "c", "f")
    check_down(hand)
    assert awards(hand) == [(5, {1: 3, 2: 2})]
    assert hand.stacks == [101, 100, 99]


def test_odd_chip_suit_looks_only_at_the_five_card_hand():
    # Both make a nine-high straight. Seat 1 also holds the Kd, outside its five cards; the
    # highest card of the five-card hands is the 9c (seat 1) against the 9s (seat 2).
    hand = hand_with("stud", {1: "5c 6d 7h 8s 9c Kd 2d", 2: "5d 6c 7s 8h 9s Qc 2c",
                              3: "3h 4h As"}, rules=SUIT)
    play(hand, "b", "c", "f")
    check_down(hand)
    assert awards(hand) == [(5, {2: 3, 1: 2})]


def test_odd_chip_suit_in_a_low_split_goes_to_lowest_card_by_suit():
    # Razz: both make 5-4-3-2-A; seat 2's ace is the Ac, seat 1's the Ad. Seat 1's 3d is the
    # highest door and brings in; seat 3 folds: the pot is 5.
    hand = hand_with("razz", {1: "Ad 2c 3d 4c 5d Qh Qs", 2: "Ac 2d 3c 4d 5c Jh Js",
                              3: "9h 9s 2h"}, rules=SUIT)
    play(hand, "b", "c", "f")
    check_down(hand)
    assert awards(hand) == [(5, {2: 3, 1: 2})]
    hand = hand_with("razz", {1: "Ad 2c 3d 4c 5d Qh Qs", 2: "Ac 2d 3c 4d 5c Jh Js",
                              3: "9h 9s 2h"}, rules=SEAT)
    play(hand, "b", "c", "f")
    check_down(hand)
    assert awards(hand) == [(5, {1: 3, 2: 2})]


# ---------------------------------------------------------------- no button


def test_no_button_seat_1_stays_the_dealers_left_from_hand_to_hand():
    table = Table(Variant.STUD, STAKES, seats=3)
    for number in (1, 2, 3):
        table.sit(number, f"P{number}", 100)
    logs = []
    for _ in range(3):
        hand = table.start_hand(Deck.ordered())
        logs.append([(e.seat, e.card) for e in hand.events if isinstance(e, CardDealt)])
        assert hand.to_act == 1  # the 3h is the lowest door, on seat 1 every time
        check_down(hand)
        table.finish_hand()
    assert logs[0][0] == (1, Card.parse("2c"))
    assert logs[0] == logs[1] == logs[2]


def test_all_in_turn_up_on_seventh_street_starts_with_the_last_bettor() -> None:
    # Seat 1 brings in all in; on seventh street only seat 2 bets: seat 2 shows first, then
    # clockwise, although the all-in forces every hand face up.
    hand = hand_with("stud", {1: "As Ad 2c 9c 8d 7d Ah", 2: "Qh Qd Kh Ks 3h 6h 4d",
                              3: "Tc Td 9d Jh Th 5s 4s", 4: "6c 6d Jc Js 2h 2d 4c"},
                     stacks=[10, 300, 300, 300], stakes=Stakes(5, 5, 10, 20))
    play(hand, "b")
    to_street(hand, 7)
    play(hand, "k", "cbr 20", "c", "c")
    shown = [e.seat for e in hand.events if isinstance(e, HandShown)]
    assert shown == [2, 3, 4, 1]


def test_heads_up_all_in_bettor_on_seventh_street_shows_first() -> None:
    hand = hand_with("stud", {1: "Ks Kd 2c 3c 4d 5h 9c", 2: "As Ad 9h 3d 4c 5d 7d"},
                     stacks=[6, 100])
    to_street(hand, 7)
    play(hand, "k", "cbr 4", "c")
    assert [e.seat for e in hand.events if isinstance(e, HandShown)] == [1, 2]
