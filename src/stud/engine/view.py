"""What one seat may see of a hand, and what everybody may see.

A seat sees its own down cards and every up card; the public sees no down card until it is
shown. Network messages, bot inputs, observations and shared histories are built from these.

A view costs the same at the end of a hand as at its start, and next to nothing until it is
read. Its fields are read from the hand when asked for; a view still held when the hand moves
on is fixed then, so that it always shows the hand as it was when the view was taken. Its
events are a window on a log that only grows (``VisibleLogs`` keeps the public copy, and each
seat's own down cards in it, as the hand goes on).
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from typing import NamedTuple, Protocol

from stud.cards import Card
from stud.engine.actions import Action
from stud.engine.betting import BettingRound
from stud.engine.dealer import Dealer
from stud.engine.events import Event
from stud.engine.facts import FirstToAct
from stud.engine.pots import pots_so_far
from stud.engine.seats import Seats
from stud.engine.visible import VisibleLogs
from stud.rules import Rules, Stakes, Variant


class Viewed(Protocol):
    """What a view is made from: the hand as ``stud.engine.hand.Hand`` keeps it."""

    events: list[Event]
    actor: int | None
    variant: Variant
    stakes: Stakes
    rules: Rules
    street: int
    seats: Seats
    round: BettingRound
    dealer: Dealer
    firsts: dict[int, FirstToAct]
    bring_in: int | None
    is_over: bool

    def legal_actions(self) -> tuple[Action, ...]: ...

    @property
    def viewer(self) -> Viewer: ...


_tuple = tuple.__new__
_new = object.__new__
_ref = weakref.ref


class PlayerView(NamedTuple):
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


class _Fixed(NamedTuple):
    """A view's fields, fixed before the hand changes (``HandView.freeze``)."""

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


class HandView:
    """A hand as ``viewer`` (a seat, or None for the public) may see it. ``events`` are the
    viewer's copy of the events, ``public_events`` everybody's; ``why`` says why ``to_act``
    acts first on this street (None before the first betting round).

    A view is taken for nothing: its fields are read from the hand when asked for, while the
    hand is as it was; a view still held when the hand is about to change is fixed then
    (``freeze``), so that it always shows the hand as it was when it was taken.
    """

    __slots__ = ("viewer", "_hand", "_fixed", "__weakref__")
    FIELDS = ("viewer", *_Fixed._fields)
    viewer: int | None
    _hand: Viewed | None  # None once fixed
    _fixed: _Fixed

    def __init__(self, hand: Viewed, seat: int | None) -> None:
        self.viewer = seat
        self._hand = hand

    def freeze(self) -> None:
        """Fix every field as the hand has it now."""
        hand, seat = self._hand, self.viewer
        if hand is None:
            return
        to_act = None if hand.actor is None else hand.actor + 1
        logs = hand.viewer.logs
        self._fixed = _tuple(_Fixed, (
            hand.variant, hand.stakes, hand.rules, hand.street,
            hand.viewer.seating(hand, seat), tuple(hand.dealer.board), hand.seats.pot,
            hand.round.current_bet, to_act, hand.firsts.get(hand.street),
            None if hand.bring_in is None else hand.bring_in + 1,
            hand.legal_actions() if seat is not None and seat == to_act else (),
            logs.window(seat), logs.window(None), hand.is_over))
        self._hand = None

    @property
    def variant(self) -> Variant:
        hand = self._hand
        return self._fixed.variant if hand is None else hand.variant

    @property
    def stakes(self) -> Stakes:
        hand = self._hand
        return self._fixed.stakes if hand is None else hand.stakes

    @property
    def rules(self) -> Rules:
        hand = self._hand
        return self._fixed.rules if hand is None else hand.rules

    @property
    def street(self) -> int:
        hand = self._hand
        return self._fixed.street if hand is None else hand.street

    @property
    def players(self) -> tuple[PlayerView, ...]:
        hand = self._hand
        return self._fixed.players if hand is None else hand.viewer.seating(hand, self.viewer)

    @property
    def board(self) -> tuple[Card, ...]:
        hand = self._hand
        return self._fixed.board if hand is None else tuple(hand.dealer.board)

    @property
    def pot(self) -> int:
        hand = self._hand
        return self._fixed.pot if hand is None else hand.seats.pot

    @property
    def current_bet(self) -> int:
        hand = self._hand
        return self._fixed.current_bet if hand is None else hand.round.current_bet

    @property
    def to_act(self) -> int | None:
        hand = self._hand
        if hand is None:
            return self._fixed.to_act
        return None if hand.actor is None else hand.actor + 1

    @property
    def why(self) -> FirstToAct | None:
        hand = self._hand
        return self._fixed.why if hand is None else hand.firsts.get(hand.street)

    @property
    def bring_in(self) -> int | None:
        hand = self._hand
        if hand is None:
            return self._fixed.bring_in
        return None if hand.bring_in is None else hand.bring_in + 1

    @property
    def legal_actions(self) -> tuple[Action, ...]:
        hand = self._hand
        if hand is None:
            return self._fixed.legal_actions
        actor, seat = hand.actor, self.viewer
        return hand.legal_actions() if seat is not None and actor == seat - 1 else ()

    @property
    def events(self) -> Sequence[Event]:
        hand = self._hand
        return self._fixed.events if hand is None else hand.viewer.logs.window(self.viewer)

    @property
    def public_events(self) -> Sequence[Event]:
        hand = self._hand
        return self._fixed.public_events if hand is None else hand.viewer.logs.window(None)

    @property
    def is_over(self) -> bool:
        hand = self._hand
        return self._fixed.is_over if hand is None else hand.is_over

    def player(self, seat: int) -> PlayerView:
        return self.players[seat - 1]

    @property
    def pots(self) -> tuple[int, ...]:
        """Main pot, then side pots, as they stand (empty once the hand is over)."""
        if self.is_over:
            return ()
        players = self.players
        committed = [p.committed for p in players]
        live = [not p.folded for p in players]
        all_in = [p.all_in for p in players]
        return tuple(pots_so_far(committed, live, all_in))

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.FIELDS)
        return f"HandView({fields})"

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        self.freeze()
        return (_fixed_view, (self.viewer, self._fixed))


def _fixed_view(seat: int | None, fixed: _Fixed) -> HandView:
    view = _new(HandView)
    view.viewer, view._hand, view._fixed = seat, None, fixed
    return view


class Viewer:
    """Makes a hand's views: owns the public log, each seat's view as last made (remade when
    the seat changes), and the views not read yet, made when the hand is about to change."""

    __slots__ = ("logs", "_public", "_own", "last", "unread")

    def __init__(self, events: list[Event], players: int) -> None:
        self.logs = VisibleLogs(events, players)
        # Each seat as others see it, and as it sees itself: (version, street, view).
        self._public: list[tuple[int, int, PlayerView | None]] = [(-1, 0, None)] * players
        self._own: list[tuple[int, int, PlayerView | None]] = [(-1, 0, None)] * players
        # The views taken since the hand last changed: the latest (the hand sees whether
        # anybody still holds it) and, weakly, those before it.
        self.last: HandView | None = None
        self.unread: list[weakref.ref[HandView]] = []

    def view(self, hand: Viewed, seat: int | None) -> HandView:
        # Made without calling its class: a simulation takes a view a decision.
        view = _new(HandView)
        view.viewer, view._hand = seat, hand
        last = self.last
        if last is not None:
            unread = self.unread
            if len(unread) > 64:
                unread[:] = [ref for ref in unread if ref() is not None]
            unread.append(_ref(last))
        self.last = view
        return view

    def freeze(self) -> None:
        """The hand is about to change: every view still held is fixed now."""
        for ref in self.unread:
            view = ref()
            if view is not None:
                view.freeze()
        self.unread.clear()

    def seating(self, hand: Viewed, seat: int | None) -> tuple[PlayerView, ...]:
        """Every seat of ``hand`` as ``seat`` sees it now."""
        seats = hand.seats
        versions, street = seats.versions, hand.street
        players = []
        for i, (version, made, public) in enumerate(self._public):
            if version != versions[i] or made != street or public is None:
                public = _seat_view(hand, i, False)
                self._public[i] = (versions[i], street, public)
            players.append(public)
        if seat is not None and not seats.shown[seat - 1]:
            i = seat - 1
            version, made, own = self._own[i]
            if version != versions[i] or made != street or own is None:
                own = _seat_view(hand, i, True)
                self._own[i] = (versions[i], street, own)
            players[i] = own
        return tuple(players)


def _seat_view(hand: Viewed, i: int, own: bool) -> PlayerView:
    """Seat i as its owner (``own``) or anybody else sees it."""
    seats = hand.seats
    held, flags, shown = seats.cards[i], tuple(seats.up[i]), seats.shown[i]
    cards: tuple[Card | None, ...] = tuple(held) if own or shown else \
        tuple([c if u else None for c, u in zip(held, flags, strict=True)])
    stack, folded = seats.stacks[i], seats.folded[i]
    return _tuple(PlayerView, (i + 1, stack, hand.round.wagers[i], seats.committed[i], folded,
                               stack == 0 and not folded, cards, flags, shown,
                               seats.mucked[i]))


__all__ = ["HandView", "PlayerView", "Viewer"]
