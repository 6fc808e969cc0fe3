"""High hands (RULES.md section 6): the best five of five to seven cards; equal hands tie.

The evaluator is checked exhaustively on all 2,598,960 five-card hands (category counts and the
number of distinct values) and against independent evaluators (treys, PokerKit) on random hands:
the order must agree, ties included.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from itertools import combinations

import pytest
from pokerkit import StandardHighHand
from pokerkit.lookups import StandardLookup
from treys import Card as TreysCard
from treys import Evaluator

from stud.evaluate import category, high_value
from stud.evaluate.high import (
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    HIGH_CARD,
    ONE_PAIR,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
)
from stud.evaluate.values import Category, HandValue, ValueKind

from .reference import (
    NAMES,
    PokerKitBest,
    assert_same_order,
    cards_of,
    ids,
    names,
    random_hands,
    rank_multisets,
)

TREYS = [TreysCard.new(name) for name in NAMES]
EVALUATOR = Evaluator()
POKERKIT = PokerKitBest(StandardLookup(), low=False)


def value(text: str) -> int:
    return high_value(ids(text))


def facts(high: int) -> tuple[Category, str]:
    """What a high value is: its category and the ranks that name it."""
    held = HandValue(ValueKind.HIGH, high, ())
    return held.category, "".join(r.char for r in held.ranks)


def treys_strength(hand: Sequence[int]) -> int:
    """Treys ranks 1 (royal flush) .. 7462 (7-5-4-3-2); negated so that higher is better."""
    cards = [TREYS[c] for c in hand]
    return -EVALUATOR.evaluate(cards[:2], cards[2:])


# --- exhaustive over every five-card hand ----------------------------------------------------

@cache
def five_card_values() -> Counter[int]:
    return Counter(map(high_value, combinations(range(52), 5)))


def test_category_counts_over_all_2598960_five_card_hands() -> None:
    counts: Counter[int] = Counter()
    for hand_value, hands in five_card_values().items():
        counts[category(hand_value)] += hands
    assert counts == {
        STRAIGHT_FLUSH: 40,
        FOUR_OF_A_KIND: 624,
        FULL_HOUSE: 3744,
        FLUSH: 5108,
        STRAIGHT: 10200,
        THREE_OF_A_KIND: 54912,
        TWO_PAIR: 123552,
        ONE_PAIR: 1098240,
        HIGH_CARD: 1302540,
    }
    assert sum(counts.values()) == 2598960


def test_there_are_7462_distinct_five_card_values() -> None:
    values = five_card_values()
    assert len(values) == 7462
    distinct_per_category = Counter(category(v) for v in values)
    assert distinct_per_category == {
        STRAIGHT_FLUSH: 10,
        FOUR_OF_A_KIND: 156,
        FULL_HOUSE: 156,
        FLUSH: 1277,
        STRAIGHT: 10,
        THREE_OF_A_KIND: 858,
        TWO_PAIR: 858,
        ONE_PAIR: 2860,
        HIGH_CARD: 1277,
    }


def test_royal_flushes_are_the_four_best_hands() -> None:
    values = five_card_values()
    best = max(values)
    assert values[best] == 4
    assert facts(best) == (Category.ROYAL_FLUSH, "A")


# --- agreement with independent evaluators ---------------------------------------------------

def test_order_agrees_with_treys_on_100000_random_seven_card_hands() -> None:
    hands = random_hands(7, 100_000, (7,))
    assert_same_order([high_value(h) for h in hands], [treys_strength(h) for h in hands])


@pytest.mark.parametrize("size", [5, 6])
def test_order_agrees_with_treys_on_random_five_and_six_card_hands(size: int) -> None:
    hands = random_hands(size, 30_000, (size,))
    assert_same_order([high_value(h) for h in hands], [treys_strength(h) for h in hands])


def one_hand_per_class() -> list[tuple[int, ...]]:
    """A hand for every rank multiset (suits mixed), and a flush for every five distinct ranks."""
    hands = []
    for ranks in rank_multisets(5):
        hand = cards_of(ranks)  # five distinct ranks come out all clubs
        if len(set(ranks)) == 5:
            hands.append(tuple(hand))  # the flush
            hand[0] += 1  # and, with one diamond, no flush
        hands.append(tuple(hand))
    return hands


def test_every_five_card_class_agrees_with_treys() -> None:
    # One hand for each of the 7462 classes: our order must be treys' order 7462 .. 1 exactly.
    hands = one_hand_per_class()
    assert len(hands) == 7462
    by_value = {high_value(h): h for h in hands}
    assert len(by_value) == 7462
    strengths = [treys_strength(by_value[v]) for v in sorted(by_value)]
    assert strengths == list(range(-7462, 0))


def test_order_agrees_with_pokerkit_on_random_five_to_seven_card_hands() -> None:
    for size, count in ((5, 20_000), (6, 20_000), (7, 40_000)):
        hands = random_hands(100 + size, count, (size,))
        assert_same_order([high_value(h) for h in hands], [POKERKIT(h) for h in hands])


def test_pokerkit_from_game_agrees_on_a_sample() -> None:
    # The memoised lookup above against PokerKit's own best-hand search, on fewer hands.
    for hand in random_hands(11, 1_000):
        assert StandardHighHand.from_game(names(hand)).entry.index == POKERKIT(hand)
    hands = random_hands(12, 1_000)
    entries = [StandardHighHand.from_game(names(h)).entry.index for h in hands]
    assert_same_order([high_value(h) for h in hands], entries)


# --- rules on known hands --------------------------------------------------------------------

def test_best_five_of_seven_wins() -> None:
    # The flush uses five of the seven cards; the trip kings among them do not play.
    assert category(value("AhKh9h5h2hKcKd")) == FLUSH
    assert value("AhKh9h5h2hKcKd") == value("AhKh9h5h2h")
    # A straight among seven cards beats the two pair also among them.
    assert facts(value("9s8d7c6h5h9c8s")) == (Category.STRAIGHT, "9")
    assert value("AhKh9h5h2hKc3d") == value("AhKh9h5h2h")
    # Seven cards with three pairs make two pair with the best kicker.
    assert value("AsAdKsKdQsQd2c") == value("AsAdKsKdQs")


def test_equal_hands_tie_whatever_their_suits() -> None:
    assert value("AsKsQdJcTh") == value("AhKcQsJdTc")
    assert value("9s9h5c4d2s") == value("9c9d5h4s2d")
    assert value("AsAhKdKcQs2c3d") == value("AdAcKsKhQc4h5h")


def test_kickers_decide_between_equal_pairs() -> None:
    assert value("9s9hAc4d2s") > value("9c9dKh4s2d")
    assert value("9s9hAc4d3s") > value("9c9dAh4s2d")


def test_categories_order_from_straight_flush_down_to_high_card() -> None:
    hands = [
        "AsKsQsJsTs",  # royal flush
        "5s4s3s2sAs",  # steel wheel, the lowest straight flush
        "2c2d2h2s3c",  # quads
        "AcAdAhKsKc",  # full house
        "AhJh9h5h2h",  # flush
        "AsKdQcJhTh",  # straight
        "5s4d3c2hAh",  # wheel
        "AcAdAh3s2c",  # trips
        "AsAdKcKh2h",  # two pair
        "AsAd4c3h2h",  # one pair
        "AsKd9c3h2h",  # high card
        "7s5d4c3h2h",  # the worst hand
    ]
    values = [value(h) for h in hands]
    assert values == sorted(values, reverse=True)
    assert len(set(values)) == len(values)


def test_ace_plays_low_only_in_the_wheel() -> None:
    assert category(value("5s4d3c2hAh")) == STRAIGHT
    assert value("6s5d4c3h2h") > value("5s4d3c2hAh")
    assert category(value("AsKdQc2h3h")) == HIGH_CARD  # no wrap-around straight
    assert category(value("QsKdAc2h3h")) == HIGH_CARD


def test_straight_flush_in_seven_cards_beats_a_higher_flush_and_straight() -> None:
    v = value("9h8h7h6h5hAhTc")
    assert category(v) == STRAIGHT_FLUSH
    assert facts(v) == (Category.STRAIGHT_FLUSH, "9")


def test_two_trips_make_a_full_house_of_the_higher_trips() -> None:
    assert facts(value("KsKdKc4s4d4cAs")) == (Category.FULL_HOUSE, "K4")
    assert facts(value("4s4d4cKsKdQcQs")) == (Category.FULL_HOUSE, "4K")


def test_quads_take_the_highest_other_card_as_kicker() -> None:
    assert value("7s7d7c7hKsKdAc") == value("7s7d7c7hAs")
    assert value("7s7d7c7hAs") > value("7s7d7c7hKs")
