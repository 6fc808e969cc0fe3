"""The stud command: simulate writes PHH that replays, play is playable from the keyboard."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stud.cli import app
from stud.history.phh import load
from stud.rules import Stakes, Variant, profile
from stud.terminal import parse_choice, play_session

runner = CliRunner()


@pytest.mark.parametrize("variant", ["stud", "stud8", "razz"])
def test_simulate_writes_every_hand_as_phh_that_replays(variant: str, tmp_path: Path) -> None:
    out = tmp_path / "deep" / "out"
    result = runner.invoke(app, ["simulate", "--variant", variant, "--players", "7", "--hands",
                                 "40", "--seed", "5", "--phh-out", str(out),
                                 "--bots", "random,strength,station"])
    assert result.exit_code == 0, result.output
    files = sorted(out.glob("*.phh"))
    assert len(files) == 40
    history = load(files[0])
    assert history.finishing_stacks is not None and history.fields["_rules"] == "standard"
    replayed = runner.invoke(app, ["replay", "--json", str(out)])
    assert replayed.exit_code == 0, replayed.output
    assert all(r["ok"] for r in json.loads(replayed.output))


def test_simulate_without_phh_out_prints_a_summary_and_writes_nothing(tmp_path: Path,
                                                                       monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["simulate", "--hands", "25", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "25 hands" in result.output and "hands per second" in result.output
    assert list(tmp_path.iterdir()) == []


def test_simulate_is_reproducible_for_a_seed(tmp_path: Path) -> None:
    for run in ("a", "b"):
        runner.invoke(app, ["simulate", "--hands", "10", "--seed", "9", "--phh-out",
                            str(tmp_path / run), "--rules", "pokerkit"])
    for k in range(1, 11):
        first, second = (tmp_path / run / f"{k}.phh" for run in ("a", "b"))
        assert first.read_text() == second.read_text()


@pytest.mark.parametrize("args, message", [
    (["--variant", "holdem"], "unknown variant"),
    (["--players", "9"], "2 to 8 players"),
    (["--rules", "wsop"], "unknown rules profile"),
    (["--bots", "shark"], "unknown bot"),
    (["--stakes", "1/2/5"], "ANTE/BRING_IN/SMALL_BET/BIG_BET"),
    (["--stakes", "1/6/5/10"], "bring_in 6 must be less than the small bet 5"),
])
def test_simulate_rejects_bad_options_clearly(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["simulate", "--hands", "1", *args])
    assert result.exit_code == 2
    assert message in result.output


def test_menu_choice_by_number_word_and_amount() -> None:
    from stud.engine.actions import Action, ActionKind

    legal = (Action(ActionKind.FOLD), Action(ActionKind.CALL, 5), Action(ActionKind.RAISE, 10))
    assert parse_choice("2", legal) == legal[1]
    assert parse_choice("call", legal) == legal[1]
    assert parse_choice("raise 10", legal) == legal[2]
    for bad, why in [("7", "not on the menu"), ("check", "cannot check"), ("raise 12", "10"),
                     ("dance", "not an action"), ("", "type the number")]:
        with pytest.raises(ValueError, match=why):
            parse_choice(bad, legal)


def test_play_several_hands_with_bad_input_then_quit() -> None:
    answers = iter(["nonsense", "99"] + ["1"] * 200)
    lines: list[str] = []
    prompts = {"count": 0}

    def read(prompt: str) -> str:
        if prompt.startswith("Enter for the next hand"):
            prompts["count"] += 1
            return {1: "t", 2: "", 3: "h", 4: "", 5: "q"}[prompts["count"]]
        return next(answers)

    play_session(Variant.STUD8, Stakes(1, 2, 5, 10), profile("standard"),
                 ["strength", "random", "station"], 20, seed=4, read=read, write=lines.append)
    text = "\n".join(lines)
    assert "'nonsense' is not an action here" in text
    assert "99 is not on the menu" in text
    assert text.count("=== Hand") == 3
    assert "Stacks:" in text and "You leave with" in text
    assert "--- Hand history ---" in text and "posts the ante 1" in text
    assert 'variant = "F7S/8"' in text and "finishing_stacks" in text
    assert "stakes 5/10 (ante 1, bring-in 2)" in text
