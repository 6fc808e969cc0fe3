"""What each hand at a web table plays: its one game, or the stud rotation's turn.

A cash table of the rotation (``TableSpec.rotation``: razz, stud and stud hi/lo, changing every
so many hands) plays by the table's hand number; a tournament's by its own count of hands.
The frames say the game in play and the next one, as facts (variant codes and hand counts).
"""

from __future__ import annotations

from stud.rules import Variant
from stud.server.frames import Json
from stud.server.store import TableSpec
from stud.tournament import Rotation


def rotation_of(spec: TableSpec) -> Rotation | None:
    """The table's rotation, or None for a table of one game."""
    return Rotation.orbit(spec.seats, spec.rotation) if spec.rotation else None


def game_of(spec: TableSpec, number: int) -> Variant:
    """The game the table's hand ``number`` (from 1) plays."""
    rotation = rotation_of(spec)
    return spec.variant if rotation is None else rotation.variant(number)


def rotation_json(rotation: Rotation | None, hand: int) -> Json:
    """``{"rotation": {"games", "every", "now", "next", "next_hand", "in_hands"}}`` after hand
    ``hand`` was dealt (the one in play or the last; 0 before the first): the game it plays,
    the next game, the first hand of it, and how many hands are still to be dealt before it
    (0: the next hand plays it). Nothing for one game."""
    if rotation is None or len(set(rotation.games)) == 1:
        return {}
    shown = max(hand, 1)
    change = rotation.next_change(shown)
    assert change is not None  # a rotation of two games or more always changes
    first, following = change
    return {"rotation": {"games": [g.value for g in rotation.games], "every": rotation.every,
                         "now": rotation.variant(shown).value, "next": following.value,
                         "next_hand": first, "in_hands": first - 1 - hand}}
