"""RULES.md section 10: what a hand history records.

The engine's events are the record; the readable text history and PHH are folds over them.
PHH carries the antes, the deal, the actions, the shows and mucks and the finishing stacks;
the pots (who won how much, with what, high and low apart) are in the events and the text
history.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from scenarios import STAKES, hand_with, passive, play
from stud.cards import Deck, parse_cards
from stud.engine import (
    Action,
    ActionKind,
    ActionTaken,
    AntePosted,
    CardDealt,
    Category,
    Half,
    Hand,
    HandEnded,
    HandMucked,
    HandShown,
    HandValue,
    PotAwarded,
    UncalledReturned,
)
from stud.history.phh import PHHError, dumps, from_hand, loads
from stud.history.replay import replay
from stud.history.text import text_history
from stud.rules import PROFILES

# ---------------------------------------------------------------- the hands


def facts(value: HandValue | None) -> tuple[Category, str] | None:
    """A hand value as its category and the ranks that name it, as the cards write them."""
    return None if value is None else (value.category, "".join(r.char for r in value.ranks))


def main_hand() -> Hand:
    """Seat 1 brings in and folds; seat 2 (three kings) beats seat 3 (a pair of queens)."""
    hand = hand_with("stud", {1: "As Ad 2c 3c 8d Jh 9c", 2: "Ks Kd 9h 3d 4c 5d Kh",
                              3: "Qs Qd Th 7s 6h 5s 4s"})
    play(hand, "b", "cbr 2", "cbr 4", "f", "c")  # third street
    play(hand, "cbr 2", "c")  # fourth: seat 3 (T-7) bets, seat 2 calls
    play(hand, "k", "cbr 4", "c")  # fifth: seat 3 checks, seat 2 bets, seat 3 calls
    play(hand, "k", "k")  # sixth
    play(hand, "cbr 4", "cbr 8", "c")  # seventh: seat 3 bets, seat 2 raises, seat 3 calls
    assert hand.is_over
    return hand


MAIN_ACTIONS = [
    "p1 pb", "p2 cbr 2", "p3 cbr 4", "p1 f", "p2 cc",
    "p3 cbr 2", "p2 cc",
    "p3 cc", "p2 cbr 4", "p3 cc",
    "p3 cc", "p2 cc",
    "p3 cbr 4", "p2 cbr 8", "p3 cc",
]


def contested_hand() -> Hand:
    """Seat 2 shows two pair first; seat 1's flush beats it: both hands are shown."""
    return passive(hand_with("stud", {1: "2h 9h Kh 4h 7c 7d Jh", 2: "Ac 3c Qs Qd 8s 3d 6s"}))


def uncalled_hand() -> Hand:
    """Seat 2 calls all in for less than seat 1's raise; the rest comes back to seat 1."""
    hand = hand_with("stud", {1: "As Ad 9c Qd 3d Td 7c", 2: "Ks Kd 2c Jh Jc 3c 5h"},
                     stacks=[100, 6])
    return play(hand, "b", "cbr 2", "cbr 4", "cbr 6", "c")


def all_in_hand() -> Hand:
    """Seat 1 is all in on third street with aces; seat 2's seventh card makes three kings."""
    hand = hand_with("stud", {1: "As Ad 2c 3c 8d Jh 9c", 2: "Ks Kd 9h 3d 4c 5d Kh"},
                     stacks=[5, 100])
    return play(hand, "cbr 2", "cbr 4", "c")


def quarter_hand() -> Hand:
    """Stud8: seat 1 has kings full; seats 2 and 3 tie for low with 6-4-3-2-A; pot 12."""
    hand = hand_with("stud8", {1: "Kc Kd Ks Qh Qd 9s 9h", 2: "Ad 2d 3h 4s 6c Jc Tc",
                               3: "Ac 2c 3d 4h 6s Jd Td"})
    play(hand, "b", "c", "c", "cbr 2", "c", "c")
    return passive(hand)


def side_pot_hand() -> Hand:
    """Stud8 with a side pot: seat 1 all in for 2 on third street."""
    hand = hand_with("stud8", {1: "Ac 2c 3d 4h 6s Kd Qh", 2: "Kc Ks Qs Qd Jh Jd 9s",
                               3: "7d 5d 4c 3h 2s Ts 9h"}, stacks=[3, 100, 100])
    play(hand, "cbr 2", "c", "c", "cbr 2", "c")
    return passive(hand)


def razz_hand() -> Hand:
    hand = hand_with("razz", {1: "5c 4d 3h 2s Ac Kd Kh", 2: "6c 4c 3d 2d Ad Qs Qh",
                              3: "9c 9d Js"})
    play(hand, "b", "cbr 2", "f", "c")  # seat 3's Js brings in, seat 1 completes
    return passive(hand)


def community_hand() -> Hand:
    """Eight players to seventh street: one community card."""
    return passive(Hand("stud", STAKES, [100] * 8, PROFILES["standard"], Deck.ordered()))


def reshuffle_hand() -> Hand:
    """Eight players under the pokerkit profile, one folds: the burns and muck are reshuffled."""
    return passive(Hand("stud8", STAKES, [100] * 8, PROFILES["pokerkit"], Deck.ordered()),
                   fold_on_third=(2,))


def custom_rules_hand() -> Hand:
    rules = PROFILES["standard"].with_policies(odd_chip="seat", max_bets=5)
    hand = hand_with("stud", {1: "Ah Kh Qc Jc 9d 4s 2s", 2: "As Ks Qd Jd 9c 4h 2h",
                              3: "5c 6d Kc"}, rules=rules)
    play(hand, "b", "c", "f")
    return passive(hand)


HANDS: dict[str, Callable[[], Hand]] = {
    "main": main_hand,
    "contested": contested_hand,
    "uncalled": uncalled_hand,
    "all_in": all_in_hand,
    "quarter": quarter_hand,
    "side_pot": side_pot_hand,
    "razz": razz_hand,
    "community": community_hand,
    "reshuffle": reshuffle_hand,
    "custom_rules": custom_rules_hand,
}


# ---------------------------------------------------------------- what is recorded


def test_history_records_antes():
    hand = main_hand()
    assert hand.events[:3] == [AntePosted(1, 1, False), AntePosted(2, 1, False),
                               AntePosted(3, 1, False)]
    assert from_hand(hand).antes == [1, 1, 1]
    assert text_history(hand.events)[:3] == ["Seat 1 posts the ante 1", "Seat 2 posts the ante 1",
                                             "Seat 3 posts the ante 1"]


def test_history_records_every_card_dealt_up_or_down():
    hand = main_hand()
    dealt = [(e.street, e.card, e.up) for e in hand.events
             if isinstance(e, CardDealt) and e.seat == 2]
    cards = parse_cards("Ks Kd 9h 3d 4c 5d Kh")
    assert dealt == [(3, cards[0], False), (3, cards[1], False), (3, cards[2], True),
                     (4, cards[3], True), (5, cards[4], True), (6, cards[5], True),
                     (7, cards[6], False)]
    # Seat 1 folded on third street and got no more cards.
    assert len([e for e in hand.events if isinstance(e, CardDealt) and e.seat == 1]) == 3
    deals = [a for a in from_hand(hand).actions if a.startswith("d ")]
    assert deals == ["d dh p1 AsAd2c", "d dh p2 KsKd9h", "d dh p3 QsQdTh",
                     "d dh p2 3d", "d dh p3 7s", "d dh p2 4c", "d dh p3 6h",
                     "d dh p2 5d", "d dh p3 5s", "d dh p2 Kh", "d dh p3 4s"]
    text = text_history(hand.events)
    assert "  Seat 2: [Ks] [Kd] 9h" in text
    assert "  Seat 2: 3d" in text
    assert "  Seat 2: [Kh]" in text


def test_history_records_bring_in_completion_bets_raises_calls_checks_folds():
    hand = main_hand()
    assert [a for a in from_hand(hand).actions if not a.startswith("d ") and " sm" not in a] \
        == MAIN_ACTIONS
    kinds = [(e.seat, e.street, e.action.kind, e.action.to, e.added) for e in hand.events
             if isinstance(e, ActionTaken)]
    K = ActionKind
    assert kinds == [
        (1, 3, K.BRING_IN, 1, 1), (2, 3, K.COMPLETE, 2, 2), (3, 3, K.RAISE, 4, 4),
        (1, 3, K.FOLD, 0, 0), (2, 3, K.CALL, 4, 2),
        (3, 4, K.BET, 2, 2), (2, 4, K.CALL, 2, 2),
        (3, 5, K.CHECK, 0, 0), (2, 5, K.BET, 4, 4), (3, 5, K.CALL, 4, 4),
        (3, 6, K.CHECK, 0, 0), (2, 6, K.CHECK, 0, 0),
        (3, 7, K.BET, 4, 4), (2, 7, K.RAISE, 8, 8), (3, 7, K.CALL, 8, 4),
    ]
    text = text_history(hand.events)
    for line in ("Seat 1 brings in for 1", "Seat 2 completes to 2", "Seat 3 raises to 4",
                 "Seat 1 folds", "Seat 2 calls 2", "Seat 3 bets 2", "Seat 3 checks",
                 "Seat 2 raises to 8", "Seat 3 calls 4"):
        assert line in text


def test_history_records_all_ins_and_uncalled_bets_returned():
    hand = uncalled_hand()
    calls = [e for e in hand.events if isinstance(e, ActionTaken) and e.seat == 2
             and e.action.kind is ActionKind.CALL]
    assert calls == [ActionTaken(2, 3, Action(ActionKind.CALL, 5), 1, True)]
    assert UncalledReturned(1, 1) in hand.events
    assert hand.events.index(UncalledReturned(1, 1)) == hand.events.index(calls[0]) + 1
    text = text_history(hand.events)
    assert "Seat 2 calls 1 and is all in" in text
    assert "Uncalled 1 returned to Seat 1" in text
    assert hand.stacks == [94, 12]


def test_history_records_shown_and_mucked_hands():
    hand = main_hand()
    records = [e for e in hand.events if isinstance(e, HandShown | HandMucked)]
    assert [type(e) for e in records] == [HandShown, HandMucked]
    shown, mucked = records
    assert isinstance(shown, HandShown) and mucked == HandMucked(3)
    assert (shown.seat, shown.cards) == (2, parse_cards("Ks Kd 9h 3d 4c 5d Kh"))
    assert (facts(shown.high), shown.low) == ((Category.THREE_OF_A_KIND, "K95"), None)
    assert from_hand(hand).actions[-2:] == ["p2 sm KsKd9h3d4c5dKh", "p3 sm"]
    text = text_history(hand.events)
    assert "Seat 2 shows Ks Kd 9h 3d 4c 5d Kh (Three of a Kind, Kings)" in text
    assert "Seat 3 mucks" in text


def test_history_records_each_pot_with_its_winners_amounts_and_hand():
    hand = contested_hand()
    assert [(e.pot, e.amount, e.shares, facts(e.high)) for e in hand.events
            if isinstance(e, PotAwarded)] == [(0, 4, ((1, 4),), (Category.FLUSH, "KJ942"))]
    wins = [line for line in text_history(hand.events) if " wins " in line]
    assert len(wins) == 1
    assert wins[0].startswith("Seat 1 wins 4 from the main pot")
    assert wins[0].endswith(" with Flush, King high")


def test_history_records_side_pots_separately():
    hand = side_pot_hand()
    text = text_history(hand.events)
    assert text[-4:] == [
        "Seat 2 wins 2 from side pot 1 (high) with Two Pair, Kings and Queens",
        "Seat 3 wins 2 from side pot 1 (low) with 7-5-4-3-2 low",
        "Seat 2 wins 5 from the main pot (high) with Two Pair, Kings and Queens",
        "Seat 1 wins 4 from the main pot (low) with 6-4-3-2-A low",
    ]


def test_history_names_the_winning_hand_when_the_others_muck():
    # Seat 2 shows three kings and seat 3 mucks: the pot was still won at a showdown, with
    # three kings, and the history says so.
    hand = main_hand()
    awards = [e for e in hand.events if isinstance(e, PotAwarded)]
    assert [(e.amount, dict(e.shares)) for e in awards] == [(40, {2: 40})]
    assert not awards[0].uncontested
    assert facts(awards[0].high) == (Category.THREE_OF_A_KIND, "K95")
    wins = [line for line in text_history(hand.events) if " wins " in line]
    assert len(wins) == 1
    assert wins[0].startswith("Seat 2 wins 40 from the main pot")
    assert wins[0].endswith(" with Three of a Kind, Kings")


def test_stud8_history_records_high_and_low_parts_separately():
    hand = quarter_hand()
    assert [(e.pot, e.amount, e.half, dict(e.shares), facts(e.high), facts(e.low))
            for e in hand.events if isinstance(e, PotAwarded)] == [
        (0, 6, Half.HIGH, {1: 6}, (Category.FULL_HOUSE, "KQ"), None),
        (0, 6, Half.LOW, {2: 3, 3: 3}, None, (Category.LOW, "6432A")),
    ]
    text = text_history(hand.events)
    assert "Seat 1 wins 6 from the main pot (high) with Full House, Kings over Queens" in text
    assert "Seat 2 wins 3 from the main pot (low) with 6-4-3-2-A low" in text
    assert "Seat 3 wins 3 from the main pot (low) with 6-4-3-2-A low" in text


def test_history_records_the_final_stacks():
    hand = main_hand()
    assert hand.events[-1] == HandEnded((98, 121, 81))
    assert from_hand(hand).finishing_stacks == [98, 121, 81]
    assert "finishing_stacks = [98, 121, 81]" in dumps(from_hand(hand))


def test_history_uses_the_phh_variant_codes():
    assert from_hand(main_hand()).variant == "F7S"
    assert from_hand(quarter_hand()).variant == "F7S/8"
    assert from_hand(razz_hand()).variant == "FR"


def test_history_records_a_community_card_as_d_db():
    hand = community_hand()
    # The community card is face up: the public history shows it too.
    assert "d db As" in from_hand(hand, viewer=None).actions
    actions = from_hand(hand).actions
    assert "d db As" in actions
    at = actions.index("d db As")
    # After sixth street's cards and betting round (seat 8 first), before seventh street's.
    assert actions[at - 9] == "d dh p8 Ah"
    assert actions[at - 8:at] == ["p8 cc"] + [f"p{s} cc" for s in range(1, 8)]
    assert actions[at + 1:at + 9] == ["p8 cc"] + [f"p{s} cc" for s in range(1, 8)]
    assert not [a for a in actions[at:] if a.startswith("d dh")]


# ---------------------------------------------------------------- hidden cards


def test_public_history_writes_hidden_cards_as_question_marks():
    history = from_hand(main_hand(), viewer=None)
    deals = [a for a in history.actions if a.startswith("d ")]
    assert deals == ["d dh p1 ????2c", "d dh p2 ????9h", "d dh p3 ????Th",
                     "d dh p2 3d", "d dh p3 7s", "d dh p2 4c", "d dh p3 6h",
                     "d dh p2 5d", "d dh p3 5s", "d dh p2 ??", "d dh p3 ??"]
    # Seat 2's hand is shown; seat 3's and seat 1's down cards appear nowhere.
    assert history.actions[-2:] == ["p2 sm KsKd9h3d4c5dKh", "p3 sm"]
    text = dumps(history)
    for card in ("As", "Ad", "Qs", "Qd", "4s"):
        assert card not in text


def test_seat_history_shows_that_seats_own_down_cards_only():
    deals = [a for a in from_hand(main_hand(), viewer=3).actions if a.startswith("d ")]
    assert deals == ["d dh p1 ????2c", "d dh p2 ????9h", "d dh p3 QsQdTh",
                     "d dh p2 3d", "d dh p3 7s", "d dh p2 4c", "d dh p3 6h",
                     "d dh p2 5d", "d dh p3 5s", "d dh p2 ??", "d dh p3 4s"]


def test_public_history_of_an_all_in_hand_shows_every_live_card():
    history = from_hand(all_in_hand(), viewer=None)
    shows = [a for a in history.actions if " sm " in a]
    assert "p1 sm AsAd2c3c8dJh9c" in shows
    assert "p2 sm KsKd9h3d4c5dKh" in shows


# ---------------------------------------------------------------- rules and round trips


def test_history_writes_the_profile_in_the_rules_field():
    assert from_hand(main_hand()).fields["_rules"] == "standard"
    assert 'ante_trimming_status = true' in dumps(from_hand(main_hand()))
    assert '_rules = "standard"' in dumps(from_hand(main_hand()))
    reshuffled = from_hand(reshuffle_hand())
    assert reshuffled.fields["_rules"] == "pokerkit"
    assert loads(dumps(reshuffled)).rules() == PROFILES["pokerkit"]
    custom = from_hand(custom_rules_hand())
    text = dumps(custom)
    assert '_rules = "standard"' in text
    assert '_rule_odd_chip = "seat"' in text
    assert "_rule_max_bets = 5" in text
    read = loads(text).rules()
    assert read.odd_chip == "seat" and read.max_bets == 5
    assert read.differences(PROFILES["standard"]) == {"odd_chip": "seat", "max_bets": 5}


@pytest.mark.parametrize("name", list(HANDS))
def test_written_phh_round_trips_through_loads_and_dumps(name):
    hand = HANDS[name]()
    for viewer in (0, None, 1):
        history = from_hand(hand, viewer=viewer)
        text = dumps(history)
        again = loads(text)
        assert again == history
        assert dumps(again) == text


def test_phh_fields_of_every_toml_kind_and_any_name_are_written_back_as_read():
    """PHH's own ``time`` (12:30:00), dates, a table, and a quoted field name: whatever
    ``loads`` read, ``dumps`` writes back, and it reads the same again."""
    text = dumps(from_hand(HANDS[next(iter(HANDS))]()))
    text += ('time = 12:30:00\nday = 2024-06-01\nwhen = 2024-06-01T12:00:00+00:00\n'
             '"my key" = 1\n_extra = {"a b" = [1, 2.5, inf], c = "x"}\nx = "a\\u007fb"\n')
    history = loads(text)
    assert history.fields["my key"] == 1 and str(history.fields["time"]) == "12:30:00"
    again = dumps(history)
    assert '"my key" = 1' in again and "time = 12:30:00" in again
    assert loads(again) == history


@pytest.mark.parametrize(("line", "field"), [
    ('ante_trimming_status = "false"', "ante_trimming_status must be true or false"),
    ("antes = true", "antes must be a list of whole numbers"),
    ("starting_stacks = [true, 100]", "starting_stacks must be a list of whole numbers"),
    ("antes = [1]", "antes must hold one ante for each of the 3 players (or one number for all), "
                    "not 1: [1]"),
    ("finishing_stacks = [1, 2]", "finishing_stacks must hold one stack for each of the 3 "
                                  "players, not 2"),
])
def test_phh_fields_of_the_wrong_kind_are_refused_naming_the_field(line, field):
    name = line.split(" =")[0]
    text = "\n".join(row for row in dumps(from_hand(HANDS[next(iter(HANDS))]())).splitlines()
                     if not row.startswith(name + " ="))
    with pytest.raises(PHHError, match=re.escape(field)):
        loads(text + "\n" + line + "\n")


@pytest.mark.parametrize("name", list(HANDS))
def test_written_phh_replays_to_the_same_finishing_stacks(name):
    hand = HANDS[name]()
    history = loads(dumps(from_hand(hand)))
    result = replay(history, history.rules())
    assert list(result.finishing_stacks) == hand.stacks == history.finishing_stacks
    assert result.hand.cards == hand.cards
    assert result.hand.board == hand.board


@pytest.mark.parametrize("name", list(HANDS))
def test_public_phh_replays_to_the_same_finishing_stacks(name):
    hand = HANDS[name]()
    history = loads(dumps(from_hand(hand, viewer=None)))
    result = replay(history, history.rules())
    assert list(result.finishing_stacks) == hand.stacks == history.finishing_stacks


@pytest.mark.parametrize("name", ["main", "quarter", "side_pot"])
def test_replay_accepts_show_and_muck_lines_in_the_order_written(name):
    hand = HANDS[name]()
    history = from_hand(hand)
    shows = [a for a in history.actions if " sm" in a]
    assert len(shows) >= 2
    rest = [a for a in history.actions if " sm" not in a]
    history.actions = rest + list(reversed(shows))
    result = replay(loads(dumps(history)), history.rules())
    assert list(result.finishing_stacks) == hand.stacks


def test_history_tells_your_own_seat_in_the_second_person():
    hand = main_hand()
    text = text_history(hand.events, you=1)
    for line in ("You post the ante 1", "You bring in: lowest up card 2c", "You bring in for 1",
                 "You fold", "Seat 2 completes to 2"):
        assert line in text
    assert not [line for line in text if "You brings" in line or "You posts" in line]
    assert "Uncalled 1 returned to you" in text_history(uncalled_hand().events, you=1)
    german = text_history(hand.events, lang="de", you=2)
    for line in ("Du setzt die Ante 1", "Du komplettierst auf 2",
                 "Du zeigst Ks Kd 9h 3d 4c 5d Kh (Drilling, Könige)",
                 "Du gewinnst 40 aus dem Hauptpot: Drilling, Könige"):
        assert line in german


@pytest.mark.parametrize("viewer", [9, -1, "1", 1.0])
def test_a_history_for_a_viewer_not_in_the_hand_is_refused_naming_it(viewer: object) -> None:
    hand = Hand("stud", STAKES, [100, 100], deck=Deck.seeded(1))
    with pytest.raises(ValueError, match=f"viewer {re.escape(repr(viewer))} is not in this hand"):
        from_hand(hand, viewer)  # type: ignore[arg-type]
