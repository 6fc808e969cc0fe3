"""One WebSocket connection's side of a table: its account, the frames waiting for it, and
the errors a message can get (docs/protocol.md)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from stud.server.store import Account

MAX_UNREAD = 64  # answers waiting for a client before the server closes its connection


class ProtocolError(ValueError):
    """A message the room refuses; ``code`` and the message go back in an error frame."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class Client:
    """One WebSocket connection. Answers wait in ``errors`` and the newest state in ``state``:
    a newer state replaces an older one not yet sent, since each state is whole."""

    account: Account | None
    send: Callable[[str], Awaitable[None]]
    wallet: int = 0
    errors: list[str] = field(default_factory=list)
    state: str | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    closed: bool = False
    flooding: bool = False

    def push_state(self, frame: str) -> None:
        self.state = frame
        self.wake.set()

    def push_error(self, frame: str) -> None:
        """Queue an answer (an error or a pong); a client that sends faster than it reads is
        cut off rather than let the queue grow."""
        if len(self.errors) >= MAX_UNREAD:
            self.flooding = True
        else:
            self.errors.append(frame)
        self.wake.set()

    async def pump(self) -> None:
        """Send what is waiting until the connection closes."""
        try:
            while not self.closed:
                await self.wake.wait()
                self.wake.clear()
                while self.errors:
                    await self.send(self.errors.pop(0))
                if self.state is not None:
                    frame, self.state = self.state, None
                    await self.send(frame)
        except Exception:  # the connection went away; the room forgets it in part()
            self.closed = True


def int_field(message: dict[str, object], name: str) -> int:
    if name not in message:
        raise ProtocolError("bad_message", f"{message.get('type')}: the field {name!r} is "
                            "missing")
    value = message[name]
    if not isinstance(value, int) or isinstance(value, bool):
        raise ProtocolError("bad_message", f"{message.get('type')}: {name} must be a whole "
                            f"number, not {value!r}")
    return value
