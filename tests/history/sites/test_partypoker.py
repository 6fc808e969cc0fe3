"""PartyPoker's formats: hands announced by several lines, amounts as what an action adds,
everyone else's cards unknown, the uncalled bet and the rake worked out, ``opens`` checked,
lines it cannot read."""

from __future__ import annotations

from pathlib import Path

import pytest

from stud.history.phh import HandHistory, dumps
from stud.history.replay import replay_file
from stud.history.sites import SiteError, partypoker, to_history
from stud.history.sites.model import Returned, SiteHand
from stud.rules import Variant

FIXTURES = Path(__file__).parent / "fixtures" / "partypoker"
HEADS_UP = (FIXTURES / "7-StudHL-USD-10-20.201202.wins.lo.pot.txt").read_text()
CASH = (FIXTURES / "7-StudHL-USD-0.50-1.00-201008.txt").read_text()
MTT = (FIXTURES / "7-Stud-USD-MTT-6.00-201205.txt").read_text()


def parsed(text: str) -> SiteHand:
    ((line, hand),) = partypoker.split(text)
    return partypoker.parse(hand, line)


def replays(history: HandHistory, tmp_path: Path) -> None:
    path = tmp_path / "hand.phh"
    path.write_text(dumps(history), encoding="utf-8")
    report = replay_file(path)
    assert report.ok and report.checked, report.error


def test_a_hand_starts_at_the_lines_announcing_it() -> None:
    both = HEADS_UP + "\n\n" + MTT
    hands = partypoker.split(both)
    assert [line for line, _ in hands] == [1, HEADS_UP.count("\n") + 3]
    assert hands[0][1].startswith("Game #11480841734 starts.")
    assert hands[1][1].startswith("#Game No : 11792805420")
    assert [partypoker.parse(text, line).hand for line, text in hands] == [
        "11480841734", "11792805420"]
    assert partypoker.detect(both) and not partypoker.detect(
        "***** Hand history for game #295679510 *****")  # Everleaf's, not Party's


def test_amounts_are_what_the_action_adds(tmp_path: Path) -> None:
    # "Player0 bring-ins [$3 USD]", "Player1 completes [$10 USD]", "Player0 raises [$17 USD]":
    # a raise to $20; "Player1 calls [$10 USD]" makes it $20 each.
    history = to_history(parsed(HEADS_UP))
    assert history.actions[2:6] == ["p1 pb", "p2 cbr 1000", "p1 cbr 2000", "p2 cc"]
    assert (history.bring_in, history.small_bet, history.big_bet) == (300, 1000, 2000)
    # A pot of $182, $90.50 won high and $90.50 low: the rake is $1.
    assert history.fields["rake"] == 100 and history.fields["_collected"] == [9050, 9050]
    assert history.finishing_stacks == [38950, 50950]
    replays(history, tmp_path)


def test_only_the_owners_cards_are_known_until_the_end() -> None:
    history = to_history(parsed(CASH))
    players = history.fields["players"]
    yman = players.index("YMAN1") + 1  # brings in, folds on fourth street: nothing shown
    assert f"d dh p{yman} ??????" in history.actions and f"d dh p{yman} ??" in history.actions
    assert f"d dh p{players.index('Hero') + 1} Td5s3c" in history.actions
    # strandalleen "doesn't show [ 5h, 9d, 9c, Qc, 2h, Kc, Js ]": a muck, the cards known.
    seat = players.index("strandalleen") + 1
    assert f"d dh p{seat} 5h9d9c" in history.actions and history.actions[-1] == f"p{seat} sm"
    assert history.fields["rake"] == 40 and history.fields["currency"] == "USD"


def test_a_tournament_hand() -> None:
    hand = parsed(MTT)
    assert hand.variant is Variant.STUD and hand.tournament == "69784932"
    assert (hand.small_bet, hand.big_bet, hand.ante, hand.bring_in) == (60, 120, 10, 20)
    assert hand.currency is None and hand.rake == 0 and hand.game == "FL 7 Card Stud"
    assert [s.number for s in hand.seats] == [1, 2, 3, 4, 5, 6, 7, 8]
    history = to_history(hand)
    assert "p8 cbr 120" in history.actions  # "Player4 double bets [120]" on fourth street
    assert sum(history.finishing_stacks or []) == sum(history.starting_stacks)


def test_an_uncalled_bet_goes_back_though_the_site_does_not_say(tmp_path: Path) -> None:
    end = HEADS_UP.index("Player0 calls [$20 USD]\nPlayer1 shows")
    text = HEADS_UP[:end] + "Player0 folds\nPlayer1 wins $141 USD from the main pot\n"
    hand = parsed(text)
    assert Returned("Player1", 2000) in hand.steps and hand.rake == 100
    history = to_history(hand)
    assert history.finishing_stacks == [31900, 58000]
    replays(history, tmp_path)


def test_an_all_in_is_a_bet_or_a_call_by_what_it_adds(tmp_path: Path) -> None:
    end = HEADS_UP.rindex("Player1 bets [$20 USD]\nPlayer0 calls [$20 USD]")
    text = HEADS_UP[:end] + "Player1 is all-In  [$20 USD]\nPlayer0 is all-In  [$20 USD]" + \
        HEADS_UP[end + len("Player1 bets [$20 USD]\nPlayer0 calls [$20 USD]"):]
    history = to_history(parsed(text))
    at = history.actions.index("d dh p1 8s")
    assert history.actions[at + 2:at + 4] == ["p2 cbr 2000", "p1 cc"]
    replays(history, tmp_path)


def test_who_opens_must_act_first() -> None:
    text = HEADS_UP.replace("Player1 opens\nPlayer1 bets [$10 USD]",
                            "Player0 opens\nPlayer1 bets [$10 USD]", 1)
    lines = text.split("\n")
    line = lines.index("Player0 opens", lines.index("** Dealing Fourth street **")) + 1
    with pytest.raises(SiteError) as error:
        parsed(text)
    assert error.value.line == line + 1
    assert error.value.reason == f"line {line} says Player0 opens, but Player1 acts first"


def test_a_line_it_cannot_read_is_an_error_naming_the_line() -> None:
    text = HEADS_UP.replace("Player0 calls [$10 USD]", "Player0 dances [$10 USD]", 1)
    line = text.split("\n").index("Player0 dances [$10 USD]") + 1
    with pytest.raises(SiteError) as error:
        parsed(text)
    assert error.value.line == line and "cannot read 'Player0 dances [$10 USD]'" in str(
        error.value)
    with pytest.raises(SiteError, match="cut short"):
        parsed(HEADS_UP[: HEADS_UP.index("Player0 wins")])


def test_other_games_are_not_stud() -> None:
    text = HEADS_UP.replace("$10/$20 USD FL 7 Card Stud Hi-Lo", "$10/$20 USD FL Omaha Hi-Lo")
    with pytest.raises(SiteError) as error:
        parsed(text)
    assert error.value.reason == "not a stud hand: the game is '$10/$20 USD FL Omaha Hi-Lo'"
    assert error.value.line == 5
