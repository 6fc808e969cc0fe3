"""A sit-and-go hand by hand: chips conserved, prizes equal to the pool, the same for a seed."""

from __future__ import annotations

import pytest

from stud.bots import make_bot
from stud.engine import Action, HandView
from stud.history.phh import dumps
from stud.tournament import Entrant, SitAndGo, TournamentError, sit_and_go
from stud.tournament.series import Series, run_series


@pytest.mark.parametrize("game, players, bots", [
    ("stud", 2, ["random", "station"]),
    ("stud8", 5, ["random", "strength"]),
    ("razz", 7, ["random"]),
    ("rotation", 8, ["random", "station"]),
])
def test_chips_are_conserved_every_hand_and_the_prizes_are_the_pool(
        game: str, players: int, bots: list[str]) -> None:
    event = sit_and_go(game, players, "turbo")
    for seed in range(3):
        sng = SitAndGo.with_bots(event, [bots[k % len(bots)] for k in range(players)], seed)
        while not sng.is_over:
            record = sng.play_hand()
            assert sum(record.stacks) == sum(record.starting_stacks)
            assert sum(sng.stacks().values()) == event.chips
            assert all(stack > 0 for stack in sng.stacks().values())
        outcome = sng.outcome()
        assert sum(p.prize for p in outcome.placings) == outcome.prize_pool == 100 * players
        assert sorted(p.seat for p in outcome.placings) == list(range(1, players + 1))
        assert outcome.hands == sng.hands_played


def _histories(seed: int) -> tuple[list[str], object]:
    sng = SitAndGo.with_bots(sit_and_go("rotation", 6), ["random", "strength", "station"] * 2,
                             seed)
    texts = []
    while not sng.is_over:
        texts.append(dumps(sng.play_hand().history()))
    return texts, sng.outcome()


def test_a_sit_and_go_is_the_same_for_the_same_seed_hand_for_hand() -> None:
    first, second = _histories(21), _histories(21)
    assert first == second
    assert _histories(22)[0] != first[0]


def test_many_runs_do_not_depend_on_the_number_of_workers() -> None:
    series = Series(sit_and_go("stud", 4, "turbo"), ("random", "station", "random", "random"),
                    seed=3)
    one, two = run_series(series, 8, workers=1), run_series(series, 8, workers=2, size=3)
    assert (one.finishes == two.finishes).all() and (one.prizes == two.prizes).all()
    assert one.to_json()["bots"] == two.to_json()["bots"]


def test_run_k_of_a_series_is_the_sit_and_go_of_seed_plus_k_minus_1_seats_moved_round() -> None:
    series = Series(sit_and_go("razz", 3), ("random", "station", "strength"), seed=40)
    results = run_series(series, 3)
    # run 3: entrants moved two seats round, so seat 1 holds entrant 1 (station)
    alone = SitAndGo.with_bots(series.tournament, ["station", "strength", "random"], 42).play()
    for p in alone.placings:
        entrant = series.seating(3)[p.seat - 1]
        assert results.prizes[2, entrant] == p.prize
        assert results.finishes[2, entrant] == p.average_place


def test_in_a_series_each_bots_average_finish_and_return_have_an_interval() -> None:
    series = Series(sit_and_go("stud", 4, "turbo"), ("station", "random", "random", "random"),
                    seed=0)
    results = run_series(series, 20)
    station, random = results.standings()
    assert (station.bot, station.seats, random.bot, random.seats) == ("station", 1, "random", 3)
    for s in (station, random):
        low, high = s.finish_ci95
        assert low < s.average_finish < high
        assert s.roi_ci95[0] < s.roi < s.roi_ci95[1]
    # the field's finishes and prizes are fixed: 1..4, and the pool back
    assert station.average_finish + 3 * random.average_finish == pytest.approx(10)
    assert station.roi + 3 * random.roi == pytest.approx(0)
    assert station.wins + random.wins == 20


class Spy:
    """A calling station that checks it is shown its own seat's view, on its turn."""

    name = "spy"

    def __init__(self, seat: int) -> None:
        self.seat, self.bot, self.decisions = seat, make_bot("station"), 0

    def act(self, view: HandView) -> Action:
        assert view.viewer == view.to_act
        self.decisions += 1
        return self.bot.act(view)


def test_bots_decide_from_their_own_seats_view() -> None:
    spies = [Spy(seat) for seat in range(1, 5)]
    sng = SitAndGo(sit_and_go("stud8", 4), [Entrant(f"spy {s.seat}", s) for s in spies], 1)
    outcome = sng.play()
    assert all(s.decisions for s in spies) and outcome.placings[0].bot == "spy"


def test_a_person_acts_between_start_hand_and_finish_hand() -> None:
    entrants = [Entrant("you"), Entrant("bot", make_bot("random", 1))]
    sng = SitAndGo(sit_and_go("razz", 2), entrants, seed=5)
    with pytest.raises(TournamentError, match="seat 1 has no bot"):
        sng.play_hand()
    while not sng.is_over:
        hand = sng.start_hand()
        while True:
            sng.table.play_bots()
            if hand.is_over:
                break
            hand.act(hand.legal_actions()[-1], hand.to_act)  # you always play the most
        sng.finish_hand()
    assert {p.name for p in sng.outcome().placings} == {"you", "bot"}
    assert sng.outcome().placings[0].prize == 200


def test_a_sit_and_go_refuses_the_wrong_number_of_entrants_and_play_after_the_end() -> None:
    event = sit_and_go("stud", 3)
    with pytest.raises(TournamentError, match="2 entrants for a sit-and-go of 3 players"):
        SitAndGo.with_bots(event, ["random"] * 2)
    with pytest.raises(TournamentError, match="2 to 8 players"):
        sit_and_go("stud", 9)
    sng = SitAndGo.with_bots(event, ["random"] * 3, seed=1)
    with pytest.raises(TournamentError, match="still in"):
        sng.outcome()
    sng.play()
    with pytest.raises(TournamentError, match="over"):
        sng.start_hand()
