"""stud.rl.vector_env: many tables on the fast engine, checked against the single-table
environment (through Gymnasium's own SyncVectorEnv), against the reference engine in the
every-seat mode, and through Gymnasium's checks."""

from __future__ import annotations

import re
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env, data_equivalence
from gymnasium.utils.performance import benchmark_vector_step

from stud import rl
from stud.cards import Deck
from stud.engine import Hand
from stud.fast import layout as L
from stud.fast.tables import LANES, seeded_decks, seeded_generators
from stud.rl import COMPACT_LAYOUT, SingleSeatEnv, StudVectorEnv
from stud.rl.compact import HandSeeds, StreetBets, encode_compact
from stud.rules import PROFILES

VARIANTS = ("stud", "stud8", "razz")
SEATS = 8


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A random open action a table (0 where none is open: a table about to deal ignores it)."""
    return np.argmax(mask * rng.random(mask.shape), axis=1)


def single_tables(n: int, **kwargs: Any) -> gymnasium.vector.SyncVectorEnv:
    return gymnasium.vector.SyncVectorEnv(
        [lambda: SingleSeatEnv(observation="compact", **kwargs) for _ in range(n)])


# Random, station and strength opponents; fixed and drawn seats; 8 callers exhaust the deck
# (community card), and under the pokerkit profile the burned cards are reshuffled.
TABLES = [
    dict(players=6, opponents="random", seat=None),
    dict(players=3, opponents="station", seat=2),
    dict(players=2, opponents=["random"], seat=None),
    dict(players=8, opponents="station", seat=None),
    dict(players=8, opponents="station", seat=4, rules="pokerkit"),
    dict(players=5, opponents=["station", "random", "random", "station"], seat=None),
    dict(players=6, opponents="strength", seat=None),
    dict(players=4, opponents=["strength", "random", "strength"], seat=2, rules="pokerkit"),
]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"{t['players']}p-{t['opponents']}")
def test_observations_masks_and_rewards_equal_the_single_table_envs(variant: str,
                                                                   table: dict) -> None:
    n, steps = 8, 90
    vec = rl.vector_env(variant=variant, num_envs=n, threads=2, **table)
    ref = single_tables(n, variant=variant, **table)
    rng = np.random.default_rng(len(variant) * 100 + table["players"])
    seed = int(rng.integers(2**40))
    got, got_info = vec.reset(seed=seed)
    want, want_info = ref.reset(seed=seed)
    hands = boards = reshuffles = 0
    for step in range(steps):
        boards += int((vec.table[:, L.BOARD] >= 0).sum())
        reshuffles += int((vec.table[:, L.RESHUFFLES] > 0).sum())
        assert np.array_equal(got_info["action_mask"], want_info["action_mask"]), step
        assert np.array_equal(got, want), step
        actions = random_actions(got_info["action_mask"], rng)
        got, got_reward, got_end, got_cut, got_info = vec.step(actions)
        want, want_reward, want_end, want_cut, want_info = ref.step(actions)
        assert np.array_equal(got_reward, want_reward), step
        assert np.array_equal(got_end, want_end), step
        assert not got_cut.any() and not want_cut.any()
        hands += int(got_end.sum())
    assert hands > n * 5
    if table["players"] == 8:  # the deck ran out: a community card, reshuffles under pokerkit
        assert boards > 0
        assert (reshuffles > 0) == (table.get("rules") == "pokerkit")
    vec.close()
    ref.close()


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_seat_mode_equals_the_engine_step_by_step(variant: str) -> None:
    """opponents=None: each step is the decision of the seat to act; the same decks and
    actions on the reference engine give the same masks (its legal actions), observations
    (of the seat to act), rewards and nets."""
    n, players, steps = 10, 6, 160
    vec = rl.vector_env(variant=variant, players=players, num_envs=n, opponents=None)
    obs, info = vec.reset(seed=[1000 + 7 * i for i in range(n)])
    seeds = [HandSeeds(1000 + 7 * i) for i in range(n)]
    stakes = rl.DEFAULT_STAKES

    def deal(i: int) -> tuple[Hand, StreetBets]:
        hand = Hand(variant, stakes, [200] * players, None, Deck.seeded(seeds[i].seed))
        return hand, StreetBets(hand)

    hands = [deal(i) for i in range(n)]
    last = [0] * n
    rng = np.random.default_rng(5)
    ended = 0
    for step in range(steps):
        for i, (hand, bets) in enumerate(hands):
            seat = hand.to_act if not hand.is_over else last[i]
            assert info["seat"][i] == seat
            want = (rl.action_mask(hand.legal_actions()).astype(bool) if not hand.is_over
                    else np.zeros(rl.NUM_ACTIONS, bool))
            assert np.array_equal(info["action_mask"][i], want), (step, i)
            assert np.array_equal(obs[i], encode_compact(hand.view(seat), bets)), (step, i)
        actions = random_actions(info["action_mask"], rng)
        obs, rewards, ended_now, _, info = vec.step(actions)
        for i in range(n):
            hand, bets = hands[i]
            if hand.is_over:  # autoreset: this step dealt the next hand
                seeds[i].next_hand()
                hands[i] = deal(i)
                assert rewards[i] == 0 and not ended_now[i]
                continue
            last[i] = hand.to_act
            move, _ = rl.engine_action(hand, int(actions[i]))
            hand.act(move)
            bets.track(hand)
            assert ended_now[i] == hand.is_over
            if hand.is_over:
                ended += 1
                net = hand.result.net
                assert info["net"][i].tolist() == list(net)
                assert rewards[i] == net[last[i] - 1]
    assert ended > n * 5


def hidden_cards_of_others(obs: np.ndarray, seat: int, hand_cards: list[list[tuple[int, bool]]],
                           players: int) -> None:
    """Block k's cards are exactly seat (seat - 1 + k)'s visible cards: all its own for
    k = 0, only the up cards for the others."""
    for k in range(players):
        owner = (seat - 1 + k) % players
        cards = obs[COMPACT_LAYOUT[f"seat{k}.cards"]]
        up = obs[COMPACT_LAYOUT[f"seat{k}.up"]]
        held = hand_cards[owner]
        assert obs[COMPACT_LAYOUT[f"seat{k}.held"]][0] == len(held)
        for slot in range(7):
            if slot >= len(held):
                assert cards[slot] == 0 and up[slot] == 0
                continue
            card, face_up = held[slot]
            assert up[slot] == face_up
            assert cards[slot] == (card + 1 if face_up or k == 0 else 0)


@pytest.mark.parametrize("opponents", ["random", None])
def test_no_observation_holds_another_seats_down_card(opponents: str | None) -> None:
    n, players = 16, 7
    vec = rl.vector_env(variant="stud", players=players, num_envs=n, opponents=opponents)
    obs, info = vec.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(120):
        for i in range(n):
            row = vec.table[i]
            cards = [[(int(row[L.CARD + L.CARDS * s + k]), bool(row[L.UP + s] >> k & 1))
                      for k in range(int(row[L.HELD + s]))] for s in range(players)]
            hidden_cards_of_others(obs[i], int(info["seat"][i]), cards, players)
            down = {c for s in range(players) if s != info["seat"][i] - 1
                    for c, up in cards[s] if not up}
            shown = set()
            for k in range(players):
                shown |= {int(c) - 1 for c in obs[i][COMPACT_LAYOUT[f"seat{k}.cards"]] if c}
            assert not (shown & down)
        obs, _, _, _, info = vec.step(random_actions(info["action_mask"], rng))


@pytest.mark.parametrize("opponents", ["random", "strength", "station", None])
def test_rewards_sum_to_zero_per_hand(opponents: str | None) -> None:
    """Chips are conserved: every ended hand's nets sum to zero, and the learner's reward is
    its own net."""
    n = 64
    vec = rl.vector_env(variant="stud8", players=6, num_envs=n, opponents=opponents, seed=9)
    obs, info = vec.reset()
    rng = np.random.default_rng(9)
    ended = 0
    for _ in range(60):
        obs, rewards, over, _, info = vec.step(random_actions(info["action_mask"], rng))
        nets = info["net"]
        assert (nets.sum(axis=1) == 0).all()
        assert np.array_equal(rewards[over], nets[over, info["seat"][over] - 1])
        assert (rewards[~over] == 0).all()
        assert (nets[~over] == 0).all()
        ended += int(over.sum())
    assert ended > 2 * n


def test_the_single_table_compact_env_passes_gymnasiums_check_env() -> None:
    check_env(SingleSeatEnv(variant="razz", players=4, observation="compact"),
              skip_render_check=True)


def test_gymnasiums_vector_checks() -> None:
    """What Gymnasium checks of an environment, where it applies to a VectorEnv: the spaces
    batch the single ones, reset and step return what they say and are in their spaces,
    seeded resets and steps are deterministic, returned arrays are not reused, the episode
    statistics wrapper counts hands, and partial resets (reset_mask) work."""
    n = 8

    def make() -> StudVectorEnv:
        return rl.vector_env(variant="stud", players=4, num_envs=n, opponents="random")

    env, twin = make(), make()
    assert env.observation_space == gymnasium.vector.utils.batch_space(
        env.single_observation_space, n)
    assert env.action_space == gymnasium.vector.utils.batch_space(env.single_action_space, n)
    first, info = env.reset(seed=21)
    again, info_again = twin.reset(seed=21)
    assert data_equivalence((first, info), (again, info_again), exact=True)
    assert env.observation_space.contains(first)
    env.action_space.seed(4)
    for _ in range(50):
        actions = random_actions(info["action_mask"], np.random.default_rng(_))
        before = first
        first, rewards, over, cut, info = env.step(actions)
        second = twin.step(actions)
        assert data_equivalence((first, rewards, over, cut, info), second, exact=True)
        assert env.observation_space.contains(first)
        assert first is not before and rewards.dtype == np.float64  # as SyncVectorEnv
        assert over.dtype == np.bool_ and cut.dtype == np.bool_
    mask = np.zeros(n, bool)
    mask[[1, 5]] = True
    kept = env.table[0].copy()
    obs, info = env.reset(seed=99, options={"reset_mask": mask})
    assert np.array_equal(env.table[0], kept)
    assert info["action_mask"][mask].any(axis=1).all()
    with pytest.raises(ValueError, match="reset options"):
        env.reset(options={"shuffle": True})
    stats = gymnasium.wrappers.vector.RecordEpisodeStatistics(make())
    _, info = stats.reset(seed=1)
    episodes = 0
    for step in range(40):
        actions = random_actions(info["action_mask"], np.random.default_rng(step))
        _, _, _, _, info = stats.step(actions)
        if "episode" in info:
            episodes += int(info["_episode"].sum())
    assert episodes > n


def test_an_illegal_action_index_is_refused_and_changes_no_table() -> None:
    env = rl.vector_env(variant="stud", players=3, num_envs=4, opponents="station", seat=1)
    _, info = env.reset(seed=2)
    table = env.table.copy()
    closed = np.argmin(info["action_mask"], axis=1)  # a closed action in every table
    with pytest.raises(rl.IllegalActionIndex, match="table 0: action .* is not open to seat 1"):
        env.step(closed)
    with pytest.raises(rl.IllegalActionIndex, match="not an action"):
        env.step(np.array([0, 1, 7, 1]))
    with pytest.raises(rl.IllegalActionIndex, match="shape"):
        env.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(rl.IllegalActionIndex, match="integers"):
        env.step(np.zeros(4))
    with pytest.raises(rl.IllegalActionIndex, match=f"table 2: action {2**63 + 1} is not an"):
        env.step(np.array([0, 1, 2**63 + 1, 1], dtype=np.uint64))
    assert np.array_equal(env.table, table)
    env.step(np.argmax(info["action_mask"], axis=1))


def test_bad_arguments_get_clear_errors() -> None:
    with pytest.raises(ValueError, match="unknown opponent 'shark'"):
        rl.vector_env(opponents="shark")
    with pytest.raises(ValueError, match="6 players need 5 opponents"):
        rl.vector_env(players=6, opponents=["random"])
    with pytest.raises(ValueError, match="num_envs"):
        rl.vector_env(num_envs=0)
    with pytest.raises(ValueError, match="num_envs must be a whole number >= 1, not True"):
        rl.vector_env(num_envs=True)
    assert rl.vector_env(num_envs=np.int64(3), threads=np.int64(2)).num_envs == 3
    assert rl.vector_env(stakes=np.array([1, 2, 5, 10])).stakes.big_bet == 10
    for stakes, words in [("x", "stakes 'x': write ANTE/BRING_IN/SMALL_BET/BIG_BET"),
                          ("1/2/5/1\u00b2", "write ANTE/BRING_IN/SMALL_BET/BIG_BET"),
                          ((1, 2, 5), "stakes: four numbers"), (5, "stakes: four numbers"),
                          ("1/5/5/10", "bring_in 5 must be less than the small bet 5")]:
        with pytest.raises(ValueError, match=re.escape(words)):
            rl.vector_env(stakes=stakes)
    with pytest.raises(ValueError, match="seat"):
        rl.vector_env(players=3, seat=4)
    with pytest.raises(ValueError, match="seed"):
        rl.vector_env(num_envs=2).reset(seed=[1, -1])
    with pytest.raises(RuntimeError, match="reset"):
        rl.vector_env(num_envs=2).step(np.zeros(2, dtype=np.int64))
    for seed in (1.0, "1", True):
        with pytest.raises(ValueError, match=re.escape(
                f"seed must be a whole number, a list of 2 (one per table) or None, "
                f"not {seed!r}")):
            rl.vector_env(num_envs=2).reset(seed=seed)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="rules must be a Rules or a profile name, not 5"):
        rl.vector_env(rules=5)  # type: ignore[arg-type]
    for seed in (-1, 2**63 - 1):
        with pytest.raises(ValueError, match=re.escape(
                f"seed must be from 0 to {2**63 - 2} (table i deals from seed + i), "
                f"not {seed}")):
            rl.vector_env(num_envs=2).reset(seed=seed)


def test_numpys_ints_are_whole_numbers_for_every_environment_argument() -> None:
    four = np.int64(4)
    assert rl.vector_env(players=four, num_envs=2, seat=np.int64(2)).players == 4
    assert rl.vector_env(players=four, starting_stack=np.int64(300), num_envs=2,
                         opponents=None).starting_stacks.tolist() == [[300] * 4] * 2
    single = SingleSeatEnv(players=np.int64(3), seat=np.int64(3),
                           starting_stack=list(np.array([100, 200, 300])))
    assert single.table.starting_stacks == (100, 200, 300)
    assert len(rl.env(players=four).possible_agents) == 4
    for players in (4.0, "4", True):
        with pytest.raises(ValueError, match=re.escape(f"players must be 2 to 8, not {players!r}")):
            rl.vector_env(players=players)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="starting_stack must be a chip count or one per player"):
        rl.vector_env(starting_stack="200")  # type: ignore[arg-type]


def test_the_single_seat_envs_masks_are_of_its_observations_kind_and_step_needs_a_deal() -> None:
    for observation, dtype in (("full", np.int8), ("compact", np.bool_)):
        env = SingleSeatEnv(observation=observation)
        assert env.action_masks().dtype == dtype  # before any hand too
        with pytest.raises(RuntimeError, match=re.escape("no hand dealt yet: call reset() first")):
            env.step(0)
        _, info = env.reset(seed=3)
        assert env.action_masks().dtype == dtype == info["action_mask"].dtype
        assert (env.action_masks() == info["action_mask"]).all()


def test_two_threads_play_what_one_plays() -> None:
    runs = []
    for threads in (1, 2):
        env = rl.vector_env(variant="razz", players=5, num_envs=40, threads=threads)
        obs, info = env.reset(seed=8)
        rng = np.random.default_rng(8)
        seen = [obs]
        for _ in range(30):
            obs, rewards, _, _, info = env.step(random_actions(info["action_mask"], rng))
            seen += [obs, rewards]
        runs.append(seen)
        env.close()
    assert all(np.array_equal(a, b) for a, b in zip(*runs, strict=True))


@pytest.mark.parametrize("opponents", ["random", "strength", None])
def test_the_fused_step_plays_what_the_plain_passes_play(opponents: str | None) -> None:
    """One hand-off a step (each range's step, showdowns and observations in its thread)
    equals the plain path (every table's step, then every showdown, then every observation),
    partial resets too."""
    runs = []
    for fused in (True, False):
        env = rl.vector_env(variant="stud8", players=6, num_envs=45, opponents=opponents,
                            threads=3)
        env.fused = fused
        obs, info = env.reset(seed=21)
        rng = np.random.default_rng(21)
        seen = [obs, info["action_mask"], info["seat"]]
        for k in range(80):
            obs, rewards, over, _, info = env.step(random_actions(info["action_mask"], rng))
            seen += [obs, rewards, over, info["action_mask"], info["seat"], info["net"]]
            if k % 25 == 24:
                obs, info = env.reset(seed=k, options={"reset_mask": rng.random(45) < 0.5})
                seen += [obs, info["action_mask"], info["seat"]]
        runs.append(seen)
        env.close()
    assert any(run.shape == (45,) and run.dtype == np.bool_ and run.any() for run in runs[0])
    assert all(np.array_equal(a, b) for a, b in zip(*runs, strict=True))


def test_an_observation_handed_out_is_never_written_again() -> None:
    env = rl.vector_env(variant="razz", players=4, num_envs=16, threads=2)
    first, info = env.reset(seed=3)
    kept = first.copy()
    rng = np.random.default_rng(3)
    for _ in range(20):
        obs, _, _, _, info = env.step(random_actions(info["action_mask"], rng))
    assert np.array_equal(first, kept) and not np.array_equal(obs, kept)
    env.close()


def test_compact_layout_covers_the_vector_once() -> None:
    covered = np.zeros(rl.COMPACT_SIZE, int)
    for part in COMPACT_LAYOUT.values():
        covered[part] += 1
    assert (covered == 1).all() and rl.COMPACT_SIZE == 240
    assert PROFILES["pokerkit"].deck_exhaustion == "reshuffle"  # TABLES' reshuffle case


def test_seeded_decks_are_deck_seeded() -> None:
    """The compiled twister deals Deck.seeded(seed)'s order, small and 63-bit seeds alike."""
    seeds = np.array([0, 1, 2, 2**31, 2**32 - 1, 2**32, 2**32 + 1, 2**63 - 1]
                     + list(np.random.default_rng(1).integers(0, 2**63, 300)), dtype=np.int64)
    stub = np.zeros((len(seeds), 52), dtype=np.uint8)
    seeded_decks(stub, seeds, np.arange(len(seeds)), len(seeds),
                 np.zeros((624, LANES), dtype=np.uint32), np.zeros((LANES, 2), dtype=np.uint32))
    for seed, deck in zip(seeds.tolist(), stub.tolist(), strict=True):
        assert deck == [card.id for card in Deck.seeded(seed).cards], seed


def test_seeded_generators_are_python_randoms() -> None:
    """The strength seats' twisters, seeded sixteen at a time, draw what random.Random(seed)
    draws."""
    import random

    import numba

    from stud.fast import twister

    @numba.njit
    def draws(state: np.ndarray, count: int) -> np.ndarray:
        out = np.zeros(count)
        for k in range(count):
            out[k] = twister.random(state)
        return out

    seeds = np.array([0, 1, 2**32 - 1, 2**32, 2**63 - 1]
                     + list(np.random.default_rng(4).integers(0, 2**63, 30)), dtype=np.int64)
    noise = np.zeros((len(seeds), 2, 625), dtype=np.int64)
    rows = np.stack([np.arange(len(seeds)), np.ones(len(seeds), dtype=np.int64)], axis=1)
    seeded_generators(noise, rows, seeds, len(seeds), np.zeros((624, LANES), dtype=np.uint32),
                      np.zeros((LANES, 2), dtype=np.uint32))
    for k, seed in enumerate(seeds.tolist()):
        python = random.Random(seed)
        assert draws(noise[k, 1], 700).tolist() == [python.random() for _ in range(700)]


def test_the_training_example_learns_and_plots(tmp_path: Any,
                                               monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    import runpy
    from pathlib import Path

    example = Path(__file__).resolve().parents[2] / "examples" / "train_vector.py"
    plot = tmp_path / "out" / "curve.png"  # its folder made by the example, as simulate's
    monkeypatch.setattr("sys.argv", [str(example), "--minutes", "0.01", "--envs", "64",
                                     "--eval-tables", "64", "--eval-every", "2",
                                     "--plot", str(plot)])
    runpy.run_path(str(example), run_name="__main__")
    assert "big bets a hand" in capsys.readouterr().out and plot.stat().st_size > 10_000


def test_fallback_plays_a_closed_action_as_the_single_table_env_does() -> None:
    """illegal="fallback": any index is played (a closed one as SingleSeatEnv's fallback), so
    Gymnasium's own action sampling and benchmark drive the environment."""
    n = 8
    vec = rl.vector_env(variant="stud8", players=4, num_envs=n, illegal="fallback")
    ref = single_tables(n, variant="stud8", players=4, opponents="random")
    vec.action_space.seed(3)
    got, _ = vec.reset(seed=4)
    want, _ = ref.reset(seed=4)
    fell_back = 0
    for step in range(100):
        assert np.array_equal(got, want), step
        actions = vec.action_space.sample()
        got, got_reward, got_end, _, got_info = vec.step(actions)
        want, want_reward, want_end, _, want_info = ref.step(actions)
        assert np.array_equal(got_reward, want_reward) and np.array_equal(got_end, want_end)
        assert np.array_equal(got_info["illegal"],
                              want_info.get("illegal", np.zeros(n, bool))), step
        fell_back += int(got_info["illegal"].sum())
    assert fell_back > n
    assert benchmark_vector_step(vec, target_duration=0.2) > 0
    with pytest.raises(ValueError, match="illegal must be"):
        rl.vector_env(illegal="ignore")


def test_gymnasium_make_vec_builds_it_and_its_sync_twin_plays_the_same() -> None:
    kwargs = dict(num_envs=4, variant="razz", players=5)
    fast = gymnasium.make_vec(rl.SPEC_ID, **kwargs)
    sync = gymnasium.make_vec(rl.SPEC_ID, vectorization_mode="sync", **kwargs)
    assert isinstance(fast, StudVectorEnv) and fast.illegal == "fallback"
    assert isinstance(gymnasium.make(rl.SPEC_ID).unwrapped, SingleSeatEnv)
    fast.action_space.seed(6)
    got, _ = fast.reset(seed=12)
    want, _ = sync.reset(seed=12)
    for step in range(60):
        assert np.array_equal(got, want), step
        actions = fast.action_space.sample()
        got, got_reward, _, _, _ = fast.step(actions)
        want, want_reward, _, _, _ = sync.step(actions)
        assert np.array_equal(got_reward, want_reward), step
    with pytest.raises(ValueError, match="'compact' only"):
        rl.vector_env(observation="full")


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_aec_envs_compact_observation_is_the_vector_envs(variant: str) -> None:
    """``rl.env(observation="compact")``: the seat to act observes what the vectorised
    environment's every-seat mode gives it (the compiled observation) for the same deck and
    actions, with the same mask, street by street to the hand's end."""
    rng = np.random.default_rng(len(variant))
    table = rl.env(variant=variant, players=6, observation="compact")
    vec = rl.vector_env(variant=variant, players=6, num_envs=1, opponents=None)
    decisions = 0
    for hand_seed in range(300, 312):
        obs, info = vec.reset(seed=[hand_seed])
        table.reset(seed=HandSeeds(hand_seed).seed)
        while True:
            agent = table.agent_selection
            if table.terminations[agent]:
                break
            seen = table.observe(agent)
            assert table.observation_space(agent).contains(seen)
            assert np.array_equal(seen["observation"], obs[0]), (hand_seed, decisions)
            assert np.array_equal(seen["action_mask"].astype(bool), info["action_mask"][0])
            action = int(random_actions(info["action_mask"], rng)[0])
            obs, _, ended, _, info = vec.step(np.array([action]))
            table.step(action)
            decisions += 1
        assert ended[0]
    assert decisions > 100
    vec.close()
