"""Levels: derived from the starting stack, rising on schedule by hands or by minutes."""

from __future__ import annotations

import pytest

from stud.rules import Stakes
from stud.tournament import SitAndGo, StructureError, TournamentError, sit_and_go, structure


def test_level_one_is_fifty_small_bets_of_the_starting_stack_with_the_usual_stakes() -> None:
    for stack in (1000, 1500, 2000, 10_000):
        first = structure("standard", stack).level(1).stakes
        assert first == Stakes.for_limit(stack // 50)


def test_each_level_is_about_one_and_a_half_times_the_one_before_in_round_numbers() -> None:
    smalls = [level.stakes.small_bet for level in structure("standard", 2000).levels]
    assert smalls[:8] == [40, 60, 80, 120, 160, 200, 300, 400]
    assert all(1.2 <= b / a <= 1.5 for a, b in zip(smalls, smalls[1:], strict=False))


def test_levels_rise_every_10_hands_standard_and_every_5_turbo() -> None:
    standard, turbo = structure("standard", 2000), structure("turbo", 2000)
    assert [standard.level_at(h).number for h in (0, 9, 10, 19, 20, 95)] == [1, 1, 2, 2, 3, 10]
    assert [turbo.level_at(h).number for h in (0, 4, 5, 9, 10, 95)] == [1, 1, 2, 2, 3, 20]
    assert turbo.levels[3].stakes == standard.levels[3].stakes


def test_past_the_last_level_listed_each_level_doubles_the_stakes() -> None:
    s = structure("standard", 2000)
    last = s.levels[-1]
    after = s.level(last.number + 2).stakes
    assert after.small_bet == 4 * last.stakes.small_bet and after.ante == 4 * last.stakes.ante
    assert s.level_at(10 * len(s.levels) + 10).number == last.number + 2


@pytest.mark.parametrize("turbo", [False, True])
def test_each_hand_is_played_at_the_level_of_the_hands_before_it(turbo: bool) -> None:
    event = sit_and_go("stud", players=6, structure_name="turbo" if turbo else "standard")
    length = 5 if turbo else 10
    sng = SitAndGo.with_bots(event, ["random"] * 6, seed=11)
    while not sng.is_over:
        record = sng.play_hand()
        assert record.level.number == (record.number - 1) // length + 1
        assert record.hand.stakes == record.level.stakes == event.structure.level_at(
            record.number - 1).stakes
    assert sng.hands_played > 3 * length  # it rose at least three times


def test_timed_levels_go_by_the_minutes_the_caller_says_have_been_played() -> None:
    event = sit_and_go("stud8", players=4, per="minutes")
    sng = SitAndGo.with_bots(event, ["station"] * 4, seed=2)
    with pytest.raises(TournamentError, match="go by minutes"):
        sng.start_hand()
    assert sng.start_hand(25.0).stakes == event.structure.level(3).stakes
    sng.table.play_bots()
    sng.finish_hand()
    # a clock set back never lowers the stakes
    assert sng.start_hand(5.0).stakes == event.structure.level(3).stakes


def test_a_simulated_clock_counts_each_hand_as_minutes_per_hand() -> None:
    event = sit_and_go("razz", players=3, per="minutes")
    sng = SitAndGo.with_bots(event, ["random"] * 3, seed=4)
    levels = []
    while not sng.is_over:
        levels.append(sng.play_hand(sng.hands_played * 2.5).level.number)
    assert levels == [int(h * 2.5 // 10) + 1 for h in range(len(levels))]


def test_a_structure_refuses_a_starting_stack_too_small_and_an_unknown_name() -> None:
    with pytest.raises(StructureError,
                       match="a starting stack of 99 is too small: at least 100 chips"):
        structure("standard", 99)
    with pytest.raises(StructureError, match="unknown structure 'hyper'"):
        structure("hyper", 2000)
