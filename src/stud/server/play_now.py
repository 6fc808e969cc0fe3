"""Play now: one click from the lobby to a seat at a table of the game with bots.

``POST /api/play-now`` with ``{"variant": "stud" | "stud8" | "razz"}`` finds the account a table
of that game: the one it already sits at, else an open public table with bots and a free seat
(the smallest stakes the wallet can sit at), else a new one with three bots, which deal no hand
until a player sits down there (or a minute has gone by). It answers where to go and with what:
``{"table", "seat", "seated", "buy_in"}`` (docs/protocol.md). The player then sits as always,
from the table page; nothing here moves the player's chips.

Bots are seated through the room's own ``add_bot`` message, as a player at the table would
seat them, so every rule of seating bots holds here too.
"""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request

from stud.rules import PROFILES, RulesError, Stakes, Variant
from stud.server.auth import casino_of, must_be_me
from stud.server.connection import Client
from stud.server.frames import Json
from stud.server.room import Room
from stud.server.sitandgo import TournamentRoom
from stud.server.store import Account, StoreError
from stud.text import catalogue

router = APIRouter()

SMALL_BET = 2  # a new play-now table: 2/4, buy-ins from 20 to 1,000
SEATS = 6
CLOCK = 30
BOTS = ("expert", "strength", "station")  # in seats 1 to 3; the player's seats are 4 to 6
PLAYER_WAIT = 60.0  # seconds a new table's bots wait for a player to sit before they play


def _open_to_all(room: Room) -> bool:
    spec = room.spec
    # A tournament's table is not a cash table to sit down at.
    return not (spec.private or spec.paused or spec.closed or isinstance(room, TournamentRoom))


def _free_seats(room: Room) -> list[int]:
    return [s for s in range(1, room.spec.seats + 1) if s not in room.table.seats]


def _least_buy_in(room: Room) -> int:
    return 10 * room.spec.stakes.small_bet


def _answer(room: Room, seat: int, seated: bool, account: Account) -> Json:
    """Where to go, and a buy-in the wallet can pay: 100 small bets, or what the wallet holds."""
    small = room.spec.stakes.small_bet
    buy_in = max(10 * small, min(100 * small, account.wallet))
    return {"table": room.summary(), "seat": seat, "seated": seated, "buy_in": buy_in}


def _found(rooms: list[Room], variant: Variant, account: Account) -> Json | None:
    """A table of the game the account sits at, else one with bots and a free seat."""
    games = [r for r in rooms if r.spec.variant is variant and _open_to_all(r)]
    for room in games:
        seat = room.seat_of_account(account.id)
        if seat is not None:
            return _answer(room, seat, True, account)
    with_bots = [r for r in games if r.bots and _free_seats(r)
                 and _least_buy_in(r) <= account.wallet]
    if not with_bots:
        return None
    room = min(with_bots, key=lambda r: (r.spec.stakes.small_bet, r.spec.id))
    return _answer(room, _free_seats(room)[0], False, account)


async def _seat_bots(room: Room, account: Account) -> None:
    """Three bots, by the room's own add_bot message from the table's host."""
    async def unread(_frame: str) -> None:
        return None

    host = Client(account, unread, account.wallet)
    for seat, bot in enumerate(BOTS, 1):
        await room.handle(host, {"type": "add_bot", "seat": seat, "bot": bot})
    if host.errors:
        raise HTTPException(500, f"the bots could not be seated: {host.errors[0]}")


@router.post("/api/play-now")
async def play_now(request: Request) -> Json:
    account = await must_be_me(request)
    try:
        body = await request.json()
    except ValueError:
        body = None
    if not isinstance(body, dict):
        raise HTTPException(400, "the body must be a JSON object")
    try:
        variant = Variant.parse(str(body.get("variant", "stud")))
    except RulesError as error:
        raise HTTPException(400, f"variant: {error}") from None
    casino = casino_of(request)
    found = _found(list(casino.rooms.values()), variant, account)
    if found is not None:
        return found
    if account.wallet < 10 * SMALL_BET:
        raise StoreError("wallet_short", f"your wallet holds {account.wallet} chips, less than "
                         f"the least buy-in ({10 * SMALL_BET})")
    name = f"{catalogue('en')[f'variant.{variant.value}.short']} · bots"
    spec = await casino.db(casino.store.create_table, name, variant,
                           Stakes.for_limit(SMALL_BET), PROFILES["standard"], SEATS, CLOCK,
                           account.id)
    room = await casino.add_room(spec)
    room.hold_for_a_player(PLAYER_WAIT)  # the player finds the first hand still to come
    await _seat_bots(room, account)
    return _answer(room, _free_seats(room)[0], False, account)
