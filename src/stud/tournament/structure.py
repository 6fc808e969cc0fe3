"""Levels and structures: the stakes of a tournament, rising by hands played or by minutes.

>>> s = structure("standard", starting_stack=2000)
>>> str(s.levels[0].stakes), s.levels[0].length, s.per
('40/80 (ante 10, bring-in 20)', 10, 'hands')
>>> s.level_at(0).number, s.level_at(9).number, s.level_at(10).number
(1, 1, 2)
>>> str(structure("turbo", 2000).level_at(10).stakes)
'80/160 (ante 20, bring-in 40)'

A level's stakes are ``Stakes.for_limit`` of its small bet (the house's usual structure:
bring-in half the small bet, ante a quarter, big bet twice the small; RULES.md 1). A new
level applies from the next hand on: a hand is played out at the level it started under
(TDA: "the new level applies to the next hand").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from stud.rules import Stakes

Per = Literal["hands", "minutes"]
PER: tuple[str, ...] = ("hands", "minutes")

# Small bets of the level-1 small bet, one decade of levels: each about 1.4 times the one
# before (a stack is worth some 30% fewer small bets every level), in round numbers.
_STEPS = (1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 7.5)
_DECADES = 3  # listed levels; a structure goes on past them (``Structure.level``)
# A starting stack of 50 small bets of level 1, as the issue proposes.
SMALL_BETS_DEEP = 50
LENGTHS: dict[str, int] = {"standard": 10, "turbo": 5}  # hands (or minutes) a level


class StructureError(ValueError):
    """A structure that cannot be played: which level or setting, and why."""


@dataclass(frozen=True, slots=True)
class Level:
    """Level ``number`` (from 1): its stakes (ante included), for ``length`` hands or minutes."""

    number: int
    stakes: Stakes
    length: int

    def __str__(self) -> str:
        return f"level {self.number}: {self.stakes}"


@dataclass(frozen=True, slots=True)
class Structure:
    """Levels one after another, each ``length`` hands or minutes long (``per``).

    Past the last level listed, each further level doubles the stakes of the one before and
    lasts as long as the last listed one: the stakes never stop rising, so every tournament
    ends (at worst, with everyone all in on the antes).
    """

    name: str
    per: Per
    levels: tuple[Level, ...]

    def __post_init__(self) -> None:
        if self.per not in PER:
            raise StructureError(f"structure {self.name}: levels go by hands or by minutes, "
                                 f"not {self.per!r}")
        if not self.levels:
            raise StructureError(f"structure {self.name}: at least one level")
        for k, level in enumerate(self.levels, start=1):
            if level.number != k:
                raise StructureError(f"structure {self.name}: level {k} is numbered "
                                     f"{level.number}")
            if level.length < 1:
                raise StructureError(f"structure {self.name}: level {k} lasts {level.length} "
                                     f"{self.per}; at least 1")

    def level(self, number: int) -> Level:
        """Level ``number`` (from 1), listed or beyond the list."""
        if number < 1:
            raise StructureError(f"structure {self.name}: levels start at 1, not {number}")
        if number <= len(self.levels):
            return self.levels[number - 1]
        last = self.levels[-1]
        factor = 2 ** (number - last.number)
        s = last.stakes
        return Level(number, Stakes(s.ante * factor, s.bring_in * factor, s.small_bet * factor,
                                    s.big_bet * factor), last.length)

    def level_at(self, elapsed: float) -> Level:
        """The level in force after ``elapsed`` hands (or minutes) of play."""
        if elapsed < 0:
            raise StructureError(f"structure {self.name}: {elapsed} {self.per} elapsed")
        start = 0
        for level in self.levels:
            if elapsed < start + level.length:
                return level
            start += level.length
        past = int((elapsed - start) // self.levels[-1].length)
        return self.level(len(self.levels) + 1 + past)

    def describe(self) -> str:
        return f"{self.name} structure (levels of {self.levels[0].length} {self.per})"


def ladder(starting_stack: int, length: int, name: str, per: Per = "hands") -> Structure:
    """Levels whose first small bet is a 50th of the starting stack, rising about 1.4 times a
    level (1, 1.5, 2, 3, 4, 5, 7.5, 10, ... small bets of level 1), each ``length`` long."""
    first = starting_stack // SMALL_BETS_DEEP
    if first < 2:
        raise StructureError(f"a starting stack of {starting_stack:,} is too small: at least "
                             f"{2 * SMALL_BETS_DEEP} chips (level 1's small bet is a "
                             f"{SMALL_BETS_DEEP}th of the starting stack, and at least 2)")
    levels: list[Level] = []
    for decade in range(_DECADES):
        for step in _STEPS:
            small = round(first * step * 10 ** decade)
            if levels and small <= levels[-1].stakes.small_bet:
                small = levels[-1].stakes.small_bet + 1
            levels.append(Level(len(levels) + 1, Stakes.for_limit(small), length))
    return Structure(name, per, tuple(levels))


STRUCTURES: tuple[str, ...] = tuple(LENGTHS)


def structure(name: str, starting_stack: int, per: Per = "hands") -> Structure:
    """A named structure for this starting stack: ``standard`` (levels of 10 hands or
    minutes) or ``turbo`` (the same levels, 5 each)."""
    if name not in LENGTHS:
        raise StructureError(f"unknown structure {name!r}: choose from {', '.join(LENGTHS)}")
    if per not in PER:
        raise StructureError(f"levels go by hands or by minutes, not {per!r}")
    return ladder(starting_stack, LENGTHS[name], name, per)


__all__ = ["LENGTHS", "PER", "STRUCTURES", "Level", "Per", "Structure", "StructureError",
           "ladder", "structure"]
