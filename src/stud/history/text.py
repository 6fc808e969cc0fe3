"""A readable hand history: one line per event, as a person would tell the hand, in English or
German (the words come from ``stud.text``)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from stud.engine import (
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
from stud.text import words


def text_history(events: Sequence[Event], name: Callable[[int], str] | None = None,
                 lang: str = "en", you: int | None = None,
                 timed_out: Collection[int] = ()) -> list[str]:
    """Lines like "Seat 3 completes to 2"; ``name`` turns a seat into a player's name, and
    the seat ``you`` is told in the second person ("You complete to 2"); the actions in
    ``timed_out`` (counted from 0), which the house took for a seat whose time ran out, are
    told so ("... (timed out)")."""
    w = words(lang)

    def who(seat: int) -> str:
        if seat == you:
            return w.t("you")
        return name(seat) if name is not None else w.seat(seat)

    lines: list[str] = []
    dealt: dict[int, list[str]] = {}
    street = 0
    actions = 0

    def flush() -> None:
        for seat in sorted(dealt):
            lines.append(w.t("history.dealt", who=who(seat), cards=" ".join(dealt[seat])))
        dealt.clear()

    for event in events:
        if isinstance(event, CardDealt):
            if event.street != street:
                street = event.street
                lines.append(w.t("history.street", street=w.street(street).upper()))
            shown = str(event.card) if event.card is not None else "??"
            dealt.setdefault(event.seat, []).append(shown if event.up else f"[{shown}]")
            continue
        flush()
        mine = "you" if getattr(event, "seat", None) == you and you is not None else "did"
        if isinstance(event, AntePosted):
            text = w.t(f"{mine}.ante", who=who(event.seat), amount=event.amount)
            lines.append(w.t(f"{mine}.all_in", text=text) if event.all_in else text)
        elif isinstance(event, CommunityCardDealt):
            lines.append(w.t("history.community", street=w.street(event.street).upper(),
                             card=event.card))
        elif isinstance(event, StubReshuffled):
            lines.append(w.t("history.reshuffle", cards=event.cards))
        elif isinstance(event, StreetStarted):
            lines.append(w.first_to_act(event.why, who, you))
        elif isinstance(event, ActionTaken):
            text = w.taken(event, who(event.seat), you=mine == "you")
            lines.append(w.t("did.timed_out", text=text) if actions in timed_out else text)
            actions += 1
        elif isinstance(event, UncalledReturned):
            lines.append(w.t(f"{mine}.uncalled", who=who(event.seat), amount=event.amount))
        elif isinstance(event, HandShown):
            names = ", ".join(w.hand(v) for v in (event.high, event.low) if v is not None)
            key = f"{mine}.show.named" if names else f"{mine}.show"
            lines.append(w.t(key, who=who(event.seat), cards=w.cards(event.cards), names=names))
        elif isinstance(event, HandMucked):
            lines.append(w.t(f"{mine}.muck", who=who(event.seat)))
        elif isinstance(event, PotAwarded):
            lines.extend(w.award(event, who, you))
    flush()
    return lines
