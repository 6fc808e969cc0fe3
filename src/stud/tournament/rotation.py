"""What each hand plays: one game throughout, or the stud rotation changing every N hands.

>>> r = Rotation.orbit(6)  # razz, stud, stud hi/lo: one orbit of six hands each
>>> [r.variant(n).value for n in (1, 6, 7, 12, 13, 18, 19)]
['razz', 'razz', 'stud', 'stud', 'stud8', 'stud8', 'razz']
>>> r.next_change(4)
(7, <Variant.STUD: 'stud'>)
>>> Rotation.fixed(Variant.STUD8).next_change(4) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass

from stud.rules import Variant

# The stud-only mixed game: razz, then stud, then stud hi/lo, and round again.
STUD_ROTATION: tuple[Variant, ...] = (Variant.RAZZ, Variant.STUD, Variant.STUD8)


class RotationError(ValueError):
    """A rotation that cannot be played: which setting and why."""


@dataclass(frozen=True, slots=True)
class Rotation:
    """``games`` in turn, each for ``every`` hands (hand numbers from 1). One game alone is a
    tournament of that game."""

    games: tuple[Variant, ...]
    every: int

    def __post_init__(self) -> None:
        if not self.games:
            raise RotationError("a rotation of no games")
        if not isinstance(self.every, int) or isinstance(self.every, bool) or self.every < 1:
            raise RotationError(f"a rotation changes game every 1 or more hands, "
                                f"not {self.every!r}")

    @staticmethod
    def orbit(seats: int, every: int | None = None) -> Rotation:
        """The stud rotation, changing game every ``every`` hands: by default one orbit, the
        table's number of seats (it stays so when players bust: the seats are still there)."""
        return Rotation(STUD_ROTATION, seats if every is None else every)

    @staticmethod
    def fixed(variant: Variant) -> Rotation:
        return Rotation((variant,), 1)

    @property
    def name(self) -> str:
        """``rotation``, or the one game's name (``stud``, ``stud8``, ``razz``)."""
        return "rotation" if len(self.games) > 1 else self.games[0].value

    @property
    def full_name(self) -> str:
        if len(self.games) == 1:
            return self.games[0].full_name
        games = ", ".join(game.value for game in self.games)
        return f"the stud rotation ({games}; {self.every} hands each)"

    def variant(self, hand: int) -> Variant:
        """The game hand number ``hand`` (from 1) plays."""
        if hand < 1:
            raise RotationError(f"hands are numbered from 1, not {hand}")
        return self.games[(hand - 1) // self.every % len(self.games)]

    def next_change(self, hand: int) -> tuple[int, Variant] | None:
        """The first hand after ``hand`` to play another game, and that game; None when the
        game never changes."""
        if len(set(self.games)) == 1:
            return None
        current = self.variant(hand)
        following = ((hand - 1) // self.every + 1) * self.every + 1
        while self.variant(following) == current:  # a game listed twice in a row
            following += self.every
        return following, self.variant(following)


__all__ = ["STUD_ROTATION", "Rotation", "RotationError"]
