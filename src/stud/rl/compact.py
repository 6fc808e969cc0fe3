"""The compact observation (``stud.fast.observe``'s layout) built from the engine's view, and
the bookkeeping both environments share: bets by street and the seeds of a run of hands.

The vectorised environment builds the same vector in a compiled kernel from the fast engine's
arrays; ``tests/rl`` proves the two equal step by step.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from gymnasium import spaces

from stud.engine import Hand, HandView
from stud.fast.layout import SEATS
from stud.fast.observe import COMPACT_SIZE, SEAT_SIZE, STREETS, compact_layout
from stud.fast.tables import hand_stream
from stud.rules import Stakes, Variant

COMPACT_LAYOUT: dict[str, slice] = compact_layout()
_VARIANTS: tuple[Variant, ...] = (Variant.STUD, Variant.STUD8, Variant.RAZZ)
_AT = {name: s.start for name, s in COMPACT_LAYOUT.items()}
_SEAT = {name.split(".", 1)[1]: s.start for name, s in COMPACT_LAYOUT.items()
         if name.startswith("seat0.")}


class StreetBets:
    """Each seat's chips put in on each street so far: a street's bets are fixed when the
    hand moves past it (what the seat committed beyond its antes and the earlier streets);
    the current street's are what it committed since."""

    def __init__(self, hand: Hand) -> None:
        self.base = list(hand.committed)  # the antes
        self.fixed = np.zeros((len(self.base), STREETS), dtype=np.int64)
        self.street = hand.street

    def track(self, hand: Hand) -> None:
        """Called after every action of the hand."""
        if hand.street == self.street:
            return
        last = self.street - 3
        for i, committed in enumerate(hand.committed):
            self.fixed[i, last] = committed - self.base[i] - int(self.fixed[i, :last].sum())
        self.street = hand.street

    def bets(self, committed: Sequence[int], street: int) -> np.ndarray:
        """(players, 5) chips by street, the current street's from ``committed``."""
        bets = self.fixed.copy()
        now = street - 3
        bets[:, now:] = 0
        for i, chips in enumerate(committed):
            bets[i, now] = chips - self.base[i] - int(self.fixed[i, :now].sum())
        return bets


def encode_compact(view: HandView, bets: StreetBets) -> np.ndarray:
    """The compact observation of ``view`` (a seat's view): only that seat's own cards and
    everybody's up cards, never another seat's down card. Once the hand is over, the pot
    (awarded, so in the stacks) and the chips committed are 0."""
    me = view.viewer
    if me is None:
        raise ValueError("an observation is built from a seat's view, not the public view")
    vec = np.zeros(COMPACT_SIZE, np.float32)
    unit = view.stakes.big_bet
    players = view.players
    n = len(players)
    by_street = bets.bets([p.committed for p in players], view.street)
    for k in range(n):
        player = players[(me - 1 + k) % n]
        i = player.seat - 1
        base = k * SEAT_SIZE
        for slot, card in enumerate(player.cards):
            up = player.up[slot]
            if up:
                vec[base + _SEAT["up"] + slot] = 1.0
            if card is not None and (up or player.seat == me):
                vec[base + _SEAT["cards"] + slot] = card.id + 1
        vec[base + _SEAT["held"]] = len(player.cards)
        vec[base + _SEAT["present"]] = 1.0
        vec[base + _SEAT["folded"]] = float(player.folded)
        vec[base + _SEAT["all_in"]] = float(player.stack == 0 and not player.folded)
        vec[base + _SEAT["to_act"]] = float(player.seat == view.to_act)
        vec[base + _SEAT["bring_in"]] = float(player.seat == view.bring_in)
        vec[base + _SEAT["stack"]] = player.stack / unit
        if not view.is_over:  # once over, the pot is awarded: in the stacks
            vec[base + _SEAT["committed"]] = player.committed / unit
        at = base + _SEAT["bets"]
        vec[at:at + STREETS] = by_street[i] / unit
    if view.board:
        vec[_AT["board"]] = view.board[0].id + 1
    vec[_AT["street"] + view.street - 3] = 1.0
    vec[_AT["over"]] = float(view.is_over)
    vec[_AT["pot"]] = 0.0 if view.is_over else view.pot / unit
    vec[_AT["current_bet"]] = view.current_bet / unit
    mine = players[me - 1]
    vec[_AT["to_call"]] = min(max(0, view.current_bet - mine.wager), mine.stack) / unit
    vec[_AT["seat_number"] + me - 1] = 1.0
    vec[_AT["variant"] + _VARIANTS.index(view.variant)] = 1.0
    stakes = view.stakes
    at = _AT["stakes"]
    vec[at:at + 3] = (stakes.ante / unit, stakes.bring_in / unit, stakes.small_bet / unit)
    return vec


def compact_space(stacks: Sequence[int], stakes: Stakes) -> spaces.Box:
    """The Box of compact observations for a table of these starting stacks."""
    high = np.ones(COMPACT_SIZE, np.float32)
    most = sum(stacks) / stakes.big_bet  # no chip count can exceed all the chips at the table
    for k in range(SEATS):
        high[COMPACT_LAYOUT[f"seat{k}.cards"]] = 52
        high[COMPACT_LAYOUT[f"seat{k}.held"]] = 7
        for name in ("stack", "committed", "bets"):
            high[COMPACT_LAYOUT[f"seat{k}.{name}"]] = most
    high[COMPACT_LAYOUT["board"]] = 52
    for name in ("pot", "current_bet", "to_call"):
        high[COMPACT_LAYOUT[name]] = most
    high[COMPACT_LAYOUT["stakes"]] = stakes_high(stakes)
    return spaces.Box(0.0, high, (COMPACT_SIZE,), np.float32)


def stakes_high(stakes: Stakes) -> float:
    """The most the stakes' slots (ante, bring-in, small bet, in big bets) hold: 1, or more
    where the ante is above the big bet (``Stakes`` allows it)."""
    return max(1.0, stakes.ante / stakes.big_bet)


class HandSeeds:
    """A run of hands from one seed, as both environments deal it: the first hand's deck is
    ``Deck.seeded(seed)``, each next hand's seed comes from the last (``stud.fast.tables``
    says how), and so do the learner's seat (when drawn) and the opponents' seeds."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def next_hand(self) -> int:
        self.seed = hand_stream(self.seed, 0) >> 1
        return self.seed

    def seat(self, players: int) -> int:
        """The learner's seat (1..players) when it is drawn each hand."""
        return hand_stream(self.seed, 1) % players + 1

    def opponent_seed(self, k: int) -> int:
        """The seed of the bot k seats (1 .. players - 1) to the learner's left."""
        return hand_stream(self.seed, 1 + k) >> 1
