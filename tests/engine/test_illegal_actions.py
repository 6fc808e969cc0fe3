"""Illegal actions (DESIGN.md, RULES.md 3-5): an action that is not legal raises IllegalAction
naming the seat, the action, and what was legal instead; the hand does not change.

Cards are written per seat in dealing order: two down cards, the door card, 4th-6th street up,
7th street down. Seat 3's 3c brings in; from 4th street on seat 2 (K-high) acts first.
"""

from __future__ import annotations

import random

import pytest

from scenarios import hand_with, play
from stud.cards import Deck
from stud.engine import Action, ActionKind, Hand, IllegalAction
from stud.rules import PROFILES, Rules, RulesError, Stakes

BOARDS = {1: "2c 4c 9h Td 5h 6h 7h", 2: "Jc Tc Kc 2d 5d 6d 7d", 3: "8c 7c 3c Qs 5s 6s 8s",
          4: "Ac 3d 4h 6c 9s Ts Js"}
OPEN_PAIR = {1: "2c 4c 9h 9d 5h 6h 7h", 2: "Jc Tc Kc 2d 5d 6d 7d", 3: "8c 7c 3c Qs 5s 6s 8s"}


def snapshot(hand: Hand) -> tuple[object, ...]:
    return (tuple(hand.stacks), tuple(hand.wagers), tuple(hand.committed), hand.to_act,
            len(hand.events), hand.street, hand.current_bet, hand.legal_actions(), hand.is_over,
            tuple(hand.folded))


def refused(hand: Hand, action: object, seat: int | None = None) -> IllegalAction:
    """Act illegally; the error must name the seat, the action and what is legal, and the
    hand must be exactly as it was."""
    before = snapshot(hand)
    events = list(hand.events)
    legal = hand.legal_actions()
    with pytest.raises(IllegalAction) as caught:
        hand.act(action, seat)  # type: ignore[arg-type]
    error = caught.value
    assert snapshot(hand) == before
    assert hand.events == events
    expected_seat = seat if seat is not None else hand.to_act
    assert error.seat == expected_seat
    assert error.action == action
    assert error.legal == legal
    message = str(error)
    if expected_seat is not None:
        assert f"seat {expected_seat}" in message
    assert str(action) in message
    for option in legal:
        assert str(option) in message
    return error


def to_street(hand: Hand, street: int) -> Hand:
    while hand.street < street:
        kinds = {a.kind for a in hand.legal_actions()}
        play(hand, "b" if ActionKind.BRING_IN in kinds
             else "c" if ActionKind.CALL in kinds else "k")
    return hand


def test_wrong_bet_amount_is_illegal() -> None:
    hand = to_street(hand_with("stud", BOARDS), 4)
    assert hand.to_act == 2
    for amount in (1, 3, 4, 100):
        error = refused(hand, Action.bet(amount))
        assert "the amount must be 2" in error.reason
    hand.act(Action.bet(2))  # the hand goes on as if nothing had happened
    assert hand.wagers[1] == 2


def test_wrong_raise_amount_is_illegal() -> None:
    hand = to_street(hand_with("stud", BOARDS), 5)
    play(hand, "cbr 4")
    for amount in (5, 6, 7, 9, 12):
        refused(hand, Action.raise_to(amount))


def test_wrong_call_amount_is_illegal() -> None:
    hand = to_street(hand_with("stud", BOARDS), 5)
    play(hand, "cbr 4")
    for amount in (0, 2, 8):
        refused(hand, Action.call(amount))


def test_check_facing_a_bet_is_illegal() -> None:
    hand = to_street(hand_with("stud", BOARDS), 4)
    play(hand, "cbr 2")
    error = refused(hand, Action.check())
    assert "bet of 2 to call" in error.reason


def test_fold_with_nothing_to_call_is_illegal() -> None:
    hand = to_street(hand_with("stud", BOARDS), 4)
    refused(hand, Action.fold())


def test_bring_in_player_may_not_fold_check_or_call() -> None:
    hand = hand_with("stud", BOARDS)
    assert hand.to_act == 3
    for action in (Action.fold(), Action.check(), Action.call(1)):
        refused(hand, action)


@pytest.mark.parametrize("action", [Action.bring_in(2), Action.complete(3), Action.complete(1),
                                    Action.bet(3), Action.raise_to(1)])
def test_wrong_bring_in_or_completion_is_illegal(action: Action) -> None:
    refused(hand_with("stud", BOARDS), action)


@pytest.mark.parametrize("action", [Action.bet(2), Action.raise_to(2)])
def test_a_wager_to_the_legal_amount_is_that_wager_whatever_it_is_called(action: Action) -> None:
    # PHH writes completions, bets and raises alike ("cbr"); the engine names the wager.
    hand = hand_with("stud", BOARDS)
    hand.act(action)
    assert hand.events[-1].action == Action.complete(2)


@pytest.mark.parametrize(("action", "reason"), [
    (Action.bet(3), "no bet to 3 here: the wager is bring in 1 or complete to 2"),
    (Action.raise_to(3), "no raise to 3 here: the wager is bring in 1 or complete to 2")])
def test_a_wager_by_the_wrong_name_and_amount_is_refused_naming_the_amount(
        action: Action, reason: str) -> None:
    assert refused(hand_with("stud", BOARDS), action).reason == reason


def test_check_facing_the_bring_in_is_illegal() -> None:
    hand = hand_with("stud", BOARDS)
    play(hand, "b")
    refused(hand, Action.check())
    refused(hand, Action.bring_in(1))


def test_big_bet_on_fourth_street_without_open_pair_is_illegal() -> None:
    hand = to_street(hand_with("stud", BOARDS), 4)
    refused(hand, Action.bet(4))


def test_raise_between_small_and_big_on_open_pair_fourth_street_is_illegal() -> None:
    hand = to_street(hand_with("stud", OPEN_PAIR), 4)
    refused(hand, Action.bet(3))
    play(hand, "cbr 2")
    refused(hand, Action.raise_to(5))


def test_raise_beyond_the_cap_is_illegal() -> None:
    hand = to_street(hand_with("stud", BOARDS), 5)
    play(hand, "cbr 4", "cbr 8", "cbr 12", "cbr 16")
    error = refused(hand, Action.raise_to(20))
    assert "capped" in error.reason


def test_raise_after_a_short_all_in_that_did_not_reopen_the_betting_is_illegal() -> None:
    stakes = Stakes(ante=0, bring_in=10, small_bet=20, big_bet=40)
    hand = hand_with("stud", BOARDS, stacks=[100, 100, 38], stakes=stakes)
    play(hand, "b", "c", "c")
    play(hand, "cbr 20", "cbr 28", "c")  # seats 2, 3 (all in: 8 more, short) and 1
    assert hand.to_act == 2
    error = refused(hand, Action.raise_to(40))
    assert "reopen" in error.reason


def test_acting_out_of_turn_is_illegal() -> None:
    hand = to_street(hand_with("stud", BOARDS), 4)
    assert hand.to_act == 2
    error = refused(hand, Action.check(), seat=1)
    assert error.seat == 1
    assert "seat 2's turn" in error.reason
    refused(hand, Action.bet(2), seat=3)
    hand.act(Action.check(), seat=2)
    assert hand.to_act == 3


def test_show_or_muck_while_betting_is_illegal() -> None:
    hand = to_street(hand_with("stud", BOARDS), 4)
    refused(hand, Action(ActionKind.SHOW))
    refused(hand, Action(ActionKind.MUCK))


def test_something_that_is_not_an_action_is_illegal() -> None:
    hand = to_street(hand_with("stud", BOARDS), 4)
    refused(hand, "check")


def test_acting_after_the_hand_is_over_is_illegal() -> None:
    hand = to_street(hand_with("stud", BOARDS), 4)
    play(hand, "cbr 2", "f", "f", "f")
    assert hand.is_over
    before = snapshot(hand)
    with pytest.raises(IllegalAction) as caught:
        hand.act(Action.check())
    assert snapshot(hand) == before
    assert caught.value.legal == ()
    assert str(caught.value) == "no one can check: the hand is over; legal: nothing"


@pytest.mark.parametrize("seat", [0, 9, -1])
def test_a_seat_outside_the_hand_is_refused_as_not_in_it_not_as_out_of_turn(seat: int) -> None:
    hand = to_street(hand_with("stud", BOARDS), 4)
    before = snapshot(hand)
    with pytest.raises(ValueError, match=rf"seat {seat} is not in this hand \(seats 1 to "):
        hand.act(Action.check(), seat)
    assert snapshot(hand) == before


@pytest.mark.parametrize("seat", ["2", 2.0, True])
def test_a_seat_that_is_not_a_whole_number_is_refused_naming_it(seat: object) -> None:
    hand = to_street(hand_with("stud", BOARDS), 4)
    before = snapshot(hand)
    with pytest.raises(ValueError, match=f"seat {seat!r} is not in this hand"):
        hand.act(Action.check(), seat)  # type: ignore[arg-type]
    assert snapshot(hand) == before


def test_illegal_action_leaves_the_hand_exactly_as_a_hand_that_never_saw_it() -> None:
    twin = to_street(hand_with("stud", BOARDS), 5)
    hand = to_street(hand_with("stud", BOARDS), 5)
    for action in (Action.bet(5), Action.fold(), Action.raise_to(3), Action.call(4)):
        refused(hand, action)
    play(hand, "cbr 4", "c", "cbr 8")
    play(twin, "cbr 4", "c", "cbr 8")
    assert hand.events == twin.events
    assert snapshot(hand) == snapshot(twin)


def _not_legal(hand: Hand, rng: random.Random) -> list[Action]:
    """Actions outside the legal set: every other kind, and amounts just off the legal ones."""
    legal = hand.legal_actions()
    kinds = {a.kind for a in legal}
    out: list[Action] = []
    for kind in (ActionKind.FOLD, ActionKind.CHECK, ActionKind.SHOW, ActionKind.MUCK):
        if kind not in kinds:
            out.append(Action(kind))
    for kind in (ActionKind.CALL, ActionKind.BRING_IN, ActionKind.COMPLETE, ActionKind.BET,
                 ActionKind.RAISE):
        same = [a.to for a in legal if a.kind is kind]
        if not same:
            # Not a legal amount of another wager either: those are the same wager by name.
            taken = {a.to for a in legal if a.wagers}
            out.append(Action(kind, rng.choice([t for t in range(1, 51) if t not in taken])))
            continue
        out.append(Action(kind, max(same) + 1))
        if min(same) > 1:
            out.append(Action(kind, min(same) - 1))
    return out


@pytest.mark.parametrize("seed", range(12))
def test_every_action_outside_the_legal_set_is_refused_without_a_trace(seed: int) -> None:
    """Random play, trying illegal actions at every decision before a legal one."""
    rng = random.Random(seed)
    stacks = [rng.choice([3, 8, 15, 40, 100]) for _ in range(rng.randint(2, 5))]
    variant = rng.choice(["stud", "stud8", "razz"])
    rules = rng.choice(["standard", "pokerkit"])
    hand = Hand(variant, Stakes(1, 1, 2, 4), stacks, PROFILES[rules], Deck.seeded(seed))
    while not hand.is_over:
        for action in _not_legal(hand, rng):
            refused(hand, action)
        hand.act(rng.choice(hand.legal_actions()))
    assert sum(hand.stacks) == sum(stacks)


@pytest.mark.parametrize("build, message", [
    (lambda: Hand("stud", (1, 1, 2, 4), [100, 100]), "stakes must be Stakes"),
    (lambda: Hand("stud", Stakes(1, 1, 2, 4), 100), "stacks must be a list"),
    (lambda: Hand("stud", Stakes(1, 1, 2, 4), "100"), "stacks must be a list"),
    (lambda: Hand("stud", Stakes(1, 1, 2, 4), [100, 100], "wsop"), "unknown rules profile"),
    (lambda: Hand("stud", Stakes(1, 1, 2, 4), [100, 100], 5), "rules must be a Rules"),
    (lambda: Hand("stud", Stakes(1, 1, 2, 4), [100]), "2 to 8 players"),
    (lambda: Hand("stud", Stakes(1, 1, 2, 4), [100, 0]), "seat 2"),
    (lambda: Hand("holdem", Stakes(1, 1, 2, 4), [100, 100]), "unknown variant"),
    (lambda: Stakes(1, 2, 2, 4), "must be less than the small bet"),
    (lambda: Rules(max_bets=True), "max_bets"),
])
def test_bad_hand_set_up_gets_a_clear_error(build, message: str) -> None:  # noqa: ANN001
    with pytest.raises(RulesError, match=message):
        build()
