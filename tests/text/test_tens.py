"""A ten is written "10" in every name of a hand, as the cards show it (issue 12, point 10):
"10-6-4-2-A low", never "T-6-4-2-A low", in English and German, in a hand's name, in what up
cards show, and in a text history, which the terminal and the web's last hands both print."""

from __future__ import annotations

import pytest

from stud.cards import Deck, parse_cards
from stud.engine import ActionKind, Hand, HandValue, ValueKind
from stud.evaluate.values import showing_of
from stud.history.text import text_history
from stud.rules import PROFILES, Stakes, Variant
from stud.text import LANGUAGES, words

LOW = {"en": "10-6-4-2-A low", "de": "10-6-4-2-A Low"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_ten_low_is_named_with_10(lang: str) -> None:
    value = HandValue.of(ValueKind.A5, parse_cards("Td6d4h2cAsKdKh"))
    assert [r.char for r in value.ranks] == ["T", "6", "4", "2", "A"]
    assert words(lang).hand(value) == LOW[lang]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_up_cards_that_show_a_ten_low_say_10(lang: str) -> None:
    text = words(lang).showing(showing_of(True, parse_cards("Td6dAs")))
    assert text.startswith("10-6-A") and "T" not in text.replace("Tief", "")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_name_with_a_ten_says_10_and_never_t(lang: str) -> None:
    hands = ("TsTd4h4c9s", "TsJdQhKcAs", "Ts9s5s3s2s", "TsTdTh2c2d", "Td9c7h5s3d")
    for cards in hands:
        for kind in (ValueKind.HIGH, ValueKind.A5):
            name = words(lang).hand(HandValue.of(kind, parse_cards(cards)))
            assert "T-" not in name and "-T" not in name and not name.startswith("T "), name


def _razz_hand() -> Hand:
    """Razz, heads-up, both calling to the showdown: seat 2 makes 10-6-4-2-A."""
    top = parse_cards("QsTdQd6dJc4hJhAsQh2cJsKdKsKh")  # dealt in turn, a burn before 4th on
    order = [*top[:6], None, *top[6:8], None, *top[8:10], None, *top[10:12], None, *top[12:]]
    rest = iter(c for c in Deck.ordered().cards if c not in set(top))
    deck = Deck.ordered([next(rest) if c is None else c for c in order])
    hand = Hand(Variant.RAZZ, Stakes.for_limit(2), [100, 100], PROFILES["standard"], deck)
    while not hand.is_over:
        legal = hand.legal_actions()
        hand.act(next(a for a in legal if a.kind in (ActionKind.CHECK, ActionKind.CALL,
                                                      ActionKind.BRING_IN, ActionKind.SHOW)),
                 hand.to_act)
    return hand


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_text_history_names_the_ten_low_with_10(lang: str) -> None:
    hand = _razz_hand()
    assert [str(c) for c in hand.cards[1]] == ["Td", "6d", "4h", "As", "2c", "Kd", "Kh"]
    text = "\n".join(text_history(hand.public_events(), lang=lang))
    assert LOW[lang] in text
    assert "T-6" not in text
