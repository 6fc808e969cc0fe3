"""The view privacy rule (DESIGN.md, RULES.md 6 and 10): ``view(seat)`` shows that seat its own
down cards and everybody's up cards; the public view shows no down card until it is shown."""

from __future__ import annotations

from scenarios import STAKES, hand_with, play
from stud.cards import Deck, parse_cards
from stud.engine import Action, ActionKind, Hand
from stud.engine.events import CardDealt

CARDS = {
    1: "As Ad 2c 3c 8d Jh 9c",
    2: "Ks Kd 9h 3d 4c 5d Kh",
    3: "Qs Qd Th 7s 6h 5s 4s",
}


def fourth_street():
    hand = hand_with("stud", CARDS, auto_showdown=False)
    play(hand, "b", "c", "c")  # seat 1's 2c brings in
    assert hand.street == 4
    return hand


def test_seat_view_shows_its_own_down_cards_and_every_up_card():
    hand = fourth_street()
    view = hand.view(1)
    assert view.viewer == 1
    assert view.player(1).cards == parse_cards("As Ad 2c 3c")
    assert view.player(2).cards == (None, None, *parse_cards("9h 3d"))
    assert view.player(3).cards == (None, None, *parse_cards("Th 7s"))
    assert view.player(2).up_cards == parse_cards("9h 3d")
    assert view.player(1).down_cards == parse_cards("As Ad")


def test_public_view_shows_no_down_card():
    hand = fourth_street()
    view = hand.view(None)
    assert view.viewer is None
    for seat in (1, 2, 3):
        assert view.player(seat).down_cards == (None, None)
    assert view.player(1).up_cards == parse_cards("2c 3c")
    assert view.player(2).up_cards == parse_cards("9h 3d")
    assert view.player(3).up_cards == parse_cards("Th 7s")


def test_view_events_hide_other_seats_down_cards():
    hand = fourth_street()
    for viewer in (None, 1, 2, 3):
        count = {1: 0, 2: 0, 3: 0}
        for e in hand.view(viewer).events:
            if not isinstance(e, CardDealt):
                continue
            real = hand.cards[e.seat - 1][count[e.seat]]
            count[e.seat] += 1
            if e.up or e.seat == viewer:
                assert e.card == real
            else:
                assert e.card is None
        assert count == {1: 4, 2: 4, 3: 4}
    assert all(e.card is None or e.up for e in hand.public_events()
               if isinstance(e, CardDealt))


def test_seventh_street_down_card_is_private():
    hand = fourth_street()
    play(hand, "k", "k", "k", "k", "k", "k", "k", "k", "k")  # fourth to sixth street
    assert hand.street == 7
    assert hand.view(2).player(2).down_cards == parse_cards("Ks Kd Kh")
    assert hand.view(1).player(2).down_cards == (None, None, None)
    assert hand.view(None).player(2).down_cards == (None, None, None)
    assert hand.view(None).player(2).up_cards == parse_cards("9h 3d 4c 5d")


def test_only_the_seat_to_act_sees_its_legal_actions():
    hand = fourth_street()
    actor = hand.to_act
    assert hand.view(actor).legal_actions == hand.legal_actions()
    for viewer in (None, *(s for s in (1, 2, 3) if s != actor)):
        assert hand.view(viewer).legal_actions == ()


def test_folded_hand_stays_hidden_from_everyone_else():
    hand = hand_with("stud", CARDS)
    play(hand, "b", "f", "c")  # seat 2 folds
    for _ in range(4):
        play(hand, "k", "k")
    assert hand.is_over
    for viewer in (None, 1, 3):
        assert hand.view(viewer).player(2).cards == (None, None, *parse_cards("9h"))
    assert hand.view(2).player(2).cards == parse_cards("Ks Kd 9h")


def test_public_view_shows_down_cards_once_shown_at_the_showdown():
    hand = fourth_street()
    play(hand, "k", "k", "k", "k", "k", "k", "k", "k", "k", "k", "k", "k")
    assert hand.phase == "showdown"
    first = hand.to_act
    assert hand.view(None).player(first).down_cards == (None, None, None)
    hand.act(Action(ActionKind.SHOW))
    assert hand.view(None).player(first).cards == parse_cards(CARDS[first])
    others = [s for s in (1, 2, 3) if s != first]
    for seat in others:
        assert hand.view(None).player(seat).down_cards == (None, None, None)


def test_a_view_shows_the_hand_as_it_was_when_taken_even_if_read_later():
    # Views are made lazily: one still held when the hand moves on is made before it does.
    hand = Hand("stud", STAKES, [100, 100, 100], deck=Deck.seeded(11))
    first = hand.view(hand.to_act)  # not read yet
    seat = hand.to_act
    stacks = list(hand.stacks)
    events = len(hand.events)
    hand.act(hand.legal_actions()[-1])
    hand.act(hand.legal_actions()[0])
    later = hand.view(seat)
    assert [p.stack for p in first.players] == stacks != [p.stack for p in later.players]
    assert len(first.events) == len(first.public_events) == events < len(later.events)
    assert first.to_act == seat and first.legal_actions
    # Read only now, and again: the same as it was.
    assert first.players == tuple(first.players) and first == first


def test_views_taken_for_every_seat_at_once_each_keep_their_own_cards():
    hand = Hand("stud8", STAKES, [100] * 4, deck=Deck.seeded(5))
    views = [hand.view(seat) for seat in range(1, 5)]
    before = [[p.cards for p in view.players] for view in views]
    while not hand.is_over:
        hand.act(hand.legal_actions()[0])
    for seat, view in enumerate(views, 1):
        assert [p.cards for p in view.players] == before[seat - 1]
        assert all(len(cards) == 3 for cards in before[seat - 1])
        own = view.player(seat).cards
        assert None not in own
        assert all(c is None for p in view.players if p.seat != seat for c in p.cards[:2])


def test_a_view_read_at_once_equals_one_fixed_at_once_on_every_field() -> None:
    # A view reads its fields from the hand when asked; one fixed at once (freeze) reads
    # them from the copy it made. Every field agrees, at every decision of random hands.
    import random

    from stud.engine import HandView

    rng = random.Random(5)
    for n in range(60):
        hand = Hand(("stud", "stud8", "razz")[n % 3], STAKES, [40, 60, 100, 25][: 2 + n % 3],
                    deck=Deck.seeded(n))
        while not hand.is_over:
            seat = hand.to_act
            for viewer in (None, seat):
                live = hand.view(viewer)
                fixed = hand.view(viewer)
                fixed.freeze()
                for name in HandView.FIELDS:
                    a, b = getattr(live, name), getattr(fixed, name)
                    if name in ("events", "public_events", "players"):
                        a, b = list(a), list(b)
                    assert a == b, (n, name)
            hand.act(rng.choice(hand.legal_actions()))
