"""WebSockets relayed through Redis pub/sub to the worker that owns the table.

Any worker process accepts any client's WebSocket. When the table is its own, it serves the
client as a single process does (``app.play``); on one machine that is the rule, since the
parent hands each table's connection to its owner (``stud.server.router``). When another worker
owns it (on another machine, or the table moved a moment ago), the accepting worker (the
*relay*) forwards what the client sends to the table's channel, and the owner answers on the
relay's own channel with the frames of that one client:

Every channel's name begins with the room's prefix and the number of its Redis database
(``{prefix}:{db}``, ``{channels}`` below): Redis's channels, unlike its keys, are shared by all
its databases, and a room owns its prefix (``stud.server.holder.RoomClaim``) on one of them.

- ``{channels}:t:{table}``: the owner listens. JSON: ``join`` (connection, reply channel,
  account, invite, frames wanted), ``msg`` (the client's text, as it came) and ``part``; and
  ``http``, a request about the table (a sit-and-go's registration) for the owner to answer.
- ``{channels}:w:{worker}``: the relay listens. ``{connection} {owner}\\n{frame}``, or
  ``{connection} {owner}\\n\\x00{code} {reason}`` to close the connection, or
  ``{request} {owner}\\n\\x01{answer}`` for a request. A connection takes frames from the
  first owner that answers it only: for the moment that a stalled owner has not yet seen that
  another took its table, both may answer a join, and their frames must not interleave.
- ``{channels}:moved``: a worker that takes a table over says so; relays close the table's
  connections with 4503, and the clients reconnect (to whichever worker; the new owner answers).

The owner keeps a ``Client`` for each relayed connection, exactly as for one of its own, so
every frame is built from that client's view by the room and numbered by it: a relay forwards
text it never reads, and no foreign down card can reach a client by a relay.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fastapi import WebSocket, WebSocketDisconnect
from redis.asyncio import Redis

from stud.server.connection import MOVED, Client

if TYPE_CHECKING:
    from stud.server.app import Casino

log = logging.getLogger("stud.server")
JOIN_WAIT = 10.0  # seconds a relay waits for an owner to listen before it gives up


@dataclass
class Relayed:
    """A connection this worker accepted for a table another worker owns."""

    table_id: int
    outbox: asyncio.Queue[str | tuple[int, str]] = field(default_factory=asyncio.Queue)
    owner: str | None = None  # the tag of the owner whose frames it takes


@dataclass
class Hosted:
    """A connection another worker accepted for a table this worker owns."""

    table_id: int
    reply: str
    inbox: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    client: Client | None = None
    task: asyncio.Task[None] | None = None


class Relay:
    def __init__(self, redis: Redis, prefix: str, name: str, casino: Casino) -> None:
        self.redis = redis
        # Channels are one namespace for all the databases of a Redis server (keys are not):
        # the database's number keeps a room on another one apart, whatever its prefix.
        self.prefix = f"{prefix}:{redis.connection_pool.connection_kwargs.get('db', 0)}"
        self.casino = casino
        self.inbox = f"{self.prefix}:w:{name}"
        self.tag = secrets.token_hex(4)  # this worker, in the frames it sends to relays
        self.moved = f"{self.prefix}:moved"
        self.relayed: dict[str, Relayed] = {}
        self.hosted: dict[str, Hosted] = {}
        self.pubsub = redis.pubsub(ignore_subscribe_messages=True)
        self._listening: asyncio.Task[None] | None = None
        self.asked: dict[str, asyncio.Future[dict[str, Any]]] = {}  # requests sent to owners
        self.app: Any = None  # the worker's ASGI app, which answers the requests it owns

    def channel(self, table_id: int) -> str:
        return f"{self.prefix}:t:{table_id}"

    async def start(self) -> None:
        await self.pubsub.subscribe(self.inbox, self.moved)
        self._listening = asyncio.get_running_loop().create_task(self._listen())

    async def stop(self) -> None:
        if self._listening is not None:
            self._listening.cancel()
            with contextlib.suppress(BaseException):
                await self._listening
        for hosted in list(self.hosted.values()):
            if hosted.task is not None:
                hosted.task.cancel()
        with contextlib.suppress(Exception):
            await self.pubsub.aclose()

    # ------------------------------------------------------------------ the owner's side

    async def own(self, table_id: int) -> None:
        """Listen for the relayed connections of a table this worker now plays, and tell
        every relay that the table moved (their clients of it reconnect)."""
        # Said before listening: a relay that joins after hearing it reaches this worker.
        await self.redis.publish(self.moved, str(table_id))
        await self.pubsub.subscribe(self.channel(table_id))

    async def disown(self, table_id: int) -> None:
        await self.pubsub.unsubscribe(self.channel(table_id))
        for connection, hosted in list(self.hosted.items()):
            if hosted.table_id == table_id:
                await self._tell(hosted.reply, connection, f"\x00{MOVED} the table moved: "
                                 "reconnect")

    def _host(self, table_id: int, message: dict[str, Any]) -> None:
        connection = str(message.get("c"))
        if message.get("k") == "http":
            asyncio.get_running_loop().create_task(self._answer(connection, message))
            return
        hosted = self.hosted.get(connection)
        if hosted is None:
            if message.get("k") != "join":
                reply = str(message.get("r"))
                asyncio.get_running_loop().create_task(self._tell(
                    reply, connection, f"\x00{MOVED} the table moved: reconnect"))
                return
            hosted = self.hosted[connection] = Hosted(table_id, str(message.get("r")))
            hosted.task = asyncio.get_running_loop().create_task(
                self._serve_hosted(connection, hosted))
        hosted.inbox.put_nowait(message)

    async def _serve_hosted(self, connection: str, hosted: Hosted) -> None:
        """One relayed connection, in order: its join, its messages, its part."""
        casino, pump = self.casino, None
        client: Client | None = None
        room = None
        try:
            join = await hosted.inbox.get()
            room = casino.rooms.get(hosted.table_id)
            if room is None:
                await self._tell(hosted.reply, connection, f"\x00{MOVED} the table moved: "
                                 "reconnect")
                return
            account_id = join.get("a")
            account = await casino.db(casino.store.account, account_id) \
                if isinstance(account_id, int) else None
            invite = join.get("i") if isinstance(join.get("i"), str) else None
            if not room.admits(account.id if account else None, invite):
                await self._tell(hosted.reply, connection, f"\x004403 table {room.spec.id} is "
                                 "private: open it with the invite link its host shares")
                return
            client = hosted.client = Client(
                account, self._sender(hosted.reply, connection),
                account.wallet if account else 0, invite=invite,
                close=self._closer(hosted.reply, connection), full_only=bool(join.get("f")))
            pump = asyncio.get_running_loop().create_task(client.pump())
            await room.join(client)
            while True:
                message = await hosted.inbox.get()
                if message.get("k") == "part" or client.closed:
                    break
                try:
                    parsed = json.loads(str(message.get("m")))
                except ValueError as error:
                    client.push_error(json.dumps({"type": "error", "code": "bad_json",
                                                  "message": f"not JSON: {error}"}))
                    continue
                await room.handle(client, parsed)
        finally:
            self.hosted.pop(connection, None)
            if room is not None and client is not None:
                await room.part(client)
            if pump is not None:
                pump.cancel()

    def _sender(self, reply: str, connection: str) -> Callable[[str], Awaitable[None]]:
        async def send(frame: str) -> None:
            if not await self.redis.publish(reply, f"{connection} {self.tag}\n{frame}"):
                # The relay is gone (its process died): the connection is over.
                hosted = self.hosted.get(connection)
                if hosted is not None:
                    hosted.inbox.put_nowait({"k": "part"})
                raise ConnectionError(f"no relay listens for connection {connection}")
        return send

    def _closer(self, reply: str, connection: str) -> Callable[[int, str], Awaitable[None]]:
        async def close(code: int, reason: str) -> None:
            await self._tell(reply, connection, f"\x00{code} {reason}")
        return close

    async def _tell(self, reply: str, connection: str, payload: str) -> None:
        with contextlib.suppress(Exception):
            await self.redis.publish(reply, f"{connection} {self.tag}\n{payload}")

    async def _answer(self, request: str, message: dict[str, Any]) -> None:
        """A request another worker received about a table of this one: answered by this
        worker's own app, as if it had come here."""
        import httpx

        try:
            transport = httpx.ASGITransport(app=self.app)
            async with httpx.AsyncClient(transport=transport, base_url="http://worker") as http:
                answer = await http.request(message["method"], message["path"],
                                            params=message["query"], headers=message["headers"],
                                            content=message["body"].encode())
            reply = {"status": answer.status_code, "body": answer.text,
                     "type": answer.headers.get("content-type", "application/json")}
        except Exception as error:
            log.exception("a relayed request failed")
            reply = {"status": 500, "body": json.dumps({"detail": str(error)}),
                     "type": "application/json"}
        await self._tell(str(message.get("r")), request, "\x01" + json.dumps(reply))

    async def ask(self, table_id: int, method: str, path: str, query: str,
                  headers: dict[str, str], body: str) -> dict[str, Any] | None:
        """Have the table's owner answer an HTTP request; None when no owner listens."""
        request = secrets.token_hex(8)
        future = self.asked[request] = asyncio.get_running_loop().create_future()
        try:
            message = json.dumps({"k": "http", "c": request, "r": self.inbox, "method": method,
                                  "path": path, "query": query, "headers": headers,
                                  "body": body})
            if not await self._reach(self.channel(table_id), message):
                return None
            return await asyncio.wait_for(future, JOIN_WAIT)
        except TimeoutError:
            return None
        finally:
            self.asked.pop(request, None)

    # ------------------------------------------------------------------ the relay's side

    async def serve(self, websocket: WebSocket, table_id: int, account_id: int | None,
                    invite: str | None, full_only: bool) -> None:
        """Relay one accepted WebSocket to the table's owner until either side closes it."""
        connection = secrets.token_hex(8)
        relayed = self.relayed[connection] = Relayed(table_id)
        channel = self.channel(table_id)
        sender = asyncio.get_running_loop().create_task(self._send(websocket, relayed))
        try:
            join = json.dumps({"k": "join", "c": connection, "r": self.inbox, "a": account_id,
                               "i": invite, "f": full_only})
            if not await self._reach(channel, join):
                await websocket.close(code=1013, reason=f"no process plays table {table_id} "
                                      "now: try again")
                return
            while True:
                frame = await websocket.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                text = frame.get("text")
                if text is None:
                    relayed.outbox.put_nowait(json.dumps({
                        "type": "error", "code": "bad_json",
                        "message": "send JSON in text frames, not binary ones"}))
                    continue
                message = json.dumps({"k": "msg", "c": connection, "r": self.inbox, "m": text})
                if not await self.redis.publish(channel, message):  # the owner is gone
                    await websocket.close(code=MOVED, reason="the table moved: reconnect")
                    break
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            self.relayed.pop(connection, None)
            sender.cancel()
            with contextlib.suppress(Exception):
                await self.redis.publish(channel, json.dumps({"k": "part", "c": connection,
                                                              "r": self.inbox}))

    async def _reach(self, channel: str, join: str) -> bool:
        """Publish the join once an owner listens on the table's channel."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + JOIN_WAIT
        while not await self.redis.publish(channel, join):
            if loop.time() > deadline:
                return False
            await asyncio.sleep(0.25)
        return True

    async def _send(self, websocket: WebSocket, relayed: Relayed) -> None:
        with contextlib.suppress(Exception):
            while True:
                item = await relayed.outbox.get()
                if isinstance(item, tuple):
                    await websocket.close(code=item[0], reason=item[1])
                    return
                await websocket.send_text(item)

    # ------------------------------------------------------------------ the listener

    async def _listen(self) -> None:
        while True:
            try:
                async for message in self.pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    self._dispatch(_text(message["channel"]), _text(message["data"]))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the relay's subscription failed; subscribing again")
                await asyncio.sleep(0.5)

    def _dispatch(self, channel: str, data: str) -> None:
        if channel == self.inbox:
            head, _, payload = data.partition("\n")
            connection, _, owner = head.partition(" ")
            if payload.startswith("\x01"):
                future = self.asked.get(connection)
                if future is not None and not future.done():
                    future.set_result(json.loads(payload[1:]))
                return
            relayed = self.relayed.get(connection)
            if relayed is None:
                return
            if relayed.owner is None:
                relayed.owner = owner
            elif relayed.owner != owner:
                return  # a second owner answered the join: only the first one's frames
            if payload.startswith("\x00"):
                code, _, reason = payload[1:].partition(" ")
                relayed.outbox.put_nowait((int(code), reason))
            else:
                relayed.outbox.put_nowait(payload)
        elif channel == self.moved:
            table_id = int(data)  # even to this worker: its relays went to the old owner
            for relayed in self.relayed.values():
                if relayed.table_id == table_id:
                    relayed.outbox.put_nowait((MOVED, "the table moved: reconnect"))
        else:
            table_id = int(channel.rsplit(":", 1)[1])
            self._host(table_id, json.loads(data))


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
