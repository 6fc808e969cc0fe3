"""A player that bets its equity: Monte Carlo against the cards it can see, then pot odds.

On every street the bot deals the cards it cannot see (the opponents' down cards and
everyone's cards still to come) from the unseen cards a few hundred times, with
``stud.equity.equity`` (the batch evaluators underneath), and takes its share of the pot:
in stud hi/lo the high and the low halves count apart, so a scoop counts whole and a split
half as a quarter. The folded hands' up cards are dead. The estimate is kept for the street
and worked out again when a card falls or an opponent folds.

The opponents' unknown cards are random in this estimate; players who bet hold better than
random, so each bet or raise against the bot on the street lowers its equity a little, less at
a table that bets a lot (``reading.Tendencies``, as for the expert). With the equity it plays
on every street as the expert does after third street (``expert.play_share``): bets when it is
worth a bet against the callers (or when the table folds often enough to pay for the bet),
raises higher, calls by the pot odds (a little looser up to fifth street, where draws have
more bets to win), completes from the bring-in with a raising hand.

Where ``stud.equity`` cannot answer, a small Monte Carlo here does (``sampled_share``, with
the same batch evaluators): with a community card on the table, when eight players would need
more cards than the deck holds (the engine then deals a community card, and so does the
sampler), or when a card is seen twice after a reshuffle.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np

from stud.bots.base import not_to_act
from stud.bots.expert import play_share
from stud.bots.reading import Options, TableRead, Tendencies
from stud.cards import Card
from stud.engine import Action, HandView
from stud.evaluate.high import high_value
from stud.evaluate.low import NO_LOW, a5_value, low8_value
from stud.rules import Variant

TRIALS = 400
Evaluator = Callable[[np.ndarray], np.ndarray]


def _hand(cards: tuple[Card | None, ...], board: tuple[Card, ...]) -> list[Card | None]:
    """A hand in dealing order for the equity calculator, ``None`` for a card not seen."""
    return [*cards, *board]


def _evaluators(variant: Variant) -> tuple[Evaluator | None, Evaluator | None]:
    """(high, low) evaluators of (N, 7) arrays of card ids: the batch kernels when they load,
    else the plain evaluators row by row."""
    evaluators: tuple[Evaluator, Evaluator, Evaluator]
    try:
        from stud.evaluate import batch

        evaluators = (batch.high7, batch.low8, batch.low_a5)
    except ImportError:  # pragma: no cover - the batch kernels are part of the package
        def rows(evaluate: Callable[[list[int]], int]) -> Evaluator:
            return lambda cards: np.array([evaluate(r) for r in cards.tolist()], np.int64)

        evaluators = (rows(high_value), rows(low8_value), rows(a5_value))
    high7, low8, low_a5 = evaluators
    if variant is Variant.RAZZ:
        return None, low_a5
    return high7, (low8 if variant is Variant.STUD8 else None)


def _first_share(values: np.ndarray) -> np.ndarray:
    """Per deal (row), the first hand's share of a pot won by the highest value."""
    best = values == values.max(axis=1, keepdims=True)
    return best[:, 0] / best.sum(axis=1)


def sampled_share(variant: Variant, hands: list[list[Card | None]], dead: set[Card],
                  trials: int, seed: int) -> float:
    """The first hand's share of the pot over ``trials`` random completions of every hand to
    seven cards from the cards not known.

    A card shared by several hands (the community card) is one card. When the unseen cards
    cannot complete every hand, one more community card is every short hand's seventh card,
    as the engine deals it (``deck_exhaustion``); a ValueError when even that is too few.
    """
    known = {c.id for hand in hands for c in hand if c is not None} | {c.id for c in dead}
    pool = np.array([i for i in range(52) if i not in known], np.uint8)
    fixed = [[c.id for c in hand if c is not None] for hand in hands]
    missing = [7 - len(ids) for ids in fixed]
    shared = 0
    if sum(missing) > len(pool):
        shared = 1
        missing = [max(0, k - 1) for k in missing]
    need = sum(missing) + shared
    if need > len(pool):
        raise ValueError("not enough unseen cards to complete every hand")
    rng = np.random.default_rng(seed)
    picks = pool[np.argsort(rng.random((trials, len(pool))), axis=1)[:, :need]]
    cards = np.empty((trials, len(hands), 7), np.uint8)
    at = 0
    for h, ids in enumerate(fixed):
        cards[:, h, :len(ids)] = ids
        cards[:, h, len(ids):len(ids) + missing[h]] = picks[:, at:at + missing[h]]
        at += missing[h]
        if len(ids) + missing[h] < 7:
            cards[:, h, 6] = picks[:, need - 1]
    flat = cards.reshape(-1, 7)
    high, low = _evaluators(variant)
    shape = (trials, len(hands))
    if high is None:
        assert low is not None  # razz: the low is the only value
        share = _first_share(low(flat).reshape(shape))
    else:
        share = _first_share(high(flat).reshape(shape))
        if low is not None:
            lows = low(flat).reshape(shape)
            has_low = lows.max(axis=1) != NO_LOW
            share = np.where(has_low, (share + _first_share(lows)) / 2, share)
    return float(share.mean())


class EquityBot:
    """Estimates its equity by Monte Carlo and plays it by the pot odds."""

    name = "equity"

    def __init__(self, seed: int | None = None, trials: int = TRIALS) -> None:
        self.rng = random.Random(seed)
        self.trials = trials
        self._key: tuple[object, ...] | None = None
        self._equity = 0.0
        self.table = Tendencies()

    def equity(self, read: TableRead) -> float:
        """My share of the pot against the live opponents' visible cards (cached per street,
        cards and opponents)."""
        view = read.view
        board = tuple(view.board)
        me = view.player(read.seat)
        opponents = read.opponents
        key = (view.street, me.cards, board, tuple((p.seat, p.cards) for p in opponents),
               read.dead)
        if key == self._key:
            return self._equity
        hands = [_hand(me.cards, board)] + [_hand(p.cards, board) for p in opponents]
        seed = self.rng.getrandbits(63)
        share: float
        try:
            if board:
                raise ValueError("stud.equity does not model the community card")
            from stud.equity import equity

            result = equity(view.variant, hands, dead=sorted(read.dead), trials=self.trials,
                            seed=seed)
            share = result.players[0].equity
        except (ImportError, TypeError, ValueError):  # EquityError is a ValueError
            try:
                share = sampled_share(view.variant, hands, set(read.dead), self.trials, seed)
            except ValueError:
                share = 1.0 / (len(opponents) + 1)
        self._key, self._equity = key, share
        return share

    def act(self, view: HandView) -> Action:
        if not view.legal_actions:
            raise not_to_act(view)
        options = Options.of(view.legal_actions)
        if options.show is not None:
            return options.show
        self.table.observe(view)
        read = TableRead.of(view)
        wagers = sum(read.wagered_now.get(p.seat, 0) for p in read.opponents)
        share = self.equity(read) * self.table.bet_discount ** wagers
        implied = 0.85 if view.street <= 5 else 1.0
        return play_share(read, options, share, implied=implied,
                          fold_rate=self.table.fold_rate)

