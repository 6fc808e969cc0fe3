"""The store's side of sit-and-go tournaments (a part of ``Store``): registering, placing the
players who bust, paying the prizes, and auditing a tournament's chips and prizes.

Two currencies meet here, and the ledger keeps them apart by place. A buy-in is wallet chips:
it moves from the wallet to the tournament's ``pool`` and leaves it only as prizes. Tournament
chips are issued at registration from the tournament's ``issue`` place to the player's seat
(``issue`` goes below zero by the chips in play); from there they move in and out of hands as
at a cash table, and the winner's stack goes back to ``issue`` at the end. So every table's
and hand's rows keep their cash-table meaning, the books still add up to the chips granted,
and a tournament is right when its ``pool`` holds its buy-ins until the prizes empty it and
its chips at the table and in hands equal the starting stacks of its entrants.

Each step is one transaction: a registration (buy-in, seat, chips, and the start when it
fills the table), and the end of a hand's busts (places, seats freed, and at the last bust the
prizes paid, the chips returned, the table closed), so a stop never leaves half of one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Engine, func, select

from stud.rules import Rules, Stakes, Variant
from stud.server.schema import (
    accounts,
    entries,
    hand_players,
    hands,
    ledger,
    seats,
    tables,
    tournaments,
)
from stud.tournament import Finish, place_busted, prize_shares

if TYPE_CHECKING:
    from stud.server.store import Move


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class TournamentSpec:
    """A tournament as kept: its format, and where it stands (``status``: registering,
    running, finished; ``level``: the highest level reached, which never goes back)."""

    id: int
    table_id: int
    name: str
    game: str  # stud, stud8, razz or rotation
    every: int  # hands of each game of the rotation
    players: int
    buy_in: int
    starting_stack: int
    structure: str
    per: str
    prizes: tuple[int, ...]
    status: str
    level: int
    created_by: int | None
    created_at: datetime
    started_at: datetime | None
    ended_at: datetime | None

    @property
    def prize_pool(self) -> int:
        return self.buy_in * self.players


@dataclass(frozen=True, slots=True)
class EntryRow:
    """A player of a tournament: the seat, and once out (or the winner) the place, how many
    share it, the hand it went out in, and the prize."""

    seat: int
    account_id: int
    name: str
    bot: str | None
    place: int | None
    tied: int | None
    hand: int | None
    prize: int | None


def _refused(code: str, message: str) -> Exception:
    """The store's error (``StoreError``, whose ``code`` is the protocol's error code)."""
    from stud.server.store import StoreError

    return StoreError(code, message)


class Tournaments:
    """Store methods for tournaments; ``Store`` provides the engine and the ledger's posting."""

    engine: Engine
    _post: Callable[[Connection, Sequence[Move]], None]
    _snapshot: Callable[[], Any]

    def create_tournament(self, name: str, game: str, every: int, players: int, buy_in: int,
                          starting_stack: int, structure: str, per: str,
                          prizes: Sequence[int], variant: Variant, stakes: Stakes,
                          rules: Rules, clock: int, created_by: int | None) -> TournamentSpec:
        """A tournament and its table (seats for ``players``, level 1's stakes), registering."""
        from stud.server.store import _rules_json

        now = _now()
        with self.engine.begin() as db:
            table_id = db.execute(tables.insert().values(
                name=name, variant=variant.value, ante=stakes.ante, bring_in=stakes.bring_in,
                small_bet=stakes.small_bet, big_bet=stakes.big_bet, rules=_rules_json(rules),
                seats=players, clock=clock, hands=0, created_by=created_by, created_at=now,
                private=False, paused=False)).inserted_primary_key[0]  # type: ignore[index]
            tournament_id = db.execute(tournaments.insert().values(
                table_id=table_id, name=name, game=game, every=every, players=players,
                buy_in=buy_in, starting_stack=starting_stack, structure=structure, per=per,
                prizes=list(prizes), status="registering", level=1, created_by=created_by,
                created_at=now)).inserted_primary_key[0]  # type: ignore[index]
        return self.tournament(int(tournament_id))

    def tournament(self, tournament_id: int) -> TournamentSpec:
        with self.engine.connect() as db:
            row = db.execute(select(tournaments).where(
                tournaments.c.id == tournament_id)).one_or_none()
        if row is None:
            raise _refused("no_tournament", f"there is no tournament {tournament_id}")
        return _tournament(row)

    def tournament_list(self, limit: int = 50) -> list[TournamentSpec]:
        """The newest tournaments first, finished ones too."""
        with self.engine.connect() as db:
            return [_tournament(r) for r in db.execute(
                select(tournaments).order_by(tournaments.c.id.desc()).limit(limit))]

    def tournament_of_table(self, table_id: int) -> TournamentSpec | None:
        with self.engine.connect() as db:
            row = db.execute(select(tournaments).where(
                tournaments.c.table_id == table_id)).one_or_none()
        return None if row is None else _tournament(row)

    def entries(self, tournament_id: int) -> list[EntryRow]:
        with self.engine.connect() as db:
            return [_entry(r) for r in db.execute(
                select(entries).where(entries.c.tournament_id == tournament_id)
                .order_by(entries.c.seat))]

    def register(self, tournament_id: int, account_id: int | None, bank_ms: int,
                 bot: str | None = None) -> tuple[EntryRow, bool]:
        """The account (or a new bot, its buy-in granted by the house) takes the first free
        seat: its buy-in to the pool, the starting stack to the seat. Returns the entry and
        whether it filled the table (the tournament is then running)."""
        from stud.server.store import Move

        with self.engine.begin() as db:
            t = _tournament(db.execute(select(tournaments).where(
                tournaments.c.id == tournament_id).with_for_update()).one())
            if t.status != "registering":
                raise _refused("not_registering", f"tournament {t.id} is {t.status}: "
                                      "registration is closed")
            taken = {int(r.seat): int(r.account_id) for r in db.execute(
                select(entries.c.seat, entries.c.account_id)
                .where(entries.c.tournament_id == t.id))}
            if account_id is not None and account_id in taken.values():
                raise _refused("already_registered", f"you are already registered for "
                                      f"tournament {t.id}")
            free = [s for s in range(1, t.players + 1) if s not in taken]
            if not free:
                raise _refused("tournament_full", f"tournament {t.id} is full")
            if bot is not None:
                made = db.execute(accounts.insert().values(
                    nickname=bot, bot=bot, wallet=0, created_at=_now()))
                account_id = int(made.inserted_primary_key[0])  # type: ignore[index]
                self._post(db, [Move(account_id, "grant", t.buy_in, ("wallet", None))])
            assert account_id is not None
            row = db.execute(select(accounts.c.wallet, accounts.c.nickname).where(
                accounts.c.id == account_id).with_for_update()).one()
            if row.wallet < t.buy_in:
                raise _refused("wallet_short", f"the buy-in of {t.buy_in:,} needs {t.buy_in:,} "
                                      f"chips in the wallet; it holds {row.wallet:,}")
            seat = free[0]
            name = f"{bot}-{seat}" if bot is not None else str(row.nickname)
            db.execute(seats.insert().values(table_id=t.table_id, seat=seat,
                                             account_id=account_id, stack=0, sitting_out=False,
                                             leaving=False, bank_ms=bank_ms, bank_hands=0))
            db.execute(entries.insert().values(tournament_id=t.id, seat=seat,
                                               account_id=account_id, name=name, bot=bot))
            self._post(db, [
                Move(account_id, "t_buy_in", t.buy_in, ("pool", t.table_id), ("wallet", None)),
                Move(account_id, "t_chips", t.starting_stack, ("table", t.table_id),
                     ("issue", t.table_id), seat)])
            full = len(free) == 1
            if full:
                db.execute(tournaments.update().where(tournaments.c.id == t.id)
                           .values(status="running", started_at=_now()))
        return EntryRow(seat, account_id, name, bot, None, None, None, None), full

    def unregister(self, tournament_id: int, account_id: int) -> int:
        """Before the start: the buy-in back to the wallet, the chips back, the seat freed.
        Returns the seat."""
        from stud.server.store import Move

        with self.engine.begin() as db:
            t = _tournament(db.execute(select(tournaments).where(
                tournaments.c.id == tournament_id).with_for_update()).one())
            if t.status != "registering":
                raise _refused("not_registering", f"tournament {t.id} has started: "
                                      "a player in it plays it out")
            seat = db.execute(select(entries.c.seat).where(
                entries.c.tournament_id == t.id, entries.c.account_id == account_id)).scalar()
            if seat is None:
                raise _refused("not_registered", f"you are not registered for "
                                      f"tournament {t.id}")
            self._post(db, [
                Move(account_id, "t_buy_in", t.buy_in, ("wallet", None), ("pool", t.table_id)),
                Move(account_id, "t_chips", t.starting_stack, ("issue", t.table_id),
                     ("table", t.table_id), seat)])
            db.execute(seats.delete().where(seats.c.table_id == t.table_id,
                                            seats.c.seat == seat))
            db.execute(entries.delete().where(entries.c.tournament_id == t.id,
                                              entries.c.seat == seat))
        return int(seat)

    def finished_hands(self, table_id: int) -> int:
        """How many hands were played to the end at the table (voided ones are not)."""
        with self.engine.connect() as db:
            return int(db.execute(select(func.count()).select_from(hands).where(
                hands.c.table_id == table_id, hands.c.status == "finished")).scalar_one())

    def set_level(self, tournament_id: int, level: int) -> None:
        with self.engine.begin() as db:
            db.execute(tournaments.update().where(tournaments.c.id == tournament_id,
                                                  tournaments.c.level < level)
                       .values(level=level))

    def place_busts(self, tournament_id: int) -> list[EntryRow]:
        """Place whoever went out in the tournament's finished hands (players still in whose
        stack at the table is 0), by their stacks at the start of the hand they went out in;
        with one player left, place the winner, pay the prizes, take the chips back and close
        the table. Returns the entries placed now. Safe to call again: a player is placed
        once."""
        from stud.server.store import Move

        placed: list[EntryRow] = []
        with self.engine.begin() as db:
            t = _tournament(db.execute(select(tournaments).where(
                tournaments.c.id == tournament_id).with_for_update()).one())
            if t.status != "running":
                return []
            rows = [_entry(r) for r in db.execute(select(entries).where(
                entries.c.tournament_id == t.id).order_by(entries.c.seat))]
            still = {e.seat: e for e in rows if e.place is None}
            stacks = {int(r.seat): int(r.stack) for r in db.execute(
                select(seats.c.seat, seats.c.stack).where(seats.c.table_id == t.table_id))}
            out = [s for s in still if stacks.get(s, 0) == 0]
            if not out:
                return []
            # The hand they went out in: the last finished one (busts are placed after each).
            last = db.execute(select(hands.c.id, hands.c.number).where(
                hands.c.table_id == t.table_id, hands.c.status == "finished")
                .order_by(hands.c.number.desc()).limit(1)).one()
            starts = {int(r.account_id): int(r.start) for r in db.execute(
                select(hand_players.c.account_id, hand_players.c.start)
                .where(hand_players.c.hand_id == last.id))}
            finishes = place_busted({s: starts.get(still[s].account_id, 0) for s in out},
                                    len(still), int(last.number))
            for finish in finishes:
                db.execute(entries.update().where(entries.c.tournament_id == t.id,
                                                  entries.c.seat == finish.seat)
                           .values(place=finish.place, tied=finish.tied, hand=finish.hand))
                db.execute(seats.delete().where(seats.c.table_id == t.table_id,
                                                seats.c.seat == finish.seat))
                e = still.pop(finish.seat)
                placed.append(EntryRow(e.seat, e.account_id, e.name, e.bot, finish.place,
                                       finish.tied, finish.hand, None))
            if len(still) == 1:
                placed.append(self._finish(db, t, rows, finishes, still, int(last.number),
                                           stacks, Move))
        return placed

    def _finish(self, db: Connection, t: TournamentSpec, rows: list[EntryRow],
                finishes: list[Finish], still: dict[int, EntryRow], hand: int,
                stacks: dict[int, int], move: type[Move]) -> EntryRow:
        """The last player standing wins: every prize paid from the pool, the winner's chips
        back to ``issue``, the table closed. In the caller's transaction."""
        (seat, winner), = still.items()
        known = [Finish(e.seat, e.place, e.tied or 1, e.hand or 0) for e in rows
                 if e.place is not None] + finishes + [Finish(seat, 1, 1, hand)]
        shares = prize_shares(known, t.prizes)
        by_seat = {e.seat: e for e in rows}
        moves = [move(by_seat[s].account_id, "prize", chips, ("wallet", None),
                      ("pool", t.table_id)) for s, chips in sorted(shares.items()) if chips]
        moves.append(move(winner.account_id, "t_chips_back", stacks[seat], ("issue", t.table_id),
                          ("table", t.table_id), seat))
        self._post(db, moves)
        for s, chips in shares.items():
            values: dict[str, object] = {"prize": chips}
            if s == seat:
                values |= {"place": 1, "tied": 1, "hand": hand}
            db.execute(entries.update().where(entries.c.tournament_id == t.id,
                                              entries.c.seat == s).values(**values))
        db.execute(seats.delete().where(seats.c.table_id == t.table_id))
        now = _now()
        db.execute(tournaments.update().where(tournaments.c.id == t.id)
                   .values(status="finished", ended_at=now))
        db.execute(tables.update().where(tables.c.id == t.table_id)
                   .values(closed_at=now, paused=True))
        return EntryRow(seat, winner.account_id, winner.name, winner.bot, 1, 1, hand,
                        shares[seat])

    def audit_tournaments(self, db: Connection) -> list[str]:
        """Each tournament's chips and prizes: its pool holds its buy-ins until the prizes,
        which equal the pool, empty it; its chips at the table and in its hands are its
        entrants' starting stacks while it runs, and none are left once it is over."""
        problems: list[str] = []
        pools = dict(db.execute(select(ledger.c.table_id, func.sum(ledger.c.amount))
                                .where(ledger.c.place == "pool")
                                .group_by(ledger.c.table_id)).all())
        issued = dict(db.execute(select(ledger.c.table_id, func.sum(ledger.c.amount))
                                 .where(ledger.c.place == "issue")
                                 .group_by(ledger.c.table_id)).all())
        at_table = dict(db.execute(select(ledger.c.table_id, func.sum(ledger.c.amount))
                                   .where(ledger.c.place == "table")
                                   .group_by(ledger.c.table_id)).all())
        in_hands = dict(db.execute(select(hands.c.table_id, func.sum(ledger.c.amount))
                                   .join(ledger, ledger.c.hand_id == hands.c.id)
                                   .where(ledger.c.place == "hand")
                                   .group_by(hands.c.table_id)).all())
        prizes = dict(db.execute(select(ledger.c.table_id, func.sum(ledger.c.amount))
                                 .where(ledger.c.place == "pool", ledger.c.kind == "prize")
                                 .group_by(ledger.c.table_id)).all())
        counts: dict[int, int] = dict(db.execute(select(entries.c.tournament_id, func.count())
                                 .group_by(entries.c.tournament_id)).all())
        paid = dict(db.execute(select(entries.c.tournament_id,
                                      func.coalesce(func.sum(entries.c.prize), 0))
                               .group_by(entries.c.tournament_id)).all())
        for row in db.execute(select(tournaments)):
            t, table = _tournament(row), row.table_id
            entrants = int(counts.get(t.id, 0))
            pool, chips = int(pools.get(table, 0)), int(issued.get(table, 0))
            held = int(at_table.get(table, 0)) + int(in_hands.get(table, 0))
            name = f"tournament {t.id}"
            if held != -chips:
                problems.append(f"{name}: {held} chips at the table and in hands, "
                                f"{-chips} issued")
            if t.status == "finished":
                if pool != 0 or held != 0:
                    problems.append(f"{name} is over but its pool holds {pool} and {held} "
                                    "of its chips are in play")
                if -int(prizes.get(table, 0)) != t.prize_pool \
                        or int(paid.get(t.id, 0)) != t.prize_pool \
                        or sum(t.prizes) != t.prize_pool:
                    problems.append(f"{name}: prizes paid {-int(prizes.get(table, 0))} "
                                    f"(entries {paid.get(t.id, 0)}, table {sum(t.prizes)}), "
                                    f"not the prize pool {t.prize_pool}")
            else:
                if pool != entrants * t.buy_in:
                    problems.append(f"{name}: its pool holds {pool}, not {entrants} buy-ins "
                                    f"of {t.buy_in}")
                if held != entrants * t.starting_stack:
                    problems.append(f"{name}: {held} chips in play, not {entrants} starting "
                                    f"stacks of {t.starting_stack}")
        return problems


def _tournament(row: Any) -> TournamentSpec:
    return TournamentSpec(
        int(row.id), int(row.table_id), row.name, row.game, int(row.every), int(row.players),
        int(row.buy_in), int(row.starting_stack), row.structure, row.per,
        tuple(int(p) for p in row.prizes), row.status, int(row.level), row.created_by,
        _utc(row.created_at), _utc(row.started_at) if row.started_at else None,
        _utc(row.ended_at) if row.ended_at else None)


def _entry(row: Any) -> EntryRow:
    return EntryRow(int(row.seat), int(row.account_id), row.name, row.bot, row.place, row.tied,
                    row.hand, None if row.prize is None else int(row.prize))


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
