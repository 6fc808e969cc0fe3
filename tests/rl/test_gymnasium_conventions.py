"""What a Gymnasium user expects of the vectorised environment beside its play: the info
dict's ``_key`` masks and the rewards' dtype as Gymnasium's own vector environments give them,
the registered id reachable from a fresh interpreter, and a compile said on standard error."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import gymnasium
import numba
import numpy as np
import pytest

from stud import rl


def assert_infos_agree(got: dict[str, Any], want: dict[str, Any], step: object) -> None:
    """Every key of the SyncVectorEnv's info is in ours with the same ``_key`` mask and the
    same values where the mask is set."""
    for key, value in want.items():
        if key.startswith("_"):
            continue
        mask = want[f"_{key}"]
        assert np.array_equal(got[f"_{key}"], mask), (step, key)
        assert got[f"_{key}"].dtype == np.bool_
        assert np.array_equal(got[key][mask], value[mask]), (step, key)
    for key in got:  # and each of our keys has its mask
        if not key.startswith("_"):
            assert f"_{key}" in got, (step, key)


def test_infos_carry_gymnasiums_key_masks_and_rewards_its_dtype_as_the_sync_twin() -> None:
    kwargs = dict(num_envs=6, variant="stud8", players=3)
    fast = gymnasium.make_vec(rl.SPEC_ID, **kwargs)
    sync = gymnasium.make_vec(rl.SPEC_ID, vectorization_mode="sync", **kwargs)
    fast.action_space.seed(2)
    got, got_info = fast.reset(seed=20)
    want, want_info = sync.reset(seed=20)
    assert_infos_agree(got_info, want_info, "reset")
    autoresets = 0
    for step in range(80):
        actions = fast.action_space.sample()
        got, got_reward, got_end, got_cut, got_info = fast.step(actions)
        want, want_reward, want_end, want_cut, want_info = sync.step(actions)
        assert np.array_equal(got, want), step
        assert got_reward.dtype == want_reward.dtype == np.float64, step
        assert np.array_equal(got_reward, want_reward), step
        assert_infos_agree(got_info, want_info, step)
        assert got_info["_net"].tolist() == got_end.tolist()
        autoresets += int((~got_info["_illegal"]).sum())
    assert autoresets > 0  # tables dealing their next hand have no "illegal"
    fast.close()
    sync.close()


def test_the_registered_id_is_made_from_a_fresh_interpreter_naming_its_module() -> None:
    """Gymnasium 1.x reads no plugin entry points: an id is known once the module that
    registers it is imported, which ``gymnasium.make("module:id")`` does itself."""
    code = (
        "import gymnasium, sys\n"
        "assert 'stud' not in sys.modules\n"
        "one = gymnasium.make('stud.rl:stud/SingleSeat-v0', variant='razz', players=3)\n"
        "obs, info = one.reset(seed=1)\n"
        "assert obs.shape == (240,) and info['action_mask'].dtype == bool\n"
        "many = gymnasium.make_vec('stud.rl:stud/SingleSeat-v0', num_envs=2)\n"
        "assert type(many).__name__ == 'StudVectorEnv'\n"
        "sync = gymnasium.make_vec('stud/SingleSeat-v0', num_envs=2,"
        " vectorization_mode='sync')\n"  # registered by now
        "assert type(sync.envs[0].unwrapped).__name__ == 'SingleSeatEnv'\n"
        "print('ok')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def _kernel_of_stud(name: str) -> Any:
    """A fresh numba function that passes for one of stud's (compiled on its first call)."""
    def add_one(x: int) -> int:
        return x + 1

    add_one.__module__ = f"stud.fast.{name}"
    return numba.njit(add_one)


def test_a_compile_of_studs_kernels_is_said_and_a_users_own_is_not(capsys: Any) -> None:
    from stud.fast.compiling import CompileNotice

    ours = _kernel_of_stud("probe")
    with CompileNotice(delay=0.0):
        assert ours(1) == 2  # compiles
    said = capsys.readouterr().err
    assert "compiling the fast engine" in said
    assert "compiled the fast engine in" in said and "numba's cache" in said
    with CompileNotice(delay=0.0):
        assert ours(2) == 3  # compiled already
    assert capsys.readouterr().err == ""

    def theirs(x: int) -> int:
        return x * 2

    with CompileNotice(delay=0.0):
        assert numba.njit(theirs)(2) == 4
    assert capsys.readouterr().err == ""
    with CompileNotice(delay=60.0):  # a compile shorter than the delay says nothing
        assert _kernel_of_stud("quick")(1) == 2
    assert capsys.readouterr().err == ""


def test_the_vector_env_says_when_its_step_compiles(capsys: Any,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A kernel first reached during a step (as a variant's showdown or a policy is) compiles
    then, and the environment says so on standard error; steps that compile nothing are
    silent."""
    vec = rl.vector_env(variant="razz", players=3, num_envs=2, opponents="station")
    vec._compiles.delay = 0.0
    _, info = vec.reset(seed=5)
    capsys.readouterr()
    fresh = _kernel_of_stud("showdown_probe")
    settle = rl.vector.settle_showdowns

    def settle_and_compile(*args: Any) -> None:
        fresh(1)
        settle(*args)

    monkeypatch.setattr(rl.vector, "settle_showdowns", settle_and_compile)
    _, _, _, _, info = vec.step(info["action_mask"].argmax(axis=1))
    assert "compiling the fast engine" in capsys.readouterr().err
    vec.step(info["action_mask"].argmax(axis=1))
    assert capsys.readouterr().err == ""
    vec.close()
