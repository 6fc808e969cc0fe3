"""One table being played: its seats, its hand, its clock, its bots and its watchers.

The room drives ``stud.table.Table`` (which drives the engine) and relays views; it decides no
rule itself. Every change happens under the room's lock, in this order: the engine acts, the
store records what must be kept, then every client gets a frame built from its own view.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TypeVar

from stud.bots import make_bot
from stud.cards import Deck
from stud.engine import Action, ActionKind, IllegalAction
from stud.history.phh import dumps, from_hand
from stud.history.text import text_history
from stud.server.chat import KEPT, Chat, Notice
from stud.server.clock import Clock, forced
from stud.server.connection import MOVED, Client, ProtocolError, int_field
from stud.server.deal import Deal
from stud.server.deltas import TableFrames
from stud.server.frames import Json, player_json, public_events_json, table_json
from stud.server.games import game_of, rotation_json, rotation_of
from stud.server.hosting import Hosting
from stud.server.seating import Seating, bot_name
from stud.server.store import HandPlayer, OwnRecord, Store, StoreError, TableSpec
from stud.table import Seat, Table

log = logging.getLogger("stud.server")
T = TypeVar("T")
ACTS = frozenset({"fold", "check", "call", "bring_in", "complete", "bet", "raise"})


@dataclass(frozen=True)
class Timing:
    """Pauses that make the game watchable; tests and the load bench shorten them."""

    bot_delay: float = 0.8
    hand_pause: float = 3.0
    clock_scale: float = 1.0  # multiplies every table's clock (tests use a fraction)
    seat_wait: float = 5.0  # after a seat is taken, the others have this long to sit too


class Room(Seating, Clock, Hosting, Chat):
    def __init__(self, spec: TableSpec, store: Store, db: Callable[..., Awaitable[object]],
                 timing: Timing,
                 wallet_moved: Callable[[Room, int, int], None] | None = None,
                 on_close: Callable[[Room], None] | None = None,
                 on_mute: Callable[[int, int, bool], None] | None = None) -> None:
        self.spec = spec
        # Told of every wallet change, so an account's other tables show it too.
        self.wallet_moved = wallet_moved or (lambda room, account, change: None)
        self.store = store
        self._db = db
        self.timing = timing
        self.table = Table(spec.variant, spec.stakes, spec.rules, spec.seats)
        self.accounts: dict[int, int] = {}  # table seat -> account id
        self.bots: dict[int, str] = {}
        self.leaving: set[int] = set()
        self.removing: set[int] = set()  # seats the host removed, until they have gone
        self.clients: list[Client] = []
        self.lock = asyncio.Lock()
        self.number = spec.hands
        self.deal: Deal | None = None  # the hand in play, or just finished
        self.last: Deal | None = None  # the hand finished most recently
        self.finished: deque[float] = deque()
        self.own_bots: set[int] = set()  # seats of accounts that play by program (stud bot)
        self.banks: dict[int, list[int]] = {}
        self.timed_out: set[int] = set()
        self.paused = spec.paused
        self.closing = spec.closing  # the host closed it during a hand: it closes after it
        self.invite = spec.invite
        self._said: dict[int, deque[float]] = {}  # account -> when it last chatted
        self.notices: deque[Notice] = deque(maxlen=KEPT)  # the last, for a client that comes
        self._closed_by = on_close or (lambda room: None)
        # Told of every mute, so that the account's connections at every table follow it.
        self.mute_moved = on_mute or self.set_mute
        self._next: asyncio.Task[None] | None = None
        self.stopped = False  # closed here (a stop, or the table moved to another worker)
        self._turn = 0  # counts decisions, so a late timer or bot cannot act twice
        self._not_before = 0.0  # no hand is dealt before then (monotonic clock)
        self._held_until = 0.0  # hold_for_a_player: no hand before then, unless a player sits
        self.frames = TableFrames()  # what each client was sent: the base of its small frames
        self._seat_entries: dict[int, Json] = {}  # each seat as the public last saw it

    async def db(self, call: Callable[..., T], *args: object) -> T:
        return await self._db(call, *args)  # type: ignore[return-value]

    # ------------------------------------------------------------------ start and stop

    async def restore(self) -> None:
        """Seats and recent hands from the store (after running hands were voided)."""
        for row in await self.db(self.store.seats, self.spec.id):
            bot = make_bot(row.bot) if row.bot else None
            name = bot_name(row.bot, row.seat) if row.bot else row.nickname
            # As kept, even a stack of 0 (a player who lost every chip keeps the seat).
            self.table.seats[row.seat] = Seat(row.seat, name, row.stack, bot, row.sitting_out)
            self.accounts[row.seat] = row.account_id
            self.banks[row.seat] = [row.bank_ms, row.bank_hands]
            if row.bot:
                self.bots[row.seat] = row.bot
            if row.own_bot:
                self.own_bots.add(row.seat)
        # A leave asked for in a hand that a stop cut off (and voided) is carried out now.
        for row in await self.db(self.store.seats, self.spec.id):
            if row.leaving:
                await self._cash_out(row.seat)
        if self.closing:  # closed by its host in a hand that a stop cut off (and voided)
            await self._close()
            return
        now = time.time()
        for moment in await self.db(self.store.hand_times, self.spec.id, timedelta(hours=1)):
            self.finished.append(now - (datetime.now(UTC) - moment).total_seconds())
        self._schedule_next_hand(0.0)

    def close(self) -> None:
        """Stop playing here: no hand starts, no bot or client acts after this."""
        self.stopped = True
        for task in (self._timer, self._next):
            if task is not None:
                task.cancel()

    # ------------------------------------------------------------------ what the lobby sees

    def between_hands(self) -> bool:
        """No hand in play (the last one, if any, is over and kept)."""
        return self.table.hand is None or self.table.hand.is_over

    def hands_per_hour(self) -> float:
        cutoff = time.time() - 3600
        while self.finished and self.finished[0] < cutoff:
            self.finished.popleft()
        return float(len(self.finished))

    def summary(self) -> Json:
        # The game and stakes in play: a rotation's and a tournament's change from hand to hand.
        spec = dataclasses.replace(self.spec, hands=self.number, paused=self.paused,
                                   variant=self.table.variant, stakes=self.table.stakes)
        return table_json(spec, len(self.table.seats), self.hands_per_hour()) \
            | rotation_json(rotation_of(self.spec), self.number)  # the hand in play, or the last

    # ------------------------------------------------------------------ connections

    def on_close(self) -> None:
        self.close()
        self._closed_by(self)

    async def join(self, client: Client) -> None:
        async with self.lock:
            if self.stopped:  # given up (or stopping) while the client was on its way
                client.shut(MOVED, "the table moved: reconnect")
                return
            await self.greet(client)
            self.clients.append(client)
            self.broadcast()
            if self.table.hand is None or self.table.hand.is_over:
                self._schedule_next_hand(0.0)

    async def part(self, client: Client) -> None:
        async with self.lock:
            client.closed = True
            client.wake.set()
            if client in self.clients:
                self.clients.remove(client)
            self.broadcast()

    def seat_of_account(self, account_id: int | None) -> int | None:
        return next((s for s, a in self.accounts.items()
                     if a == account_id and s not in self.bots), None)

    # ------------------------------------------------------------------ messages

    async def handle(self, client: Client, message: object) -> None:
        """Apply one message; a refused one gets an error frame and changes nothing."""
        try:
            if not isinstance(message, dict):
                raise ProtocolError("bad_json", "a message must be a JSON object")
            kind = message.get("type")
            if kind == "ping":
                client.push_error(json.dumps({"type": "pong"}))
                return
            handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
            if handler is None:
                raise ProtocolError("bad_message", f"unknown message type {kind!r}; send one of "
                                    f"{', '.join(sorted(_HANDLERS))} or ping")
            async with self.lock:
                if self.stopped:  # the client is being told to reconnect
                    return
                await handler(self, client, message)
        except (ProtocolError, StoreError) as error:
            client.push_error(json.dumps({"type": "error", "code": error.code,
                                          "message": str(error)}))

    async def _act(self, client: Client, message: dict[str, object]) -> None:
        seat = self._own_seat(client)
        kind = message.get("action")
        if kind not in ACTS:
            raise ProtocolError("bad_message", f"action must be one of {', '.join(sorted(ACTS))}"
                                f", not {kind!r}")
        to = 0 if kind in ("fold", "check") and "to" not in message else int_field(message, "to")
        hand = self.table.hand
        if "hand" in message:
            number = int_field(message, "hand")
            if hand is None or hand.is_over or number != self.number:
                raise ProtocolError("stale_hand", f"hand {number} is not the hand in play"
                                    + (f" (hand {self.number} is)" if hand and not hand.is_over
                                       else " (no hand is being played)"))
        if hand is None or hand.is_over or hand.to_act is None:
            raise ProtocolError("not_your_turn", "no hand is being played")
        if self.table.table_seat(hand.to_act) != seat:
            raise ProtocolError("not_your_turn", f"it is seat "
                                f"{self.table.table_seat(hand.to_act)}'s turn, not yours "
                                f"(seat {seat})")
        try:
            hand.act(Action(ActionKind(kind), to), hand.to_act)
        except IllegalAction as error:  # the engine's seat numbers are not the table's
            legal = ", ".join(str(a) for a in error.legal) or "nothing"
            raise ProtocolError("illegal_action", f"seat {seat} cannot {error.action}: "
                                f"{error.reason}; legal: {legal}") from None
        if seat in self.timed_out:  # back at the table: the clock's sit-out is undone
            self.timed_out.discard(seat)
            await self._set_sitting_out(seat, False)
        await self._progress()

    # ------------------------------------------------------------------ the flow of a hand

    def _absent(self, seat: int) -> bool:
        """Sitting out (the clock ran out, say) with nobody connected: no clock is waited for."""
        return (seat not in self.bots and self.table.seats[seat].sitting_out
                and not self._connected(seat))

    def _connected(self, seat: int) -> bool:
        return any(c.account is not None and c.account.id == self.accounts.get(seat)
                   for c in self.clients)

    def _in_hand(self, seat: int) -> bool:
        deal = self.deal
        return deal is not None and not deal.hand.is_over and seat in deal.seats

    async def _start_hand(self) -> None:
        table = self.table
        if table.hand is not None and not table.hand.is_over or len(table.ready()) < 2:
            return
        if self.paused:
            return
        if self.deal is not None and self.deal.hand_id is not None:
            return  # a finished hand the store could not keep: deal no more until a restart
        if self._waits(table):
            return
        before = self.deal
        self._prepare_hand(self.number + 1)
        hand = table.start_hand(Deck.shuffled())
        self.number += 1
        seats = table.hand_seats
        deal = self.deal = Deal(hand, self.number, seats, tuple(self.accounts[s] for s in seats),
                                tuple(table.seats[s].name for s in seats))
        players = [HandPlayer(s, a, table.seats[s].stack)
                   for s, a in zip(seats, deal.accounts, strict=True)]
        try:
            deal.hand_id = await self.db(self.store.start_hand, self.spec.id, self.number,
                                         players)
        except Exception:  # unrecorded, so never dealt
            table.hand, self.deal, self.number = None, before, self.number - 1
            raise
        await self._progress()

    def _waits(self, table: Table) -> bool:
        """Bots alone with nobody watching wait for someone to come (a tournament overrides
        this: it deals to the end, watched or not)."""
        return not self.clients and all(s in self.bots for s in table.ready())

    def _prepare_hand(self, number: int) -> None:
        """Before hand ``number`` is dealt: the game it plays (the stud rotation's turn)."""
        self.table.variant = game_of(self.spec, number)

    async def _progress(self) -> None:
        """After any change to the hand: act for absent seats, finish, or wait for a decision."""
        hand = self.table.hand
        while hand is not None and not hand.is_over:
            seat = self.table.table_seat(hand.to_act or 0)
            if seat not in self.leaving and not self._absent(seat):
                break
            if (seat in self.timed_out and seat not in self.leaving and self._absent(seat)
                    and self.deal is not None and self.deal.hand is hand):
                self.deal.clock_acts()  # gone since its time ran out: the house acts, as then
            hand.act(forced(hand), hand.to_act)  # a seat leaving or gone checks or folds
        self._turn += 1
        self._stop_clock()
        if hand is None:
            self.broadcast()
            return
        if hand.is_over:
            if self.deal is not None and self.deal.hand_id is not None:
                await self._finish_hand(self.deal)
            return
        seat = self.table.table_seat(hand.to_act or 0)
        if seat in self.bots:
            self._spawn_bot(seat, self._turn)
        else:
            self._start_clock(seat, self._turn)
        self.broadcast()

    async def _finish_hand(self, deal: Deal) -> None:
        table, hand, seats, names = self.table, deal.hand, deal.seats, deal.names
        fields = {"table": self.spec.name, "hand": deal.number, "players": list(names),
                  "seats": list(seats), "seat_count": self.spec.seats}
        public, dealer = from_hand(hand, None, **fields), from_hand(hand, 0, **fields)
        events = hand.public_events()
        text = text_history(events, lambda k: f"{names[k - 1]} (seat {seats[k - 1]})",
                            timed_out=deal.timed_out)
        own = [OwnRecord(account, tuple({"card": str(c), "up": u} for c, u
                                        in zip(hand.cards[k - 1], hand.up[k - 1], strict=True)),
                         dumps(from_hand(hand, k, **fields)))
               for k, (seat, account) in enumerate(zip(seats, deal.accounts, strict=True), 1)
               if seat not in self.bots]
        told = public_events_json(events, deal.seat_of, deal.timed_out)
        record = (deal.hand_id, list(hand.stacks), dumps(public), dumps(dealer), text, told,
                  list(zip(seats, names, strict=True)), own)
        if not await self._record(deal, record):
            return
        deal.hand_id = None
        table.finish_hand()
        # The grown time banks are kept once the frames are out: the hand's end is shown as
        # soon as the hand is kept, not one more trip to the store later.
        banks = self.grow_banks(seats)
        self.finished.append(time.time())
        self._not_before = time.monotonic() + self.timing.hand_pause
        # The finished hand stays on the table, showdown and all, until the next is dealt.
        self.last = deal
        self.keep_notice("won", number=deal.number,
                         pots=[e for e in told if e["kind"] == "pot"],
                         players=[{"seat": s, "name": n}
                                  for s, n in zip(seats, names, strict=True)])
        broke_bots = {s for s in self.bots if table.seats[s].stack == 0}
        for seat in sorted(self.leaving | broke_bots):  # a bot with no chips left goes
            await self._cash_out(seat)
        if self.closing:
            await self._keep_banks(banks)
            await self._close()
            return
        self.broadcast()
        self._schedule_next_hand(self.timing.hand_pause)
        await self._keep_banks(banks)

    async def _keep_banks(self, banks: dict[int, tuple[int, int]]) -> None:
        """The time banks after a hand; a bank the store cannot keep is not worth a table."""
        try:
            await self.db(self.store.set_banks, self.spec.id, banks)
        except Exception:
            log.exception("table %s: the time banks could not be kept", self.spec.id)

    async def _record(self, deal: Deal, record: tuple[object, ...]) -> bool:
        """Keep a finished hand, trying three times; if it cannot be kept, void it (every
        player keeps their starting stack) so that nothing is shown that is not kept. While
        even that fails, the hand stays running in the store and the table deals no more:
        the next start voids it."""
        for attempt in range(3):
            try:
                await self.db(self.store.finish_hand, *record)
                return True
            except Exception:
                log.exception("table %s: hand %s could not be kept (try %d of 3)",
                              self.spec.id, deal.number, attempt + 1)
                await asyncio.sleep(0.2 * (attempt + 1))
        try:
            await self.db(self.store.void_hand, deal.hand_id)
        except Exception:
            log.exception("table %s: hand %s could not be voided; the table stops until the "
                          "server starts again", self.spec.id, deal.number)
            self.broadcast()
            return False
        deal.hand_id = None
        self.table.hand, self.deal = None, self.last  # the stacks at the seats never moved
        self.broadcast()
        self._schedule_next_hand(self.timing.hand_pause)
        return False

    def _schedule_next_hand(self, delay: float) -> None:
        if self.stopped or self._next is not None and not self._next.done():
            return
        self._next = asyncio.get_running_loop().create_task(self._next_hand_after(delay))

    async def _next_hand_after(self, delay: float) -> None:
        await asyncio.sleep(delay)
        # The finished hand stays in view for the whole pause, whoever sits down meanwhile.
        while (wait := self._not_before - time.monotonic()) > 0:
            await asyncio.sleep(wait)
        async with self.lock:
            self._next = None
            if self.stopped:
                return
            try:
                await self._start_hand()
            except Exception:  # a hand that cannot start must not stop the table
                log.exception("table %s: could not start a hand; trying again", self.spec.id)
                self._schedule_next_hand(max(1.0, self.timing.hand_pause))

    # ------------------------------------------------------------------ bots and the clock

    def _spawn_bot(self, seat: int, turn: int) -> None:
        asyncio.get_running_loop().create_task(self._bot_turn(seat, turn))

    async def _bot_turn(self, seat: int, turn: int) -> None:
        await asyncio.sleep(self.timing.bot_delay)
        hand = self.table.hand
        if hand is None or turn != self._turn or hand.to_act is None:
            return
        bot = self.table.seats[seat].bot
        view = hand.view(hand.to_act)
        try:
            assert bot is not None
            action = await asyncio.to_thread(bot.act, view)
        except Exception:
            log.exception("table %s: bot in seat %s failed; it checks or folds",
                          self.spec.id, seat)
            action = forced(hand)
        async with self.lock:
            if self.stopped or turn != self._turn or self.table.hand is not hand:
                return
            try:
                hand.act(action, hand.to_act)
            except IllegalAction:
                log.exception("table %s: bot in seat %s chose an illegal action",
                              self.spec.id, seat)
                hand.act(forced(hand), hand.to_act)
            await self._safely(self._progress())

    async def _safely(self, step: Awaitable[None]) -> None:
        """A step of a bot's or the clock's task: an error is logged, and the table goes on."""
        try:
            await step
        except Exception:
            log.exception("table %s: a step failed", self.spec.id)
            self.broadcast()
            self._schedule_next_hand(max(1.0, self.timing.hand_pause))

    # ------------------------------------------------------------------ frames

    def _set_wallets(self, account_id: int, change: int) -> None:
        self.shift_wallet(account_id, change)
        self.wallet_moved(self, account_id, change)

    def shift_wallet(self, account_id: int, change: int) -> bool:
        """The account's wallet changed by ``change`` (here or at another table); True when a
        client here shows it."""
        shown = False
        for client in self.clients:
            if client.account is not None and client.account.id == account_id:
                client.wallet += change
                shown = True
        return shown

    def broadcast(self) -> None:
        """Every client gets the table as its own seat may see it: a whole state first, then
        what changed since its last frame (``stud.server.deltas``)."""
        bodies: dict[tuple[int | None, int | None], Json] = {}
        table = self.summary()
        clock = self.clock_json()
        # Frames differ only for accounts dealt into this hand or the last one: the rest share.
        players = {a for deal in (self.deal, self.last) if deal is not None
                   for a in deal.accounts}
        members: list[tuple[Client, tuple[int | None, int | None], Json]] = []
        public_seats = self._public_seats() if self.clients else []
        for client in self.clients:
            account_id = client.account.id if client.account else None
            seat = self.seat_of_account(account_id)
            player = account_id if account_id in players else None
            if (seat, player) not in bodies:
                bodies[seat, player] = self._body(seat, player, clock, table, public_seats)
            you: Json = {"account": account_id,
                         "nickname": client.account.nickname if client.account else None,
                         "wallet": client.wallet, "seat": seat,
                         "host": account_id is not None and account_id == self.spec.host}
            if you["host"] and self.invite is not None:
                you["invite"] = self.invite
            self._more_of_you(account_id, you)
            members.append((client, (seat, player), you))
        self.frames.send(bodies, members)

    def _more_of_you(self, account_id: int | None, you: Json) -> None:
        """What a kind of table adds to a viewer's own part of the state (a tournament's: the
        viewer's place once out); a cash table adds nothing."""

    async def _resync(self, client: Client, message: dict[str, object]) -> None:
        """A client that missed a frame asks for the whole state again."""
        if not self.frames.resend(client):
            self.broadcast()

    def _body(self, seat: int | None, account_id: int | None, clock: Json | None,
              table_part: Json, public_seats: list[Json | None]) -> Json:
        """The table as this account sees it: the seats as the public sees them, but its own
        cards in the seat it was dealt into (while it holds it), and the hands."""
        deal = self.deal
        view = deal.view(account_id) if deal is not None else None
        seats = public_seats
        k = deal.viewer(account_id) if deal is not None else None
        if deal is not None and view is not None and k is not None:
            number = deal.seat_of(k)
            entry = seats[number - 1]
            if entry is not None and deal.holds(number, self.accounts.get(number)) == k:
                seats = list(seats)
                seats[number - 1] = entry | {"cards": player_json(view, k)["cards"]}
        return {"table": table_part, "seats": seats,
                "hand": deal.part(account_id, clock, view) if deal is not None else None,
                "last": self.last.part(account_id) if self.last is not None else None,
                "next_hand_ms": self.next_hand_ms(), "closing": self.closing}

    def _public_seats(self) -> list[Json | None]:
        """Every seat as the public sees it (no down card before it is shown)."""
        table, deal = self.table, self.deal
        view = deal.view(None) if deal is not None else None
        seats: list[Json | None] = []
        for number in range(1, self.spec.seats + 1):
            s = table.seats.get(number)
            if s is None:
                seats.append(None)
                continue
            entry: Json = {
                "seat": number, "name": s.name, "bot": self.bots.get(number),
                "own_bot": number in self.own_bots,
                "stack": s.stack, "sitting_out": s.sitting_out,
                "time_bank_ms": self.bank_json(number), "timed_out": number in self.timed_out,
                "leaving": number in self.leaving,
                "connected": number in self.bots or self._connected(number),
                "in_hand": False, "folded": False, "all_in": False, "wager": 0,
                "committed": 0, "cards": [], "shown": False,
            }
            # Cards at a seat only while the account dealt in there still holds it.
            k = deal.holds(number, self.accounts.get(number)) if deal is not None else None
            if view is not None and k is not None:
                entry.update(player_json(view, k))
                if not view.is_over:  # after the hand the seat's own stack counts (a rebuy)
                    entry["stack"] = view.player(k).stack
            # An entry that did not change is the same object as before: every viewer's delta
            # then skips it without comparing it again (stud.server.deltas).
            before = self._seat_entries.get(number)
            if before == entry:
                entry = before
            self._seat_entries[number] = entry
            seats.append(entry)
        return seats

    def live_stack(self, seat: int) -> int:
        """The seat's chips now: in a hand, what the engine says is left behind the bets."""
        k = self.table.hand_seat(seat) if self._in_hand(seat) else None
        hand = self.table.hand
        return hand.stacks[k - 1] if hand is not None and k is not None else \
            self.table.seats[seat].stack


_HANDLERS: dict[str, Callable[[Room, Client, dict[str, object]], Awaitable[None]]] = {
    "sit": Room._sit,
    "act": Room._act,
    "sit_out": Room._sit_out,
    "sit_in": Room._sit_in,
    "rebuy": Room._rebuy,
    "leave": Room._leave,
    "add_bot": Room._add_bot,
    "remove_bot": Room._remove_bot,
    "start": Room._start,
    "chat": Room._chat,
    "mute": Room._mute,
    "pause": Room._pause,
    "resume": Room._resume,
    "renew_invite": Room._renew_invite,
    "remove_player": Room._remove_player,
    "close_table": Room._close_table,
    "resync": Room._resync,
}
