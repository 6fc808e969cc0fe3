"""Readable names of hands, as shown at the showdown and written in histories."""

from __future__ import annotations

from collections import Counter

import pytest

from stud.evaluate import (
    NO_LOW,
    a5_name,
    a5_value,
    high_name,
    high_value,
    low8_name,
    low8_value,
)
from stud.evaluate.high import CATEGORY_NAMES

from .reference import cards_of, ids, rank_multisets


@pytest.mark.parametrize(
    ("cards", "name"),
    [
        ("AsKsQsJsTs", "Royal Flush"),
        ("AhKhQhJhTh9h2c", "Royal Flush"),
        ("KsQsJsTs9s", "Straight Flush, King high"),
        ("5d4d3d2dAd", "Straight Flush, Five high"),
        ("9c9d9h9sAs", "Four of a Kind, Nines"),
        ("KsKdKc4s4d", "Full House, Kings over Fours"),
        ("4s4d4cKsKd", "Full House, Fours over Kings"),
        ("AhJh9h5h2h", "Flush, Ace high"),
        ("7c5c4c3c2c", "Flush, Seven high"),
        ("AsKdQcJhTh", "Straight, Ace high"),
        ("5s4d3c2hAh", "Straight, Five high"),
        ("TsTdTc8s2d", "Three of a Kind, Tens"),
        ("AsAdTcTh2h", "Two Pair, Aces and Tens"),
        ("3s3d2c2hAh", "Two Pair, Threes and Twos"),
        ("9s9dAcKh2h", "Pair of Nines"),
        ("2s2d5c4h3h", "Pair of Twos"),
        ("6s6dAcKh2h", "Pair of Sixes"),
        ("AsKd9c3h2h", "High Card, Ace"),
        ("7s5d4c3h2h", "High Card, Seven"),
    ],
)
def test_high_names_say_category_and_ranks(cards: str, name: str) -> None:
    assert high_name(high_value(ids(cards))) == name


RANKS = ("Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen",
         "King", "Ace")
PLURALS = ("Twos", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights", "Nines", "Tens",
           "Jacks", "Queens", "Kings", "Aces")


def expected_high_name(hand: list[int]) -> str:
    """The name of five cards, worked out from the cards alone."""
    ranks = sorted((c >> 2 for c in hand), reverse=True)
    groups = sorted(Counter(ranks).items(), key=lambda item: (-item[1], -item[0]))
    shape = [count for _, count in groups]
    flush = len({c & 3 for c in hand}) == 1
    straight_top = None
    if len(set(ranks)) == 5 and ranks[0] - ranks[4] == 4:
        straight_top = ranks[0]
    elif ranks == [12, 3, 2, 1, 0]:
        straight_top = 3  # the wheel is five high
    top, second = groups[0][0], groups[1][0]
    if straight_top is not None and flush:
        if straight_top == 12:
            return "Royal Flush"
        return f"Straight Flush, {RANKS[straight_top]} high"
    if shape == [4, 1]:
        return f"Four of a Kind, {PLURALS[top]}"
    if shape == [3, 2]:
        return f"Full House, {PLURALS[top]} over {PLURALS[second]}"
    if flush:
        return f"Flush, {RANKS[ranks[0]]} high"
    if straight_top is not None:
        return f"Straight, {RANKS[straight_top]} high"
    if shape == [3, 1, 1]:
        return f"Three of a Kind, {PLURALS[top]}"
    if shape == [2, 2, 1]:
        return f"Two Pair, {PLURALS[top]} and {PLURALS[second]}"
    if shape == [2, 1, 1, 1]:
        return f"Pair of {PLURALS[top]}"
    return f"High Card, {RANKS[ranks[0]]}"


def test_every_five_card_class_is_named_from_its_cards() -> None:
    # One hand per rank multiset, plus a flush of every five distinct ranks: all 7462 classes.
    seen: Counter[str] = Counter()
    for ranks in rank_multisets(5):
        variants = [cards_of(ranks)]
        if len(set(ranks)) == 5:
            variants.append([variants[0][0] + 1, *variants[0][1:]])  # not suited
        for hand in variants:
            name = high_name(high_value(hand))
            assert name == expected_high_name(hand), hand
            seen[name.split(",")[0].split(" of ")[0]] += 1
    assert set(seen) == {
        "Royal Flush", "Straight Flush", "Four", "Full House", "Flush", "Straight", "Three",
        "Two Pair", "Pair", "High Card",
    }
    assert sum(seen.values()) == 7462
    assert len(CATEGORY_NAMES) == 9


@pytest.mark.parametrize(
    ("cards", "name"),
    [
        ("8s6d4h2cAs", "8-6-4-2-A low"),
        ("8s6d4h2cAsKdKh", "8-6-4-2-A low"),
        ("5s4s3s2sAs", "5-4-3-2-A low"),
        ("8s7d6h5c4s", "8-7-6-5-4 low"),
        ("7c5d4h3s2c9d9h", "7-5-4-3-2 low"),
        ("6s6d5h4c3s2dAh", "5-4-3-2-A low"),
        ("9s6d4h2cAs", "no low"),
        ("8s8d4h2cAs", "no low"),
    ],
)
def test_low8_names_list_the_five_cards_highest_first_or_say_no_low(cards: str, name: str) -> None:
    assert low8_name(low8_value(ids(cards))) == name


def test_no_low_is_named_no_low() -> None:
    assert low8_name(NO_LOW) == "no low"


@pytest.mark.parametrize(
    ("cards", "name"),
    [
        ("7s5d4h3c2s", "7-5-4-3-2 low"),
        ("As2s3s4s5s", "5-4-3-2-A low"),
        ("KsQdJhTc9s", "K-Q-J-T-9 low"),
        ("AsAd4h3c2s", "One Pair (A-A-4-3-2)"),
        ("AsAdAh4c3s2d2h", "One Pair (A-A-4-3-2)"),
        ("KsKdQhQcJs", "Two Pair (K-K-Q-Q-J)"),
        ("7s7d7h3c2s", "Three of a Kind (7-7-7-3-2)"),
        ("7s7d7h3c3s", "Full House (7-7-7-3-3)"),
        ("7s7d7h7c3s", "Four of a Kind (7-7-7-7-3)"),
        ("TsTdTh9c9s8d", "Two Pair (T-T-9-9-8)"),
    ],
)
def test_a5_names_list_the_five_cards_pairs_first(cards: str, name: str) -> None:
    assert a5_name(a5_value(ids(cards))) == name


LOW_CHARS = "A23456789TJQK"  # ace low


def low_char(card_id: int) -> str:
    return "23456789TJQKA"[card_id >> 2]


def test_every_low8_is_named_by_its_five_cards_highest_first() -> None:
    names = set()
    for ranks in rank_multisets(5):
        hand = cards_of(ranks)
        name = low8_name(low8_value(hand))
        chars = sorted((low_char(c) for c in hand), key=LOW_CHARS.index, reverse=True)
        if len(set(chars)) == 5 and all(LOW_CHARS.index(ch) < 8 for ch in chars):
            assert name == "-".join(chars) + " low"
        else:
            assert name == "no low"
        names.add(name)
    assert len(names) == 57  # 56 lows and "no low"


def test_every_five_card_a5_hand_is_named_by_its_cards() -> None:
    kinds = {(1, 1, 1, 1, 1): None, (2, 1, 1, 1): "One Pair", (2, 2, 1): "Two Pair",
             (3, 1, 1): "Three of a Kind", (3, 2): "Full House", (4, 1): "Four of a Kind"}
    for ranks in rank_multisets(5):
        hand = cards_of(ranks)
        counts = Counter(low_char(c) for c in hand)
        order = sorted(counts, key=lambda ch: (-counts[ch], -LOW_CHARS.index(ch)))
        listed = "-".join(ch for ch in order for _ in range(counts[ch]))
        kind = kinds[tuple(sorted(counts.values(), reverse=True))]
        expected = f"{listed} low" if kind is None else f"{kind} ({listed})"
        assert a5_name(a5_value(hand)) == expected
