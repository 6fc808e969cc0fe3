"""Readable names of hand values: "Full House, Kings over Fours", "8-6-4-2-A low"."""

from __future__ import annotations

from stud.evaluate.high import (
    CATEGORY_NAMES,
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    HIGH_CARD,
    ONE_PAIR,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
    category,
)
from stud.evaluate.low import NO_LOW, a5_category, a5_ranks, low8_ranks

RANK_NAMES = ("Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack",
              "Queen", "King", "Ace")
RANK_PLURALS = ("Twos", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights", "Nines", "Tens",
                "Jacks", "Queens", "Kings", "Aces")
_LOW_CHARS = "A23456789TJQK"  # ace = 1 .. king = 13, as a1..13 - 1


def _nibble(value: int, index: int) -> int:
    return value >> (16 - 4 * index) & 15


def high_name(value: int) -> str:
    """The name of a high value.

    >>> high_name((6 << 20) | (11 << 16) | (2 << 12))
    'Full House, Kings over Fours'
    """
    cat, a, b = category(value), _nibble(value, 0), _nibble(value, 1)
    if cat == STRAIGHT_FLUSH:
        return "Royal Flush" if a == 12 else f"Straight Flush, {RANK_NAMES[a]} high"
    if cat == FOUR_OF_A_KIND:
        return f"Four of a Kind, {RANK_PLURALS[a]}"
    if cat == FULL_HOUSE:
        return f"Full House, {RANK_PLURALS[a]} over {RANK_PLURALS[b]}"
    if cat == FLUSH:
        return f"Flush, {RANK_NAMES[a]} high"
    if cat == STRAIGHT:
        return f"Straight, {RANK_NAMES[a]} high"
    if cat == THREE_OF_A_KIND:
        return f"Three of a Kind, {RANK_PLURALS[a]}"
    if cat == TWO_PAIR:
        return f"Two Pair, {RANK_PLURALS[a]} and {RANK_PLURALS[b]}"
    if cat == ONE_PAIR:
        return f"Pair of {RANK_PLURALS[a]}"
    assert cat == HIGH_CARD, CATEGORY_NAMES[cat]
    return f"High Card, {RANK_NAMES[a]}"


def low8_name(value: int) -> str:
    """The name of an 8-or-better low value, or "no low".

    >>> low8_name(255 - 0b10101011)
    '8-6-4-2-A low'
    """
    if value == NO_LOW:
        return "no low"
    return "-".join(_LOW_CHARS[r - 1] for r in low8_ranks(value)) + " low"


def a5_name(value: int) -> str:
    ranks = "-".join(_LOW_CHARS[r - 1] for r in a5_ranks(value))
    cat = a5_category(value)
    if cat == 0:
        return f"{ranks} low"
    kind = ("", "One Pair", "Two Pair", "Three of a Kind", "Full House", "Four of a Kind")[cat]
    return f"{kind} ({ranks})"
