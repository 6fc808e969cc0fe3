"""``stud import``: real hands from online rooms, read and replayed exactly to the chip.

The fixtures are public sample histories (``fixtures/SOURCES.md`` says where each came from).
Every hand in them is imported, and every imported hand replays with the engine judging each
action and, the site's rake taken from the pot, ends with the site's own stacks.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stud.cli import app
from stud.history.importer import import_file, import_files, succeeded, summary
from stud.history.replay import replay_file
from stud.history.sites import read_text

FIXTURES = Path(__file__).parent / "fixtures"
FILES = sorted(p for p in FIXTURES.rglob("*") if p.is_file() and p.name != "SOURCES.md")
runner = CliRunner()


def test_there_are_fixtures_from_several_sites() -> None:
    sites = {p.relative_to(FIXTURES).parts[0] for p in FILES}
    assert "pokerstars" in sites and len(FILES) >= 3, sites


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_every_real_hand_is_imported_and_replays_exactly(path: Path, tmp_path: Path) -> None:
    results = import_file(path, tmp_path)
    errors = [r for r in results if r.status == "error"]
    assert not errors, errors
    imported = [r for r in results if r.status == "imported"]
    assert imported, results
    for r in imported:
        assert r.path is not None
        report = replay_file(Path(r.path))
        assert report.ok and report.checked, report.error


SOURCE = FIXTURES / "pokerstars" / "7-Stud-USD-0.04-0.08-200907.Missing.Showdown.Card.txt"


def test_bad_input_names_the_file_the_hand_and_the_line(tmp_path: Path) -> None:
    text = SOURCE.read_text(encoding="utf-8")
    cut = tmp_path / "cut.txt"
    cut.write_text(text[: text.index("*** 5th STREET ***")], encoding="utf-8")
    (result,) = import_file(cut, tmp_path / "out")
    assert result.status == "error" and result.hand == "30506593746"
    assert "cut short" in (result.error or "") and result.line is not None
    holdem = tmp_path / "holdem.txt"
    holdem.write_text(HOLDEM, encoding="utf-8")
    (result,) = import_file(holdem, tmp_path / "out")
    assert result.status == "skipped" and result.hand == "1234567890" and result.line == 1
    assert result.error == "not a stud hand: the game is \"Hold'em No Limit ($0.01/$0.02 USD)\""
    other = tmp_path / "notes.txt"
    other.write_text("Seat 1: me\nsome notes about a game\n", encoding="utf-8")
    (result,) = import_file(other, tmp_path / "out")
    assert result.status == "skipped" and "no hand history of a site this reads" in result.error
    assert not succeeded(import_files([holdem, other], tmp_path / "out"))


def test_a_folder_of_histories_with_notes_and_pictures_beside_them_imports(
        tmp_path: Path) -> None:
    """Files that hold no hand history (a README, a picture) are skipped, said so, and the
    import of the histories beside them succeeds."""
    folder = tmp_path / "downloads"
    folder.mkdir()
    (folder / "hand.txt").write_text(SOURCE.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "SOURCES.md").write_text("Where these came from.\n", encoding="utf-8")
    (folder / "table.png").write_bytes(bytes(range(256)) * 4)
    results = import_files([folder], tmp_path / "out")
    assert [r.status for r in results] == ["skipped", "imported", "skipped"]
    assert succeeded(results)
    assert summary(results)[-1] == ("1 imported, 0 cancelled by the site, 0 skipped (not stud), "
                                    "2 not a hand history, 0 refused (not readable, or "
                                    "against the rules)")


def test_a_cancelled_hand_is_reported_and_not_imported(tmp_path: Path) -> None:
    text = SOURCE.read_text(encoding="utf-8")
    cancelled = tmp_path / "cancelled.txt"
    head = text[: text.index("*** 4th STREET ***")]
    cancelled.write_text(head + "Hand cancelled\n*** SUMMARY ***\n", encoding="utf-8")
    (result,) = import_file(cancelled, tmp_path / "out")
    assert result.status == "cancelled" and not result.ok and result.path is None
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").iterdir())


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16", "latin-1"])
def test_files_are_read_in_the_encodings_the_sites_wrote(encoding: str, tmp_path: Path) -> None:
    text = SOURCE.read_text(encoding="utf-8").replace("Player2", "Jürgen")
    plain = tmp_path / "plain.txt"
    plain.write_text(text, encoding="utf-8")
    coded = tmp_path / f"coded-{encoding}.txt"
    coded.write_bytes(text.encode(encoding))
    (a,) = import_file(plain, tmp_path / "a")
    (b,) = import_file(coded, tmp_path / "b")
    assert a.ok and b.ok and a.path and b.path
    assert Path(a.path).read_text(encoding="utf-8") == Path(b.path).read_text(encoding="utf-8")
    assert "Jürgen" in Path(b.path).read_text(encoding="utf-8")


def test_the_import_command_summary_json_and_exit_status(tmp_path: Path) -> None:
    result = runner.invoke(app, ["import", str(SOURCE), "--out", str(tmp_path / "phh")])
    assert result.exit_code == 0, result.output
    assert "pokerstars stud: 1 hand imported" in result.output
    result = runner.invoke(app, ["import", str(SOURCE), "--out", str(tmp_path / "phh"),
                                 "--json"])
    (hand,) = json.loads(result.output)
    assert {k: hand[k] for k in ("site", "hand", "variant", "ok")} == {
        "site": "pokerstars", "hand": "30506593746", "variant": "stud", "ok": True}
    assert set(hand) >= {"file", "site", "hand", "variant", "ok", "path", "error"}
    replayed = runner.invoke(app, ["replay", hand["path"]])
    assert replayed.exit_code == 0 and "1 of 1 hands replayed exactly" in replayed.output
    holdem = tmp_path / "holdem.txt"
    holdem.write_text(HOLDEM, encoding="utf-8")
    result = runner.invoke(app, ["import", str(holdem), "--out", str(tmp_path / "phh")])
    assert result.exit_code == 1 and "SKIPPED" in result.output
    missing = runner.invoke(app, ["import", str(tmp_path / "nope.txt"), "--out",
                                  str(tmp_path / "phh")])
    assert missing.exit_code == 2 and "no such file or folder" in missing.output
    # As stud replay says of them: a missing path, and a folder with nothing to read.
    replayed = runner.invoke(app, ["replay", str(tmp_path / "nope.phh")])
    assert replayed.exit_code == 2 and "nope.phh: no such file or folder" in replayed.output
    (tmp_path / "empty").mkdir()
    for command in (["import", str(tmp_path / "empty"), "--out", str(tmp_path / "phh")],
                    ["replay", str(tmp_path / "empty")]):
        empty = runner.invoke(app, command)
        assert empty.exit_code == 2 and " files found in " in empty.output, command


HOLDEM = """PokerStars Hand #1234567890:  Hold'em No Limit ($0.01/$0.02 USD) - 2020/01/01 1:00:00 ET
Table 'Alpha' 6-max Seat #1 is the button
Seat 1: A ($2 in chips)
Seat 2: B ($2 in chips)
A: posts small blind $0.01
B: posts big blind $0.02
*** HOLE CARDS ***
A: folds
Uncalled bet ($0.01) returned to B
B collected $0.02 from pot
*** SUMMARY ***
Total pot $0.02 | Rake $0
"""


def test_a_garbled_card_is_an_error_naming_the_hand_and_the_line(tmp_path: Path) -> None:
    # A real PokerStars file whose river card is printed "[of]" (fixtures/SOURCES.md).
    path = Path(__file__).parent / "broken" / "Triple-Stud-USD-2.00-0.20-MTT-201301.txt"
    (result,) = import_file(path, tmp_path)
    assert result.status == "error" and result.hand == "91733835979" and result.line == 46
    assert result.error == "'of' is not a card"


BROKEN = Path(__file__).parent / "broken"


def test_a_history_whose_money_does_not_add_up_is_refused(tmp_path: Path) -> None:
    # A sample its author trimmed: the pot it pays out is not what was put in.
    (result,) = import_file(BROKEN / "trimmed-test_stats-8Game-Razz-hand3.txt", tmp_path)
    assert result.status == "error" and result.hand == "3"
    assert result.error == ("the money does not add up: the players put 1160 in the pot, and "
                            "the history pays out 1560 (collected, and 0 rake)")


def test_a_player_without_third_street_cards_is_refused(tmp_path: Path) -> None:
    (result,) = import_file(BROKEN / "trimmed-test_post_ante-8Game-Razz-260946892373.txt",
                            tmp_path)
    assert result.status == "error" and result.hand == "260946892373"
    assert result.error == "Keep3r acts on street 3 but the history deals them 0 cards by then"


def test_another_game_of_the_same_site_is_skipped(tmp_path: Path) -> None:
    other = Path(__file__).parent / "other-games" / "kingsclub" / "2-7-Razz-USD-22-44-202101.txt"
    (result,) = import_file(other, tmp_path)
    assert result.status == "skipped" and result.error == (
        "not a stud hand: the game is 'Limit 2-7 Razz'")


def test_a_hand_seen_twice_is_imported_once(tmp_path: Path) -> None:
    copy = tmp_path / "again.txt"
    copy.write_text(SOURCE.read_text(encoding="utf-8"), encoding="utf-8")
    results = import_files([SOURCE, copy], tmp_path / "out")
    first, second = results
    assert first.status == "imported" and second.status == "skipped"
    assert second.error == f"the same hand again (imported from {SOURCE})"
    assert summary(results)[-1] == ("1 imported, 0 cancelled by the site, 0 skipped (not stud), "
                                    "1 already imported, 0 refused (not readable, or against "
                                    "the rules)")


def _line_twice(text: str) -> str:
    lines = text.splitlines(keepends=True)
    return "".join(lines[:3] + lines[2:])  # "Seat 1: Hero ..." written twice


def _fold_lost(text: str) -> str:
    lines = text.splitlines(keepends=True)
    return "".join(line for line in lines if not line.rstrip().endswith(": folds"))


@pytest.mark.parametrize(("garble", "refused"), [
    (_line_twice, "seat 1 is listed twice ('Hero' and 'Hero')"),
    (_fold_lost, "the hand does not replay by the rules: action"),  # a seat acts out of turn
])
def test_a_garbled_history_whose_money_adds_up_is_still_refused_by_the_rules(
        garble: Callable[[str], str], refused: str, tmp_path: Path) -> None:
    """The money may add up in a history that lost or doubled a line: the engine, replaying
    it, refuses it, and nothing is written."""
    bad = tmp_path / "bad.txt"
    bad.write_text(garble(SOURCE.read_text(encoding="utf-8")), encoding="utf-8")
    (result,) = import_file(bad, tmp_path / "out")
    assert result.status == "error" and refused in (result.error or ""), result
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_a_chat_line_does_not_cancel_a_hand(tmp_path: Path) -> None:
    text = SOURCE.read_text(encoding="utf-8").replace(
        "Player7: folds\nPlayer8: calls $0.08", 'Player7: folds\nPlayer7 said, "Hand cancelled"'
        "\nPlayer8: calls $0.08")
    path = tmp_path / "chat.txt"
    path.write_text(text, encoding="utf-8")
    (result,) = import_file(path, tmp_path / "out")
    assert result.status == "imported", result


def test_a_street_without_its_cards_is_refused(tmp_path: Path) -> None:
    text = SOURCE.read_text(encoding="utf-8").replace("Dealt to Player4 [Js] [2c]\n", "")
    path = tmp_path / "missing.txt"
    path.write_text(text, encoding="utf-8")
    (result,) = import_file(path, tmp_path / "out")
    assert result.status == "error"
    assert result.error == "Player4 acts on street 4 but the history deals them 3 cards by then"


def test_amounts_with_a_decimal_comma_and_windows_1252_files(tmp_path: Path) -> None:
    from stud.history.sites.reading import amount

    assert amount("€0,10", 100) == 10 and amount("1,000", 1) == 1000
    assert amount("$1,234.50", 100) == 123450
    text = SOURCE.read_text(encoding="utf-8").replace("$", "€").replace("USD", "EUR")
    path = tmp_path / "euro.txt"
    path.write_bytes(text.encode("cp1252"))
    (result,) = import_file(path, tmp_path / "out")
    assert result.status == "imported", result


def test_a_readers_slip_is_an_error_for_that_hand_not_a_traceback(tmp_path: Path) -> None:
    import stud.history.importer as importer

    def broken(text: str, line: int):  # noqa: ANN202
        raise KeyError("surprise")

    result = importer._one(SOURCE, tmp_path, "pokerstars", broken, 1, "text", {})
    assert result.status == "error" and "KeyError" in (result.error or "")


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_windows_line_endings_read_the_same(path: Path, tmp_path: Path) -> None:
    crlf = tmp_path / path.name
    crlf.write_bytes(path.read_bytes().replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
    plain = [(r.status, r.hand) for r in import_file(path, tmp_path / "a")]
    assert [(r.status, r.hand) for r in import_file(crlf, tmp_path / "b")] == plain
    for name in (p.name for p in (tmp_path / "a").iterdir()):
        assert (tmp_path / "a" / name).read_text() == (tmp_path / "b" / name).read_text()


IPOKER = FIXTURES / "ipoker" / "7-StudHL-EUR-0.05-0.10-201405.txt"
MERGE_RAZZ = FIXTURES / "merge" / "Razz-USD-0.50-1.00-201111.allIn.txt"


def test_an_xml_hand_cut_short_is_refused_by_name_not_lost(tmp_path: Path) -> None:
    """Every hand whose <game> opens in the file is imported or refused: an iPoker file cut in
    its last game, a one-game Merge file cut in it (not taken for a file of no site)."""
    cut = tmp_path / "ipoker.txt"
    cut.write_bytes(IPOKER.read_bytes()[:7000])
    results = import_file(cut, tmp_path / "out")
    assert [r.status for r in results] == ["imported"] * 3 + ["error"]
    assert results[-1].hand == "5710078165" and results[-1].line == 97
    assert (results[-1].error or "").startswith("the hand is cut short")
    folder = tmp_path / "merge"
    folder.mkdir()
    (folder / "razz.txt").write_bytes(MERGE_RAZZ.read_bytes()[:2800])
    (result,) = import_files([folder], tmp_path / "out")
    assert result.status == "error" and result.site == "merge" and result.hand == "43618199-14"
    assert (result.error or "").startswith("the hand is cut short") and result.line == 2
    exit_status = runner.invoke(app, ["import", str(folder), "--out", str(tmp_path / "out")])
    assert exit_status.exit_code == 1 and "cut short" in exit_status.output


def test_a_garbled_end_of_game_tag_refuses_that_hand_and_keeps_the_next(tmp_path: Path) -> None:
    garbled = tmp_path / "ipoker.txt"
    garbled.write_text(read_text(IPOKER).replace(
        '</game><game gamecode="5710056302">', '</gam><game gamecode="5710056302">', 1),
        encoding="utf-8")
    results = import_file(garbled, tmp_path / "out")
    assert [(r.hand, r.status) for r in results] == [
        ("5710054735", "error"), ("5710056302", "imported"), ("5710077134", "imported"),
        ("5710078165", "imported"), ("5710079903", "imported")]
    assert (results[0].error or "").startswith("the hand is cut short")


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_old_mac_line_endings_read_the_same(path: Path, tmp_path: Path) -> None:
    """A file whose lines end in a carriage return alone (old Mac exports) reads as the same
    hands, line for line."""
    cr = tmp_path / path.name
    cr.write_bytes(path.read_bytes().replace(b"\r\n", b"\n").replace(b"\n", b"\r"))
    plain = [(r.status, r.hand, r.line) for r in import_file(path, tmp_path / "a")]
    assert [(r.status, r.hand, r.line) for r in import_file(cr, tmp_path / "b")] == plain
    for name in (p.name for p in (tmp_path / "a").iterdir()):
        assert (tmp_path / "a" / name).read_text() == (tmp_path / "b" / name).read_text()


def test_a_check_facing_a_bet_is_refused_at_its_own_line(tmp_path: Path) -> None:
    """A history that checks where a bet is to be called (a fold garbled to a check) is
    refused at that line, not read as a call and blamed on a later one."""
    source = FIXTURES / "pokerstars" / \
        "HH20110417-Salm-IX---$0.04-$0.08-Ante-$0.01---USD-Limit-Stud.txt"
    garbled = tmp_path / "check.txt"
    garbled.write_text(read_text(source).replace("Perla993: folds", "Perla993: checks", 1),
                       encoding="utf-8")
    (result,) = import_file(garbled, tmp_path / "out")
    assert result.status == "error" and result.line == 34, result
    assert result.error == "Perla993 checks facing a bet: 2 to call on street 3"
