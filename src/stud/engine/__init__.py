"""One hand of stud as a pure state machine: legal actions, acting, views, events, pots.

Everything a layer above needs is imported from here: the hand, actions, events, the facts
they carry, views and results.
"""

from stud.engine.actions import Action, ActionError, ActionKind, IllegalAction
from stud.engine.dealer import DealScript
from stud.engine.events import (
    ActionTaken,
    AntePosted,
    CardBurned,
    CardDealt,
    CommunityCardDealt,
    Event,
    HandEnded,
    HandMucked,
    HandShown,
    PotAwarded,
    StreetStarted,
    StubReshuffled,
    UncalledReturned,
)
from stud.engine.facts import FirstToAct, Half, OddChips, Opener, Phase
from stud.engine.hand import Hand
from stud.engine.order import best_showing, bring_in_player, showing_value
from stud.engine.pots import Pot, build_pots, open_pots, split
from stud.engine.result import HandResult, ShownHand
from stud.engine.showdown import Values, can_win, turns_up_a_card
from stud.engine.view import HandView, PlayerView
from stud.engine.visible import EventWindow, visible_events
from stud.evaluate.values import Category, HandValue, Showing, ValueKind
from stud.rules import STREET_NAMES, STREETS, Street

__all__ = [
    "STREETS",
    "STREET_NAMES",
    "Action",
    "ActionError",
    "ActionKind",
    "ActionTaken",
    "AntePosted",
    "CardBurned",
    "CardDealt",
    "Category",
    "CommunityCardDealt",
    "DealScript",
    "Event",
    "EventWindow",
    "FirstToAct",
    "Half",
    "Hand",
    "HandEnded",
    "HandMucked",
    "HandResult",
    "HandShown",
    "HandValue",
    "HandView",
    "IllegalAction",
    "OddChips",
    "Opener",
    "Phase",
    "PlayerView",
    "Pot",
    "PotAwarded",
    "Showing",
    "ShownHand",
    "StreetStarted",
    "StubReshuffled",
    "Street",
    "UncalledReturned",
    "ValueKind",
    "Values",
    "best_showing",
    "bring_in_player",
    "build_pots",
    "can_win",
    "open_pots",
    "showing_value",
    "split",
    "turns_up_a_card",
    "visible_events",
]
