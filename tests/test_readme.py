"""The README's example commands: what they write lands where git ignores it."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def example_outputs() -> list[str]:
    """Every path a README command writes (``--out``, ``--plot``, ``--phh-out``)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = "\n".join(re.findall(r"```sh\n(.*?)```", text, re.S))
    return re.findall(r"--(?:out|plot|phh-out) (\S+)", commands)


def test_the_readme_examples_write_where_git_ignores_it() -> None:
    outputs = example_outputs()
    assert len(outputs) >= 3, outputs
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: nothing to be untracked in")
    for path in outputs:
        done = subprocess.run(["git", "check-ignore", "--no-index", "-q", path], cwd=ROOT)
        assert done.returncode == 0, f"{path} (from a README example) is not ignored by git"
