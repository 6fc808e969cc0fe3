"""The learning environments: PettingZoo's and Gymnasium's own checkers, seeding, the action
mask against the engine's legal actions, rewards against the engine's results, no hidden card
in any observation, and the training example."""

from __future__ import annotations

import doctest
import random
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from stud import rl
from stud.cards import Card, Deck
from stud.engine import ActionKind, ActionTaken, Hand, IllegalAction
from stud.rules import Stakes

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ["stud", "stud8", "razz"]
WAGERS = {ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE}


@pytest.fixture(autouse=True)
def _quiet_checkers():
    # The checkers warn about things that are choices here (a Dict observation, no spec).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def random_games(count: int, seed: int):
    """(env kwargs, seed) for random games: every variant, 2-8 players, both rule profiles,
    stacks from a few antes to deep."""
    rng = random.Random(seed)
    for _ in range(count):
        players = rng.randint(2, 8)
        stakes = rng.choice([Stakes(1, 2, 5, 10), Stakes(1, 1, 2, 4), Stakes(0, 1, 2, 4)])
        stacks = [rng.choice([rng.randint(stakes.ante + 1, 30), rng.randint(30, 300)])
                  for _ in range(players)]
        yield ({"variant": rng.choice(VARIANTS), "players": players, "stakes": stakes,
                "rules": rng.choice(["standard", "pokerkit"]), "starting_stack": stacks},
               rng.getrandbits(32))


def play(table: rl.StudAECEnv, rng: random.Random, check=None) -> dict[str, float]:
    """One hand of random masked play through the AEC loop; the rewards ``last()`` gave."""
    got: dict[str, float] = {}
    for agent in table.agent_iter():
        observation, reward, terminated, truncated, _ = table.last()
        got[agent] = got.get(agent, 0.0) + reward
        if terminated or truncated:
            table.step(None)
            continue
        if check is not None:
            check(table, agent, observation)
        table.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
    return got


# ---------------------------------------------------------------- the checkers

@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [2, 6, 8])
def test_pettingzoo_api_test(variant, players):
    api_test(rl.env(variant=variant, players=players), num_cycles=200, verbose_progress=False)
    api_test(rl.env(variant=variant, players=players, observation="compact"), num_cycles=200,
             verbose_progress=False)


@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_seed_test(variant):
    seed_test(lambda: rl.env(variant=variant, players=5, starting_stack=60), num_cycles=100)


@pytest.mark.parametrize("kwargs", [
    {"variant": "stud8", "players": 6},
    {"variant": "razz", "players": 3, "opponents": ["strength", "station"], "seat": 2},
    {"variant": "stud", "players": 2, "opponents": "strength", "starting_stack": 25,
     "rules": "pokerkit"},
])
def test_gymnasium_check_env(kwargs):
    check_env(rl.SingleSeatEnv(**kwargs))


def test_module_docstring_example_and_layout_table():
    assert doctest.testmod(rl).failed == 0
    starts = [part.start for part in rl.OBSERVATION_LAYOUT.values()]
    stops = [part.stop for part in rl.OBSERVATION_LAYOUT.values()]
    assert starts[0] == 0 and starts[1:] == stops[:-1]  # contiguous, in order
    assert stops[-1] == rl.OBSERVATION_SIZE == 3171
    assert f"{rl.OBSERVATION_SIZE}" in (rl.__doc__ or "")


# ---------------------------------------------------------------- seeding

def test_a_seeded_reset_deals_deck_seeded_with_that_seed():
    table = rl.StudAECEnv("stud", 4)
    table.reset(seed=1234)
    hand = Hand("stud", rl.DEFAULT_STAKES, [200] * 4, None, Deck.seeded(1234))
    assert table.hand is not None and table.hand.cards == hand.cards


def trajectory(table, seeds: list[int | None], play_seed: int) -> list:
    rng = random.Random(play_seed)
    out = []
    for seed in seeds:
        table.reset(seed=seed)
        for agent in table.agent_iter():
            observation, reward, terminated, truncated, _ = table.last()
            out.append((agent, observation["observation"].tobytes(),
                        observation["action_mask"].tobytes(), reward))
            if terminated or truncated:
                table.step(None)
            else:
                table.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
    return out


def test_aec_seeding_reproduces_hands_and_runs_of_hands():
    seeds = [7, None, None, None]  # a seed, then hands drawn from it
    first = trajectory(rl.env(variant="stud8", players=6), seeds, 1)
    again = trajectory(rl.env(variant="stud8", players=6), seeds, 1)
    other = trajectory(rl.env(variant="stud8", players=6), [8, None, None, None], 1)
    assert first == again
    assert first != other


def test_single_seat_seeding_reproduces_hands():
    def run(seed: int) -> list:
        table = rl.SingleSeatEnv("razz", 4, opponents=["random", "strength", "station"])
        out = []
        observation, _ = table.reset(seed=seed)
        for _ in range(5):
            done = False
            while not done:
                action = int(np.flatnonzero(observation["action_mask"])[-1])
                observation, reward, done, _, _ = table.step(action)
                out.append((observation["observation"].tobytes(), reward, table.seat))
            observation, _ = table.reset()
        return out

    assert run(3) == run(3)
    assert run(3) != run(4)


# ---------------------------------------------------------------- the action mask

def expected_mask(legal) -> list[int]:
    wager_amounts = {a.to for a in legal if a.kind in WAGERS}
    kinds = {a.kind for a in legal}
    return [int(ActionKind.FOLD in kinds),
            int(bool(kinds & {ActionKind.CHECK, ActionKind.CALL})),
            int(ActionKind.BRING_IN in kinds),
            int(bool(wager_amounts)),
            int(len(wager_amounts) >= 2)]


def test_the_action_mask_is_exactly_the_engines_legal_actions():
    steps = bigs = 0
    for kwargs, seed in random_games(150, 1):
        table = rl.StudAECEnv(**kwargs)
        table.reset(seed=seed)
        rng = random.Random(seed)
        hand = table.hand
        assert hand is not None
        while not hand.is_over:
            agent = table.agent_selection
            legal = hand.legal_actions()
            mask = table.observe(agent)["action_mask"]
            assert mask.tolist() == expected_mask(legal), (legal, mask)
            for other in table.possible_agents:
                if other != agent:
                    assert not table.observe(other)["action_mask"].any()
            choice = rng.choice(np.flatnonzero(mask).tolist())
            if mask[rl.WAGER_BIG] and rng.random() < 0.5:
                choice = rng.choice([rl.WAGER_SMALL, rl.WAGER_BIG])  # the rarer case, more
            table.step(choice)
            taken = next(e for e in reversed(hand.events) if isinstance(e, ActionTaken))
            wager_amounts = [a.to for a in legal if a.kind in WAGERS]
            kind, to = taken.action.kind, taken.action.to
            if choice == rl.FOLD:
                assert kind is ActionKind.FOLD
            elif choice == rl.CHECK_CALL:
                assert kind in (ActionKind.CHECK, ActionKind.CALL) and taken.action in legal
            elif choice == rl.BRING_IN:
                assert kind is ActionKind.BRING_IN
            else:
                assert kind in WAGERS
                assert to == (min if choice == rl.WAGER_SMALL else max)(wager_amounts)
                bigs += choice == rl.WAGER_BIG
            steps += 1
    assert steps > 1000 and bigs >= 5


def test_an_unavailable_action_raises_or_falls_back():
    table = rl.StudAECEnv("stud", 3)
    table.reset(seed=5)
    assert table.hand is not None
    before = len(table.hand.events)
    with pytest.raises(IllegalAction, match="fold"):
        table.step(rl.FOLD)  # the bring-in may not fold
    assert len(table.hand.events) == before
    lenient = rl.SingleSeatEnv("stud", 3, seat=None, illegal="fallback")
    observation, _ = lenient.reset(seed=5)
    assert not observation["action_mask"][rl.WAGER_BIG]
    _, _, _, _, info = lenient.step(rl.WAGER_BIG)
    assert info["illegal"] is True


# ---------------------------------------------------------------- rewards

def test_rewards_sum_to_zero_and_are_the_engines_net_results():
    for kwargs, seed in random_games(120, 2):
        table = rl.StudAECEnv(**kwargs)
        table.reset(seed=seed)
        hand = table.hand
        got = play(table, random.Random(seed))
        assert hand is not None and hand.result is not None
        assert [got[a] for a in table.possible_agents] == list(map(float, hand.result.net))
        assert sum(got.values()) == 0


def test_rewards_are_zero_before_the_hand_ends():
    table = rl.StudAECEnv("stud8", 4)
    table.reset(seed=9)
    assert table.hand is not None
    while not table.hand.is_over:
        assert not any(table.rewards.values())
        assert not any(table._cumulative_rewards.values())
        table.step(int(np.flatnonzero(table.observe(table.agent_selection)["action_mask"])[0]))


def test_single_seat_reward_is_the_seats_net_result():
    table = rl.SingleSeatEnv("stud8", 5, opponents="strength")
    for seed in range(40):
        observation, info = table.reset(seed=seed)
        assert (info["action_mask"] == observation["action_mask"]).all()
        assert table.hand is not None and table.hand.to_act == table.seat
        done, total = False, 0.0
        while not done:
            observation, reward, done, _, info = table.step(
                int(np.flatnonzero(observation["action_mask"])[0]))
            total += reward
            if not done:
                assert reward == 0 and table.hand.to_act == table.seat
        assert total == table.hand.result.net[table.seat - 1]


# ---------------------------------------------------------------- what an observation holds

def hidden_cards(hand: Hand, seat: int) -> set[int]:
    """Card ids that seat must not see: other seats' down cards not shown (a card dealt twice
    under the reshuffle policy is left out, as in test_properties)."""
    hidden = set()
    for i in range(hand.players):
        if i + 1 != seat and not hand.shown[i]:
            hidden.update(c.id for c, up in zip(hand.cards[i], hand.up[i], strict=True)
                          if not up)
    every = [c.id for cards in hand.cards for c in cards]
    return {c for c in hidden if every.count(c) == 1}


def card_slots(vector: np.ndarray) -> dict[tuple[int, int], int]:
    """(relative seat, slot) -> card id for every card one-hot in the vector."""
    out = {}
    for k in range(rl.MAX_SEATS):
        block = vector[rl.OBSERVATION_LAYOUT[f"seat{k}.cards"]].reshape(rl.CARD_SLOTS, 52)
        assert set(np.unique(block)) <= {0.0, 1.0} and (block.sum(axis=1) <= 1).all()
        for slot, card in zip(*np.nonzero(block), strict=True):
            out[(k, int(slot))] = int(card)
    return out


def check_observation(table: rl.StudAECEnv, agent: str, _observation) -> None:
    hand = table.hand
    assert hand is not None
    n = hand.players
    for viewer in table.possible_agents:
        seat = int(viewer.split("_")[1]) + 1
        vector = table.observe(viewer)["observation"]
        slots = card_slots(vector)
        board = set(np.flatnonzero(vector[rl.OBSERVATION_LAYOUT["board"]]).tolist())
        seen = set(slots.values()) | board
        assert not seen & hidden_cards(hand, seat), f"{viewer} sees hidden cards"
        # And everything the seat may see is there, in its place.
        for k in range(n):
            i = (seat - 1 + k) % n
            for slot, (card, up) in enumerate(zip(hand.cards[i], hand.up[i], strict=True)):
                if k == 0 or up or hand.shown[i]:
                    assert slots.get((k, slot)) == card.id
        assert board == {c.id for c in hand.board}
        mine = hand.view(seat).player(seat)
        assert vector[rl.OBSERVATION_LAYOUT["seat0.stack"]][0] == pytest.approx(
            mine.stack / hand.stakes.big_bet)
        assert vector[rl.OBSERVATION_LAYOUT["pot"]][0] == pytest.approx(
            hand.pot / hand.stakes.big_bet)
        assert vector[rl.OBSERVATION_LAYOUT["seat_number"]].tolist().index(1.0) == seat - 1
        turn = [vector[rl.OBSERVATION_LAYOUT[f"seat{k}.to_act"]][0] for k in range(n)]
        assert turn.index(1.0) == (hand.to_act - seat) % n


def test_an_observation_holds_no_hidden_card_and_every_visible_one():
    for kwargs, seed in random_games(60, 3):
        table = rl.StudAECEnv(**kwargs)
        table.reset(seed=seed)
        play(table, random.Random(seed), check_observation)
        hand = table.hand
        assert hand is not None
        for viewer in table.possible_agents:  # after the showdown too
            seat = int(viewer.split("_")[1]) + 1
            seen = set(card_slots(table.observe(viewer)["observation"]).values())
            assert not seen & hidden_cards(hand, seat)


def test_observations_are_in_their_space():
    for kwargs, seed in random_games(20, 4):
        table = rl.StudAECEnv(**kwargs)
        table.reset(seed=seed)
        space = table.observation_space("player_0")

        def inside(table, agent, observation, space=space):
            assert space.contains(observation)

        play(table, random.Random(seed), inside)
        assert space.contains(table.observe("player_0"))


def test_card_slots_hold_card_ids_in_dealing_order():
    table = rl.StudAECEnv("stud", 2)
    table.reset(seed=11)
    hand = table.hand
    assert hand is not None
    slots = card_slots(table.observe("player_1")["observation"])
    assert slots == {(0, 0): hand.cards[1][0].id, (0, 1): hand.cards[1][1].id,
                     (0, 2): hand.cards[1][2].id, (1, 2): hand.cards[0][2].id}
    assert Card.from_id(slots[(1, 2)]) in hand.up_cards(1)


# ---------------------------------------------------------------- the example

def test_the_training_example_runs():
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "train_tabular.py"), "--episodes", "300",
         "--eval-hands", "60", "--variant", "razz"],
        capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "before training" in done.stdout and "improvement, paired by hand" in done.stdout


def test_a_policys_0_d_integer_array_is_an_action_as_the_action_space_says() -> None:
    env = rl.SingleSeatEnv()
    env.reset(seed=3)
    assert env.action_space.contains(np.array(1))
    env.step(np.array(1))  # check/call, as the int 1
    with pytest.raises(IllegalAction, match=r"cannot take action 7: an action is a whole "
                       r"number from 0 to 4 \(fold, "):
        env.step(7)


def test_an_opponent_that_is_not_a_bot_is_refused_when_the_env_is_made() -> None:
    with pytest.raises(ValueError, match="opponent 1 is 42: give a bot's name or a Bot"):
        rl.SingleSeatEnv(players=3, opponents=[42, "random"], seat=1)  # type: ignore[list-item]


@pytest.mark.parametrize("observation", ["compact", "full"])
def test_an_ante_above_the_big_bet_stays_within_the_observation_space(observation: str) -> None:
    env = rl.SingleSeatEnv(variant="stud", players=3, stakes=Stakes(20, 2, 5, 10),
                           observation=observation, starting_stack=500)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env, skip_render_check=True)
    vector = rl.vector_env(variant="stud", players=3, num_envs=2, stakes=Stakes(20, 2, 5, 10),
                           starting_stack=500)
    seen, _ = vector.reset(seed=1)
    assert all(vector.single_observation_space.contains(o) for o in seen)


def test_the_chips_an_observation_shows_add_up_to_the_tables_even_when_the_hand_is_over():
    """Stacks plus pot are the chips at the table after every action; once the hand is over
    the pot is in the stacks, and the pot, wagers and committed chips are 0."""
    layout = rl.OBSERVATION_LAYOUT
    for kwargs, seed in random_games(25, 11):
        table = rl.StudAECEnv(**kwargs)
        table.reset(seed=seed)
        n, unit = kwargs["players"], kwargs["stakes"].big_bet
        total = sum(kwargs["starting_stack"]) / unit
        rng = random.Random(seed)
        while True:
            for viewer in table.possible_agents:
                vector = table.observe(viewer)["observation"]

                def field(name: str, vector=vector, n=n) -> float:
                    return sum(float(vector[layout[f"seat{k}.{name}"]][0]) for k in range(n))

                pot = float(vector[layout["pot"]][0])
                where = (kwargs, seed, viewer)
                assert field("stack") + pot == pytest.approx(total, abs=1e-3), where
                assert field("committed") == pytest.approx(pot, abs=1e-3), where
                if vector[layout["over"]][0]:
                    assert pot == field("committed") == field("wager") == 0, where
            if table.hand.is_over:
                break
            mask = table.observe(table.agent_selection)["action_mask"]
            table.step(rng.choice(np.flatnonzero(mask).tolist()))
