"""Kings Club's formats: street markers one behind, wagers written as totals, the uncalled bet
given back, the summary's stacks checked; the hands the rules allow replay exactly, and the two
whose raises the site made short of a full raise are refused by the engine."""

from __future__ import annotations

from pathlib import Path

import pytest

from stud.cards import parse_cards
from stud.history.phh import dumps
from stud.history.replay import replay_file
from stud.history.sites import Cancelled, SiteError, kingsclub, read_text, to_history
from stud.history.sites.model import Act, Dealt, Returned, Shown, SiteHand
from stud.rules import Variant

FIXTURES = Path(__file__).parent / "fixtures" / "kingsclub"
# Hands whose raises KingsClub made short of what RULES.md allows (a real difference of rules):
DIFFERENCES = Path(__file__).parent / "differences" / "kingsclub"
STUD = read_text(DIFFERENCES / "7-Stud-USD-44-88-202010.txt")
HILO = read_text(FIXTURES / "7-StudHL-USD-40-80-202101.txt")
RAZZ = read_text(FIXTURES / "Razz-USD-40-80-202101.txt")
MULTI = read_text(DIFFERENCES / "Razz-USD-500-100-202101.multi.pot.failure.txt")


def parsed(text: str) -> SiteHand:
    ((line, hand),) = kingsclub.split(text)
    return kingsclub.parse(hand, line)


def replayed(text: str, tmp_path: Path) -> tuple[bool, str | None]:
    phh = tmp_path / "hand.phh"
    phh.write_text(dumps(to_history(parsed(text))), encoding="utf-8")
    report = replay_file(phh)
    return report.ok and report.checked, report.error


@pytest.mark.parametrize("text", [HILO, RAZZ], ids=["hilo", "razz"])
def test_hands_the_rules_allow_replay_exactly(text: str, tmp_path: Path) -> None:
    assert kingsclub.detect(text)
    ok, error = replayed(text, tmp_path)
    assert ok, error


@pytest.mark.parametrize(("text", "refused"), [
    # After "bets 44" (the completion) "raises to 77.16": 33.16 more, short of a raise of 44.
    (STUD, "action 9 ('p4 cbr 7716'): seat 4 cannot raise 7716: the amount must be 8800"),
    # After a short all in for 225, "raises to 625": not the completion to 500.
    (MULTI, "action 13 ('p5 cbr 62500'): seat 5 cannot complete to 62500: the amount must be "
            "50000"),
], ids=["stud", "razz"])
def test_raises_the_site_made_short_are_refused(text: str, refused: str,
                                                tmp_path: Path) -> None:
    """What the site did is read right: the summary's stacks agree with the reader's count,
    to the cent (parsed checks them); the engine refuses the site's short raise."""
    ok, error = replayed(text, tmp_path)
    assert not ok and error is not None and refused in error


def test_headers() -> None:
    hand = parsed(STUD)
    assert (hand.hand, hand.variant, hand.small_bet, hand.big_bet) == ("37581152",
                                                                       Variant.STUD, 4400, 8800)
    assert (hand.table, hand.time, hand.currency, hand.rake) == (
        "Real Deal Mix", "2020-10-26 19:00:47", "USD", 500)
    assert parsed(HILO).variant is Variant.STUD8 and parsed(RAZZ).variant is Variant.RAZZ


def test_street_markers_are_one_behind() -> None:
    hand = parsed(HILO)
    # Cards before any marker are third street; "*** 3RD STREET ***" deals the fourth card,
    # "*** 6TH STREET ***" the river ("[X]" for Player0).
    assert Dealt("Player0", 3, (None, None, *parse_cards("Td"))) in hand.steps
    assert Dealt("Player0", 4, tuple(parse_cards("Ks"))) in hand.steps
    assert Dealt("Player0", 7, (None,)) in hand.steps
    assert Shown("Player0", tuple(parse_cards("7sTsTdKs5d6dKh"))) in hand.steps


def test_calls_and_raises_are_totals_and_the_uncalled_bet_goes_back() -> None:
    hand = parsed(MULTI)
    assert Act("Player1", "cc", 62500, to=True) in hand.steps  # 500 more after 125
    assert Act("Player3", "cbr", 22500, to=True) in hand.steps  # "bets 225, and is all in"
    assert Returned("Player4", 100000) in hand.steps  # the fifth-street bet nobody called
    shown = [s for s in hand.steps if isinstance(s, Shown)]
    assert [len(s.cards) for s in shown] == [5, 5]  # shown all in, before the last cards


def test_the_summary_stacks_must_agree() -> None:
    text = RAZZ.replace("Seat 6: Hero (2,107.40) +49", "Seat 6: Hero (2,147.40) +89")
    with pytest.raises(SiteError) as error:
        parsed(text)
    assert error.value.line == 20
    assert error.value.reason == "the summary leaves Hero 214740, the actions 210740"


def test_other_games_are_not_stud() -> None:
    for game in ("Limit 2-7 Razz", "No Limit Holdem", "Limit Five Card Stud"):
        text = RAZZ.replace("Limit Razz", game, 1)
        with pytest.raises(SiteError) as error:
            parsed(text)
        assert error.value.reason == f"not a stud hand: the game is {game!r}"


def test_a_cancelled_hand_is_cancelled() -> None:
    text = RAZZ.replace("*** 3RD STREET ***", "Hand cancelled\n*** 3RD STREET ***")
    with pytest.raises(Cancelled) as error:
        parsed(text)
    assert error.value.line == 13
