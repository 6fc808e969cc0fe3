"""Bots, chosen by name: ``make_bot("strength", seed=1)``."""

from __future__ import annotations

from collections.abc import Callable

from stud.bots.base import Bot
from stud.bots.equity import EquityBot
from stud.bots.expert import ExpertBot
from stud.bots.simple import CallingStation, RandomBot
from stud.bots.strength import StrengthBot

BOTS: dict[str, Callable[[int | None], Bot]] = {
    "random": RandomBot,
    "station": CallingStation,
    "strength": StrengthBot,
    "expert": ExpertBot,
    "equity": EquityBot,
}


def make_bot(name: str, seed: int | None = None) -> Bot:
    try:
        return BOTS[name](seed)
    except KeyError:
        raise ValueError(f"unknown bot {name!r}: choose from {', '.join(BOTS)}") from None


__all__ = ["BOTS", "Bot", "CallingStation", "RandomBot", "StrengthBot", "make_bot"]
