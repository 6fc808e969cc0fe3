"""What a player can do, and the error for what they may not.

Amounts are "to" amounts, as in PHH's ``cbr``: the player's whole wager on this street after the
action. ``Action.bet(4)`` on a street where the player has nothing in means putting in 4 chips.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class ActionKind(StrEnum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BRING_IN = "bring_in"
    COMPLETE = "complete"
    BET = "bet"
    RAISE = "raise"
    SHOW = "show"
    MUCK = "muck"

    @property
    def label(self) -> str:
        return {"bring_in": "bring in", "complete": "complete to"}.get(self.value, self.value)


@dataclass(frozen=True, slots=True)
class Action:
    """One betting decision. ``to`` is the street wager after it (0 for fold and check)."""

    kind: ActionKind
    to: int = 0

    @staticmethod
    def fold() -> Action:
        return FOLD

    @staticmethod
    def check() -> Action:
        return CHECK

    @staticmethod
    def call(to: int) -> Action:
        return Action(ActionKind.CALL, to)

    @staticmethod
    def bring_in(to: int) -> Action:
        return Action(ActionKind.BRING_IN, to)

    @staticmethod
    def complete(to: int) -> Action:
        return Action(ActionKind.COMPLETE, to)

    @staticmethod
    def bet(to: int) -> Action:
        return Action(ActionKind.BET, to)

    @staticmethod
    def raise_to(to: int) -> Action:
        return Action(ActionKind.RAISE, to)

    @property
    def wagers(self) -> bool:
        """A bring-in, completion, bet or raise: an action that sets a new amount to call."""
        return self.kind in _WAGERS

    def __str__(self) -> str:
        if self.kind in (ActionKind.FOLD, ActionKind.CHECK, ActionKind.SHOW, ActionKind.MUCK):
            return self.kind.value
        if self.kind is ActionKind.CALL:
            return f"call {self.to}"
        return f"{self.kind.label} {self.to}"


_WAGERS = frozenset({ActionKind.BRING_IN, ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE})
FOLD = Action(ActionKind.FOLD)
CHECK = Action(ActionKind.CHECK)
_MADE: dict[tuple[ActionKind, int], Action] = {}


def make_action(kind: ActionKind, to: int) -> Action:
    """The action (kind, to), shared rather than rebuilt: legal_actions runs on every decision."""
    made = _MADE.get((kind, to))
    if made is None:
        made = _MADE[(kind, to)] = Action(kind, to)
        if len(_MADE) > 100_000:
            _MADE.clear()
    return made


class IllegalAction(ValueError):
    """An action the engine refused; the hand is unchanged.

    Names the seat, the action, why, and what was legal instead.
    """

    def __init__(self, seat: int | None, action: object, reason: str,
                 legal: tuple[Action, ...] = ()) -> None:
        self.seat = seat
        self.action = action
        self.reason = reason
        self.legal = legal
        who = f"seat {seat}" if seat is not None else "nobody"
        options = ", ".join(str(a) for a in legal) if legal else "nothing"
        super().__init__(f"{who} cannot {action}: {reason}; legal: {options}")
