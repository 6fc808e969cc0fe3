"""RULES.md section 4: order of play on 4th to 7th street, the open-pair big bet, bet sizes.

Cards are written per seat in dealing order: two down cards, the door card, 4th-6th street up,
7th street down. Amounts are "to" amounts (the player's whole wager on the street).
"""

from __future__ import annotations

import pytest

from scenarios import STAKES, hand_with, play
from stud.engine import ActionKind, Hand
from stud.engine.events import StreetStarted
from stud.rules import PROFILES

FOLD, CHECK, CALL, BET, RAISE = (ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL,
                                 ActionKind.BET, ActionKind.RAISE)


def options(hand: Hand) -> list[tuple[ActionKind, int]]:
    return [(a.kind, a.to) for a in hand.legal_actions()]


def to_street(hand: Hand, street: int) -> Hand:
    """Bring in, call it, and check until ``street`` begins."""
    while hand.street < street:
        kinds = {a.kind for a in hand.legal_actions()}
        play(hand, "b" if ActionKind.BRING_IN in kinds else "c" if CALL in kinds else "k")
    assert hand.street == street
    return hand


def deal(variant: str, *boards: str, stacks: list[int] | None = None,
         rules: object = None) -> Hand:
    """A hand where seat k gets ``boards[k-1]``: its seven cards in dealing order."""
    return hand_with(variant, dict(enumerate(boards, 1)), stacks=stacks, rules=rules)


# ------------------------------------------------------------------ who acts first


def test_fourth_street_best_up_cards_act_first_pair_beats_ace_king() -> None:
    hand = deal("stud", "2c 3c As Kd 4h 5h 6h", "7c 8c 9h 9d 4d 5d 6d", "Tc Jc 2d Qs 4s 5s 6s")
    to_street(hand, 4)
    assert hand.to_act == 2
    start = [e for e in hand.events if isinstance(e, StreetStarted)][-1]
    assert (start.street, start.first) == (4, 2)


def test_fourth_street_high_cards_in_order_ace_king_beats_ace_queen() -> None:
    hand = deal("stud", "2c 3c As Qd 4h 5h 6h", "7c 8c Ah Kc 4d 5d 6d", "Tc Jc 2d 9s 4s 5s 6s")
    to_street(hand, 4)
    assert hand.to_act == 2


# Two players reach 6th street; the seat whose four up cards rank best acts first.
SIXTH_STREET = [
    # (seat 1's up cards, seat 2's up cards, first to act)
    pytest.param("2c 2d 3h 4s", "Ac Kd Qh Js", 1, id="pair beats ace-king-queen-jack"),
    pytest.param("Ac Ad 7h 8s", "Kc Kd Qh Js", 1, id="aces beat kings"),
    pytest.param("Ac Ad Kh 3s", "Ah As Qc 4d", 1, id="pair kicker king beats queen"),
    pytest.param("Ac Ad Kh Qs", "2c 2d 3h 3s", 2, id="two pair beats one pair of aces"),
    pytest.param("Ac Ad Kh Ks", "Ah As Qc Qd", 1, id="aces up: kings beat queens"),
    pytest.param("Ac Ad Kh Ks", "2c 2d 2h 3s", 2, id="trips beat two pair"),
    pytest.param("Ac Ad Ah Ks", "2c 2d 2h 2s", 2, id="quads beat trips"),
    pytest.param("5c 6d 7h 8s", "Ac Kd 3h 2s", 2, id="a straight does not count"),
    pytest.param("2h 5h 7h 9h", "3c 3d 4c 6d", 2, id="a flush does not count"),
    pytest.param("2h 5h 7h 9h", "Tc 8d 6c 4d", 2, id="four flush is only nine-high"),
]


@pytest.mark.parametrize(("ups1", "ups2", "first"), SIXTH_STREET)
def test_later_streets_best_up_cards_act_first_only_pairs_trips_quads_then_high_cards(
        ups1: str, ups2: str, first: int) -> None:
    def seven(ups: str, downs: str) -> str:
        return f"{downs[:5]} {ups} {downs[6:]}"
    taken = set((ups1 + " " + ups2).split())
    spare = [c for c in "Tc Td Th Ts Jc Jd Jh Js 9c 9d 9s 8c 8d".split() if c not in taken]
    hand = deal("stud", seven(ups1, " ".join(spare[0:3])), seven(ups2, " ".join(spare[3:6])))
    to_street(hand, 6)
    assert hand.to_act == first
    assert hand.view().reason.startswith("best up cards")


def test_seventh_street_order_follows_the_up_cards() -> None:
    hand = deal("stud", "2c 3c Ac Kd 4h 5h 6h", "7c 8c 9h 9d Th Jd Qd")
    to_street(hand, 7)
    assert hand.to_act == 2


def test_razz_lowest_showing_hand_acts_first() -> None:
    hand = deal("razz", "Kc Qc 2s 3d", "Kd Qd Ah 4c", "Kh Qh 5h 6s")
    to_street(hand, 4)
    assert hand.to_act == 2  # A-4 is lower than 3-2? no: 4-A against 3-2, the 3-2 is lower
