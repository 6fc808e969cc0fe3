"""The result of a finished hand, folded from its events: pots, winners, hand values, stacks."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from stud.cards import Card
from stud.engine.events import Event, HandEnded, HandMucked, HandShown, PotAwarded
from stud.evaluate.values import HandValue


@dataclass(frozen=True, slots=True)
class ShownHand:
    seat: int
    cards: tuple[Card, ...]
    high: HandValue | None
    low: HandValue | None


@dataclass(frozen=True, slots=True)
class HandResult:
    """``pots`` are the awards in the order made (the last side pot first); in stud hi/lo a
    split pot appears twice, as its ``high`` and ``low`` half."""

    pots: tuple[PotAwarded, ...]
    shown: tuple[ShownHand, ...]
    mucked: tuple[int, ...]
    stacks: tuple[int, ...]
    net: tuple[int, ...]

    def won(self, seat: int) -> int:
        """Chips the seat took from the pots (its own uncalled bets not included)."""
        return sum(chips for pot in self.pots for s, chips in pot.shares if s == seat)


def result_of(events: Sequence[Event], starting_stacks: Sequence[int]) -> HandResult:
    pots = tuple(e for e in events if isinstance(e, PotAwarded))
    shown: dict[int, ShownHand] = {}
    for e in events:
        if isinstance(e, HandShown):
            shown[e.seat] = ShownHand(e.seat, e.cards, e.high, e.low)  # the last showing counts
    mucked = tuple(e.seat for e in events if isinstance(e, HandMucked))
    ended = next(e for e in reversed(events) if isinstance(e, HandEnded))
    net = tuple(end - start for end, start in zip(ended.stacks, starting_stacks, strict=True))
    return HandResult(pots, tuple(shown[s] for s in sorted(shown)), mucked, ended.stacks, net)
