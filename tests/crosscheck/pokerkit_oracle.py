"""PokerKit 0.7.7 as a test oracle: random hands played by PokerKit, and strict replays.

PokerKit is a test dependency only. Its own PHH iteration repairs illegal actions silently, so
the replay here applies each action with ``parse_action`` and turns warnings into errors.
"""

from __future__ import annotations

import random
import warnings
from dataclasses import dataclass

from pokerkit import (
    Automation,
    Card,
    FixedLimitRazz,
    FixedLimitSevenCardStud,
    FixedLimitSevenCardStudHighLowSplitEightOrBetter,
    Mode,
)
from pokerkit.notation import parse_action

GAMES = {
    "F7S": FixedLimitSevenCardStud,
    "F7S/8": FixedLimitSevenCardStudHighLowSplitEightOrBetter,
    "FR": FixedLimitRazz,
}
# Dealing and showing stay manual so that every card and decision is explicit.
AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


@dataclass
class OracleHand:
    variant: str
    ante: int
    bring_in: int
    small_bet: int
    big_bet: int
    stacks: list[int]
    actions: list[str]
    finishing_stacks: list[int]


def new_state(variant: str, ante: int, bring_in: int, small_bet: int, big_bet: int,
              stacks: list[int]):  # noqa: ANN201 - PokerKit's State
    return GAMES[variant].create_state(AUTOMATIONS, True, ante, bring_in, small_bet, big_bet,
                                       stacks, len(stacks), mode=Mode.TOURNAMENT)


def random_game(rng: random.Random, variant: str) -> tuple[int, int, int, int, list[int]]:
    """Random stakes and stacks: 2-8 players, stacks from one chip up, so all-ins abound."""
    players = rng.randint(2, 8)
    ante, bring_in = rng.randint(0, 3), rng.randint(1, 4)
    small_bet = bring_in + rng.randint(1, 6)
    stacks = [rng.choice([rng.randint(1, 30), rng.randint(1, 150), rng.randint(50, 400)])
              for _ in range(players)]
    return ante, bring_in, small_bet, 2 * small_bet, stacks


def play_random(rng: random.Random, variant: str) -> OracleHand:
    """A hand of PokerKit's, random legal decisions, written as PHH action lines."""
    ante, bring_in, small_bet, big_bet, stacks = random_game(rng, variant)
    # PokerKit shuffles (and reshuffles) with the global generator: seed it from ours for the
    # whole hand, so that a test is repeatable.
    saved = random.getstate()
    random.seed(rng.getrandbits(64))
    try:
        return _play(rng, variant, ante, bring_in, small_bet, big_bet, stacks)
    finally:
        random.setstate(saved)


def _play(rng: random.Random, variant: str, ante: int, bring_in: int, small_bet: int,
          big_bet: int, stacks: list[int]) -> OracleHand:
    state = new_state(variant, ante, bring_in, small_bet, big_bet, stacks)
    actions: list[str] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        while state.status:
            if state.can_burn_card():
                state.burn_card()
            elif state.can_deal_hole():
                op = state.deal_hole()
                actions.append(f"d dh p{op.player_index + 1} " + "".join(map(repr, op.cards)))
            elif state.can_deal_board():
                op = state.deal_board()
                actions.append("d db " + "".join(map(repr, op.cards)))
            elif state.actor_index is not None:
                seat = f"p{state.actor_index + 1}"
                moves = []
                if state.can_post_bring_in():
                    moves.append("pb")
                if state.can_check_or_call():
                    moves.append("cc")
                if state.can_fold():
                    moves.append("f")
                if state.can_complete_bet_or_raise_to():
                    moves.append("cbr")
                choice = rng.choice(moves)
                if choice == "pb":
                    state.post_bring_in()
                    actions.append(f"{seat} pb")
                elif choice == "cc":
                    state.check_or_call()
                    actions.append(f"{seat} cc")
                elif choice == "f":
                    state.fold()
                    actions.append(f"{seat} f")
                else:
                    amount = state.min_completion_betting_or_raising_to_amount
                    state.complete_bet_or_raise_to(amount)
                    actions.append(f"{seat} cbr {amount}")
            elif state.showdown_index is not None:
                index = state.showdown_index
                op = state.show_or_muck_hole_cards()
                cards = "".join(map(repr, op.hole_cards))
                actions.append(f"p{index + 1} sm {cards}" if op.hole_cards else f"p{index + 1} sm")
            else:
                raise RuntimeError("PokerKit is stuck")
    return OracleHand(variant, ante, bring_in, small_bet, big_bet, stacks, actions,
                      list(state.stacks))


def _check_cards(state, action: str) -> None:  # noqa: ANN001
    """What PokerKit only warns about: a card dealt twice, or shown but not held."""
    words = action.split("#")[0].split()
    if words[0] == "d":
        cards = Card.clean(words[-1])
        in_play = {c for c in state.cards_in_play if c}
        if any(c and (c in in_play or cards.count(c) > 1) for c in cards):
            raise ValueError(f"card already in play: {action!r}")
    elif len(words) == 3 and words[1] == "sm" and words[2] != "-":
        own = state.hole_cards[int(words[0][1:]) - 1]
        if any(c and c not in own for c in Card.clean(words[2])):
            raise ValueError(f"shown cards not held: {action!r}")


def replay_strict(variant: str, ante: int, bring_in: int, small_bet: int, big_bet: int,
                  stacks: list[int], actions: list[str]) -> list[int]:
    """PokerKit's finishing stacks for these actions; ValueError at the first it refuses."""
    state = new_state(variant, ante, bring_in, small_bet, big_bet, stacks)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message="A card being dealt")  # a reshuffled card
        warnings.filterwarnings("ignore", message="Returning reserved")
        for action in actions:
            while state.can_burn_card():
                state.burn_card("??")
            _check_cards(state, action)
            parse_action(state, action)
        while state.can_burn_card():
            state.burn_card("??")
    if state.status:
        raise ValueError(f"PokerKit's hand is not over (showdown index {state.showdown_index})")
    return list(state.stacks)
