"""JSON for the WebSocket, built only from views: what one seat (or the public) may see.

The engine numbers a hand's players 1..n; the table's seats are 1..8. ``seat_of`` maps the first
to the second (``Table.table_seat``). See docs/protocol.md for the shapes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence

from stud.engine.dealing import STREET_NAMES
from stud.engine.events import (
    ActionTaken,
    AntePosted,
    CardDealt,
    CommunityCardDealt,
    Event,
    HandEnded,
    HandMucked,
    HandShown,
    PotAwarded,
    StreetStarted,
    UncalledReturned,
)
from stud.engine.view import HandView
from stud.rules import POLICIES, Variant
from stud.server.store import TableSpec

Json = dict[str, object]
SeatOf = Callable[[int], int]
NO_LOW = ", no low"


def table_json(spec: TableSpec, taken: int, hands_per_hour: float) -> Json:
    return {
        "id": spec.id, "name": spec.name, "variant": spec.variant.value,
        "title": spec.variant.title,
        "stakes": {"ante": spec.stakes.ante, "bring_in": spec.stakes.bring_in,
                   "small_bet": spec.stakes.small_bet, "big_bet": spec.stakes.big_bet},
        "rules": {"name": spec.rules.name} | {p: getattr(spec.rules, p) for p in POLICIES},
        "seats": spec.seats, "taken": taken, "clock": spec.clock, "hands": spec.hands,
        "hands_per_hour": round(hands_per_hour, 1),
    }


_SEAT = re.compile(r"\bseat (\d+)")


def table_reason(reason: str, seat_of: SeatOf) -> str:
    """The engine's reason for who acts first, its seat numbers turned into the table's."""
    return _SEAT.sub(lambda m: f"seat {seat_of(int(m.group(1)))}", reason)


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
        return {"kind": "street", "street": event.street,
                "reason": table_reason(event.reason, seat_of),
                "first": None if event.first is None else seat_of(event.first)}
    if isinstance(event, CommunityCardDealt):
        return {"kind": "board", "street": event.street, "card": str(event.card)}
    if isinstance(event, UncalledReturned):
        return {"kind": "returned", "seat": seat_of(event.seat), "amount": event.amount}
    if isinstance(event, HandShown):
        return {"kind": "shown", "seat": seat_of(event.seat),
                "cards": [str(c) for c in event.cards], "high": event.high, "low": event.low}
    if isinstance(event, HandMucked):
        return {"kind": "mucked", "seat": seat_of(event.seat)}
    if isinstance(event, PotAwarded):
        return {"kind": "pot", "index": event.index, "amount": event.amount, "half": event.half,
                "shares": [[seat_of(s), c] for s, c in event.shares], "hand": event.hand}
    if isinstance(event, HandEnded):
        return {"kind": "end", "stacks": [[seat_of(k + 1), s] for k, s in enumerate(event.stacks)]}
    return None


def showdown_json(events: Sequence[Event], variant: Variant, starting: Sequence[int],
                  seat_of: SeatOf) -> Json:
    """Who won which pot (high and low halves apart), scoops, "no low", the shown hands."""
    pots: dict[int, Json] = {}
    for e in events:
        if not isinstance(e, PotAwarded):
            continue
        pot = pots.setdefault(e.index, {"index": e.index, "amount": 0, "high": [], "low": None,
                                        "no_low": False, "scoop": None})
        pot["amount"] = int(pot["amount"]) + e.amount  # type: ignore[call-overload]
        name = "" if e.hand == "uncontested" else e.hand
        if name.endswith(NO_LOW):
            name = name[: -len(NO_LOW)]
            pot["no_low"] = True
        winners = [{"seat": seat_of(s), "chips": c, "hand": name} for s, c in e.shares]
        if e.half == "low":
            pot["low"] = winners
        else:
            pot["high"] += winners  # type: ignore[operator]
    for pot in pots.values():
        high = {w["seat"] for w in pot["high"]}  # type: ignore[attr-defined]
        low = {w["seat"] for w in pot["low"] or ()}  # type: ignore[attr-defined]
        contested = any(w["hand"] for w in pot["high"])  # type: ignore[attr-defined]
        if (variant is Variant.STUD8 and contested and len(high) == 1
                and (low == high or pot["no_low"])):
            pot["scoop"] = next(iter(high))
    shown = [{"seat": seat_of(e.seat), "cards": [str(c) for c in e.cards], "high": e.high,
              "low": e.low} for e in events if isinstance(e, HandShown)]
    last_shown = {s["seat"]: s for s in shown}  # a hand shown twice counts as its last showing
    ended = next(e for e in reversed(events) if isinstance(e, HandEnded))
    net = [[seat_of(k + 1), end - start]
           for k, (end, start) in enumerate(zip(ended.stacks, starting, strict=True))]
    return {"pots": [pots[i] for i in sorted(pots)], "shown": list(last_shown.values()),
            "net": net}


class EventLog:
    """One viewer's events of one hand as JSON text, extended as the hand goes on.

    A hand's public events only ever grow, and a viewer's copy differs from them only in that
    viewer's own down cards; so each event is turned into JSON once, not once per frame.
    """

    def __init__(self, seat_of: SeatOf) -> None:
        self.seat_of = seat_of
        self.done = 0
        self.own_dealt = 0
        self.parts: list[str] = []
        self.first: int | None = None

    def text(self, view: HandView) -> str:
        public = view.public_events
        own = view.player(view.viewer).cards if view.viewer is not None else ()
        for event in public[self.done:]:
            if isinstance(event, CardDealt) and view.viewer is not None \
                    and event.seat == view.viewer:
                event = CardDealt(event.seat, event.street, own[self.own_dealt], event.up)
                self.own_dealt += 1
            elif isinstance(event, StreetStarted):
                self.first = event.first
            sent = event_json(event, self.seat_of)
            if sent is not None:
                self.parts.append(json.dumps(sent))
        self.done = len(public)
        return "[" + ", ".join(self.parts) + "]"


def hand_text(view: HandView, number: int, starting: Sequence[int], seat_of: SeatOf,
              clock: Json | None, log: EventLog | None = None,
              players: Sequence[Json] = ()) -> str:
    """``hand_json`` as JSON text, its events taken from (and added to) ``log``; ``players``
    are the names dealt in (``{"seat", "name"}``), which outlast a seat changing hands."""
    log = log or EventLog(seat_of)
    events = log.text(view)
    head = hand_json(view, number, starting, seat_of, clock, log.first)
    head["players"] = list(players)
    return json.dumps(head)[:-1] + ', "events": ' + events + "}"


def public_events_json(events: Sequence[Event], seat_of: SeatOf) -> list[Json]:
    """The public events as the protocol sends them, for a hand's record."""
    return [j for j in (event_json(e, seat_of) for e in events) if j is not None]


def hand_json(view: HandView, number: int, starting: Sequence[int], seat_of: SeatOf,
              clock: Json | None, first: int | None) -> Json:
    """The hand as ``view`` shows it, but its events (``hand_text`` adds them); ``legal`` is
    filled only for the seat to act, ``first`` is the hand seat that began this street."""
    return {
        "number": number, "street": view.street, "street_name": STREET_NAMES[view.street],
        "pot": view.pot, "pots": list(view.pots), "current_bet": view.current_bet,
        "to_act": None if view.to_act is None else seat_of(view.to_act),
        "bring_in": None if view.bring_in is None else seat_of(view.bring_in),
        "first": None if first is None else seat_of(first),
        "reason": table_reason(view.reason, seat_of),
        "board": [str(c) for c in view.board],
        "legal": [{"action": a.kind.value, "to": a.to} for a in view.legal_actions],
        "clock": clock, "over": view.is_over,
        "showdown": (showdown_json(view.events, view.variant, starting, seat_of)
                     if view.is_over else None),
    }


def player_json(view: HandView, hand_seat: int) -> Json:
    """A seat's part in the hand as ``view`` shows it."""
    p = view.player(hand_seat)
    return {"in_hand": True, "folded": p.folded, "all_in": p.all_in, "wager": p.wager,
            "committed": p.committed, "shown": p.shown,
            "cards": [{"card": None if c is None else str(c), "up": u}
                      for c, u in zip(p.cards, p.up, strict=True)]}
