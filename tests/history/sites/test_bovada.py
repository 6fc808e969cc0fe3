"""Bovada's formats: players by seat, stakes read from the wagers, both raise styles, the rake
when none is written, seats not dealt in, lines it cannot read; every fixture hand replays."""

from __future__ import annotations

from pathlib import Path

import pytest

from stud.history.phh import dumps
from stud.history.replay import replay_file
from stud.history.sites import Cancelled, SiteError, bovada, read_text, to_history
from stud.history.sites.model import Act, Collected, Dealt, Returned, SiteHand
from stud.rules import Variant

FIXTURES = Path(__file__).parent / "fixtures" / "bovada"
OLD = read_text(FIXTURES / "7-Stud-USD-2.00-4.00-201205.txt")
NEW = read_text(FIXTURES / "7-StudHL-USD-RING-$5-$10,$1.25Ante-201404.txt")


def hands(text: str) -> list[SiteHand]:
    return [bovada.parse(hand, line) for line, hand in bovada.split(text)]


@pytest.mark.parametrize("path", sorted(FIXTURES.iterdir()), ids=lambda p: p.name)
def test_every_fixture_hand_replays_exactly(path: Path, tmp_path: Path) -> None:
    text = read_text(path)
    assert bovada.detect(text)
    for k, hand in enumerate(hands(text)):
        phh = tmp_path / f"{k}.phh"
        phh.write_text(dumps(to_history(hand)), encoding="utf-8")
        report = replay_file(phh)
        assert report.ok and report.checked, report.error


def test_the_stakes_come_from_the_wagers_not_the_header() -> None:
    first, second, third, fourth = hands(OLD)
    for hand in (first, second, third, fourth):
        assert (hand.small_bet, hand.big_bet, hand.ante, hand.bring_in) == (5, 10, 1, 2)
        assert hand.variant is Variant.STUD and hand.currency == "USD"
    assert first.hand == "2604291510" and first.table == "1178621"
    # "D bets $0.10": the double bet on fourth street's open pair is a big bet.
    assert Act("Seat+3", "cbr", 10) in second.steps
    (new,) = hands(NEW)
    assert (new.small_bet, new.big_bet, new.variant) == (500, 1000, Variant.STUD8)


def test_raises_to_and_returned_bets() -> None:
    (hand,) = hands(NEW)
    # "Raises $7.50 to $10" after bringing in $2.50: 7.50 more, the total 10.
    assert Act("Seat+5", "cbr", 750) in hand.steps
    first = hands(OLD)[0]
    assert Returned("Seat+3", 10) in first.steps and Collected("Seat+3", 9) in first.steps


def test_the_rake_is_written_or_what_the_pot_kept() -> None:
    assert [h.rake for h in hands(OLD)] == [0, 2, 2, 0]
    (hand,) = hands(NEW)  # "Total Pot($150)", no rake: 150 in, 147 won
    assert hand.rake == 300 and sum(s.amount for s in hand.steps
                                    if isinstance(s, Collected)) == 14700


def test_a_seat_sitting_out_is_not_dealt_in() -> None:
    last = hands(OLD)[3]
    assert {s.player for s in last.steps if isinstance(s, Dealt)} == {"Seat+1", "Seat+5"}
    assert to_history(last).fields["players"] == ["Seat+1", "Seat+5"]


def test_a_line_it_cannot_read_names_its_line() -> None:
    head, tail = OLD.rsplit("Seat+1 : Calls $0.02", 1)  # in the fourth hand, on line 136
    line, hand = bovada.split(head + "Seat+1 : Dances $0.02" + tail)[3]
    with pytest.raises(SiteError) as error:
        bovada.parse(hand, line)
    assert error.value.line == 136 and "Dances" in error.value.reason


def test_other_games_are_not_stud() -> None:
    text = OLD.replace("7CARD Fixed Limit", "HOLDEM No Limit", 1)
    line, hand = bovada.split(text)[0]
    with pytest.raises(SiteError) as error:
        bovada.parse(hand, line)
    assert error.value.reason == "not a stud hand: the game is 'HOLDEM'"


def test_a_cancelled_hand_is_cancelled_and_no_limit_is_not_stud() -> None:
    line, hand = bovada.split(OLD.replace("*** HOLE CARDS ***", "Hand cancelled", 1))[0]
    with pytest.raises(Cancelled) as cancelled:
        bovada.parse(hand, line)
    assert cancelled.value.line == 8
    line, hand = bovada.split(OLD.replace("7CARD Fixed Limit", "7CARD No Limit", 1))[0]
    with pytest.raises(SiteError) as error:
        bovada.parse(hand, line)
    assert error.value.reason.startswith("not a stud hand: No Limit 7CARD")


def test_a_missing_deal_line_under_a_street_header_is_refused() -> None:
    lines = NEW.split("\n")
    fourth = lines.index("*** 4TH STREET ***")
    dealt = next(k for k in range(fourth, len(lines)) if "Card dealt to a spot" in lines[k])
    del lines[dealt]  # that player's fifth-street card would now pass for his fourth
    ((line, text),) = bovada.split("\n".join(lines))
    with pytest.raises(SiteError, match="a deal line is missing"):
        bovada.parse(text, line)


MTT = read_text(FIXTURES / "7-Stud-USD-MTT-10-1-201206.first9hands.txt")


def test_a_tournaments_sit_out_rejoin_ranking_and_stand_lines_carry_no_chips() -> None:
    """An Ignition tournament writes who sits out and comes back, and a player knocked out's
    place and leaving: lines that move no chips, read like the other sites' sit-out lines."""
    lines = MTT.split("\n")
    lines[118:118] = ["Seat+7 : Ranking 18 ", "Seat+7 : Stand"]  # after the hand's result
    lines[101:101] = ["Seat+1 : Sit out", "Seat+1 : Re-join"]  # after "Seat+1 : Folds"
    quiet = hands("\n".join(lines))
    assert [h.steps for h in quiet] == [h.steps for h in hands(MTT)]
