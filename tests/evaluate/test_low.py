"""Low hands: the 8-or-better low of stud hi/lo (RULES.md 7) and razz's A-5 low (RULES.md 8).

Both are checked against PokerKit (``EightOrBetterLowHand``, ``RegularLowHand``) exhaustively over
rank multisets and on random hands: qualification and order must agree, ties included.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import cache
from itertools import combinations

import pytest
from pokerkit import EightOrBetterLowHand, RegularLowHand
from pokerkit.lookups import EightOrBetterLookup, RegularLookup

from stud.evaluate import NO_LOW, a5_value, high_value, low8_value
from stud.evaluate.low import _WORST, _a5_badness, a5_category, a5_ranks, low8_ranks, low_rank
from stud.evaluate.values import Category, HandValue, ValueKind

from .reference import (
    PokerKitBest,
    assert_same_order,
    cards_of,
    ids,
    names,
    random_hands,
    rank_multisets,
)

LOW8_REFERENCE = PokerKitBest(EightOrBetterLookup(), low=True)
A5_REFERENCE = PokerKitBest(RegularLookup(), low=True)


def low8(text: str) -> int:
    return low8_value(ids(text))


def a5(text: str) -> int:
    return a5_value(ids(text))


def facts(kind: ValueKind, value: int) -> tuple[Category, str]:
    """What a value is: its category and its ranks (ace low as A), as the cards write them."""
    held = HandValue(kind, value, ())
    return held.category, "".join(r.char for r in held.ranks)


def paired_hands(seed: int, count: int) -> list[list[int]]:
    """Random 5 to 7 card hands with fewer than five distinct ranks (paired razz boards)."""
    rng = random.Random(seed)
    hands = []
    while len(hands) < count:
        size = rng.choice((5, 6, 7))
        ranks = rng.sample(range(13), rng.choice((2, 3, 4)))
        deck = [r * 4 + s for r in ranks for s in range(4)]
        if len(deck) < size:
            continue
        hands.append(rng.sample(deck, size))
    return hands


_five_badness = cache(_a5_badness)


def a5_brute_force(hand: Sequence[int]) -> int:
    """The A-5 value by trying every five of the cards (the five-card order is ``_a5_badness``)."""
    ranks = [low_rank(c) for c in hand]
    return _WORST - min(_five_badness(tuple(sorted(five))) for five in combinations(ranks, 5))


def assert_low8_agrees(hands: Sequence[Sequence[int]]) -> None:
    ours = [low8_value(h) for h in hands]
    theirs = [LOW8_REFERENCE(h) for h in hands]
    for hand, o, t in zip(hands, ours, theirs, strict=True):
        assert (o == NO_LOW) == (t is None), names(hand)
    qualified = [(o, t) for o, t in zip(ours, theirs, strict=True) if t is not None]
    assert qualified
    assert_same_order([o for o, _ in qualified], [t for _, t in qualified])


def assert_a5_agrees(hands: Sequence[Sequence[int]]) -> None:
    theirs = [A5_REFERENCE(h) for h in hands]
    assert None not in theirs
    assert_same_order([a5_value(h) for h in hands], theirs)  # type: ignore[arg-type]


# --- 8 or better (stud hi/lo) ----------------------------------------------------------------

def test_low_qualifies_only_with_five_distinct_ranks_eight_or_lower() -> None:
    assert low8("8s6d4h2cAs") != NO_LOW
    assert low8("9s6d4h2cAs") == NO_LOW  # a nine is too high
    assert low8("8s6d4h2cAsKdKh") != NO_LOW  # seven cards: the five low ones qualify
    assert low8("9s6d4h2cAsKdKh") == NO_LOW  # only four ranks 8 or lower
    assert low8("8s8d4h2cAs") == NO_LOW  # a pair leaves four distinct low ranks
    assert low8("8s8d4h4cAsAd2c") == NO_LOW  # seven cards, still four distinct low ranks
    assert low8("8s8d4h4cAsAd3c") == NO_LOW
    assert low8("8s8d4h3cAsAd2c") != NO_LOW  # a pair among seven is fine with five low ranks


def test_eight_seven_six_five_four_is_the_worst_low_and_wheel_the_best() -> None:
    all_lows = {low8_value(cards_of(r)) for r in rank_multisets(5)} - {NO_LOW}
    assert len(all_lows) == 56  # five of the eight ranks ace..eight
    assert min(all_lows) == low8("8s7d6h5c4s")
    assert max(all_lows) == low8("5s4d3h2cAs")
    assert facts(ValueKind.LOW8, min(all_lows)) == (Category.LOW, "87654")
    assert facts(ValueKind.LOW8, max(all_lows)) == (Category.LOW, "5432A")


def test_lows_compare_from_the_highest_card_down() -> None:
    assert low8("7s6d4h3c2s") > low8("8s4d3h2cAs")  # 7 beats 8 whatever follows
    assert low8("8s5d4h3c2s") > low8("8s6d3h2cAs")  # 8-5 beats 8-6
    assert low8("6s5d4h3c2s") > low8("7s4d3h2cAs")
    assert low8("6s4d3h2cAs") > low8("6s5d3h2cAs")
    assert low8("8s6d4h2cAs") == low8("8c6h4d2sAc")  # equal lows tie


def test_ace_is_low_for_the_low() -> None:
    assert low8("As2d3h4c6s") > low8("2s3d4h5c6s")
    assert low8("As2d3h4cKs") == NO_LOW


def test_straights_and_flushes_do_not_count_against_a_low() -> None:
    wheel_flush = ids("As2s3s4s5s")
    assert low8_value(wheel_flush) == low8("5s4d3h2cAs")
    assert facts(ValueKind.LOW8, low8_value(wheel_flush)) == (Category.LOW, "5432A")
    assert facts(ValueKind.HIGH, high_value(wheel_flush)) == (Category.STRAIGHT_FLUSH, "5")
    assert low8("8h7h6h5h4h") == low8("8s7d6h5c4s")


def test_high_and_low_may_use_different_cards() -> None:
    hand = ids("AsKdKh2d3h6s4c")
    assert facts(ValueKind.HIGH, high_value(hand)) == (Category.ONE_PAIR, "KA64")  # kings, ace
    assert facts(ValueKind.LOW8, low8_value(hand)) == (Category.LOW, "6432A")  # the ace too
    assert low8_value(ids("AsKdKhKc2d3h6s")) == NO_LOW  # four low ranks only: high takes all


def test_low8_ranks_are_listed_highest_first() -> None:
    assert low8_ranks(low8("8s6d4h2cAs")) == (8, 6, 4, 2, 1)
    assert low8_ranks(low8("2s4d3h5cAsQh7c")) == (5, 4, 3, 2, 1)


def test_low8_agrees_with_pokerkit_on_every_rank_multiset() -> None:
    for size in (5, 6, 7):
        assert_low8_agrees([cards_of(r) for r in rank_multisets(size)])


def test_low8_agrees_with_pokerkit_on_100000_random_hands() -> None:
    assert_low8_agrees(random_hands(8, 100_000))


def test_low8_pokerkit_from_game_agrees_on_a_sample() -> None:
    hands = random_hands(88, 600)
    for hand in hands:
        theirs = EightOrBetterLowHand.from_game_or_none(names(hand))
        assert (theirs is None) == (LOW8_REFERENCE(hand) is None)
        if theirs is not None:
            assert -theirs.entry.index == LOW8_REFERENCE(hand)


# --- A-5 low (razz) --------------------------------------------------------------------------

def test_razz_wheel_is_the_best_hand_even_as_a_straight_flush() -> None:
    best = a5("As2s3s4s5s")
    assert best == a5("Ac2d3h4s5c") == a5("KsAs2s3s4s5sQd")
    assert all(a5_value(cards_of(r)) <= best for r in rank_multisets(7))
    assert facts(ValueKind.A5, best) == (Category.LOW, "5432A")


def test_razz_pairs_are_bad_any_unpaired_hand_beats_any_pair() -> None:
    worst_unpaired = a5("KsQdJhTc9s")
    best_pair = a5("AsAd2h3c4s")
    assert worst_unpaired > best_pair
    assert a5_category(worst_unpaired) == 0 and a5_category(best_pair) == 1
    assert a5("AsAd2h2c3s") < best_pair  # two pair is worse than one pair
    assert a5("AsAdAh2c3s") < a5("AsAd2h2c3s")  # trips worse than two pair
    assert a5("AsAdAh2c2s") < a5("AsAdAh2c3s")  # full house worse than trips
    assert a5("AsAdAhAc2s") < a5("AsAdAh2c2s")  # quads worse than a full house


def test_razz_has_no_qualifier_and_king_is_high() -> None:
    assert a5("KsQdJhTc9s") != NO_LOW
    assert a5("KsQdJhTc8s") > a5("KsQdJhTc9s")
    assert a5("As2d3h4cKs") < a5("As2d3h4cQs")


def test_razz_seven_cards_play_the_best_five() -> None:
    assert a5("7s5d4h3c2sKdKh") == a5("7s5d4h3c2s")
    assert facts(ValueKind.A5, a5("7s5d4h3c2sKdKh")) == (Category.LOW, "75432")
    assert facts(ValueKind.A5, a5("AsAdAh2c2d3s4h")) == (Category.ONE_PAIR, "AA432")  # 4 ranks
    assert facts(ValueKind.A5, a5("AsAd2h2c3s3d")) == (Category.TWO_PAIR, "22AA3")
    assert facts(ValueKind.A5, a5("KsKdKhQcQdQhJs")) == (Category.TWO_PAIR, "KKQQJ")
    assert facts(ValueKind.A5, a5("KsKdKhKcQdQhQs")) == (Category.FULL_HOUSE, "QQQKK")
    assert facts(ValueKind.A5, a5("KsKdKhKcQd")) == (Category.FOUR_OF_A_KIND, "KKKKQ")


def test_razz_ranks_are_listed_grouped_and_highest_first() -> None:
    assert a5_ranks(a5("7s5d4h3c2s")) == (7, 5, 4, 3, 2)
    assert a5_ranks(a5("AsAd2h3c4s")) == (1, 1, 4, 3, 2)


def test_a5_needs_five_cards() -> None:
    with pytest.raises(ValueError):
        a5_value(ids("AsAd2h3c"))


def test_a5_fast_path_equals_brute_force_on_every_rank_multiset() -> None:
    # Fewer than five distinct ranks takes the paired path; all others the table. Both must give
    # exactly what trying every five cards gives, for every multiset of 5, 6 and 7 ranks.
    checked = Counter()
    for size in (5, 6, 7):
        for ranks in rank_multisets(size):
            hand = cards_of(ranks)
            assert a5_value(hand) == a5_brute_force(hand), ranks
            checked[len(set(ranks)) < 5] += 1
    assert checked[True] > 1000


def test_a5_agrees_with_pokerkit_on_every_rank_multiset() -> None:
    for size in (5, 6, 7):
        assert_a5_agrees([cards_of(r) for r in rank_multisets(size)])


def test_a5_agrees_with_pokerkit_on_100000_random_hands() -> None:
    assert_a5_agrees(random_hands(5, 100_000))


def test_a5_agrees_with_pokerkit_on_paired_razz_boards() -> None:
    hands = paired_hands(55, 20_000)
    assert_a5_agrees(hands)
    assert {a5_category(a5_value(h)) for h in hands} == {1, 2, 3, 4, 5}


def test_a5_pokerkit_from_game_agrees_on_a_sample() -> None:
    hands = random_hands(555, 300) + paired_hands(556, 300)
    for hand in hands:
        theirs = RegularLowHand.from_game(names(hand))
        assert -theirs.entry.index == A5_REFERENCE(hand)
