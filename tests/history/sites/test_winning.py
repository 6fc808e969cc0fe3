"""The Winning Poker Network's format: the header's game and stakes, cards with the new one
last, running pot lines passed over, the uncalled bet, winnings from the summary, lines it
cannot read; the fixture hand replays exactly."""

from __future__ import annotations

from pathlib import Path

import pytest

from stud.cards import parse_cards
from stud.history.phh import dumps
from stud.history.replay import replay_file
from stud.history.sites import SiteError, read_text, to_history, winning
from stud.history.sites.model import Act, Collected, Dealt, Returned, SiteHand
from stud.rules import Variant

TEXT = read_text(Path(__file__).parent / "fixtures" / "winning" /
                 "7Stud-8max-USD-0.04-0.08-201907.CASHID-TN-Gorham-GAMETYPE.txt")


def parsed(text: str = TEXT) -> SiteHand:
    ((line, hand),) = winning.split(text)
    return winning.parse(hand, line)


def test_the_fixture_hand_replays_exactly(tmp_path: Path) -> None:
    assert winning.detect(TEXT)
    phh = tmp_path / "hand.phh"
    phh.write_text(dumps(to_history(parsed())), encoding="utf-8")
    report = replay_file(phh)
    assert report.ok and report.checked, report.error


def test_header_cards_and_results() -> None:
    hand = parsed()
    assert (hand.hand, hand.variant, hand.small_bet, hand.big_bet, hand.ante) == (
        "85198832", Variant.STUD, 4, 8, 1)
    assert (hand.table, hand.currency, hand.rake, hand.bring_in) == ("Gorham", "USD", 1, 2)
    assert Dealt("Player2", 3, (None, None, *parse_cards("Qd"))) in hand.steps
    assert Dealt("Player2", 4, tuple(parse_cards("2d"))) in hand.steps
    assert Dealt("Player2", 7, (None,)) in hand.steps  # the river is the owner's alone
    assert Act("Hero", "cbr", 4, to=True) in hand.steps  # "raises $0.04 to $0.04"
    assert Returned("Player2", 8) in hand.steps
    assert [s for s in hand.steps if isinstance(s, Collected)] == [Collected("Player2", 36)]


def test_a_line_it_cannot_read_names_its_line() -> None:
    with pytest.raises(SiteError) as error:
        parsed(TEXT.replace("Player3 folds", "Player3 yawns", 1))
    assert error.value.line == 22 and "yawns" in error.value.reason


def test_other_games_are_not_stud() -> None:
    with pytest.raises(SiteError) as error:
        parsed(TEXT.replace("7Stud(Fixed Limit)", "Holdem(No Limit)", 1))
    assert error.value.reason == "not a stud hand: the game is Holdem(No Limit)"
