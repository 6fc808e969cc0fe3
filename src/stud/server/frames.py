"""JSON for the WebSocket, built only from views: what one seat (or the public) may see.

Frames carry facts, never sentences: why a seat acts first, what a hand is worth and how a pot
was split go out as data (the names of ``stud.engine``'s enums), and the web client puts them
into words from the same catalogues as ``stud.text``. The engine numbers a hand's players 1..n;
the table's seats are 1..8. ``seat_of`` maps the first to the second (``Deal.seat_of``), in
every fact that names a seat. See docs/protocol.md for the shapes.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from stud.cards import Card
from stud.engine import (
    ActionTaken,
    AntePosted,
    CardDealt,
    CommunityCardDealt,
    Event,
    FirstToAct,
    HandEnded,
    HandMucked,
    HandShown,
    HandValue,
    HandView,
    PotAwarded,
    Showing,
    StreetStarted,
    UncalledReturned,
)
from stud.rules import POLICIES, Variant
from stud.server.store import TableSpec

Json = dict[str, object]
SeatOf = Callable[[int], int]


def table_json(spec: TableSpec, taken: int, hands_per_hour: float) -> Json:
    return {
        "id": spec.id, "name": spec.name, "variant": spec.variant.value,
        "title": spec.variant.full_name,
        "stakes": {"ante": spec.stakes.ante, "bring_in": spec.stakes.bring_in,
                   "small_bet": spec.stakes.small_bet, "big_bet": spec.stakes.big_bet},
        "rules": {"name": spec.rules.name} | {p: getattr(spec.rules, p) for p in POLICIES},
        "seats": spec.seats, "taken": taken, "clock": spec.clock, "hands": spec.hands,
        "hands_per_hour": round(hands_per_hour, 1),
        "private": spec.private, "paused": spec.paused, "host": spec.host,
        "time_bank": {"start": spec.time_bank.start, "add": spec.time_bank.add,
                      "every": spec.time_bank.every, "cap": spec.time_bank.cap},
    }


# ---------------------------------------------------------------------- facts


def cards_json(cards: Sequence[Card]) -> list[str]:
    return [str(c) for c in cards]


def value_json(value: HandValue | None) -> Json | None:
    """What a hand is worth: ``{"kind": "high", "category": "full_house", "ranks": ["K", "4"],
    "cards": [its five cards]}``; a stud hi/lo hand without a low is ``category`` ``no_low``
    with no ranks and no cards."""
    if value is None:
        return None
    return {"kind": value.kind.value, "category": value.category.value,
            "ranks": [r.char for r in value.ranks], "cards": cards_json(value.five)}


def showing_json(showing: Showing | None) -> Json | None:
    """What up cards show, for the order of play: ``{"category", "ranks", "lowball"}``."""
    if showing is None:
        return None
    return {"category": showing.category.value, "ranks": [r.char for r in showing.ranks],
            "lowball": showing.lowball}


def _seat(seat: int | None, seat_of: SeatOf) -> int | None:
    return None if seat is None else seat_of(seat)


def first_json(why: FirstToAct | None, seat_of: SeatOf) -> Json | None:
    """Why ``seat`` acts first on ``street``: the rule (``opener``), whose up cards decided
    (``decider``, a table seat) and what they show, and what followed from it."""
    if why is None:
        return None
    return {"street": why.street, "opener": why.opener.value, "seat": _seat(why.seat, seat_of),
            "decider": _seat(why.decider, seat_of), "cards": cards_json(why.cards),
            "showing": showing_json(why.showing), "decider_all_in": why.decider_all_in,
            "decider_folded": why.decider_folded, "tie": why.tie, "open_pair": why.open_pair}


def award_json(award: PotAwarded, seat_of: SeatOf) -> Json:
    """One pot, or one half of a hi/lo pot, and its winners, with the facts of how it went:
    the winning ``high`` and ``low`` hands, ``uncontested``, ``no_low``, the ``odd`` chips and
    whether this high half holds the ``halving_chip``."""
    odd = award.odd
    return {"pot": award.pot, "amount": award.amount, "half": award.half.value,
            "shares": [[seat_of(s), c] for s, c in award.shares],
            "high": value_json(award.high), "low": value_json(award.low),
            "uncontested": award.uncontested, "no_low": award.no_low,
            "odd": None if odd is None else {"chips": odd.chips, "by": odd.by,
                                             "seats": [seat_of(s) for s in odd.seats]},
            "halving_chip": award.halving_chip}


# ---------------------------------------------------------------------- events


def event_json(event: Event, seat_of: SeatOf) -> Json | None:
    """One event as the protocol sends it; None for what is not sent (burns, reshuffles)."""
    if isinstance(event, CardDealt):
        return {"kind": "card", "seat": seat_of(event.seat), "street": event.street,
                "card": None if event.card is None else str(event.card), "up": event.up}
    if isinstance(event, ActionTaken):
        return {"kind": "action", "seat": seat_of(event.seat), "street": event.street,
                "action": event.action.kind.value, "to": event.action.to, "added": event.added,
                "all_in": event.all_in}
    if isinstance(event, AntePosted):
        return {"kind": "ante", "seat": seat_of(event.seat), "amount": event.amount,
                "all_in": event.all_in}
    if isinstance(event, StreetStarted):
        return {"kind": "street", "street": event.street, "first": _seat(event.first, seat_of),
                "why": first_json(event.why, seat_of)}
    if isinstance(event, CommunityCardDealt):
        return {"kind": "board", "street": event.street, "card": str(event.card)}
    if isinstance(event, UncalledReturned):
        return {"kind": "returned", "seat": seat_of(event.seat), "amount": event.amount}
    if isinstance(event, HandShown):
        return {"kind": "shown", "seat": seat_of(event.seat), "cards": cards_json(event.cards),
                "high": value_json(event.high), "low": value_json(event.low)}
    if isinstance(event, HandMucked):
        return {"kind": "mucked", "seat": seat_of(event.seat)}
    if isinstance(event, PotAwarded):
        return {"kind": "pot"} | award_json(event, seat_of)
    if isinstance(event, HandEnded):
        return {"kind": "end", "stacks": [[seat_of(k + 1), s] for k, s in enumerate(event.stacks)]}
    return None


def _scoop(awards: Sequence[PotAwarded]) -> int | None:
    """The one seat that took all of a contested hi/lo pot (both halves, or the whole pot
    when no low qualified); None when the pot was shared or not contested."""
    seats = {seat for a in awards for seat, _ in a.shares}
    if len(seats) != 1 or any(a.uncontested for a in awards):
        return None
    return next(iter(seats))


def showdown_json(events: Sequence[Event], variant: Variant, starting: Sequence[int],
                  seat_of: SeatOf) -> Json:
    """Each pot with its awards (high and low halves apart) and the seat that scooped it, the
    hands shown, and every seat's net result."""
    by_pot: dict[int, list[PotAwarded]] = {}
    for e in events:
        if isinstance(e, PotAwarded):
            by_pot.setdefault(e.pot, []).append(e)
    pots = []
    for index in sorted(by_pot):
        awards = by_pot[index]
        scoop = _scoop(awards) if variant is Variant.STUD8 else None
        pots.append({"pot": index, "amount": sum(a.amount for a in awards),
                     "scoop": _seat(scoop, seat_of),
                     "awards": [award_json(a, seat_of) for a in awards]})
    shown = {e.seat: e for e in events if isinstance(e, HandShown)}  # a hand shown twice: the last
    ended = next(e for e in reversed(events) if isinstance(e, HandEnded))
    net = [[seat_of(k + 1), end - start]
           for k, (end, start) in enumerate(zip(ended.stacks, starting, strict=True))]
    return {"pots": pots,
            "shown": [{"seat": seat_of(e.seat), "cards": cards_json(e.cards),
                       "high": value_json(e.high), "low": value_json(e.low)}
                      for e in shown.values()],
            "net": net}


class PublicEvents:
    """A hand's public events as JSON, each built once for every viewer (None for what is
    not sent: burns, reshuffles), in the order of the hand's public events."""

    def __init__(self, seat_of: SeatOf, timed_out: set[int] | None = None) -> None:
        self.seat_of = seat_of
        # Which of the hand's actions (counted from 0) the house took for a seat whose clock
        # and time bank ran out: those are sent with "timed_out": true.
        self.timed_out = timed_out if timed_out is not None else set()
        self.actions = 0
        self.items: list[Json | None] = []

    def upto(self, public: Sequence[Event]) -> list[Json | None]:
        for event in public[len(self.items):]:
            sent = event_json(event, self.seat_of)
            if isinstance(event, ActionTaken):
                if sent is not None and self.actions in self.timed_out:
                    sent["timed_out"] = True
                self.actions += 1
            self.items.append(sent)
        return self.items


class EventLog:
    """One viewer's events of one hand as JSON objects, extended as the hand goes on.

    A hand's public events only ever grow, and a viewer's copy differs from them only in that
    viewer's own down cards; so each event is turned into JSON once (``shared``, for every
    viewer of the hand), not once per frame, and a small frame sends only the events past
    those the client has (``stud.server.deltas``).
    """

    def __init__(self, seat_of: SeatOf, timed_out: set[int] | None = None,
                 shared: PublicEvents | None = None) -> None:
        self.seat_of = seat_of
        self.shared = shared if shared is not None else PublicEvents(seat_of, timed_out)
        self.done = 0
        self.own_dealt = 0
        self.items: list[Json] = []
        self.first: int | None = None

    def events(self, view: HandView) -> list[Json]:
        """The events so far; the list is the log's own (it grows), each event built once."""
        public = view.public_events
        built = self.shared.upto(public)
        viewer = view.viewer
        for i in range(self.done, len(public)):
            event = public[i]
            if isinstance(event, CardDealt) and viewer is not None and event.seat == viewer:
                own = view.player(viewer).cards
                sent = event_json(CardDealt(event.seat, event.street, own[self.own_dealt],
                                            event.up), self.seat_of)
                self.own_dealt += 1
            else:
                if isinstance(event, StreetStarted):
                    self.first = event.first
                sent = built[i]
            if sent is not None:
                self.items.append(sent)
        self.done = len(public)
        return self.items


def hand_part(view: HandView, number: int, starting: Sequence[int], seat_of: SeatOf,
              clock: Json | None, log: EventLog | None = None,
              players: Sequence[Json] = ()) -> Json:
    """``hand_json`` with its events, taken from (and added to) ``log``; ``players`` are the
    names dealt in (``{"seat", "name"}``), which outlast a seat changing hands. The events are
    a copy of the log's list: a frame keeps the events it was built with."""
    log = log or EventLog(seat_of)
    events = list(log.events(view))
    head = hand_json(view, number, starting, seat_of, clock, log.first)
    head["players"] = list(players)
    head["events"] = events
    return head


def hand_text(view: HandView, number: int, starting: Sequence[int], seat_of: SeatOf,
              clock: Json | None, log: EventLog | None = None,
              players: Sequence[Json] = ()) -> str:
    """``hand_part`` as JSON text."""
    return json.dumps(hand_part(view, number, starting, seat_of, clock, log, players))


def public_events_json(events: Sequence[Event], seat_of: SeatOf,
                       timed_out: set[int] | None = None) -> list[Json]:
    """The public events as the protocol sends them, for a hand's record: ``timed_out``
    marks the house's actions as a state frame does (``PublicEvents``)."""
    return [j for j in PublicEvents(seat_of, timed_out).upto(events) if j is not None]


def awarded_pots(events: Sequence[Event]) -> list[int]:
    """A finished hand's pots as they were awarded: the main pot, then the side pots."""
    pots: dict[int, int] = {}
    for e in events:
        if isinstance(e, PotAwarded):
            pots[e.pot] = pots.get(e.pot, 0) + e.amount
    return [pots[i] for i in sorted(pots)]


def hand_json(view: HandView, number: int, starting: Sequence[int], seat_of: SeatOf,
              clock: Json | None, first: int | None) -> Json:
    """The hand as ``view`` shows it, but its events (``hand_text`` adds them); ``legal`` is
    filled only for the seat to act, ``first`` is the hand seat that began this street and
    ``why`` the facts of why. ``pots`` are the pots as they stand, and once the hand is over as
    they were awarded."""
    return {
        "number": number, "street": view.street,
        "pot": view.pot,
        "pots": awarded_pots(view.events) if view.is_over else list(view.pots),
        "current_bet": view.current_bet,
        "to_act": _seat(view.to_act, seat_of),
        "bring_in": _seat(view.bring_in, seat_of),
        "first": _seat(first, seat_of),
        "why": first_json(view.why, seat_of),
        "board": cards_json(view.board),
        "legal": legal_json(view),
        "clock": clock, "over": view.is_over,
        "showdown": (showdown_json(view.events, view.variant, starting, seat_of)
                     if view.is_over else None),
    }


def legal_json(view: HandView) -> list[Json]:
    """What the seat to act may do, when ``view`` is that seat's: each action and its "to"
    amount, and ``adds``, the chips it puts in on top of the seat's wager so far (a call to 12
    of a seat with 8 in adds 4), so that a button can say so without doing sums."""
    legal = view.legal_actions
    if not legal or view.to_act is None:
        return []
    wager = view.player(view.to_act).wager
    return [{"action": a.kind.value, "to": a.to,
             "adds": max(0, a.to - wager) if a.to else 0} for a in legal]


def player_json(view: HandView, hand_seat: int) -> Json:
    """A seat's part in the hand as ``view`` shows it."""
    p = view.player(hand_seat)
    return {"in_hand": True, "folded": p.folded, "all_in": p.all_in, "wager": p.wager,
            "committed": p.committed, "shown": p.shown,
            "cards": [{"card": None if c is None else str(c), "up": u}
                      for c, u in zip(p.cards, p.up, strict=True)]}
