"""A bot that plays by the strength of the cards it can see.

It scores its own cards (made hands, draws, and for the low games, low cards), discounts the
score when an opponent's up cards look stronger, and bets, calls or folds by thresholds that
tighten as the bets grow. It is a sound baseline, not a strong player.
"""

from __future__ import annotations

import random
from collections import Counter

from stud.bots.base import not_to_act
from stud.cards import Card
from stud.engine import Action, ActionKind, HandView
from stud.evaluate.low import low_rank
from stud.evaluate.showing import showing_high, showing_low
from stud.rules import Variant


def high_strength(cards: list[Card]) -> float:
    """0..1 for a high hand in progress: pairs by rank, trips, two pair, flush and straight
    draws."""
    ranks = Counter(c.rank for c in cards)
    counts = sorted(ranks.values(), reverse=True)
    top_pair = max((r for r, n in ranks.items() if n >= 2), default=-1)
    suits = Counter(c.suit for c in cards)
    flush = max(suits.values())
    distinct = sorted({int(c.rank) for c in cards} | ({-1} if 12 in ranks else set()))
    run = best = 1
    for a, b in zip(distinct, distinct[1:], strict=False):
        run = run + 1 if b == a + 1 else 1
        best = max(best, run)
    if counts[0] >= 3 and len(counts) > 1 and counts[1] >= 2:
        return 0.97
    if counts[0] >= 4 or flush >= 5 or best >= 5:
        return 0.95
    if counts[0] == 3:
        return 0.85 + 0.01 * max(r for r, n in ranks.items() if n == 3)
    if counts[0] == 2 and len(counts) > 1 and counts[1] == 2:
        return 0.65 + 0.01 * top_pair
    score = 0.0
    if counts[0] == 2:
        score = 0.35 + 0.02 * top_pair
    else:
        score = 0.05 + 0.015 * max(int(c.rank) for c in cards)
    left = 7 - len(cards)
    if flush >= 3 and flush + left >= 5:
        score += 0.08 * (flush - 2)
    if best >= 3 and best + left >= 5:
        score += 0.06 * (best - 2)
    return min(score, 0.9)


def low_strength(cards: list[Card], qualifier: bool) -> float:
    """0..1 for a low hand in progress: distinct low ranks, and how low they are."""
    lows = sorted({low_rank(c.id) for c in cards if not qualifier or low_rank(c.id) <= 7})
    if not lows:
        return 0.0
    five = lows[:5]
    count = len(five)
    left = 7 - len(cards)
    if count + left < 5:
        return 0.05
    top = five[-1] if count else 12
    return min(1.0, 0.15 * count + 0.04 * (12 - top) - 0.1 * max(0, 5 - count - left))


class StrengthBot:
    """Bets strong hands, calls middling ones, folds weak ones facing a bet."""

    name = "strength"

    def __init__(self, seed: int | None = None, aggression: float = 1.0) -> None:
        self.rng = random.Random(seed)
        self.aggression = aggression

    def strength(self, view: HandView) -> float:
        me = view.player(view.viewer or 1)
        cards = [c for c in me.cards if c is not None] + list(view.board)
        if view.variant is Variant.STUD:
            mine = high_strength(cards)
        elif view.variant is Variant.RAZZ:
            mine = low_strength(cards, qualifier=False)
        else:
            mine = max(high_strength(cards), 0.9 * low_strength(cards, qualifier=True))
        # Discount for an opponent whose up cards beat ours.
        my_up = [c.id for c in me.up_cards] + [c.id for c in view.board]
        rank = showing_low if view.variant is Variant.RAZZ else showing_high
        my_show = rank(my_up) if my_up else 0
        for other in view.players:
            if other.seat == me.seat or other.folded or other.mucked:
                continue
            up = [c.id for c in other.up_cards] + [c.id for c in view.board]
            if up and rank(up) > my_show:
                mine -= 0.05
        return max(0.0, min(1.0, mine))

    def act(self, view: HandView) -> Action:
        legal = view.legal_actions
        if not legal:
            raise not_to_act(view)
        by_kind = {a.kind: a for a in legal}
        if ActionKind.SHOW in by_kind:
            return by_kind[ActionKind.SHOW]
        s = self.strength(view) + self.rng.uniform(-0.05, 0.05)
        wagers = [a for a in legal if a.wagers and a.kind is not ActionKind.BRING_IN]
        if wagers and s > 0.75 / self.aggression:
            # The biggest wager only with a very strong hand (it is the open-pair big bet).
            return wagers[-1] if s > 0.9 else wagers[0]
        if ActionKind.CHECK in by_kind:
            return by_kind[ActionKind.CHECK]
        if ActionKind.BRING_IN in by_kind:
            return by_kind[ActionKind.BRING_IN]
        call = by_kind.get(ActionKind.CALL)
        if call is not None:
            me = view.player(view.viewer or 1)
            price = call.to - me.wager
            pot_odds = price / max(1, view.pot + price)
            if s >= 0.3 + pot_odds or (view.street == 3 and price <= view.stakes.bring_in):
                return call
        return by_kind.get(ActionKind.FOLD, legal[0])
