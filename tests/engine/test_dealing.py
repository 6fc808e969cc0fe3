"""RULES.md section 2: the deck, the shuffle, the order of dealing, burns, and deck exhaustion.

Most tests deal from ``Deck.ordered()``: the cards leave the deck by id (2c 2d 2h 2s 3c ...), so
the card a seat gets on each street follows from the dealing order alone.
"""

from __future__ import annotations

import random
import re
import secrets

import numpy as np
import pytest

from scenarios import STAKES, passive
from stud.cards import CARDS, Card, Deck, parse_cards
from stud.engine import (
    CardBurned,
    CardDealt,
    Category,
    CommunityCardDealt,
    Hand,
    HandShown,
    StubReshuffled,
)
from stud.rules import PROFILES, RulesError, Stakes

STANDARD = PROFILES["standard"]
COMMUNITY = STANDARD.with_policies(deck_exhaustion="community")
RESHUFFLE = STANDARD.with_policies(deck_exhaustion="reshuffle")




def deal_log(hand: Hand) -> list[tuple]:
    """Every burn and every card dealt, in order."""
    out: list[tuple] = []
    for e in hand.events:
        if isinstance(e, CardBurned):
            out.append(("burn", e.street))
        elif isinstance(e, CardDealt):
            out.append((e.seat, e.street, e.card, e.up))
        elif isinstance(e, CommunityCardDealt):
            out.append(("community", e.street, e.card))
        elif isinstance(e, StubReshuffled):
            out.append(("reshuffle", e.street, e.cards))
    return out


def dealt_cards(hand: Hand) -> list[Card]:
    return [e.card for e in hand.events if isinstance(e, CardDealt | CommunityCardDealt)]


# ---------------------------------------------------------------- the deck and the shuffle


def test_a_fresh_deck_has_the_52_distinct_cards():
    for deck in (Deck.shuffled(), Deck.seeded(1), Deck.ordered()):
        assert len(deck.cards) == 52
        assert set(deck.cards) == set(CARDS)


def test_every_hand_deals_from_a_fresh_52_card_deck():
    # Eight players to seventh street use the whole deck: 49 dealt, 3 burned.
    hand = passive(Hand("stud", STAKES, [100] * 8, deck=Deck.ordered()))
    cards = dealt_cards(hand)
    assert len(cards) == len(set(cards)) == 49
    burned = {CARDS[24], CARDS[33], CARDS[42]}
    assert set(cards) | burned == set(CARDS)


def test_shuffle_is_cryptographically_secure_by_default(monkeypatch):
    shuffled: list[int] = []

    class SpyRandom(secrets.SystemRandom):
        def shuffle(self, x):  # type: ignore[override]
            shuffled.append(len(x))
            super().shuffle(x)

    monkeypatch.setattr(secrets, "SystemRandom", SpyRandom)
    Hand("stud", STAKES, [100, 100])
    assert shuffled == [52]


def test_shuffle_is_injected_never_the_global_random_generator(monkeypatch):
    def forbidden(*args, **kwargs):
        raise AssertionError("the global random generator was used")

    for name in ("shuffle", "random", "randrange", "randint", "choice", "sample", "seed",
                 "getrandbits"):
        monkeypatch.setattr(random, name, forbidden)
    passive(Hand("stud", STAKES, [100] * 3))
    passive(Hand("stud", STAKES, [100] * 3, deck=Deck.seeded(5)))
    passive(Hand("stud", STAKES, [100] * 8, RESHUFFLE, deck=Deck.seeded(5)), (2,))


def test_seeded_shuffle_on_request_is_reproducible():
    random.seed(1)
    first = passive(Hand("stud", STAKES, [100] * 4, deck=Deck.seeded(42)))
    random.seed(2)
    random.random()
    second = passive(Hand("stud", STAKES, [100] * 4, deck=Deck.seeded(42)))
    assert deal_log(first) == deal_log(second)
    assert Deck.seeded(42) == Deck.seeded(42)
    assert Deck.seeded(42).cards != Deck.seeded(43).cards


# ---------------------------------------------------------------- the order of dealing


def test_third_street_deals_two_down_one_up_one_card_at_a_time_from_seat_1():
    hand = Hand("stud", STAKES, [100] * 3, deck=Deck.ordered())
    assert deal_log(hand) == [
        (1, 3, CARDS[0], False), (2, 3, CARDS[1], False), (3, 3, CARDS[2], False),
        (1, 3, CARDS[3], False), (2, 3, CARDS[4], False), (3, 3, CARDS[5], False),
        (1, 3, CARDS[6], True), (2, 3, CARDS[7], True), (3, 3, CARDS[8], True),
    ]
    assert [str(c) for c in hand.cards[0]] == ["2c", "2s", "3h"]
    assert hand.up == [[False, False, True]] * 3


def test_fourth_to_sixth_street_one_up_card_each_seventh_street_one_down_card():
    hand = passive(Hand("stud", STAKES, [100] * 3, deck=Deck.ordered()))
    for seat in (1, 2, 3):
        per_street = [(e.street, e.up) for e in hand.events
                      if isinstance(e, CardDealt) and e.seat == seat]
        assert per_street == [(3, False), (3, False), (3, True), (4, True), (5, True),
                              (6, True), (7, False)]
        assert hand.up[seat - 1] == [False, False, True, True, True, True, False]


def test_one_burn_card_before_fourth_fifth_sixth_and_seventh_street():
    hand = passive(Hand("stud", STAKES, [100] * 3, deck=Deck.ordered()))
    later = deal_log(hand)[9:]
    expected: list[tuple] = []
    k = 9
    for street in (4, 5, 6, 7):
        expected.append(("burn", street))
        k += 1  # the burned card
        for seat in (1, 2, 3):
            expected.append((seat, street, CARDS[k], street != 7))
            k += 1
    assert later == expected
    # The burned cards (ids 9, 13, 17, 21) are never dealt to anyone.
    assert not {CARDS[9], CARDS[13], CARDS[17], CARDS[21]} & set(dealt_cards(hand))


def test_no_burn_before_third_street():
    hand = Hand("stud", STAKES, [100] * 2, deck=Deck.ordered())
    assert not any(isinstance(e, CardBurned) for e in hand.events)
    assert [e.card for e in hand.events if isinstance(e, CardDealt)] == list(CARDS[:6])


def test_folded_players_get_no_more_cards():
    hand = passive(Hand("stud", STAKES, [100] * 3, deck=Deck.ordered()), fold_on_third=(2,))
    assert hand.folded == [False, True, False]
    assert len(hand.cards[1]) == 3
    fourth = [e for e in hand.events if isinstance(e, CardDealt) and e.street == 4]
    # Burn id 9, then seats 1 and 3 only.
    assert [(e.seat, e.card) for e in fourth] == [(1, CARDS[10]), (3, CARDS[11])]


# ---------------------------------------------------------------- deck exhaustion: community


def test_deck_exhaustion_community_card_is_every_players_seventh():
    hand = passive(Hand("stud", STAKES, [100] * 8, COMMUNITY, deck=Deck.ordered()))
    seventh = [x for x in deal_log(hand) if x[1] == 7]
    # One card is left after sixth street: no burn, and it goes face up in the centre.
    assert seventh == [("community", 7, Card.parse("As"))]
    assert hand.board == [Card.parse("As")]
    for seat in range(1, 9):
        assert len(hand.cards[seat - 1]) == 6
        assert hand.up_cards(seat)[-1] == Card.parse("As")
        assert hand.hole_cards(seat)[-1] == Card.parse("As")
    assert hand.view(None).board == (Card.parse("As"),)
    # Seat 8 (3s 5s 7s Tc Qd Ah) has its pair of aces only with the community ace.
    shown = {e.seat: e for e in hand.events if isinstance(e, HandShown)}
    high = shown[8].high
    assert high is not None and high.category is Category.ONE_PAIR
    assert [r.char for r in high.ranks] == ["A", "Q", "T", "7"]
    assert Card.parse("As") in high.five
    assert hand.stacks == [98] * 7 + [114]


def test_deck_exhaustion_community_skips_the_burn_when_it_would_leave_a_player_short():
    # Seven players to seventh street leave exactly seven cards: no burn, one card each.
    hand = passive(Hand("stud", STAKES, [100] * 7, COMMUNITY, deck=Deck.ordered()))
    seventh = [x for x in deal_log(hand) if x[1] == 7]
    assert seventh == [(seat, 7, CARDS[44 + seat], False) for seat in range(1, 8)]
    assert hand.board == []


def test_deck_exhaustion_community_card_when_the_stub_is_short_after_folds():
    # Eight players, one folds on third street: four cards are left for seven players.
    hand = passive(Hand("stud", STAKES, [100] * 8, COMMUNITY, deck=Deck.ordered()),
                   fold_on_third=(2,))
    seventh = [x for x in deal_log(hand) if x[1] == 7]
    assert seventh == [("community", 7, CARDS[48])]
    assert hand.board == [CARDS[48]]


# ---------------------------------------------------------------- deck exhaustion: reshuffle


def test_deck_exhaustion_reshuffle_puts_burned_and_mucked_cards_back_first():
    hand = passive(Hand("stud", STAKES, [100] * 8, RESHUFFLE, deck=Deck.ordered()),
                   fold_on_third=(2,))
    log = deal_log(hand)
    seventh = [x for x in log if x[1] == 7]
    # Seat 2's three cards (ids 1, 9, 17) and the burns (ids 24, 32, 40) go back.
    assert seventh[:2] == [("reshuffle", 7, 6), ("burn", 7)]
    cards = [x[2] for x in seventh[2:]]
    assert [x[0] for x in seventh[2:]] == [1, 3, 4, 5, 6, 7, 8]
    assert all(x[3] is False for x in seventh[2:])
    assert hand.board == []
    stub_and_back = {CARDS[i] for i in (48, 49, 50, 51, 1, 9, 17, 24, 32, 40)}
    assert len(set(cards)) == 7 and set(cards) <= stub_and_back
    in_play = [c for i, cs in enumerate(hand.cards) if not hand.folded[i] for c in cs[:6]]
    assert not set(cards) & set(in_play)


def test_deck_exhaustion_reshuffle_deals_a_community_card_only_if_still_not_enough():
    # Eight players to seventh street: 1 card + 3 burns is still less than 8.
    hand = passive(Hand("stud", STAKES, [100] * 8, RESHUFFLE, deck=Deck.ordered()))
    seventh = [x for x in deal_log(hand) if x[1] == 7]
    assert seventh[0] == ("reshuffle", 7, 3)
    assert [x[0] for x in seventh[1:]] == ["community"]
    assert hand.board[0] in {CARDS[51], CARDS[24], CARDS[33], CARDS[42]}
    assert len(set(dealt_cards(hand))) == 49


def test_deck_exhaustion_reshuffle_is_not_used_while_the_stub_suffices():
    hand = passive(Hand("stud", STAKES, [100] * 6, RESHUFFLE, deck=Deck.ordered()))
    assert not any(isinstance(e, StubReshuffled) for e in hand.events)
    assert [e.street for e in hand.events if isinstance(e, CardBurned)] == [4, 5, 6, 7]


@pytest.mark.parametrize(("script", "says"), [
    ({(3, 1): "AsAd2c4c"}, "the cards must be a list of Card"),
    ({(3, 1): ["As", "Ad", "2c"]}, "'As' is not a Card"),
    ({(3, 1): list(parse_cards("AsAd2c4c"))}, "4 cards, but third street deals 3 cards"),
    ({(5, 2): list(parse_cards("KsKh"))}, "2 cards, but fifth street deals 1 card"),
    ({(8, 1): list(parse_cards("Qs"))}, "there is no street 8"),
    ({(4, 3): list(parse_cards("Qs"))}, "there is no seat 3 (seats 1 to 2"),
    ({(3, 0): list(parse_cards("Qs"))}, "no community card is dealt on third street"),
    ({(6, 0): list(parse_cards("QsJs"))}, "the community card is one card"),
    ({3: list(parse_cards("Qs"))}, "3 is not a (street, seat) pair"),
])
def test_a_deal_script_names_only_streets_seats_and_cards_that_can_be_dealt(script, says):
    """A script entry that could never be dealt is refused, naming it, instead of holding its
    cards out of the deck unseen."""
    with pytest.raises(RulesError, match=re.escape(says)):
        Hand("stud", STAKES, [100, 100], deck=Deck.seeded(1), deal_script=script)


def test_the_engine_takes_numpys_ints_as_chip_counts_and_seats_and_refuses_other_kinds():
    stakes = Stakes(*np.array([1, 1, 2, 4]))
    assert type(stakes.ante) is int and stakes == Stakes(1, 1, 2, 4)
    hand = Hand("stud", stakes, list(np.array([200, 200])), deck=Deck.seeded(1))
    assert hand.starting_stacks == (200, 200) and type(hand.starting_stacks[0]) is int
    assert hand.view(np.int64(1)).viewer == 1
    scripted = Hand("stud", stakes, [200, 200], deck=Deck.seeded(1),
                    deal_script={(np.int64(3), np.int64(1)): list(parse_cards("AsAdAc"))})
    assert scripted.cards[0] == list(parse_cards("AsAdAc"))
    for seat in ("1", 1.0, True, 0, 3):
        with pytest.raises(ValueError, match=re.escape(f"seat {seat!r} is not in this hand")):
            hand.view(seat)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="deck must be a Deck"):
        Hand("stud", stakes, [200, 200], deck=[1, 2])  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="rules must be a Rules or a profile name, not 5"):
        Hand("stud", stakes, [200, 200], rules=5)  # type: ignore[arg-type]
