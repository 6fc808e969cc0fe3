"""Placing busted players: the last places, same-hand busts by their stacks at its start,
equal stacks tied and sharing their places' prizes; the last player standing wins."""

from __future__ import annotations

from stud.engine import AntePosted
from stud.rules import Stakes, Variant
from stud.tournament import (
    Finish,
    Level,
    Rotation,
    SitAndGo,
    Structure,
    Tournament,
    place_busted,
    prize_shares,
)

# Every hand all in on the antes: who busts, and with what, is up to the cards alone.
ALL_IN = Structure("all in", "hands", (Level(1, Stakes(100, 10, 20, 40), 100),))


def test_a_player_who_busts_alone_takes_the_last_place_left() -> None:
    assert place_busted({4: 250}, remaining=6, hand=12) == [Finish(4, 6, 1, 12)]


def test_two_who_bust_in_one_hand_are_placed_by_their_stacks_at_its_start() -> None:
    assert place_busted({2: 100, 5: 340}, remaining=5, hand=30) == [
        Finish(5, 4, 1, 30), Finish(2, 5, 1, 30)]


def test_equal_starting_stacks_tie_for_the_best_of_their_places() -> None:
    busts = place_busted({1: 80, 3: 200, 6: 80}, remaining=4, hand=9)
    assert [(f.seat, f.place, f.tied, list(f.places)) for f in busts] == [
        (3, 2, 1, [2]), (1, 3, 2, [3, 4]), (6, 3, 2, [3, 4])]


def test_tied_players_share_their_places_prizes_the_odd_chip_to_the_earlier_seat() -> None:
    finishes = [Finish(2, 1, 1, 5), Finish(3, 2, 2, 5), Finish(1, 2, 2, 5)]
    assert prize_shares(finishes, (231, 99)) == {2: 231, 1: 50, 3: 49}


def test_in_play_two_busting_with_the_same_stack_tie_and_share() -> None:
    event = Tournament(Rotation.fixed(Variant.STUD), 3, ALL_IN, buy_in=110, starting_stack=100,
                       payouts=(70, 30))
    sng = SitAndGo.with_bots(event, ["station"] * 3, seed=0)
    assert sng.prize(1) is None  # not placed yet
    record = sng.play_hand()
    assert (sng.prize(1), sng.prize(2), sng.prize(3)) == (50, 49, 231)
    assert record.stacks == (0, 0, 300) and sng.is_over  # one hand: seat 3 took it all
    assert [(f.seat, f.place, f.tied) for f in record.busted] == [(1, 2, 2), (2, 2, 2)]
    outcome = sng.outcome()
    assert [(p.seat, p.finish, p.tied, p.prize) for p in outcome.placings] == [
        (3, 1, 1, 231), (1, 2, 2, 50), (2, 2, 2, 49)]
    assert sum(p.prize for p in outcome.placings) == outcome.prize_pool == 330


def _short_seat_two(seed: int) -> SitAndGo:
    """Four at 100 chips, but seat 1 has 170 and seat 2 only 30 (the same chips in play)."""
    event = Tournament(Rotation.fixed(Variant.STUD), 4, ALL_IN, starting_stack=100)
    sng = SitAndGo.with_bots(event, ["station"] * 4, seed)
    sng.table.seats[1].stack, sng.table.seats[2].stack = 170, 30
    return sng


def test_in_play_the_larger_starting_stack_finishes_higher_when_two_bust() -> None:
    sng = _short_seat_two(seed=0)
    record = sng.play_hand()
    assert record.starting_stacks == (170, 30, 100, 100) and record.stacks == (70, 0, 0, 330)
    assert [(f.seat, f.place, f.tied) for f in record.busted] == [(3, 3, 1), (2, 4, 1)]


def test_in_play_three_bust_two_tied_above_the_short_stack() -> None:
    sng = _short_seat_two(seed=1)
    record = sng.play_hand()
    assert record.stacks == (400, 0, 0, 0) and sng.is_over
    assert [(f.seat, f.place, f.tied) for f in record.busted] == [(3, 2, 2), (4, 2, 2),
                                                                   (2, 4, 1)]
    prizes = {p.seat: p.prize for p in sng.outcome().placings}
    assert prizes == {1: 260, 3: 70, 4: 70, 2: 0}  # 65/35 of 400; 2nd and 3rd share 140


def test_a_stack_short_of_the_ante_posts_what_it_has_all_in() -> None:
    record = _short_seat_two(seed=0).play_hand()
    antes = [e for e in record.hand.events if isinstance(e, AntePosted)]
    assert [(e.seat, e.amount, e.all_in) for e in antes] == [
        (1, 100, False), (2, 30, True), (3, 100, True), (4, 100, True)]


def test_every_place_is_taken_once_and_the_last_player_standing_wins() -> None:
    for seed in range(12):
        sng = SitAndGo.with_bots(Tournament(Rotation.orbit(8), 8, ALL_IN, starting_stack=100),
                                 ["random"] * 8, seed)
        hands = []
        while not sng.is_over:
            hands.append(sng.play_hand())
        placings = sng.outcome().placings
        groups = sorted({(p.finish, p.tied) for p in placings})
        assert [place for f, tied in groups for place in range(f, f + tied)] == list(
            range(1, 9))
        for finish, tied in groups:
            assert sum(p.finish == finish for p in placings) == tied
        last = hands[-1]
        winner = placings[0]
        assert winner.finish == 1 and winner.tied == 1 and winner.hand == last.number
        assert last.stacks[last.seats.index(winner.seat)] == 800
