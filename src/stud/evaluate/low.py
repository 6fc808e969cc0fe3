"""Low hand values, ace low: the 8-or-better low of stud hi/lo and the A-5 low of razz.

Values are ints where higher is better, like high values, so every half of every pot is won by
the maximum. Straights and flushes never count against a low.

>>> from stud.cards import parse_cards
>>> ids = [c.id for c in parse_cards("8s6d4h2cAsKdKh")]
>>> low8_ranks(low8_value(ids))
(8, 6, 4, 2, 1)
>>> low8_value([c.id for c in parse_cards("9s6d4h2cAsKdKh")])
-1
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from stud.evaluate.tables import POPCOUNT

NO_LOW = -1
_WORST = (1 << 24) - 1


def low_rank(card_id: int) -> int:
    """Rank with the ace low: ace = 0, deuce = 1 .. king = 12."""
    return ((card_id >> 2) + 1) % 13


def _lowest_five(mask: int) -> int:
    kept, count, rank = 0, 0, 0
    while count < 5 and rank < 13:
        if mask >> rank & 1:
            kept |= 1 << rank
            count += 1
        rank += 1
    return kept


# LOW8[mask]: over the 8 bits ace..eight, 255 minus the lowest five ranks as a mask, or NO_LOW.
# Comparing five distinct ranks from the highest down is comparing their bit masks.
LOW8: list[int] = [255 - _lowest_five(m) if POPCOUNT[m] >= 5 else NO_LOW for m in range(256)]

_LOW_BIT = [1 << ((r + 1) % 13) for r in range(13)]


def _no_pair_badness(kept: int) -> int:
    badness, shift = 0, 16
    for rank in range(12, -1, -1):
        if kept >> rank & 1:
            badness |= rank << shift
            shift -= 4
    return badness


# A5_UNPAIRED[mask]: the A-5 value of the lowest five distinct ranks of a 13-bit low-rank mask.
A5_UNPAIRED: list[int] = [
    _WORST - _no_pair_badness(_lowest_five(m)) if POPCOUNT[m] >= 5 else NO_LOW
    for m in range(1 << 13)
]


def low8_value(card_ids: Iterable[int]) -> int:
    """The 8-or-better low of 5 to 7 cards, or ``NO_LOW`` (-1) when none qualifies. The ids
    are not checked (see ``high_value``; ``stud.evaluate.batch.low8`` checks them)."""
    mask = 0
    for c in card_ids:
        mask |= _LOW_BIT[c >> 2]
    return LOW8[mask & 255]


def low8_ranks(value: int) -> tuple[int, ...]:
    """The five ranks of a low as numbers (ace = 1), highest first."""
    mask = 255 - value
    return tuple(r + 1 for r in range(7, -1, -1) if mask >> r & 1)


def _a5_badness(low_ranks: Sequence[int]) -> int:
    """Badness of exactly five cards (as low ranks): pairs first, then ranks from the top."""
    counts: dict[int, int] = {}
    for r in low_ranks:
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(counts.items(), key=lambda item: (-item[1], -item[0]))
    shape = sorted(counts.values(), reverse=True)
    category = {
        (1, 1, 1, 1, 1): 0,
        (2, 1, 1, 1): 1,
        (2, 2, 1): 2,
        (3, 1, 1): 3,
        (3, 2): 4,
        (4, 1): 5,
    }[tuple(shape)]
    badness, shift = category << 20, 16
    for rank, count in groups:
        for _ in range(count):
            badness |= rank << shift
            shift -= 4
    return badness


def _a5_paired_five(counts: Sequence[int]) -> list[int]:
    """The best five of five or more cards with fewer than five distinct ranks, as low ranks.

    ``counts[r]`` is how many cards of low rank r there are. Every distinct rank is used (fewer
    ranks would mean a worse category); only which ranks are doubled or tripled is a choice.
    """
    present = [r for r in range(13) if counts[r]]
    pairable = [r for r in present if counts[r] >= 2]
    if len(present) == 4:  # one pair: the lowest pair, the other three ranks as kickers
        pair = pairable[0]
        return [pair, *present]
    if len(present) == 3:
        if len(pairable) >= 2:  # two pair: the two lowest pairs, the third rank as kicker
            return [pairable[0], pairable[1], *present]
        trip = pairable[0]  # the only rank with two or more cards has three or more
        return [trip, trip, *present]
    # Two ranks: a full house if one of them has three cards and the other two, else quads.
    low, high = present
    if counts[low] >= 3 and counts[high] >= 2:
        return [low, low, low, high, high]
    if counts[high] >= 3 and counts[low] >= 2:
        return [high, high, high, low, low]
    quad, kicker = (low, high) if counts[low] == 4 else (high, low)
    return [quad] * 4 + [kicker]


def a5_value(card_ids: Iterable[int]) -> int:
    """The A-5 low (razz) of 5 to 7 cards: pairs count against it, straights and flushes do
    not. The ids are not checked (see ``high_value``; ``stud.evaluate.batch.low_a5`` checks
    them)."""
    ids = list(card_ids)
    mask = 0
    for c in ids:
        mask |= _LOW_BIT[c >> 2]
    value = A5_UNPAIRED[mask]
    if value != NO_LOW:
        return value
    if len(ids) < 5:
        raise ValueError(f"an A-5 low needs at least five cards, got {len(ids)}")
    counts = [0] * 13
    for c in ids:
        counts[low_rank(c)] += 1
    return _WORST - _a5_badness(_a5_paired_five(counts))


def a5_category(value: int) -> int:
    """0 for no pair, 1 one pair, 2 two pair, 3 trips, 4 full house, 5 quads."""
    return (_WORST - value) >> 20


def a5_ranks(value: int) -> tuple[int, ...]:
    """The five ranks (ace = 1 .. king = 13) of an A-5 low, grouped and highest first."""
    badness = _WORST - value
    return tuple((badness >> shift & 15) + 1 for shift in (16, 12, 8, 4, 0))
