"""A session at one table: seats, stacks carried from hand to hand, sitting out, rebuys.

The table drives the engine and knows nothing of sockets or terminals. Table seats are
numbered 1..8; a hand numbers its players 1..n in the same clockwise order.
"""

from __future__ import annotations

from dataclasses import dataclass

from stud.bots.base import Bot
from stud.cards import Deck
from stud.engine import Hand
from stud.rules import PROFILES, Rules, Stakes, Variant


class TableError(ValueError):
    """A seat, buy-in or start the table cannot allow: which seat and why."""


@dataclass(slots=True)
class Seat:
    number: int
    name: str
    stack: int
    bot: Bot | None = None
    sitting_out: bool = False


class Table:
    def __init__(self, variant: Variant, stakes: Stakes, rules: Rules | None = None,
                 seats: int = 8) -> None:
        if not 2 <= seats <= 8:
            raise TableError(f"a stud table has 2 to 8 seats, not {seats}")
        self.variant = variant
        self.stakes = stakes
        self.rules = rules or PROFILES["standard"]
        self.size = seats
        self.seats: dict[int, Seat] = {}
        self.hand: Hand | None = None
        self.hand_seats: tuple[int, ...] = ()
        self.hands_played = 0

    def sit(self, number: int, name: str, buy_in: int, bot: Bot | None = None) -> Seat:
        if not 1 <= number <= self.size:
            raise TableError(f"seat {number} does not exist (seats 1 to {self.size})")
        if number in self.seats:
            raise TableError(f"seat {number} is taken by {self.seats[number].name}")
        if buy_in <= 0:
            raise TableError(f"seat {number}: a buy-in must be more than 0 chips, not {buy_in}")
        seat = self.seats[number] = Seat(number, name, buy_in, bot)
        return seat

    def leave(self, number: int) -> int:
        """The player leaves with their chips (not during a hand they are in)."""
        if self.hand is not None and not self.hand.is_over and number in self.hand_seats:
            raise TableError(f"seat {number} is in a hand; leave when it is over")
        seat = self.seats.pop(number, None)
        if seat is None:
            raise TableError(f"seat {number} is empty")
        return seat.stack

    def rebuy(self, number: int, amount: int) -> None:
        if self.hand is not None and not self.hand.is_over and number in self.hand_seats:
            raise TableError(f"seat {number} is in a hand; add chips when it is over")
        if amount <= 0:
            raise TableError(f"seat {number}: a rebuy must be more than 0 chips")
        self.seats[number].stack += amount

    def ready(self) -> list[int]:
        return [n for n in sorted(self.seats) if self.seats[n].stack > 0
                and not self.seats[n].sitting_out]

    def start_hand(self, deck: Deck | None = None) -> Hand:
        if self.hand is not None and not self.hand.is_over:
            raise TableError("a hand is already in progress")
        ready = self.ready()
        if len(ready) < 2:
            raise TableError("at least two players with chips must be sitting in")
        self.hand_seats = tuple(ready)
        self.hand = Hand(self.variant, self.stakes, [self.seats[n].stack for n in ready],
                         self.rules, deck)
        return self.hand

    def table_seat(self, hand_seat: int) -> int:
        return self.hand_seats[hand_seat - 1]

    def hand_seat(self, table_seat: int) -> int | None:
        return self.hand_seats.index(table_seat) + 1 if table_seat in self.hand_seats else None

    def play_bots(self) -> None:
        """Let bots act until a human is to act or the hand is over."""
        hand = self.hand
        assert hand is not None
        seats, order = self.seats, self.hand_seats
        while not hand.is_over:
            actor = hand.actor
            assert actor is not None
            bot = seats[order[actor]].bot
            if bot is None:
                return
            hand.act(bot.act(hand.view(actor + 1)), actor + 1)

    def finish_hand(self) -> None:
        """Carry the stacks of a finished hand back to the seats."""
        hand = self.hand
        if hand is None or not hand.is_over:
            raise TableError("no finished hand to settle")
        for k, number in enumerate(self.hand_seats):
            if number in self.seats:
                self.seats[number].stack = hand.stacks[k]
        self.hands_played += 1
