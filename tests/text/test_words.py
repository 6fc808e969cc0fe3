"""Facts into words: hand names, reasons for acting first and awards, in English and German,
from one catalogue per language (``stud.text``)."""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Sequence
from itertools import product

import pytest

from evaluate.reference import cards_of, rank_multisets
from scenarios import hand_with, passive, play, to_street
from stud.cards import Card, parse_cards
from stud.engine import (
    Action,
    ActionKind,
    ActionTaken,
    Category,
    FirstToAct,
    Half,
    HandValue,
    Opener,
    PotAwarded,
    Showing,
    ValueKind,
)
from stud.evaluate.values import showing_of
from stud.rules import PROFILES, Stakes
from stud.text import LANGUAGES, catalogue, words

EN = words("en")
DE = words("de")


def value(kind: str, cards: str | Sequence[int]) -> HandValue:
    held = parse_cards(cards) if isinstance(cards, str) else [Card.from_id(c) for c in cards]
    return HandValue.of(ValueKind(kind), held)


def rendered(text: str) -> str:
    """``text``, checked to have no placeholder left unfilled."""
    assert text and "{" not in text and "}" not in text, text
    return text


# ---------------------------------------------------------------- the catalogues


def placeholders(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


def test_english_and_german_catalogues_have_the_same_keys_and_placeholders() -> None:
    en, de = catalogue("en"), catalogue("de")
    assert sorted(set(en) - set(de)) == []
    assert sorted(set(de) - set(en)) == []
    differing = [key for key in en if placeholders(en[key]) != placeholders(de[key])]
    assert differing == []


def test_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="en or de"):
        catalogue("fr")


# ---------------------------------------------------------------- high hands


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
    assert EN.hand(value("high", cards)) == name


@pytest.mark.parametrize(
    ("cards", "name"),
    [
        ("AsKsQsJsTs", "Royal Flush"),
        ("KsQsJsTs9s", "Straight Flush, König hoch"),
        ("9c9d9h9sAs", "Vierling, Neunen"),
        ("KsKdKc4s4d", "Full House, Könige über Vieren"),
        ("AhJh9h5h2h", "Flush, Ass hoch"),
        ("5s4d3c2hAh", "Straße, Fünf hoch"),
        ("TsTdTc8s2d", "Drilling, Zehnen"),
        ("AsAdTcTh2h", "Zwei Paare, Asse und Zehnen"),
        ("QsQdAcKh2h", "Ein Paar, Damen"),
        ("JsKd9c3h2h", "Höchste Karte, König"),
    ],
)
def test_high_names_in_german(cards: str, name: str) -> None:
    assert DE.hand(value("high", cards)) == name


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
    seen: Counter[Category] = Counter()
    classes = set()
    for ranks in rank_multisets(5):
        variants = [cards_of(ranks)]
        if len(set(ranks)) == 5:
            variants.append([variants[0][0] + 1, *variants[0][1:]])  # not suited
        for hand in variants:
            held = value("high", hand)
            assert EN.hand(held) == expected_high_name(hand), hand
            rendered(DE.hand(held))
            seen[held.category] += 1
            classes.add(held.value)
    assert set(seen) == set(Category) - {Category.LOW, Category.NO_LOW}
    assert sum(seen.values()) == len(classes) == 7462


# ---------------------------------------------------------------- lows


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
    assert EN.hand(value("low8", cards)) == name


def test_no_low_is_named_no_low() -> None:
    held = value("low8", "9s6d4h2cAsKdKh")
    assert held.category is Category.NO_LOW and not held.qualified
    assert (EN.hand(held), DE.hand(held)) == ("no low", "kein Low")
    assert DE.hand(value("low8", "8s6d4h2cAs")) == "8-6-4-2-A Low"


@pytest.mark.parametrize(
    ("cards", "name"),
    [
        ("7s5d4h3c2s", "7-5-4-3-2 low"),
        ("As2s3s4s5s", "5-4-3-2-A low"),
        ("KsQdJhTc9s", "K-Q-J-10-9 low"),
        ("AsAd4h3c2s", "One Pair (A-A-4-3-2)"),
        ("AsAdAh4c3s2d2h", "One Pair (A-A-4-3-2)"),
        ("KsKdQhQcJs", "Two Pair (K-K-Q-Q-J)"),
        ("7s7d7h3c2s", "Three of a Kind (7-7-7-3-2)"),
        ("7s7d7h3c3s", "Full House (7-7-7-3-3)"),
        ("7s7d7h7c3s", "Four of a Kind (7-7-7-7-3)"),
        ("TsTdTh9c9s8d", "Two Pair (10-10-9-9-8)"),
    ],
)
def test_a5_names_list_the_five_cards_pairs_first(cards: str, name: str) -> None:
    assert EN.hand(value("a5", cards)) == name


@pytest.mark.parametrize(
    ("cards", "name"),
    [
        ("7s5d4h3c2s", "7-5-4-3-2 Low"),
        ("AsAd4h3c2s", "Ein Paar (A-A-4-3-2)"),
        ("KsKdQhQcJs", "Zwei Paare (K-K-Q-Q-J)"),
        ("7s7d7h3c2s", "Drilling (7-7-7-3-2)"),
        ("7s7d7h3c3s", "Full House (7-7-7-3-3)"),
        ("7s7d7h7c3s", "Vierling (7-7-7-7-3)"),
    ],
)
def test_a5_names_in_german(cards: str, name: str) -> None:
    assert DE.hand(value("a5", cards)) == name


LOW_CHARS = "A23456789TJQK"  # ace low


def low_char(card_id: int) -> str:
    return "23456789TJQKA"[card_id >> 2]


def shown(chars: Sequence[str]) -> str:
    """Ranks as the names write them: the ten as 10."""
    return "-".join("10" if ch == "T" else ch for ch in chars)


def test_every_low8_is_named_by_its_five_cards_highest_first() -> None:
    names = set()
    for ranks in rank_multisets(5):
        hand = cards_of(ranks)
        name = EN.hand(value("low8", hand))
        chars = sorted((low_char(c) for c in hand), key=LOW_CHARS.index, reverse=True)
        if len(set(chars)) == 5 and all(LOW_CHARS.index(ch) < 8 for ch in chars):
            assert name == shown(chars) + " low"
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
        listed = shown([ch for ch in order for _ in range(counts[ch])])
        kind = kinds[tuple(sorted(counts.values(), reverse=True))]
        expected = f"{listed} low" if kind is None else f"{kind} ({listed})"
        held = value("a5", hand)
        assert EN.hand(held) == expected
        rendered(DE.hand(held))


# One hand of each category of each kind of value.
EXAMPLES = {
    ValueKind.HIGH: {
        Category.HIGH_CARD: "AsKd9c3h2h", Category.ONE_PAIR: "9s9dAcKh2h",
        Category.TWO_PAIR: "AsAdTcTh2h", Category.THREE_OF_A_KIND: "TsTdTc8s2d",
        Category.STRAIGHT: "5s4d3c2hAh", Category.FLUSH: "AhJh9h5h2h",
        Category.FULL_HOUSE: "KsKdKc4s4d", Category.FOUR_OF_A_KIND: "9c9d9h9sAs",
        Category.STRAIGHT_FLUSH: "KsQsJsTs9s", Category.ROYAL_FLUSH: "AsKsQsJsTs",
    },
    ValueKind.LOW8: {Category.LOW: "8s6d4h2cAs", Category.NO_LOW: "9s6d4h2cAs"},
    ValueKind.A5: {
        Category.LOW: "7s5d4h3c2s", Category.ONE_PAIR: "AsAd4h3c2s",
        Category.TWO_PAIR: "KsKdQhQcJs", Category.THREE_OF_A_KIND: "7s7d7h3c2s",
        Category.FULL_HOUSE: "7s7d7h3c3s", Category.FOUR_OF_A_KIND: "7s7d7h7c3s",
    },
}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("kind", "category"), [(kind, category) for kind in EXAMPLES
                                                for category in EXAMPLES[kind]])
def test_every_category_of_every_kind_is_named_in_both_languages(
        lang: str, kind: ValueKind, category: Category) -> None:
    held = value(kind.value, EXAMPLES[kind][category])
    assert held.category is category
    rendered(words(lang).hand(held))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("lowball", "cards", "category"), [
    (False, "As Kd 7c", Category.HIGH_CARD), (False, "Ks Kd 7c", Category.ONE_PAIR),
    (False, "Ks Kd 7c 7d", Category.TWO_PAIR), (False, "Ks Kd Kc 7d", Category.THREE_OF_A_KIND),
    (False, "Ks Kd Kc 7c", Category.THREE_OF_A_KIND),
    (False, "Ks Kd Kc Kh", Category.FOUR_OF_A_KIND),
    (True, "6s 4d Ac", Category.HIGH_CARD), (True, "6s 6d Ac", Category.ONE_PAIR),
    (True, "6s 6d Ac Ad", Category.TWO_PAIR), (True, "6s 6d 6c Ad", Category.THREE_OF_A_KIND),
    (True, "6s 6d 6c 6h", Category.FOUR_OF_A_KIND),
])
def test_every_showing_is_said_in_both_languages(lang: str, lowball: bool, cards: str,
                                                 category: Category) -> None:
    showing = showing_of(lowball, parse_cards(cards))
    assert showing.category is category
    rendered(words(lang).showing(showing))


def test_showings_read_as_a_player_says_them() -> None:
    assert EN.showing(showing_of(False, parse_cards("Ks Kd 7c"))) == "a pair of Kings"
    assert EN.showing(showing_of(False, parse_cards("As Kd 7c"))) == "A-K-7 high"
    assert EN.showing(showing_of(True, parse_cards("6s 4d Ac"))) == "6-4-A low"
    assert DE.showing(showing_of(False, parse_cards("Ks Kd 7c"))) == "ein Paar Könige"
    assert isinstance(showing_of(False, parse_cards("Ks Kd")), Showing)


# ---------------------------------------------------------------- who acts first


def reasons() -> dict[str, FirstToAct]:
    """A real reason for each opener the engine gives on its own, from a hand."""
    stud = hand_with("stud", {1: "As Kd 2c 5d", 2: "2h 3d Qh Qd", 3: "7c 8c 9h Jd"})
    razz = hand_with("razz", {1: "As Kd 2c 3d", 2: "Qh Qd Kh 5s", 3: "7c 8c 9h Ah"})
    found = {"low_card": stud.why, "high_card": razz.why}
    to_street(stud, 4)
    to_street(razz, 4)
    found["best_hand"], found["best_hand.lowball"] = stud.why, razz.why
    assert all(why is not None for why in found.values())
    return {k: why for k, why in found.items() if why is not None}


def every_reason() -> list[FirstToAct]:
    """Each opener, with and without an all-in (or folded) decider, a tie and an open pair."""
    real = reasons()
    out = []
    for name, why in real.items():
        for opener in ([why.opener] if name != "best_hand" else
                       [Opener.BEST_HAND, Opener.SIXTH_STREET, Opener.NO_BETTING]):
            for all_in, tie, open_pair in product((False, True), repeat=3):
                out.append(why._replace(opener=opener, decider_all_in=all_in, tie=tie,
                                        open_pair=open_pair, seat=why.seat if not all_in
                                        else why.seat % 3 + 1))
    # Only sixth street's first actor can have folded by the time it decides (seventh street).
    out += [why._replace(decider_all_in=False, decider_folded=True) for why in out
            if why.opener is Opener.SIXTH_STREET and why.decider_all_in]
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_reason_for_acting_first_is_said_in_both_languages(lang: str) -> None:
    w = words(lang)
    seen = set()
    for why in every_reason():
        seen.add(why.opener)
        for you in (None, why.decider, why.seat):
            text = rendered(w.first_to_act(why, you=you))
            if why.opener is not Opener.NO_BETTING:
                assert (why.tie, why.open_pair) == (w.t("first.tie", rule=w.t(
                    "first.tie.seat")) in text, w.t("first.open_pair") in text)
    assert seen == set(Opener)


def test_the_reason_names_the_first_actor_and_the_deciding_cards() -> None:
    real = reasons()
    assert EN.first_to_act(real["low_card"]) == "Seat 1 brings in: lowest up card 2c"
    assert EN.first_to_act(real["high_card"], you=2) == "You bring in: highest up card Kh"
    best = real["best_hand"]
    assert best.open_pair and not best.tie and not best.decider_all_in
    assert EN.first_to_act(best) == ("Seat 2 acts first: best up cards, a pair of Queens; open "
                                     "pair: the big bet is allowed")
    best = best._replace(open_pair=False)
    assert EN.first_to_act(best, you=2) == "You act first: best up cards, a pair of Queens"
    assert DE.first_to_act(best, you=2) == "Du beginnst: beste offene Karten, ein Paar Damen"
    assert EN.first_to_act(real["best_hand.lowball"]) == ("Seat 1 acts first: lowest up cards, "
                                                          "3-2 low")


def test_an_all_in_decider_is_told_with_who_acts_in_its_place() -> None:
    why = reasons()["best_hand"]._replace(decider=2, seat=3, decider_all_in=True, open_pair=False)
    assert EN.first_to_act(why) == ("Seat 2 acts first: best up cards, a pair of Queens; Seat 2 is "
                                    "all in, so Seat 3, next to the left, acts in their place")
    assert EN.first_to_act(why, you=2) == (
        "You act first: best up cards, a pair of Queens; you are all in, so Seat 3, next to the "
        "left, acts in your place")
    assert EN.first_to_act(why, you=3).endswith(
        "; Seat 2 is all in, so you, next to the left, act in their place")
    assert DE.first_to_act(why, you=3).endswith(
        "; Platz 2 ist all-in, also beginnst du, der Nächste links, an seiner Stelle")
    bring_in = reasons()["low_card"]._replace(decider=1, seat=2, decider_all_in=True)
    assert EN.first_to_act(bring_in, you=2) == ("Seat 1 brings in: lowest up card 2c; Seat 1 is "
                                                "all in from the ante, so you act in their place")


# ---------------------------------------------------------------- actions and streets


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_action_and_street_is_said_in_both_languages(lang: str) -> None:
    w = words(lang)
    for kind in ActionKind:
        action = Action(kind, 0 if kind in (ActionKind.FOLD, ActionKind.CHECK, ActionKind.SHOW,
                                            ActionKind.MUCK) else 5)
        rendered(w.action(action))
        for you, all_in in product((False, True), repeat=2):
            rendered(w.taken(ActionTaken(2, 4, action, 5, all_in), w.seat(2), you=you))
    for street in range(3, 8):
        rendered(w.street(street))


def test_actions_in_the_second_person() -> None:
    event = ActionTaken(1, 3, Action.bring_in(2), 2, False)
    assert EN.taken(event, "You", you=True) == "You bring in for 2"
    assert EN.taken(event, "Seat 1") == "Seat 1 brings in for 2"
    bet = ActionTaken(1, 4, Action.bet(10), 10, True)
    assert EN.taken(bet, "You", you=True) == "You bet 10 and are all in"
    assert DE.taken(bet, "Du", you=True) == "Du setzt 10 und bist all-in"


# ---------------------------------------------------------------- awards


SUIT = PROFILES["standard"].with_policies(odd_chip="suit")
SEAT = PROFILES["standard"].with_policies(odd_chip="seat")


def awards_of(hand_cards: dict[int, str], variant: str = "stud8", **options: object
              ) -> list[PotAwarded]:
    hand = passive(hand_with(variant, hand_cards, **options))  # type: ignore[arg-type]
    return [e for e in hand.events if isinstance(e, PotAwarded)]


def every_award() -> dict[str, list[PotAwarded]]:
    folded = hand_with("stud", {1: "As Kd 2c", 2: "Qh Qd 3h"})
    play(folded, "b", "f")
    return {
        "uncontested": [e for e in folded.events if isinstance(e, PotAwarded)],
        "high": awards_of({1: "Qh Qd 9c 8d 5s 3h Jc", 2: "Kc Kd As Ac 7h 2d Qs"}, "stud"),
        "razz": awards_of({1: "9c 7d 5h 3s 2c Kd Kh", 2: "Tc 8d 6h 4s 3c Qd Qh"}, "razz"),
        "halves": awards_of({1: "Kc Kd 9s Qh 5h Js 9d", 2: "7d 5d 4h 3h 2s Qs Jd"}),
        "no_low": awards_of({1: "9c 9d Kh Ks Qc 3d 5h", 2: "Ac Ad Qs Jd Th 9h 9s"}),
        "scoop_halves": awards_of({1: "Ah 2c 3d 4s 5h Kd Qc", 2: "Ks Kc Qd Qh 9s 9d 8c",
                                   3: "Js Jd Th Tc 9h 9c 7s"}),
        "scoop_identical": awards_of({1: "As 2d 3d 4d 5c Kc Qh", 2: "Ah 2h 3h 4c 5d Ks Qc"},
                                     stakes=Stakes(ante=2, bring_in=1, small_bet=2, big_bet=4),
                                     rules=SUIT),
        "odd_low_suit": awards_of({1: "Kc Kd Ks Qh Qd 9s 9h", 2: "Ad 2d 3h 4s 6c Jc Tc",
                                   3: "Ac 2c 3d 4h 6s Jd Td"}, rules=SUIT),
        "odd_low_seat": awards_of({1: "Kc Kd Ks Qh Qd 9s 9h", 2: "Ad 2d 3h 4s 6c Jc Tc",
                                   3: "Ac 2c 3d 4h 6s Jd Td"}, rules=SEAT),
        "odd_high_suit": awards_of({1: "Kc Ah Kd Qs Jh 9c 9d", 2: "Ks As Kh Qd Jc 9h 9s",
                                    3: "2c 3c Td 4d 5s 7h 8h"}, rules=SUIT),
    }


def test_the_award_examples_are_what_they_say() -> None:
    found = every_award()
    assert [a.uncontested for a in found["uncontested"]] == [True]
    assert [a.half for a in found["halves"]] == [Half.HIGH, Half.LOW]
    assert [(a.half, a.no_low) for a in found["no_low"]] == [(Half.ALL, True)]
    identical = found["scoop_identical"]
    assert len(identical) == 1 and identical[0].high is not None and identical[0].low is not None
    assert all(a.odd is not None for a in found["odd_low_suit"] if a.half is Half.LOW)
    assert all(a.odd is not None for a in found["odd_high_suit"] if a.half is Half.HIGH)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_kind_of_award_is_said_in_both_languages(lang: str) -> None:
    w = words(lang)
    for name, awards in every_award().items():
        for award in awards:
            for you in (None, *(seat for seat, _ in award.shares)):
                lines = w.award(award, you=you)
                assert len(lines) == len(award.shares), name
                for line in lines:
                    rendered(line)
            odd = w.odd_chips(award)
            assert (odd is None) == (award.odd is None), name
            if odd is not None:
                rendered(odd)
        for you in (None, 1, 2):
            scoop = w.scoop(awards, you=you)
            assert (scoop is not None) == name.startswith(("scoop_halves", "no_low")), name
            if scoop is not None:
                rendered(scoop)
    # A low half nobody could claim (the engine gives such a pot whole to the high hand).
    unclaimed = every_award()["halves"][1]._replace(low=None, no_low=True)
    rendered(w.award_hand(unclaimed))


def test_awards_read_as_a_player_says_them() -> None:
    found = every_award()
    assert EN.award(found["uncontested"][0]) == ["Seat 1 wins 2 from the main pot (uncontested)"]
    assert EN.award(found["high"][0], you=2) == [
        "You win 4 from the main pot with Two Pair, Aces and Kings"]
    assert EN.award(found["halves"][0]) == [
        "Seat 1 wins 2 from the main pot (high) with Two Pair, Kings and Nines"]
    assert EN.award(found["halves"][1]) == [
        "Seat 2 wins 2 from the main pot (low) with 7-5-4-3-2 low"]
    assert EN.award(found["no_low"][0]) == [
        "Seat 2 wins 4 from the main pot with Two Pair, Aces and Nines; no low, so the high "
        "hand takes the whole pot"]
    assert DE.award(found["no_low"][0]) == [
        "Platz 2 gewinnt 4 aus dem Hauptpot: Zwei Paare, Asse und Neunen; kein Low, also "
        "bekommt die High-Hand den ganzen Pot"]
    assert EN.scoop(found["no_low"]) == "Seat 2 scoops the main pot (4)"
    assert EN.scoop(found["scoop_halves"], you=1) == "You scoop the main pot (6)"
    assert EN.scoop(found["halves"]) is None
    # Two identical hands tie for both halves and share the pot: that is no scoop.
    shared = found["scoop_identical"][0]
    assert len(shared.shares) == 2
    assert EN.award(shared)[0].endswith("with Straight, Five high and 5-4-3-2-A low")
    assert all("scoop" not in line.lower() for line in EN.award(shared) + DE.award(shared))
    assert EN.scoop(found["scoop_identical"]) is None
    alone = shared._replace(shares=((1, shared.amount),))  # one player's both halves: a scoop
    assert EN.award(alone)[0].endswith("with Straight, Five high and 5-4-3-2-A low (scoop)")
    low = next(a for a in found["odd_low_suit"] if a.half is Half.LOW)
    assert EN.odd_chips(low) == "odd chip to Seat 3 (lowest card by suit)"
    high = next(a for a in found["odd_high_suit"] if a.half is Half.HIGH)
    assert EN.odd_chips(high) == "odd chip to Seat 2 (highest card by suit)"
    seat = next(a for a in found["odd_low_seat"] if a.half is Half.LOW)
    assert re.fullmatch(r"odd chip to Seat \d \(first clockwise from the dealer\)",
                        EN.odd_chips(seat) or "")
