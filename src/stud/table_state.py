"""A web table's state, kept from its frames: a whole ``state``, then each small ``delta``
applied to it (docs/protocol.md, "Small frames"). Used by ``stud.client`` (``stud bot``), the
load bench and the tests; the web page does the same in ``static/table.js``.

    reader = TableState()
    for text in socket:
        try:
            state = reader.read(json.loads(text))  # the whole state after it, or None
        except FrameGap:
            socket.send('{"type": "resync"}')  # deltas are skipped until a state comes
"""

from __future__ import annotations

from typing import Any

Json = dict[str, Any]


class FrameGap(Exception):
    """A delta that does not follow the last frame applied (its ``seq`` is not one more):
    ask for the whole state again (``{"type": "resync"}``)."""


def apply_delta(state: Json, delta: Json) -> Json:
    """The state after ``delta``, as a new object: ``state`` and its parts are left as they
    were (the parts that did not change are shared)."""
    new = dict(state)
    new["seq"] = delta["seq"]
    hand = state["hand"]
    if delta.get("last_was_hand"):  # a new hand was dealt: the finished one is now the last
        new["last"] = hand
    if "last" in delta:
        new["last"] = delta["last"]
    if "hand" in delta:
        hand = delta["hand"]
    if "hand_changes" in delta:
        changes = dict(delta["hand_changes"])
        added = changes.pop("events", [])
        hand = {**hand, **changes, "events": [*hand["events"], *added]}
    new["hand"] = hand
    if "seats" in delta:
        seats = list(state["seats"])
        for number, entry in delta["seats"].items():
            i = int(number) - 1
            # null: the seat was left; a seat that was empty gets its whole entry; else the
            # entry's fields that changed.
            seats[i] = entry if entry is None or seats[i] is None else {**seats[i], **entry}
        new["seats"] = seats
    if "table" in delta:  # the table's keys that changed
        new["table"] = {**state["table"], **delta["table"]}
    for key in ("you", "next_hand_ms", "closing"):
        if key in delta:
            new[key] = delta[key]
    return new


class TableState:
    """One connection's table, from its frames."""

    def __init__(self) -> None:
        self.state: Json | None = None  # the newest whole state (its "type" is "state")
        self.waiting = False  # a gap was seen: deltas are skipped until a whole state comes

    def read(self, frame: Json) -> Json | None:
        """The state after ``frame``, or None for a frame that is not the table's (chat,
        errors...) or a delta skipped while waiting for a whole state; raises FrameGap once
        when a delta does not follow the last frame."""
        kind = frame.get("type")
        if kind == "state":
            self.state, self.waiting = frame, False
            return frame
        if kind != "delta" or self.waiting:
            return None
        if self.state is None or frame.get("seq") != self.state.get("seq", 0) + 1:
            self.waiting = True
            raise FrameGap(f"frame {frame.get('seq')} came after "
                           f"{None if self.state is None else self.state.get('seq')}")
        self.state = apply_delta(self.state, frame)
        return self.state
