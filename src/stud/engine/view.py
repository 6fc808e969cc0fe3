"""What one seat may see of a hand, and what everybody may see.

A seat sees its own down cards and every up card; the public sees no down card until it is
shown. Network messages, bot inputs, observations and shared histories are built from these.

A view costs the same at the end of a hand as at its start: each viewer's copy of the events is
kept by the hand as it grows (``VisibleLogs``), and a view holds a read-only window on it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import overload

from stud.cards import Card
from stud.engine.actions import Action
from stud.engine.events import CardDealt, Event
from stud.engine.facts import FirstToAct
from stud.engine.pots import pots_so_far
from stud.rules import Rules, Stakes, Variant


class EventWindow(Sequence[Event]):
    """The first ``length`` events of a log that only grows: an immutable sequence that costs
    nothing to make."""

    __slots__ = ("_log", "_length")

    def __init__(self, log: list[Event], length: int) -> None:
        self._log = log
        self._length = length

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> Event: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Event, ...]: ...

    def __getitem__(self, index: int | slice) -> Event | tuple[Event, ...]:
        if isinstance(index, slice):
            return tuple(self._log[:self._length][index])
        if not -self._length <= index < self._length:
            raise IndexError("event index out of range")
        return self._log[index % self._length]

    def __iter__(self) -> Iterator[Event]:
        return islice(self._log, self._length)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return len(other) == self._length and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"EventWindow({list(self)!r})"


def hide(event: Event, viewer: int | None) -> Event:
    """``event`` as ``viewer`` may see it: another seat's down card is hidden (None)."""
    if (type(event) is CardDealt and not event.up and event.seat != viewer
            and event.card is not None):
        return CardDealt(event.seat, event.street, None, False)
    return event


def visible_events(events: Sequence[Event], viewer: int | None) -> list[Event]:
    """Events as ``viewer`` may see them: others' down cards hidden until shown."""
    return [hide(event, viewer) for event in events]


class VisibleLogs:
    """Each viewer's copy of a hand's events, brought up to date when that viewer looks."""

    __slots__ = ("_events", "_logs")

    def __init__(self, events: list[Event]) -> None:
        self._events = events
        self._logs: dict[int | None, list[Event]] = {}

    def window(self, viewer: int | None) -> EventWindow:
        log = self._logs.get(viewer)
        if log is None:
            log = self._logs[viewer] = []
        events = self._events
        if len(log) < len(events):
            log.extend([hide(e, viewer) for e in events[len(log):]])
        return EventWindow(log, len(log))


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
    """A hand as ``viewer`` (a seat, or None for the public) may see it. ``events`` are the
    viewer's copy of the events, ``public_events`` everybody's; ``why`` says why ``to_act``
    acts first on this street (None before the first betting round)."""

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
    why: FirstToAct | None
    bring_in: int | None
    legal_actions: tuple[Action, ...]
    events: Sequence[Event]
    public_events: Sequence[Event]
    is_over: bool

    def player(self, seat: int) -> PlayerView:
        return self.players[seat - 1]

    @property
    def pots(self) -> tuple[int, ...]:
        """Main pot, then side pots, as they stand (empty once the hand is over)."""
        if self.is_over:
            return ()
        committed = [p.committed for p in self.players]
        live = [not p.folded for p in self.players]
        all_in = [p.all_in for p in self.players]
        return tuple(pots_so_far(committed, live, all_in))


__all__ = ["EventWindow", "HandView", "PlayerView", "VisibleLogs", "hide", "visible_events"]
