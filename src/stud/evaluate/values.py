"""Hand values as facts: what a hand is (category and deciding ranks) and its five cards.

The evaluators return ints, fast to compare; these wrap one with the cards it was made from,
so that every layer above can say what the hand is without parsing a name.

>>> from stud.cards import parse_cards
>>> value = HandValue.of(ValueKind.HIGH, parse_cards("KsKdKh4c4d9s2c"))
>>> value.category, [r.char for r in value.ranks]
(<Category.FULL_HOUSE: 'full_house'>, ['K', '4'])
>>> " ".join(str(c) for c in value.five)
'Kd Kh Ks 4c 4d'
>>> low = HandValue.of(ValueKind.LOW8, parse_cards("8s6d4h2cAsKdKh"))
>>> low.qualified, [r.char for r in low.ranks]
(True, ['8', '6', '4', '2', 'A'])
>>> showing_of(False, parse_cards("KsKd7c")).category
<Category.ONE_PAIR: 'one_pair'>
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from itertools import combinations
from typing import NamedTuple

from stud.cards import Card, Rank
from stud.evaluate.high import high_value
from stud.evaluate.low import NO_LOW, a5_category, a5_ranks, a5_value, low8_ranks, low8_value
from stud.evaluate.showing import showing_high, showing_low


class ValueKind(StrEnum):
    HIGH = "high"  # the best five-card poker hand
    LOW8 = "low8"  # the 8-or-better low of stud hi/lo (ace low, straights and flushes ignored)
    A5 = "a5"  # the A-5 low of razz (pairs count against it)


class Category(StrEnum):
    HIGH_CARD = "high_card"
    ONE_PAIR = "one_pair"
    TWO_PAIR = "two_pair"
    THREE_OF_A_KIND = "three_of_a_kind"
    STRAIGHT = "straight"
    FLUSH = "flush"
    FULL_HOUSE = "full_house"
    FOUR_OF_A_KIND = "four_of_a_kind"
    STRAIGHT_FLUSH = "straight_flush"
    ROYAL_FLUSH = "royal_flush"
    LOW = "low"  # five unpaired low cards
    NO_LOW = "no_low"  # stud hi/lo: no five different cards of 8 or lower


_HIGH_CATEGORIES = (Category.HIGH_CARD, Category.ONE_PAIR, Category.TWO_PAIR,
                    Category.THREE_OF_A_KIND, Category.STRAIGHT, Category.FLUSH,
                    Category.FULL_HOUSE, Category.FOUR_OF_A_KIND, Category.STRAIGHT_FLUSH)
_A5_CATEGORIES = (Category.LOW, Category.ONE_PAIR, Category.TWO_PAIR, Category.THREE_OF_A_KIND,
                  Category.FULL_HOUSE, Category.FOUR_OF_A_KIND)
# How many of the value's rank nibbles name the hand (the rest are kickers).
_DECIDING = {Category.HIGH_CARD: 5, Category.ONE_PAIR: 4, Category.TWO_PAIR: 3,
             Category.THREE_OF_A_KIND: 3, Category.STRAIGHT: 1, Category.FLUSH: 5,
             Category.FULL_HOUSE: 2, Category.FOUR_OF_A_KIND: 2, Category.STRAIGHT_FLUSH: 1,
             Category.ROYAL_FLUSH: 1}


def _low_to_rank(low: int) -> Rank:
    """Ace = 1 .. king = 13 (ace low) as a Rank."""
    return Rank(12 if low == 1 else low - 2)


def _value(kind: ValueKind, ids: Sequence[int]) -> int:
    if kind is ValueKind.HIGH:
        return high_value(ids)
    if kind is ValueKind.LOW8:
        return low8_value(ids)
    return a5_value(ids)


class HandValue(NamedTuple):
    """A hand's value of one kind, with the cards (five to seven) it was made from.

    Equal ``value`` ties, a higher one wins, for every kind. ``category``, ``ranks`` and
    ``five`` are worked out from it when asked.
    """

    kind: ValueKind
    value: int
    cards: tuple[Card, ...]

    @staticmethod
    def of(kind: ValueKind, cards: Sequence[Card]) -> HandValue:
        return HandValue(kind, _value(kind, [c.id for c in cards]), tuple(cards))

    @property
    def qualified(self) -> bool:
        """False only for a stud hi/lo hand without an 8-or-better low."""
        return self.value != NO_LOW

    @property
    def category(self) -> Category:
        if self.kind is ValueKind.HIGH:
            category = _HIGH_CATEGORIES[self.value >> 20]
            if category is Category.STRAIGHT_FLUSH and self.value >> 16 & 15 == Rank.ACE:
                return Category.ROYAL_FLUSH
            return category
        if self.kind is ValueKind.LOW8:
            return Category.LOW if self.qualified else Category.NO_LOW
        return _A5_CATEGORIES[a5_category(self.value)]

    @property
    def ranks(self) -> tuple[Rank, ...]:
        """The ranks that name the hand, most important first: the pair's rank then kickers,
        trips over pair, a straight's top card; all five for a low (highest first)."""
        if self.kind is ValueKind.HIGH:
            count = _DECIDING[self.category]
            return tuple(Rank(self.value >> (16 - 4 * k) & 15) for k in range(count))
        if self.kind is ValueKind.LOW8:
            return tuple(_low_to_rank(r) for r in low8_ranks(self.value)) if self.qualified \
                else ()
        return tuple(_low_to_rank(r) for r in a5_ranks(self.value))

    @property
    def five(self) -> tuple[Card, ...]:
        """The five cards that make the hand (empty for no low), strongest group first."""
        if not self.qualified or len(self.cards) < 5:
            return ()
        best = max((five for five in combinations(self.cards, 5)
                    if _value(self.kind, [c.id for c in five]) == self.value),
                   key=lambda five: sorted((c.id for c in five), reverse=True))
        counts: dict[int, int] = {}
        for card in best:
            counts[card.rank] = counts.get(card.rank, 0) + 1
        if self.kind is ValueKind.HIGH:
            order = sorted(best, key=lambda c: (-counts[c.rank], -c.rank, c.suit))
            if self.category in (Category.STRAIGHT, Category.STRAIGHT_FLUSH) and \
                    self.ranks[0] == Rank.FIVE:
                order = order[1:] + order[:1]  # the wheel: the ace plays low
            return tuple(order)
        return tuple(sorted(best, key=lambda c: (counts[c.rank], (c.rank + 1) % 13, c.suit),
                            reverse=True))


class Showing(NamedTuple):
    """What a seat's up cards show, for the order of play: only pairs, two pair, trips, a full
    house and quads count, then the high cards (or, in razz, the lowest cards)."""

    category: Category
    ranks: tuple[Rank, ...]
    lowball: bool  # razz: low cards are better, pairs are bad


_SHOWING = (Category.HIGH_CARD, Category.ONE_PAIR, Category.TWO_PAIR, Category.THREE_OF_A_KIND,
            Category.FULL_HOUSE, Category.FOUR_OF_A_KIND)


def showing_of(lowball: bool, cards: Sequence[Card]) -> Showing:
    """The facts of ``showing_high``/``showing_low`` for these up cards."""
    ids = [c.id for c in cards]
    value = ((1 << 24) - showing_low(ids)) if lowball else showing_high(ids)
    category = _SHOWING[value >> 20]
    ranks: list[Rank] = []
    for k in range(len(ids)):
        nibble = value >> (16 - 4 * k) & 15
        if not nibble:
            break
        rank = nibble - 1
        ranks.append(_low_to_rank(rank + 1) if lowball else Rank(rank))
    # Each group's rank once: "pair of kings, seven", not "king, king, seven".
    distinct: list[Rank] = []
    for rank in ranks:
        if rank not in distinct:
            distinct.append(rank)
    return Showing(category, tuple(distinct), lowball)


__all__ = ["Category", "HandValue", "Showing", "ValueKind", "showing_of"]
