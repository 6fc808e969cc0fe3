"""Environments for learning agents: PettingZoo (every seat an agent) and Gymnasium (one seat
against bots). One episode is one hand. ``vector_env`` (``stud.rl.vector``) plays many tables
at once on the fast engine, with the compact observation (``stud.rl.compact``), which
``SingleSeatEnv(observation="compact")`` and ``env(observation="compact")`` also give.

>>> from stud import rl
>>> table = rl.env(variant="razz", players=3)
>>> table.reset(seed=7)
>>> observation, reward, terminated, truncated, info = table.last()
>>> observation["observation"].shape, observation["action_mask"].tolist()
((3171,), [0, 0, 1, 1, 0])
>>> table.step(rl.BRING_IN)

Actions (``Discrete(5)``), each mapped to one of the engine's legal actions:

====  ===============  ============================================================
 0    ``FOLD``         fold
 1    ``CHECK_CALL``   check, or call the current bet (all in for less if short)
 2    ``BRING_IN``     post the bring-in (third street's first action only)
 3    ``WAGER_SMALL``  complete, bet or raise: the smallest legal amount
 4    ``WAGER_BIG``    bet or raise the largest legal amount, when it differs from the
                       smallest: the big bet after an open pair on fourth street, or a
                       full raise where a smaller one would put every opponent all in
====  ===============  ============================================================

``action_mask`` (int8) marks exactly the actions open to the agent; it is all zeros for an
agent that is not to act. The showdown is automatic (the engine shows every hand that can
win and mucks the rest), so show and muck are never asked for.

Observation (``observation``, float32, ``OBSERVATION_SIZE`` = 3171 entries whatever the number
of players) is built only from ``hand.view(seat)``: the agent's own cards, everybody's up
cards, and any hand shown at the showdown. Seats are numbered relative to the agent: block
0 is the agent, block ``k`` the ``k``-th seat to its left; blocks past the last player are
zero. Chips are in big bets (``chips / stakes.big_bet``). Cards are one-hot over the 52 card
ids of ``stud.cards`` (``rank * 4 + suit``, deuce of clubs 0 .. ace of spades 51).

==========================  ======  ===========================================================
name                        size    meaning
==========================  ======  ===========================================================
``seat{k}.cards``           7 * 52  one-hot card per slot, slots in dealing order (third street
                                    down, down, up; fourth to sixth street up; seventh down);
                                    zero where no card is dealt or the card is not visible
``seat{k}.dealt``           7       1 where a card is dealt in that slot (seen or not)
``seat{k}.up``              7       1 where that card is face up
``seat{k}.present``         1       1 where the block is a player at this table
``seat{k}.folded``          1
``seat{k}.all_in``          1
``seat{k}.to_act``          1       1 for the player whose turn it is
``seat{k}.bring_in``        1       1 for the player who had the bring-in
``seat{k}.shown``           1       1 once the hand is shown at the showdown
``seat{k}.stack``           1       chips behind, in big bets
``seat{k}.wager``           1       chips bet on this street, in big bets
``seat{k}.committed``       1       chips in the pot this hand (antes included), in big bets
``board``                   52      the community card (when the deck runs out), one-hot
``street``                  5       one-hot: third .. seventh street
``over``                    1       1 once the hand is over
``pot``                     1       big bets
``current_bet``             1       the street's bet to match, big bets
``to_call``                 1       what calling costs the agent, big bets
``seat_number``             8       one-hot: the agent's seat, 1 = the dealer's left
``variant``                 3       one-hot: stud, stud8, razz
``stakes``                  3       ante, bring-in, small bet, each over the big bet
==========================  ======  ===========================================================

for ``k`` in 0..7, in that order; ``OBSERVATION_LAYOUT`` maps each name to its slice.
Once the hand is over (``over``) its pots have been awarded: ``stack`` holds each seat's
chips after the awards, and ``pot``, ``wager`` and ``committed`` are 0, so the stacks and the
pot always add up to the chips at the table (as in the compact observation).

Rewards are chips: each agent's net result for the hand (``hand.result.net``) when it ends,
zero before. Every agent stays in ``agents`` until the hand ends (a folded agent is simply
never selected), then all are terminated together.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any, Literal

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from stud.bots import Bot, make_bot
from stud.cards import Deck
from stud.engine import Action, ActionKind, Hand, HandView, IllegalAction
from stud.fast.observe import COMPACT_SIZE as COMPACT_OBSERVATION_SIZE
from stud.history.text import text_history
from stud.rl.compact import (
    COMPACT_LAYOUT,
    HandSeeds,
    StreetBets,
    compact_space,
    encode_compact,
    stakes_high,
)
from stud.rules import Rules, RulesError, Stakes, Variant, as_rules, is_whole

MAX_SEATS = 8
CARD_SLOTS = 7
FOLD, CHECK_CALL, BRING_IN, WAGER_SMALL, WAGER_BIG = range(5)
ACTION_NAMES: tuple[str, ...] = ("fold", "check/call", "bring-in", "complete/bet/raise",
                                 "bet/raise big")
NUM_ACTIONS = len(ACTION_NAMES)
DEFAULT_STAKES = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)
VARIANTS: tuple[Variant, ...] = (Variant.STUD, Variant.STUD8, Variant.RAZZ)

_SEAT_FIELDS: tuple[tuple[str, int], ...] = (
    ("cards", CARD_SLOTS * 52), ("dealt", CARD_SLOTS), ("up", CARD_SLOTS), ("present", 1),
    ("folded", 1), ("all_in", 1), ("to_act", 1), ("bring_in", 1), ("shown", 1), ("stack", 1),
    ("wager", 1), ("committed", 1),
)
_TABLE_FIELDS: tuple[tuple[str, int], ...] = (
    ("board", 52), ("street", 5), ("over", 1), ("pot", 1), ("current_bet", 1), ("to_call", 1),
    ("seat_number", MAX_SEATS), ("variant", len(VARIANTS)), ("stakes", 3),
)


def _layout() -> dict[str, slice]:
    fields = [(f"seat{k}.{name}", size) for k in range(MAX_SEATS) for name, size in _SEAT_FIELDS]
    layout, start = {}, 0
    for name, size in fields + list(_TABLE_FIELDS):
        layout[name] = slice(start, start + size)
        start += size
    return layout


OBSERVATION_LAYOUT: dict[str, slice] = _layout()
OBSERVATION_SIZE = OBSERVATION_LAYOUT["stakes"].stop
_SEAT_SIZE = OBSERVATION_LAYOUT["seat1.cards"].start
_OFF = {name: OBSERVATION_LAYOUT[f"seat0.{name}"].start for name, _ in _SEAT_FIELDS}
_AT = {name: OBSERVATION_LAYOUT[name].start for name, _ in _TABLE_FIELDS}
_CHIP_FIELDS = ("stack", "wager", "committed")
(_CARDS, _DEALT, _UP, _PRESENT, _FOLDED, _ALL_IN, _TO_ACT, _BRING_IN, _SHOWN, _STACK, _WAGER,
 _COMMITTED) = (_OFF[name] for name, _ in _SEAT_FIELDS)


def encode_view(view: HandView) -> np.ndarray:
    """The observation vector of ``view`` (a seat's view), laid out as ``OBSERVATION_LAYOUT``.

    Nothing but the view is read, so nothing hidden from that seat can reach the vector.
    """
    me = view.viewer
    if me is None:
        raise ValueError("an observation is built from a seat's view, not the public view")
    vec = np.zeros(OBSERVATION_SIZE, np.float32)
    ones: list[int] = []
    unit = view.stakes.big_bet
    players = view.players
    n = len(players)
    to_act, bring_in = view.to_act, view.bring_in
    over = view.is_over
    for k in range(n):
        player = players[(me - 1 + k) % n]
        base = k * _SEAT_SIZE
        cards_at, dealt_at, up_at = base + _CARDS, base + _DEALT, base + _UP
        for slot, card in enumerate(player.cards):
            if card is not None:
                ones.append(cards_at + slot * 52 + card.id)
            ones.append(dealt_at + slot)
            if player.up[slot]:
                ones.append(up_at + slot)
        ones.append(base + _PRESENT)
        if player.folded:
            ones.append(base + _FOLDED)
        if player.all_in:
            ones.append(base + _ALL_IN)
        if player.seat == to_act:
            ones.append(base + _TO_ACT)
        if player.seat == bring_in:
            ones.append(base + _BRING_IN)
        if player.shown:
            ones.append(base + _SHOWN)
        vec[base + _STACK] = player.stack / unit
        if not over:  # once over, the pot is awarded: in the stacks
            vec[base + _WAGER] = player.wager / unit
            vec[base + _COMMITTED] = player.committed / unit
    for card in view.board:
        ones.append(_AT["board"] + card.id)
    ones.append(_AT["street"] + view.street - 3)
    if over:
        ones.append(_AT["over"])
    ones.append(_AT["seat_number"] + me - 1)
    ones.append(_AT["variant"] + VARIANTS.index(view.variant))
    vec[ones] = 1.0
    mine = players[me - 1]
    vec[_AT["pot"]] = 0.0 if over else view.pot / unit
    vec[_AT["current_bet"]] = view.current_bet / unit
    vec[_AT["to_call"]] = min(max(0, view.current_bet - mine.wager), mine.stack) / unit
    stakes = view.stakes
    at = _AT["stakes"]
    vec[at:at + 3] = (stakes.ante / unit, stakes.bring_in / unit, stakes.small_bet / unit)
    return vec


def action_table(legal: Sequence[Action]) -> list[Action | None]:
    """The engine action behind each of the ``NUM_ACTIONS`` actions (None: not available)."""
    table: list[Action | None] = [None] * NUM_ACTIONS
    wagers: list[Action] = []
    for action in legal:
        kind = action.kind
        if kind is ActionKind.FOLD:
            table[FOLD] = action
        elif kind is ActionKind.CHECK or kind is ActionKind.CALL:
            table[CHECK_CALL] = action
        elif kind is ActionKind.BRING_IN:
            table[BRING_IN] = action
        elif action.wagers:
            wagers.append(action)
    if wagers:
        wagers.sort(key=lambda a: a.to)
        table[WAGER_SMALL] = wagers[0]
        if len(wagers) > 1:
            table[WAGER_BIG] = wagers[-1]
    return table


def action_mask(legal: Sequence[Action]) -> np.ndarray:
    """int8 mask over the ``NUM_ACTIONS`` actions: 1 where ``action_table`` has an action."""
    return np.array([a is not None for a in action_table(legal)], np.int8)


# An illegal choice under illegal="fallback": the first available of these.
_FALLBACK: tuple[tuple[int, ...], ...] = (
    (FOLD, CHECK_CALL, BRING_IN), (CHECK_CALL, BRING_IN, WAGER_SMALL),
    (BRING_IN, CHECK_CALL, WAGER_SMALL), (WAGER_SMALL, CHECK_CALL, BRING_IN),
    (WAGER_BIG, WAGER_SMALL, CHECK_CALL, BRING_IN),
)

Illegal = Literal["raise", "fallback"]
Observation = Literal["full", "compact"]


def engine_action(hand: Hand, choice: int, illegal: Illegal = "raise") -> tuple[Action, bool]:
    """The engine action for ``choice`` in ``hand`` now, and whether ``choice`` was illegal.

    An unavailable choice raises ``IllegalAction`` or, with ``illegal="fallback"``, is played
    as the first available of: fold -> check/call; check/call -> bring-in; bring-in ->
    check/call; small wager -> check/call; big wager -> small wager -> check/call.
    """
    legal = hand.legal_actions()
    table = action_table(legal)
    if isinstance(choice, np.ndarray) and choice.shape == () and \
            np.issubdtype(choice.dtype, np.integer):
        choice = int(choice)  # a policy's 0-d array, as Discrete.contains takes it
    if not (isinstance(choice, int | np.integer) and not isinstance(choice, bool)
            and 0 <= choice < NUM_ACTIONS):
        raise IllegalAction(hand.to_act, f"take action {choice!r}",
                            f"an action is a whole number from 0 to {NUM_ACTIONS - 1} "
                            f"({', '.join(ACTION_NAMES)})", legal)
    action = table[choice]
    if action is not None:
        return action, False
    if illegal == "raise":
        raise IllegalAction(hand.to_act, ACTION_NAMES[choice], "that is not available now",
                            legal)
    for other in _FALLBACK[choice]:
        action = table[other]
        if action is not None:
            return action, True
    raise AssertionError(f"no mapped action among {legal}")


def _stakes(stakes: Stakes | Sequence[int] | str | None) -> Stakes:
    if stakes is None:
        return DEFAULT_STAKES
    if isinstance(stakes, Stakes):
        return stakes
    if isinstance(stakes, str):
        return Stakes.parse(stakes)
    values = list(stakes) if isinstance(stakes, Iterable) else []
    if len(values) != 4:
        raise RulesError(f"stakes: four numbers (ante, bring-in, small bet, big bet), not "
                         f"{stakes!r}")
    return Stakes(*(int(v) if is_whole(v) else v for v in values))  # NumPy's ints too


def _players(players: int) -> int:
    """``players=`` as an int (NumPy's ints too), or a RulesError."""
    if not is_whole(players) or not 2 <= players <= MAX_SEATS:
        raise RulesError(f"players must be 2 to {MAX_SEATS}, not {players!r}")
    return int(players)


def _stacks(starting_stack: int | Sequence[int], players: int, stakes: Stakes) -> tuple[int, ...]:
    players = _players(players)
    if is_whole(starting_stack):
        stacks: tuple[object, ...] = (starting_stack,) * players
    elif isinstance(starting_stack, str | bytes) or not isinstance(starting_stack, Iterable):
        raise RulesError(f"starting_stack must be a chip count or one per player, "
                         f"not {starting_stack!r}")
    else:
        stacks = tuple(starting_stack)
    if len(stacks) != players:
        raise RulesError(f"{len(stacks)} starting stacks for {players} players")
    for stack in stacks:
        # More than the ante, so that every player has a decision on third street.
        if not is_whole(stack) or stack <= stakes.ante:
            raise RulesError(f"a starting stack must be more than the ante "
                             f"({stakes.ante}), not {stack!r}")
    return tuple(int(stack) for stack in stacks)  # type: ignore[call-overload]


def _spaces(stacks: Sequence[int], stakes: Stakes) -> spaces.Dict:
    high = np.ones(OBSERVATION_SIZE, np.float32)
    most = sum(stacks) / stakes.big_bet  # no chip count can exceed all the chips at the table
    for k in range(MAX_SEATS):
        for name in _CHIP_FIELDS:
            high[OBSERVATION_LAYOUT[f"seat{k}.{name}"]] = most
    for name in ("pot", "current_bet", "to_call"):
        high[OBSERVATION_LAYOUT[name]] = most
    high[OBSERVATION_LAYOUT["stakes"]] = stakes_high(stakes)
    return spaces.Dict({
        "observation": spaces.Box(0.0, high, (OBSERVATION_SIZE,), np.float32),
        "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
    })


class _Table:
    """What both environments share: the game's parameters and dealing a seeded hand."""

    def __init__(self, variant: Variant | str, players: int,
                 stakes: Stakes | Sequence[int] | str | None, rules: Rules | str | None,
                 starting_stack: int | Sequence[int], illegal: Illegal) -> None:
        self.variant = variant if isinstance(variant, Variant) else Variant.parse(variant)
        self.stakes = _stakes(stakes)
        self.rules = as_rules(rules)
        self.starting_stacks = _stacks(starting_stack, players, self.stakes)
        if illegal not in ("raise", "fallback"):
            raise ValueError(f"illegal must be 'raise' or 'fallback', not {illegal!r}")
        self.illegal: Illegal = illegal
        self.players = len(self.starting_stacks)

    def deal(self, deck_seed: int) -> Hand:
        return Hand(self.variant, self.stakes, list(self.starting_stacks), self.rules,
                    Deck.seeded(deck_seed))

    def observation(self, hand: Hand, seat: int,
                    bets: StreetBets | None = None) -> dict[str, np.ndarray]:
        """Seat's observation and action mask: the full vector, or with ``bets`` the
        compact one."""
        view = hand.view(seat)
        mask = (action_mask(view.legal_actions) if view.legal_actions
                else np.zeros(NUM_ACTIONS, np.int8))
        vector = encode_view(view) if bets is None else encode_compact(view, bets)
        return {"observation": vector, "action_mask": mask}


def _compact(observation: Observation) -> bool:
    if observation not in ("full", "compact"):
        raise ValueError(f"observation must be 'full' or 'compact', not {observation!r}")
    return observation == "compact"


def _render(hand: Hand | None, mode: str | None) -> str | None:
    if mode is None:
        gymnasium.logger.warn("render() called without a render_mode ('ansi' or 'human')")
        return None
    text = "" if hand is None else "\n".join(text_history(hand.public_events()))
    if mode == "human":
        print(text)
        return None
    return text


class StudAECEnv(AECEnv):
    """Every seat an agent, ``player_0`` in seat 1; one hand per episode. See the module
    docstring for the observation, actions and rewards; ``observation="compact"`` gives the
    compact vector (``COMPACT_LAYOUT``, as ``vector_env``) in its place, beside the same mask.

    ``illegal``: an action outside the mask raises ``IllegalAction`` ("raise", the default) or
    is played as its fallback ("fallback", see ``engine_action``).
    """

    metadata = {"name": "stud_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, variant: Variant | str = "stud8", players: int = 6,
                 stakes: Stakes | Sequence[int] | str | None = None,
                 rules: Rules | str | None = None, starting_stack: int | Sequence[int] = 200,
                 render_mode: str | None = None, illegal: Illegal = "raise",
                 observation: Observation = "full") -> None:
        super().__init__()
        self.table = _Table(variant, players, stakes, rules, starting_stack, illegal)
        self.compact = _compact(observation)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(self.table.players)]
        self.agents = self.possible_agents[:]
        self._seat = {agent: i + 1 for i, agent in enumerate(self.possible_agents)}
        space = _spaces(self.table.starting_stacks, self.table.stakes)
        if self.compact:
            space = spaces.Dict({"observation": compact_space(self.table.starting_stacks,
                                                              self.table.stakes),
                                 "action_mask": space["action_mask"]})
        self.observation_spaces = {agent: space for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(NUM_ACTIONS)
                              for agent in self.possible_agents}
        self.hand: Hand | None = None
        self.bets: StreetBets | None = None  # kept for the compact observation only
        self._rng = random.Random()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand: from ``Deck.seeded(seed)`` when seeded, else from a seed drawn
        from the generator the last seed started (so a run of hands is reproducible)."""
        if seed is not None:
            self._rng = random.Random(seed)
            deck_seed = seed
        else:
            deck_seed = self._rng.getrandbits(64)
        self.hand = self.table.deal(deck_seed)
        self.bets = StreetBets(self.hand) if self.compact else None
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self._agent_to_act()

    def _agent_to_act(self) -> str:
        assert self.hand is not None and self.hand.to_act is not None
        return self.possible_agents[self.hand.to_act - 1]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.hand is not None, "reset() first"
        return self.table.observation(self.hand, self._seat[agent], self.bets)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        hand = self.hand
        assert hand is not None
        move, _ = engine_action(hand, action, self.table.illegal)  # type: ignore[arg-type]
        hand.act(move)
        if self.bets is not None:
            self.bets.track(hand)
        self._cumulative_rewards[agent] = 0
        self._clear_rewards()
        if hand.is_over:
            net = hand.result.net  # type: ignore[union-attr]
            self.rewards = {a: float(net[i]) for i, a in enumerate(self.possible_agents)}
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
            self._deads_step_first()
        else:
            self.agent_selection = self._agent_to_act()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        return _render(self.hand, self.render_mode)

    def close(self) -> None:
        pass


raw_env = StudAECEnv


def env(**kwargs: Any) -> AECEnv:
    """The AEC environment (``StudAECEnv(**kwargs)``) in PettingZoo's usual wrappers: an
    action outside the action space is an assertion error, calls before ``reset()`` are
    errors."""
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(StudAECEnv(**kwargs)))


class SingleSeatEnv(gymnasium.Env):
    """One seat against bots (``stud.bots`` names or ``Bot`` objects) in Gymnasium's API; one
    hand per episode.

    ``opponents``: one bot for each other seat, clockwise from the agent (or a single name
    for all); bots named are made afresh for each hand with seeds from the hand's seed
    (``HandSeeds``), ``Bot`` objects are used as they are. ``seat``: the agent's seat,
    1..players, or None for a seat drawn per hand.
    ``observation="full"`` (the default): the AEC environment's Dict (the vector and
    ``action_mask``, int8); ``observation="compact"``: the vectorised environment's compact
    vector (``COMPACT_LAYOUT``, see ``stud.fast.observe``) with a bool mask. The mask is
    also in ``info["action_mask"]`` and ``action_masks()``. An action outside the mask is
    played as its fallback (``illegal="fallback"``, the default; ``info["illegal"]`` says so)
    or raises ``IllegalAction`` (``illegal="raise"``). The reward is the agent's net chips
    when the hand ends, zero before.
    """

    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(self, variant: Variant | str = "stud8", players: int = 6,
                 opponents: Sequence[str | Bot] | str = "random", seat: int | None = None,
                 stakes: Stakes | Sequence[int] | str | None = None,
                 rules: Rules | str | None = None, starting_stack: int | Sequence[int] = 200,
                 render_mode: str | None = None, illegal: Illegal = "fallback",
                 observation: Observation = "full") -> None:
        self.table = _Table(variant, players, stakes, rules, starting_stack, illegal)
        players = self.table.players
        self.compact = _compact(observation)
        if isinstance(opponents, str):
            opponents = [opponents] * (players - 1)
        if len(opponents) != players - 1:
            raise ValueError(f"{players} players need {players - 1} opponents, "
                             f"not {len(opponents)}")
        for k, bot in enumerate(opponents, 1):
            if isinstance(bot, str):
                make_bot(bot)  # an unknown name fails here, not at the first reset
            elif not isinstance(bot, Bot):
                raise ValueError(f"opponent {k} is {bot!r}: give a bot's name or a Bot (an "
                                 "object with a name and act(view))")
        self.opponents = list(opponents)
        if seat is not None and not (is_whole(seat) and 1 <= seat <= players):
            raise ValueError(f"seat must be 1..{players} or None, not {seat!r}")
        seat = None if seat is None else int(seat)
        self.fixed_seat = seat
        self.seat = seat or 1
        self.render_mode = render_mode
        self.observation_space: spaces.Space = (
            compact_space(self.table.starting_stacks, self.table.stakes) if self.compact
            else _spaces(self.table.starting_stacks, self.table.stakes))
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.hand: Hand | None = None
        self.bots: dict[int, Bot] = {}
        self.seeds: HandSeeds | None = None
        self.bets: StreetBets | None = None

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Any, dict]:
        """Deal a hand and play the bots up to the agent's turn. Seeded, the deck is
        ``Deck.seeded(seed)``; unseeded, the hand's seed follows the last hand's
        (``HandSeeds``: the vectorised environment deals the same run), or, before any hand,
        comes from the environment's generator. The hand's seed also gives the bots' seeds
        and a drawn seat."""
        super().reset(seed=seed)
        if seed is not None:
            self.seeds = HandSeeds(seed)
        elif self.seeds is None:
            self.seeds = HandSeeds(int(self.np_random.integers(2**63)))
        else:
            self.seeds.next_hand()
        seeds = self.seeds
        n = self.table.players
        self.seat = self.fixed_seat or seeds.seat(n)
        others = [(self.seat - 1 + k) % n + 1 for k in range(1, n)]
        self.bots = {s: make_bot(bot, seeds.opponent_seed(k)) if isinstance(bot, str) else bot
                     for k, (s, bot) in enumerate(zip(others, self.opponents, strict=True),
                                                  start=1)}
        self.hand = self.table.deal(seeds.seed)
        self.bets = StreetBets(self.hand)
        self._play_bots()
        # A starting stack above the ante gives every player a decision on third street.
        assert not self.hand.is_over
        observation, mask = self._observe()
        return observation, {"action_mask": mask}

    def _observe(self) -> tuple[Any, np.ndarray]:
        """The agent's observation and its action mask (a copy: bool when compact)."""
        hand = self.hand
        assert hand is not None and self.bets is not None
        if not self.compact:
            observation = self.table.observation(hand, self.seat)
            return observation, observation["action_mask"].copy()
        compact = self.table.observation(hand, self.seat, self.bets)
        return compact["observation"], compact["action_mask"].astype(bool)

    def _play_bots(self) -> None:
        hand, bets = self.hand, self.bets
        assert hand is not None and bets is not None
        while not hand.is_over and hand.to_act != self.seat:
            seat = hand.to_act
            assert seat is not None
            hand.act(self.bots[seat].act(hand.view(seat)), seat)
            bets.track(hand)

    def step(self, action: int) -> tuple[Any, float, bool, bool, dict]:
        hand = self.hand
        if hand is None:
            raise RuntimeError("no hand dealt yet: call reset() first")
        if hand.is_over:
            raise RuntimeError("the hand is over: call reset()")
        assert self.bets is not None
        move, illegal = engine_action(hand, action, self.table.illegal)
        hand.act(move, self.seat)
        self.bets.track(hand)
        self._play_bots()
        observation, mask = self._observe()
        reward = float(hand.result.net[self.seat - 1]) if hand.is_over else 0.0
        info = {"action_mask": mask, "illegal": illegal}
        if self.render_mode == "human":
            self.render()
        return observation, reward, hand.is_over, False, info

    def action_masks(self) -> np.ndarray:
        """The mask now (sb3-contrib's MaskablePPO asks for it by this name), of the
        observation's dtype: int8, or bool when compact."""
        dtype = bool if self.compact else np.int8
        if self.hand is None or self.hand.to_act != self.seat:
            return np.zeros(NUM_ACTIONS, dtype)
        return action_mask(self.hand.legal_actions()).astype(dtype, copy=False)

    def render(self) -> str | None:
        return _render(self.hand, self.render_mode)


__all__ = [
    "ACTION_NAMES", "BRING_IN", "CHECK_CALL", "FOLD", "NUM_ACTIONS", "OBSERVATION_LAYOUT",
    "OBSERVATION_SIZE", "WAGER_BIG", "WAGER_SMALL", "SingleSeatEnv", "StudAECEnv",
    "action_mask", "action_table", "encode_view", "engine_action", "env", "raw_env",
]

from stud.rl.vector import IllegalActionIndex, StudVectorEnv, vector_env  # noqa: E402

COMPACT_SIZE = COMPACT_OBSERVATION_SIZE

# gymnasium.make("stud/SingleSeat-v0") is a SingleSeatEnv, gymnasium.make_vec(...) this
# module's vectorised environment (or, vectorization_mode="sync", SingleSeatEnvs in a
# SyncVectorEnv: the same hands and observations), with the compact observation and fallbacks.
# Importing this module registers it: Gymnasium 1.x reads no plugin entry points, so a fresh
# interpreter names the module in the id, "stud.rl:stud/SingleSeat-v0", and Gymnasium imports it.
SPEC_ID = "stud/SingleSeat-v0"
if SPEC_ID not in gymnasium.registry:
    gymnasium.register(SPEC_ID, entry_point="stud.rl:SingleSeatEnv",
                       vector_entry_point="stud.rl.vector:StudVectorEnv",
                       kwargs={"observation": "compact", "illegal": "fallback"})
__all__ += ["COMPACT_LAYOUT", "COMPACT_SIZE", "SPEC_ID", "IllegalActionIndex",
            "StudVectorEnv", "encode_compact", "vector_env"]
