"""The 30 real WSOP hands replay exactly, and the replay command reports them as specified."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stud.cli import app
from stud.history.phh import dumps, dumps_all, load, load_all, loads
from stud.history.replay import phh_paths, replay, replay_file

# shared/ lies beside the repository, on a developer's machine and in CI alike.
SHARED = Path(os.environ.get("STUD_SHARED", Path(__file__).resolve().parents[3] / "shared"))
WSOP = SHARED / "data" / "phh" / "wsop-2023-43-5"
FILES = phh_paths([WSOP]) if WSOP.is_dir() else []
pytestmark = pytest.mark.skipif(not FILES, reason=f"the WSOP hands are not at {WSOP}")


def test_all_thirty_wsop_hands_are_present() -> None:
    assert len(FILES) == 30


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_wsop_hand_replays_with_its_finishing_stacks(path: Path) -> None:
    report = replay_file(path)
    assert report.ok, report.error
    assert report.finishing_stacks == load(path).finishing_stacks


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_wsop_hand_round_trips_through_phh_text(path: Path) -> None:
    history = load(path)
    again = loads(dumps(history))
    assert again.actions == history.actions
    assert list(replay(again, again.rules()).finishing_stacks) == history.finishing_stacks


def test_replay_json_reports_thirty_of_thirty_exact() -> None:
    result = CliRunner().invoke(app, ["replay", "--json", str(WSOP)])
    assert result.exit_code == 0, result.output
    reports = json.loads(result.output)
    assert len(reports) == 30
    assert all(r["ok"] and r["error"] is None for r in reports)
    assert {r["variant"] for r in reports} == {"stud", "stud8", "razz"}
    for r in reports:
        assert set(r) == {"path", "variant", "ok", "checked", "finishing_stacks", "error"}
        assert r["checked"] is True
        assert r["finishing_stacks"] == load(r["path"]).finishing_stacks


def test_hand_85_short_raise_that_puts_the_opponent_all_in_is_legal_under_standard() -> None:
    history = load(WSOP / "85.phh")
    assert "p2 cbr 750000" in history.actions
    assert list(replay(history, history.rules()).finishing_stacks) == [0, 29700000]


def test_hand_85_is_refused_under_pokerkit_as_pokerkit_does() -> None:
    result = CliRunner().invoke(app, ["replay", "--json", "--rules", "pokerkit",
                                      str(WSOP / "85.phh")])
    assert result.exit_code == 1
    [report] = json.loads(result.output)
    assert not report["ok"] and report["finishing_stacks"] is None
    assert "85.phh" in report["error"] and "action 18" in report["error"]
    assert "'p2 cbr 750000'" in report["error"] and "1200000" in report["error"]


def test_replay_names_file_action_and_reason_for_an_illegal_action(tmp_path: Path) -> None:
    text = (WSOP / "5.phh").read_text().replace("'p5 pb'", "'p5 cbr 400000'")
    bad = tmp_path / "bad.phh"
    bad.write_text(text)
    result = CliRunner().invoke(app, ["replay", "--json", str(bad)])
    assert result.exit_code == 1
    [report] = json.loads(result.output)
    assert str(bad) in report["error"] and "action 5" in report["error"]
    assert "'p5 cbr 400000'" in report["error"] and "complete" in report["error"]


def test_replay_reports_wrong_finishing_stacks(tmp_path: Path) -> None:
    text = (WSOP / "5.phh").read_text().replace("4950000]", "4950001]")
    bad = tmp_path / "stacks.phh"
    bad.write_text(text)
    report = replay_file(bad)
    assert not report.ok and "finishing stacks differ" in (report.error or "")


def test_replay_of_a_malformed_file_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "broken.phh"
    bad.write_text("variant = 'F7S'\nantes = [1, 1]\n")
    report = replay_file(bad)
    assert not report.ok and "'bring_in' is missing" in (report.error or "")
    bad.write_text("this is not toml = = =")
    assert "not valid TOML" in (replay_file(bad).error or "")


def test_a_phhs_file_cut_short_replays_its_whole_hands_and_names_the_broken_one(
        tmp_path: Path) -> None:
    histories = [load(path) for path in FILES[:3]]
    text = dumps_all(histories)
    cut = tmp_path / "cut.phhs"
    cut.write_text(text[:text.rindex("actions = [") + 30])  # the third hand's, mid-line
    result = CliRunner().invoke(app, ["replay", str(cut)])
    assert result.exit_code == 1
    assert f"ok    {cut} [1] (" in result.output and f"ok    {cut} [2] (" in result.output
    assert f"FAIL  {cut} [3]: not valid TOML" in result.output
    assert result.output.endswith("2 of 3 hands replayed exactly\n")
    broken = tmp_path / "broken.phhs"  # the second hand's TOML is broken mid-file
    broken.write_text(text.replace("[2]\nvariant = ", "[2]\nvariant = = ", 1))
    result = CliRunner().invoke(app, ["replay", str(broken)])
    line = text[:text.index("[2]\n")].count("\n") + 2
    assert f"FAIL  {broken} [2]: not valid TOML: Invalid value (at line {line}," in result.output
    assert result.output.endswith("2 of 3 hands replayed exactly\n")


def test_an_empty_phh_file_is_said_to_be_empty(tmp_path: Path) -> None:
    empty = tmp_path / "413.phh"
    empty.write_text("")
    assert replay_file(empty).error == f"{empty}: the file is empty"


def test_a_phhs_file_of_the_thirty_hands_replays_hand_by_hand(tmp_path: Path) -> None:
    """A ``.phhs`` (PHH's file of several hands: [1], [2], ...) is read hand by hand, by the
    library and by ``stud replay``, and a bad hand is named by its table."""
    histories = [load(path) for path in FILES]
    bundle = tmp_path / "final-table.phhs"
    bundle.write_text(dumps_all(histories))
    assert [name for name, _ in load_all(bundle)] == [str(k) for k in range(1, 31)]
    assert [h.actions for _, h in load_all(bundle)] == [h.actions for h in histories]
    assert load_all(FILES[0]) == [("", histories[0])]  # a .phh: its one hand
    result = CliRunner().invoke(app, ["replay", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert f"ok    {bundle} [30] (" in result.output
    assert result.output.endswith("30 of 30 hands replayed exactly\n")
    histories[1].finishing_stacks = [s + 1 for s in histories[1].finishing_stacks or []]
    bundle.write_text(dumps_all(histories))
    result = CliRunner().invoke(app, ["replay", str(bundle)])
    assert result.exit_code == 1 and f"FAIL  {bundle} [2]: finishing stacks differ" in \
        result.output and "29 of 30 hands replayed exactly" in result.output
    bundle.write_text("[1]\nvariant = 'F7S'\n")
    assert f"{bundle} [1]: the field 'antes' is missing" in \
        CliRunner().invoke(app, ["replay", str(bundle)]).output
    bundle.write_text("note = 'two hands'\n[1]\nvariant = 'F7S'\n")
    assert "holds only tables of hands ([1], [2], ...), not 'note'" in \
        CliRunner().invoke(app, ["replay", str(bundle)]).output
    one = tmp_path / "one.phh"  # a hand's file lacking a field says which, as before
    one.write_text("antes = [1, 1]\n")
    assert f"{one}: the field 'variant' is missing" in \
        CliRunner().invoke(app, ["replay", str(one)]).output
