"""Everleaf's formats: the old one with no cards written, the new one with every up card; the
uncalled bet given back and the rake worked out, shown hands put back in dealing order, lines
it cannot read; the new format's hands replay exactly."""

from __future__ import annotations

from pathlib import Path

import pytest

from stud.cards import parse_cards
from stud.history.phh import dumps
from stud.history.replay import replay_file
from stud.history.sites import SiteError, everleaf, read_text, to_history
from stud.history.sites.model import Act, Collected, Dealt, Mucked, Returned, Shown, SiteHand
from stud.rules import Variant

FIXTURES = Path(__file__).parent / "fixtures" / "everleaf"
NEW = read_text(FIXTURES / "7-Stud-EUR-0.05-0.10.201108-new-format.txt")
OLD = read_text(FIXTURES / "7-Stud-USD-0.05-0.10.201107.txt")
def hands(text: str) -> list[SiteHand]:
    return [everleaf.parse(hand, line) for line, hand in everleaf.split(text)]


def test_the_new_format_hands_replay_exactly(tmp_path: Path) -> None:
    """(The old format's hands are replayed by test_import with every fixture.)"""
    assert everleaf.detect(NEW) and everleaf.detect(OLD)
    for hand in hands(NEW):
        phh = tmp_path / f"{hand.hand}.phh"
        phh.write_text(dumps(to_history(hand)), encoding="utf-8")
        report = replay_file(phh)
        assert report.ok and report.checked, report.error


def test_headers_and_stakes() -> None:
    first = hands(NEW)[0]
    assert (first.hand, first.variant, first.small_bet, first.big_bet, first.ante) == (
        "295679510", Variant.STUD, 5, 10, 1)
    assert (first.currency, first.table, first.time) == ("EUR", "Harjavalta",
                                                         "2011/08/12 - 13:09:06")
    assert first.bring_in == 2 and hands(OLD)[0].currency == "USD"


def test_the_uncalled_bet_goes_back_and_the_rake_is_what_the_pot_kept() -> None:
    first = hands(NEW)[0]  # MOURINHO_ bets 0.05 on fourth street, EricBlade folds
    assert Returned("MOURINHO_", 5) in first.steps and Collected("MOURINHO_", 12) in first.steps
    assert first.rake == 0
    assert hands(NEW)[1].rake == 2  # 0.42 in, 0.40 won


def test_each_hands_stacks_are_the_next_hands() -> None:
    """With the uncalled bets given back, every player ends where the next hand starts him
    (the one exception: Player1 buys more chips between two hands)."""
    for text in (NEW, OLD):
        played = hands(text)
        for hand, after in zip(played, played[1:], strict=False):
            history = to_history(hand)
            ended = dict(zip(history.fields["players"], history.finishing_stacks or [],
                             strict=True))
            for seat in after.seats:
                if seat.name in ended and (after.hand, seat.name) != ("285998978", "Player1"):
                    assert ended[seat.name] == seat.stack, (hand.hand, seat.name)


def test_the_new_format_writes_up_cards_the_old_none() -> None:
    first = hands(NEW)[0]
    assert Dealt("MOURINHO_", 3, (None, None, *parse_cards("Ah"))) in first.steps
    assert Dealt("EricBlade", 3, tuple(parse_cards("5dQs7s"))) in first.steps
    old = hands(OLD)[0]
    assert Dealt("Player1", 3, (None, None, None)) in old.steps
    # Every player still in gets a river card, known or not.
    second = hands(NEW)[1]
    assert Dealt("MOURINHO_", 7, (None,)) in second.steps
    assert Dealt("EricBlade", 7, tuple(parse_cards("Js"))) in second.steps


def test_a_shown_hand_is_put_back_in_dealing_order() -> None:
    second = hands(NEW)[1]  # "EricBlade shows [ Js, 4d, Ks, Ac, 9d, Qh, 5c ]"
    assert Shown("EricBlade", tuple(parse_cards("5c4dKsAc9dQhJs"))) in second.steps


def test_wagers_add_chips_a_completion_is_a_total() -> None:
    second = hands(NEW)[1]
    acts = [s for s in second.steps if isinstance(s, Act)][:4]
    assert acts == [Act("MOURINHO_", "cbr", 5), Act("EricBlade", "cbr", 10),
                    Act("MOURINHO_", "cbr", 10), Act("EricBlade", "cc", 5)]
    old = hands(OLD)[1]
    assert Act("Player3", "cbr", 5, to=True) in old.steps  # "completes to $0.05."


def test_a_loser_who_does_not_show_mucks() -> None:
    third = hands(OLD)[2]  # Player4 "does not show cards" at the showdown
    assert Mucked("Player4") in third.steps


def test_a_line_it_cannot_read_names_its_line() -> None:
    text = NEW.replace("EricBlade calls [€ 0.03 EURO]", "EricBlade waves [€ 0.03 EURO]", 1)
    line, hand = everleaf.split(text)[0]
    with pytest.raises(SiteError) as error:
        everleaf.parse(hand, line)
    assert error.value.line == 15 and "waves" in error.value.reason


def test_other_games_are_not_stud() -> None:
    text = NEW.replace("€0.05/€0.10 7 Card Stud", "€0.05/€0.10 Hold'em Limit", 1)
    line, hand = everleaf.split(text)[0]
    with pytest.raises(SiteError) as error:
        everleaf.parse(hand, line)
    assert error.value.reason == "not a stud hand: the game is \"Hold'em Limit\""
