"""Many tables at once on the fast engine, as one Gymnasium ``VectorEnv``.

>>> from stud import rl
>>> tables = rl.vector_env(variant="razz", players=3, num_envs=4, opponents="station", seat=1)
>>> observations, info = tables.reset(seed=7)
>>> observations.shape, info["action_mask"].shape, info["action_mask"].dtype
((4, 240), (4, 5), dtype('bool'))
>>> actions = info["action_mask"].argmax(axis=1)  # the first action open in each table
>>> observations, rewards, terminated, truncated, info = tables.step(actions)
>>> tables.close()

Table ``i`` of ``reset(seed=S)`` plays the very hands ``SingleSeatEnv(observation="compact")``
plays after ``reset(seed=S + i)`` and then ``reset()`` after each hand, with the same
observations, masks and rewards for the same actions: Gymnasium's ``SyncVectorEnv`` of those
environments and this one agree step for step (``tests/rl``). Autoreset is Gymnasium 1.x's
``NEXT_STEP``: the step that ends a hand returns its last observation, its reward and
``terminated``; the table's next step ignores its action and deals the next hand
(reward 0). ``reset(options={"reset_mask": mask})`` deals new hands at the masked tables
only. An action index that is not open raises ``IllegalActionIndex`` (which table, which
action, what is open; no table changes), or with ``illegal="fallback"`` is played as
``SingleSeatEnv`` plays it (``info["illegal"]`` marks those tables), so that uniformly
sampled actions (``action_space.sample()``, Gymnasium's ``benchmark_vector_step``) work.
Rewards are float64, as Gymnasium's own vector environments give them, and every info key
comes with Gymnasium's ``_key`` mask of the tables that have it: ``_action_mask`` and
``_seat`` every table, ``_illegal`` the tables that acted (not those dealing their next hand,
which a ``SyncVectorEnv`` resets), ``_net`` the tables whose hand ended. The first step on
a machine compiles the fast engine's kernels, and a part first reached later (a policy, a
variant's showdown) compiles then: said on standard error (``stud.fast.compiling``).

Modes: ``opponents`` a policy of the fast engine (``random``, ``station``, ``strength``: each
plays as its bot in ``stud.bots`` seeded as ``SingleSeatEnv`` seeds it) for every other seat,
or one a seat clockwise from the learner: one learning seat (``seat``, or
one drawn a hand), the policies play up to its turn, and the reward is its net chips when
the hand ends. ``opponents=None``: every seat is the learner in turn; each step is one
decision of the seat to act, the observation is the next seat to act's (the last actor's
when the hand ends), ``info["seat"]`` says whose, and the reward is that seat's net chips
at the end; every seat's result is ``info["net"]``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, cast

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from stud.fast import layout as L
from stud.fast.batch import settle_showdowns
from stud.fast.compiling import CompileNotice
from stud.fast.game import game_vector
from stud.fast.observe import ACTIONS, COMPACT_SIZE, observe_all
from stud.fast.policies import POLICIES
from stud.fast.tables import ACT, DEAL, DEAL_NEXT, SKIP, advance
from stud.fast.twister import KEY_WORDS
from stud.rl.compact import compact_space
from stud.rules import Rules, Stakes, Variant, as_rules, is_whole

Array = npt.NDArray[Any]
_ACTION_NAMES = ("fold", "check/call", "bring-in", "complete/bet/raise", "bet/raise big")


class IllegalActionIndex(ValueError):
    """A table's action index is not one of the actions open to its seat (or not an action at
    all); no table was changed."""


def _policy_codes(opponents: str | Sequence[str] | None, players: int) -> Array:
    if opponents is None:
        return np.zeros(0, dtype=np.int64)
    names = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
    if len(names) != players - 1:
        raise ValueError(f"{players} players need {players - 1} opponents, not {len(names)}")
    for name in names:
        if name not in POLICIES:
            raise ValueError(f"unknown opponent {name!r}: the fast engine's policies are "
                             f"{', '.join(POLICIES)} (or opponents=None: every seat learns)")
    return np.array([POLICIES.index(name) for name in names], dtype=np.int64)


class StudVectorEnv(VectorEnv):
    """``num_envs`` tables of one game on the fast engine; see the module docstring."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, variant: Variant | str = "stud8", players: int = 6, num_envs: int = 64,
                 opponents: str | Sequence[str] | None = "random", seat: int | None = None,
                 stakes: Stakes | Sequence[int] | str | None = None,
                 rules: Rules | str | None = None, starting_stack: int | Sequence[int] = 200,
                 threads: int | None = None, copy: bool = True,
                 illegal: str = "raise", observation: str = "compact") -> None:
        from stud.rl import _FALLBACK, _stacks, _stakes  # the single-table rules and words

        if not is_whole(num_envs) or num_envs < 1:
            raise ValueError(f"num_envs must be a whole number >= 1, not {num_envs!r}")
        num_envs = int(num_envs)
        self.variant = variant if isinstance(variant, Variant) else Variant.parse(variant)
        self.stakes = _stakes(stakes)
        self.rules = as_rules(rules)
        stacks = _stacks(starting_stack, players, self.stakes)
        self.players = players = len(stacks)
        self.codes = _policy_codes(opponents, players)
        self.every_seat = opponents is None
        if seat is not None and (self.every_seat or not is_whole(seat)
                                 or not 1 <= seat <= players):
            raise ValueError(f"seat must be 1..{players} with opponents, or None, not {seat!r}")
        self.fixed_seat = -1 if seat is None else int(seat) - 1
        if observation != "compact":
            raise ValueError(f"the vectorised environment's observation is 'compact' only, "
                             f"not {observation!r}")
        if illegal not in ("raise", "fallback"):
            raise ValueError(f"illegal must be 'raise' or 'fallback', not {illegal!r}")
        self.illegal = illegal
        # SingleSeatEnv's fallbacks: row a lists what a closed action a is played as, in order.
        self._fallback = np.full((ACTIONS, ACTIONS), -1, dtype=np.int64)
        for a, order in enumerate(_FALLBACK):
            self._fallback[a, :len(order)] = order
        self._illegal = np.zeros(num_envs, dtype=bool)
        self.game = game_vector(self.variant, self.stakes, self.rules, players)
        self.num_envs = num_envs
        self.copy = copy
        self.single_observation_space = compact_space(stacks, self.stakes)
        self.single_action_space = spaces.Discrete(ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.render_mode = None

        n = num_envs
        self.starting_stacks = np.ascontiguousarray(np.broadcast_to(
            np.array(stacks, dtype=np.int64), (n, players)))
        self.table = np.zeros((n, L.WIDTH), dtype=np.int64)
        self.stub = np.zeros((n, 52), dtype=np.uint8)
        self.keys = np.zeros((n, KEY_WORDS), dtype=np.int64)
        self.awards = np.zeros((n, L.MAX_AWARDS, L.AWARD_SIZE), dtype=np.int64)
        self.rng = np.zeros((n, L.RNG_SIZE), dtype=np.uint64)
        self.seeds = np.zeros(n, dtype=np.int64)
        self.todo = np.full(n, DEAL, dtype=np.int64)
        self.learner = np.full(n, -1, dtype=np.int64)
        self.slots = np.full((n, ACTIONS), -1, dtype=np.int64)
        self.legal_kinds = np.zeros((n, L.MAX_LEGAL), dtype=np.int64)
        self.legal_tos = np.zeros((n, L.MAX_LEGAL), dtype=np.int64)
        self._actions = np.zeros(n, dtype=np.int64)
        self.actor = np.zeros(n, dtype=np.int64)
        self.base = np.zeros((n, L.SEATS), dtype=np.int64)
        self.bets = np.zeros((n, L.SEATS, 5), dtype=np.int64)
        self.street = np.zeros((n, 1), dtype=np.int64)
        self.observer = np.zeros(n, dtype=np.int64)
        self.observations = np.zeros((n, COMPACT_SIZE), dtype=np.float32)
        # StrengthBot's own generators for the strength seats (a twister each: 5 kB).
        strong = bool((self.codes == POLICIES.index("strength")).any())
        self.noise = np.zeros((n, L.SEATS, 625) if strong else (0, L.SEATS, 625), dtype=np.int64)
        self._dealt = False
        self._compiles = CompileNotice()

        if threads is None:
            threads = max(1, min(os.cpu_count() or 1, n // 256, 8))
        if not is_whole(threads) or threads < 1:
            raise ValueError(f"threads must be a whole number >= 1, not {threads!r}")
        threads = int(threads)
        self.threads = min(threads, n)
        self._ranges = [(k * n // self.threads, (k + 1) * n // self.threads)
                        for k in range(self.threads)]
        # The calling thread works the first range itself.
        self._pool = ThreadPoolExecutor(self.threads - 1) if self.threads > 1 else None

    # ---------------------------------------------------------------- the Gymnasium API
    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Array, dict[str, Any]]:
        """Deal a new hand at every table (or at the tables of ``options["reset_mask"]``):
        table i's from ``seed + i`` (an int), ``seed[i]`` (a list), or the environment's
        generator (None)."""
        options = dict(options or {})
        mask = options.pop("reset_mask", None)
        if options:
            raise ValueError(f"unknown reset options {sorted(options)}: only 'reset_mask'")
        if mask is None:
            mask = np.ones(self.num_envs, dtype=bool)
        elif not (isinstance(mask, np.ndarray) and mask.dtype == np.bool_
                  and mask.shape == (self.num_envs,)):
            raise ValueError(f"options['reset_mask'] must be a bool array of shape "
                             f"({self.num_envs},)")
        elif not self._dealt and not mask.all():
            raise ValueError("the first reset deals every table: no reset_mask")
        if seed is not None and not is_whole(seed) and (
                isinstance(seed, str | bytes) or not isinstance(seed, Sequence | np.ndarray)):
            raise ValueError(f"seed must be a whole number, a list of {self.num_envs} (one per "
                             f"table) or None, not {seed!r}")
        if is_whole(seed):  # table i deals from seed + i
            if not 0 <= seed <= 2**63 - self.num_envs:
                raise ValueError(f"seed must be from 0 to {2**63 - self.num_envs} (table i "
                                 f"deals from seed + i), not {seed}")
            super().reset(seed=int(seed))
        seeds = self._seed_list(seed)
        for i in np.flatnonzero(mask):
            self.seeds[i] = seeds[i]
        kept = self.todo.copy()
        self.todo[:] = np.where(mask, DEAL, SKIP)
        self._play()
        self.todo[:] = np.where(mask, ACT, kept)
        self._dealt = True
        return self.observations, self._info()

    def _seed_list(self, seed: int | Sequence[int | None] | None) -> list[int]:
        n = self.num_envs
        drawn = [int(s) for s in self.np_random.integers(2**63, size=n)]
        if seed is None:
            return drawn
        if is_whole(seed):
            listed: list[int | None] = [int(seed) + i for i in range(n)]
        else:
            listed = list(cast(Sequence[int | None], seed))
            if len(listed) != n:
                raise ValueError(f"{len(listed)} seeds for {n} tables")
        found = []
        for i, s in enumerate(listed):
            if s is None:
                found.append(drawn[i])
            elif is_whole(s) and 0 <= s < 2**63:
                found.append(int(s))
            else:
                raise ValueError(f"table {i}'s seed must be a whole number 0 <= seed < 2**63, "
                                 f"not {s!r}")
        return found

    def step(self, actions: Sequence[int] | Array) -> tuple[Array, Array, Array, Array,
                                                             dict[str, Any]]:
        """Each table's action index (``stud.rl.ACTION_NAMES``); tables whose hand ended on
        the last step ignore theirs and deal their next hand. An index not open raises
        ``IllegalActionIndex`` or, with ``illegal="fallback"``, is played as
        ``SingleSeatEnv``'s fallback (``info["illegal"]`` marks those tables)."""
        if not self._dealt:
            raise RuntimeError("reset() first")
        chosen = self._check(actions)
        acted = self.todo == ACT  # the others deal their next hand, as a SyncVectorEnv resets
        self._actions[:] = chosen
        self._play()
        over: Array = self.table[:, L.PHASE] == L.OVER
        n = self.num_envs
        rows = np.arange(n)
        net = self.table[:, L.STACK:L.STACK + self.players] - self.starting_stacks
        # float64, as Gymnasium's own vector environments give rewards
        rewards = np.where(over, net[rows, self.observer], 0).astype(np.float64)
        self.todo[over] = DEAL_NEXT
        info = self._info()
        info["illegal"] = self._illegal.copy()
        info["_illegal"] = acted
        info["net"] = np.where(over[:, None], net, 0)
        info["_net"] = over.copy()
        return (self.observations, rewards, over, np.zeros(n, dtype=bool), info)

    def close_extras(self, **kwargs: Any) -> None:
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    # ---------------------------------------------------------------- the work
    def _check(self, actions: Sequence[int] | Array) -> Array:
        array = np.asarray(actions)
        if array.shape != (self.num_envs,):
            raise IllegalActionIndex(f"one action index a table: shape ({self.num_envs},) "
                                     f"expected, got {array.shape}")
        if not np.issubdtype(array.dtype, np.integer):
            raise IllegalActionIndex(f"action indices must be integers 0..{ACTIONS - 1}, got "
                                     f"dtype {array.dtype}")
        outside = np.flatnonzero((array < 0) | (array >= ACTIONS))  # before any cast
        if len(outside):
            h = int(outside[0])
            raise IllegalActionIndex(f"table {h}: action {int(array[h])} is not an action "
                                     f"(0..{ACTIONS - 1}); no table was changed")
        chosen = array.astype(np.int64)
        acting = self.todo == ACT
        closed = acting & (self.slots[np.arange(self.num_envs), chosen] < 0)
        self._illegal[:] = closed
        if closed.any() and self.illegal == "fallback":
            rows = np.flatnonzero(closed)
            picked = np.full(len(rows), -1, dtype=np.int64)
            for k in range(ACTIONS):
                other = self._fallback[chosen[rows], k]
                open_ = (other >= 0) & (self.slots[rows, np.maximum(other, 0)] >= 0)
                take = open_ & (picked < 0)
                picked[take] = other[take]
            chosen[rows] = picked
        elif closed.any():
            h = int(np.flatnonzero(closed)[0])
            a = int(chosen[h])
            open_ = [_ACTION_NAMES[k] for k in range(ACTIONS) if self.slots[h, k] >= 0]
            raise IllegalActionIndex(
                f"table {h}: action {a} ({_ACTION_NAMES[a]}) is not open to seat "
                f"{int(self.observer[h]) + 1}; open: {', '.join(open_)}; no table was changed")
        return chosen

    def _in_threads(self, work: Callable[[int, int], None]) -> None:
        """``work`` on each thread's range of tables, the first range in this thread."""
        if self._pool is None:
            work(0, self.num_envs)
            return
        others = [self._pool.submit(work, lo, hi) for lo, hi in self._ranges[1:]]
        try:
            work(*self._ranges[0])
        finally:
            for done in others:
                done.result()

    # Each table's step, its showdown and its observation, one range of tables a thread (one
    # hand-off a step, the showdowns valued in the threads too); False: the plain path of
    # ``_play_plain``, every table through each part in turn, that ``tests/rl`` checks it by.
    fused = True

    def _play(self) -> None:
        """Every table's next step (``todo`` says what), the showdowns settled, and each
        table's observation and action slots in ``self.observations``: a new array each time
        when ``copy`` (no array handed out is written again), else the same one."""
        if self.copy:
            self.observations = np.empty_like(self.observations)
        with self._compiles:  # the first step on a machine compiles the kernels: said so
            if not self.fused:
                self._play_plain()
                return

            def work(lo: int, hi: int) -> None:
                self._advance(lo, hi)
                settle_showdowns(self.table[lo:hi], self.game, self.variant,
                                 self.awards[lo:hi])
                self._observe(lo, hi)

            self._in_threads(work)

    def _play_plain(self) -> None:
        self._in_threads(self._advance)
        settle_showdowns(self.table, self.game, self.variant, self.awards)
        self._in_threads(self._observe)

    def _advance(self, lo: int, hi: int) -> None:
        """Tables lo..hi-1 take their next step (``todo`` says what)."""
        advance(self.table, self.stub, self.game, self.starting_stacks, self.keys,
                self.awards, self.rng, self.seeds, self.todo, self.learner, self.fixed_seat,
                self.codes, self.slots, self.legal_kinds, self.legal_tos, self._actions,
                self.actor, self.base, self.bets, self.street, self.noise, lo, hi)

    def _observe(self, lo: int, hi: int) -> None:
        """Tables lo..hi-1: whose observation (``observer``), it and the action slots."""
        if self.every_seat:
            now = self.table[lo:hi, L.ACTOR]
            self.observer[lo:hi] = np.where(now >= 0, now, self.actor[lo:hi])
        else:
            self.observer[lo:hi] = self.learner[lo:hi]
        observe_all(self.table, self.game, self.observer, self.base, self.bets,
                    self.observations, self.slots, self.legal_kinds, self.legal_tos, lo, hi)

    def _info(self) -> dict[str, Any]:
        """Every table's mask and seat; ``_key`` marks the tables that have ``key``, as in
        Gymnasium's vector environments (here every table: each has a mask and a seat)."""
        return {"action_mask": self.slots >= 0, "_action_mask": np.ones(self.num_envs, bool),
                "seat": self.observer + 1, "_seat": np.ones(self.num_envs, bool)}

    def action_masks(self) -> Array:
        """The mask now, (num_envs, 5) bool."""
        mask: Array = self.slots >= 0
        return mask


def vector_env(variant: Variant | str = "stud8", players: int = 6, num_envs: int = 64,
               opponents: str | Sequence[str] | None = "random", seed: int | None = None,
               rules: Rules | str | None = None, **kwargs: Any) -> StudVectorEnv:
    """``StudVectorEnv(...)``; with ``seed``, its generator is seeded (a later ``reset()``
    without a seed then deals reproducible tables)."""
    env = StudVectorEnv(variant, players, num_envs, opponents, rules=rules, **kwargs)
    if seed is not None:
        env._np_random, env._np_random_seed = seeding.np_random(seed)
    return env
