"""Equities shown to a player: their own during a hand (against what they cannot see), and
every shown hand's, street by street, once the hand is over and the cards are known.

An equity here follows the pots: each pot is shared among the hands that can win it (a player
all in for less cannot win the side pots above them), and a player's equity is their expected
share of all the chips in the pots, ``sum(pot * share of that pot) / sum(pot)``. With one pot
this is the usual equity.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from stud.cards import Card, format_cards
from stud.engine import Hand, HandShown, HandView, Pot, build_pots, open_pots
from stud.equity import EquityError, equity, parse_spot
from stud.rules import Variant

TRIALS = 20_000  # enough for a figure to a percent, quick enough to show at every decision


class NoFigure(StrEnum):
    """Why no equity can be shown."""

    COMMUNITY = "community"  # a community card was dealt: the calculator does not model it
    DECK = "deck"  # the hands still in could need more cards than the deck has left


@dataclass(frozen=True, slots=True)
class OwnEquity:
    """The viewer's equity (``share`` of the chips in the pots as they stand), or why there is
    none (``missing``); ``pots`` is how many pots it follows."""

    share: float | None
    missing: NoFigure | None = None
    pots: int = 1


def _split(variant: Variant, hands: dict[int, str], dead: Sequence[Card],
           pots: Sequence[tuple[int, tuple[int, ...]]], trials: int | None
           ) -> dict[int, float]:
    """Each seat's expected share of the chips in ``pots`` ((amount, eligible seats) each),
    each pot among its eligible hands; the other hands' known cards are out of the deck for
    it. Raises EquityError."""
    total = sum(amount for amount, _ in pots) or 1
    shares = dict.fromkeys(hands, 0.0)
    memo: dict[tuple[int, ...], dict[int, float]] = {}
    for amount, eligible in pots:
        if eligible not in memo:
            if len(eligible) == 1:
                memo[eligible] = {eligible[0]: 1.0}
            else:
                out = [c for s, text in hands.items() if s not in eligible
                       for c in _known(text)]
                result = equity(variant, [hands[s] for s in eligible], dead=[*dead, *out],
                                trials=trials, seed=0)
                memo[eligible] = {s: p.equity for s, p in
                                  zip(eligible, result.players, strict=True)}
        for seat, share in memo[eligible].items():
            shares[seat] += amount * share / total
    return shares


def _known(text: str) -> list[str]:
    return [text[k:k + 2] for k in range(0, len(text), 2) if text[k:k + 2] != "??"]


def _pots_now(view: HandView) -> list[tuple[int, tuple[int, ...]]]:
    """The pots as they stand (``stud.engine.pots.open_pots``) and the seats that can still
    win each; chips nobody can win yet (a bet not called) are left out."""
    players = view.players
    pots = open_pots([p.committed for p in players], [not p.folded for p in players],
                     [p.all_in for p in players])
    return [(amount, tuple(i + 1 for i in eligible)) for amount, eligible in pots
            if eligible] or [(view.pot, tuple(p.seat for p in players if not p.folded))]


def own_equity(view: HandView) -> OwnEquity | None:
    """The viewer's equity against the cards they can see (others' down cards and every card
    to come dealt from the unseen ones); None where there is nothing to show (no seat, a
    folded hand, nobody left to play against)."""
    if view.viewer is None:
        return None
    me = view.player(view.viewer)
    live = [p for p in view.players if not p.folded]
    if me.folded or len(live) < 2:
        return None
    if view.board:
        return OwnEquity(None, NoFigure.COMMUNITY)
    hands = {p.seat: format_cards(p.cards) for p in live}
    dead = [c for p in view.players if p.folded for c in p.cards if c is not None]
    pots = _pots_now(view)
    try:
        # The whole table first: whether the deck can give every live hand its cards.
        parse_spot(view.variant, list(hands.values()), dead)
        shares = _split(view.variant, hands, dead, pots, TRIALS)
    except EquityError:
        return OwnEquity(None, NoFigure.DECK)
    return OwnEquity(shares[me.seat], None, len(pots))


def final_pots(hand: Hand, seats: Sequence[int]) -> list[tuple[int, tuple[int, ...]]]:
    """The hand's pots, each with the players among ``seats`` who could win it."""
    live = [not folded for folded in hand.folded]
    pots: list[Pot] = build_pots(hand.committed, live)
    return [(pot.amount, tuple(i + 1 for i in pot.eligible if i + 1 in seats)) for pot in pots]


def equity_by_street(hand: Hand) -> list[tuple[int, dict[int, float]]]:
    """For a hand that reached the showdown: each shown player's equity on each street (3 to
    7), from the cards they held then (all known now), the folded hands' cards unknown, each
    of the hand's pots among the shown hands that could win it."""
    shown = {e.seat: e.cards for e in hand.events if isinstance(e, HandShown)}
    if len(shown) < 2 or hand.board:
        return []
    seats = sorted(shown)
    pots = [(amount, eligible) for amount, eligible in final_pots(hand, seats) if eligible]
    rows: list[tuple[int, dict[int, float]]] = []
    for street, count in ((3, 3), (4, 4), (5, 5), (6, 6), (7, 7)):
        hands = {s: format_cards(shown[s][:count]) for s in seats}
        try:
            shares = _split(hand.variant, hands, (), pots,
                            None if count >= 6 else TRIALS)
        except EquityError:
            return rows
        rows.append((street, shares))
    return rows
