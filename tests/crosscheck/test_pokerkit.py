"""Cross-check with PokerKit 0.7.7 under the ``pokerkit`` profile, in both directions.

PokerKit's random hands (2-8 players, random stakes and stacks, so all-ins and side pots) are
replayed by our engine and must end with PokerKit's stacks; our random hands are replayed by
PokerKit, strictly, and must end with ours. No case is left out.
"""

from __future__ import annotations

import os
import random

import pytest

from stud.cards import Deck
from stud.engine import ActionKind, CommunityCardDealt, Hand, HandShown
from stud.history.phh import HandHistory, dumps_all, from_hand, loads_all
from stud.history.replay import ReplayError, replay
from stud.rules import PROFILES, Stakes

from .pokerkit_oracle import play_random, random_game, replay_strict

HANDS = int(os.environ.get("STUD_CROSSCHECK_HANDS", "1000"))
# Another seed draws other hands: STUD_CROSSCHECK_SEED=... runs the same checks on them.
SEED = os.environ.get("STUD_CROSSCHECK_SEED", "")
VARIANTS = {"F7S": "stud", "F7S/8": "stud8", "FR": "razz"}
POKERKIT = PROFILES["pokerkit"]


def _report(failures: list[str]) -> str:
    return f"{len(failures)} of {HANDS} hands disagree; first ones:\n" + "\n".join(failures[:3])


@pytest.mark.parametrize("code", list(VARIANTS))
def test_pokerkit_hands_replayed_by_us_end_with_pokerkits_stacks(code: str) -> None:
    rng = random.Random(f"pokerkit->stud {code}{SEED}")
    failures = []
    for _ in range(HANDS):
        played = play_random(rng, code)
        history = HandHistory(code, [played.ante] * len(played.stacks), played.bring_in,
                              played.small_bet, played.big_bet, list(played.stacks),
                              played.actions, played.finishing_stacks)
        try:
            ours = list(replay(history, POKERKIT).finishing_stacks)
        except ReplayError as error:
            failures.append(f"{error}\n  {played}")
            continue
        if ours != played.finishing_stacks:
            failures.append(f"ours {ours} != PokerKit {played.finishing_stacks}\n  {played}")
    assert not failures, _report(failures)


@pytest.mark.parametrize("code", list(VARIANTS))
def test_our_hands_are_accepted_by_pokerkit_with_our_stacks(code: str) -> None:
    rng = random.Random(f"stud->pokerkit {code}{SEED}")
    failures = []
    for _ in range(HANDS):
        ante, bring_in, small_bet, big_bet, stacks = random_game(rng, code)
        hand = Hand(VARIANTS[code], Stakes(ante, bring_in, small_bet, big_bet), stacks, POKERKIT,
                    Deck.seeded(rng.getrandbits(32)))
        while not hand.is_over:
            hand.act(rng.choice(hand.legal_actions()))
        actions = from_hand(hand).actions
        try:
            theirs = replay_strict(code, ante, bring_in, small_bet, big_bet, stacks, actions)
        except ValueError as error:
            failures.append(f"PokerKit refused: {error}\n  {stacks} {actions}")
            continue
        if theirs != hand.stacks:
            failures.append(f"PokerKit {theirs} != ours {hand.stacks}\n  {stacks} {actions}")
    assert not failures, _report(failures)


def _turned_up_before_a_community_card(hand: Hand) -> bool:
    """A hand turned up (everyone all in) before seventh street, whose seventh street is a
    community card: its hands are wholly face up by the showdown."""
    events = hand.events
    community = next((k for k, e in enumerate(events) if isinstance(e, CommunityCardDealt)), None)
    return community is not None and any(isinstance(e, HandShown) for e in events[:community])


@pytest.mark.parametrize("code", list(VARIANTS))
def test_a_hand_already_face_up_has_no_showdown_line_so_pokerkit_replays_community_cards(
        code: str) -> None:
    # PokerKit's showdown skips a hand whose hole cards are all face up (turned up at an all-in,
    # then only up cards and a community card) and kills the losers: a line showing one again
    # is refused ("Player is not active"). Eight players who never fold, short stacks: all in
    # early, every street dealt, a community card on seventh street.
    rng = random.Random(f"community {code}")
    failures, checked = [], 0
    while checked < 12:
        ante, bring_in, small_bet = 1, 2, 5
        stacks = [rng.randint(3, 30) for _ in range(8)]
        hand = Hand(VARIANTS[code], Stakes(ante, bring_in, small_bet, 2 * small_bet), stacks,
                    POKERKIT, Deck.seeded(rng.getrandbits(32)))
        while not hand.is_over:
            hand.act(rng.choice([a for a in hand.legal_actions() if a.kind is not ActionKind.FOLD]
                                or hand.legal_actions()))
        if not _turned_up_before_a_community_card(hand):
            continue
        checked += 1
        actions = from_hand(hand).actions
        try:
            theirs = replay_strict(code, ante, bring_in, small_bet, 2 * small_bet, stacks,
                                   actions)
        except ValueError as error:
            failures.append(f"PokerKit refused: {error}\n  {stacks} {actions}")
            continue
        if theirs != hand.stacks:
            failures.append(f"PokerKit {theirs} != ours {hand.stacks}\n  {stacks} {actions}")
    assert not failures, f"{len(failures)} of {checked} hands disagree; first:\n{failures[0]}"


def test_phhs_files_read_both_ways_with_pokerkit() -> None:
    """A ``.phhs`` of our hands is read by PokerKit's ``HandHistory.loads_all`` with every
    field, and PokerKit's ``dumps_all`` of hands it played is read by our ``loads_all``."""
    from pokerkit import HandHistory as PokerKitHistory

    rng = random.Random("phhs both ways")
    ours = []
    for code in VARIANTS:
        for _ in range(4):
            ante, bring_in, small_bet, big_bet, stacks = random_game(rng, code)
            hand = Hand(VARIANTS[code], Stakes(ante, bring_in, small_bet, big_bet), stacks,
                        POKERKIT, Deck.seeded(rng.getrandbits(32)))
            while not hand.is_over:
                hand.act(rng.choice(hand.legal_actions()))
            ours.append(from_hand(hand))
    theirs = list(PokerKitHistory.loads_all(dumps_all(ours)))
    assert [(h.variant, list(h.actions), list(h.finishing_stacks or [])) for h in theirs] == \
        [(h.variant, h.actions, h.finishing_stacks) for h in ours]
    assert [list(h.starting_stacks) for h in theirs] == [h.starting_stacks for h in ours]

    played = [play_random(rng, code) for code in VARIANTS for _ in range(4)]
    text = PokerKitHistory.dumps_all(
        PokerKitHistory(variant=p.variant, ante_trimming_status=True,
                        antes=[p.ante] * len(p.stacks), bring_in=p.bring_in,
                        small_bet=p.small_bet, big_bet=p.big_bet,
                        starting_stacks=list(p.stacks), actions=list(p.actions),
                        finishing_stacks=list(p.finishing_stacks))
        for p in played)
    read = loads_all(text)
    assert [name for name, _ in read] == [str(k) for k in range(1, len(played) + 1)]
    for (_, history), p in zip(read, played, strict=True):
        assert history.actions == list(p.actions)
        assert list(replay(history, POKERKIT).finishing_stacks) == p.finishing_stacks
