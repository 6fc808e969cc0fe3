"""PokerStars' formats: headers of every kind, who is dealt in, the rake, lines it cannot read."""

from __future__ import annotations

from pathlib import Path

import pytest

from stud.history.phh import loads
from stud.history.replay import replay_file
from stud.history.sites import SiteError, pokerstars, to_history
from stud.rules import Variant

FIXTURES = Path(__file__).parent / "fixtures" / "pokerstars"
COMMUNITY = (FIXTURES / "7-Stud-USD-0.04-0.08-200907.Missing.Showdown.Card.txt").read_text()
SIDE_POT = (FIXTURES / "7-Stud-USD-0.04-0.08-201205.side.pot.rake.txt").read_text()
CHIPS = (FIXTURES / "Razz-8max-USD-200-15-201009.bracket.in.alias.txt").read_text()


def parsed(text: str):  # noqa: ANN201
    ((line, hand),) = pokerstars.split(text)
    return pokerstars.parse(hand, line)


def with_header(text: str, header: str) -> str:
    return header + "\n" + text.split("\n", 1)[1]


@pytest.mark.parametrize(("header", "variant", "stakes", "tournament"), [
    ("PokerStars Hand #1: HORSE (Razz Limit, $0.10/$0.20) - 2010/05/05 1:00:00 ET",
     Variant.RAZZ, (10, 20), None),
    ("PokerStars Hand #1: 8-Game (7 Card Stud Hi/Lo Limit, $2/$4 USD) - 2016/11/05 1:00:00 ET",
     Variant.STUD8, (200, 400), None),
    ("PokerStars Game #1: TOURNAMENT #169962475, $10+$1 7 CARD STUD HI/LO LIMIT - LEVEL I "
     "(25/50) - 2009/06/14 11:45:00 ET", Variant.STUD8, (25, 50), "169962475"),
    ("PokerStars Hand #1: Tournament #2010090015, $200+$15 USD Razz Limit - Level IV (50/100) "
     "- 2010/09/09 18:27:23 ET", Variant.RAZZ, (50, 100), "2010090015"),
    ("PokerStars Game #1:  7 Card Stud Limit ($0.04/$0.08) - 2006/07/31 - 16:55:13 (ET)",
     Variant.STUD, (4, 8), None),
])
def test_headers_old_and_new_cash_tournament_and_mixed(header: str, variant: Variant,
                                                       stakes: tuple[int, int],
                                                       tournament: str | None) -> None:
    hand = parsed(with_header(CHIPS if tournament else COMMUNITY, header))
    assert hand.variant is variant and (hand.small_bet, hand.big_bet) == stakes
    assert hand.tournament == tournament and hand.time is not None and hand.time[:2] == "20"
    assert hand.currency == (None if tournament else "USD")


def test_a_player_listed_but_not_dealt_in_is_left_out() -> None:
    text = COMMUNITY.replace("Seat 8: Player8 ($0.71 in chips)\n",
                             "Seat 8: Player8 ($0.71 in chips)\n"
                             "Seat 9: Ghost ($5 in chips) is sitting out\n")
    history = to_history(parsed(text))
    assert "Ghost" not in history.fields["players"] and len(history.starting_stacks) == 8


def test_the_rake_comes_out_of_the_main_pot(tmp_path: Path) -> None:
    # PokerStars wrote "Main pot $1.66. Side pot $0.24. | Rake $0.04": the main pot was 1.70
    # (three players in for 0.49, the folded hands' 0.23) before its rake; the replay takes the
    # rake from the main pot first and ends with every stack the site recorded.
    history = to_history(parsed(SIDE_POT))
    assert history.fields["rake"] == 4 and sum(history.fields["_collected"]) == 190
    path = tmp_path / "side.phh"
    from stud.history.phh import dumps

    path.write_text(dumps(history), encoding="utf-8")
    report = replay_file(path)
    assert report.ok and report.checked, report.error
    assert loads(path.read_text()).finishing_stacks == list(report.finishing_stacks or [])


def test_the_community_card_and_the_cards_listed_for_mucked_hands() -> None:
    history = to_history(parsed(COMMUNITY))
    assert "d db 6h" in history.actions
    # Player5 mucked, but the summary lists his cards: known, and written in his deal lines.
    assert "d dh p5 KdKsJd" in history.actions and "p5 sm" in history.actions


def test_a_line_it_cannot_read_is_an_error_naming_the_line() -> None:
    text = COMMUNITY.replace("Player8: checks\nHero: checks", "Player8: dances\nHero: checks", 1)
    line = text.split("\n").index("Player8: dances") + 1
    with pytest.raises(SiteError) as error:
        parsed(text)
    assert error.value.line == line and "cannot read 'Player8: dances'" in str(error.value)
    with pytest.raises(SiteError, match="not a stud hand: the game is"):
        parsed(with_header(COMMUNITY, "PokerStars Hand #1: Razz 2-7 Limit ($1/$2) - 2010/01/01"))
