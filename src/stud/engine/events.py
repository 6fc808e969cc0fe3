"""What happened in a hand, in order. Histories, logs and animations are folds over these.

Events are immutable named tuples: a hand emits dozens, so they must be cheap to make.

A card a viewer may not see is ``None`` in that viewer's copy of the events.
"""

from __future__ import annotations

from typing import NamedTuple

from stud.cards import Card
from stud.engine.actions import Action


class AntePosted(NamedTuple):
    seat: int
    amount: int
    all_in: bool


class CardDealt(NamedTuple):
    seat: int
    street: int
    card: Card | None
    up: bool


class CardBurned(NamedTuple):
    street: int


class StubReshuffled(NamedTuple):
    """Burned and mucked cards shuffled back into the stub (``deck_exhaustion = reshuffle``)."""

    street: int
    cards: int


class CommunityCardDealt(NamedTuple):
    """One face-up card in the centre, every remaining player's card for this street."""

    street: int
    card: Card


class StreetStarted(NamedTuple):
    street: int
    first: int | None
    reason: str


class ActionTaken(NamedTuple):
    seat: int
    street: int
    action: Action
    added: int
    all_in: bool


class UncalledReturned(NamedTuple):
    seat: int
    amount: int


class HandShown(NamedTuple):
    seat: int
    cards: tuple[Card, ...]
    high: str | None
    low: str | None


class HandMucked(NamedTuple):
    seat: int


class PotAwarded(NamedTuple):
    """One pot (or one half of a hi/lo pot) going to its winners.

    ``index`` 0 is the main pot, 1.. the side pots; ``half`` is "high", "low" or "all".
    ``shares`` pairs each winner's seat with the chips they get.
    """

    index: int
    amount: int
    half: str
    shares: tuple[tuple[int, int], ...]
    hand: str


class HandEnded(NamedTuple):
    stacks: tuple[int, ...]


Event = (
    AntePosted
    | CardDealt
    | CardBurned
    | StubReshuffled
    | CommunityCardDealt
    | StreetStarted
    | ActionTaken
    | UncalledReturned
    | HandShown
    | HandMucked
    | PotAwarded
    | HandEnded
)
