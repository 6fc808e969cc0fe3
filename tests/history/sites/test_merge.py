"""Merge's XML: games after their description, mixed games by their current game, cards so far
each round, events in order, raises as totals, uncalled winners given back, no-limit stud
skipped, events it cannot read; every fixed-limit fixture hand replays exactly."""

from __future__ import annotations

from pathlib import Path

import pytest

from stud.cards import parse_cards
from stud.history.phh import dumps
from stud.history.replay import replay_file
from stud.history.sites import SiteError, merge, read_text, to_history
from stud.history.sites.model import Act, Collected, Dealt, Mucked, Returned, Shown, SiteHand
from stud.rules import Variant

FIXTURES = Path(__file__).parent / "fixtures" / "merge"
HILO = read_text(FIXTURES / "7-StudHL-USD-0.25-0.50-201307.no.null.xml")
HORSE = read_text(FIXTURES / "HORSE-8max-USD-0.25-0.50-201409.new.format.txt")
RAZZ = read_text(FIXTURES / "Razz-USD-0.50-1.00-201111.allIn.txt")
NO_LIMIT = read_text(Path(__file__).parent / "other-games" / "merge" /
                     "NL7-StudHL-0.01-0.02-0.10-201204.xml")


def hands(text: str) -> list[SiteHand]:
    return [merge.parse(hand, line) for line, hand in merge.split(text)]


@pytest.mark.parametrize("text", [HILO, HORSE, RAZZ], ids=["hilo", "horse", "razz"])
def test_every_fixed_limit_hand_replays_exactly(text: str, tmp_path: Path) -> None:
    assert merge.detect(text)
    for k, hand in enumerate(hands(text)):
        phh = tmp_path / f"{k}.phh"
        phh.write_text(dumps(to_history(hand)), encoding="utf-8")
        report = replay_file(phh)
        assert report.ok and report.checked, report.error


def test_games_and_their_description() -> None:
    assert [line for line, _ in merge.split(HORSE)] == [3, 84, 131]
    played = hands(HORSE)
    assert [h.variant for h in played] == [Variant.STUD8] * 3  # HORSE, multigametype 43
    first = played[0]
    assert (first.hand, first.small_bet, first.big_bet, first.ante, first.bring_in) == (
        "78854953-355", 25, 50, 2, 5)
    assert (first.table, first.currency, first.game) == ("Pony II", "USD", "HORSE")
    assert hands(RAZZ)[0].variant is Variant.RAZZ


def test_cards_so_far_give_each_streets_new_card() -> None:
    (hand,) = hands(HILO)
    assert Dealt("Player1", 3, (None, None, *parse_cards("5h"))) in hand.steps
    assert Dealt("Player3", 4, tuple(parse_cards("8s"))) in hand.steps
    assert Dealt("Player4", 7, (None,)) in hand.steps  # ",,7h,6s,Ad,3s,"
    assert not any(isinstance(s, Dealt) and s.player == "Player0" for s in hand.steps)
    assert Shown("Player5", tuple(parse_cards("5c2c3h4hQc4d4s"))) in hand.steps
    assert Mucked("Player4") in hand.steps
    assert Shown("Player4", tuple(parse_cards("7dKh7h6sAd3sJd")), mucked=True) in hand.steps


def test_raises_are_totals_and_all_ins_add() -> None:
    (hand,) = hands(RAZZ)
    acts = [s for s in hand.steps if isinstance(s, Act)]
    # Hero brings in 0.10 and "RAISE"s 1.00: 0.90 more; then 2.00: 1.00 more.
    assert acts[:8] == [Act("Hero", "pb", 10), Act("Player1", "cbr", 50),
                        Act("Player2", "cc", 50), Act("Hero", "cbr", 90),
                        Act("Player1", "cbr", 100), Act("Player2", "cc", 100),
                        Act("Hero", "cbr", 100), Act("Player1", "cc", 50)]
    assert Act("Hero", "cbr", 91) in acts  # ALL_IN 0.91 over a bet of 0.50: a raise
    assert hand.rake == 39


def test_an_uncalled_winner_is_a_bet_given_back() -> None:
    second = hands(HORSE)[1]
    assert Returned("Player0", 25) in second.steps and Collected("Player0", 24) in second.steps


def test_no_limit_stud_is_skipped() -> None:
    ((line, hand),) = merge.split(NO_LIMIT)
    with pytest.raises(SiteError) as error:
        merge.parse(hand, line)
    assert error.value.reason.startswith("not a stud hand: No Limit")


def test_an_event_it_cannot_read_names_its_line() -> None:
    text = HILO.replace('type="CHECK" timestamp="1373942130381"',
                        'type="DANCE" timestamp="1373942130381"')
    ((line, hand),) = merge.split(text)
    with pytest.raises(SiteError) as error:
        merge.parse(hand, line)
    assert error.value.line == 42 and error.value.reason == "cannot read the event 'DANCE'"
