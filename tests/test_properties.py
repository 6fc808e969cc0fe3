"""Properties over random legal play in every variant, 2-8 players, short stacks included:
chips are conserved, no card appears twice, every hand ends, every chip of every pot is
awarded, and no view holds another seat's hidden card."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scenarios import cards_in_view, hidden_cards
from stud.cards import Deck
from stud.engine import Hand
from stud.engine.events import PotAwarded, UncalledReturned
from stud.rules import PROFILES, Stakes

MAX_ACTIONS = 400

games = st.fixed_dictionaries({
    "variant": st.sampled_from(["stud", "stud8", "razz"]),
    "rules": st.sampled_from(["standard", "pokerkit"]),
    "stacks": st.lists(st.integers(1, 120), min_size=2, max_size=8),
    "stakes": st.sampled_from([Stakes(1, 1, 2, 4), Stakes(2, 2, 5, 10), Stakes(0, 1, 2, 4),
                               Stakes(5, 3, 10, 20), Stakes(1, 2, 3, 6)]),
    "seed": st.integers(0, 2**32),
    "auto_showdown": st.booleans(),
})






def play_randomly(game: dict) -> Hand:
    rng = random.Random(game["seed"])
    hand = Hand(game["variant"], game["stakes"], game["stacks"], PROFILES[game["rules"]],
                Deck.seeded(game["seed"]), auto_showdown=game["auto_showdown"])
    for _ in range(MAX_ACTIONS):
        if hand.is_over:
            break
        for viewer in [None, *range(1, hand.players + 1)]:
            leaked = cards_in_view(hand.view(viewer)) & hidden_cards(hand, viewer)
            assert not leaked, f"view of {viewer} holds hidden cards {leaked}"
        hand.act(rng.choice(hand.legal_actions()))
    return hand


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_random_play_conserves_chips_and_awards_every_pot(game: dict) -> None:
    hand = play_randomly(game)
    assert hand.is_over, f"hand did not end within {MAX_ACTIONS} actions"
    assert sum(hand.stacks) == sum(game["stacks"])
    assert all(stack >= 0 for stack in hand.stacks)
    awarded = sum(e.amount for e in hand.events if isinstance(e, PotAwarded))
    assert awarded == sum(hand.committed), "every chip of every pot is awarded"
    returned = {e.seat: e.amount for e in hand.events if isinstance(e, UncalledReturned)}
    won = [0] * hand.players
    for event in hand.events:
        if isinstance(event, PotAwarded):
            for seat, chips in event.shares:
                won[seat - 1] += chips
            assert sum(chips for _, chips in event.shares) == event.amount
    for i in range(hand.players):
        assert hand.stacks[i] == game["stacks"][i] - hand.committed[i] + won[i]
    assert all(v > 0 for v in returned.values())


@settings(max_examples=300, deadline=None)
@given(games)
def test_random_play_never_deals_a_card_twice_to_live_hands(game: dict) -> None:
    hand = play_randomly(game)
    # Under the reshuffle policy a folded hand's cards may come round again, never a live one's.
    reshuffle = PROFILES[game["rules"]].deck_exhaustion == "reshuffle"
    holders = [i for i in range(hand.players) if not (reshuffle and hand.folded[i])]
    dealt = [c for i in holders for c in hand.cards[i]] + hand.board
    assert len(dealt) == len(set(dealt))
    for i in range(hand.players):
        assert len(hand.cards[i]) + len(hand.board) <= 7
        if not hand.folded[i]:
            assert len(hand.cards[i]) + len(hand.board) == 7 or hand.is_over


@settings(max_examples=150, deadline=None)
@given(games)
def test_public_history_of_random_play_holds_no_hidden_card(game: dict) -> None:
    from stud.history.phh import from_hand

    hand = play_randomly(game)
    public = " ".join(from_hand(hand, viewer=None).actions)
    for card in hidden_cards(hand, None):
        assert str(card) not in public
