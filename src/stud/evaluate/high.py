"""High hand values: the best five of five to seven cards.

A value is an int; a higher value is a better hand, equal values tie. The category sits in bits
20-23 and the deciding ranks (deuce = 0 .. ace = 12) in the nibbles below, most important first.

>>> from stud.cards import parse_cards
>>> ids = [c.id for c in parse_cards("AsAhTdTc2s9h3c")]
>>> category(high_value(ids)) == TWO_PAIR
True
"""

from __future__ import annotations

from collections.abc import Iterable

from stud.evaluate.tables import HIGH_BIT, POPCOUNT, STRAIGHT_HIGH, TOP

HIGH_CARD = 0
ONE_PAIR = 1
TWO_PAIR = 2
THREE_OF_A_KIND = 3
STRAIGHT = 4
FLUSH = 5
FULL_HOUSE = 6
FOUR_OF_A_KIND = 7
STRAIGHT_FLUSH = 8

CATEGORY_NAMES = (
    "High Card",
    "One Pair",
    "Two Pair",
    "Three of a Kind",
    "Straight",
    "Flush",
    "Full House",
    "Four of a Kind",
    "Straight Flush",
)


def category(value: int) -> int:
    return value >> 20


def high_value(card_ids: Iterable[int]) -> int:
    """Value of the best five-card high hand among 5 to 7 card ids.

    The ids must be 5 to 7 distinct ids from 0 to 51 (the engine's own cards): they are not
    checked here, for speed; ``stud.evaluate.batch.high7`` checks every id and names a bad
    one."""
    s0 = s1 = s2 = s3 = 0
    once = twice = thrice = four = 0
    for c in card_ids:
        bit = 1 << (c >> 2)
        suit = c & 3
        if suit == 0:
            s0 |= bit
        elif suit == 1:
            s1 |= bit
        elif suit == 2:
            s2 |= bit
        else:
            s3 |= bit
        four |= thrice & bit
        thrice |= twice & bit
        twice |= once & bit
        once |= bit
    for suited in (s0, s1, s2, s3):
        if POPCOUNT[suited] >= 5:
            high = STRAIGHT_HIGH[suited]
            if high >= 0:
                return STRAIGHT_FLUSH << 20 | high << 16
            flush = FLUSH << 20 | TOP[5][suited]
            break
    else:
        flush = -1
    if four:
        quad = HIGH_BIT[four]
        return FOUR_OF_A_KIND << 20 | quad << 16 | HIGH_BIT[once & ~(1 << quad)] << 12
    if thrice:
        trip = HIGH_BIT[thrice]
        pairs = twice & ~(1 << trip)
        if pairs:
            return FULL_HOUSE << 20 | trip << 16 | HIGH_BIT[pairs] << 12
    if flush >= 0:
        return flush
    high = STRAIGHT_HIGH[once]
    if high >= 0:
        return STRAIGHT << 20 | high << 16
    if thrice:
        trip = HIGH_BIT[thrice]
        return THREE_OF_A_KIND << 20 | trip << 16 | TOP[2][once & ~(1 << trip)] >> 4
    if twice:
        top = HIGH_BIT[twice]
        rest = twice & ~(1 << top)
        if rest:
            second = HIGH_BIT[rest]
            kicker = HIGH_BIT[once & ~(1 << top | 1 << second)]
            return TWO_PAIR << 20 | top << 16 | second << 12 | kicker << 8
        return ONE_PAIR << 20 | top << 16 | TOP[3][once & ~(1 << top)] >> 4
    return TOP[5][once]
