"""The action clock and each seat's time bank (a part of ``Room``, a mixin).

A player to act has the table's clock; when it runs out, the seat's time bank (PokerStars'
way: extra seconds that grow by a few every so many hands, to a cap; ``TimeBank``) is used at
once, without asking. What the bank gives and is not used stays in it. When the bank is empty
too, the house checks or folds for the seat, which sits out, and the seat is marked as timed
out (in the frame and in a notice) until it acts again, which also takes it back in.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from stud.engine import Action, ActionKind, Hand
from stud.server.frames import Json
from stud.server.store import TableSpec
from stud.table import Table

if TYPE_CHECKING:
    from stud.server.deal import Deal
    from stud.server.room import Timing


class Clock:
    spec: TableSpec
    table: Table
    timing: Timing
    number: int
    banks: dict[int, list[int]]  # table seat -> [bank ms, hands since it last grew]
    deal: Deal | None
    timed_out: set[int]
    _turn: int
    _progress: Callable[[], Awaitable[None]]
    _safely: Callable[[Awaitable[None]], Awaitable[None]]
    _set_sitting_out: Callable[[int, bool], Awaitable[None]]
    notice: Callable[..., None]
    broadcast: Callable[[], None]
    lock: asyncio.Lock
    db: Callable[..., Awaitable[Any]]

    deadline: float | None = None
    _timer: asyncio.Task[None] | None = None
    # While a seat spends its bank: the seat, when the bank began to run, and what it held.
    _banking: tuple[int, float, int] | None = None

    @property
    def _scale(self) -> float:
        return self.timing.clock_scale

    def _start_clock(self, seat: int, turn: int) -> None:
        seconds = self.spec.clock * self._scale
        self.deadline = time.monotonic() + seconds
        self._timer = asyncio.get_running_loop().create_task(self._expire(seat, turn, seconds))

    def _stop_clock(self) -> None:
        """The seat to act acted (or the hand moved on): what it used of its bank is gone."""
        if self._banking is not None:
            seat, began, held = self._banking
            used = int((time.monotonic() - began) / self._scale * 1000) if self._scale else 0
            if seat in self.banks:
                self.banks[seat][0] = max(0, held - used)
            self._banking = None
        self.deadline = None
        if self._timer is not None and self._timer is not asyncio.current_task():
            self._timer.cancel()
        self._timer = None

    async def _expire(self, seat: int, turn: int, seconds: float) -> None:
        await asyncio.sleep(seconds)
        bank = self.banks.get(seat, [0, 0])[0]
        if bank > 0 and turn == self._turn:
            self._banking = (seat, time.monotonic(), bank)
            self.deadline = time.monotonic() + bank / 1000 * self._scale
            self.broadcast()
            await asyncio.sleep(bank / 1000 * self._scale)
        async with self.lock:
            hand = self.table.hand
            if turn != self._turn or hand is None or hand.to_act is None:
                return
            if self._banking is not None and seat in self.banks:
                self.banks[seat][0] = 0
            self._banking = None
            if self.deal is not None and self.deal.hand is hand:
                self.deal.clock_acts()
            hand.act(forced(hand), hand.to_act)
            if seat in self.table.seats:
                self.timed_out.add(seat)
                self.notice("timed_out", seat=seat, name=self.table.seats[seat].name,
                            hand=self.number)
                await self._safely(self._set_sitting_out(seat, True))
            await self._safely(self._progress())

    def clock_json(self) -> Json | None:
        hand = self.table.hand
        if self.deadline is None or hand is None or hand.to_act is None:
            return None
        total = int(self.spec.clock * self._scale * 1000)
        remaining = max(0, int((self.deadline - time.monotonic()) * 1000))
        seat = self.table.table_seat(hand.to_act)
        if self._banking is not None:
            total = int(self._banking[2] * self._scale)
        return {"seat": seat, "remaining_ms": remaining, "total_ms": total,
                "bank": self._banking is not None}

    def bank_json(self, seat: int) -> int:
        """The seat's bank as the page should show it: what is left while it runs."""
        if self._banking is not None and self._banking[0] == seat and self.deadline:
            return max(0, int((self.deadline - time.monotonic()) / self._scale * 1000)) \
                if self._scale else 0
        return self.banks.get(seat, [0, 0])[0]

    def grow_banks(self, seats: tuple[int, ...]) -> dict[int, tuple[int, int]]:
        """One more hand played at these seats: their banks grow as the table says."""
        grown = {}
        for seat in seats:
            if seat in self.banks:
                bank, hands = self.spec.time_bank.grown(*self.banks[seat])
                self.banks[seat] = [bank, hands]
                grown[seat] = (bank, hands)
        return grown


def forced(hand: Hand) -> Action:
    """What the house does for a seat that does not act: check if it can, else fold; a bring-in
    that cannot be folded is posted."""
    legal = hand.legal_actions()
    for kind in (ActionKind.CHECK, ActionKind.FOLD, ActionKind.BRING_IN):
        for action in legal:
            if action.kind is kind:
                return action
    return legal[0]
