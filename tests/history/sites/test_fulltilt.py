"""Full Tilt's formats: headers, shown hands put back in dealing order, who is dealt in, antes
returned and all in, the rake, lines it cannot read; every fixture hand replays exactly."""

from __future__ import annotations

from pathlib import Path

import pytest

from stud.history.phh import HandHistory, dumps
from stud.history.replay import replay_file
from stud.history.sites import Cancelled, SiteError, fulltilt, read_text, to_history
from stud.history.sites.model import SiteHand
from stud.rules import Variant

FIXTURES = Path(__file__).parent / "fixtures" / "fulltilt"
STEAL = (FIXTURES / "7-Stud-USD-3-6-20106.Steal.from.CO.Success.txt").read_text()
HILO = (FIXTURES / "7-StudHL-USD-2-4-201103.Underscore.in.tablename.txt").read_text()
RAZZ = (FIXTURES / "Razz-USD-HUSNG-200-201211.all.in.ante.txt").read_text()
MANY = (FIXTURES / "7-StudHL-USD-2-4-201006.Steal.examples.txt").read_text()


def parsed(text: str) -> SiteHand:
    ((line, hand),) = fulltilt.split(text)
    return fulltilt.parse(hand, line)


def one_of(text: str, number: str) -> HandHistory:
    for line, hand in fulltilt.split(text):
        if hand.startswith(f"Full Tilt Poker Game #{number}:"):
            return to_history(fulltilt.parse(hand, line))
    raise AssertionError(number)


def with_header(text: str, header: str) -> str:
    return header + "\n" + text.split("\n", 1)[1]


def replays(history: HandHistory, tmp_path: Path) -> None:
    path = tmp_path / "hand.phh"
    path.write_text(dumps(history), encoding="utf-8")
    report = replay_file(path)
    assert report.ok and report.checked, report.error


@pytest.mark.parametrize("path", sorted(FIXTURES.iterdir()), ids=lambda p: p.name)
def test_every_fixture_hand_imports_and_replays_exactly(path: Path, tmp_path: Path) -> None:
    hands = fulltilt.split(read_text(path))
    assert hands and fulltilt.detect(read_text(path))
    for line, text in hands:
        replays(to_history(fulltilt.parse(text, line)), tmp_path)


@pytest.mark.parametrize(("text", "header", "variant", "stakes", "ante", "table", "tournament"), [
    (STEAL, "Full Tilt Poker Game #1: Table Hagan - $3/$6 Ante $0.50 - Limit Stud Hi - "
     "12:06:20 ET - 2010/06/11", Variant.STUD, (300, 600), 50, "Hagan", None),
    (HILO, "Full Tilt Poker Game #1: Table XGod_Of_WarX (6 max) - $2/$4 Ante $0.40 - Limit Stud "
     "H/L - 01:12:00 ET - 2011/03/28", Variant.STUD8, (200, 400), 40, "XGod_Of_WarX", None),
    (HILO, "Full Tilt Poker Game #1: Table X - $2/$4 Ante $0.40 - Limit 7 Card Stud Hi/Lo - "
     "01:12:00 ET - 2011/03/28", Variant.STUD8, (200, 400), 40, "X", None),
    (RAZZ, "Full Tilt Poker Game #1: $200 Heads-Up Sit & Go (243603038), Table 1 - 40/80 Ante "
     "7 - Limit Razz - 19:53:37 ET - 2012/11/08", Variant.RAZZ, (40, 80), 7, "1", "243603038"),
])
def test_headers_cash_and_tournament(text: str, header: str, variant: Variant,
                                     stakes: tuple[int, int], ante: int, table: str,
                                     tournament: str | None) -> None:
    hand = parsed(with_header(text, header))
    assert hand.variant is variant and (hand.small_bet, hand.big_bet) == stakes
    assert hand.ante == ante and hand.table == table and hand.tournament == tournament
    assert hand.currency == (None if tournament else "USD") and hand.hand == "1"
    assert hand.time is not None and hand.time.endswith(header[-10:])


@pytest.mark.parametrize("game", ["Limit Hold'em", "No Limit Omaha H/L", "Limit 5 Card Stud"])
def test_other_games_are_not_stud(game: str) -> None:
    header = f"Full Tilt Poker Game #1: Table Hagan - $3/$6 - {game} - 12:06:20 ET - 2010/06/11"
    with pytest.raises(SiteError) as error:
        parsed(with_header(STEAL, header))
    assert error.value.reason == f"not a stud hand: the game is {game!r}"
    assert error.value.line == 1


def test_shown_down_cards_are_put_back_in_dealing_order() -> None:
    # Dealt [9h 9s] [5c], Hero shows [9s 9h 5c 3s Kh 5d 8s]: the same cards, down cards swapped.
    history = one_of(MANY, "11111112961")
    assert "d dh p3 9h9s5c" in history.actions
    assert "p3 sm 9h9s5c3sKh5d8s" in history.actions
    assert history.fields["rake"] == 200 and history.fields["_collected"][5] == 4080


def test_a_mucked_hand_listed_in_the_summary_is_known() -> None:
    # "Hero4 mucks", and the summary: "Seat 6: Hero4 mucked [8h 6h 5h 9h 3d Th 3h]".
    history = one_of(MANY, "11111111633")
    seat = history.fields["players"].index("Hero4") + 1
    assert f"d dh p{seat} 8h6h5h" in history.actions and f"d dh p{seat} 3h" in history.actions
    assert f"p{seat} sm" in history.actions


def test_players_seated_but_not_dealt_in_are_left_out() -> None:
    history = one_of(MANY, "11111111633")  # Player9, Player5 sitting out, Player2 stands up
    assert history.fields["players"] == ["Hero2", "Hero", "Hero4", "Player6", "Hero0"]
    history = one_of(MANY, "11111113928")  # Player3 sits down and adds chips during the hand
    assert "Player3" not in history.fields["players"]
    assert "Player6" not in to_history(parsed(HILO)).fields["players"]


def test_a_winner_nobody_called_mucks_unseen() -> None:
    history = to_history(parsed(STEAL))  # "kwuiyhw mucks" after everyone folded
    assert not [a for a in history.actions if " sm" in a]
    assert history.finishing_stacks == [5200, 5250, 28350, 7850, 22300, 8700, 13750]


def test_an_all_in_ante_and_its_uncalled_part(tmp_path: Path) -> None:
    # "Player0 antes 6, and is all in", "Uncalled bet of 1 returned to Hero" before the deal.
    history = to_history(parsed(RAZZ))
    assert history.starting_stacks == [994, 6] and history.finishing_stacks == [988, 12]
    replays(history, tmp_path)


def test_an_ante_returned_leaves_its_player_out_of_the_hand(tmp_path: Path) -> None:
    text = (STEAL.replace("Dealt to bllodshot [9c]\n", "").replace("bllodshot folds\n", "")
            .replace("*** 3RD STREET ***", "Ante of $0.50 returned to bllodshot\n"
                                           "*** 3RD STREET ***")
            .replace("$5.50", "$5"))
    history = to_history(parsed(text))
    assert "bllodshot" not in history.fields["players"] and len(history.antes) == 6
    replays(history, tmp_path)


def test_a_line_it_cannot_read_is_an_error_naming_the_line() -> None:
    text = STEAL.replace("Hero folds", "Hero dances", 1)
    with pytest.raises(SiteError) as error:
        parsed(text)
    assert error.value.line == 26 and "cannot read 'Hero dances'" in str(error.value)
    with pytest.raises(SiteError, match="names no player") as error:
        parsed(STEAL.replace("Hero folds", "Nobody folds", 1))
    assert error.value.line == 26


def test_a_cut_short_or_cancelled_hand() -> None:
    with pytest.raises(SiteError, match="no summary"):
        parsed(STEAL[: STEAL.index("*** SUMMARY ***")])
    with pytest.raises(Cancelled):
        parsed(STEAL.replace("Hero folds", "Hand #21536266313 has been canceled", 1))


def test_split_finds_every_hand_and_its_first_line() -> None:
    hands = fulltilt.split(MANY)
    assert len(hands) == 12 and hands[0][0] == 1
    lines = MANY.split("\n")
    assert all(lines[line - 1].startswith("Full Tilt Poker Game #") for line, _ in hands)
    assert not fulltilt.detect("PokerStars Hand #1: Razz Limit ($1/$2) - 2010/01/01")
