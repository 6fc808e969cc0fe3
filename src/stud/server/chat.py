"""Chat at a table (a part of ``Room``, a mixin): players and watchers with an account talk;
every line is kept with the table in the store, limited in length and rate, and sent as data
(the pages show it as text, never as markup). A reader can mute a player: that player's lines
are not sent to the reader's connections, at any table, until unmuted. The ``muted`` frame names
whom the reader mutes, with their nicknames (their lines are not sent, so the page has no other
way to know the names).

The table's notices (who timed out, a pause, a close) go to every client as ``notice`` frames
and the pages show them in the same pane, in the reader's language; who won each hand the pages
take from the hand's own frame. The last notices (who won each hand among them) are kept in
memory, as many as the chat lines a new client gets, so that a client that comes (a reload, a
reconnect) gets them too, in order with the chat's lines.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import unicodedata
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from stud.server.connection import Client, ProtocolError, int_field
from stud.server.store import ChatLine, Store, TableSpec

log = logging.getLogger("stud.server")

LONGEST = 200  # characters in one chat line
BURST, PER_SECONDS = 5, 10.0  # at most BURST lines in any PER_SECONDS, per account and table
KEPT = 50  # lines a new client gets
_TELLING: set[asyncio.Task[None]] = set()  # muted frames being made: held until sent


@dataclass(frozen=True)
class Notice:
    """A notice as it was sent (or, who won a hand, as a page told it), and when."""

    at: datetime
    facts: dict[str, object]


class Chat:
    spec: TableSpec
    store: Store
    clients: list[Client]
    db: Callable[..., Awaitable[Any]]
    _account: Callable[[Client], Any]
    _said: dict[int, deque[float]]
    notices: deque[Notice]  # the last KEPT
    mute_moved: Callable[[int, int, bool], None]

    async def greet(self, client: Client) -> None:
        """A new client gets the table's last lines (but not those of players it muted) and
        its last notices, in the order they came."""
        if client.account is not None:
            client.muted = await self.db(self.store.muted_by, client.account.id)
            await self._tell_muted(client)
        lines = await self.db(self.store.recent_chat, self.spec.id, KEPT)
        for frame in _history([line for line in lines if line.account_id not in client.muted],
                              list(self.notices)):
            client.push_error(frame)

    def notice(self, kind: str, **facts: object) -> None:
        """A table event for every pane that shows them (who timed out, a table paused...):
        facts, put into words by each reader's page; kept for the clients that come later."""
        self.keep_notice(kind, **facts)
        frame = json.dumps({"type": "notice", "kind": kind} | facts)
        for client in self.clients:
            client.push_error(frame)

    def keep_notice(self, kind: str, **facts: object) -> None:
        """A notice kept for the clients that come later, but not sent now: who won a hand,
        which a connected page tells from the hand's own frame."""
        self.notices.append(Notice(datetime.now(UTC), {"type": "notice", "kind": kind} | facts))

    async def _chat(self, client: Client, message: dict[str, object]) -> None:
        account = self._account(client)
        text = message.get("text")
        if not isinstance(text, str):
            raise ProtocolError("bad_message", f"chat: text must be text, not {text!r}")
        text = " ".join(text.split())  # one line: no newlines, tabs or runs of spaces
        if any(unicodedata.category(c) in ("Cc", "Cf", "Co", "Cs") and not _joins(text, i)
               for i, c in enumerate(text)):
            raise ProtocolError("bad_chat", "chat: the text holds control or invisible "
                                "characters")
        if not text:
            raise ProtocolError("bad_chat", "chat: the text is empty")
        if len(text) > LONGEST:
            raise ProtocolError("bad_chat", f"chat: at most {LONGEST} characters, not "
                                f"{len(text)}")
        said = self._said.setdefault(account.id, deque())
        now = time.monotonic()
        while said and said[0] < now - PER_SECONDS:
            said.popleft()
        if len(said) >= BURST:
            raise ProtocolError("chat_rate", f"chat: at most {BURST} lines in "
                                f"{PER_SECONDS:g} seconds; wait "
                                f"{said[0] + PER_SECONDS - now:.0f} s")
        line = await self.db(self.store.add_chat, self.spec.id, account.id, text)
        said.append(now)
        frame = _frame([line])
        for other in self.clients:
            if line.account_id not in other.muted:
                other.push_error(frame)

    async def _mute(self, client: Client, message: dict[str, object]) -> None:
        account = self._account(client)
        other = int_field(message, "account")
        muted = message.get("muted", True)
        if not isinstance(muted, bool):
            raise ProtocolError("bad_message", f"mute: muted must be true or false, not "
                                f"{muted!r}")
        await self.db(self.store.account, other)  # an unknown account is refused by name
        await self.db(self.store.set_muted, account.id, other, muted)
        self.mute_moved(account.id, other, muted)  # here and at the account's other tables

    def set_mute(self, account_id: int, other: int, muted: bool) -> None:
        """The account muted (or unmuted) ``other``: its connections here follow."""
        for mine in self.clients:
            if mine.account is not None and mine.account.id == account_id:
                (mine.muted.add if muted else mine.muted.discard)(other)
                _TELLING.add(task := asyncio.get_running_loop().create_task(
                    self._tell_muted(mine)))
                task.add_done_callback(_told)

    async def _tell_muted(self, client: Client) -> None:
        """Sends the client whom it mutes, with their nicknames. The set is read again after
        the names are looked up, and sent with no wait in between: of several mutes in quick
        succession, the frame sent last says the set as it is."""
        names: dict[int, str] = {}
        while missing := client.muted - names.keys():
            for other in sorted(missing):
                names[other] = (await self.db(self.store.account, other)).nickname
        muted = sorted(client.muted)
        client.push_error(json.dumps({"type": "muted", "accounts": muted,
                                      "names": {str(other): names[other] for other in muted}}))


def _told(task: asyncio.Task[None]) -> None:
    """A muted frame sent, or why not, in one line (a database gone at shutdown)."""
    _TELLING.discard(task)
    if not task.cancelled() and task.exception() is not None:
        log.warning("could not send a muted list: %s", task.exception())


def _joins(text: str, i: int) -> bool:
    """A zero-width joiner inside an emoji sequence (a family, a profession, a rainbow flag):
    invisible, but part of the picture, between two characters that are not plain ASCII."""
    return (text[i] == "\u200d" and 0 < i < len(text) - 1
            and not text[i - 1].isascii() and not text[i + 1].isascii())


def _history(lines: list[ChatLine], notices: list[Notice]) -> list[str]:
    """The frames that bring a new client the last lines and notices in the order they came:
    first a ``history`` chat frame (where a page starts its pane over) with the lines before
    the first notice, then each notice as it was sent (marked ``history``, with its time) and
    the lines after it, as they came live."""
    frames: list[str] = []
    sent = 0
    for notice in notices:
        upto = sent
        while upto < len(lines) and lines[upto].at <= notice.at:
            upto += 1
        if upto > sent or not frames:
            frames.append(_frame(lines[sent:upto], history=not frames))
        frames.append(json.dumps(notice.facts | {"history": True,
                                                 "at": notice.at.isoformat()}))
        sent = upto
    if sent < len(lines) or not frames:
        frames.append(_frame(lines[sent:], history=not frames))
    return frames


def _frame(lines: list[ChatLine], history: bool = False) -> str:
    return json.dumps({"type": "chat", "history": history, "lines": [
        {"id": line.id, "account": line.account_id, "name": line.nickname, "text": line.text,
         "at": line.at.isoformat()} for line in lines]})
