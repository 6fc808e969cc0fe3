"""Bots without judgement: random legal play and the calling station."""

from __future__ import annotations

import secrets

from stud.bots.base import not_to_act
from stud.engine import Action, ActionKind, HandView

_BITS = (1 << 64) - 1


class RandomBot:
    """Picks uniformly among the legal actions.

    Its generator is a 64-bit multiplicative congruential generator (the high 32 bits of each
    step): a simulation makes a bot per seat per hand, and a Mersenne Twister's seeding cost
    more than the hand it played.
    """

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        seed = secrets.randbits(64) if seed is None else seed
        # A small seed (1, 2, ...) spread over the 64 bits; odd, for the generator's period.
        self.state = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & _BITS | 1

    def act(self, view: HandView) -> Action:
        legal = view.legal_actions
        if not legal:
            raise not_to_act(view)
        self.state = state = self.state * 0xF1357AEA2E62A9C5 & _BITS  # next(), inline
        # 32 bits modulo at most a handful of actions: the bias is below 2**-29.
        return legal[(state >> 32) % len(legal)]


class CallingStation:
    """Never folds, never raises: checks or calls, posts the bring-in when it must."""

    name = "station"

    def __init__(self, seed: int | None = None) -> None:
        del seed

    def act(self, view: HandView) -> Action:
        if not view.legal_actions:
            raise not_to_act(view)
        by_kind = {a.kind: a for a in view.legal_actions}
        for kind in (ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN, ActionKind.SHOW):
            if kind in by_kind:
                return by_kind[kind]
        return view.legal_actions[0]
