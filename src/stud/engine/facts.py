"""Facts the engine states about a hand, for every layer above to put into words.

The engine never speaks a language: why a seat acts first, what a hand is worth and how a pot
was split are data here, and ``stud.text`` turns them into English or German.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from stud.cards import Card
from stud.evaluate.values import Showing, showing_of


class Phase(StrEnum):
    BETTING = "betting"
    SHOWDOWN = "showdown"
    COMPLETE = "complete"


class Opener(StrEnum):
    """The rule that chose who acts first on a street (RULES.md sections 2-4)."""

    LOW_CARD = "low_card"  # third street, stud and stud8: the lowest up card brings in
    HIGH_CARD = "high_card"  # third street, razz: the highest up card brings in
    BEST_HAND = "best_hand"  # later streets: the best showing hand (razz: the lowest)
    SIXTH_STREET = "sixth_street"  # a community card: the order of sixth street stands
    NO_BETTING = "no_betting"  # at most one player has chips: cards are dealt, nobody acts


class FirstToAct(NamedTuple):
    """Why ``seat`` acts first. ``decider`` is the seat whose up cards decided (the bring-in
    card, the best showing hand, or sixth street's first actor); when that seat is all in
    (``decider_all_in``), or has folded since sixth street (``decider_folded``), the next
    player to its left who can act goes first instead."""

    street: int
    opener: Opener
    seat: int | None
    decider: int | None
    cards: tuple[Card, ...]  # the decider's deciding up cards (the door card on third street)
    lowball: bool  # razz: the lowest cards are the best
    decider_all_in: bool
    tie: bool  # the decider tied another seat's showing; first_actor_tie broke it
    open_pair: bool  # fourth street: an open pair makes the big bet an option
    decider_folded: bool  # seventh street after a community card: sixth's first actor folded

    @property
    def showing(self) -> Showing | None:
        """What the decider's up cards show, when the best showing hand decided."""
        return showing_of(self.lowball, self.cards) if self.opener is Opener.BEST_HAND else None


class Half(StrEnum):
    ALL = "all"  # the whole pot
    HIGH = "high"  # the high half of a hi/lo pot
    LOW = "low"  # the low half


class OddChips(NamedTuple):
    """Chips that did not divide evenly among tied winners, and who got them by which rule."""

    chips: int
    seats: tuple[int, ...]
    by: str  # the ``odd_chip`` policy that ordered the winners: "suit" or "seat"


__all__ = ["FirstToAct", "Half", "OddChips", "Opener", "Phase"]
