"""Sit-and-go tournaments over HTTP: open one, list them, register, fill the seats with bots,
and read one's standings, level, structure and prizes (during play and after the end).

``POST /api/tournaments`` opens a tournament and its table; ``POST .../register`` and
``.../unregister`` move the buy-in between the wallet and the prize pool; ``POST .../bots``
seats bots in the free seats (the tournament's creator or a registered player may); the table
itself is played over the table's WebSocket like any other (``stud.server.sitandgo``). The page
is ``/tournaments/{id}``; docs/protocol.md has the fields.
"""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import FileResponse

from stud.bots import BOTS
from stud.digits import all_digits
from stud.rules import PROFILES
from stud.server.auth import account_of, casino_of, must_be_me
from stud.server.fields import FieldError, choice, json_body, name_field, whole
from stud.server.frames import Json
from stud.server.pages import page
from stud.server.sitandgo import TournamentRoom, format_of
from stud.server.store import StoreError, is_key
from stud.server.store_tournaments import EntryRow, TournamentSpec
from stud.tournament import GAMES, STRUCTURES, StructureError, TournamentError, sit_and_go
from stud.tournament.payouts import PayoutError
from stud.tournament.rotation import RotationError

router = APIRouter()
# Bots that fill a tournament, in turn: the strongest first, so a table of them is a test.
FILL = ("expert", "strength", "station", "equity", "random")
LEVELS_SHOWN = 12  # the structure's first levels on the page; each one after doubles the last


def _room(request: Request, tournament_id: int) -> TournamentRoom | None:
    """The tournament's room while it is open (registering, running, or just over)."""
    for room in casino_of(request).rooms.values():
        if isinstance(room, TournamentRoom) and room.tournament.id == tournament_id:
            return room
    return None


async def _tournament(request: Request, tournament_id: int) -> TournamentSpec:
    casino = casino_of(request)
    if not is_key(tournament_id):
        raise HTTPException(404, f"there is no tournament {tournament_id}")
    try:
        return await casino.db(casino.store.tournament, tournament_id)
    except StoreError:
        raise HTTPException(404, f"there is no tournament {tournament_id}") from None


def _open_room(request: Request, tournament_id: int) -> TournamentRoom:
    room = _room(request, tournament_id)
    if room is None or room.tournament.status != "registering":
        raise StoreError("not_registering", f"tournament {tournament_id} is not taking "
                         "registrations")
    return room


@router.post("/api/tournaments", status_code=201)
async def create_tournament(request: Request) -> Json:
    account = await must_be_me(request)
    body = await json_body(request)
    casino = casino_of(request)
    game = choice(body, "variant", "stud", GAMES)
    players = whole(body, "players", 6, 2, 8)
    name = name_field(body, f"Sit & go {len(casino.rooms) + 1}")
    every = whole(body, "every", players, 1, 100) if game == "rotation" else players
    buy_in = whole(body, "buy_in", 100, 1, 100_000)
    stack = whole(body, "starting_stack", 2000, 100, 1_000_000)
    structure = choice(body, "structure", "standard", STRUCTURES)
    per = choice(body, "per", "hands", ("hands", "minutes"))
    clock = whole(body, "clock", 30, 5, 300)
    try:
        made = sit_and_go(game, players, structure, buy_in=buy_in, starting_stack=stack,
                          every=every if game == "rotation" else None,
                          per="minutes" if per == "minutes" else "hands")
    except (TournamentError, StructureError, PayoutError, RotationError) as error:
        raise FieldError("starting_stack", str(error)) from None
    level = made.structure.level(1)
    spec = await casino.db(casino.store.create_tournament, name, game, every, players,
                           buy_in, stack, structure, per, made.prizes, made.game.variant(1),
                           level.stakes, PROFILES["standard"], clock, account.id)
    await casino.add_room(await casino.db(casino.store.table, spec.table_id))
    return await _detail(request, spec, account.id)


@router.get("/api/tournaments")
async def list_tournaments(request: Request) -> list[Json]:
    """The newest tournaments, open and over."""
    casino = casino_of(request)
    found = []
    for spec in await casino.db(casino.store.tournament_list):
        room = _room(request, spec.id)
        registered = len(room.entries) if room is not None else spec.players
        found.append(_brief(spec, registered))
    return found


@router.get("/api/tournaments/{tournament_id}")
async def get_tournament(request: Request, tournament_id: int) -> Json:
    account = await account_of(request)
    spec = await _tournament(request, tournament_id)
    return await _detail(request, spec, account.id if account else None)


@router.post("/api/tournaments/{tournament_id}/register")
async def register(request: Request, tournament_id: int) -> Json:
    account = await must_be_me(request)
    await _tournament(request, tournament_id)
    room = _open_room(request, tournament_id)
    entry = await room.register(account)
    return {"seat": entry.seat, "table": room.spec.id} | await _detail(
        request, room.tournament, account.id)


@router.post("/api/tournaments/{tournament_id}/unregister")
async def unregister(request: Request, tournament_id: int) -> Json:
    account = await must_be_me(request)
    await _tournament(request, tournament_id)
    await _open_room(request, tournament_id).unregister(account)
    return await _detail(request, await _tournament(request, tournament_id), account.id)


@router.post("/api/tournaments/{tournament_id}/bots")
async def fill_with_bots(request: Request, tournament_id: int) -> Json:
    """``{"bots": ["expert", ...]}`` (default: every free seat, strongest bots first) for the
    free seats; the tournament's creator or a registered player may."""
    account = await must_be_me(request)
    body = await json_body(request)
    await _tournament(request, tournament_id)
    room = _open_room(request, tournament_id)
    if account.id != room.tournament.created_by and \
            all(e.account_id != account.id for e in room.entries):
        raise StoreError("not_registered", "only the tournament's creator or its registered "
                         "players may seat bots")
    free = room.tournament.players - len(room.entries)
    bots = body.get("bots", [FILL[k % len(FILL)] for k in range(free)])
    if not isinstance(bots, list) or not bots or any(b not in BOTS for b in bots):
        raise FieldError("bots", f"bots must be a list of {', '.join(BOTS)}, not {bots!r}")
    if len(bots) > free:
        raise FieldError("bots", f"{len(bots)} bots for {free} free seats")
    for bot in bots:
        await room.register(None, str(bot))
    return await _detail(request, room.tournament, account.id)


@router.get("/api/tournaments/{tournament_id}/hands")
async def tournament_hands(request: Request, tournament_id: int, limit: int = 20,
                           before: int | None = None) -> list[Json]:
    """The tournament's last hands, newest first, as a table's (``GET /api/tables/{id}/hands``),
    during play and after the end, when its table is gone; ``before``: those numbered below
    it (the next page)."""
    spec = await _tournament(request, tournament_id)
    if not 1 <= limit <= 100:
        raise HTTPException(400, f"limit must be from 1 to 100, not {limit}")
    if before is not None and not is_key(before):
        raise HTTPException(400, f"before must be a hand's number, not {before}")
    casino = casino_of(request)
    rows = await casino.db(casino.store.recent_hands, spec.table_id, limit, before)
    return await casino.with_own(rows, await account_of(request))


@router.get("/tournaments/{tournament_id}")
async def tournament_page(request: Request, tournament_id: str) -> FileResponse:
    """The page; for a tournament that is not there, the same page says so (404)."""
    try:
        await _tournament(request, int(tournament_id) if all_digits(tournament_id) else 0)
    except HTTPException:
        return page("tournament.html", 404)
    return page("tournament.html")


# ---------------------------------------------------------------------- what is shown


def _brief(spec: TournamentSpec, registered: int) -> Json:
    return {"id": spec.id, "name": spec.name, "game": spec.game, "players": spec.players,
            "registered": registered, "buy_in": spec.buy_in, "prize_pool": spec.prize_pool,
            "starting_stack": spec.starting_stack, "structure": spec.structure,
            "per": spec.per, "status": spec.status, "table": spec.table_id}


async def _detail(request: Request, spec: TournamentSpec, account_id: int | None) -> Json:
    """The tournament's page: the format, the structure's levels, the prizes, the standings
    (players still in by their chips now, then those out by place), where play stands."""
    casino = casino_of(request)
    room = _room(request, spec.id)
    if room is not None:
        spec, rows = room.tournament, room.entries
    else:
        rows = await casino.db(casino.store.entries, spec.id)
    made = format_of(spec)
    # Those still in first, the biggest stack first; then those out, the best place first.
    stacks = {e.seat: _stack(e, room) or 0 for e in rows}
    standings = [_standing(e, room) for e in sorted(
        rows, key=lambda e: (e.place is not None, -stacks[e.seat], e.place or 0, e.seat))]
    levels = [made.structure.level(k) for k in range(1, LEVELS_SHOWN + 1)]
    mine = next((e for e in rows if e.account_id == account_id), None)
    return _brief(spec, len(rows)) | {
        "every": spec.every,
        "started_at": spec.started_at.isoformat() if spec.started_at else None,
        "ended_at": spec.ended_at.isoformat() if spec.ended_at else None,
        "created_by": spec.created_by,
        "prizes": list(spec.prizes),
        "levels": [{"level": v.number, "length": v.length, "ante": v.stakes.ante,
                    "bring_in": v.stakes.bring_in, "small_bet": v.stakes.small_bet,
                    "big_bet": v.stakes.big_bet} for v in levels],
        "standings": standings,
        "now": room.tournament_json() if room is not None else None,
        "you": None if mine is None else {"seat": mine.seat, "place": mine.place,
                                          "prize": mine.prize},
    }


def _stack(entry: EntryRow, room: TournamentRoom | None) -> int | None:
    """The player's chips now (in a hand, what is left behind the bets); None once out."""
    if entry.place is None and room is not None and entry.seat in room.table.seats:
        return room.live_stack(entry.seat)
    return None


def _standing(entry: EntryRow, room: TournamentRoom | None) -> Json:
    return {"seat": entry.seat, "name": entry.name, "bot": entry.bot,
            "stack": _stack(entry, room),
            "place": entry.place, "tied": entry.tied, "hand": entry.hand, "prize": entry.prize,
            "away": bool(room is not None and entry.seat in room.table.seats
                         and room.table.seats[entry.seat].sitting_out)}
