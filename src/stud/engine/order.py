"""Order of play: who brings in on third street, who acts first later, who shows first."""

from __future__ import annotations

from collections.abc import Sequence

from stud.cards import Card
from stud.evaluate.showing import (
    bring_in_key_high,
    bring_in_key_low,
    showing_high,
    showing_low,
)
from stud.rules import Rules, Variant


def bring_in_player(variant: Variant, door_cards: Sequence[tuple[int, Card]]) -> int:
    """The player (index) whose up card brings in: lowest in stud and stud8, highest in razz.

    Suits break ties: clubs, diamonds, hearts, spades from lowest to highest (RULES.md 3).
    """
    if variant is Variant.RAZZ:
        return max(door_cards, key=lambda pc: bring_in_key_low(pc[1].id))[0]
    return min(door_cards, key=lambda pc: bring_in_key_high(pc[1].id))[0]


def showing_value(variant: Variant, up_cards: Sequence[Card]) -> int:
    ids = [c.id for c in up_cards]
    return showing_low(ids) if variant is Variant.RAZZ else showing_high(ids)


def _highest_card_key(variant: Variant, up_cards: Sequence[Card]) -> int:
    keys = [bring_in_key_low(c.id) if variant is Variant.RAZZ else c.id for c in up_cards]
    return max(keys, default=-1)


def best_showing(variant: Variant, rules: Rules, players: Sequence[int],
                 up_cards: Sequence[Sequence[Card]], values: dict[int, int] | None = None) -> int:
    """The player among ``players`` (indices in seat order) whose up cards rank best.

    Ties follow ``first_actor_tie``: ``seat`` takes the first clockwise from the dealer,
    ``suit`` the tied player holding the highest card by suit. ``values`` may bring the
    players' ``showing_value`` already worked out.
    """
    if values is None:
        values = {p: showing_value(variant, up_cards[p]) for p in players}
    best = max(values.values())
    tied = [p for p in players if values[p] == best]
    if len(tied) == 1 or rules.first_actor_tie == "seat":
        return tied[0]
    return max(tied, key=lambda p: _highest_card_key(variant, up_cards[p]))
