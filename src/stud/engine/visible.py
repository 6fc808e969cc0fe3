"""What each viewer may see of a hand's events: others' down cards hidden until shown.

``VisibleLogs`` keeps, as the hand goes on, the public copy of the events and each seat's own
down cards in it; a view's events are a window on that log (``EventWindow`` for the public,
``SeatEvents`` for a seat), so reading them costs the same at the end of a hand as at its
start.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterator, Sequence
from itertools import islice
from typing import overload

from stud.engine.events import CardDealt, Event

_tuple = tuple.__new__


class VisibleLogs:
    """The public copy of a hand's events and each seat's own down cards in it, brought up to
    date when someone reads them."""

    __slots__ = ("_events", "_public", "_own")

    def __init__(self, events: list[Event], players: int) -> None:
        self._events = events
        self._public: list[Event] = []
        self._own: list[dict[int, Event]] = [{} for _ in range(players + 1)]

    def public(self) -> list[Event]:
        """The public copy of every event so far."""
        events, public = self._events, self._public
        if len(public) < len(events):
            own = self._own
            for k in range(len(public), len(events)):
                event = events[k]
                if type(event) is CardDealt and not event.up and event.card is not None:
                    own[event.seat][k] = event
                    event = _tuple(CardDealt, (event.seat, event.street, None, False))
                public.append(event)
        return public

    def own(self, seat: int) -> dict[int, Event]:
        """Seat's own down cards among the events so far, by index."""
        self.public()
        return self._own[seat]

    def window(self, viewer: int | None) -> Sequence[Event]:
        """The events so far as ``viewer`` sees them."""
        length = len(self._events)
        return EventWindow(self, length) if viewer is None else SeatEvents(self, viewer, length)


class _Window(Sequence[Event]):
    __slots__ = ("_logs", "_length")

    def __init__(self, logs: VisibleLogs, length: int) -> None:
        self._logs = logs
        self._length = length

    def __len__(self) -> int:
        return self._length

    @abstractmethod
    def _at(self, index: int) -> Event:
        """The event at ``index`` (0 <= index < length) as this window shows it."""

    @overload
    def __getitem__(self, index: int) -> Event: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Event, ...]: ...

    def __getitem__(self, index: int | slice) -> Event | tuple[Event, ...]:
        if isinstance(index, slice):
            return tuple(self)[index]
        if not -self._length <= index < self._length:
            raise IndexError("event index out of range")
        return self._at(index % self._length)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return len(other) == self._length and all(
                a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({list(self)!r})"

    def __reduce__(self) -> tuple[object, tuple[tuple[Event, ...]]]:
        return (tuple, (tuple(self),))


class EventWindow(_Window):
    """The first ``length`` events as everybody sees them."""

    __slots__ = ()

    def _at(self, index: int) -> Event:
        return self._logs.public()[index]

    def __iter__(self) -> Iterator[Event]:
        return islice(self._logs.public(), self._length)


class SeatEvents(_Window):
    """The first ``length`` events as one seat sees them: the public events with the seat's
    own down cards."""

    __slots__ = ("_seat",)

    def __init__(self, logs: VisibleLogs, seat: int, length: int) -> None:
        self._logs = logs
        self._length = length
        self._seat = seat

    def _at(self, index: int) -> Event:
        return self._logs.own(self._seat).get(index) or self._logs.public()[index]

    def __iter__(self) -> Iterator[Event]:
        own = self._logs.own(self._seat)
        for k, event in enumerate(islice(self._logs.public(), self._length)):
            yield own.get(k) or event


def hide(event: Event, viewer: int | None) -> Event:
    """``event`` as ``viewer`` may see it: another seat's down card is hidden (None)."""
    if (type(event) is CardDealt and not event.up and event.seat != viewer
            and event.card is not None):
        return CardDealt(event.seat, event.street, None, False)
    return event


def visible_events(events: Sequence[Event], viewer: int | None) -> list[Event]:
    """Events as ``viewer`` may see them: others' down cards hidden until shown."""
    return [hide(event, viewer) for event in events]


__all__ = ["EventWindow", "SeatEvents", "VisibleLogs", "hide", "visible_events"]
