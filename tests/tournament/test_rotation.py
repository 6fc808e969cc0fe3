"""The stud rotation: razz, stud, stud hi/lo, every N hands; each hand's history names its game."""

from __future__ import annotations

import pytest

from stud.history.phh import dumps, loads
from stud.rules import Variant
from stud.tournament import Rotation, RotationError, SitAndGo, parse_game, sit_and_go


def test_the_rotation_plays_razz_then_stud_then_stud8_each_for_n_hands() -> None:
    r = Rotation.orbit(8, every=3)
    played = [r.variant(n).value for n in range(1, 13)]
    assert played == ["razz"] * 3 + ["stud"] * 3 + ["stud8"] * 3 + ["razz"] * 3


def test_the_rotation_changes_game_every_orbit_by_default() -> None:
    r = parse_game("rotation", seats=5)
    assert r.every == 5 and r.variant(5) is Variant.RAZZ and r.variant(6) is Variant.STUD


def test_the_next_change_names_the_hand_and_the_game() -> None:
    r = Rotation.orbit(6)
    assert r.next_change(1) == (7, Variant.STUD)
    assert r.next_change(7) == (13, Variant.STUD8)
    assert r.next_change(18) == (19, Variant.RAZZ)


def test_a_single_game_never_changes() -> None:
    r = parse_game("stud8", seats=6)
    assert {r.variant(n) for n in range(1, 50)} == {Variant.STUD8}
    assert r.next_change(3) is None and r.name == "stud8"


def test_an_unknown_game_and_a_rotation_length_for_one_game_are_refused() -> None:
    with pytest.raises(RotationError, match="unknown game 'holdem'"):
        parse_game("holdem", seats=6)
    with pytest.raises(RotationError, match="one game"):
        parse_game("stud", seats=6, every=4)
    with pytest.raises(RotationError, match="every 1 or more"):
        Rotation.orbit(6, every=0)


def test_the_orbit_stays_the_tables_seats_when_players_bust() -> None:
    sng = SitAndGo.with_bots(sit_and_go("rotation", players=4), ["random"] * 4, seed=3)
    short_handed = []
    while not sng.is_over:
        record = sng.play_hand()
        assert record.variant is Rotation.orbit(4).variant(record.number)
        if len(record.seats) < 4:
            short_handed.append(record.variant)
    assert set(short_handed) == {Variant.RAZZ, Variant.STUD, Variant.STUD8}


def test_each_hands_history_names_its_game_hand_number_and_level() -> None:
    sng = SitAndGo.with_bots(sit_and_go("rotation", players=3, every=2), ["station"] * 3,
                             seed=8)
    names = {seat: e.name for seat, e in enumerate(sng.entrants, start=1)}
    codes = []
    while not sng.is_over:
        record = sng.play_hand()
        history = loads(dumps(record.history(names, seat_count=3)))
        assert history.stud_variant is record.variant
        assert history.fields["hand"] == record.number
        assert history.fields["level"] == record.level.number
        assert history.fields["players"] == [names[s] for s in record.seats]
        assert history.finishing_stacks == list(record.stacks)
        codes.append(history.variant)
    assert codes[:6] == ["FR", "FR", "F7S", "F7S", "F7S/8", "F7S/8"]
