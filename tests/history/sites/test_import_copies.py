"""``stud import`` of files the README promises to read: UTF-16 without a byte-order mark in
either byte order, and a hand met in more than one file of a run (a copy cut short, a copy
that differs, the same hand from another player's history)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from stud.cli import app
from stud.history.importer import import_file, import_files, succeeded, summary
from stud.history.sites import read_text

FIXTURES = Path(__file__).parent / "fixtures" / "pokerstars"
SOURCE = FIXTURES / "7-Stud-USD-0.04-0.08-200907.Missing.Showdown.Card.txt"
RAZZ = FIXTURES / "Razz-USD-0.04-0.08-200911.txt"  # nine hands
runner = CliRunner()


@pytest.mark.parametrize("encoding", ["utf-16-be", "utf-16-le"])
def test_utf16_without_a_byte_order_mark_is_read_in_either_byte_order(
        encoding: str, tmp_path: Path) -> None:
    text = SOURCE.read_text(encoding="utf-8").replace("Player2", "Jürgen")
    coded = tmp_path / f"{encoding}.txt"
    coded.write_bytes(text.encode(encoding))
    assert read_text(coded) == text
    plain = tmp_path / "plain.txt"
    plain.write_text(text, encoding="utf-8")
    (a,) = import_file(plain, tmp_path / "a")
    (b,) = import_file(coded, tmp_path / "b")
    assert a.status == b.status == "imported" and a.path and b.path
    assert Path(a.path).read_text(encoding="utf-8") == Path(b.path).read_text(encoding="utf-8")


def _cut_in_third_hand(tmp_path: Path) -> Path:
    """The razz file cut short on fifth street of its third hand (as a crash leaves it)."""
    text = RAZZ.read_text(encoding="utf-8")
    third = text.index("PokerStars Game #35874623967")
    cut = tmp_path / "cut" / "razz.txt"
    cut.parent.mkdir()
    cut.write_text(text[: text.index("*** 5th STREET ***", third)], encoding="utf-8")
    return cut


@pytest.mark.parametrize("cut_first", [True, False])
def test_a_copy_cut_short_is_superseded_by_a_complete_copy_of_the_same_run(
        cut_first: bool, tmp_path: Path) -> None:
    cut = _cut_in_third_hand(tmp_path)
    out = tmp_path / "out"
    results = import_files([cut, RAZZ] if cut_first else [RAZZ, cut], out)
    (cut_copy,) = [r for r in results if r.file == str(cut) and r.hand == "35874623967"]
    (kept,) = [r for r in results if r.hand == "35874623967" and r.status == "imported"]
    assert kept.file == str(RAZZ) and kept.path == str(out / "pokerstars-35874623967.phh")
    assert cut_copy.status == "skipped" and cut_copy.path == kept.path
    assert cut_copy.error == (f"superseded by the copy imported from {RAZZ}, line 121 (this "
                              f"copy: the hand has no summary: the history is cut short)")
    assert not [r for r in results if r.status == "error"]
    assert succeeded(results)
    # The first two hands are whole in both files: the copy read first is written, the other
    # said so.
    first = [r for r in results if r.hand == "35874566077"]
    assert [(r.file, r.status) for r in first] == [
        (str(cut), "imported"), (str(RAZZ), "skipped")] if cut_first else [
        (str(RAZZ), "imported"), (str(cut), "skipped")]
    assert first[1].error == f"the same hand again (imported from {first[0].file})"
    assert summary(results)[-1] == ("9 imported, 0 cancelled by the site, 0 skipped (not stud), "
                                    "2 already imported, 1 superseded by another copy, "
                                    "0 refused (not readable, or against the rules)")


def test_the_import_command_exits_0_when_a_cut_copy_is_superseded(tmp_path: Path) -> None:
    cut = _cut_in_third_hand(tmp_path)
    result = runner.invoke(app, ["import", str(cut), str(RAZZ), "--out", str(tmp_path / "o")])
    assert result.exit_code == 0, result.output
    assert "ERROR" not in result.output
    assert (f"SKIPPED  {cut}, hand 35874623967, line 155: superseded by the copy imported from "
            f"{RAZZ}, line 121") in result.output


def test_a_copy_that_differs_in_substance_is_a_conflict_and_the_first_is_kept(
        tmp_path: Path) -> None:
    text = SOURCE.read_text(encoding="utf-8")
    changed = tmp_path / "changed.txt"
    changed.write_text(text.replace("Seat 2: Player2 ($2.46", "Seat 2: Player2 ($2.56"),
                       encoding="utf-8")
    out = tmp_path / "out"
    results = import_files([SOURCE, changed], out)
    first, second = results
    assert first.status == "imported" and second.status == "conflict"
    assert second.path == first.path and not second.ok
    assert second.error == (f"differs from the copy imported from {SOURCE} (starting_stacks, "
                            f"finishing_stacks); that copy is kept")
    (written,) = import_file(SOURCE, tmp_path / "alone")
    assert written.path
    assert Path(first.path or "").read_text(encoding="utf-8") == Path(written.path).read_text(
        encoding="utf-8")
    assert not succeeded(results)
    lines = summary(results)
    assert (f"CONFLICT  {changed}, hand 30506593746, line 1: differs from the copy imported "
            f"from {SOURCE}") in "\n".join(lines)
    assert lines[-1] == ("1 imported, 0 cancelled by the site, 0 skipped (not stud), "
                         "1 in conflict with a copy (the first kept), 0 refused (not "
                         "readable, or against the rules)")
    result = runner.invoke(app, ["import", str(SOURCE), str(changed), "--out",
                                 str(tmp_path / "cli")])
    assert result.exit_code == 1 and "CONFLICT" in result.output


def test_a_copy_that_differs_only_in_line_ends_and_spaces_is_the_same_hand(
        tmp_path: Path) -> None:
    text = SOURCE.read_text(encoding="utf-8")
    copy = tmp_path / "copy.txt"
    copy.write_bytes(text.replace("\n", " \r\n").encode("utf-8-sig"))
    first, second = import_files([SOURCE, copy], tmp_path / "out")
    assert first.status == "imported" and second.status == "skipped"
    assert second.error == f"the same hand again (imported from {SOURCE})"


@pytest.mark.parametrize("hero_first", [True, False])
def test_the_same_hand_from_another_players_history_is_not_a_conflict(
        hero_first: bool, tmp_path: Path) -> None:
    """Another player's history of the hand knows other down cards: the cards one copy does not
    know (``??``) do not make it differ."""
    text = SOURCE.read_text(encoding="utf-8")
    other = tmp_path / "player7.txt"
    other.write_text(text.replace("Ac Kc ", ""), encoding="utf-8")  # Hero's down cards unknown
    first, second = import_files([SOURCE, other] if hero_first else [other, SOURCE],
                                 tmp_path / "out")
    assert first.status == "imported" and second.status == "skipped", second.error
    assert succeeded([first, second])


@pytest.mark.parametrize("bad_first", [True, False])
def test_a_copy_the_rules_refuse_fails_the_run_whichever_file_comes_first(
        bad_first: bool, tmp_path: Path) -> None:
    """Only a copy that could not be read (cut short) is superseded by a whole one: a copy read
    whole that the rules refuse (a card dealt twice) is not the hand imported, and the run says
    so (exit 1) in either order."""
    text = SOURCE.read_text(encoding="utf-8")
    bad = tmp_path / "bad.txt"
    bad.write_text(text.replace("Dealt to Player7 [Jh]", "Dealt to Player7 [Tc]"),
                   encoding="utf-8")
    results = import_files([bad, SOURCE] if bad_first else [SOURCE, bad], tmp_path / "out")
    assert not succeeded(results)
    (refused,) = [r for r in results if r.file == str(bad)]
    assert refused.status == ("error" if bad_first else "conflict"), refused
