"""One hand dealt at a table, and who was dealt in.

A hand's frames show and name the players dealt in, whatever happens to the seats afterwards:
an account sees its own down cards of a hand it played even from another seat, and a new player
in a seat never sees the old owner's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from stud.engine import ActionTaken, Hand, HandView
from stud.server.frames import EventLog, Json, PublicEvents, hand_json, legal_json


@dataclass(eq=False)
class Deal:
    hand: Hand
    number: int
    seats: tuple[int, ...]  # the table seats, in the hand's seat order
    accounts: tuple[int, ...]
    names: tuple[str, ...]
    hand_id: int | None = None  # the store's record, while the hand runs
    timed_out: set[int] = field(default_factory=set)  # actions the clock took, counted from 0
    _logs: dict[int | None, EventLog] = field(default_factory=dict)
    _finished: dict[int | None, Json] = field(default_factory=dict)
    _public: PublicEvents | None = None  # each public event's JSON, for every viewer
    _head: tuple[int, Json] | None = None  # (events seen, the public hand)

    def seat_of(self, k: int) -> int:
        """The table seat of the hand's seat ``k`` (1..n)."""
        return self.seats[k - 1]

    def viewer(self, account_id: int | None) -> int | None:
        """The hand's seat the account was dealt into, or None (the public view)."""
        return self.accounts.index(account_id) + 1 if account_id in self.accounts else None

    def view(self, account_id: int | None) -> HandView:
        return self.hand.view(self.viewer(account_id))

    def holds(self, seat: int, account_id: int | None) -> int | None:
        """The hand's seat for table seat ``seat`` if ``account_id`` was dealt in there."""
        if seat not in self.seats:
            return None
        k = self.seats.index(seat) + 1
        return k if self.accounts[k - 1] == account_id else None

    def clock_acts(self) -> None:
        """The next action is the house's, for a seat whose time ran out."""
        self.timed_out.add(sum(isinstance(e, ActionTaken) for e in self.hand.events))

    def part(self, account_id: int | None, clock: Json | None = None,
             view: HandView | None = None) -> Json:
        """The hand as JSON for this account; a finished hand's is built once and shared (by
        every frame of it: nobody may change it). What every viewer sees alike (the pot, the
        street, why a seat acts first, the showdown...) is built once per change of the hand;
        a viewer adds its own events (its down cards) and, when it is to act, ``legal``."""
        k = self.viewer(account_id)
        if k in self._finished:
            return self._finished[k]
        view = view or self.hand.view(k)
        part = dict(self._public_head())
        part["legal"] = legal_json(view) if self.hand.to_act == k else []
        part["clock"] = None if view.is_over else clock
        part["events"] = list(self._log(k).events(view))
        if view.is_over:
            self._finished[k] = part
        return part

    def _log(self, k: int | None) -> EventLog:
        log = self._logs.get(k)
        if log is None:
            if self._public is None:
                self._public = PublicEvents(self.seat_of, self.timed_out)
            log = self._logs[k] = EventLog(self.seat_of, self.timed_out, self._public)
        return log

    def _public_head(self) -> Json:
        """``hand_json`` of the public view (``legal`` empty, no clock) and the players, kept
        until the hand moves on."""
        seen = len(self.hand.events)
        if self._head is not None and self._head[0] == seen:
            return self._head[1]
        view = self.hand.view(None)
        log = self._log(None)
        log.events(view)  # brings ``first`` up to date
        head = hand_json(view, self.number, self.hand.starting_stacks, self.seat_of, None,
                         log.first)
        head["players"] = [{"seat": s, "name": n}
                           for s, n in zip(self.seats, self.names, strict=True)]
        self._head = (seen, head)
        return head
