"""Cards and decks (RULES.md section 2): notation, ids, distinctness, shuffles."""

from __future__ import annotations

import copy
import pickle
import re

import numpy as np
import pytest

from stud.cards import (
    CARDS,
    RANK_CHARS,
    SUIT_CHARS,
    Card,
    CardError,
    Deck,
    Rank,
    Suit,
    format_cards,
    parse_cards,
)

ALL_NAMES = [r + s for r in RANK_CHARS for s in SUIT_CHARS]


@pytest.mark.parametrize("name", ALL_NAMES)
def test_card_parse_and_str_round_trip(name: str) -> None:
    card = Card.parse(name)
    assert str(card) == name
    assert Card.parse(str(card)) is card
    assert Card.from_id(card.id) is card
    assert repr(card) == f"Card({name!r})"


def test_card_id_is_rank_times_four_plus_suit() -> None:
    for rank_index, rank_char in enumerate(RANK_CHARS):
        for suit_index, suit_char in enumerate(SUIT_CHARS):
            card = Card.parse(rank_char + suit_char)
            assert card.id == rank_index * 4 + suit_index
            assert card.rank == Rank(rank_index)
            assert card.suit == Suit(suit_index)
    assert Card.parse("2c").id == 0
    assert Card.parse("As").id == 51
    assert Card.parse("2c").rank is Rank.TWO and Card.parse("As").rank is Rank.ACE


def test_suits_order_clubs_diamonds_hearts_spades() -> None:
    assert [s.char for s in sorted(Suit)] == ["c", "d", "h", "s"]
    assert Suit.CLUBS < Suit.DIAMONDS < Suit.HEARTS < Suit.SPADES


def test_cards_sort_by_rank_then_suit() -> None:
    cards = parse_cards("As 2h Kd 2c Ac")
    assert [str(c) for c in sorted(cards)] == ["2c", "2h", "Kd", "Ac", "As"]


def test_all_52_cards_are_distinct_and_interned() -> None:
    assert len(CARDS) == 52
    assert len(set(CARDS)) == 52
    assert [c.id for c in CARDS] == list(range(52))
    assert Card.parse("Td") is Card.parse("Td")


def test_card_parse_accepts_either_case() -> None:
    assert Card.parse("as") is Card.parse("As")
    assert Card.parse("tD") is Card.parse("Td")


def test_pretty_card_uses_suit_symbol() -> None:
    assert Card.parse("As").pretty == "A♠"
    assert Card.parse("2c").pretty == "2♣"


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("1s", "'1'"),  # the bad rank
        ("Ax", "'x'"),  # the bad suit
        ("A", "'A'"),  # too short
        ("Asd", "'Asd'"),  # too long
        ("", "''"),  # empty
    ],
)
def test_bad_card_string_raises_card_error_naming_the_bad_part(text: str, named: str) -> None:
    with pytest.raises(CardError) as error:
        Card.parse(text)
    assert named in str(error.value)


def test_bad_rank_and_suit_are_named_as_rank_and_suit() -> None:
    with pytest.raises(CardError, match="rank '1'"):
        Card.parse("1s")
    with pytest.raises(CardError, match="suit 'x'"):
        Card.parse("Ax")


def test_card_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        Card.parse("Zz")


@pytest.mark.parametrize("bad_id", [-1, 52, 3.0, "0"])
def test_card_from_id_rejects_ids_outside_0_to_51(bad_id: object) -> None:
    with pytest.raises(CardError):
        Card.from_id(bad_id)  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "named"), [("1s", "'1'"), ("Ax", "'x'"), ("A", "'A'"),
                                             ("Asd", "'Asd'"), ("AsKd1c", "'1'")])
def test_parse_cards_rejects_bad_strings(text: str, named: str) -> None:
    with pytest.raises(CardError) as error:
        parse_cards(text)
    assert named in str(error.value)


def test_parse_cards_reads_cards_together_or_apart() -> None:
    expected = (Card.parse("As"), Card.parse("Kd"), Card.parse("2c"))
    assert parse_cards("AsKd2c") == expected
    assert parse_cards("As Kd 2c") == expected
    assert parse_cards("As,Kd,2c") == expected
    assert parse_cards("") == ()


def test_parse_cards_rejects_a_repeated_card_unless_distinct_is_off() -> None:
    with pytest.raises(CardError, match="As"):
        parse_cards("AsAs")
    with pytest.raises(CardError, match="appears twice"):
        parse_cards("As Kd As")
    assert parse_cards("AsAs", distinct=False) == (Card.parse("As"), Card.parse("As"))


def test_format_cards_writes_hidden_cards_as_question_marks() -> None:
    assert format_cards([Card.parse("As"), None, Card.parse("2c")]) == "As??2c"
    assert format_cards(parse_cards("Td3c4d")) == "Td3c4d"


@pytest.mark.parametrize("card", CARDS, ids=str)
def test_pickling_and_copying_return_the_same_interned_card(card: Card) -> None:
    assert pickle.loads(pickle.dumps(card)) is card
    assert copy.copy(card) is card
    assert copy.deepcopy(card) is card


def test_cards_are_immutable() -> None:
    card = Card.parse("As")
    with pytest.raises(AttributeError):
        card.id = 0  # type: ignore[misc]


def test_a_deck_holds_52_distinct_cards() -> None:
    for deck in (Deck.shuffled(), Deck.seeded(1), Deck.ordered()):
        assert len(deck) == 52
        assert set(deck.cards) == set(CARDS)


def test_a_seeded_deck_is_reproducible() -> None:
    assert Deck.seeded(42).cards == Deck.seeded(42).cards
    assert Deck.seeded(42).seed == 42
    assert Deck.seeded(42).cards != Deck.seeded(43).cards
    assert Deck.seeded(42).cards != CARDS


def test_a_secure_shuffle_differs_each_time_and_has_no_seed() -> None:
    first, second = Deck.shuffled(), Deck.shuffled()
    assert first.seed is None
    # Two equal orders out of 52! would mean the shuffle is not shuffling.
    assert first.cards != second.cards
    assert first.cards != CARDS


def test_an_ordered_deck_puts_the_given_cards_on_top() -> None:
    top = parse_cards("AsKd2c")
    deck = Deck.ordered(top)
    assert deck.cards[:3] == top
    assert len(deck) == 52 and set(deck.cards) == set(CARDS)
    assert list(deck.cards[3:]) == sorted(deck.cards[3:])
    with pytest.raises(CardError):
        Deck.ordered(parse_cards("AsAs", distinct=False))


def test_a_deck_with_a_repeated_card_is_rejected() -> None:
    with pytest.raises(CardError, match="appears twice"):
        Deck(CARDS[:51] + (CARDS[0],))


def test_a_seeded_deck_reshuffles_reproducibly() -> None:
    cards = list(CARDS[:20])
    deck = Deck.seeded(5)
    assert deck.reshuffle(cards, 1) == Deck.seeded(5).reshuffle(cards, 1)
    assert sorted(deck.reshuffle(cards, 1)) == cards
    assert deck.reshuffle(cards, 1) != deck.reshuffle(cards, 2)


def test_a_seeded_deck_is_the_standard_library_shuffle_of_that_seed():
    # Deck.seeded shuffles with its own copy of random.shuffle's algorithm, for speed: the
    # order must stay exactly random.Random(seed).shuffle's.
    import random

    from stud.cards import CARDS
    for seed in [0, 1, 7, 2**31 - 1, 2**32 + 5, *range(100, 400)]:
        order = list(CARDS)
        random.Random(seed).shuffle(order)
        assert Deck.seeded(seed).cards == tuple(order)


def test_a_drawn_deck_is_the_standard_library_shuffle_by_that_generator():
    # Deck.drawn shuffles with the same copy of random.shuffle's algorithm: a simulation that
    # draws its decks from one generator gets exactly the generator's own shuffles.
    import random

    from stud.cards import CARDS
    ours, theirs = random.Random(11), random.Random(11)
    for _ in range(300):
        deck = Deck.drawn(ours)
        order = list(CARDS)
        theirs.shuffle(order)
        assert deck.cards == tuple(order)
        assert deck.seed == theirs.getrandbits(32)  # the seed of a later reshuffle, drawn next
    first, again = Deck.drawn(random.Random(3)), Deck.drawn(random.Random(3))
    assert first == again and first.reshuffle(CARDS[:5], 1) == again.reshuffle(CARDS[:5], 1)


def test_a_card_is_made_from_its_id_or_its_name_as_its_repr_shows_and_nothing_else() -> None:
    assert Card("As") == Card.parse("As") and eval(repr(Card(12))) == Card(12)  # noqa: S307
    assert Card.from_id(np.int64(5)) is CARDS[5]
    for bad, says in ((99, "card id 99 is not between 0 and 51"), ("Zz", "rank 'Z'"),
                      (True, "card id True"), (1.0, "card id 1.0"), (None, "card id None")):
        with pytest.raises(CardError, match=re.escape(says)):
            Card(bad)  # type: ignore[arg-type]
