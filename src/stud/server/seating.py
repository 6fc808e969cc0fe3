"""Seats at a table: sitting down, adding chips, bots, sitting out and leaving.

A part of ``Room`` (a mixin): each message handler checks the message, asks the store to move
the chips (the store first, so nothing is shown that is not kept), then changes the table.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from stud.bots import BOTS, make_bot
from stud.server.connection import Client, ProtocolError, int_field
from stud.server.store import Account, Store, TableSpec
from stud.table import Table

if TYPE_CHECKING:
    from stud.server.room import Timing


class Seating:
    spec: TableSpec
    store: Store
    table: Table
    timing: Timing
    accounts: dict[int, int]
    bots: dict[int, str]
    leaving: set[int]
    number: int
    db: Callable[..., Awaitable[Any]]
    seat_of_account: Callable[[int | None], int | None]
    broadcast: Callable[[], None]
    _in_hand: Callable[[int], bool]
    _progress: Callable[[], Awaitable[None]]
    _schedule_next_hand: Callable[[float], None]
    _set_wallets: Callable[[int, int], None]
    _wait_for_seats: Callable[[], None]
    banks: dict[int, list[int]]
    own_bots: set[int]
    timed_out: set[int]
    clients: list[Client]
    removing: set[int]
    admits: Callable[[int | None, str | None], bool]

    def _account(self, client: Client) -> Account:
        if client.account is None:
            raise ProtocolError("no_account", "pick a nickname first: only an account may sit "
                                "or act")
        return client.account

    def _own_seat(self, client: Client) -> int:
        seat = self.seat_of_account(self._account(client).id)
        if seat is None:
            raise ProtocolError("not_seated", f"you have no seat at table {self.spec.id}")
        return seat

    def _free_seat(self, message: dict[str, object]) -> int:
        seat = int_field(message, "seat")
        if not 1 <= seat <= self.spec.seats:
            raise ProtocolError("no_such_seat", f"seat {seat} does not exist: this table has "
                                f"seats 1 to {self.spec.seats}")
        if seat in self.table.seats:
            raise ProtocolError("seat_taken", f"seat {seat} is taken by "
                                f"{self.table.seats[seat].name}")
        return seat

    def _buy_in(self, message: dict[str, object], default: int | None = None) -> int:
        small = self.spec.stakes.small_bet
        low, high = 10 * small, 500 * small
        amount = (default if default is not None and "buy_in" not in message
                  else int_field(message, "buy_in"))
        if not low <= amount <= high:
            raise ProtocolError("bad_buy_in", f"buy_in must be from {low} to {high} chips "
                                f"(10 to 500 small bets), not {amount}")
        return amount

    async def _sit(self, client: Client, message: dict[str, object]) -> None:
        account = self._account(client)
        if not self.admits(account.id, client.invite):  # a player no more, without the link
            raise ProtocolError("not_invited", "you are no longer a player at this private "
                                "table: ask the host for its invite link")
        if self.seat_of_account(account.id) is not None:
            raise ProtocolError("already_seated", f"you are already in seat "
                                f"{self.seat_of_account(account.id)}")
        seat = self._free_seat(message)
        buy_in = self._buy_in(message)
        bank = self.spec.time_bank.start * 1000
        row = await self.db(self.store.sit, self.spec.id, seat, account.id, buy_in, bank)
        self.table.sit(seat, row.nickname, row.stack)
        self.accounts[seat] = account.id
        self.banks[seat] = [bank, 0]
        if account.own_bot:
            self.own_bots.add(seat)
        self._set_wallets(account.id, -buy_in)
        self._wait_for_seats()
        self.broadcast()

    async def _rebuy(self, client: Client, message: dict[str, object]) -> None:
        seat = self._own_seat(client)
        if self._in_hand(seat):
            raise ProtocolError("in_hand", f"seat {seat} is in hand {self.number}: add chips "
                                "when it is over")
        amount = int_field(message, "amount")
        small = self.spec.stakes.small_bet
        stack, least, most = self.table.seats[seat].stack, 10 * small, 500 * small
        if stack >= most:
            raise ProtocolError("bad_buy_in", f"seat {seat} holds {stack} chips, already the "
                                f"most a stack may be topped up to ({most}, 500 small bets)")
        # A stack below the least buy-in is topped up to at least it: a chip or two after going
        # broke would get round the buy-in's minimum.
        low = max(1, least - stack)
        if not low <= amount <= most - stack:
            raise ProtocolError("bad_buy_in", f"amount must be from {low} to {most - stack} "
                                f"chips (a stack holds from {least} to {most}, 10 to 500 small "
                                f"bets; yours holds {stack}), not {amount}")
        row = await self.db(self.store.add_chips, self.spec.id, seat, self._account(client).id,
                            amount)
        self.table.seats[seat].stack = row.stack
        self._set_wallets(row.account_id, -amount)
        self.broadcast()
        self._schedule_next_hand(0.5 * self.timing.hand_pause)

    def _may_seat_bots(self, client: Client) -> None:
        """Bots are seated and unseated by the players at the table or its host."""
        account = self._account(client)
        if account.id != self.spec.host and self.seat_of_account(account.id) is None:
            raise ProtocolError("not_seated", "only the players at this table or its host may "
                                "add or remove bots: take a seat first")

    async def _add_bot(self, client: Client, message: dict[str, object]) -> None:
        self._account(client)
        bot = message.get("bot")
        if bot not in BOTS:
            raise ProtocolError("bad_message", f"bot must be one of {', '.join(BOTS)}, "
                                f"not {bot!r}")
        seat = self._free_seat(message)
        buy_in = self._buy_in(message, default=100 * self.spec.stakes.small_bet)
        self._may_seat_bots(client)  # a message that is wrong anyway is told why first
        assert isinstance(bot, str)
        row = await self.db(self.store.add_bot, self.spec.id, seat, bot, buy_in)
        self.table.sit(seat, bot_name(bot, seat), row.stack, make_bot(bot))
        self.accounts[seat] = row.account_id
        self.bots[seat] = bot
        self._wait_for_seats()
        self.broadcast()

    async def _remove_bot(self, client: Client, message: dict[str, object]) -> None:
        seat = int_field(message, "seat")
        self._may_seat_bots(client)
        if seat not in self.bots:
            raise ProtocolError("no_such_seat", f"seat {seat} has no bot")
        await self._leave_seat(seat)

    async def _leave(self, client: Client, message: dict[str, object]) -> None:
        await self._leave_seat(self._own_seat(client))

    async def _leave_seat(self, seat: int) -> None:
        if self._in_hand(seat):
            # Checks or folds when it is to act; leaves at the end, even after a stop.
            await self.db(self.store.set_leaving, self.spec.id, seat, True)
            self.leaving.add(seat)
            hand = self.table.hand
            if hand is not None and self.table.table_seat(hand.to_act or 0) == seat:
                await self._progress()
            else:
                self.broadcast()
            return
        await self._cash_out(seat)
        self.broadcast()

    async def _cash_out(self, seat: int) -> None:
        chips = await self.db(self.store.leave, self.spec.id, seat)
        self.table.seats.pop(seat)
        account = self.accounts.pop(seat)
        self.bots.pop(seat, None)
        self.banks.pop(seat, None)
        self.leaving.discard(seat)
        self.own_bots.discard(seat)
        self.timed_out.discard(seat)
        self._set_wallets(account, chips)
        if seat in self.removing:  # removed by the host: without the current link, shown out
            self.removing.discard(seat)
            for other in list(self.clients):
                if other.account is not None and other.account.id == account and \
                        not self.admits(account, other.invite):
                    other.shut(4403, "the host removed you from this private table: ask the "
                               "host for its invite link")

    async def _sit_out(self, client: Client, message: dict[str, object]) -> None:
        await self._set_sitting_out(self._own_seat(client), True)
        self.broadcast()

    async def _sit_in(self, client: Client, message: dict[str, object]) -> None:
        seat = self._own_seat(client)
        await self._set_sitting_out(seat, False)
        self.timed_out.discard(seat)
        self.broadcast()
        self._schedule_next_hand(0.5 * self.timing.hand_pause)

    async def _set_sitting_out(self, seat: int, sitting_out: bool) -> None:
        if self.table.seats[seat].sitting_out != sitting_out:
            await self.db(self.store.set_sitting_out, self.spec.id, seat, sitting_out)
            self.table.seats[seat].sitting_out = sitting_out


def bot_name(bot: str, seat: int) -> str:
    return f"{bot}-{seat}"
