"""Turning hands up: at an all-in when no more betting is possible, and at the showdown.

``Reveal`` owns the showdown's queue (who shows or mucks next, RULES.md 6), each hand's values
there (worked out once), and the pots among the hands still in; the awards themselves are the
pure function ``showdown.award``.
"""

from __future__ import annotations

from stud.engine.dealer import Dealer
from stud.engine.events import Event, HandMucked, HandShown, PotAwarded
from stud.engine.order import showdown_order
from stud.engine.pots import Pot, build_pots
from stud.engine.seats import Seats
from stud.engine.showdown import (
    HandEnd,
    Values,
    award,
    can_win,
    hand_values,
    may_muck,
    uncontested,
)
from stud.rules import Rules, Variant

_LAST_CARD = 7  # a hand's cards, the community card included, once every street is dealt


class Reveal:
    """Which hands are turned up, in what order, and what they are worth."""

    __slots__ = ("variant", "rules", "seats", "dealer", "events", "auto", "as_written", "queue",
                 "values", "_pots")

    def __init__(self, variant: Variant, rules: Rules, seats: Seats, dealer: Dealer,
                 events: list[Event], auto: bool, as_written: bool = False) -> None:
        self.variant = variant
        self.rules = rules
        self.seats = seats
        self.dealer = dealer
        self.events = events
        self.auto = auto  # the engine shows what can win and mucks the rest
        # A history's shows and mucks, taken as it records them (RULES.md 10): a player there
        # may muck a hand that could still win (a concession), unless nobody would be left to
        # claim a pot; the history's unknown down cards are the engine's guesses anyway.
        self.as_written = as_written
        self.queue: list[int] = []  # the showdown's players still to show or muck, in order
        self.values: dict[int, Values] = {}
        self._pots: dict[tuple[bool, ...], list[Pot]] = {}

    def _order(self, last_aggressor: int | None) -> list[int]:
        return showdown_order(self.variant, self.rules, self.seats, self.dealer.board,
                              last_aggressor)

    def _values(self, i: int) -> Values:
        values = self.values.get(i)
        if values is None:
            values = self.values[i] = hand_values(self.variant,
                                                  self.seats.cards[i] + self.dealer.board)
        return values

    def pots(self) -> list[Pot]:
        """The pots among the hands still in the showdown (chips no longer move)."""
        seats = self.seats
        live = tuple(seats.in_showdown(i) for i in range(seats.count))
        pots = self._pots.get(live)
        if pots is None:
            pots = self._pots[live] = build_pots(seats.committed, live)
        return pots

    def may_muck(self, i: int) -> bool:
        """RULES.md 6: a player who cannot win any part of a pot against the hands shown so far
        may muck; one who still can must show (a history replayed as written: see above)."""
        if self.as_written:
            return may_muck(self.pots(), i)
        return not self._can_win(i)

    def _can_win(self, i: int) -> bool:
        """Whether player i can still win part of a pot against the hands already shown (at
        the showdown every card is dealt: a hand turned up earlier is valued whole here)."""
        seats = self.seats
        for j in range(seats.count):
            if j == i or seats.shown[j]:
                self._values(j)
        return can_win(self.pots(), seats.shown, i, self.values)

    def show(self, i: int) -> None:
        seats = self.seats
        seats.show(i)
        cards = seats.cards[i] + self.dealer.board
        high, low = self._values(i) if len(cards) == _LAST_CARD else \
            hand_values(self.variant, cards)  # turned up before the last card
        self.events.append(HandShown(i + 1, tuple(seats.cards[i]), high, low))

    def muck(self, i: int) -> None:
        self.seats.muck(i)
        self.events.append(HandMucked(i + 1))

    def turn_up_all(self, last_aggressor: int | None) -> None:
        """No more betting is possible: every live hand is turned up (RULES.md 6), in showdown
        order; under ``all_in_muck`` a replayed history decides at the showdown instead."""
        if self.rules.all_in_muck and not self.auto:
            return
        for i in self._order(last_aggressor):
            if not self.seats.shown[i]:
                self.show(i)

    def start(self, last_aggressor: int | None) -> None:
        """The showdown begins: when someone is all in every hand is turned up; then the
        queue, the last player to bet or raise on seventh street first."""
        seats = self.seats
        if any(not seats.folded[i] and not seats.stacks[i] for i in range(seats.count)):
            self.turn_up_all(last_aggressor)
        self.queue = [i for i in self._order(last_aggressor)
                      if not seats.shown[i] or seats.shown_count[i] < len(seats.cards[i])]

    def next(self) -> int | None:
        """Show what needs no decision; the player who must choose show or muck, or None when
        the showdown is over."""
        queue, seats = self.queue, self.seats
        while queue:
            i = queue[0]
            if seats.shown[i]:
                # Turned up when the betting ended; shown again with the cards dealt since.
                queue.pop(0)
                self.show(i)
                continue
            if not self.auto:
                return i
            queue.pop(0)
            if self._can_win(i):
                self.show(i)
            else:
                self.muck(i)
        return None

    def decide(self, i: int, show: bool) -> None:
        """Player i, first in the queue, shows or mucks."""
        self.queue.pop(0)
        if show:
            self.show(i)
        else:
            self.muck(i)

    def awards(self) -> tuple[PotAwarded, ...]:
        """Every pot's award (RULES.md 5-7)."""
        seats, board = self.seats, self.dealer.board
        if seats.live_count == 1 and not any(seats.shown):
            return (uncontested(seats.folded.index(False), seats.pot),)
        n = seats.count
        end = HandEnd(self.variant, self.rules, tuple(seats.committed),
                      tuple(tuple(seats.cards[i] + board) for i in range(n)),
                      tuple(seats.in_showdown(i) for i in range(n)), tuple(seats.shown))
        return award(end, self.values)
