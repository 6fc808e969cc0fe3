"""Simulation at scale: results and PHH files never depend on workers, chunks or backend."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from stud.cli import app
from stud.history.phh import dumps, from_hand
from stud.rules import Stakes, Variant, profile
from stud.sim import (
    Match,
    Results,
    SimulationError,
    Standing,
    bb_per_100,
    chunks,
    derive_seed,
    derive_seeds,
    play_hand,
    simulate,
)

runner = CliRunner()
PNG = b"\x89PNG\r\n\x1a\n"


def a_match(**changes: object) -> Match:
    settings: dict[str, object] = {
        "variant": Variant.STUD8, "stakes": Stakes(1, 2, 5, 10), "rules": profile("standard"),
        "bots": ("strength", "random", "station", "strength"), "seed": 11, "rotate": True}
    settings.update(changes)
    return Match(**settings)  # type: ignore[arg-type]


def phh_files(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted(folder.glob("*.phh"))}


def table_lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith("|")]


def test_one_and_two_workers_give_the_same_results_and_phh(tmp_path: Path) -> None:
    match = a_match()
    one = simulate(match, 60, workers=1, phh_out=tmp_path / "one", progress=False, size=60)
    two = simulate(match, 60, workers=2, phh_out=tmp_path / "two", progress=False, size=7)
    assert np.array_equal(one.nets, two.nets)
    assert one.standings() == two.standings()
    files = phh_files(tmp_path / "one")
    assert len(files) == 60 and files == phh_files(tmp_path / "two")


def test_every_hand_depends_only_on_the_seed_and_its_number(tmp_path: Path) -> None:
    match = a_match(variant=Variant.RAZZ)
    results = simulate(match, 12, phh_out=tmp_path, progress=False, size=5)
    hand, seating = play_hand(match, 9)
    alone = dumps(from_hand(hand, hand=9, _seed=match.seed,
                            players=[match.names[e] for e in seating]))
    assert (tmp_path / "9.phh").read_text() == alone
    assert [hand.stacks[s] - hand.starting_stacks[s] for s in range(4)] == \
        [results.nets[8, e] for e in seating]
    # Chips are conserved in every hand, and another seed deals other hands.
    assert not results.nets.sum(axis=1).any()
    other = simulate(a_match(variant=Variant.RAZZ, seed=12), 12, progress=False)
    assert not np.array_equal(results.nets, other.nets)


def test_seed_derivation_is_pinned() -> None:
    # Changing it would change every simulation ever run with a seed.
    assert derive_seed(0, 1, "deck") == 0x3D2AFCF0199764F6
    assert derive_seed(7, 123, "bot2") == 0x4ACC6E2B3588A46
    assert derive_seed(0, 1, "deck") != derive_seed(0, 2, "deck") != derive_seed(1, 1, "deck")
    purposes = ["deck", "bot0", "bot1", "bot7"]
    for seed, number in ((0, 1), (7, 123), (2**40, 99)):
        assert derive_seeds(seed, number, purposes) == [derive_seed(seed, number, p)
                                                        for p in purposes]


def test_rotation_seats_every_entrant_in_every_seat_equally() -> None:
    match = a_match(bots=("random", "station", "strength"))
    assert match.seating(1) == (0, 1, 2)
    assert match.seating(2) == (2, 0, 1)  # entrant 0 has moved to seat 2
    seats = {e: [match.seating(h).index(e) for h in range(1, 301)] for e in range(3)}
    for entrant, played in seats.items():
        assert sorted(set(played)) == [0, 1, 2]
        assert all(played.count(s) == 100 for s in range(3)), entrant
    fixed = a_match(rotate=False)
    assert {fixed.seating(h) for h in range(1, 10)} == {(0, 1, 2, 3)}


def test_chunks_cover_every_hand_once() -> None:
    assert chunks(10, 4) == [(1, 4), (5, 4), (9, 2)]
    assert chunks(3, 500) == [(1, 3)]


def test_confidence_interval_on_a_known_sample() -> None:
    # Nets 10, -10, 20, 0 chips at a big bet of 10: 1, -1, 2, 0 big bets a hand.
    mean, se = bb_per_100(np.array([10, -10, 20, 0]), 10)
    assert mean == pytest.approx(50.0)
    # sample sd of (1, -1, 2, 0) is sqrt(5/3); over sqrt(4) hands, times 100
    assert se == pytest.approx(100 * math.sqrt(5 / 3) / 2)
    low, high = Standing("a", "random", 4, 20, mean, se).ci95
    assert low == pytest.approx(50 - 1.959964 * 64.54972, abs=1e-3)
    assert high == pytest.approx(50 + 126.5151, abs=1e-3)
    results = Results(a_match(bots=("random", "station")),
                      np.array([[10, -10], [-10, 10], [20, -20], [0, 0]]), seconds=1.0)
    first, second = results.standings()
    assert (first.net, first.bb_per_100, first.se) == (20, pytest.approx(50), pytest.approx(se))
    assert second.bb_per_100 == pytest.approx(-50)
    means, errors = results.running_bb_per_100(np.array([1, 2, 4]))
    assert means[:, 0] == pytest.approx([100, 0, 50]) and math.isnan(errors[0, 0])
    assert errors[1:, 0] == pytest.approx([100, se])  # sd of (1, -1) is sqrt(2); / sqrt(2)
    assert math.isnan(bb_per_100(np.array([5]), 10)[1])


def test_a_net_of_nothing_is_zero_big_bets_not_minus_zero() -> None:
    # These nets sum to 0; the float mean of their big bets is -1.96e-15, printed "-0.0".
    nets = np.array([1, 25, 45, -47, -36, 32, 44, -26, -19, 36, -8, -23, 32, -25, -10, 14, 4,
                     -42, -48, 36, 25, 33, 3, 31, -18, -5, 28, -38, -44])
    assert nets.sum() == 0
    mean, _ = bb_per_100(nets, 10)
    assert mean == 0 and f"{mean:+.1f}" == "+0.0"


def test_bad_settings_are_refused_clearly() -> None:
    with pytest.raises(SimulationError, match="2 to 8 players"):
        a_match(bots=("random",))
    with pytest.raises(SimulationError, match="backend 'spark'"):
        simulate(a_match(), 1, backend="spark", progress=False)  # type: ignore[arg-type]
    with pytest.raises(SimulationError, match="at least one hand"):
        simulate(a_match(), 0, progress=False)


def test_simulate_command_same_output_and_files_on_two_workers(tmp_path: Path) -> None:
    outputs = []
    for workers in ("1", "2"):
        result = runner.invoke(app, [
            "simulate", "--variant", "razz", "--players", "5", "--hands", "30", "--seed", "4",
            "--bots", "strength,random", "--workers", workers, "--quiet",
            "--phh-out", str(tmp_path / workers), "--out", str(tmp_path / f"{workers}.json")])
        assert result.exit_code == 0, result.output
        outputs.append(result.output.splitlines())
    assert outputs[0][1:6] == outputs[1][1:6]  # every seat's result
    assert outputs[0][1].startswith("  seat 1 strength-1     net ")
    assert "2 workers, process backend" in outputs[1][0]
    assert phh_files(tmp_path / "1") == phh_files(tmp_path / "2")
    one, two = (json.loads((tmp_path / f"{w}.json").read_text()) for w in ("1", "2"))
    assert one["command"] == "simulate" and one["hands"] == 30
    assert one["standings"] == two["standings"]
    assert one["per_hand_net_chips"] == two["per_hand_net_chips"]
    assert len(one["per_hand_net_chips"]) == 5 and len(one["per_hand_net_chips"][0]) == 30
    assert sum(s["net_chips"] for s in one["standings"]) == 0
    assert one["running"]["hands"][-1] == 30


@pytest.mark.parametrize("args, message", [
    (["--workers", "0"], "--workers 0: at least one"),
    (["--backend", "spark"], "choose from process, ray"),
    (["--buy-in", "0"], "at least one big bet"),
    # Chip counts past what eight stacks may sum to exactly (int64 wrapped them round).
    (["--buy-in", "922337203685477580"], "--buy-in 922337203685477580: at most "
                                         "112,589,990,684,262 big bets of 10"),
    (["--stakes", "1/2/5/10000000000000000000"], "big_bet 10000000000000000000 is more than "
                                                 "1,125,899,906,842,624 chips"),
    (["--hands", "1000000000000"], "hands 1000000000000: at most 100,000,000 in one run"),
])
def test_simulate_rejects_bad_run_options(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["simulate", "--hands", "1", *args])
    assert result.exit_code == 2
    assert message in result.output


def test_league_reports_a_table_json_and_png(tmp_path: Path) -> None:
    tables = []
    for workers in ("1", "2"):
        out, png = tmp_path / f"{workers}.json", tmp_path / f"{workers}.png"
        result = runner.invoke(app, [
            "league", "--bots", "strength,random,station", "--hands", "45", "--seed", "3",
            "--workers", workers, "--out", str(out), "--plot", str(png), "--quiet"])
        assert result.exit_code == 0, result.output
        lines = result.output.splitlines()
        assert lines[0] == ("League of 3 bots at Seven Card Stud (standard rules), "
                            "seats in rotation, seed 3")
        assert lines[1].startswith("45 hands in ") and "hands per second" in lines[1]
        rows = table_lines(result.output)
        assert rows[0] == "| rank | bot | hands | net chips | bb/100 | 95% CI |"
        assert len(rows) == 2 + 3
        assert {row.split("|")[2].strip() for row in rows[2:]} == {"strength", "random",
                                                                   "station"}
        assert [row.split("|")[1].strip() for row in rows[2:]] == ["1", "2", "3"]
        assert f"wrote {out}" in result.output and f"wrote {png}" in result.output
        assert png.read_bytes()[:8] == PNG
        tables.append(rows)
        document = json.loads(out.read_text())
        assert document["command"] == "league" and document["rotate"] is True
        assert document["seed"] == 3 and document["hands"] == 45
        standing = document["standings"][0]
        low, high = standing["ci95_bb_per_100"]
        assert low < standing["bb_per_100"] < high
        assert high - standing["bb_per_100"] == pytest.approx(1.96 * standing["se_bb_per_100"],
                                                             rel=1e-3)
    assert tables[0] == tables[1]
    bb = [float(row.split("|")[5]) for row in tables[0][2:]]
    assert bb == sorted(bb, reverse=True)


def test_league_writes_phh_with_the_bots_in_rotation(tmp_path: Path) -> None:
    result = runner.invoke(app, ["league", "--bots", "random,station", "--hands", "4",
                                 "--phh-out", str(tmp_path), "--quiet"])
    assert result.exit_code == 0, result.output
    assert "wrote 4 PHH files" in result.output
    assert 'players = ["random", "station"]' in (tmp_path / "1.phh").read_text()
    assert 'players = ["station", "random"]' in (tmp_path / "2.phh").read_text()


@pytest.mark.parametrize("bots, message", [
    ("random", "at least two bots"),
    ("random,shark", "unknown bot 'shark'"),
    (",".join(["random"] * 9), "at most 8 bots"),
])
def test_league_rejects_bad_lineups(bots: str, message: str) -> None:
    result = runner.invoke(app, ["league", "--bots", bots, "--hands", "2"])
    assert result.exit_code == 2
    assert message in result.output


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'stud[ray]')")
    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    except Exception as error:  # noqa: BLE001 - any failure to start means: skip, saying why
        pytest.skip(f"a local Ray cannot start here: {error}")
    yield
    ray.shutdown()


def test_ray_backend_gives_the_process_results(local_ray: None, tmp_path: Path) -> None:
    match = a_match(variant=Variant.STUD)
    local = simulate(match, 40, workers=2, phh_out=tmp_path / "process", progress=False, size=6)
    on_ray = simulate(match, 40, workers=2, backend="ray", phh_out=tmp_path / "ray",
                      progress=False, size=9)
    assert on_ray.backend == "ray"
    assert np.array_equal(local.nets, on_ray.nets)
    assert phh_files(tmp_path / "process") == phh_files(tmp_path / "ray")
    result = runner.invoke(app, ["league", "--bots", "strength,random", "--hands", "20",
                                 "--backend", "ray", "--workers", "2", "--quiet"])
    assert result.exit_code == 0, result.output
    assert "ray backend" in result.output
    processes = runner.invoke(app, ["league", "--bots", "strength,random", "--hands", "20",
                                    "--quiet"])
    assert table_lines(result.output) == table_lines(processes.output)
