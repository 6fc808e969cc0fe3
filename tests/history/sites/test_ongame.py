"""Ongame's formats: the table line's game and stakes, small and big bring-ins, a raise's
total for the hand, shows and mucks from the summary, its stacks checked, lines it cannot
read; every fixture hand replays exactly."""

from __future__ import annotations

from pathlib import Path

import pytest

from stud.cards import parse_cards
from stud.history.phh import dumps
from stud.history.replay import replay_file
from stud.history.sites import SiteError, ongame, read_text, to_history
from stud.history.sites.model import Act, Collected, Dealt, Mucked, Shown, SiteHand
from stud.rules import Variant

FIXTURES = Path(__file__).parent / "fixtures" / "ongame"
BIG = read_text(FIXTURES / "7-Stud-USD-1.00-2.00-201212.big.bring.txt")
HILO = read_text(FIXTURES / "7-StudHL-USD-0.25-0.50-201008.All.streets.txt")


def parsed(text: str) -> SiteHand:
    ((line, hand),) = ongame.split(text)
    return ongame.parse(hand, line)


@pytest.mark.parametrize("text", [BIG, HILO], ids=["big-bring", "hilo"])
def test_every_fixture_hand_replays_exactly(text: str, tmp_path: Path) -> None:
    assert ongame.detect(text)
    phh = tmp_path / "hand.phh"
    phh.write_text(dumps(to_history(parsed(text))), encoding="utf-8")
    report = replay_file(phh)
    assert report.ok and report.checked, report.error


def test_headers() -> None:
    big, hilo = parsed(BIG), parsed(HILO)
    assert (big.hand, big.variant, big.small_bet, big.big_bet, big.ante) == (
        "R5-292493407-77", Variant.STUD, 100, 200, 10)
    assert (big.table, big.currency, big.rake) == ("Winnipeg", "USD", 50)
    assert (hilo.variant, hilo.small_bet, hilo.ante, hilo.bring_in) == (Variant.STUD8, 25, 5,
                                                                        12)


def test_a_big_bring_in_completes() -> None:
    hand = parsed(BIG)
    acts = [s for s in hand.steps if isinstance(s, Act)]
    assert acts[:3] == [Act("Hero", "cbr", 100), Act("Player0", "cbr", 200),
                        Act("Hero", "cc", 100)]
    assert hand.bring_in == 0  # nobody brought in for less


def test_a_raise_to_is_the_players_total_for_the_hand() -> None:
    hand = parsed(HILO)
    # Fifth street: "raises $1 to $1.37", 1.37 = 0.12 + 0.25 + 1.00 the hand's total.
    assert Act("XMAN1", "cbr", 100) in hand.steps
    assert Collected("XMAN1", 489) in hand.steps


def test_the_summary_shows_and_the_others_still_in_muck() -> None:
    big = parsed(BIG)
    assert Shown("Player0", tuple(parse_cards("6d4c7d6s8cAs8d"))) in big.steps
    assert Mucked("Hero") in big.steps
    assert Dealt("Player0", 7, (None,)) in big.steps  # the river is the owner's alone


def test_the_summary_stacks_must_agree() -> None:
    text = BIG.replace("Seat 3: Hero ($22.10), net: -$5.10", "Seat 3: Hero ($22.20), net: -$5")
    with pytest.raises(SiteError) as error:
        parsed(text)
    assert error.value.line == 47
    assert error.value.reason == "the summary leaves Hero 2220, the actions 2210"


def test_a_line_it_cannot_read_names_its_line() -> None:
    text = BIG.replace("Hero calls $1\n", "Hero sings $1\n", 1)
    with pytest.raises(SiteError) as error:
        parsed(text)
    assert error.value.line == 17 and "sings" in error.value.reason


def test_other_games_are_not_stud() -> None:
    text = BIG.replace("LIMIT SEVEN_CARD_STUD $1/$2", "NO_LIMIT TEXAS_HOLDEM $1/$2")
    with pytest.raises(SiteError) as error:
        parsed(text)
    assert error.value.reason == "not a stud hand: the game is NO_LIMIT TEXAS_HOLDEM"
