"""Equities shown to a player: their own during a hand (against what they cannot see), and
every shown hand's, street by street, once the hand is over and the cards are known."""

from __future__ import annotations

from stud.cards import format_cards
from stud.engine import Hand, HandShown, HandView
from stud.equity import EquityError, equity

TRIALS = 20_000  # enough for a figure to a percent, quick enough to show at every decision


def own_equity(view: HandView) -> float | None:
    """The viewer's share of the pot against the cards they can see (others' down cards and
    every card to come dealt from the unseen ones); None where it cannot be worked out (a
    community card, a deck too short for everyone)."""
    if view.viewer is None or view.board:
        return None
    me = view.player(view.viewer)
    if me.folded:
        return None
    hands = [format_cards(me.cards)]
    hands += [format_cards(p.cards) for p in view.players if p.seat != me.seat and not p.folded]
    dead = [c for p in view.players if p.folded for c in p.cards if c is not None]
    if len(hands) < 2:
        return None
    try:
        return equity(view.variant, hands, dead=dead, trials=TRIALS, seed=0).players[0].equity
    except EquityError:
        return None


def equity_by_street(hand: Hand) -> list[tuple[int, dict[int, float]]]:
    """For a hand that reached the showdown: each shown player's equity on each street (3 to
    7), from the cards they held then (all known now), the folded hands' cards unknown."""
    shown = {e.seat: e.cards for e in hand.events if isinstance(e, HandShown)}
    if len(shown) < 2 or hand.board:
        return []
    seats = sorted(shown)
    rows: list[tuple[int, dict[int, float]]] = []
    for street, count in ((3, 3), (4, 4), (5, 5), (6, 6), (7, 7)):
        hands = [format_cards(shown[s][:count]) for s in seats]
        try:
            result = equity(hand.variant, hands, trials=None if count >= 6 else TRIALS, seed=0)
        except EquityError:
            return rows
        rows.append((street, {s: p.equity for s, p in zip(seats, result.players, strict=True)}))
    return rows
