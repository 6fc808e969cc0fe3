"""The Bot protocol: a bot sees only its seat's view (with its legal actions) and answers."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from stud.engine import Action, HandView


@runtime_checkable
class Bot(Protocol):
    name: str

    def act(self, view: HandView) -> Action:
        """One of ``view.legal_actions``."""
        ...
