"""Ranking of up cards: who brings in on third street, who acts first on later streets.

Only pairs, two pair, trips and quads count among up cards, then high cards in order; straights
and flushes do not (RULES.md section 4). For razz the lowest A-5 showing hand ranks best.
A higher ``showing_value`` acts first.
"""

from __future__ import annotations

from collections.abc import Sequence

from stud.evaluate.low import low_rank

# Shapes of up to five up cards (four up cards and a community card): groups of equal ranks.
_SHAPES: dict[tuple[int, ...], int] = {}
for _shape, _category in (((1,), 0), ((2,), 1), ((2, 2), 2), ((3,), 3), ((3, 2), 4), ((4,), 5)):
    for _singles in range(6):
        _full = _shape + (1,) * _singles
        if sum(_full) <= 5:
            _SHAPES[_full] = _category
_SHAPES[()] = 0


def _shape_value(ranks: Sequence[int]) -> int:
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(counts.items(), key=lambda item: (-item[1], -item[0]))
    value, shift = _SHAPES[tuple(sorted(counts.values(), reverse=True))] << 20, 16
    for rank, count in groups:
        for _ in range(count):
            value |= (rank + 1) << shift
            shift -= 4
    return value


# Every street asks for these; there are few distinct rank multisets, so remember them.
_HIGH_MEMO: dict[tuple[int, ...], int] = {}
_LOW_MEMO: dict[tuple[int, ...], int] = {}


def showing_high(card_ids: Sequence[int]) -> int:
    """Strength of up cards for order of play in stud and stud hi/lo (higher acts first)."""
    ranks = tuple(sorted([c >> 2 for c in card_ids]))
    value = _HIGH_MEMO.get(ranks)
    if value is None:
        value = _HIGH_MEMO[ranks] = _shape_value(ranks)
    return value


def showing_low(card_ids: Sequence[int]) -> int:
    """Strength of up cards for razz (the lowest A-5 hand acts first; higher value acts first)."""
    ranks = tuple(sorted([low_rank(c) for c in card_ids]))
    value = _LOW_MEMO.get(ranks)
    if value is None:
        value = _LOW_MEMO[ranks] = (1 << 24) - _shape_value(ranks)
    return value


# A multiset of ranks as one int, 3 bits a rank: the sum of ``rank_key`` over the cards. Up
# cards are kept this way as they are dealt, so that order of play costs a lookup a seat.
_KEY_HIGH: dict[int, int] = {}
_KEY_LOW: dict[int, int] = {}


def rank_key(card_id: int) -> int:
    """The card's share of a rank-multiset key."""
    return 1 << 3 * (card_id >> 2)


def _key_ranks(key: int) -> list[int]:
    return [r for r in range(13) for _ in range(key >> 3 * r & 7)]


def showing_high_key(key: int) -> int:
    """``showing_high`` of the cards whose ``rank_key`` values sum to ``key``."""
    value = _KEY_HIGH.get(key)
    if value is None:
        value = _KEY_HIGH[key] = _shape_value(sorted(_key_ranks(key)))
    return value


def showing_low_key(key: int) -> int:
    """``showing_low`` of the cards whose ``rank_key`` values sum to ``key``."""
    value = _KEY_LOW.get(key)
    if value is None:
        ranks = sorted((r + 1) % 13 for r in _key_ranks(key))
        value = _KEY_LOW[key] = (1 << 24) - _shape_value(ranks)
    return value


def shows_one_pair(value: int) -> bool:
    """Whether a ``showing_high`` value is one pair (fourth street's open pair)."""
    return value >> 20 == 1


def bring_in_key_high(card_id: int) -> int:
    """Stud and stud hi/lo: the lowest key brings in (ace high, clubs lowest)."""
    return card_id


def bring_in_key_low(card_id: int) -> int:
    """Razz: the highest key brings in (king high, ace low, spades highest)."""
    return low_rank(card_id) * 4 + (card_id & 3)
