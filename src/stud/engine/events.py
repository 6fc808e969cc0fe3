"""What happened in a hand, in order. Histories, logs and animations are folds over these.

A card a viewer may not see is ``None`` in that viewer's copy of the events.
"""

from __future__ import annotations

from dataclasses import dataclass

from stud.cards import Card
from stud.engine.actions import Action


@dataclass(frozen=True, slots=True)
class AntePosted:
    seat: int
    amount: int
    all_in: bool


@dataclass(frozen=True, slots=True)
class CardDealt:
    seat: int
    street: int
    card: Card | None
    up: bool


@dataclass(frozen=True, slots=True)
class CardBurned:
    street: int


@dataclass(frozen=True, slots=True)
class StubReshuffled:
    """Burned and mucked cards shuffled back into the stub (``deck_exhaustion = reshuffle``)."""

    street: int
    cards: int


@dataclass(frozen=True, slots=True)
class CommunityCardDealt:
    """One face-up card in the centre, every remaining player's card for this street."""

    street: int
    card: Card


@dataclass(frozen=True, slots=True)
class StreetStarted:
    street: int
    first: int | None
    reason: str


@dataclass(frozen=True, slots=True)
class ActionTaken:
    seat: int
    street: int
    action: Action
    added: int
    all_in: bool


@dataclass(frozen=True, slots=True)
class UncalledReturned:
    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class HandShown:
    seat: int
    cards: tuple[Card, ...]
    high: str | None
    low: str | None


@dataclass(frozen=True, slots=True)
class HandMucked:
    seat: int


@dataclass(frozen=True, slots=True)
class PotAwarded:
    """One pot (or one half of a hi/lo pot) going to its winners.

    ``index`` 0 is the main pot, 1.. the side pots; ``half`` is "high", "low" or "all".
    ``shares`` pairs each winner's seat with the chips they get.
    """

    index: int
    amount: int
    half: str
    shares: tuple[tuple[int, int], ...]
    hand: str


@dataclass(frozen=True, slots=True)
class HandEnded:
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
