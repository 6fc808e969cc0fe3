"""RULES.md section 9: the `standard` and `pokerkit` profiles, policy by policy, and each policy
settable on its own."""

from __future__ import annotations

import pytest

from scenarios import STAKES, hand_with, play
from stud.cards import Deck
from stud.engine import ActionKind, Hand
from stud.engine.events import CommunityCardDealt, PotAwarded, StubReshuffled
from stud.history.phh import from_hand
from stud.rules import POLICIES, PROFILES, Rules, RulesError, profile

STANDARD_VALUES = {
    "open_pair_big_bet": True,
    "max_bets": 4,
    "heads_up_uncapped": True,
    "first_actor_tie": "seat",
    "odd_chip": "suit",
    "deck_exhaustion": "community",
    "short_bring_in": "full",
    "short_all_in": "half_bet",
    "fold_facing_all_in_bring_in": True,
    "short_bring_in_completes": False,
    "all_in_raise_for_less": True,
    "odd_chip_shares": "one_each",
    "hi_lo_halves": "qualified",
    "scoop_split": "whole_pot",
    "all_in_muck": False,
    "free_fold": False,
}

POKERKIT_VALUES = {
    "open_pair_big_bet": False,
    "max_bets": 4,
    "heads_up_uncapped": False,
    "first_actor_tie": "seat",
    "odd_chip": "seat",
    "deck_exhaustion": "reshuffle",
    "short_bring_in": "posted",
    "short_all_in": "full_bet",
    "fold_facing_all_in_bring_in": False,
    "short_bring_in_completes": True,
    "all_in_raise_for_less": False,
    "odd_chip_shares": "all_to_first",
    "hi_lo_halves": "any_low",
    "scoop_split": "halves",
    "all_in_muck": True,
    "free_fold": False,
}

# Every value each policy may take (RULES.md sections 3-7 and 9).
CHOICES = {
    "open_pair_big_bet": (True, False),
    "max_bets": (4, 3, 5),
    "heads_up_uncapped": (True, False),
    "first_actor_tie": ("seat", "suit"),
    "odd_chip": ("suit", "seat"),
    "deck_exhaustion": ("community", "reshuffle"),
    "short_bring_in": ("full", "posted"),
    "short_all_in": ("half_bet", "full_bet"),
    "fold_facing_all_in_bring_in": (True, False),
    "short_bring_in_completes": (False, True),
    "all_in_raise_for_less": (True, False),
    "odd_chip_shares": ("one_each", "all_to_first"),
    "hi_lo_halves": ("qualified", "any_low"),
    "scoop_split": ("whole_pot", "halves"),
    "all_in_muck": (False, True),
    "free_fold": (False, True),
}


def policies(rules: Rules) -> dict[str, object]:
    return {p: getattr(rules, p) for p in POLICIES}


def test_the_policies_are_those_of_rules_md_section_9():
    # The eight of the table, then PokerKit's behaviours where the table is silent, each a
    # named policy of its own (never a test of the profile's name).
    assert set(POLICIES) == set(STANDARD_VALUES) == set(POKERKIT_VALUES) == set(CHOICES)


def test_standard_profile_policy_values():
    assert policies(PROFILES["standard"]) == STANDARD_VALUES
    assert profile("standard").name == "standard"


def test_pokerkit_profile_policy_values():
    assert policies(PROFILES["pokerkit"]) == POKERKIT_VALUES
    assert profile("pokerkit").name == "pokerkit"


def test_standard_is_the_default_profile():
    assert policies(Rules()) == STANDARD_VALUES
    hand = Hand("stud", STAKES, [100, 100], deck=Deck.ordered())
    assert hand.rules == PROFILES["standard"]
    assert from_hand(hand).fields["_rules"] == "standard"


def test_unknown_profile_is_refused():
    with pytest.raises(RulesError, match="unknown rules profile"):
        profile("wsop")


@pytest.mark.parametrize("base", ["standard", "pokerkit"])
@pytest.mark.parametrize("policy", list(CHOICES))
def test_each_policy_is_settable_on_its_own(base, policy):
    start = PROFILES[base]
    for value in CHOICES[policy]:
        changed = start.with_policies(**{policy: value})
        expected = dict(policies(start), **{policy: value})
        assert policies(changed) == expected
        if value != getattr(start, policy):
            assert changed.name == "custom"
            assert changed.differences(start) == {policy: value}
        else:
            assert changed == start


def test_a_policy_value_outside_its_choices_is_refused():
    for policy, bad in (("odd_chip", "button"), ("deck_exhaustion", "burn"),
                        ("first_actor_tie", "random"), ("short_bring_in", "half"),
                        ("short_all_in", "none"), ("max_bets", 0),
                        ("open_pair_big_bet", "yes"), ("heads_up_uncapped", 1),
                        ("odd_chip_shares", "random"), ("hi_lo_halves", "always"),
                        ("scoop_split", "thirds"), ("all_in_muck", "no")):
        with pytest.raises(RulesError, match=policy):
            PROFILES["standard"].with_policies(**{policy: bad})
    with pytest.raises(RulesError, match="unknown policy"):
        PROFILES["standard"].with_policies(button=True)


# ---------------------------------------------------------------- the profiles at work


def _passive(hand: Hand) -> Hand:
    while not hand.is_over:
        kinds = {a.kind: a for a in hand.legal_actions()}
        for kind in (ActionKind.BRING_IN, ActionKind.CHECK, ActionKind.CALL, ActionKind.SHOW):
            if kind in kinds:
                hand.act(kinds[kind])
                break
    return hand


def test_profiles_choose_the_deck_exhaustion_policy():
    standard = _passive(Hand("stud", STAKES, [100] * 8, PROFILES["standard"], Deck.ordered()))
    pokerkit = _passive(Hand("stud", STAKES, [100] * 8, PROFILES["pokerkit"], Deck.ordered()))
    assert not any(isinstance(e, StubReshuffled) for e in standard.events)
    assert any(isinstance(e, StubReshuffled) for e in pokerkit.events)
    assert any(isinstance(e, CommunityCardDealt) for e in standard.events)


def test_profiles_choose_the_odd_chip_policy():
    # Tied ace-high hands; seat 2 holds the As; the pot is 5.
    cards = {1: "Ah Kh Qc Jc 9d 4s 2s", 2: "As Ks Qd Jd 9c 4h 2h", 3: "5c 6d Kc"}
    shares = {}
    for name in ("standard", "pokerkit"):
        hand = hand_with("stud", cards, rules=name)
        play(hand, "b", "c", "f")
        _passive(hand)
        shares[name] = [dict(e.shares) for e in hand.events if isinstance(e, PotAwarded)]
    assert shares == {"standard": [{2: 3, 1: 2}], "pokerkit": [{1: 3, 2: 2}]}


def test_pokerkit_odd_chip_of_a_hi_lo_pot_goes_to_the_high_half():
    # Pot 5 (seat 3 folds): 3 to the high hand, 2 to the low.
    hand = hand_with("stud8", {1: "Kc Kd 9s Qh 5h Js 9d", 2: "7d 5d 4h 3h 2s Qs Jd",
                               3: "8c 8s Ac"}, rules="pokerkit")
    play(hand, "b", "f", "c")
    _passive(hand)
    assert [(e.half, dict(e.shares), e.halving_chip) for e in hand.events
            if isinstance(e, PotAwarded)] == [("high", {1: 3}, True), ("low", {2: 2}, False)]


def test_profiles_choose_the_open_pair_big_bet_policy():
    for name, bets in (("standard", [2, 4]), ("pokerkit", [2])):
        for variant in ("stud", "stud8"):
            hand = hand_with(variant, {1: "2c 3c 7c 7d", 2: "4c 5c 8s 2h"}, rules=name)
            play(hand, "b", "c")
            assert hand.street == 4 and hand.to_act == 1
            assert [a.to for a in hand.legal_actions() if a.kind is ActionKind.BET] == bets


def test_free_fold_lets_a_player_fold_when_a_check_is_free() -> None:
    from scenarios import hand_with, to_street
    from stud.engine import ActionKind

    for free, kinds in ((False, [ActionKind.CHECK, ActionKind.BET]),
                        (True, [ActionKind.FOLD, ActionKind.CHECK, ActionKind.BET])):
        rules = PROFILES["standard"].with_policies(free_fold=free)
        hand = hand_with("stud", {1: "As Ad 2c", 2: "Kh Kd 3d"}, rules=rules)
        to_street(hand, 4)
        assert [a.kind for a in hand.legal_actions()] == kinds
    hand.act(hand.legal_actions()[0])  # the free fold ends the hand, the other player wins
    assert hand.is_over and hand.result is not None
