"""Order of play from up cards (RULES.md sections 3 and 4).

Third street: the lowest up card brings in (ace high; clubs, diamonds, hearts, spades); razz: the
highest (king high, ace low; spades highest). Later streets: the best showing hand acts first,
where only pairs, two pair, trips and quads count, then high cards; razz: the lowest A-5 hand.
"""

from __future__ import annotations

import random

from pokerkit.state import _HighHandOpeningLookup, _LowHandOpeningLookup

from stud.cards import CARDS
from stud.evaluate import showing_high, showing_low
from stud.evaluate.showing import bring_in_key_high, bring_in_key_low

from .reference import assert_same_order, cards_of, ids, names, rank_multisets


def high(text: str) -> int:
    return showing_high(ids(text))


def low(text: str) -> int:
    return showing_low(ids(text))


def stud_bring_in(*door_cards: str) -> str:
    """The door card that brings in among several (stud and stud hi/lo): the lowest key."""
    return min(door_cards, key=lambda text: bring_in_key_high(ids(text)[0]))


def razz_bring_in(*door_cards: str) -> str:
    """The door card that brings in among several in razz: the highest key."""
    return max(door_cards, key=lambda text: bring_in_key_low(ids(text)[0]))


# --- third street: the bring-in --------------------------------------------------------------

def test_lowest_up_card_brings_in_and_clubs_break_ties() -> None:
    assert stud_bring_in("2h", "2c") == "2c"
    assert stud_bring_in("2s", "2h", "2d") == "2d"
    assert stud_bring_in("3c", "2s") == "2s"
    assert stud_bring_in("9d", "Ts", "9c", "Kh") == "9c"


def test_ace_is_high_for_the_stud_bring_in() -> None:
    assert stud_bring_in("Ac", "Ks") == "Ks"
    assert stud_bring_in("Ac", "2s") == "2s"


def test_stud_bring_in_order_is_rank_with_ace_high_then_suit_clubs_lowest() -> None:
    order = sorted(CARDS, key=lambda card: bring_in_key_high(card.id))
    expected = [r + s for r in "23456789TJQKA" for s in "cdhs"]
    assert [str(card) for card in order] == expected
    assert len({bring_in_key_high(card.id) for card in CARDS}) == 52  # never a tie


def test_razz_highest_up_card_brings_in_king_high() -> None:
    assert razz_bring_in("Ks", "Qs", "7d") == "Ks"
    assert razz_bring_in("Kh", "Ks") == "Ks"  # spades highest
    assert razz_bring_in("Kc", "Kd") == "Kd"
    assert razz_bring_in("9c", "8s") == "9c"


def test_razz_ace_is_low_for_the_bring_in() -> None:
    assert razz_bring_in("As", "2c") == "2c"
    assert razz_bring_in("Ac", "Ad", "Ah", "As") == "As"


def test_razz_bring_in_order_is_rank_with_ace_low_then_suit_spades_highest() -> None:
    order = sorted(CARDS, key=lambda card: bring_in_key_low(card.id))
    expected = [r + s for r in "A23456789TJQK" for s in "cdhs"]
    assert [str(card) for card in order] == expected
    assert len({bring_in_key_low(card.id) for card in CARDS}) == 52


# --- fourth to seventh street: the best showing hand acts first ------------------------------

def test_a_pair_showing_beats_ace_king() -> None:
    assert high("2c2d") > high("AsKs")
    assert high("2c2d7h3s") > high("AsKsQsJs")


def test_two_pair_beats_a_pair_and_trips_beat_two_pair() -> None:
    assert high("3c3d2h2s") > high("AcAdKhQs")
    assert high("2c2d2h3s") > high("AcAdKhKs")
    assert high("2c2d2h2s") > high("AcAdAhKs")  # quads beat trips
    assert high("2c2d2h") > high("AcAdKs")


def test_higher_pair_and_then_kickers_decide() -> None:
    assert high("KcKd") > high("QsQh")
    assert high("KcKd4s") > high("KsKh3c")
    assert high("3c3dAh2s") > high("3h3sKcQd")
    assert high("AcAdKhKs") > high("AhAsQcQd")
    assert high("AcAdKhKs") > high("KcKdQhQs")


def test_ace_king_beats_ace_queen_and_high_cards_compare_in_order() -> None:
    assert high("AsKd") > high("AhQc")
    assert high("AsKd3c") > high("AhKc2d")
    assert high("Ks") > high("Qs")
    assert high("As") > high("Ks")
    assert high("AsKdQc") > high("AhKc9d")


def test_straights_and_flushes_showing_do_not_count() -> None:
    # Four suited or connected up cards rank as high cards only.
    assert high("5s4s3s2s") < high("6c4d3h2s")
    assert high("AsKsQsJs") < high("2c2d3h4s")
    assert high("9h8d7c6s") < high("Tc4d3h2s")
    assert high("AsKsQsJs") == high("AhKcQdJs")
    assert high("9h8h7h6h") == high("9c8d7s6h")


def test_equal_showing_hands_tie_whatever_the_suits() -> None:
    assert high("AsKd") == high("AhKc")
    assert high("7c7d2h") == high("7h7s2c")
    assert low("7c5d2h") == low("7h5s2c")


def test_a_community_card_makes_five_up_cards_and_still_only_pairs_count() -> None:
    # With a community card (deck exhaustion) each player shows five cards; still no straights
    # or flushes, but a full house beats trips and quads beat a full house.
    assert high("2c2d2h3s3c") > high("AcAdAhKsQs")
    assert high("2c2d2h2s3c") > high("AcAdAhKsKd")
    assert high("AsKsQsJsTs") < high("2c2d3h4s5c")


def test_showing_high_order_agrees_with_pokerkit_on_every_rank_multiset() -> None:
    lookup = _HighHandOpeningLookup()
    for size in (1, 2, 3, 4):
        hands = [cards_of(r) for r in rank_multisets(size)]
        theirs = [lookup.get_entry(names(h)).index for h in hands]
        assert_same_order([showing_high(h) for h in hands], theirs)


def test_showing_ignores_suits_on_random_up_cards() -> None:
    rng = random.Random(4)
    for _ in range(5_000):
        size = rng.randint(1, 4)
        hand = rng.sample(range(52), size)
        plain = cards_of(sorted(c >> 2 for c in hand))
        assert showing_high(hand) == showing_high(plain)
        assert showing_low(hand) == showing_low(plain)


# --- razz: the lowest showing hand acts first -------------------------------------------------

def test_razz_lowest_showing_hand_acts_first() -> None:
    assert low("As2d") > low("2c3d")
    assert low("7s5d") > low("8c2d")  # compare from the highest card down
    assert low("8s5d") > low("8c6d")
    assert low("As") > low("2s")
    assert low("Qs") > low("Ks")
    assert low("As2d3h4c") > low("As2d3h5c")


def test_razz_a_pair_showing_is_worse_than_any_unpaired() -> None:
    assert low("KsQd") > low("AcAd")
    assert low("KsQdJcTh") > low("AcAd2h3s")
    assert low("AcAd2h3s") > low("AcAd2h2s")  # two pair worse than a pair
    assert low("AcAd2h2s") > low("AcAdAh2s")  # trips worse than two pair
    assert low("AcAdAh2s") > low("AcAdAhAs")
    assert low("AcAd") > low("2c2d")  # aces are the lowest pair


def test_razz_straights_and_flushes_showing_do_not_count_against() -> None:
    best = low("As2s3s4s")  # suited and connected, still the best four up cards
    assert best == low("Ac2d3h4s")
    others = [cards_of(r) for r in rank_multisets(4)]
    assert max(showing_low(h) for h in others) == best
    assert sum(showing_low(h) == best for h in others) == 1


def test_showing_low_order_agrees_with_pokerkit_on_every_rank_multiset() -> None:
    lookup = _LowHandOpeningLookup()
    for size in (1, 2, 3, 4):
        hands = [cards_of(r) for r in rank_multisets(size)]
        theirs = [-lookup.get_entry(names(h)).index for h in hands]  # pokerkit: lowest opens
        assert_same_order([showing_low(h) for h in hands], theirs)


def test_stud_and_razz_order_the_same_up_cards_differently() -> None:
    assert high("AsKd") > high("7c6d") and low("AsKd") < low("7c6d")
    assert high("2c2d") > high("AsKd") and low("2c2d") < low("KsQd")


def test_showing_category_sits_in_the_bits_from_20_up() -> None:
    # The engine reads an open pair on fourth street (RULES.md 4) as showing_high(...) >> 20 == 1.
    assert high("AsKd") >> 20 == 0
    assert high("7c7d") >> 20 == 1
    assert high("7c7d2h2s") >> 20 == 2
    assert high("7c7d7h2s") >> 20 == 3
    assert high("7c7d7h2s2d") >> 20 == 4
    assert high("7c7d7h7s") >> 20 == 5
    assert all(showing_high(cards_of(r)) >> 20 == (len(set(r)) == 1)
               for r in rank_multisets(2))
