"""What a table's host may do (a part of ``Room``, a mixin): renew the invite link of a private
table, pause and resume the game, remove a player between hands, close the table; and what
anyone seated may do: deal the next hand now instead of waiting for more players.

The host is the account that opened the table. A closed table pays every stack back to its
wallet (in the ledger, one transaction) and is gone from the lobby; its clients are told.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from stud.server.connection import Client, ProtocolError, int_field
from stud.server.store import Store, TableSpec
from stud.table import Table

if TYPE_CHECKING:
    from stud.server.room import Timing


class Hosting:
    spec: TableSpec
    store: Store
    table: Table
    timing: Timing
    clients: list[Client]
    accounts: dict[int, int]
    bots: dict[int, str]
    paused: bool
    closing: bool
    invite: str | None
    removing: set[int]
    _not_before: float
    _held_until: float
    number: int
    _next: asyncio.Task[None] | None
    db: Callable[..., Awaitable[Any]]
    broadcast: Callable[[], None]
    notice: Callable[..., None]
    seat_of_account: Callable[[int | None], int | None]
    _account: Callable[[Client], Any]
    _in_hand: Callable[[int], bool]
    _leave_seat: Callable[[int], Awaitable[None]]
    _cash_out: Callable[[int], Awaitable[None]]
    _schedule_next_hand: Callable[[float], None]
    on_close: Callable[[], None]

    def _host(self, client: Client) -> int:
        account = self._account(client)
        if account.id != self.spec.host:
            raise ProtocolError("not_host", "only the table's host (the account that opened "
                                "it) may do that")
        return int(account.id)

    def admits(self, account_id: int | None, invite: str | None) -> bool:
        """May this account (or nobody) watch or join? A public table admits anyone; a private
        one its host, its players, and whoever brings the current invite secret."""
        if not self.spec.private:
            return True
        if account_id is not None and (account_id == self.spec.host
                                       or account_id in self.accounts.values()):
            return True
        return self.invite is not None and invite == self.invite

    # ------------------------------------------------------------------ waiting for players

    def hold_for_a_player(self, seconds: float) -> None:
        """Deal no hand for ``seconds`` unless a player (not a bot) sits down first: a Play now
        table's bots wait for the player it was opened for, who sits from the table page."""
        self._held_until = time.monotonic() + seconds
        self._not_before = max(self._not_before, self._held_until)

    def awaits_a_player(self) -> bool:
        """Held for the player it was opened for (``hold_for_a_player``), who has not sat yet:
        such a table stays where it is, not moved to even the load while the player comes."""
        return time.monotonic() < self._held_until

    def _wait_for_seats(self) -> None:
        """A seat was taken: give the others a moment to sit too before a hand is dealt."""
        if self.table.hand is None or self.table.hand.is_over:
            later = time.monotonic() + self.timing.seat_wait
            if self.awaits_a_player() and any(s not in self.bots for s in self.accounts):
                self._not_before, self._held_until = later, 0.0  # a player sat: the hold ends
                self._deal_sooner()
                return
            self._not_before = max(self._not_before, later)
        self._schedule_next_hand(0.0)

    def _deal_sooner(self) -> None:
        """The next hand's time was brought forward: the next-hand task, asleep until the old
        time, is replaced by one that reads the new time. Callers hold the room's lock, and the
        task takes that lock before it starts a hand, so it is cancelled only while it waits."""
        if self._next is not None and not self._next.done():
            self._next.cancel()
        self._next = None
        self._schedule_next_hand(0.0)

    def next_hand_ms(self) -> int | None:
        """How long until the next hand may be dealt, when one is waited for."""
        if self.paused or (self.table.hand is not None and not self.table.hand.is_over) \
                or len(self.table.ready()) < 2:
            return None
        return max(0, int((self._not_before - time.monotonic()) * 1000))

    async def _start(self, client: Client, message: dict[str, object]) -> None:
        account = self._account(client)
        if account.id != self.spec.host and self.seat_of_account(account.id) is None:
            raise ProtocolError("not_seated", "only the players at this table or its host may "
                                "deal the next hand now")
        if self.paused:
            raise ProtocolError("paused", "the table is paused: its host resumes it")
        self._not_before = time.monotonic()
        self._deal_sooner()

    # ------------------------------------------------------------------ the host's powers

    async def _pause(self, client: Client, message: dict[str, object]) -> None:
        self._host(client)
        if not self.paused:
            await self.db(self.store.set_paused, self.spec.id, True)
            self.paused = True
            self.notice("paused", hand=self.number)
        self.broadcast()

    async def _resume(self, client: Client, message: dict[str, object]) -> None:
        self._host(client)
        if self.paused and not self.closing:
            await self.db(self.store.set_paused, self.spec.id, False)
            self.paused = False
            self.notice("resumed")
        self.broadcast()
        self._schedule_next_hand(0.0)

    async def _renew_invite(self, client: Client, message: dict[str, object]) -> None:
        self._host(client)
        if not self.spec.private:
            raise ProtocolError("not_private", f"table {self.spec.id} is public: it needs no "
                                "invite")
        self.invite = await self.db(self.store.renew_invite, self.spec.id)
        # Watchers who came in by the old link are shown out; players and the host stay.
        for other in list(self.clients):
            account_id = other.account.id if other.account else None
            if not self.admits(account_id, other.invite):
                other.shut(4403, "the invite link was renewed: ask the host for the new one")
        self.broadcast()

    async def _remove_player(self, client: Client, message: dict[str, object]) -> None:
        host = self._host(client)
        seat = int_field(message, "seat")
        if seat not in self.table.seats:
            raise ProtocolError("no_such_seat", f"seat {seat} is empty")
        if self.accounts.get(seat) == host:
            raise ProtocolError("bad_message", "the host leaves with Leave, not by removing "
                                "their own seat")
        name = self.table.seats[seat].name
        self.removing.add(seat)
        await self._leave_seat(seat)  # in a hand: checks or folds, and goes when it ends
        self.notice("removed", seat=seat, name=name)

    async def _close_table(self, client: Client, message: dict[str, object]) -> None:
        self._host(client)
        if self.table.hand is not None and not self.table.hand.is_over:
            # Kept, so that a stop before the hand ends still closes the table.
            await self.db(self.store.set_paused, self.spec.id, True, True)
        self.closing = self.paused = True
        if self.table.hand is not None and not self.table.hand.is_over:
            self.notice("closing", hand=self.number)
            self.broadcast()  # the hand is played out; the table closes when it ends
            return
        await self._close()

    async def _close(self) -> None:
        """Every stack back to its wallet, the table closed, its clients told."""
        # A hand played out before closing is shown ended (showdown and all) before the close.
        self.broadcast()
        paid = await self.db(self.store.close_table, self.spec.id)
        self.removing.clear()
        for seat, _account, _chips in paid:
            self.table.seats.pop(seat, None)
            account = self.accounts.pop(seat)
            self.bots.pop(seat, None)
            self._set_wallets(account, _chips)
        self.notice("closed")
        self.broadcast()  # each client's wallet with its stack back, before the close
        for other in list(self.clients):
            other.shut(4410, "the host closed this table")
        self.on_close()

    _set_wallets: Callable[[int, int], None]
