"""``bench/evaluate.py`` refuses settings it cannot measure with one line naming the option,
rather than a traceback after its warm-up."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).parents[2] / "bench" / "evaluate.py"


@pytest.mark.parametrize(("args", "message"), [
    (["--hands", "0"], "--hands 0: at least one hand"),
    (["--rounds", "0"], "--rounds 0: at least one round"),
    (["--repeat", "0"], "--repeat 0: at least one call a round"),
    (["--plain-hands", "0"], "--plain-hands 0: at least one hand"),
])
def test_bench_evaluate_refuses_what_it_cannot_measure(args: list[str], message: str) -> None:
    result = subprocess.run([sys.executable, str(BENCH), *args], capture_output=True, text=True,
                            timeout=120, check=False)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr
