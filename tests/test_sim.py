"""Simulation at scale: results and PHH files never depend on workers, chunks or backend."""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
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


# One local Ray at a time: `make test` runs pytest in two processes (pytest-xdist).
@pytest.mark.xdist_group("ray")
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


def _interrupt_at_chunk(monkeypatch: pytest.MonkeyPatch, chunk: int) -> None:
    """Ctrl-C while this process plays chunk ``chunk`` (from 1) of a one-worker run."""
    from stud import sim

    play, calls = sim.play_chunk, []

    def interrupted(*args: object) -> object:
        calls.append(args)
        if len(calls) == chunk + 1:  # the first call is the warm-up's
            raise KeyboardInterrupt
        return play(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(sim, "play_chunk", interrupted)


@pytest.mark.parametrize(("engine", "workers"), [("reference", 1), ("fast", 2)])
def test_a_phh_file_interrupted_as_it_is_written_is_whole_or_not_there(
        engine: str, workers: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C between a file's opening and its writing left it empty: `stud replay` failed."""
    import io

    real_open, opened = io.open, []

    def open_then_interrupt(file: object, mode: str = "r", *args: object,
                            **kwargs: object) -> object:
        handle = real_open(file, mode, *args, **kwargs)  # type: ignore[call-overload]
        if "w" in mode and Path(str(file)).parent == tmp_path:
            opened.append(file)
            if len(opened) == 7:
                handle.close()
                raise KeyboardInterrupt
        return handle

    monkeypatch.setattr(io, "open", open_then_interrupt)
    match = a_match(bots=("random", "station", "strength"))
    with pytest.raises(KeyboardInterrupt):
        simulate(match, 30, workers=workers, phh_out=tmp_path, progress=False, size=10,
                 engine=engine)  # type: ignore[arg-type]
    monkeypatch.undo()
    files = sorted(tmp_path.iterdir(), key=lambda p: int(p.stem))
    assert [p.name for p in files] == [f"{n}.phh" for n in range(1, 7)]
    for path in files:
        assert path.read_text().startswith("variant = "), path


def test_ctrl_c_gives_the_results_of_the_hands_played_marked_partial(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _interrupt_at_chunk(monkeypatch, 4)
    out, phh = tmp_path / "out.json", tmp_path / "phh"
    result = runner.invoke(app, ["simulate", "--hands", "100", "--seed", "5", "--bots",
                                 "expert,random", "--players", "3", "--engine", "reference",
                                 "--phh-out", str(phh), "--out", str(out), "--quiet"])
    assert result.exit_code == 130, result.output
    lines = result.output.splitlines()
    # 100 hands on one worker: chunks of 13 hands, and the fourth was being played.
    assert lines[0] == (f"interrupted (Ctrl-C) after 39 of 100 hands: the results below are of "
                        f"hands 1 to 39; their PHH files in {phh} are complete")
    assert lines[1].startswith("39 hands of Seven Card Stud (standard rules), 3 players, in ")
    assert lines[-2:] == [f"wrote {out} (partial: 39 of 100 hands)",
                          f"wrote 39 PHH files to {phh}"]
    document = json.loads(out.read_text())
    assert (document["hands"], document["hands_asked"], document["partial"]) == (39, 100, True)
    assert len(document["per_hand_net_chips"][0]) == 39
    assert sorted(int(p.stem) for p in phh.glob("*.phh")) == list(range(1, 40))
    monkeypatch.undo()
    whole = simulate(a_match(bots=("expert", "random", "expert"), seed=5, rotate=False,
                             variant=Variant.STUD, labels=("expert-1", "random-2", "expert-3")),
                     39, progress=False)
    assert document["per_hand_net_chips"] == whole.nets.T.tolist()  # hands 1 to 39, in order


def test_ctrl_c_before_any_hand_is_played_says_so(monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path) -> None:
    _interrupt_at_chunk(monkeypatch, 1)
    result = runner.invoke(app, ["league", "--bots", "random,station", "--hands", "50",
                                 "--out", str(tmp_path / "out.json"), "--quiet"])
    assert result.exit_code == 130
    assert result.output == "interrupted (Ctrl-C) before the first hand was played\n"
    assert not (tmp_path / "out.json").exists()


def _alive_in_group(group: int) -> list[int]:
    """The processes of a process group that have not ended (zombies have)."""
    alive = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group and fields[0] != "Z":
            alive.append(int(stat.parent.name))
    return alive


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes in /proc")
@pytest.mark.parametrize("bots", ["strength", "expert"])
def test_ctrl_c_on_two_workers_stops_at_once_with_the_results_so_far(bots: str,
                                                                     tmp_path: Path) -> None:
    """Ctrl-C at a terminal signals the whole process group: the command, the workers' server
    and the workers. It used to wait for the chunks being played (6 to 16 s), then print
    nothing and write nothing."""
    import os
    import signal
    import time

    phh, out = tmp_path / "phh", tmp_path / "out.json"
    process = subprocess.Popen(
        [sys.executable, "-c", "from stud.cli import main; main()", "simulate", "--hands",
         "200000", "--seed", "1",
         "--bots", bots, "--workers", "2", "--phh-out", str(phh), "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 240
        while not any(phh.glob("*.phh")) and time.monotonic() < deadline:
            assert process.poll() is None, process.communicate()
            time.sleep(0.1)
        os.killpg(process.pid, signal.SIGINT)
        asked = time.monotonic()
        stdout, stderr = process.communicate(timeout=60)
        took = time.monotonic() - asked
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr
    played = int(stderr.split("interrupted (Ctrl-C) after ")[1].split(" of 200000 hands")[0])
    assert played > 0 and stdout.startswith(f"{played} hands of Seven Card Stud")
    assert took < 8, f"{took:.1f} s from Ctrl-C to the end"
    document = json.loads(out.read_text())
    assert (document["hands"], document["partial"]) == (played, True)
    assert sorted(int(p.stem) for p in phh.glob("*.phh")) == list(range(1, played + 1))
    replayed = runner.invoke(app, ["replay", str(phh)])
    assert replayed.exit_code == 0, replayed.output[-500:]
    for _ in range(50):
        if not _alive_in_group(process.pid):
            break
        time.sleep(0.1)
    assert not _alive_in_group(process.pid), "a worker or its server is still running"


def _run_script(path: Path, text: str, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    path.write_text(text, encoding="utf-8")
    return subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                          timeout=timeout, check=False, cwd=path.parent)


def test_the_speed_counts_the_playing_not_the_workers_start(tmp_path: Path) -> None:
    """A fresh process starts the workers' server and its workers: about a second, which the
    hands per second of a short run on two workers used to count (a tenth of the speed)."""
    done = _run_script(tmp_path / "speed.py", """
import time
from stud.rules import Stakes, Variant, profile
from stud.sim import Match, simulate

if __name__ == "__main__":
    match = Match(Variant.STUD, Stakes(1, 2, 5, 10), profile("standard"), ("random", "station"))
    began = time.perf_counter()
    results = simulate(match, 40, workers=2, progress=False, size=10)
    print(results.seconds, time.perf_counter() - began)
""")
    assert done.returncode == 0, done.stderr
    counted, wall = map(float, done.stdout.split())
    assert counted < wall / 3, (counted, wall)


def test_warming_the_fast_engine_for_a_match_loads_every_kernel_its_hands_use(
        tmp_path: Path) -> None:
    """The fast engine's kernels load (or compile) on first call; the workers warmed up on a
    2-player match without PHH, so an 8-player run's first chunk, or one writing PHH, loaded
    or compiled more inside the timed part (20 s on a fresh cache)."""
    done = _run_script(tmp_path / "warm.py", """
import gc
from numba.core.dispatcher import Dispatcher
from stud.rules import Stakes, Variant, profile
from stud.sim import Match
from stud.sim_fast import play_chunk_fast, warm


def loaded() -> int:
    return sum(len(d.overloads) for d in gc.get_objects() if isinstance(d, Dispatcher))


mixed = ("strength", "random", "station", "strength", "random", "station", "random", "station")
for variant in Variant:
    for bots, rules, phh in ((mixed, "standard", True), (("random",) * 3, "pokerkit", False)):
        match = Match(variant, Stakes(1, 2, 5, 10), profile(rules), bots, rotate=True, seed=3)
        warm(match, write_phh=phh)
        before = loaded()
        for first, count in ((1, 1500), (1501, 2), (1503, 1)):  # a last chunk may be short
            play_chunk_fast(match, first, count, write_phh=phh)
        print(loaded() - before)
""", timeout=900)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0"] * 6, done.stdout


def test_a_bot_registered_here_but_not_in_the_workers_is_named(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from stud.bots import BOTS
    from stud.bots.simple import CallingStation

    monkeypatch.setitem(BOTS, "late", CallingStation)  # not at import: the workers lack it
    match = a_match(bots=("late", "random"))
    assert simulate(match, 10, progress=False).hands == 10  # known here, on one worker
    with pytest.raises(SimulationError, match=r"unknown bot 'late' in a worker process: "
                                              r"register a bot of your own in stud.bots.BOTS "
                                              r"when a module the workers import is imported"):
        simulate(match, 10, workers=2, progress=False, size=5)
    with pytest.raises(SimulationError, match="unknown bot 'nobody': choose from "):
        simulate(a_match(bots=("nobody", "random")), 10, progress=False)


def test_a_script_that_starts_workers_outside_its_main_guard_is_told_so(tmp_path: Path) -> None:
    done = _run_script(tmp_path / "unguarded.py", """
from stud.rules import Stakes, Variant, profile
from stud.sim import Match, simulate

match = Match(Variant.STUD, Stakes(1, 2, 5, 10), profile("standard"), ("random", "station"))
simulate(match, 20, workers=2, progress=False, size=5)
""")
    assert done.returncode != 0
    # (Each worker's own traceback comes first: multiprocessing's, saying the same at length.)
    assert ('stud.sim.SimulationError: a worker process stopped as it started; from a script, '
            'start the run under `if __name__ == "__main__":` (each worker imports the script)'
            ) in done.stderr.splitlines()
    assert "BrokenProcessPool" not in done.stderr


def _readme_bot_example() -> str:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"```python\n(.*?)```", readme, re.S) if "BOTS[" in b]
    assert len(blocks) == 1, "the README shows one script that plugs in a bot of one's own"
    return blocks[0]


def test_the_readmes_own_bot_example_runs_on_two_workers(tmp_path: Path) -> None:
    example = _readme_bot_example()
    assert "workers=2" in example and 'if __name__ == "__main__":' in example
    done = _run_script(tmp_path / "my_bot.py", example)
    assert done.returncode == 0, done.stderr
    rows = table_lines(done.stdout)
    assert rows[0] == "| rank | bot | hands | net chips | bb/100 | 95% CI |"
    assert {row.split("|")[2].strip() for row in rows[2:]} == {"tight", "strength", "random"}


def test_a_league_of_one_hand_says_hand_and_draws_its_point(tmp_path: Path) -> None:
    from matplotlib.image import imread

    png = tmp_path / "one.png"
    result = runner.invoke(app, ["league", "--bots", "random,station", "--hands", "1", "--plot",
                                 str(png), "--phh-out", str(tmp_path / "phh"), "--quiet"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[1].startswith("1 hand in ") and "wrote 1 PHH file to" in lines[-1]
    pixels = imread(str(png))[:, :, :3]
    # The lower plot (big bets per 100 hands, no legend) holds the first bot's colour (C0)
    # only where its point is drawn: it was empty axes.
    lower = pixels[pixels.shape[0] // 2:]
    blue = np.abs(lower - np.array([0x1F, 0x77, 0xB4]) / 255).max(axis=2) < 0.08
    assert blue.sum() > 20


def test_a_slow_load_from_numbas_cache_is_not_called_a_compile(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A busy machine took 4 s to load the kernels from the cache: it said "compiled"."""
    import time

    from stud import sim_fast

    monkeypatch.setattr(sim_fast, "warm", lambda match, write_phh: time.sleep(3.2))
    simulate(a_match(bots=("random", "station")), 10, engine="fast")
    assert capsys.readouterr().err == ("loaded the fast engine from numba's cache in 3 s (not "
                                       "counted in the speed below)\n")
