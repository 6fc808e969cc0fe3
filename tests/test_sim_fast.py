"""The fast path of simulate: the reference path's hands and nets, on the batch engine."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from stud.cards import Deck
from stud.cli import app
from stud.rules import Stakes, Variant, profile
from stud.sim import Match, SimulationError, choose_engine, simulate
from stud.sim_fast import seeded_decks

runner = CliRunner()


def a_match(**changes: object) -> Match:
    settings: dict[str, object] = {
        "variant": Variant.STUD, "stakes": Stakes(1, 2, 5, 10), "rules": profile("standard"),
        "bots": ("random", "station", "random", "random", "station"), "seed": 3, "rotate": True}
    settings.update(changes)
    return Match(**settings)  # type: ignore[arg-type]


def test_seeded_decks_are_deck_seeded() -> None:
    seeds = np.array([0, 1, 7, 2**32 - 1, 2**32, 2**63 - 1, 123456789012345], dtype=np.uint64)
    decks = seeded_decks(seeds)
    for seed, deck in zip(seeds.tolist(), decks.tolist(), strict=True):
        assert deck == [c.id for c in Deck.seeded(seed).cards]


def test_a_negative_seed_deals_deck_seeded_of_that_seed() -> None:
    # random.Random(-s) is random.Random(s): a signed array is not read as its two's complement.
    seeds = [-7, -1, -(2**40) - 3, -(2**63), 12]
    decks = seeded_decks(np.array(seeds, dtype=np.int64))
    assert decks.tolist() == [[c.id for c in Deck.seeded(seed).cards] for seed in seeds]


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("changes", [
    {}, {"rotate": False}, {"bots": ("random",) * 8}, {"bots": ("station", "station")},
    {"buy_in": 2, "seed": 8}, {"rules": profile("pokerkit"), "bots": ("random",) * 6},
    {"bots": ("strength", "random", "strength", "station")},
    {"bots": ("strength",) * 7, "buy_in": 3, "rules": profile("pokerkit")}])
def test_the_fast_path_deals_and_plays_the_reference_hands(variant: Variant,
                                                          changes: dict[str, object]) -> None:
    match = a_match(variant=variant, **changes)
    reference = simulate(match, 300, progress=False, engine="reference")
    fast = simulate(match, 300, progress=False, engine="fast", size=70)
    assert np.array_equal(fast.nets, reference.nets)
    assert fast.nets.sum() == 0
    assert json.dumps(fast.to_json()["standings"]) == json.dumps(reference.to_json()["standings"])


def test_under_reshuffle_the_fast_path_still_plays_the_reference_hands() -> None:
    rules = dataclasses.replace(profile("standard"), deck_exhaustion="reshuffle")
    match = a_match(bots=("random",) * 8, rules=rules, seed=21)
    reference = simulate(match, 200, progress=False, engine="reference")
    assert np.array_equal(simulate(match, 200, progress=False, engine="fast").nets,
                          reference.nets)


def test_one_and_two_workers_give_the_same_results() -> None:
    match = a_match(variant=Variant.STUD8)
    one = simulate(match, 2000, workers=1, progress=False, engine="fast")
    two = simulate(match, 2000, workers=2, progress=False, engine="fast", size=300)
    assert np.array_equal(one.nets, two.nets)
    assert two.workers == 2


def test_auto_is_fast_only_where_every_bot_has_a_fast_form() -> None:
    assert choose_engine(a_match(), "auto") == "fast"
    assert choose_engine(a_match(), "auto", phh_out=True) == "fast"
    assert choose_engine(a_match(bots=("strength", "random", "station")), "auto") == "fast"
    for bot in ("expert", "equity"):
        match = a_match(bots=("random", bot))
        assert choose_engine(match, "auto") == "reference"
        with pytest.raises(SimulationError, match=f"the '{bot}' bot has no fast form"):
            choose_engine(match, "fast")
    with pytest.raises(SimulationError, match="engine 'warp'"):
        choose_engine(a_match(), "warp")


@pytest.mark.parametrize(("args", "message"), [
    (["--bots", "random,expert", "--engine", "fast"],
     "error: --engine fast: the fast engine cannot play this match: the 'expert' bot has no "
     "fast form (only random, station, strength do); use --engine reference"),
    (["--engine", "warp"], "error: --engine 'warp': choose from auto, fast, reference"),
])
def test_the_cli_says_why_the_fast_engine_cannot_play(args: list[str], message: str,
                                                      tmp_path: Path) -> None:
    args = [str(tmp_path / a) if a == "PHH" else a for a in args]
    result = runner.invoke(app, ["simulate", "--players", "2", "--hands", "5", *args])
    assert result.exit_code == 2
    assert message in result.output
    assert result.output.count("\n") == 1


def test_the_cli_reports_the_same_on_both_engines(tmp_path: Path) -> None:
    outputs = {}
    for engine in ("fast", "reference", "auto"):
        out = tmp_path / f"{engine}.json"
        result = runner.invoke(app, ["simulate", "--hands", "400", "--bots", "random,station",
                                     "--players", "4", "--rotate", "--engine", engine,
                                     "--out", str(out), "--quiet"])
        assert result.exit_code == 0, result.output
        document = json.loads(out.read_text())
        for timing in ("seconds", "hands_per_second", "cpu_seconds"):
            del document[timing]
        outputs[engine] = (result.output.splitlines()[1:-1], document)  # not "wrote ..."
    assert outputs["fast"] == outputs["reference"] == outputs["auto"]


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("rules", ["standard", "pokerkit"])
def test_the_fast_path_writes_the_reference_paths_phh_files(variant: Variant, rules: str,
                                                            tmp_path: Path) -> None:
    match = a_match(variant=variant, rules=profile(rules), buy_in=3, seed=31,
                    bots=("random", "station", "strength", "random", "strength"))
    simulate(match, 120, progress=False, engine="reference", phh_out=tmp_path / "reference")
    simulate(match, 120, workers=2, progress=False, engine="fast", phh_out=tmp_path / "fast",
             size=50)
    for number in range(1, 121):
        name = f"{number}.phh"
        assert (tmp_path / "fast" / name).read_bytes() == \
            (tmp_path / "reference" / name).read_bytes(), name


def test_stud_replay_replays_the_fast_engines_files_exactly(tmp_path: Path) -> None:
    result = runner.invoke(app, ["simulate", "--hands", "150", "--variant", "stud8",
                                 "--bots", "random,station,random", "--players", "7",
                                 "--buy-in", "4", "--engine", "fast", "--phh-out",
                                 str(tmp_path), "--quiet"])
    assert result.exit_code == 0, result.output
    replayed = runner.invoke(app, ["replay", str(tmp_path)])
    assert replayed.exit_code == 0, replayed.output
    assert replayed.output.splitlines()[-1] == "150 of 150 hands replayed exactly"


@pytest.mark.parametrize(("args", "message"), [
    (["--hands", "100", "--reference-hands", "200"],
     "--reference-hands 200: at most --hands (100): both engines' files are compared"),
    (["--hands", "0"], "--hands 0: at least one hand"),
    (["--rounds", "0"], "--rounds 0: at least one round"),
])
def test_bench_phh_fast_refuses_what_it_cannot_measure(args: list[str], message: str) -> None:
    bench = Path(__file__).parents[1] / "bench" / "phh_fast.py"
    result = subprocess.run([sys.executable, str(bench), *args], capture_output=True,
                            text=True, timeout=120, check=False)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr
