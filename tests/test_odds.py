"""Equities shown in the terminal game: the viewer's own during the hand, and every shown
hand's street by street afterwards."""

from __future__ import annotations

from scenarios import hand_with, passive, play, to_street
from stud.cards import format_cards
from stud.equity import equity
from stud.odds import TRIALS, NoFigure, OwnEquity, equity_by_street, own_equity
from stud.terminal import render
from stud.text import words


def test_own_equity_uses_only_what_the_viewer_sees() -> None:
    hand = hand_with("stud", {1: "As Ad 2c", 2: "Kh Kd 3d", 3: "7c 8c 9h"})
    to_street(hand, 4)
    seat = hand.to_act
    own = own_equity(hand.view(seat))
    assert own is not None and own.share is not None and 0.0 <= own.share <= 1.0
    # The same figure whatever the others hold face down: only the view goes in.
    other = hand_with("stud", {1: "As Ad 2c", 2: "Qh Qd 3d", 3: "7s 8s 9h"})
    to_street(other, 4)
    if seat == 1:
        assert own_equity(other.view(1)) == own


def test_equity_by_street_sums_to_one_and_ends_with_the_result() -> None:
    hand = passive(hand_with("stud8", {1: "As 2d 3c 4h 5s 9d Kc", 2: "Kh Kd Ks 9h 9s 2h 3h"}))
    rows = equity_by_street(hand)
    assert [street for street, _ in rows] == [3, 4, 5, 6, 7]
    for _, shares in rows:
        assert abs(sum(shares.values()) - 1.0) < 1e-9
    won = {seat: hand.result.won(seat) for seat in (1, 2)}
    final = rows[-1][1]
    total = sum(won.values())
    assert all(abs(final[s] - won[s] / total) < 0.01 for s in (1, 2))


SIDE_POT = {1: "As Ad 2c Ah Ac 3d 4d", 2: "Ks Kd 5h Kh 9s 9d 7c", 3: "Qs Qd 6h 8c Ts Js 2d"}


def side_pot_hand():
    """Seat 1 brings in all in for its last chip; seats 2 and 3 make a side pot of 2."""
    hand = hand_with("stud", SIDE_POT, stacks=[2, 100, 100])
    play(hand, "b", "cbr 2", "c")
    return hand


def test_equity_follows_the_pots_each_among_the_hands_that_can_win_it() -> None:
    hand = side_pot_hand()
    own = own_equity(hand.view(2))
    assert own is not None and own.share is not None and own.pots == 2
    view = hand.view(2)
    seen = [format_cards(p.cards) for p in view.players]
    main = equity("stud", seen, trials=TRIALS, seed=0).players[1].equity
    seat_1_up = [c for c in view.player(1).cards if c is not None]
    side = equity("stud", seen[1:], dead=seat_1_up, trials=TRIALS, seed=0).players[0].equity
    assert abs(own.share - (6 * main + 2 * side) / 8) < 1e-9


def test_a_side_pot_winner_is_not_shown_zero_after_the_hand() -> None:
    hand = passive(side_pot_hand())
    rows = equity_by_street(hand)
    final = rows[-1][1]
    # Seat 1's aces win the main pot (6 of the 8 chips); seat 2's full house the side pot.
    assert hand.result.won(1) == 6 and hand.result.won(2) == 2
    assert abs(final[1] - 0.75) < 1e-9 and abs(final[2] - 0.25) < 1e-9 and final[3] == 0.0
    for _, shares in rows:
        assert abs(sum(shares.values()) - 1.0) < 1e-9


def test_no_equity_with_eight_players_says_why() -> None:
    hand = hand_with("stud", {1: "As Ad 2c"}, stacks=[100] * 8)
    own = own_equity(hand.view(hand.to_act))
    assert own == OwnEquity(None, NoFigure.DECK)
    text = render(hand.view(hand.to_act), lambda seat: f"seat {seat}", words("en"))
    assert "No equity shown: with this many hands still in, the deck could run out" in text
