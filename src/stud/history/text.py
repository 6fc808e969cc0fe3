"""A readable hand history: one line per event, as a person would tell the hand."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from stud.engine.actions import ActionKind
from stud.engine.dealing import STREET_NAMES
from stud.engine.events import (
    ActionTaken,
    AntePosted,
    CardDealt,
    CommunityCardDealt,
    Event,
    HandMucked,
    HandShown,
    PotAwarded,
    StreetStarted,
    StubReshuffled,
    UncalledReturned,
)


def _cards(cards: Sequence[object]) -> str:
    return " ".join("??" if c is None else str(c) for c in cards)


def text_history(events: Sequence[Event], name: Callable[[int], str] | None = None) -> list[str]:
    """Lines like "Seat 3 completes to 2"; ``name`` turns a seat into a player's name."""
    who = name or (lambda seat: f"Seat {seat}")
    lines: list[str] = []
    dealt: dict[int, list[object]] = {}
    street = 0

    def flush() -> None:
        for seat in sorted(dealt):
            lines.append(f"  {who(seat)}: {_cards(dealt[seat])}")
        dealt.clear()

    for event in events:
        if isinstance(event, CardDealt):
            if event.street != street:
                street = event.street
                lines.append(f"*** {STREET_NAMES[street].upper()} ***")
            shown = str(event.card) if event.card is not None else "??"
            dealt.setdefault(event.seat, []).append(shown if event.up else f"[{shown}]")
            continue
        flush()
        if isinstance(event, AntePosted):
            lines.append(f"{who(event.seat)} posts the ante {event.amount}"
                         + (" and is all in" if event.all_in else ""))
        elif isinstance(event, CommunityCardDealt):
            lines.append(f"*** {STREET_NAMES[event.street].upper()} *** community card "
                         f"{event.card} (every player's card)")
        elif isinstance(event, StubReshuffled):
            lines.append(f"{event.cards} burned and mucked cards are shuffled into the stub")
        elif isinstance(event, StreetStarted):
            if event.first is not None:
                lines.append(f"{who(event.first)} to act ({event.reason})")
            else:
                lines.append(event.reason)
        elif isinstance(event, ActionTaken):
            lines.append(_action(event, who))
        elif isinstance(event, UncalledReturned):
            lines.append(f"Uncalled {event.amount} returned to {who(event.seat)}")
        elif isinstance(event, HandShown):
            names = ", ".join(n for n in (event.high, event.low) if n)
            lines.append(f"{who(event.seat)} shows {_cards(event.cards)}"
                         + (f" ({names})" if names else ""))
        elif isinstance(event, HandMucked):
            lines.append(f"{who(event.seat)} mucks")
        elif isinstance(event, PotAwarded):
            pot = "main pot" if event.index == 0 else f"side pot {event.index}"
            half = {"high": " (high)", "low": " (low)"}.get(event.half, "")
            for seat, chips in event.shares:
                lines.append(f"{who(seat)} wins {chips} from the {pot}{half}"
                             + (f" with {event.hand}" if event.hand != "uncontested" else ""))
    flush()
    return lines


def _action(event: ActionTaken, who: Callable[[int], str]) -> str:
    kind, to = event.action.kind, event.action.to
    tail = " and is all in" if event.all_in else ""
    text = {
        ActionKind.FOLD: "folds",
        ActionKind.CHECK: "checks",
        ActionKind.CALL: f"calls {event.added}",
        ActionKind.BRING_IN: f"brings in for {to}",
        ActionKind.COMPLETE: f"completes to {to}",
        ActionKind.BET: f"bets {to}",
        ActionKind.RAISE: f"raises to {to}",
    }.get(kind, kind.value)
    return f"{who(event.seat)} {text}{tail}"
