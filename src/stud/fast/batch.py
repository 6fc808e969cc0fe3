"""The fast engine's Python face: a batch of hands played in step or to the end.

>>> import numpy as np
>>> from stud.cards import Deck
>>> from stud.rules import Stakes
>>> decks = [Deck.seeded(seed) for seed in range(3)]
>>> batch = Batch("stud", Stakes(1, 1, 2, 4), "standard", [100, 100, 100], decks)
>>> batch.to_act.tolist()  # the bring-in of each hand
[3, 2, 3]
>>> legal = batch.legal()
>>> legal.actions(0)
[('bring_in', 1), ('complete', 2)]
>>> batch.act(np.zeros(3, dtype=np.int64))  # each hand's first legal action
>>> batch.play("station")
>>> bool(batch.is_over.all()), batch.stacks.sum(axis=1).tolist()
(True, [300, 300, 300])

A batch is N hands of one game (variant, stakes, rules, number of players), each from its own
deck (``decks``: ``Deck`` objects, or an (N, 52) array of card ids in dealing order) and its
own starting stacks. ``legal()`` lists every hand's legal actions with their amounts, in the
order ``Hand.legal_actions()`` lists them; ``act(choices)`` takes one of them in every hand
where someone is to act; ``play(policy)`` plays every hand to its end with the built-in
policies. The same deck and the same choices make the same hand as ``stud.engine.Hand``: the
engine is the judge, ``tests/fast`` the proof.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from stud.cards import Card, Deck
from stud.evaluate.batch import high7, low8, low_a5
from stud.fast import layout as L
from stud.fast.game import game_vector
from stud.fast.hands import act_all, legal_all, play_all, settle_all, showdown_cards, start_all
from stud.fast.policies import POLICIES, seeded_states
from stud.fast.twister import KEY_WORDS, seed_key
from stud.rules import MAX_CHIPS, Rules, RulesError, Stakes, Variant, as_rules, is_whole

Array = npt.NDArray[Any]
_SALT = 1_000_003  # Deck.reshuffle's seed: deck seed * 1_000_003 + the reshuffle's number


class IllegalChoice(ValueError):
    """A choice that is not the index of one of a hand's legal actions: which hand, what."""


@dataclass(frozen=True, slots=True)
class Legal:
    """Every hand's legal actions: ``kinds[h, :counts[h]]`` (``layout.ACTION_NAMES``) and
    their "to" amounts ``tos[h, :counts[h]]``; ``counts[h]`` is 0 when nobody is to act."""

    kinds: Array
    tos: Array
    counts: Array

    def actions(self, h: int) -> list[tuple[str, int]]:
        """Hand h's legal actions as (kind, to), kinds named as ``ActionKind`` values."""
        return [(L.ACTION_NAMES[int(self.kinds[h, k])], int(self.tos[h, k]))
                for k in range(int(self.counts[h]))]


@dataclass(frozen=True, slots=True)
class Award:
    """One pot, or one half of a hi/lo pot, going to its winners, as ``PotAwarded`` says it:
    ``pot`` 0 is the main pot; ``half`` is "all", "high" or "low"; ``shares`` pairs each
    winner's seat (1-based) with its chips, in the order the odd chips went."""

    pot: int
    half: str
    amount: int
    shares: tuple[tuple[int, int], ...]


def _decks(decks: Sequence[Deck] | Array) -> tuple[Array, list[int | None]]:
    if isinstance(decks, np.ndarray):
        array = decks
        seeds: list[int | None] = [None] * len(array)
    else:
        listed = list(decks)
        if listed and all(isinstance(d, Deck) for d in listed):
            array = np.array([[c.id for c in d.cards] for d in listed], dtype=np.int64)
            seeds = [d.seed for d in listed]
        else:
            array = np.asarray(listed)
            seeds = [None] * len(array)
    if array.ndim != 2 or array.shape[1] != 52:
        raise ValueError(f"decks must be N decks of 52 card ids, shape (N, 52); got shape "
                         f"{array.shape}")
    if not np.issubdtype(array.dtype, np.integer):
        raise ValueError(f"card ids must be integers, got dtype {array.dtype}")
    bad = np.flatnonzero((np.sort(array, axis=1) != np.arange(52)).any(axis=1))
    if len(bad):
        raise ValueError(f"deck {int(bad[0])} is not the 52 cards, each once")
    return np.ascontiguousarray(array, dtype=np.uint8), seeds


def _stacks(stacks: Sequence[int] | Sequence[Sequence[int]] | Array, hands: int) -> Array:
    array = np.asarray(stacks)
    if array.ndim == 1:
        array = np.broadcast_to(array, (hands, len(array)))
    if array.ndim != 2 or array.shape[0] != hands:
        raise RulesError(f"stacks must be one list of chip counts for every hand, or one per "
                         f"hand ({hands}); got shape {array.shape}")
    if array.dtype == object and all(is_whole(v) for v in array.flat):  # ints beyond int64
        raise RulesError(f"a starting stack must be at most {MAX_CHIPS:,} chips")
    if not np.issubdtype(array.dtype, np.integer):
        raise RulesError(f"stacks must be whole numbers of chips, got dtype {array.dtype}")
    if not 2 <= array.shape[1] <= 8:
        raise RulesError(f"stud is for 2 to 8 players, not {array.shape[1]}")
    if hands and array.min() <= 0:
        raise RulesError("a starting stack must be a whole number of chips > 0")
    # Eight stacks of at most MAX_CHIPS (2**50) sum to at most 2**53: far from int64's end, for
    # every sum the kernels make.
    if hands and array.max() > MAX_CHIPS:
        raise RulesError(f"a starting stack must be at most {MAX_CHIPS:,} chips")
    return np.ascontiguousarray(array, dtype=np.int64)


def _reshuffle_keys(seeds: Sequence[int | None], hands: int, needed: bool) -> Array:
    """Each hand's twister key for Deck.reshuffle (salt 1); needed only under ``reshuffle``."""
    keys = np.full((hands, KEY_WORDS), -1, dtype=np.int64)
    keys[:, 0] = 0
    if not needed:
        return keys
    for h, seed in enumerate(seeds):
        if seed is None:
            raise RulesError(f"deck {h} has no seed: deck_exhaustion 'reshuffle' shuffles with "
                             f"the deck's seed (Deck.seeded), so the fast engine needs it; "
                             f"pass seeds=")
        keys[h] = seed_key(int(seed) * _SALT + 1)
    return keys


class Batch:
    """N hands of one game, played in step (``legal``, ``act``) or to the end (``play``)."""

    def __init__(self, variant: Variant | str, stakes: Stakes, rules: Rules | str | None,
                 stacks: Sequence[int] | Sequence[Sequence[int]] | Array,
                 decks: Sequence[Deck] | Array, *,
                 seeds: Sequence[int] | Array | None = None) -> None:
        self.variant: Variant = variant if isinstance(variant, Variant) else \
            Variant.parse(variant)
        self.rules: Rules = as_rules(rules)
        if not isinstance(stakes, Stakes):
            raise RulesError(f"stakes must be Stakes(ante, bring_in, small_bet, big_bet), "
                             f"not {stakes!r}")
        self.stakes: Stakes = stakes
        self.starting_stacks: Array = _stacks(stacks, len(decks))
        self.players: int = int(self.starting_stacks.shape[1])
        self.game: Array = game_vector(self.variant, stakes, self.rules, self.players)
        self.table: Array = np.zeros((0, L.WIDTH), dtype=np.int64)
        self.awards_table: Array = np.zeros((0, L.MAX_AWARDS, L.AWARD_SIZE), dtype=np.int64)
        self.deal(decks, self.starting_stacks, seeds=seeds)

    def deal(self, decks: Sequence[Deck] | Array,
             stacks: Sequence[int] | Sequence[Sequence[int]] | Array | None = None, *,
             seeds: Sequence[int] | Array | None = None) -> None:
        """New hands of the same game from these decks (and stacks, else the last ones), in
        the batch's arrays where they fit: a simulation deals chunk after chunk without
        touching fresh memory (whose first use costs more than playing the hands)."""
        self.stub, deck_seeds = _decks(decks)
        hands = len(self.stub)
        if seeds is not None:
            if len(seeds) != hands:
                raise ValueError(f"{len(seeds)} seeds for {hands} decks")
            deck_seeds = [int(s) for s in seeds]
        stacks = self.starting_stacks if stacks is None else stacks
        starting = _stacks(stacks, hands)
        if starting.shape[1] != self.players:
            raise RulesError(f"this batch is for {self.players} players, not "
                             f"{starting.shape[1]}")
        self.starting_stacks = starting
        self.keys: Array = _reshuffle_keys(deck_seeds, hands,
                                           self.rules.deck_exhaustion == "reshuffle")
        if len(self.table) != hands:
            self.table = np.zeros((hands, L.WIDTH), dtype=np.int64)
            self.awards_table = np.zeros((hands, L.MAX_AWARDS, L.AWARD_SIZE), dtype=np.int64)
        start_all(self.table, self.stub, self.game, self.starting_stacks, self.keys,
                  self.awards_table)
        self.settle()

    def __len__(self) -> int:
        return len(self.table)

    # ---------------------------------------------------------------- reading
    def _seats(self, column: int) -> Array:
        return self.table[:, column:column + self.players].astype(np.int64)

    @property
    def actor(self) -> Array:
        """Each hand's player (index) to act, -1 for none."""
        return self.table[:, L.ACTOR].astype(np.int64)

    @property
    def to_act(self) -> Array:
        """Each hand's seat (1-based) to act, 0 for none."""
        return self.actor + 1

    @property
    def street(self) -> Array:
        return self.table[:, L.STREET].astype(np.int64)

    @property
    def is_over(self) -> Array:
        return self.table[:, L.PHASE] == L.OVER

    @property
    def stacks(self) -> Array:
        return self._seats(L.STACK)

    @property
    def committed(self) -> Array:
        return self._seats(L.COMMITTED)

    @property
    def wagers(self) -> Array:
        """This street's wagers."""
        return self._seats(L.WAGER)

    @property
    def folded(self) -> Array:
        return self._seats(L.FOLDED).astype(bool)

    @property
    def pot(self) -> Array:
        return self.committed.sum(axis=1)

    @property
    def board(self) -> Array:
        """Each hand's community card (an id), -1 for none."""
        return self.table[:, L.BOARD].astype(np.int64)

    @property
    def net(self) -> Array:
        """Chips won or lost by each seat, once the hands are over."""
        return self.stacks - self.starting_stacks

    def cards(self, h: int) -> list[list[tuple[Card, bool]]]:
        """Hand h's cards, seat by seat in dealing order, each with whether it is face up."""
        row = self.table[h]
        return [[(Card.from_id(int(row[L.CARD + L.CARDS * i + k])),
                  bool(row[L.UP + i] >> k & 1)) for k in range(int(row[L.HELD + i]))]
                for i in range(self.players)]

    def awards(self, h: int) -> list[Award]:
        """Hand h's pots as awarded (the last side pot first), once it is over."""
        found = []
        for a in self.awards_table[h, :int(self.table[h, L.AWARDS])].tolist():
            winners = a[L.A_WINNERS]
            shares = tuple((a[L.A_SEAT + k] + 1, a[L.A_CHIPS + k]) for k in range(winners))
            found.append(Award(a[L.A_POT], L.HALVES[a[L.A_HALF]], a[L.A_AMOUNT], shares))
        return found

    # ---------------------------------------------------------------- playing
    def legal(self) -> Legal:
        """Every hand's legal actions with their amounts, in the engine's order."""
        hands = len(self)
        kinds = np.zeros((hands, L.MAX_LEGAL), dtype=np.int64)
        tos = np.zeros((hands, L.MAX_LEGAL), dtype=np.int64)
        counts = np.zeros(hands, dtype=np.int64)
        legal_all(self.table, self.game, kinds, tos, counts)
        return Legal(kinds.astype(np.int8), tos, counts)

    def act(self, choices: Sequence[int] | Array) -> None:
        """In every hand where someone is to act, the legal action at index ``choices[h]``
        (of ``legal()``'s list) is taken; other hands' choices are ignored. A choice that is
        no legal action's index changes no hand: ``IllegalChoice`` says which."""
        given = np.asarray(choices)
        if given.shape != (len(self),):
            raise IllegalChoice(f"one choice a hand: shape ({len(self)},) expected, got "
                                f"{given.shape}")
        if not np.issubdtype(given.dtype, np.integer):
            raise IllegalChoice(f"choices must be whole numbers (indices into legal()'s "
                                f"actions), got dtype {given.dtype}")
        # Any index from MAX_LEGAL on is no action's: capped there, it fits the kernel's int64.
        array = np.ascontiguousarray(np.where(given >= L.MAX_LEGAL, L.MAX_LEGAL, given),
                                     dtype=np.int64)
        bad = act_all(self.table, self.stub, self.game, array, self.keys, self.awards_table)
        if bad >= 0:
            legal = self.legal().actions(int(bad))
            raise IllegalChoice(f"hand {bad}: choice {int(given[bad])} is not one of the "
                                f"{len(legal)} legal actions {legal}; no hand was changed")
        self.settle()

    def play(self, policy: str | Sequence[str] = "random", seed: int = 0,
             seeds: Array | None = None) -> None:
        """Every hand played to its end by built-in policies: one for every seat, or one a
        seat (``random``, ``station``, ``strength``). The generators of hand h are seeded from
        ``seed`` and h, or, for the random policy as ``RandomBot(seeds[h, seat])``."""
        play_all(self.table, self.stub, self.game, self.policy_codes(policy),
                 self.generators(seed, seeds), self.keys, self.awards_table)
        self.settle()

    def policy_codes(self, policy: str | Sequence[str]) -> Array:
        """Each seat's built-in policy as the kernels know it (``play``'s ``policy``)."""
        names = [policy] * self.players if isinstance(policy, str) else list(policy)
        if len(names) != self.players:
            raise ValueError(f"{len(names)} policies for {self.players} seats")
        unknown = [name for name in names if name not in POLICIES]
        if unknown:
            raise ValueError(f"unknown policy {unknown[0]!r}: use {', '.join(POLICIES)}")
        return np.array([POLICIES.index(name) for name in names], dtype=np.int64)

    def generators(self, seed: int, seeds: Array | None) -> Array:
        """The built-in policies' generators for every hand (``play``'s ``seed``, ``seeds``)."""
        hands = len(self)
        if seeds is None:
            if not is_whole(seed) or seed < 0:
                raise ValueError(f"seed must be a whole number >= 0, not {seed!r}")
            base = np.random.default_rng(int(seed)).integers(0, 2**63, size=(hands, L.RNG_SIZE),
                                                        dtype=np.int64)
            raw = base.astype(np.uint64)
        else:
            given = np.asarray(seeds, dtype=np.uint64)
            if given.shape != (hands, self.players):
                raise ValueError(f"seeds must have shape ({hands}, {self.players})")
            raw = np.zeros((hands, L.RNG_SIZE), dtype=np.uint64)
            raw[:, :self.players] = given
            raw[:, L.SEATS] = given[:, 0] ^ np.uint64(0x5DEECE66D)
        return np.ascontiguousarray(seeded_states(raw))

    def settle(self) -> None:
        """Hands at their showdown get their values and their pots awarded."""
        settle_showdowns(self.table, self.game, self.variant, self.awards_table)


def settle_showdowns(table: np.ndarray, game: np.ndarray, variant: Variant,
                     awards: np.ndarray) -> None:
    """The tables' hands at their showdown get their values (the batch evaluators) and their
    pots awarded (``settle_all``): for a ``Batch`` and for the vectorised environment alike."""
    if not (table[:, L.PHASE] == L.SHOWDOWN).any():
        return
    cards, owners = showdown_cards(table, game)
    none = np.full(len(cards), -1, dtype=np.int64)
    if variant is Variant.RAZZ:
        high, low = none, low_a5(cards)
    else:
        high = high7(cards)
        low = low8(cards) if variant is Variant.STUD8 else none
    settle_all(table, game, owners, high, low, awards)
