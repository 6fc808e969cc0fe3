"""Every observation's chips add up to the chips at the table, at every step and on the step
that ends the hand too: once the pot is awarded it is in the stacks and no longer in the pot
or in what each seat committed (the compiled encoder and ``rl.encode_compact`` alike)."""

from __future__ import annotations

import numpy as np
import pytest

from stud import rl
from stud.rl import COMPACT_LAYOUT

BIG_BET = rl.DEFAULT_STAKES.big_bet


def chips(observation: np.ndarray, players: int) -> tuple[float, float, float]:
    """(the stacks, the pot, the chips committed), in big bets, of one compact observation."""
    stacks = sum(float(observation[COMPACT_LAYOUT[f"seat{k}.stack"]][0]) for k in range(players))
    committed = sum(float(observation[COMPACT_LAYOUT[f"seat{k}.committed"]][0])
                    for k in range(players))
    return stacks, float(observation[COMPACT_LAYOUT["pot"]][0]), committed


def assert_chips_add_up(observation: np.ndarray, players: int, table: float, where: object
                        ) -> None:
    stacks, pot, committed = chips(observation, players)
    assert stacks + pot == pytest.approx(table, abs=1e-3), where
    assert committed == pytest.approx(pot, abs=1e-3), where
    if observation[COMPACT_LAYOUT["over"]][0]:
        assert pot == 0 and committed == 0, where


def check_or_call(mask: np.ndarray) -> np.ndarray:
    """Check or call where open, else bring in (third street's first action)."""
    return np.where(mask[:, rl.CHECK_CALL], rl.CHECK_CALL, rl.BRING_IN)


def test_checked_down_hand_ends_with_the_pot_in_the_winners_stack_only() -> None:
    """The report's hand: stud8, three players, every seat checking or calling down; on its
    last step the winner's stack holds the pot, and the pot and committed are 0."""
    vec = rl.vector_env(variant="stud8", players=3, num_envs=1, opponents=None)
    obs, info = vec.reset(seed=42)
    table = 3 * 200 / BIG_BET
    for step in range(40):
        assert_chips_add_up(obs[0], 3, table, step)
        obs, _, over, _, info = vec.step(check_or_call(info["action_mask"]))
        if over[0]:
            assert_chips_add_up(obs[0], 3, table, "last step")
            assert obs[0][COMPACT_LAYOUT["over"]][0] == 1
            break
    else:
        raise AssertionError("the hand did not end")
    vec.close()


@pytest.mark.parametrize("variant", ["stud", "stud8", "razz"])
@pytest.mark.parametrize("opponents", ["random", None])
def test_the_vector_envs_observed_chips_are_the_tables_at_every_step(
        variant: str, opponents: str | None) -> None:
    n, players = 16, 5
    vec = rl.vector_env(variant=variant, players=players, num_envs=n, opponents=opponents,
                        seed=len(variant))
    obs, info = vec.reset()
    rng = np.random.default_rng(len(variant))
    table = players * 200 / BIG_BET
    ended = 0
    for step in range(150):
        for i in range(n):
            assert_chips_add_up(obs[i], players, table, (step, i))
        mask = info["action_mask"]
        obs, _, over, _, info = vec.step(np.argmax(mask * rng.random(mask.shape), axis=1))
        ended += int(over.sum())
    assert ended > n * 3
    vec.close()


@pytest.mark.parametrize("variant", ["stud", "stud8", "razz"])
def test_the_reference_encoders_observed_chips_are_the_tables_at_every_step(
        variant: str) -> None:
    """``rl.encode_compact`` (the AEC environment's compact observation) of every seat, after
    every action and after the hand's end."""
    players = 4
    table = rl.env(variant=variant, players=players, observation="compact")
    rng = np.random.default_rng(7)
    total = players * 200 / BIG_BET
    for hand_seed in range(20):
        table.reset(seed=hand_seed)
        for _agent in table.agent_iter():
            for viewer in table.possible_agents:
                assert_chips_add_up(table.observe(viewer)["observation"], players, total,
                                    (hand_seed, viewer))
            observation, _, terminated, truncated, _ = table.last()
            if terminated or truncated:
                table.step(None)
                continue
            table.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        for viewer in table.possible_agents:  # the hand is over
            seen = table.observe(viewer)["observation"]
            assert seen[COMPACT_LAYOUT["over"]][0] == 1
            assert_chips_add_up(seen, players, total, (hand_seed, viewer, "over"))
