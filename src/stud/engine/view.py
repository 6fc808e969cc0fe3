"""What one seat may see of a hand, and what everybody may see.

A seat sees its own down cards and every up card; the public sees no down card until it is
shown. Network messages, bot inputs, observations and shared histories are built from these.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from stud.cards import Card
from stud.engine.actions import Action
from stud.engine.events import CardDealt, Event, HandShown
from stud.engine.pots import pots_so_far
from stud.rules import Rules, Stakes, Variant

if TYPE_CHECKING:
    from stud.engine.hand import Hand


@dataclass(frozen=True, slots=True)
class PlayerView:
    seat: int
    stack: int
    wager: int
    committed: int
    folded: bool
    all_in: bool
    cards: tuple[Card | None, ...]
    up: tuple[bool, ...]
    shown: bool
    mucked: bool

    @property
    def up_cards(self) -> tuple[Card, ...]:
        return tuple(c for c, u in zip(self.cards, self.up, strict=True) if u and c is not None)

    @property
    def down_cards(self) -> tuple[Card | None, ...]:
        return tuple(c for c, u in zip(self.cards, self.up, strict=True) if not u)


@dataclass(frozen=True, slots=True)
class HandView:
    viewer: int | None
    variant: Variant
    stakes: Stakes
    rules: Rules
    street: int
    players: tuple[PlayerView, ...]
    board: tuple[Card, ...]
    pot: int
    current_bet: int
    to_act: int | None
    reason: str
    bring_in: int | None
    legal_actions: tuple[Action, ...]
    public_events: tuple[Event, ...]
    is_over: bool

    def player(self, seat: int) -> PlayerView:
        return self.players[seat - 1]

    @property
    def events(self) -> tuple[Event, ...]:
        """The hand's events as this viewer may see them: the public events with the viewer's
        own down cards filled in from the viewer's own cards."""
        if self.viewer is None:
            return self.public_events
        own = iter(self.players[self.viewer - 1].cards)
        out: list[Event] = []
        for event in self.public_events:
            if isinstance(event, CardDealt) and event.seat == self.viewer:
                event = CardDealt(event.seat, event.street, next(own), event.up)
            out.append(event)
        return tuple(out)

    @property
    def pots(self) -> tuple[int, ...]:
        """Main pot, then side pots, as they stand (empty once the hand is over)."""
        if self.is_over:
            return ()
        committed = [p.committed for p in self.players]
        live = [not p.folded for p in self.players]
        all_in = [p.all_in for p in self.players]
        return tuple(pots_so_far(committed, live, all_in))


def _visible(card: Card, up: bool, owner: int, viewer: int | None, shown: bool) -> Card | None:
    return card if up or shown or owner == viewer else None


def make_view(hand: Hand, viewer: int | None) -> HandView:
    if viewer is not None and not 1 <= viewer <= hand.players:
        raise ValueError(f"seat {viewer} is not in this hand (seats 1 to {hand.players})")
    players = []
    for i in range(hand.players):
        seat = i + 1
        cards = tuple(_visible(c, u, seat, viewer, hand.shown[i])
                      for c, u in zip(hand.cards[i], hand.up[i], strict=True))
        players.append(PlayerView(seat, hand.stacks[i], hand.wagers[i], hand.committed[i],
                                  hand.folded[i], hand.stacks[i] == 0 and not hand.folded[i],
                                  cards, tuple(hand.up[i]), hand.shown[i], hand.mucked[i]))
    return HandView(
        viewer=viewer,
        variant=hand.variant,
        stakes=hand.stakes,
        rules=hand.rules,
        street=hand.street,
        players=tuple(players),
        board=tuple(hand.board),
        pot=hand.pot,
        current_bet=hand.current_bet,
        to_act=hand.to_act,
        reason=hand.first_reason,
        bring_in=None if hand.bring_in is None else hand.bring_in + 1,
        legal_actions=hand.legal_actions() if viewer is not None and viewer == hand.to_act else (),
        public_events=hand.public_events(),
        is_over=hand.is_over,
    )


def visible_events(events: Sequence[Event], viewer: int | None) -> list[Event]:
    """Events as ``viewer`` may see them: others' down cards hidden until shown."""
    out: list[Event] = []
    for event in events:
        if (isinstance(event, CardDealt) and not event.up and event.seat != viewer
                and event.card is not None):
            event = CardDealt(event.seat, event.street, None, False)
        out.append(event)
    return out


__all__ = ["HandShown", "HandView", "PlayerView", "make_view", "visible_events"]
