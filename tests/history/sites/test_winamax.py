"""Winamax's formats: the (ante/small/big) header, real and play money, both street names,
cards written or not, a raise's total that leaves out the bring-in, winnings holding the
uncalled bet, the pot checked against the summary; every fixture hand replays exactly."""

from __future__ import annotations

from pathlib import Path

import pytest

from stud.cards import parse_cards
from stud.history.phh import dumps
from stud.history.replay import replay_file
from stud.history.sites import SiteError, read_text, to_history, winamax
from stud.history.sites.model import Act, Collected, Dealt, Shown, SiteHand
from stud.rules import Variant

FIXTURES = Path(__file__).parent / "fixtures" / "winamax"
NEGATIVE = read_text(FIXTURES / "7-Stud-6max-EUR-25-50-201611._8games_.negative.bet.txt")
HILO = read_text(FIXTURES / "7-StudHL-6max-EUR-25-50-201611._8games_.txt")
PLAY = read_text(FIXTURES / "7-Stud-6max-play-0.5-0.10-201606.export.txt")
RAZZ = read_text(FIXTURES / "Razz-6max-EUR-25-50-201611._8games_.txt")


def parsed(text: str) -> SiteHand:
    ((line, hand),) = winamax.split(text)
    return winamax.parse(hand, line)


@pytest.mark.parametrize("path", sorted(FIXTURES.iterdir()), ids=lambda p: p.name)
def test_every_fixture_hand_replays_exactly(path: Path, tmp_path: Path) -> None:
    text = read_text(path)
    assert winamax.detect(text)
    for k, (line, hand) in enumerate(winamax.split(text)):
        phh = tmp_path / f"{k}.phh"
        phh.write_text(dumps(to_history(winamax.parse(hand, line))), encoding="utf-8")
        report = replay_file(phh)
        assert report.ok and report.checked, report.error


@pytest.mark.parametrize(("text", "variant", "stakes", "currency"), [
    (NEGATIVE, Variant.STUD, (500, 2500, 5000), "EUR"),
    (HILO, Variant.STUD8, (500, 2500, 5000), "EUR"),
    (RAZZ, Variant.RAZZ, (500, 2500, 5000), "EUR"),
    (PLAY, Variant.STUD, (1, 5, 10), None),
])
def test_headers(text: str, variant: Variant, stakes: tuple[int, int, int],
                 currency: str | None) -> None:
    hand = parsed(text)
    assert hand.variant is variant and (hand.ante, hand.small_bet, hand.big_bet) == stakes
    assert hand.currency == currency and hand.table in ("Pampelune", "Ceské Budejovice")


def test_a_raise_to_leaves_out_the_bring_in() -> None:
    hand = parsed(NEGATIVE)
    # "Player0 brings in 10€", "raises -6.10€ to 18.90€": all in for 18.90 more (28.90 in
    # all), and Player1 calls 3.90 more to match it.
    acts = [s for s in hand.steps if isinstance(s, Act)]
    assert acts == [Act("Player0", "pb", 1000), Act("Player1", "cbr", 2500),
                    Act("Hero", "f"), Act("Player0", "cbr", 1890), Act("Player1", "cc", 390)]
    assert to_history(hand).finishing_stacks == [3390 - 500 - 2890 + 7030, 241780 - 500 - 2890,
                                                 80207 - 500]


def test_unknown_cards_written_or_not() -> None:
    hand = parsed(RAZZ)
    assert Dealt("Player0", 3, (None, None, *parse_cards("8h"))) in hand.steps
    assert Dealt("Player0", 4, tuple(parse_cards("4h"))) in hand.steps
    play = parsed(PLAY)  # an export: no cards written, the showdown's shown in full
    assert Dealt("Player1", 3, (None, None, None)) in play.steps
    assert Shown("Player2", tuple(parse_cards("4hKd5h4sKc3s2d"))) in play.steps
    hilo = parsed(HILO)
    assert Dealt("Player0", 7, (None,)) in hilo.steps  # "[X]"


def test_the_winner_collects_the_uncalled_bet_hi_and_lo() -> None:
    hand = parsed(HILO)  # Player0 bets 50 on the river, Hero folds; no uncalled-bet line
    assert [s for s in hand.steps if isinstance(s, Collected)] == [
        Collected("Player0", 11400), Collected("Player0", 11400)]
    assert hand.rake == 200 and to_history(hand).finishing_stacks == [202603 - 9000,
                                                                        57200 - 14000 + 22800]


def test_the_pot_must_agree_with_the_summary() -> None:
    text = RAZZ.replace("Total pot 258€ | Rake 2€", "Total pot 250€ | Rake 2€")
    with pytest.raises(SiteError) as error:
        parsed(text)
    assert error.value.reason == ("the actions put 26000 in the pot, the summary says 25000 "
                                  "and a rake of 200")


def test_a_line_it_cannot_read_names_its_line() -> None:
    text = RAZZ.replace("Hero calls 15€", "Hero thinks 15€")
    with pytest.raises(SiteError) as error:
        parsed(text)
    assert error.value.line == 13 and "thinks" in error.value.reason


def test_other_games_are_not_stud() -> None:
    text = RAZZ.replace("Razz fixed limit", "Holdem no limit", 1)
    with pytest.raises(SiteError) as error:
        parsed(text)
    assert error.value.reason == "not a stud hand: the game is 'Holdem no limit'"
