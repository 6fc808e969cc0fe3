"""What happened in a hand, in order. Histories, logs and animations are folds over these.

Events are immutable named tuples: a hand emits dozens, so they must be cheap to make.

A card a viewer may not see is ``None`` in that viewer's copy of the events.
"""

from __future__ import annotations

from typing import NamedTuple

from stud.cards import Card
from stud.engine.actions import Action
from stud.engine.facts import FirstToAct, Half, OddChips
from stud.evaluate.values import HandValue


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
    """A betting round begins: ``first`` acts first (None: no betting), for the reason ``why``."""

    street: int
    first: int | None
    why: FirstToAct


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
    """A hand turned up, with what it is worth so far (None with fewer than five cards, and
    for the half a variant does not play: ``high`` in razz, ``low`` in stud)."""

    seat: int
    cards: tuple[Card, ...]
    high: HandValue | None
    low: HandValue | None


class HandMucked(NamedTuple):
    seat: int


class PotAwarded(NamedTuple):
    """One pot, or one half of a hi/lo pot, going to its winners.

    ``pot`` 0 is the main pot, 1.. the side pots; ``shares`` pairs each winner's seat with
    the chips they get. ``high`` and ``low`` are the winning hands (both when identical hands
    take a whole hi/lo pot; neither when the pot is ``uncontested``). ``no_low``: a stud hi/lo
    pot for which no eligible hand qualified low, won whole by the high hand. ``odd`` says
    who got the chips that did not divide evenly, and ``halving_chip`` that this high half
    holds the odd chip of halving the pot.
    """

    pot: int
    amount: int
    half: Half
    shares: tuple[tuple[int, int], ...]
    high: HandValue | None
    low: HandValue | None
    uncontested: bool
    no_low: bool
    odd: OddChips | None
    halving_chip: bool


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
