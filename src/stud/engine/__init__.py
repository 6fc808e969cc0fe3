"""One hand of stud as a pure state machine: legal actions, acting, views, events, pots."""

from stud.engine.actions import Action, ActionKind, IllegalAction
from stud.engine.hand import Hand

__all__ = ["Action", "ActionKind", "Hand", "IllegalAction"]
