"""Actions that are not one of the listed legal objects: the legal action they stand for, or
``IllegalAction`` saying why not, from what the betting round says of it."""

from __future__ import annotations

from stud.engine.actions import Action, ActionKind, IllegalAction
from stud.engine.betting import BettingRound
from stud.engine.facts import Phase


def _label(kind: ActionKind) -> str:
    return kind.value.replace("_", "-")


def _either(options: list[str]) -> str:
    """Options as a sentence lists them: a; a or b; a, b or c."""
    return options[0] if len(options) == 1 else ", ".join(options[:-1]) + " or " + options[-1]


def accept(betting: BettingRound, phase: Phase, i: int, action: object,
           legal: tuple[Action, ...]) -> Action:
    """The action to apply for one that is not one of the ``legal`` objects: an equal one, the
    same wager by another name, a raise that puts everyone all in; else ``IllegalAction``."""
    if action in legal:
        return legal[legal.index(action)]
    if not isinstance(action, Action):
        raise IllegalAction(i + 1, action, "that is not an action", legal)
    same = _same_wager(action, legal)
    if same in legal or (phase is Phase.BETTING and betting.accepts_between(i, same, legal)):
        return same
    raise IllegalAction(i + 1, action, why_illegal(betting, phase, i, action, legal), legal)


def _same_wager(action: Action, legal: tuple[Action, ...]) -> Action:
    """A bet, raise or completion to a legal amount is that legal wager, whatever it is called
    (PHH has one verb, ``cbr``, for all three)."""
    if action.wagers and action.kind is not ActionKind.BRING_IN:
        for option in legal:
            if option.to == action.to and option.wagers and \
                    option.kind is not ActionKind.BRING_IN:
                return option
    return action


def why_illegal(betting: BettingRound, phase: Phase, i: int, action: Action,
                legal: tuple[Action, ...]) -> str:
    """The reason ``action`` by player i is refused, given what is ``legal``."""
    kinds = {a.kind for a in legal}
    if action.kind in kinds:
        listed = _either([str(a.to) for a in legal if a.kind is action.kind])
        return f"the amount must be {listed}, not {action.to}"
    if phase is Phase.SHOWDOWN:
        return "at the showdown a player shows or mucks"
    if action.kind in (ActionKind.SHOW, ActionKind.MUCK):
        return "showing and mucking happen only at the showdown"
    if betting.bring_in_pending:
        if action.kind is ActionKind.FOLD:
            return "the player with the bring-in card must bring in or complete"
        if not action.wagers:
            return "the bring-in comes first: bring in or complete"
    if action.kind is ActionKind.FOLD:
        return "there is no bet to fold to: check instead"
    if action.kind is ActionKind.CHECK:
        return f"there is a bet of {betting.current_bet} to call"
    wager = next((a.kind for a in legal if a.wagers), None)
    if action.wagers and wager is not None:
        if wager is ActionKind.COMPLETE and action.kind is ActionKind.RAISE:
            return "on third street the first raise is the completion: complete to " + \
                ", ".join(str(a.to) for a in legal if a.kind is wager)
        listed = _either([str(a) for a in legal if a.wagers])
        return f"no {_label(action.kind)} to {action.to} here: the wager is {listed}"
    if action.wagers and not betting.bring_in_pending:
        if betting.acted[i] and betting.seq_at[i] >= betting.raise_seq:
            return "the betting was not reopened to this player (no full raise since)"
        if not betting.uncapped and betting.bets >= betting.max_bets:
            return f"the betting is capped at {betting.max_bets} bets on this street"
        return "no raise is possible"
    return f"{action.kind.label} is not possible now"
