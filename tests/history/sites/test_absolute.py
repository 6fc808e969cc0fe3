"""Absolute Poker's format (the fixtures' "other" folder): names matched whatever their case,
cards so far each street, shows and collections, the pot checked against the summary, lines
it cannot read; the fixture hand replays exactly."""

from __future__ import annotations

from pathlib import Path

import pytest

from stud.cards import parse_cards
from stud.history.phh import dumps
from stud.history.replay import replay_file
from stud.history.sites import SiteError, absolute, read_text, to_history
from stud.history.sites.model import Ante, Collected, Dealt, Shown, SiteHand
from stud.rules import Variant

TEXT = read_text(Path(__file__).parent / "fixtures" / "other" /
                 "7-StudHL-USD-0.02-0.04-200903.River.with.mucked.txt")


def parsed(text: str = TEXT) -> SiteHand:
    ((line, hand),) = absolute.split(text)
    return absolute.parse(hand, line)


def test_the_fixture_hand_replays_exactly(tmp_path: Path) -> None:
    assert absolute.detect(TEXT)
    phh = tmp_path / "hand.phh"
    phh.write_text(dumps(to_history(parsed())), encoding="utf-8")
    report = replay_file(phh)
    assert report.ok and report.checked, report.error


def test_header_names_cards_and_results() -> None:
    hand = parsed()
    assert (hand.hand, hand.variant, hand.small_bet, hand.big_bet, hand.ante) == (
        "1300000000", Variant.STUD8, 2, 4, 1)
    assert (hand.currency, hand.rake, hand.bring_in) == ("USD", 4, 1)
    assert Ante("PLAYER1", 1) in hand.steps  # written "Player1 - Ante $0.01"
    assert Dealt("PLAYER4", 3, tuple(parse_cards("Tc5c7s"))) in hand.steps
    assert Dealt("PLAYER1", 4, tuple(parse_cards("Td"))) in hand.steps
    assert Dealt("PLAYER1", 7, (None,)) in hand.steps  # "H"
    assert Shown("PLAYER7", tuple(parse_cards("5s8d3sQc6cQs9s"))) in hand.steps
    assert [s for s in hand.steps if isinstance(s, Collected)] == [
        Collected("PLAYER3", 19), Collected("PLAYER6", 20)]


def test_the_pot_must_agree_with_the_summary() -> None:
    with pytest.raises(SiteError) as error:
        parsed(TEXT.replace("Total Pot($0.43)", "Total Pot($0.45)"))
    assert error.value.line == 81
    assert error.value.reason == "the actions put 43 in the pot, the summary says 45"


def test_a_line_it_cannot_read_names_its_line() -> None:
    with pytest.raises(SiteError) as error:
        parsed(TEXT.replace("PLAYER2 - Folds", "PLAYER2 - Leaps", 1))
    assert error.value.line == 26 and "Leaps" in error.value.reason


def test_other_games_are_not_stud() -> None:
    with pytest.raises(SiteError) as error:
        parsed(TEXT.replace("Seven Card Hi/Lo  Normal", "Holdem  No Limit", 1))
    assert error.value.reason == "not a stud hand: the game is 'Holdem  No Limit'"
