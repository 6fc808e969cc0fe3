"""A sit-and-go at the web table: a ``Room`` whose seats are its entrants and whose hands follow
the tournament's levels and games, to the last player standing.

Registering (``register``) takes the first free seat with the starting stack, the buy-in going
to the prize pool in the ledger; the hand that fills the table starts it. Before each hand the
room sets the game (``stud.tournament.Rotation``, by the tournament's count of finished hands)
and the stakes of the level in force (``stud.tournament.Structure``, by hands played or by
minutes since the start; a level never goes back down). After each hand the store places
whoever went out (same-hand busts by their stacks at its start) and, with one player left,
pays the prizes: all in its own transactions (``store_tournaments``).

Players who are away (sitting out, or timed out by the clock) are still dealt in: the engine
posts their antes and bring-ins, and the house checks or folds for them at once when they
must act. Nobody sits down, adds chips or leaves here; registering is on the tournament's page.
A stop voids the hand it cuts off, as at a cash table (every stack back to its start); on the
next start the room picks up after the last finished hand.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import time
from datetime import UTC, datetime

from stud.bots import make_bot
from stud.server.connection import Client
from stud.server.deal import Deal
from stud.server.frames import Json, table_json
from stud.server.games import rotation_json
from stud.server.room import Room
from stud.server.store import Account
from stud.server.store_tournaments import EntryRow, TournamentSpec
from stud.table import Table
from stud.tournament import Level, Tournament, sit_and_go

log = logging.getLogger("stud.server")

# What a cash table allows and a tournament's does not: a player there may act, go away and
# come back (sit_out, sit_in), chat and mute; nobody sits down, adds chips, leaves, seats bots
# or hosts. (Refused by name, so that messages added later, like resync, are not.)
REFUSED = frozenset({"sit", "rebuy", "leave", "add_bot", "remove_bot", "start", "pause",
                     "resume", "renew_invite", "remove_player", "close_table"})


class TournamentTable(Table):
    """A table that deals every seat with chips, away or not: a tournament blinds them off."""

    def ready(self) -> list[int]:
        return [n for n in sorted(self.seats) if self.seats[n].stack > 0]


def format_of(t: TournamentSpec) -> Tournament:
    """The tournament's format (game, structure, prizes) as ``stud.tournament`` plays it."""
    return sit_and_go(t.game, t.players, t.structure, buy_in=t.buy_in,
                      starting_stack=t.starting_stack,
                      every=t.every if t.game == "rotation" else None,
                      per="minutes" if t.per == "minutes" else "hands")


class TournamentRoom(Room):
    def __init__(self, *args: object, tournament: TournamentSpec, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        # No host: nobody pauses, closes or clears a tournament's table (its creator is kept
        # with the tournament, for seating bots before the start).
        self.spec = dataclasses.replace(self.spec, host=None)
        self.tournament = tournament
        self.format = format_of(tournament)
        self.table = TournamentTable(self.spec.variant, self.spec.stakes, self.spec.rules,
                                     self.spec.seats)
        self.level: Level = self.format.structure.level(tournament.level)
        self.played = 0  # finished hands: the clock of the levels by hands and of the rotation
        self._counted: Deal | None = None  # the last hand counted in ``played`` (``last``)
        self.entries: list[EntryRow] = []
        self._halted = False  # busts could not be placed: deal no more until a restart

    # ------------------------------------------------------------------ start and stop

    async def restore(self) -> None:
        t = self.tournament
        # Busts of a hand finished just before a stop are placed now (a no-op otherwise).
        await self.db(self.store.place_busts, t.id)
        self.tournament = await self.db(self.store.tournament, t.id)
        self.entries = await self.db(self.store.entries, t.id)
        self.played = await self.db(self.store.finished_hands, self.spec.id)
        self.level = self.format.structure.level(self.tournament.level)
        await super().restore()

    # ------------------------------------------------------------------ registering

    async def register(self, account: Account | None, bot: str | None = None) -> EntryRow:
        """A seat for the account, or for a new bot; the last one starts the tournament."""
        async with self.lock:
            bank = self.spec.time_bank.start * 1000
            entry, full = await self.db(self.store.register, self.tournament.id,
                                        account.id if account else None, bank, bot)
            self.table.sit(entry.seat, entry.name, self.tournament.starting_stack,
                           make_bot(bot) if bot else None)
            self.accounts[entry.seat] = entry.account_id
            self.banks[entry.seat] = [bank, 0]
            if bot is not None:
                self.bots[entry.seat] = bot
            elif account is not None:
                if account.own_bot:
                    self.own_bots.add(entry.seat)
                self._set_wallets(account.id, -self.tournament.buy_in)
            self.entries.append(entry)
            if full:
                self.tournament = await self.db(self.store.tournament, self.tournament.id)
                self.notice("tournament_started", players=self.tournament.players)
                # A moment for the players to open the table before the first deal.
                self._not_before = time.monotonic() + self.timing.seat_wait
                self._schedule_next_hand(0.0)
            self.broadcast()
            return entry

    async def unregister(self, account: Account) -> None:
        async with self.lock:
            seat = await self.db(self.store.unregister, self.tournament.id, account.id)
            self.table.seats.pop(seat, None)
            self.accounts.pop(seat, None)
            self.banks.pop(seat, None)
            self.own_bots.discard(seat)
            self.entries = [e for e in self.entries if e.seat != seat]
            self._set_wallets(account.id, self.tournament.buy_in)
            self.broadcast()

    # ------------------------------------------------------------------ messages

    async def handle(self, client: Client, message: object) -> None:
        kind = message.get("type") if isinstance(message, dict) else None
        if isinstance(kind, str) and kind in REFUSED:
            client.push_error(json.dumps({
                "type": "error", "code": "tournament_table",
                "message": f"{kind} is not for a tournament's table: players register on the "
                           f"tournament's page (/tournaments/{self.tournament.id}) and play "
                           "until they are out"}))
            return
        await super().handle(client, message)

    # ------------------------------------------------------------------ the flow of hands

    def _absent(self, seat: int) -> bool:
        """Away (sitting out, or timed out): dealt in, and checked or folded at once."""
        return seat not in self.bots and self.table.seats[seat].sitting_out

    def _waits(self, table: Table) -> bool:
        # Dealt to the end, watched or not; never before the start or after the end.
        return self.tournament.status != "running" or self._halted

    def next_hand_ms(self) -> int | None:
        # No "next hand in" before the start or after the end: no hand is waited for.
        return super().next_hand_ms() if self.tournament.status == "running" else None

    def level_now(self) -> Level:
        """The level the next hand plays at: by hands played, or by minutes since the start;
        never lower than one reached before."""
        structure = self.format.structure
        if structure.per == "minutes":
            level = structure.level_at(self._minutes())
        else:
            level = structure.level_at(self.hands_done())
        return level if level.number > self.level.number else self.level

    def hands_done(self) -> int:
        """Finished hands, the one just over included while it is being counted (its end is
        shown before ``_finish_hand`` has kept its busts)."""
        over = self.last is not None and self.last is not self._counted and not self._in_play()
        return self.played + (1 if over else 0)

    def _minutes(self) -> float:
        started = self.tournament.started_at
        return 0.0 if started is None else \
            max(0.0, (datetime.now(UTC) - started).total_seconds() / 60)

    def _prepare_hand(self, number: int) -> None:
        self.level = self.level_now()
        self.table.variant = self.format.game.variant(self.played + 1)
        self.table.stakes = self.level.stakes

    async def _finish_hand(self, deal: Deal) -> None:
        await super()._finish_hand(deal)
        if self.last is not deal:
            return  # not kept (voided): nothing was won or lost
        self.played += 1
        self._counted = deal
        try:
            if self.level.number > self.tournament.level:
                await self.db(self.store.set_level, self.tournament.id, self.level.number)
                self.tournament = dataclasses.replace(self.tournament, level=self.level.number)
            placed = await self.db(self.store.place_busts, self.tournament.id)
        except Exception:
            log.exception("tournament %s: the busts of hand %s could not be placed; no more "
                          "hands until a restart", self.tournament.id, self.number)
            self._halted = True
            self.broadcast()
            return
        if placed:
            await self._placed(placed)

    def _more_of_you(self, account_id: int | None, you: Json) -> None:
        """An entrant who is out (or has won) reads its place, ties and the hand it went out
        in: ``you["place"]`` (``{"place", "tied", "hand", "prize"}``), else nothing."""
        entry = next((e for e in self.entries if e.account_id == account_id
                      and e.place is not None), None) if account_id is not None else None
        if entry is not None:
            you["place"] = {"place": entry.place, "tied": entry.tied, "hand": entry.hand,
                            "prize": entry.prize}

    async def _placed(self, placed: list[EntryRow]) -> None:
        for entry in placed:
            if entry.place != 1:
                # A bot with no chips is gone already (the room cashes it out); a person too now.
                self.table.seats.pop(entry.seat, None)
                self.accounts.pop(entry.seat, None)
                self.bots.pop(entry.seat, None)
                self.banks.pop(entry.seat, None)
                self.own_bots.discard(entry.seat)
                self.timed_out.discard(entry.seat)
                self.notice("busted", seat=entry.seat, name=entry.name, place=entry.place,
                            hand=entry.hand)
        self.entries = await self.db(self.store.entries, self.tournament.id)
        self.tournament = await self.db(self.store.tournament, self.tournament.id)
        if self.tournament.status == "finished":
            for entry in self.entries:
                if entry.prize and entry.bot is None:
                    self._set_wallets(entry.account_id, entry.prize)
            winner = next(e for e in self.entries if e.place == 1)
            self.table.seats.clear()
            self.accounts.clear()
            self.bots.clear()
            self.notice("tournament_over", seat=winner.seat, name=winner.name,
                        prize=winner.prize, hand=winner.hand)
        self.broadcast()

    # ------------------------------------------------------------------ what is shown

    def summary(self) -> Json:
        spec = dataclasses.replace(self.spec, hands=self.number, paused=self.paused,
                                   variant=self.table.variant, stakes=self.table.stakes)
        # The tournament's own count of hands: a hand voided by a restart is not counted, and
        # the next is dealt as the same hand of the tournament (its game, its level) under the
        # table's next number, so the numbers run ahead of the count by the hands voided.
        dealt = self.hands_done() + (1 if self._in_play() else 0)
        return table_json(spec, len(self.table.seats), self.hands_per_hour()) \
            | rotation_json(self.format.game, dealt) \
            | {"tournament": self.tournament_json()}

    def _in_play(self) -> bool:
        hand = self.table.hand
        return hand is not None and not hand.is_over

    def tournament_json(self) -> Json:
        """Where the tournament stands: its status, the level in force (the hand's in play,
        else the next hand's; once it is over, the last hand's) and the next one, with the
        milliseconds to it or the hands still to be dealt before it (0: the next hand plays
        it); no next level once it is over."""
        t, structure = self.tournament, self.format.structure
        in_play = self._in_play()
        over = t.status == "finished"
        level = self.level if in_play or over else self.level_now()
        done = self.hands_done()
        upcoming: Json | None = None
        if not over:
            ends = sum(structure.level(k).length for k in range(1, level.number + 1))
            following = structure.level(level.number + 1)
            upcoming = {"level": following.number, **_stakes_json(following)}
            if structure.per == "minutes":
                upcoming["in_ms"] = max(0, int((ends - self._minutes()) * 60_000))
            else:
                upcoming["in_hands"] = max(0, ends - done - (1 if in_play else 0))
        return {"id": t.id, "status": t.status, "game": t.game, "players": t.players,
                "left": sum(1 for e in self.entries if e.place is None),
                "registered": len(self.entries), "buy_in": t.buy_in,
                "prize_pool": t.prize_pool, "structure": t.structure, "per": t.per,
                "hands": done, "level": level.number, "stakes": _stakes_json(level),
                "next": upcoming}


def _stakes_json(level: Level) -> Json:
    s = level.stakes
    return {"ante": s.ante, "bring_in": s.bring_in, "small_bet": s.small_bet,
            "big_bet": s.big_bet}


__all__ = ["REFUSED", "TournamentRoom", "TournamentTable", "format_of"]
