"""Equities shown in the terminal game: the viewer's own during the hand, and every shown
hand's street by street afterwards."""

from __future__ import annotations

from scenarios import hand_with, passive, to_street
from stud.odds import equity_by_street, own_equity


def test_own_equity_uses_only_what_the_viewer_sees() -> None:
    hand = hand_with("stud", {1: "As Ad 2c", 2: "Kh Kd 3d", 3: "7c 8c 9h"})
    to_street(hand, 4)
    seat = hand.to_act
    share = own_equity(hand.view(seat))
    assert share is not None and 0.0 <= share <= 1.0
    # The same figure whatever the others hold face down: only the view goes in.
    other = hand_with("stud", {1: "As Ad 2c", 2: "Qh Qd 3d", 3: "7s 8s 9h"})
    to_street(other, 4)
    if seat == 1:
        assert own_equity(other.view(1)) == share


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
