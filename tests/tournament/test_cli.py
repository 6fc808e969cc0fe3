"""stud tournament: the finishing order and prizes, --json, --runs with intervals, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stud.cli import app
from stud.history.phh import load

runner = CliRunner()


def _tournament(*args: str) -> str:
    result = runner.invoke(app, ["tournament", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_json_is_variant_buy_in_prize_pool_hands_and_the_players_in_finishing_order() -> None:
    document = json.loads(_tournament("--players", "7", "--bots", "random,station", "--seed",
                                      "4", "--buy-in", "30", "--json"))
    assert list(document) == ["variant", "buy_in", "prize_pool", "hands", "players"]
    assert (document["variant"], document["buy_in"], document["prize_pool"]) == ("stud", 30, 210)
    players = document["players"]
    assert all(list(p) == ["seat", "bot", "finish", "prize"] for p in players)
    assert sorted(p["seat"] for p in players) == list(range(1, 8))
    assert [p["finish"] for p in players] == sorted(p["finish"] for p in players)
    assert [p["prize"] for p in players][:3] == [105, 63, 42]
    assert sum(p["prize"] for p in players) == 210 and document["hands"] > 0
    assert {p["bot"] for p in players} == {"random", "station"}


def test_the_same_seed_prints_the_same_tournament() -> None:
    args = ("--variant", "rotation", "--players", "4", "--seed", "9", "--json")
    assert _tournament(*args) == _tournament(*args)


def test_the_text_names_the_game_the_places_prizes_and_the_hands_by_game() -> None:
    out = _tournament("--variant", "rotation", "--players", "3", "--hands-per-game", "2",
                      "--seed", "2", "--structure", "turbo")
    lines = out.splitlines()
    assert lines[0].startswith("Sit-and-go of the stud rotation (razz, stud, stud8; 2 hands "
                               "each), 3 players, seed 2: buy-in 100, prize pool 300")
    assert "turbo structure (levels of 5 hands)" in lines[0]
    assert "razz" in lines[1] and "stud8" in lines[1] and "hands" in lines[1]
    assert lines[2].startswith("  1st") and "prize 300" in lines[2]
    assert lines[3].startswith("  2nd") and "out in hand" in lines[3]


def test_phh_out_writes_every_hand_naming_its_game(tmp_path: Path) -> None:
    out = _tournament("--variant", "rotation", "--players", "2", "--hands-per-game", "1",
                      "--seed", "1", "--phh-out", str(tmp_path / "hands"))
    files = sorted((tmp_path / "hands").glob("*.phh"), key=lambda f: int(f.stem))
    assert f"wrote {len(files)} PHH files" in out and len(files) >= 3
    assert [load(f).variant for f in files[:3]] == ["FR", "F7S", "F7S/8"]
    replayed = runner.invoke(app, ["replay", "--json", str(tmp_path / "hands")])
    assert replayed.exit_code == 0 and all(r["ok"] for r in json.loads(replayed.output))


def test_runs_report_each_bots_average_finish_and_return_with_a_95_percent_interval() -> None:
    out = _tournament("--players", "4", "--bots", "station,random", "--runs", "6",
                      "--structure", "turbo", "--seed", "3")
    assert "6 sit-and-gos of Seven Card Stud, 4 players" in out and "seeds 3 to 8" in out
    assert "| bot | seats | wins | average finish | 95% CI | return on buy-in | 95% CI |" in out
    assert "| station | 2 |" in out and "| random | 2 |" in out


def test_runs_as_json_give_intervals_and_do_not_depend_on_workers() -> None:
    args = ("--players", "3", "--bots", "station,random,random", "--runs", "5", "--structure",
            "turbo", "--json")
    one = json.loads(_tournament(*args))
    two = json.loads(_tournament(*args, "--workers", "2"))
    assert one["runs"] == 5 and one["prize_pool"] == 300 and two["workers"] == 2
    assert one["bots"] == two["bots"]
    for bot in one["bots"]:
        low, high = bot["ci95_finish"]
        assert low <= bot["average_finish"] <= high
        low, high = bot["ci95_roi_percent"]
        assert low <= bot["roi_percent"] <= high


@pytest.mark.parametrize("args, message", [
    (["--bots", "shark"], "--bots: unknown bot 'shark'"),
    (["--players", "1"], "--players 1: a sit-and-go is for 2 to 8 players"),
    (["--players", "9"], "--players 9: a sit-and-go is for 2 to 8 players"),
    (["--structure", "hyper"], "--structure 'hyper': choose from standard, turbo"),
    (["--variant", "holdem"], "--variant 'holdem': use stud, stud8, razz, rotation"),
    (["--hands-per-game", "3"], "--hands-per-game is for --variant rotation"),
    (["--buy-in", "0"], "--buy-in 0: at least 1"),
    (["--runs", "0"], "--runs 0: at least 1"),
    (["--starting-stack", "60"], "--starting-stack 60: a starting stack of 60 is too small"),
    (["--runs", "2", "--phh-out", "x"], "--phh-out writes the hands of one sit-and-go"),
])
def test_bad_options_are_refused_in_one_line_with_exit_status_2(args: list[str],
                                                                message: str) -> None:
    result = runner.invoke(app, ["tournament", *args])
    assert result.exit_code == 2
    assert result.output.startswith(f"error: {message}") and result.output.count("\n") == 1


def _interrupt_at_call(monkeypatch: pytest.MonkeyPatch, owner: object, name: str,
                       call: int) -> None:
    """Ctrl-C during call ``call`` (from 1) of ``owner.name``."""
    real, calls = getattr(owner, name), []

    def interrupted(*args: object) -> object:
        calls.append(args)
        if len(calls) == call:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(owner, name, interrupted)


def test_ctrl_c_during_runs_reports_the_runs_played_and_exits_130(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from stud.tournament import series

    # 100 runs on one worker: chunks of 13 runs, and the third was being played.
    _interrupt_at_call(monkeypatch, series, "play_runs", 3)
    args = ["tournament", "--players", "3", "--bots", "random,station", "--runs", "100",
            "--structure", "turbo", "--seed", "4"]
    result = runner.invoke(app, args)
    assert result.exit_code == 130
    lines = result.output.splitlines()
    assert lines[0] == ("interrupted (Ctrl-C) after 26 of 100 sit-and-gos: the results below are "
                        "of sit-and-gos 1 to 26")
    assert lines[1].startswith("26 sit-and-gos of Seven Card Stud, 3 players") and \
        "seeds 4 to 29" in lines[1]
    assert "| station | 1 |" in result.output
    _interrupt_at_call(monkeypatch, series, "play_runs", 3)
    as_json = runner.invoke(app, [*args, "--json"])
    assert as_json.exit_code == 130
    document = json.loads(as_json.stdout)
    assert (document["runs"], document["runs_asked"], document["partial"]) == (26, 100, True)
    monkeypatch.undo()
    whole = json.loads(_tournament(*args[1:-4], "--runs", "26", "--structure", "turbo",
                                   "--seed", "4", "--json"))
    assert whole["partial"] is False and whole["bots"] == document["bots"]


def test_ctrl_c_in_one_sit_and_go_says_its_phh_files_are_complete(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from stud.tournament import SitAndGo

    _interrupt_at_call(monkeypatch, SitAndGo, "play_hand", 4)
    result = runner.invoke(app, ["tournament", "--players", "3", "--phh-out", str(tmp_path)])
    assert result.exit_code == 130
    assert result.output == (f"interrupted (Ctrl-C) after 3 hands of the sit-and-go: their PHH "
                             f"files in {tmp_path} are complete\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["1.phh", "2.phh", "3.phh"]
