"""What a player can do, and the error for what they may not.

Amounts are "to" amounts, as in PHH's ``cbr``: the player's whole wager on this street after the
action. ``Action.bet(4)`` on a street where the player has nothing in means putting in 4 chips.
An action is written as text one way, and read back by ``Action.parse``:

>>> str(Action.complete(5)), Action.parse("complete to 5") == Action.complete(5)
('complete to 5', True)
>>> [str(Action.parse(text)) for text in ("fold", "bring in 2", "raise to 20", "bet 10")]
['fold', 'bring in 2', 'raise 20', 'bet 10']
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

    @staticmethod
    def parse(text: str) -> Action:
        """The action ``str`` writes: "fold", "check", "call 5", "bring in 2", "complete to 5",
        "bet 10", "raise 20" (or "raise to 20"), "show", "muck". ``ActionError`` otherwise."""
        if not isinstance(text, str):
            raise ActionError(f"an action is text like 'call 5', not {text!r}")
        words = text.strip().lower().replace("-", " ").replace("_", " ").split()
        if words[1:2] == ["in"] and words[:1] == ["bring"]:
            words = ["bring_in", *words[2:]]
        if len(words) >= 2 and words[1] == "to":
            words = [words[0], *words[2:]]
        if not words:
            raise ActionError("an empty action: say fold, check, call, bring in, complete, "
                              "bet or raise (with the amount to), show or muck")
        try:
            kind = ActionKind(words[0])
        except ValueError:
            raise ActionError(f"unknown action {words[0]!r} in {text.strip()!r}: use fold, "
                              f"check, call, bring in, complete, bet, raise, show or muck"
                              ) from None
        if kind in _NO_AMOUNT:
            if len(words) > 1:
                raise ActionError(f"{kind.label} takes no amount: {text.strip()!r}")
            return Action(kind)
        # isdigit() would pass "²", which int() refuses: only the digits 0 to 9 are an amount.
        if len(words) != 2 or not (words[1].isascii() and words[1].isdecimal()):
            raise ActionError(f"{kind.label} needs an amount, the total to put in on this "
                              f"street, like {kind.label} 10: {text.strip()!r}")
        return make_action(kind, int(words[1]))

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


_NO_AMOUNT = frozenset({ActionKind.FOLD, ActionKind.CHECK, ActionKind.SHOW, ActionKind.MUCK})
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


class ActionError(ValueError):
    """Text that does not name an action."""


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
        who = f"seat {seat} cannot" if seat is not None else "no one can"
        options = ", ".join(str(a) for a in legal) if legal else "nothing"
        super().__init__(f"{who} {action}: {reason}; legal: {options}")
