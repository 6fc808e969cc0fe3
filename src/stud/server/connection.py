"""One WebSocket connection's side of a table: its account, the frames waiting for it, and
the errors a message can get (docs/protocol.md)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from stud.server.store import Account

MAX_UNREAD = 64  # answers waiting for a client before the server reads no more from it
MAX_BEHIND = 1024  # frames waiting for a client that reads nothing before it is cut off
READ_WAIT = 15.0  # seconds a client may leave MAX_UNREAD answers unread before it is cut off
MOVED = 4503  # close code: the table's owner changed or is gone: reconnect (docs/protocol.md)
MAX_DELTAS = 32  # small frames waiting for a client before one whole state replaces them
MAX_MESSAGE = 64 * 1024  # bytes of one client message (uvicorn's ws_max_size): more is 1009


class ProtocolError(ValueError):
    """A message the room refuses; ``code`` and the message go back in an error frame."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class Client:
    """One WebSocket connection. Answers, chat and notices wait in ``errors``, and the table's
    frames in ``frames``: a whole state, then the small frames that follow it (``deltas``); a
    whole state replaces every frame not yet sent, and so does one that would make more than
    MAX_DELTAS wait. Each frame gets its ``seq`` as it is sent: 1, 2, 3... on this connection,
    so that a client can tell it missed one. What is limited is what waits unread, not what a
    client sends: with MAX_UNREAD answers waiting, the server reads no more from the client
    until they are sent (``room_to_answer``); a client that reads nothing at all is cut off."""

    account: Account | None
    send: Callable[[str], Awaitable[None]]
    wallet: int = 0
    errors: list[str] = field(default_factory=list)
    frames: list[tuple[str, str]] = field(default_factory=list)  # (type, JSON after seq)
    seq: int = 0  # table frames sent on this connection
    full_only: bool = False  # asked for whole states only (?frames=full)
    # (kind of viewer, version of the table) of the last frame queued, and its "you": what a
    # delta must start from (stud.server.deltas).
    synced: tuple[tuple[int | None, int | None], int] | None = None
    you: str | None = None
    you_json: dict[str, object] | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    closed: bool = False
    flooding: bool = False
    invite: str | None = None  # the invite secret the client came with, if any
    muted: set[int] = field(default_factory=set)  # accounts whose chat this client skips
    close: Callable[[int, str], Awaitable[None]] | None = None
    shut_with: tuple[int, str] | None = None
    greeted: bool = False  # the first state frame was sent

    def shut(self, code: int, reason: str) -> None:
        """Close the connection once what is waiting has been sent."""
        self.shut_with = (code, reason)
        self.wake.set()

    def push_state(self, body: str) -> None:
        """A whole state (its JSON after ``type`` and ``seq``): it replaces what waits."""
        self.frames = [("state", body)]
        self.wake.set()

    def push_delta(self, body: str) -> bool:
        """What changed since the last frame queued; False when MAX_DELTAS wait already."""
        if len(self.frames) >= MAX_DELTAS:
            return False
        self.frames.append(("delta", body))
        self.wake.set()
        return True

    sent: asyncio.Event = field(default_factory=asyncio.Event)

    def push_error(self, frame: str) -> None:
        """Queue an answer, a chat line or a notice; a client so far behind that MAX_BEHIND
        wait for it is cut off rather than let the queue grow."""
        if len(self.errors) >= MAX_BEHIND:
            self.flooding = True
            self.shut(1008, f"more than {MAX_BEHIND} frames unread: read what the server "
                      "sends")
        else:
            self.errors.append(frame)
        self.wake.set()

    async def room_to_answer(self) -> bool:
        """Wait, if MAX_UNREAD answers are waiting, until they are sent; False when the
        client read none of them for READ_WAIT seconds."""
        deadline = asyncio.get_running_loop().time() + READ_WAIT
        while len(self.errors) >= MAX_UNREAD and not self.closed:
            self.sent.clear()
            left = deadline - asyncio.get_running_loop().time()
            try:
                await asyncio.wait_for(self.sent.wait(), max(0.0, left))
            except TimeoutError:
                return False
        return True

    async def pump(self) -> None:
        """Send what is waiting until the connection closes."""
        try:
            while not self.closed:
                await self.wake.wait()
                self.wake.clear()
                if not self.greeted and self.frames:  # the table comes first
                    self.greeted = True
                    await self._send_frames()
                while self.errors:
                    await self.send(self.errors.pop(0))
                    self.sent.set()
                await self._send_frames()
                if self.shut_with is not None and self.close is not None:
                    self.closed = True
                    await self.close(*self.shut_with)
        except Exception:  # the connection went away; the room forgets it in part()
            self.closed = True


    async def _send_frames(self) -> None:
        while self.frames:
            kind, body = self.frames.pop(0)
            self.seq += 1
            await self.send(f'{{"type": "{kind}", "seq": {self.seq}, {body}}}')


def int_field(message: dict[str, object], name: str) -> int:
    if name not in message:
        raise ProtocolError("bad_message", f"{message.get('type')}: the field {name!r} is "
                            "missing")
    value = message[name]
    if not isinstance(value, int) or isinstance(value, bool):
        raise ProtocolError("bad_message", f"{message.get('type')}: {name} must be a whole "
                            f"number, not {value!r}")
    return value
