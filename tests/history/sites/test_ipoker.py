"""iPoker's XML: sessions split into hands with their lines kept, actions in their order, the
raise kinds, winnings holding uncalled bets, the bets checked, empty seats and players not dealt
in, hands that are not stud; every fixture hand replays exactly."""

from __future__ import annotations

from pathlib import Path

import pytest

from stud.cards import Card
from stud.history.phh import dumps
from stud.history.replay import replay_file
from stud.history.sites import SiteError, ipoker, read_text, to_history
from stud.history.sites.model import Act, Ante, Collected, Dealt, Mucked, Shown, SiteHand
from stud.rules import Variant

FIXTURES = Path(__file__).parent / "fixtures" / "ipoker"
HILO = read_text(FIXTURES / "7-StudHL-EUR-0.05-0.10-201405.txt")
STUD = read_text(FIXTURES / "7-StudL-USD-0.05-0.10-201009.txt")


def hands(text: str) -> list[SiteHand]:
    return [ipoker.parse(hand, line) for line, hand in ipoker.split(text)]


@pytest.mark.parametrize("path", sorted(FIXTURES.iterdir()), ids=lambda p: p.name)
def test_every_fixture_hand_replays_exactly(path: Path, tmp_path: Path) -> None:
    text = read_text(path)
    assert ipoker.detect(text)
    for k, hand in enumerate(hands(text)):
        phh = tmp_path / f"{k}.phh"
        phh.write_text(dumps(to_history(hand)), encoding="utf-8")
        report = replay_file(phh)
        assert report.ok and report.checked, report.error


def test_each_game_is_a_hand_with_its_sessions_game_and_its_own_line() -> None:
    assert [line for line, _ in ipoker.split(HILO)] == [22, 51, 80, 97, 126]
    first = hands(HILO)[0]
    assert (first.hand, first.variant, first.small_bet, first.big_bet) == (
        "5710054735", Variant.STUD8, 5, 10)
    assert (first.table, first.currency, first.time) == (
        "Beignon, 826907366", "EUR", "2014-05-10 18:02:19")
    stud = hands(STUD)[0]
    assert stud.variant is Variant.STUD and stud.currency == "USD" and stud.ante == 1


def test_actions_go_by_their_number_and_raises_to_are_totals() -> None:
    second = hands(HILO)[1]
    acts = [s for s in second.steps if isinstance(s, Act)]
    # Sixth street: Hero bets 0.10 (no. 9), Player0 raises to 0.20 (10), Hero to 0.30 (11,
    # "sum" 0.30 is his total), Player0 calls 0.10 (12); the river: Player0 all in for 0.11
    # more over Hero's 0.10 bet: a raise.
    assert acts[6:10] == [Act("Hero", "cbr", 10), Act("Player0", "cbr", 20),
                          Act("Hero", "cbr", 20), Act("Player0", "cc", 10)]
    assert acts[10:] == [Act("Hero", "cbr", 10), Act("Player0", "cbr", 11),
                         Act("Hero", "cc", 1)]
    def dealt(name: str) -> tuple[Card | None, ...]:
        return tuple(c for s in second.steps if isinstance(s, Dealt) and s.player == name
                     for c in s.cards)

    # Both reach the showdown with every card written: both show them all.
    assert [s for s in second.steps if isinstance(s, Shown | Mucked)] == [
        Shown("Player0", dealt("Player0")), Shown("Hero", dealt("Hero"))]
    assert None not in dealt("Player0") and len(dealt("Player0")) == 7


def test_the_winner_collects_the_uncalled_bet_and_the_rake_is_what_the_pot_kept() -> None:
    last = hands(HILO)[4]  # Player0 bets 0.05 on fourth street, Hero folds
    assert Collected("Player0", 17) in last.steps and last.rake == 0
    assert hands(STUD)[1].rake == 1  # 0.44 bet, 0.43 won


def test_empty_seats_and_players_not_dealt_in() -> None:
    hand = hands(STUD)[0]
    assert len(hand.seats) == 8  # ten seats, two empty
    history = to_history(hand)
    assert "ad1028" not in history.fields["players"]  # seated, no ante, no cards
    assert not any(isinstance(s, Ante) and s.player == "ad1028" for s in hand.steps)


def test_bets_that_disagree_with_the_actions_name_the_players_line() -> None:
    text = HILO.replace('name="Hero" chips="€2.86" dealer="0" win="€0.79" bet="€0.41"',
                        'name="Hero" chips="€2.86" dealer="0" win="€0.79" bet="€0.51"', 1)
    line, hand = ipoker.split(text)[0]
    with pytest.raises(SiteError) as error:
        ipoker.parse(hand, line)
    assert error.value.line == 26
    assert error.value.reason == "Hero bets 41 by the actions, but 51 by the history"


def test_an_unknown_action_type_names_its_line() -> None:
    text = HILO.replace('<action no="4" player="Player0" type="3"',
                        '<action no="4" player="Player0" type="99"', 1)
    line, hand = ipoker.split(text)[0]
    with pytest.raises(SiteError) as error:
        ipoker.parse(hand, line)
    assert error.value.line == 36 and error.value.reason == "cannot read action type '99'"


@pytest.mark.parametrize("game", ["Holdem NL €0.05/€0.10", "5 Card Stud L €0.05/€0.10"])
def test_other_games_are_skipped(game: str) -> None:
    text = HILO.replace("7 Card Stud Hi-Lo L €0.05/€0.10", game)
    line, hand = ipoker.split(text)[0]
    with pytest.raises(SiteError) as error:
        ipoker.parse(hand, line)
    assert error.value.reason.startswith("not a stud hand")
