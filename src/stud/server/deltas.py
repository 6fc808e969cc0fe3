"""Small frames: after a client's first whole state, only what changed (docs/protocol.md).

A room builds, at each change, one body per kind of viewer (a seat's player, the public...):
``{"table", "seats", "hand", "last", "next_hand_ms", "closing"}``, from that viewer's own view
of the hand, exactly as a whole state frame carries it. ``body_delta`` says what turns the
body a viewer had into the new one; it is built from the two bodies, both of them that viewer's,
so it holds nothing the viewer's whole state would not (never another seat's down card).

``TableFrames`` keeps, for one table, the last body of each kind of viewer and which body each
client was last given; a client whose last body is the one the delta starts from gets the
delta, any other (a new connection, a seat taken or left, a client too far behind, one that
asked for ``resync`` or for whole states only) a whole state.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from stud.server.connection import Client
from stud.server.frames import Json

# A kind of viewer: (the seat it holds, the account if it was dealt into the hand or the last).
Viewer = tuple[int | None, int | None]


def body_delta(old: Json, new: Json) -> Json | None:
    """The delta from ``old`` to ``new`` (both bodies of one viewer), ``{}`` when nothing
    changed; None when it cannot be told as a delta (a whole state is sent instead)."""
    if old.keys() != new.keys():
        return None
    out: Json = {}
    for key in ("next_hand_ms", "closing"):
        if old[key] != new[key]:
            out[key] = new[key]
    old_table, new_table = old["table"], new["table"]
    if old_table != new_table:  # its hand count moves each hand; the rest seldom does
        if not isinstance(old_table, dict) or not isinstance(new_table, dict) \
                or old_table.keys() != new_table.keys():
            return None
        out["table"] = {k: v for k, v in new_table.items() if old_table[k] != v}
    seats = _seats_delta(old["seats"], new["seats"])  # type: ignore[arg-type]
    if seats is None:
        return None
    if seats:
        out["seats"] = seats
    old_hand, new_hand = old["hand"], new["hand"]
    old_last, new_last = old["last"], new["last"]
    if new_last is not old_last and new_last != old_last:
        # A new hand was dealt: the finished one moves from "hand" to "last", unsent again.
        if new_last is not None and old_hand is not None and new_last == old_hand:
            out["last_was_hand"] = True
        else:
            out["last"] = new_last
    if new_hand is not old_hand and new_hand != old_hand:
        changes = (_hand_changes(old_hand, new_hand)
                   if isinstance(old_hand, dict) and isinstance(new_hand, dict) else None)
        if changes is None:
            out["hand"] = new_hand
        else:
            out["hand_changes"] = changes
    return out


def _seats_delta(old: Sequence[Json | None], new: Sequence[Json | None]) -> Json | None:
    """``{"3": entry}`` for a seat taken, ``{"3": null}`` for one left, ``{"3": {fields}}``
    for the fields of a seat that changed; None when the seats cannot be patched."""
    if len(old) != len(new):
        return None
    out: Json = {}
    for number, (before, after) in enumerate(zip(old, new, strict=True), 1):
        if before is after or before == after:
            continue
        if before is None or after is None:
            out[str(number)] = after
        elif before.keys() != after.keys():
            return None
        else:
            out[str(number)] = {k: v for k, v in after.items() if before[k] != v}
    return out


def _hand_changes(old: Json, new: Json) -> Json | None:
    """The fields of the same hand that changed, ``events`` the events added; None when
    ``new`` is not ``old`` played on (another hand, or events that are not an extension)."""
    if old["number"] != new["number"] or old.keys() != new.keys():
        return None
    before, after = old["events"], new["events"]
    assert isinstance(before, list) and isinstance(after, list)
    # Events are built once per viewer and shared by its frames, so this is mostly identity.
    if len(after) < len(before) or after[:len(before)] != before:
        return None
    changes: Json = {k: v for k, v in new.items() if k != "events" and old[k] != v}
    if len(after) > len(before):
        changes["events"] = after[len(before):]
    return changes


@dataclass(eq=False)
class Group:
    """The body of one kind of viewer at one version of the table, and its texts."""

    body: Json
    version: int
    base: int | None = None  # the version the delta starts from
    delta: str | None = None  # the delta's JSON text without its braces; None: none
    _full: str | None = None

    def full(self) -> str:
        """The body's JSON text without its braces, built when first asked for."""
        if self._full is None:
            self._full = json.dumps(self.body)[1:-1]
        return self._full


class TableFrames:
    """One table's frames: a whole state to a client that needs one, else what changed."""

    def __init__(self) -> None:
        self.version = 0
        self.groups: dict[Viewer, Group] = {}

    def send(self, bodies: dict[Viewer, Json],
             members: Sequence[tuple[Client, Viewer, Json]]) -> None:
        """A new version of the table: ``bodies`` by kind of viewer, and each client with its
        kind and its ``you``."""
        self.version += 1
        groups: dict[Viewer, Group] = {}
        for key, body in bodies.items():
            group = groups[key] = Group(body, self.version)
            before = self.groups.get(key)
            if before is not None:
                delta = body_delta(before.body, body)
                if delta is not None:
                    group.base, group.delta = before.version, json.dumps(delta)[1:-1]
        self.groups = groups
        for client, key, you in members:
            group = groups[key]
            # Most changes leave a client's "you" as it was: its text is made again only then.
            you_text = client.you if client.you is not None and you == client.you_json \
                else json.dumps(you)
            client.you_json = you
            if (client.full_only or group.delta is None
                    or client.synced != (key, group.base) or not self._delta(client, group,
                                                                               you_text)):
                client.push_state(f'"you": {you_text}, {group.full()}')
            client.synced, client.you = (key, self.version), you_text

    @staticmethod
    def _delta(client: Client, group: Group, you: str) -> bool:
        """Queue the client's delta (nothing when nothing changed for it); False when too many
        wait already, so that a whole state replaces them."""
        parts = [f'"you": {you}'] if you != client.you else []
        if group.delta:
            parts.append(group.delta)
        return client.push_delta(", ".join(parts)) if parts else True

    def resend(self, client: Client) -> bool:
        """A whole state of the table as the client was last given it (it asked: ``resync``);
        False when it was given none yet (its first comes with the next change)."""
        if client.synced is None or client.you is None:
            return False
        key, version = client.synced
        group = self.groups.get(key)
        if group is None or version != self.version:
            return False
        client.push_state(f'"you": {client.you}, {group.full()}')
        return True
