"""Bots without judgement: random legal play and the calling station."""

from __future__ import annotations

import random

from stud.engine import Action, ActionKind, HandView


class RandomBot:
    """Picks uniformly among the legal actions."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, view: HandView) -> Action:
        return self.rng.choice(view.legal_actions)


class CallingStation:
    """Never folds, never raises: checks or calls, posts the bring-in when it must."""

    name = "station"

    def __init__(self, seed: int | None = None) -> None:
        del seed

    def act(self, view: HandView) -> Action:
        by_kind = {a.kind: a for a in view.legal_actions}
        for kind in (ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN, ActionKind.SHOW):
            if kind in by_kind:
                return by_kind[kind]
        return view.legal_actions[0]
