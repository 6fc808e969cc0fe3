"""Where the web table keeps its accounts, tables, seats, hands and the chip ledger.

Every chip movement is a row of the ledger, and each row says where the chips are: in an
account's ``wallet``, at a ``table`` (a seat's stack between hands) or in a ``hand`` being played.
The cached balances (``accounts.wallet``, ``seats.stack``) change in the same transaction as the
rows that explain them, so a balance always equals the sum of its rows; ``audit()`` proves it.

A hand moves its players' stacks into the hand when it starts and the final stacks back out, with
the hand's record and PHH, in one transaction when it ends. A hand found ``running`` when the
server starts was cut off: ``void_running_hands()`` gives every player their starting stack back.

The store is synchronous; the server calls it in order from one thread (``store_thread``) or,
under ``stud serve``, from a process of its own (``store_process``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import re
import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, NamedTuple

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    Connection,
    CursorResult,
    Engine,
    bindparam,
    create_engine,
    event,
    func,
    select,
    text,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, IntegrityError

from stud.digits import all_digits
from stud.rules import POLICIES, Rules, Stakes, Variant
from stud.server.names import nickname_key
from stud.server.schema import (
    accounts,
    chat,
    hand_players,
    hands,
    ledger,
    mutes,
    seats,
    tables,
    tournaments,
)
from stud.server.store_tournaments import Tournaments

STARTING_WALLET = 10_000
# Ledger places kept by table: its seats' stacks, and a tournament's pool and issued chips.
_BY_TABLE = ("table", "pool", "issue")
DEFAULT_DATABASE = "sqlite:///stud.db"
_NICKNAME = re.compile(r"^[\w .\-]{1,20}$")


class StoreError(ValueError):
    """A request the store refuses; ``code`` is the protocol's error code, and ``facts`` what
    a page needs to say it in its reader's language (``like``: the taken nickname a new one
    looks like)."""

    def __init__(self, code: str, message: str, **facts: str | int) -> None:
        super().__init__(message)
        self.code = code
        self.facts = facts

    def __reduce__(self) -> tuple[type[StoreError], tuple[str, str], dict[str, Any]]:
        # Whole across a pipe (stud.server.store_process): its code and words, and any notes.
        return type(self), (self.code, str(self)), self.__dict__


@dataclass(frozen=True, slots=True)
class Account:
    id: int
    nickname: str
    bot: str | None
    wallet: int
    own_bot: bool = False  # plays by program through stud.client, and says so


@dataclass(frozen=True, slots=True)
class TimeBank:
    """Extra seconds beside the action clock (PokerStars' way): ``start`` at a new seat, then
    ``add`` more every ``every`` hands played there, up to ``cap``."""

    start: int = 30
    add: int = 5
    every: int = 10
    cap: int = 60

    def grown(self, bank_ms: int, hands: int) -> tuple[int, int]:
        """The bank and the hand count after one more hand."""
        hands += 1
        if hands >= self.every:
            return min(self.cap * 1000, bank_ms + self.add * 1000), 0
        return bank_ms, hands


@dataclass(frozen=True, slots=True)
class TableSpec:
    id: int
    name: str
    variant: Variant
    stakes: Stakes
    rules: Rules
    seats: int
    clock: int
    hands: int
    private: bool = False
    paused: bool = False
    host: int | None = None  # the account that opened the table
    time_bank: TimeBank = TimeBank()
    closed: bool = False
    invite: str | None = None  # a private table's invite secret
    closing: bool = False  # closed by its host during a hand that a stop may have cut off
    rotation: int | None = None  # the stud rotation, changing game every this many hands


@dataclass(frozen=True, slots=True)
class SeatRow:
    table_id: int
    seat: int
    account_id: int
    nickname: str
    bot: str | None
    stack: int
    sitting_out: bool
    leaving: bool = False
    bank_ms: int = 0
    bank_hands: int = 0
    own_bot: bool = False


@dataclass(frozen=True, slots=True)
class ChatLine:
    id: int
    table_id: int
    account_id: int
    nickname: str
    text: str
    at: datetime


class Move(NamedTuple):
    """Chips moving from ``source`` to ``to``: ("wallet", None), ("table", id), ("hand", id)."""

    account_id: int
    kind: str
    amount: int
    to: tuple[str, int | None]
    source: tuple[str, int | None] | None = None
    seat: int | None = None


_ADD_TO_WALLET = (accounts.update().where(accounts.c.id == bindparam("b_account"))
                  .values(wallet=accounts.c.wallet + bindparam("b_chips")))
_ADD_TO_STACK = (seats.update().where(seats.c.table_id == bindparam("b_table"),
                                      seats.c.seat == bindparam("b_seat"))
                 .values(stack=seats.c.stack + bindparam("b_chips")))
# The statements of a hand's start and end, built once: a statement built anew for every call
# cost more CPU than running it (its cache key is made again each time). An UPDATE without
# values sets the columns named by the parameters' keys.
_ADD_LEDGER_ROWS = ledger.insert()
_ADD_HAND = hands.insert()
_ADD_HAND_PLAYERS = hand_players.insert()
_HAND_ROW = select(hands.c.table_id, hands.c.number, hands.c.status, hands.c.players).where(
    hands.c.id == bindparam("b_hand"))
_SET_HAND = hands.update().where(hands.c.id == bindparam("b_hand"))
_SET_HAND_PLAYER = hand_players.update().where(hand_players.c.hand_id == bindparam("b_hand"),
                                               hand_players.c.account_id == bindparam("b_account"))
_SET_TABLE_HANDS = tables.update().where(tables.c.id == bindparam("b_table"))
_SET_SEAT = seats.update().where(seats.c.table_id == bindparam("b_table"),
                                 seats.c.seat == bindparam("b_seat"))
# The writes that a store thread may commit together (``Store.write_together``).
GROUPED = frozenset({"start_hand", "finish_hand", "set_banks"})


@dataclass(frozen=True, slots=True)
class HandPlayer:
    seat: int
    account_id: int
    stack: int


@dataclass(frozen=True, slots=True)
class OwnRecord:
    """What one player of a finished hand keeps of it: the down cards and the PHH as the player
    saw them (every card the player knew, the others' down cards only where shown)."""

    account_id: int
    cards: tuple[dict[str, object], ...]  # {"card": "As", "up": False} in dealing order
    phh: str


def without_password(url: str) -> str:
    """A database's or Redis's URL fit to print: its password as ***; quoted as it is when it
    is not a URL at all (nothing in it is taken for a password)."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except (ArgumentError, ValueError):
        return repr(url)


_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]+:")  # a scheme; a Windows drive (C:) is a path


MAX_KEY = 2**31 - 1  # the largest id or number an INTEGER column holds (PostgreSQL's)


def is_key(value: int) -> bool:
    """Whether ``value`` can be an id or a hand's number at all (a larger one is no row's:
    asked for, PostgreSQL would refuse the query)."""
    return 0 < value <= MAX_KEY


def database_url(url: str | None = None) -> str:
    """The URL to use: the argument, else ``STUD_DATABASE_URL``, else ``sqlite:///stud.db``.
    A plain ``postgresql://`` URL is given the psycopg (3) driver, the one we install; a path
    with no scheme is an SQLite file.

    >>> database_url("/srv/stud.db"), database_url("games.db")
    ('sqlite:////srv/stud.db', 'sqlite:///games.db')
    >>> database_url("postgres://me@db/stud")
    'postgresql+psycopg://me@db/stud'
    """
    url = url or os.environ.get("STUD_DATABASE_URL") or DEFAULT_DATABASE
    if not _SCHEME.match(url):
        url = "sqlite:///" + url
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://"):]
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://"):]
    _check_port(url)
    return url


def _check_port(url: str) -> None:
    """A ValueError naming a port that is not a number (SQLAlchemy says only "invalid
    literal for int()").

    >>> _check_port("postgresql://me@db:54x2/stud")
    Traceback (most recent call last):
    ...
    ValueError: the port '54x2' is not a number
    """
    port = re.match(r"[^:]+://(?:[^@/]*@)?(?:\[[^\]]*\]|[^:/?]*):([^/?]*)", url)
    if port and not all_digits(port.group(1)):
        raise ValueError(f"the port {port.group(1)!r} is not a number")


def _new_id(result: CursorResult[Any]) -> int:
    """The primary key an INSERT of one row made."""
    key = result.inserted_primary_key
    assert key is not None
    return int(key[0])


def _now() -> datetime:
    return datetime.now(UTC)


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _rules_json(rules: Rules) -> dict[str, object]:
    return {"name": rules.name} | {p: getattr(rules, p) for p in POLICIES}


class Store(Tournaments):
    def __init__(self, url: str | None = None, upgrade: bool = True,
                 read_only: bool = False) -> None:
        """``upgrade`` False leaves the schema as it is; ``read_only`` (``stud audit``) also
        leaves an SQLite file as it is (its journal mode too), and refuses any write."""
        self.url = database_url(url)
        self.engine: Engine = create_engine(self.url, future=True)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect",
                         _sqlite_reader if read_only else _sqlite_pragmas)
        if upgrade:
            self.upgrade()

    def recipe(self) -> tuple[str, str, tuple[Any, ...]]:
        """How another process makes this store again (stud.server.store_process): the
        module, the class and its arguments (the schema is not upgraded twice)."""
        return "stud.server.store", "Store", (self.url, False)

    @staticmethod
    def _config() -> Config:
        config = Config()
        config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
        return config

    def upgrade(self) -> None:
        """Create or upgrade the schema to the newest migration; a ValueError for a schema
        this version does not know (written by a newer stud: it cannot be downgraded)."""
        from alembic.runtime.migration import MigrationContext

        config = self._config()
        with self.engine.begin() as connection:
            current = MigrationContext.configure(connection).get_current_revision()
            newer = self._newer_schema(current)
            if newer:
                raise ValueError(newer)
            config.attributes["connection"] = connection
            command.upgrade(config, "head")

    def _newer_schema(self, current: str | None) -> str | None:
        """What to say of a schema revision this version of stud has no migration for."""
        from alembic.script import ScriptDirectory

        scripts = ScriptDirectory.from_config(self._config())
        known = {script.revision for script in scripts.walk_revisions()}
        if current is None or current in known:
            return None
        return (f"the database is at schema {current}, which this stud does not know (its "
                f"newest is {scripts.get_current_head()}): a newer stud wrote it; run that "
                "one, or give another --database")

    def schema_problem(self) -> str | None:
        """None when the database holds this version's schema, else what is wrong."""
        from alembic.runtime.migration import MigrationContext
        from alembic.script import ScriptDirectory

        where = without_password(self.url)  # said to the user: no password in it
        head = ScriptDirectory.from_config(self._config()).get_current_head()
        try:
            with self.engine.connect() as db:
                current = MigrationContext.configure(db).get_current_revision()
                no_schema = db.dialect.name == "postgresql" and db.execute(
                    text("SELECT current_schema()")).scalar() is None
        except Exception as error:  # no server, no file, no permission
            reason = str(getattr(error, "orig", None) or error).strip().splitlines()[0]
            return f"cannot read {where}: {reason}"
        if no_schema:
            return (f"{where}: no schema named in its search_path exists (the URL's "
                    "options=-csearch_path=...): correct the name")
        if current is None:
            return f"{where} holds no stud tables"
        newer = self._newer_schema(current)
        if newer:
            return f"{where}: {newer}"
        if current != head:
            return f"{where} is at schema {current}, not {head}: start `stud serve` on it " \
                   "once to upgrade it"
        return None

    def close(self) -> None:
        self.engine.dispose()

    # ------------------------------------------------------------------ accounts

    def create_account(self, nickname: str, own_bot: bool = False) -> tuple[Account, str]:
        """A new account with a starting wallet; returns it and its secret token. A nickname
        that looks like one taken ("Аlice" in Cyrillic beside "Alice") is refused."""
        name = nickname.strip() if isinstance(nickname, str) else nickname
        if not isinstance(name, str) or not _NICKNAME.match(name):
            raise StoreError("bad_nickname", "nickname must be 1 to 20 letters, digits, spaces, "
                             f"'_', '-' or '.', not {nickname!r}")
        token = secrets.token_urlsafe(32)
        key = nickname_key(name)
        try:
            with self.engine.begin() as db:
                account_id = _new_id(db.execute(accounts.insert().values(
                    nickname=name, nickname_key=key, token_hash=_hash(token),
                    wallet=0, own_bot=own_bot, created_at=_now())))
                self._move(db, account_id, "grant", STARTING_WALLET, to=("wallet", None))
        except IntegrityError:
            with self.engine.connect() as db:
                taken = db.execute(select(accounts.c.nickname).where(
                    accounts.c.nickname_key == key)).scalar()
            if taken is None or taken == name:
                raise StoreError("nickname_taken", f"the nickname {name!r} is taken") from None
            raise StoreError("nickname_taken", f"the nickname {name!r} is taken (it looks like "
                             f"{taken!r}, which is taken)", like=taken) from None
        return self.account(account_id), token

    def account(self, account_id: int) -> Account:
        with self.engine.connect() as db:
            row = db.execute(select(accounts).where(accounts.c.id == account_id)).one_or_none()
        if row is None:
            raise StoreError("no_account", f"no account {account_id}")
        return _account(row)

    def account_by_token(self, token: str | None) -> Account | None:
        if not token:
            return None
        with self.engine.connect() as db:
            row = db.execute(select(accounts).where(
                accounts.c.token_hash == _hash(token))).one_or_none()
        return None if row is None else _account(row)

    # ------------------------------------------------------------------ tables

    def create_table(self, name: str, variant: Variant, stakes: Stakes, rules: Rules,
                     size: int, clock: int, created_by: int | None = None,
                     private: bool = False, time_bank: TimeBank | None = None,
                     rotation: int | None = None) -> TableSpec:
        """A new table; a private one is unlisted until ``renew_invite`` gives it a secret.
        With ``rotation``, it plays the stud rotation (``variant`` is its first game)."""
        with self.engine.begin() as db:
            table_id = _new_id(db.execute(tables.insert().values(
                name=name, variant=variant.value, ante=stakes.ante, bring_in=stakes.bring_in,
                small_bet=stakes.small_bet, big_bet=stakes.big_bet, rules=_rules_json(rules),
                seats=size, clock=clock, hands=0, created_by=created_by,
                created_at=_now(), private=private, paused=False,
                time_bank=None if time_bank is None else dataclasses.asdict(time_bank),
                rotation=rotation)))
        return self.table(table_id)

    def renew_invite(self, table_id: int) -> str:
        """A new invite secret for the table; the one before it no longer lets anyone in."""
        secret = secrets.token_urlsafe(18)
        with self.engine.begin() as db:
            db.execute(tables.update().where(tables.c.id == table_id).values(invite=secret))
        return secret

    def set_paused(self, table_id: int, paused: bool, closing: bool = False) -> None:
        """Pause or resume; ``closing`` keeps a close asked for during a hand."""
        with self.engine.begin() as db:
            db.execute(tables.update().where(tables.c.id == table_id)
                       .values(paused=paused, closing=closing))

    def close_table(self, table_id: int) -> list[tuple[int, int, int]]:
        """Every stack back to its wallet and the table closed, in one transaction; returns
        (seat, account, chips) for each seat. No hand may be running."""
        with self.engine.begin() as db:
            running = db.execute(select(hands.c.id).where(
                hands.c.table_id == table_id, hands.c.status == "running")).scalar()
            if running is not None:
                raise StoreError("in_hand", f"table {table_id} is playing hand {running}")
            rows = db.execute(select(seats).where(seats.c.table_id == table_id)
                              .order_by(seats.c.seat)).all()
            db.execute(seats.delete().where(seats.c.table_id == table_id))
            self._post(db, [Move(r.account_id, "cash_out", r.stack, ("wallet", None),
                                 ("table", table_id), r.seat) for r in rows])
            db.execute(tables.update().where(tables.c.id == table_id)
                       .values(closed_at=_now(), paused=True))
        return [(int(r.seat), int(r.account_id), int(r.stack)) for r in rows]

    def table(self, table_id: int) -> TableSpec:
        with self.engine.connect() as db:
            row = db.execute(select(tables).where(tables.c.id == table_id)).one_or_none()
        if row is None:
            raise StoreError("no_table", f"there is no table {table_id}")
        return _spec(row)

    def tables(self) -> list[TableSpec]:
        with self.engine.connect() as db:
            return [_spec(row) for row in db.execute(select(tables).where(
                tables.c.closed_at.is_(None)).order_by(tables.c.id))]

    # ------------------------------------------------------------------ seats

    def seats(self, table_id: int) -> list[SeatRow]:
        return self._seat_rows(seats.c.table_id == table_id, seats.c.seat)

    def seats_of(self, account_id: int) -> list[SeatRow]:
        return self._seat_rows(seats.c.account_id == account_id, seats.c.table_id)

    def _seat_rows(self, where: object, order: object) -> list[SeatRow]:
        query = (select(seats, accounts.c.nickname, accounts.c.bot, accounts.c.own_bot)
                 .join(accounts, accounts.c.id == seats.c.account_id)
                 .where(where).order_by(order))  # type: ignore[arg-type]
        with self.engine.connect() as db:
            return [SeatRow(r.table_id, r.seat, r.account_id, r.nickname, r.bot, r.stack,
                            r.sitting_out, r.leaving, r.bank_ms, r.bank_hands,
                            bool(r.own_bot)) for r in db.execute(query)]

    def sit(self, table_id: int, seat: int, account_id: int, buy_in: int,
            bank_ms: int = 0) -> SeatRow:
        """The account takes the seat, moving ``buy_in`` chips from its wallet to the table."""
        try:
            with self.engine.begin() as db:
                other = db.execute(select(seats.c.seat).where(
                    seats.c.table_id == table_id, seats.c.account_id == account_id)).scalar()
                if other is not None:
                    raise StoreError("already_seated", f"account {account_id} already has seat "
                                     f"{other} at table {table_id}")
                wallet = db.execute(select(accounts.c.wallet).where(
                    accounts.c.id == account_id).with_for_update()).scalar_one()
                if wallet < buy_in:
                    raise StoreError("wallet_short", f"a buy-in of {buy_in:,} needs {buy_in:,} "
                                     f"chips in the wallet; it holds {wallet:,}")
                db.execute(seats.insert().values(table_id=table_id, seat=seat,
                                                 account_id=account_id, stack=0,
                                                 sitting_out=False, leaving=False,
                                                 bank_ms=bank_ms, bank_hands=0))
                self._move(db, account_id, "buy_in", buy_in, source=("wallet", None),
                           to=("table", table_id), seat=seat)
        except IntegrityError:
            raise StoreError("seat_taken", f"seat {seat} is taken") from None
        return next(s for s in self.seats(table_id) if s.seat == seat)

    def add_chips(self, table_id: int, seat: int, account_id: int, amount: int) -> SeatRow:
        """More chips from the wallet to the seat's stack, between hands (a rebuy)."""
        with self.engine.begin() as db:
            row = db.execute(select(seats).where(
                seats.c.table_id == table_id, seats.c.seat == seat)).one_or_none()
            if row is None or row.account_id != account_id:
                raise StoreError("not_seated", f"seat {seat} is not account {account_id}'s")
            wallet = db.execute(select(accounts.c.wallet).where(
                accounts.c.id == account_id).with_for_update()).scalar_one()
            if wallet < amount:
                raise StoreError("wallet_short", f"adding {amount:,} chips needs {amount:,} "
                                 f"chips in the wallet; it holds {wallet:,}")
            self._move(db, account_id, "rebuy", amount, source=("wallet", None),
                       to=("table", table_id), seat=seat)
        return next(s for s in self.seats(table_id) if s.seat == seat)

    def add_bot(self, table_id: int, seat: int, bot: str, buy_in: int) -> SeatRow:
        """A bot account, granted its buy-in by the house, takes the seat."""
        with self.engine.begin() as db:
            account_id = _new_id(db.execute(accounts.insert().values(
                nickname=bot, bot=bot, wallet=0, created_at=_now())))
            self._move(db, account_id, "grant", buy_in, to=("wallet", None))
        return self.sit(table_id, seat, account_id, buy_in)

    def set_sitting_out(self, table_id: int, seat: int, sitting_out: bool) -> None:
        self._set_seat(table_id, seat, sitting_out=sitting_out)

    def set_leaving(self, table_id: int, seat: int, leaving: bool = True) -> None:
        """A leave asked for during a hand: kept, so that a stop does not forget it."""
        self._set_seat(table_id, seat, leaving=leaving)

    def set_banks(self, table_id: int, banks: dict[int, tuple[int, int]]) -> None:
        """Each seat's time bank (ms) and the hands it has played since the bank last grew."""
        with self.engine.begin() as db:
            self._set_banks(db, table_id, banks)

    def _set_banks(self, db: Connection, table_id: int,
                   banks: dict[int, tuple[int, int]]) -> None:
        if banks:
            db.execute(_SET_SEAT, [{"b_table": table_id, "b_seat": seat, "bank_ms": bank_ms,
                                    "bank_hands": bank_hands}
                                   for seat, (bank_ms, bank_hands) in banks.items()])

    def _set_seat(self, table_id: int, seat: int, **values: object) -> None:
        with self.engine.begin() as db:
            db.execute(seats.update().where(seats.c.table_id == table_id, seats.c.seat == seat)
                       .values(**values))

    def leave(self, table_id: int, seat: int) -> int:
        """The seat's player leaves; the stack goes back to the wallet. Returns the stack."""
        with self.engine.begin() as db:
            row = db.execute(select(seats).where(
                seats.c.table_id == table_id, seats.c.seat == seat)).one_or_none()
            if row is None:
                raise StoreError("not_seated", f"seat {seat} is empty")
            db.execute(seats.delete().where(seats.c.table_id == table_id, seats.c.seat == seat))
            self._move(db, row.account_id, "cash_out", row.stack, source=("table", table_id),
                       to=("wallet", None), seat=seat)
        return int(row.stack)

    # ------------------------------------------------------------------ hands

    def start_hand(self, table_id: int, number: int, players: Sequence[HandPlayer]) -> int:
        """Record a hand as running and move each player's stack into it."""
        with self.engine.begin() as db:
            return self._start_hand(db, table_id, number, players)

    def _start_hand(self, db: Connection, table_id: int, number: int,
                    players: Sequence[HandPlayer]) -> int:
        hand_id = _new_id(db.execute(_ADD_HAND, {
            "table_id": table_id, "number": number, "status": "running",
            "players": [[p.seat, p.account_id, p.stack] for p in players],
            "started_at": _now()}))
        db.execute(_ADD_HAND_PLAYERS, [
            {"hand_id": hand_id, "account_id": p.account_id, "seat": p.seat,
             "start": p.stack} for p in players])
        self._post(db, [Move(p.account_id, "hand_in", p.stack, ("hand", hand_id),
                             ("table", table_id), p.seat) for p in players])
        return hand_id

    def finish_hand(self, hand_id: int, final_stacks: Sequence[int], phh: str, dealer_phh: str,
                    text: Sequence[str], events: Sequence[object] | None = None,
                    names: Sequence[tuple[int, str]] | None = None,
                    own: Sequence[OwnRecord] = ()) -> None:
        """In one transaction: the final stacks back to the table, the hand's record and PHH,
        and each player's own record of it."""
        with self.engine.begin() as db:
            self._finish_hand(db, hand_id, final_stacks, phh, dealer_phh, text, events, names,
                              own)

    def _finish_hand(self, db: Connection, hand_id: int, final_stacks: Sequence[int], phh: str,
                     dealer_phh: str, text: Sequence[str], events: Sequence[object] | None = None,
                     names: Sequence[tuple[int, str]] | None = None,
                     own: Sequence[OwnRecord] = ()) -> None:
        row = db.execute(_HAND_ROW, {"b_hand": hand_id}).one_or_none()
        if row is None:
            raise StoreError("no_hand", f"there is no hand {hand_id}")
        if row.status != "running":
            raise StoreError("not_running", f"hand {hand_id} is {row.status}, not running")
        self._post(db, [Move(account_id, "hand_out", stack, ("table", row.table_id),
                             ("hand", hand_id), seat)
                        for (seat, account_id, _start), stack
                        in zip(row.players, final_stacks, strict=True)])
        db.execute(_SET_HAND, {
            "b_hand": hand_id, "status": "finished", "ended_at": _now(), "phh": phh,
            "dealer_phh": dealer_phh, "text": list(text),
            "events": None if events is None else list(events),
            "names": None if names is None else [list(n) for n in names]})
        db.execute(_SET_TABLE_HANDS, {"b_table": row.table_id, "hands": row.number})
        mine = {record.account_id: record for record in own}
        db.execute(_SET_HAND_PLAYER, [
            {"b_hand": hand_id, "b_account": account_id, "final": stack,
             "cards": None if (record := mine.get(account_id)) is None else list(record.cards),
             "phh": None if record is None else record.phh}
            for (_seat, account_id, _start), stack in zip(row.players, final_stacks,
                                                          strict=True)])

    def write_together(self, writes: Sequence[tuple[str, tuple[Any, ...]]]
                       ) -> list[BaseException | Any]:
        """Several of the ``GROUPED`` writes (name, arguments) in one transaction with one
        commit (group commit), each outcome in order: what the write returns, or the error it
        raised. Each write stays whole: if one of them fails before the commit, the
        transaction is rolled back and each write is made again alone, in a transaction of its
        own, so that one bad write costs only itself. If the commit itself fails, every write
        of the group fails with that error, exactly as its own commit would have (whether a
        failed commit was kept is not known, so nothing is written twice)."""
        calls = [(getattr(self, f"_{name}"), args) for name, args in writes]
        if len(calls) > 1:
            with self.engine.connect() as db:
                transaction = db.begin()
                try:
                    results = [call(db, *args) for call, args in calls]
                except Exception:
                    transaction.rollback()  # none is kept: each is made alone below
                else:
                    try:
                        transaction.commit()
                    except Exception as error:
                        db.invalidate()  # whatever it still holds is dropped, never reused
                        return [error] * len(calls)
                    return results
        outcomes: list[BaseException | Any] = []
        for call, args in calls:
            try:
                with self.engine.begin() as db:
                    outcomes.append(call(db, *args))
            except Exception as error:
                outcomes.append(error)
        return outcomes

    def void_hand(self, hand_id: int) -> None:
        """Void one running hand: each player gets their starting stack back."""
        with self.engine.begin() as db:
            self._void(db, hands.c.id == hand_id)

    def void_running_hands(self) -> list[int]:
        """Void every hand cut off mid-way: each player gets their starting stack back."""
        with self.engine.begin() as db:
            return self._void(db, hands.c.status == "running")

    def _void(self, db: Connection, where: object) -> list[int]:
        voided = []
        query = select(hands).where(where, hands.c.status == "running")  # type: ignore[arg-type]
        for row in db.execute(query).all():
            self._post(db, [Move(account_id, "void_refund", start, ("table", row.table_id),
                                 ("hand", row.id), seat)
                            for seat, account_id, start in row.players])
            db.execute(hands.update().where(hands.c.id == row.id)
                       .values(status="voided", ended_at=_now()))
            db.execute(hand_players.update().where(hand_players.c.hand_id == row.id)
                       .values(final=hand_players.c.start))
            db.execute(tables.update().where(tables.c.id == row.table_id)
                       .values(hands=row.number))
            voided.append(int(row.id))
        return voided

    def recent_hands(self, table_id: int, limit: int = 10,
                     before: int | None = None) -> list[dict[str, object]]:
        """The table's last hands, newest first; with ``before``, those numbered below it."""
        query = (select(hands.c.id, hands.c.number, hands.c.status, hands.c.ended_at,
                        hands.c.text, hands.c.events, hands.c.names, hands.c.phh)
                 .where(hands.c.table_id == table_id, hands.c.status != "running")
                 .order_by(hands.c.number.desc()).limit(limit))
        if before is not None:
            query = query.where(hands.c.number < before)
        with self.engine.connect() as db:
            return [{"id": r.id, "number": r.number, "result": r.status,
                     "variant": _game_of(r.phh),
                     "ended_at": _utc(r.ended_at).isoformat() if r.ended_at else None,
                     "text": r.text or ["The hand was cut off and voided; every player got "
                                        "their starting stack back."]}
                    | ({"events": r.events,
                        "players": [{"seat": s, "name": n} for s, n in r.names or ()]}
                       if r.events is not None else {})
                    for r in db.execute(query)]

    def hand_table(self, hand_id: int) -> int | None:
        """The table a hand was played at; None for no such hand."""
        with self.engine.connect() as db:
            found = db.execute(select(hands.c.table_id).where(hands.c.id == hand_id)).scalar()
        return None if found is None else int(found)

    def hand_place(self, hand_id: int) -> tuple[int, int, str] | None:
        """Where a hand was played: its table, its number there (the table page's "Hand #13")
        and its status (running, finished or voided); None for no such hand."""
        with self.engine.connect() as db:
            row = db.execute(select(hands.c.table_id, hands.c.number, hands.c.status)
                             .where(hands.c.id == hand_id)).first()
        return None if row is None else (int(row.table_id), int(row.number), str(row.status))

    def hand_phh(self, hand_id: int) -> str | None:
        with self.engine.connect() as db:
            return db.execute(select(hands.c.phh).where(hands.c.id == hand_id)).scalar()

    def hand_times(self, table_id: int, since: timedelta) -> list[datetime]:
        """When this table's hands finished, over the last ``since``."""
        start = _now() - since
        with self.engine.connect() as db:
            rows = db.execute(select(hands.c.ended_at).where(
                hands.c.table_id == table_id, hands.c.status == "finished",
                hands.c.ended_at >= start.replace(tzinfo=None)
                if self.engine.dialect.name == "sqlite" else hands.c.ended_at >= start))
            return [_utc(r.ended_at) for r in rows]

    def hands_of(self, account_id: int, limit: int = 50,
                 before: int | None = None) -> list[dict[str, object]]:
        """The finished hands the account played, newest first (before hand id ``before``):
        where, when, its seat, its down cards, and what it won or lost."""
        query = (select(hands.c.id, hands.c.table_id, hands.c.number, hands.c.ended_at,
                        hands.c.phh, tables.c.name, tables.c.variant, hand_players.c.seat,
                        hand_players.c.start, hand_players.c.final, hand_players.c.cards)
                 .join(hands, hands.c.id == hand_players.c.hand_id)
                 .join(tables, tables.c.id == hands.c.table_id)
                 .where(hand_players.c.account_id == account_id,
                        hands.c.status == "finished")
                 .order_by(hands.c.id.desc()).limit(limit))
        if before is not None:
            query = query.where(hands.c.id < before)
        with self.engine.connect() as db:
            return [{"id": r.id, "table": r.table_id, "table_name": r.name,
                     "variant": _game_of(r.phh) or r.variant, "number": r.number,
                     "ended_at": _utc(r.ended_at).isoformat() if r.ended_at else None,
                     "seat": r.seat, "cards": r.cards, "start": r.start, "final": r.final,
                     "net": None if r.final is None else r.final - r.start}
                    for r in db.execute(query)]

    def own_hands(self, account_id: int, hand_ids: Sequence[int]) -> dict[int, dict[str, Any]]:
        """Of these hands, those the account played: its seat, down cards and result."""
        if not hand_ids:
            return {}
        with self.engine.connect() as db:
            rows = db.execute(select(hand_players).where(
                hand_players.c.account_id == account_id,
                hand_players.c.hand_id.in_(list(hand_ids))))
            return {r.hand_id: {"seat": r.seat, "cards": r.cards, "start": r.start,
                                "final": r.final,
                                "net": None if r.final is None else r.final - r.start}
                    for r in rows}

    def own_phh(self, hand_id: int, account_id: int | None) -> str | None:
        """The finished hand's PHH as the account saw it (its own down cards in it) if it
        played the hand, else as the public saw it; None if there is no such finished hand."""
        with self.engine.connect() as db:
            public = db.execute(select(hands.c.phh).where(
                hands.c.id == hand_id, hands.c.status == "finished")).scalar()
            if public is None or account_id is None:
                return public
            mine = db.execute(select(hand_players.c.phh).where(
                hand_players.c.hand_id == hand_id,
                hand_players.c.account_id == account_id)).scalar()
        return mine or public

    # ------------------------------------------------------------------ chat

    def add_chat(self, table_id: int, account_id: int, text: str) -> ChatLine:
        now = _now()
        with self.engine.begin() as db:
            line_id = _new_id(db.execute(chat.insert().values(
                table_id=table_id, account_id=account_id, text=text, created_at=now)))
            nickname = db.execute(select(accounts.c.nickname).where(
                accounts.c.id == account_id)).scalar_one()
        return ChatLine(line_id, table_id, account_id, nickname, text, now)

    def recent_chat(self, table_id: int, limit: int = 50) -> list[ChatLine]:
        """The table's last chat lines, oldest first."""
        query = (select(chat, accounts.c.nickname)
                 .join(accounts, accounts.c.id == chat.c.account_id)
                 .where(chat.c.table_id == table_id).order_by(chat.c.id.desc()).limit(limit))
        with self.engine.connect() as db:
            rows = db.execute(query).all()
        return [ChatLine(r.id, r.table_id, r.account_id, r.nickname, r.text,
                         _utc(r.created_at)) for r in reversed(rows)]

    def set_muted(self, account_id: int, muted_id: int, muted: bool) -> None:
        if account_id == muted_id:
            raise StoreError("bad_mute", "you cannot mute yourself")
        with self.engine.begin() as db:
            db.execute(mutes.delete().where(mutes.c.account_id == account_id,
                                            mutes.c.muted_id == muted_id))
            if muted:
                db.execute(mutes.insert().values(account_id=account_id, muted_id=muted_id))

    def muted_by(self, account_id: int) -> set[int]:
        with self.engine.connect() as db:
            return set(db.execute(select(mutes.c.muted_id).where(
                mutes.c.account_id == account_id)).scalars())

    # ------------------------------------------------------------------ the ledger

    def _move(self, db: Connection, account_id: int, kind: str, amount: int, *,
              to: tuple[str, int | None], source: tuple[str, int | None] | None = None,
              seat: int | None = None) -> None:
        self._post(db, [Move(account_id, kind, amount, to, source, seat)])

    def _post(self, db: Connection, moves: Sequence[Move]) -> None:
        """The ledger rows of some moves (two each; one for a grant, which has no source) and
        the cached balances they change, in few statements: a hand's moves go together."""
        now = _now()
        rows: list[dict[str, object]] = []
        wallets: dict[int, int] = {}
        stacks: dict[tuple[int, int], int] = {}
        for move in moves:
            legs = [(move.to, move.amount)]
            if move.source is not None:
                legs.append((move.source, -move.amount))
            for (place, where), chips in legs:
                rows.append({"account_id": move.account_id, "place": place, "kind": move.kind,
                             "amount": chips, "created_at": now,
                             "table_id": where if place in _BY_TABLE else None,
                             "hand_id": where if place == "hand" else None})
                if place == "wallet":
                    wallets[move.account_id] = wallets.get(move.account_id, 0) + chips
                elif place == "table" and where is not None and move.seat is not None:
                    key = (where, move.seat)
                    stacks[key] = stacks.get(key, 0) + chips
        if rows:
            db.execute(_ADD_LEDGER_ROWS, rows)
        if wallets:
            db.execute(_ADD_TO_WALLET, [{"b_account": a, "b_chips": c}
                                        for a, c in wallets.items()])
        if stacks:
            db.execute(_ADD_TO_STACK, [{"b_table": t, "b_seat": s, "b_chips": c}
                                       for (t, s), c in stacks.items()])

    def audit(self) -> list[str]:
        """Every balance that does not equal the sum of its ledger rows, and every finished or
        voided hand still holding chips. Empty when the books are right."""
        problems: list[str] = []
        with self._snapshot() as db:
            wallets = dict(db.execute(select(ledger.c.account_id, func.sum(ledger.c.amount))
                                      .where(ledger.c.place == "wallet")
                                      .group_by(ledger.c.account_id)).all())
            for row in db.execute(select(accounts.c.id, accounts.c.wallet)):
                if row.wallet != wallets.get(row.id, 0) or row.wallet < 0:
                    problems.append(f"account {row.id}: wallet {row.wallet}, "
                                    f"ledger {wallets.get(row.id, 0)}")
            at_tables = {(t, a): s for t, a, s in db.execute(
                select(ledger.c.table_id, ledger.c.account_id, func.sum(ledger.c.amount))
                .where(ledger.c.place == "table")
                .group_by(ledger.c.table_id, ledger.c.account_id))}
            seated = {(r.table_id, r.account_id): r.stack for r in db.execute(select(seats))}
            problems += [f"table {t} account {a}: stack {stack} is below 0"
                         for (t, a), stack in seated.items() if stack < 0]
            for key in set(at_tables) | set(seated):
                if at_tables.get(key, 0) != seated.get(key, 0):
                    problems.append(f"table {key[0]} account {key[1]}: stack "
                                    f"{seated.get(key, 0)}, ledger {at_tables.get(key, 0)}")
            in_hands = db.execute(
                select(hands.c.id, hands.c.status, func.sum(ledger.c.amount))
                .join(ledger, ledger.c.hand_id == hands.c.id)
                .where(ledger.c.place == "hand").group_by(hands.c.id, hands.c.status)).all()
            for hand_id, status, held in in_hands:
                if status != "running" and held != 0:
                    problems.append(f"hand {hand_id} is {status} but holds {held} chips")
            problems += self.audit_tournaments(db)
        return problems

    @contextmanager
    def _snapshot(self) -> Iterator[Connection]:
        """A connection whose reads all see one moment, while a server goes on writing."""
        with self.engine.connect() as db:
            if self.engine.dialect.name == "sqlite":
                db.exec_driver_sql("BEGIN")  # the driver would begin only before a write
            else:
                db = db.execution_options(isolation_level="REPEATABLE READ")
            try:
                yield db
            finally:
                db.rollback()

    def books(self) -> dict[str, int]:
        """Where every chip is, in one snapshot: granted = wallets + tables + hands + prize
        pools + tournament chips (the chips issued to tournaments, as a negative sum: the
        tournament chips at tables and in hands cancel it)."""
        with self._snapshot() as db:
            by_place = dict(db.execute(select(ledger.c.place, func.sum(ledger.c.amount))
                                       .group_by(ledger.c.place)).all())
            granted = db.execute(select(func.coalesce(func.sum(ledger.c.amount), 0))
                                 .where(ledger.c.kind == "grant")).scalar_one()
            running = db.execute(select(func.count()).select_from(hands)
                                 .where(hands.c.status == "running")).scalar_one()
            counts = {name: db.execute(select(func.count()).select_from(table)).scalar_one()
                      for name, table in (("accounts", accounts), ("seats", seats),
                                          ("hand_records", hands), ("ledger_rows", ledger),
                                          ("tournaments", tournaments))}
        return {"granted": int(granted), "wallets": int(by_place.get("wallet", 0)),
                "tables": int(by_place.get("table", 0)),
                "in_hands": int(by_place.get("hand", 0)),
                "prize_pools": int(by_place.get("pool", 0)),
                "tournament_chips": int(by_place.get("issue", 0)),
                "running_hands": int(running)} | {k: int(v) for k, v in counts.items()}

    def chips_in_play(self) -> int:
        """All chips ever granted: what the wallets, tables and hands must add up to."""
        with self.engine.connect() as db:
            return int(db.execute(select(func.coalesce(func.sum(ledger.c.amount), 0))
                                  .where(ledger.c.kind == "grant")).scalar_one())


_PHH_VARIANT = re.compile(r'^variant = "([^"]+)"', re.MULTILINE)


def _game_of(phh: str | None) -> str | None:
    """The game a kept hand played (``stud``, ``stud8``, ``razz``), from its PHH: at a table of
    the stud rotation, or a tournament's, it changes from hand to hand. None for a voided one."""
    found = _PHH_VARIANT.search(phh or "")
    if found is None:
        return None
    try:
        return Variant.parse(found.group(1)).value
    except ValueError:
        return None


def _account(row: Any) -> Account:
    return Account(row.id, row.nickname, row.bot, row.wallet, bool(row.own_bot))


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _spec(row: object) -> TableSpec:
    r = row
    rules_fields = dict(r.rules)  # type: ignore[attr-defined]
    return TableSpec(
        id=r.id, name=r.name, variant=Variant(r.variant),  # type: ignore[attr-defined]
        stakes=Stakes(r.ante, r.bring_in, r.small_bet, r.big_bet),  # type: ignore[attr-defined]
        rules=Rules(**rules_fields),
        seats=r.seats, clock=r.clock, hands=r.hands,  # type: ignore[attr-defined]
        private=bool(r.private), paused=bool(r.paused),  # type: ignore[attr-defined]
        host=r.created_by,  # type: ignore[attr-defined]
        time_bank=TimeBank(**r.time_bank) if r.time_bank else TimeBank(),  # type: ignore
        closed=r.closed_at is not None, invite=r.invite,  # type: ignore[attr-defined]
        closing=bool(r.closing),  # type: ignore[attr-defined]
        rotation=r.rotation)  # type: ignore[attr-defined]


def _sqlite_reader(connection: object, _record: object) -> None:
    """A connection that only reads: it changes nothing in the file, not even its journal."""
    cursor = connection.cursor()  # type: ignore[attr-defined]
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.execute("PRAGMA query_only=ON")
    cursor.close()


def _sqlite_pragmas(connection: object, _record: object) -> None:
    # WAL survives a killed process with every committed transaction; the busy timeout lets a
    # second process (a test reading the books) wait instead of failing.
    cursor = connection.cursor()  # type: ignore[attr-defined]
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
