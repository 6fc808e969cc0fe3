"""Prizes by finishing place: the default table, and the pool paid to the chip."""

from __future__ import annotations

import pytest

from stud.tournament import DEFAULT_PAYOUTS, PayoutError, payout_table, prizes, sit_and_go


def test_the_default_table_pays_winner_take_all_heads_up_65_35_at_4_to_6_50_30_20_at_7_8() -> None:
    assert payout_table(2) == payout_table(3) == (100,)
    assert payout_table(4) == payout_table(5) == payout_table(6) == (65, 35)
    assert payout_table(7) == payout_table(8) == (50, 30, 20)
    assert set(DEFAULT_PAYOUTS) == set(range(2, 9))


@pytest.mark.parametrize("players", range(2, 9))
def test_prizes_add_up_to_the_pool_exactly_for_every_pool(players: int) -> None:
    for pool in range(0, 1001):
        paid = prizes(players, pool)
        assert sum(paid) == pool
        assert list(paid) == sorted(paid, reverse=True)


def test_the_chips_rounding_leaves_go_to_the_winner() -> None:
    assert prizes(7, 701) == (351, 210, 140)  # 350.5, 210.3, 140.2 rounded down, +1 to 1st
    assert prizes(4, 99) == (65, 34)          # 64.35 and 34.65 rounded down, +1 to 1st


def test_a_tournaments_prizes_are_its_players_buy_ins() -> None:
    event = sit_and_go("stud", players=8, buy_in=25)
    assert event.prize_pool == 200 and event.prizes == (100, 60, 40)


@pytest.mark.parametrize("payouts, message", [
    ((60, 30), "90% of the pool"),
    ((30, 70), "more than place 1"),
    ((50, 20, 10, 10, 10), "5 paid places for 4 players"),
    ((100, 0), "whole percentage > 0"),
])
def test_a_payout_table_that_cannot_pay_is_refused(payouts: tuple[int, ...],
                                                   message: str) -> None:
    with pytest.raises(PayoutError, match=message):
        sit_and_go("stud", players=4, payouts=payouts)


def test_a_payout_table_of_ones_own_is_used() -> None:
    assert sit_and_go("razz", players=3, buy_in=110, payouts=(70, 30)).prizes == (231, 99)
