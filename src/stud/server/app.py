"""The FastAPI app: accounts, tables and histories over HTTP; play over one WebSocket per table.

``create_app(database)`` builds it; ``stud serve`` runs it under uvicorn. docs/protocol.md is the
contract. The store is synchronous and is called from one worker thread, so the event loop never
waits on the disk and writes never race.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import TypeVar

from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles

from stud.rules import PROFILES, RulesError, Stakes, Variant
from stud.server import play_now, replays, tournaments
from stud.server.auth import COOKIE, account_of, must_be_me
from stud.server.cluster import Cluster, Workers, admits, worker_name
from stud.server.connection import MAX_UNREAD, READ_WAIT, Client
from stud.server.fields import FieldError, json_body, name_field, shown, whole
from stud.server.frames import Json
from stud.server.lease import LeasedStore
from stud.server.pages import STATIC, page
from stud.server.room import Room, Timing
from stud.server.sitandgo import TournamentRoom
from stud.server.store import Account, Store, StoreError, TimeBank, database_url, is_key
from stud.server.store_process import StoreProcess, runner
from stud.text import LANGUAGES, catalogue

log = logging.getLogger("stud.server")
T = TypeVar("T")


# A sit-and-go's pages and requests: with several workers, its table's owner answers them.
_TOURNAMENT_PATH = re.compile(r"/(?:api/)?tournaments/([0-9]{1,9})(?:/[a-z]+)?")


# Store errors that concern one field of the request that caused them.
_STORE_FIELDS = {"bad_nickname": "nickname", "nickname_taken": "nickname"}


class Casino:
    """The rooms of one server and the store behind them; with ``workers``, the rooms this
    worker process owns among several (``stud.server.cluster``)."""

    def __init__(self, store: Store, timing: Timing, store_process: bool = False,
                 workers: Workers | None = None) -> None:
        self.store = store
        self.timing = timing
        self.rooms: dict[int, Room] = {}
        # Every store call, in order, hands' writes committed together: on the store's thread,
        # or with ``store_process`` in a process of its own (stud.server.store_process).
        self._thread = runner(store, store_process)
        # Whether the store's calls run in another process (a worker then shares its leases'
        # epochs with the store there: stud.server.cluster).
        self.store_apart = isinstance(self._thread, StoreProcess)
        self.cluster = Cluster(self, store, workers) \
            if workers is not None and isinstance(store, LeasedStore) else None

    async def db(self, call: Callable[..., T], *args: object) -> T:
        return await self._thread.call(call, *args)

    async def open(self) -> None:
        if self.cluster is not None:  # its tables come by lease, the others' hands play on
            await self.cluster.start()
            return
        voided = await self.db(self.store.void_running_hands)
        if voided:
            log.warning("voided %s cut off by a stop; their chips went back",
                        "1 hand" if len(voided) == 1 else f"{len(voided)} hands")
        for spec in await self.db(self.store.tables):
            await self.add_room(spec)

    async def add_room(self, spec: object, claim: bool = True) -> Room:
        """The room of a table; one this worker just opened is its own (``claim``)."""
        if self.cluster is not None and claim:
            await self.cluster.claim(spec.id)  # type: ignore[attr-defined]
        # A tournament's table is a room of its own kind (stud.server.sitandgo).
        tournament = await self.db(self.store.tournament_of_table, spec.id)  # type: ignore
        kind, extra = (Room, {}) if tournament is None else \
            (TournamentRoom, {"tournament": tournament})
        room = kind(spec, self.store, self.db, self.timing,  # type: ignore[arg-type]
                    self.wallet_moved, self.room_closed, self.mute_moved, **extra)
        self.rooms[room.spec.id] = room
        await room.restore()
        return room

    def mute_moved(self, account_id: int, other: int, muted: bool) -> None:
        for room in self.rooms.values():
            room.set_mute(account_id, other, muted)

    def room_closed(self, room: Room) -> None:
        self.rooms.pop(room.spec.id, None)
        if self.cluster is not None:
            asyncio.get_running_loop().create_task(self.cluster.forget(room.spec.id))

    def wallet_moved(self, origin: Room, account_id: int, change: int) -> None:
        """Show a wallet change at the account's other tables; a table busy with a change of
        its own shows it with its next frame."""
        for room in self.rooms.values():
            if room is not origin and room.shift_wallet(account_id, change) \
                    and not room.lock.locked():
                room.broadcast()

    async def may_see_hand(self, hand_id: int, account: Account | None,
                           invite: str | None = None) -> bool:
        """A hand of a private table is for those the table admits (its host, its players,
        the bearers of its invite) and for whoever played the hand, even after it closed."""
        table_id = await self.db(self.store.hand_table, hand_id)
        if table_id is None:
            return True  # no such hand: the caller answers 404
        account_id = account.id if account else None
        room = self.rooms.get(table_id)
        if room is not None and room.admits(account_id, invite):
            return True
        spec = room.spec if room is not None else await self.db(self.store.table, table_id)
        if not spec.private or (account_id is not None and account_id == spec.host):
            return True
        return account_id is not None and bool(
            await self.db(self.store.own_hands, account_id, [hand_id]))

    async def close(self) -> None:
        if self.cluster is not None:  # no table is taken and opened while the rooms stop
            await self.cluster.stop_taking()
        rooms = list(self.rooms.values())
        for room in rooms:
            room.close()
        with contextlib.suppress(TimeoutError):  # steps under way (a hand's end) end first
            async with asyncio.timeout(5):
                for room in rooms:
                    async with room.lock:
                        pass
        if self.cluster is not None:
            await self.cluster.stop()
        self._thread.close()
        self.store.close()

    def room(self, table_id: int, account: Account | None = None,
             invite: str | None = None, check: bool = False) -> Room:
        """The table's room; with ``check``, only for someone it admits (a private table's
        host, players, or whoever brings its invite secret)."""
        room = self.rooms.get(table_id)
        if room is None:
            raise HTTPException(404, f"there is no table {table_id}")
        if check and not room.admits(account.id if account else None, invite):
            raise HTTPException(403, f"table {table_id} is private: open it with the invite "
                                     "link its host shares")
        return room

    async def with_own(self, rows: list[Json], account: Account | None) -> list[Json]:
        """Hands listed (``recent_hands``), those the account played with its own seat, down
        cards and result (``mine``)."""
        if account is not None:
            own = await self.db(self.store.own_hands, account.id, [row["id"] for row in rows])
            for row in rows:
                if row["id"] in own:
                    row["mine"] = {k: own[row["id"]][k] for k in ("seat", "cards", "net")}
        return rows

    async def summary(self, table_id: int, account: Account | None,
                      invite: str | None) -> Json:
        """The table's summary for someone it admits, wherever the table is played."""
        if self.cluster is None or table_id in self.rooms:
            return self.room(table_id, account, invite, True).summary()
        entry = await self.cluster.entry(table_id)
        if entry is None:
            raise HTTPException(404, f"there is no table {table_id}")
        if not admits(entry, account.id if account else None, invite):
            raise HTTPException(403, f"table {table_id} is private: open it with the invite "
                                     "link its host shares")
        return dict(entry["summary"])

    async def between_owners(self, table_id: int) -> bool:
        """An open table that no worker has published (one just gave it up, or died)."""
        try:
            spec = await self.db(self.store.table, table_id)
        except StoreError:
            return False
        return not spec.closed

    async def known(self, table_id: int) -> bool:
        """Is the table open (played here, or by another worker)?"""
        if table_id in self.rooms or self.cluster is None:
            return table_id in self.rooms
        return await self.cluster.entry(table_id) is not None


def create_app(database: str | None = None, timing: Timing | None = None,
               store_process: bool = False, workers: Workers | None = None) -> FastAPI:
    """``store_process``: the store's calls in a process of its own (``stud serve``).
    ``workers``: one worker process of several (``stud serve --workers N``, PostgreSQL): its
    store is fenced by the tables' leases (with ``store_process`` too, in a process of its
    own, which the worker tells the epochs of the tables it holds)."""
    casino: Casino | None = None

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        nonlocal casino
        if workers is not None:
            leased = await asyncio.to_thread(LeasedStore, database_url(database), worker_name(),
                                             workers.lease_seconds)
            casino = Casino(leased, timing or Timing(), store_process, workers)
            if casino.cluster is not None:
                casino.cluster.relay.app = app
        else:
            casino = Casino(await asyncio.to_thread(Store, database), timing or Timing(),
                            store_process)
        app.state.casino = casino
        await casino.open()
        try:
            yield
        finally:
            await casino.close()

    app = FastAPI(title="stud", lifespan=lifespan, docs_url="/api/docs",
                  openapi_url="/api/openapi.json")
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(replays.router)
    app.include_router(play_now.router)
    app.include_router(tournaments.router)

    def the_casino() -> Casino:
        assert casino is not None
        return casino

    if workers is not None:
        @app.middleware("http")
        async def to_the_owner(request: Request,
                               call_next: Callable[[Request], Awaitable[Response]]) -> Response:
            """A sit-and-go's requests are answered by the worker that plays its table."""
            c = the_casino()
            found = _TOURNAMENT_PATH.fullmatch(request.url.path)
            if found is None or c.cluster is None or "x-stud-relayed" in request.headers:
                return await call_next(request)
            try:
                spec = await c.db(c.store.tournament, int(found[1]))
            except StoreError:
                return await call_next(request)  # answered here: there is no such tournament
            if spec.table_id in c.rooms:
                return await call_next(request)
            headers = {k: v for k, v in request.headers.items()
                       if k in ("authorization", "cookie", "content-type", "accept-language")}
            answer = await c.cluster.relay.ask(
                spec.table_id, request.method, request.url.path, request.url.query,
                headers | {"x-stud-relayed": "1"}, (await request.body()).decode(errors="replace"))
            if answer is None:
                return JSONResponse({"detail": f"no process plays tournament {found[1]} now: "
                                               "try again"}, status_code=503)
            return Response(answer["body"], status_code=answer["status"],
                            media_type=answer["type"])

    @app.exception_handler(RequestValidationError)
    async def bad_request(_request: Request, error: RequestValidationError) -> JSONResponse:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first.get("loc", ())[1:]) or "request"
        return JSONResponse({"detail": f"{where}: {first.get('msg', 'not valid')}, not "
                                       f"{first.get('input')!r}", "field": where},
                            status_code=400)

    @app.exception_handler(FieldError)
    async def field_error(_request: Request, error: FieldError) -> JSONResponse:
        return JSONResponse(error.json(), status_code=400)

    @app.exception_handler(StoreError)
    async def store_error(_request: Request, error: StoreError) -> JSONResponse:
        status = 409 if error.code in ("nickname_taken", "seat_taken") else 400
        body: Json = {"detail": str(error), "code": error.code, **error.facts}
        if error.code in _STORE_FIELDS:
            body["field"] = _STORE_FIELDS[error.code]
        return JSONResponse(body, status_code=status)

    @app.get("/api/health")
    async def health() -> Json:
        return {"ok": True}

    @app.post("/api/accounts", status_code=201)
    async def create_account(request: Request, response: Response) -> Json:
        body = await json_body(request)
        nickname = body.get("nickname")
        if not isinstance(nickname, str):
            raise FieldError("nickname", f"nickname must be text, not {nickname!r}")
        own_bot = body.get("bot", False)
        if not isinstance(own_bot, bool):
            raise FieldError("bot", f"bot must be true or false, not {own_bot!r}")
        account, token = await the_casino().db(the_casino().store.create_account, nickname,
                                               own_bot)
        response.set_cookie(COOKIE, token, httponly=True, samesite="lax",
                            secure=request.url.scheme == "https", max_age=10 * 365 * 24 * 3600)
        return {"id": account.id, "nickname": account.nickname, "wallet": account.wallet,
                "bot": account.own_bot, "token": token}

    @app.get("/api/me")
    async def who_am_i(request: Request) -> Json:
        account = await must_be_me(request)
        c = the_casino()
        seated = await c.db(c.store.seats_of, account.id)
        in_hands = {row.table_id: c.rooms[row.table_id] for row in seated
                    if row.table_id in c.rooms}
        return {"id": account.id, "nickname": account.nickname, "wallet": account.wallet,
                "seats": [{"table": row.table_id, "seat": row.seat,
                           "stack": in_hands[row.table_id].live_stack(row.seat)
                           if row.table_id in in_hands else row.stack} for row in seated]}

    @app.get("/api/tables")
    async def list_tables(request: Request) -> list[Json]:
        """The public tables, and the private ones the account hosts or plays at."""
        account = await account_of(request)
        if the_casino().cluster is not None:  # every worker's tables, from their owners
            return await the_casino().cluster.tables(account.id if account else None)  # type: ignore[union-attr]
        return [room.summary() for room in the_casino().rooms.values()
                if not room.spec.private or room.admits(account.id if account else None, None)]

    @app.post("/api/tables", status_code=201)
    async def create_table(request: Request) -> Json:
        account = await must_be_me(request)
        body = await json_body(request)
        c = the_casino()
        private = body.get("private", False)
        if not isinstance(private, bool):
            raise FieldError("private", f"private must be true or false, not {private!r}")
        rotation = None
        if body.get("variant") == "rotation":  # razz first, then stud and stud hi/lo
            rotation = whole(body, "every", whole(body, "seats", 8, 2, 8), 1, 100)
            body = body | {"variant": "razz"}
        spec = await c.db(c.store.create_table, *_table_fields(body, len(c.rooms) + 1),
                          account.id, private, _time_bank(body), rotation)
        if private:
            await c.db(c.store.renew_invite, spec.id)
            spec = await c.db(c.store.table, spec.id)
        room = await c.add_room(spec)
        return room.summary() | ({"invite": room.invite} if private else {})

    @app.get("/api/tables/{table_id}")
    async def get_table(request: Request, table_id: int, invite: str | None = None) -> Json:
        return await the_casino().summary(table_id, await account_of(request), invite)

    @app.get("/api/tables/{table_id}/hands")
    async def recent_hands(request: Request, table_id: int, limit: int = 10,
                           invite: str | None = None) -> list[Json]:
        account = await account_of(request)
        await the_casino().summary(table_id, account, invite)
        if not 1 <= limit <= 100:
            raise HTTPException(400, f"limit must be from 1 to 100, not {limit}")
        rows = await the_casino().db(the_casino().store.recent_hands, table_id, limit)
        return await the_casino().with_own(rows, account)

    @app.get("/api/hands/{hand_id}.phh")
    async def hand_phh(request: Request, hand_id: int,
                       invite: str | None = None) -> PlainTextResponse:
        c = the_casino()
        if is_key(hand_id) and not await c.may_see_hand(hand_id, await account_of(request),
                                                            invite):
            raise HTTPException(403, f"hand {hand_id} was played at a private table: open it "
                                     "with the table's invite link")
        text = (await c.db(c.store.hand_phh, hand_id) if is_key(hand_id) else None)
        if text is None:
            raise HTTPException(404, f"hand {hand_id} is not finished or does not exist")
        return PlainTextResponse(text, headers={
            "Content-Disposition": f'attachment; filename="stud-hand-{hand_id}.phh"'})

    @app.get("/i18n/{lang}.json")
    async def messages(lang: str) -> JSONResponse:
        """A language's message catalogue (stud.text's), the one dictionary of every page."""
        if lang not in LANGUAGES:
            raise HTTPException(404, f"there is no language {lang!r}: use "
                                     f"{' or '.join(LANGUAGES)}")
        return JSONResponse(catalogue(lang), headers={"Cache-Control": "no-cache"})

    @app.get("/")
    async def lobby() -> FileResponse:
        return page("lobby.html")

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:  # asked for by browsers whatever the page says
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    async def page_of(table_id: str, name: str) -> FileResponse:
        """A table's page; for a table that is not there, a page saying so in the reader's
        language with the way back to the lobby (404: the API's answers stay JSON)."""
        known = re.fullmatch(r"[0-9]{1,18}", table_id) and await the_casino().known(
            int(table_id))
        if not known:
            return page("no_table.html", 404)
        return page(name)

    @app.get("/tables/{table_id}")
    async def table_page(table_id: str) -> FileResponse:
        return await page_of(table_id, "table.html")

    @app.get("/tables/{table_id}/rules")
    async def rules_page(table_id: str) -> FileResponse:
        return await page_of(table_id, "rules.html")

    @app.websocket("/ws/tables/{table_id}")
    async def play(websocket: WebSocket, table_id: int) -> None:
        c = the_casino()
        room = c.rooms.get(table_id)
        # Accepted first, so that the browser learns why it is closed (a close before the
        # handshake reaches it as a failed connection, 1006, which it would try again).
        await websocket.accept()
        if room is None and not (c.cluster is not None and await c.known(table_id)):
            if c.cluster is not None and await c.between_owners(table_id):
                # Open, but given up by one worker and not yet taken by the next: try again.
                await websocket.close(code=1013, reason=f"no process plays table {table_id} "
                                      "at the moment: connect again")
                return
            await websocket.close(code=4404, reason=f"there is no table {table_id}")
            return
        token = websocket.query_params.get("token") or websocket.cookies.get(COOKIE)
        account = await c.db(c.store.account_by_token, token)
        invite = websocket.query_params.get("invite")
        frames = websocket.query_params.get("frames", "delta")  # "full": whole states only
        if room is None and c.cluster is not None and frames in ("delta", "full"):
            # Played by another worker: relayed to it, which admits or refuses the client.
            await c.cluster.relay.serve(websocket, table_id, account.id if account else None,
                                        invite, frames == "full")
            return
        assert room is not None
        if not room.admits(account.id if account else None, invite):
            await websocket.close(code=4403, reason=f"table {table_id} is private: open it "
                                  "with the invite link its host shares")
            return
        if frames not in ("delta", "full"):
            await websocket.close(code=4400, reason=f"frames must be delta or full, not "
                                  f"{frames[:20]!r}")
            return
        client = Client(account, websocket.send_text, account.wallet if account else 0,
                        invite=invite, close=_closer(websocket), full_only=frames == "full")
        pump = asyncio.get_running_loop().create_task(client.pump())
        await room.join(client)
        try:
            while not client.flooding:
                frame = await websocket.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                text = frame.get("text")
                if text is None:
                    client.push_error(_error("bad_json", "send JSON in text frames, not binary "
                                                         "ones"))
                    continue
                try:
                    message = json.loads(text)
                except ValueError as error:
                    client.push_error(_error("bad_json", f"not JSON: {error}"))
                    continue
                except RecursionError:
                    client.push_error(_error("bad_json", "not JSON this server reads: nested "
                                                         "too deep"))
                    continue
                await room.handle(client, message)
                if not await client.room_to_answer():
                    client.flooding = True
            if client.flooding and not client.closed:
                await websocket.close(code=1008, reason=f"more than {MAX_UNREAD} answers "
                                      f"unread for {READ_WAIT:g} s: read what the server sends")
        except WebSocketDisconnect:
            pass
        finally:
            await room.part(client)
            pump.cancel()

    return app


def _closer(websocket: WebSocket) -> Callable[[int, str], Awaitable[None]]:
    async def close(code: int, reason: str) -> None:
        await websocket.close(code=code, reason=reason)
    return close


def _time_bank(body: dict[str, object]) -> TimeBank | None:
    """The table's time bank: {"start": s, "add": s, "every": hands, "cap": s}, each part
    optional (the house's default for the rest); None for the house's default."""
    given = body.get("time_bank")
    if given is None:
        return None
    if not isinstance(given, dict):
        raise FieldError("time_bank", f"time_bank must be an object, not {given!r}")
    unknown = sorted(set(given) - {"start", "add", "every", "cap"})
    if unknown:
        raise FieldError("time_bank", f"time_bank has no part {unknown[0]!r}: use start, add, "
                                      "every and cap")
    base = TimeBank()
    try:
        bank = TimeBank(*(whole(given, part, getattr(base, part), low, high)
                          for part, low, high in (("start", 0, 600), ("add", 0, 120),
                                                  ("every", 1, 1000), ("cap", 0, 600))))
    except FieldError as error:  # a part's problem is the time bank's, for the form
        raise FieldError("time_bank", f"time_bank: {error.detail}") from None
    if bank.start > bank.cap:
        raise FieldError("time_bank", f"time_bank: start ({bank.start}) must not be more than "
                                      f"cap ({bank.cap})")
    return bank


def _error(code: str, message: str) -> str:
    return json.dumps({"type": "error", "code": code, "message": message})


def _table_fields(body: dict[str, object], number: int) -> tuple[object, ...]:
    name = name_field(body, f"Table {number}")
    try:
        variant = Variant.parse(str(body.get("variant", "stud")))
    except RulesError as error:
        raise FieldError("variant", f"variant: {error}", code="not_a_choice",
                         choices=[v.value for v in Variant]) from None
    # From 2: the bring-in, half the small bet, must be less than a full bet.
    small_bet = whole(body, "small_bet", 2, 2, 10_000)
    rules_name = body.get("rules", "standard")
    if not isinstance(rules_name, str) or rules_name not in PROFILES:
        raise FieldError("rules", f"rules must be one of {', '.join(PROFILES)}, "
                                  f"not {shown(rules_name)}", code="not_a_choice",
                         choices=list(PROFILES))
    return (name, variant, Stakes.for_limit(small_bet), PROFILES[str(rules_name)],
            whole(body, "seats", 8, 2, 8), whole(body, "clock", 30, 5, 300))
