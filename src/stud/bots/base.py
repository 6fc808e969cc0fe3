"""The Bot protocol: a bot sees only its seat's view (with its legal actions) and answers."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from stud.engine import Action, HandView


def not_to_act(view: HandView) -> ValueError:
    """The error for a bot asked to act on a view with no legal action: the viewer is not the
    seat to act (or the hand is over), so there is nothing to choose from."""
    if view.is_over:
        why = "the hand is over"
    elif view.viewer is None:
        why = "this is the public view, not a seat's"
    else:
        why = f"it is seat {view.to_act}'s turn, not seat {view.viewer}'s"
    return ValueError(f"a bot acts only on the view of the seat to act: {why}")


@runtime_checkable
class Bot(Protocol):
    name: str

    def act(self, view: HandView) -> Action:
        """One of ``view.legal_actions``."""
        ...
