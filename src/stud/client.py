"""Sit any bot at a web table over the WebSocket protocol (``docs/protocol.md``).

    token = create_account("http://localhost:8000", "my-bot")
    client = TableClient("http://localhost:8000", table=1, bot=make_bot("expert"), token=token)
    outcome = asyncio.run(client.run(hands=20))  # Outcome(hands=20, stack=...)

The client keeps the table's state from its frames (a whole state, then small frames applied
to it: ``stud.table_state``), as any player's browser does. When the seat is to
act it rebuilds the hand with the engine from what the seat has seen (``rebuild``: the seat's
own down cards, every up card, every action), so the bot decides from a real ``HandView`` of
its seat, exactly as it would at a local table, and sends one of the legal actions of the
frame. It plays a number of hands (or until stopped), then leaves the table with its chips.
"""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from stud.bots.base import Bot
from stud.engine import Action, ActionKind, HandView
from stud.history.phh import HandHistory
from stud.history.replay import ReplayError, rebuild
from stud.rules import POLICIES, PROFILES, Rules, RulesError, Variant
from stud.table_state import FrameGap, TableState

Json = dict[str, Any]


class ClientError(RuntimeError):
    """The server refused what the client asked, or could not be reached: why."""


def create_account(url: str, nickname: str, bot: bool = True) -> str:
    """A new account on the server at ``url``; its token. The account says it is a bot (the
    table shows it as one) unless ``bot`` is False."""
    request = urllib.request.Request(
        f"{url.rstrip('/')}/api/accounts",
        data=json.dumps({"nickname": nickname, "bot": bot}).encode(),
        headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return str(json.loads(answer.read())["token"])
    except urllib.error.HTTPError as error:
        detail = json.loads(error.read() or b"{}").get("detail", error.reason)
        raise ClientError(f"the server refused the account {nickname!r}: {detail}") from None
    except (urllib.error.URLError, OSError) as error:
        raise ClientError(f"cannot reach {url}: {getattr(error, 'reason', error)}") from None


def check_table(url: str, table: int, invite: str | None = None) -> Json:
    """The table's JSON, or a ClientError saying there is none (or it is private and
    ``invite``, the secret of its invite link, is not the current one)."""
    query = f"?{urllib.parse.urlencode({'invite': invite})}" if invite else ""
    try:
        with urllib.request.urlopen(f"{url.rstrip('/')}/api/tables/{table}{query}",
                                    timeout=10) as got:
            return dict(json.loads(got.read()))
    except urllib.error.HTTPError as error:
        if error.code == 404:
            raise ClientError(f"there is no table {table} at {url}") from None
        if error.code == 403:
            raise ClientError(f"table {table} is private: give --invite, the secret of its "
                              "invite link (…?invite=SECRET)") from None
        raise ClientError(f"the server answered {error.code} for table {table}") from None
    except (urllib.error.URLError, OSError) as error:
        raise ClientError(f"cannot reach {url}: {getattr(error, 'reason', error)}") from None


def seat_view(state: Json) -> HandView | None:
    """The hand in play as ``state``'s seat sees it, rebuilt with the engine; None when that
    seat is not in a hand being played."""
    hand, me = state.get("hand"), state["you"]["seat"]
    if not hand or hand["over"] or me is None:
        return None
    order = [p["seat"] for p in hand["players"]]
    if me not in order:
        return None
    table = state["table"]
    seats = {s["seat"]: s for s in state["seats"] if s}
    stakes = table["stakes"]
    history = HandHistory(
        variant=Variant.parse(table["variant"]).phh_code,
        antes=[stakes["ante"]] * len(order), bring_in=stakes["bring_in"],
        small_bet=stakes["small_bet"], big_bet=stakes["big_bet"],
        starting_stacks=[seats[s]["stack"] + seats[s]["committed"] for s in order],
        actions=phh_actions(hand["events"], order.index))
    try:
        rebuilt = rebuild(history, table_rules(table["rules"]))
    except (ReplayError, RulesError) as error:
        raise ClientError(f"hand {hand['number']} cannot be rebuilt from what the seat saw: "
                          f"{error}") from None
    return rebuilt.view(order.index(me) + 1)


def table_rules(rules: Json) -> Rules:
    """The table's rules from its JSON: a profile, and any policy it changes."""
    base = PROFILES.get(str(rules.get("name")), PROFILES["standard"])
    return base.with_policies(**{k: v for k, v in rules.items() if k in POLICIES})


_VERBS = {"bring_in": "pb", "check": "cc", "call": "cc", "fold": "f", "complete": "cbr",
          "bet": "cbr", "raise": "cbr"}


def phh_actions(events: list[Json], index: Callable[[int], int]) -> list[str]:
    """PHH action lines from a state frame's events (table seats turned into the hand's by
    ``index``, 0-based); a card the seat may not see is ``??``."""
    lines: list[str] = []
    pending: dict[int, list[str]] = {}

    def flush() -> None:
        for player in sorted(pending):
            lines.append(f"d dh p{player} {''.join(pending[player])}")
        pending.clear()

    for event in events:
        kind = event["kind"]
        if kind == "card":
            pending.setdefault(index(event["seat"]) + 1, []).append(event["card"] or "??")
            continue
        flush()
        player = f"p{index(event['seat']) + 1}" if "seat" in event else ""
        if kind == "action":
            verb = _VERBS[event["action"]]
            lines.append(f"{player} {verb}" + (f" {event['to']}" if verb == "cbr" else ""))
        elif kind == "board":
            lines.append(f"d db {event['card']}")
        elif kind == "shown":
            lines.append(f"{player} sm {''.join(event['cards'])}")
        elif kind == "mucked":
            lines.append(f"{player} sm")
    flush()
    return lines


@dataclass
class Outcome:
    hands: int  # hands the bot was dealt into and saw finish
    stack: int  # what it left the table with


# Close codes after which connecting again cannot help (docs/protocol.md); after any other the
# client connects again, as the page does: a restart, a table moved between processes (4503),
# no process playing it for a moment (1013), a lost network.
FINAL_CLOSES = {4400: "the server refused the connection's parameters",
                4403: "the table is private and the invite is not the current one",
                4404: "there is no such table (any more)",
                4410: "the table was closed"}
RECONNECT_FOR = 120.0  # seconds without a connection before the client gives up
RECONNECT_PAUSE = (0.5, 5.0)  # the first pause before connecting again, and the longest


class TableClient:
    """One bot at one table, over a WebSocket, connecting again when it is lost."""

    def __init__(self, url: str, table: int, bot: Bot, token: str,
                 buy_in: int | None = None, log: Callable[[str], None] = print,
                 invite: str | None = None) -> None:
        self.url = url.rstrip("/")
        self.invite = invite
        self.table = table
        self.bot = bot
        self.token = token
        self.buy_in = buy_in
        self.log = log
        self.dealt: set[int] = set()  # hands seen running with this seat dealt in
        self.played: set[int] = set()  # of those, the ones seen over
        self.lost = False  # the connection was lost and has not served a table state since
        self.acted: tuple[int, int] | None = None  # (hand, events seen) when last acted
        self.seated = False
        self.stack = 0
        self.heard = False  # a table state came over the present connection

    async def run(self, hands: int | None = None, seconds: float | None = None) -> Outcome:
        """Sit, play ``hands`` hands (or until ``seconds`` pass, or forever), leave."""
        return await asyncio.wait_for(self._connected(hands), seconds)

    async def _connected(self, hands: int | None) -> Outcome:
        import websockets

        query = {"token": self.token} | ({"invite": self.invite} if self.invite else {})
        ws_url = (f"ws{self.url[len('http'):]}/ws/tables/{self.table}?"
                  f"{urllib.parse.urlencode(query)}")
        where = ws_url.split("?")[0]
        pause, lost_at = RECONNECT_PAUSE[0], None
        loop = asyncio.get_running_loop()
        while True:
            self.heard = False
            try:
                async with websockets.connect(ws_url, open_timeout=10) as socket:
                    outcome = await self._play(socket, hands)
                    if outcome is not None:
                        return outcome
                    why = "the server closed the connection"
            except websockets.exceptions.ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd is not None else None
                if code in FINAL_CLOSES:
                    raise ClientError(f"cannot play at {where}: {FINAL_CLOSES[code]}") from None
                told = closed.rcvd
                said = "" if told is None else f"{told.code} {told.reason}".strip()
                why = f"the server closed the connection ({said})" if said else \
                    "the connection was lost"
            except (OSError, TimeoutError, websockets.exceptions.WebSocketException) as error:
                why = f"cannot connect: {error}"
            if self.heard:  # the table was served since the last loss: a new loss begins
                pause, lost_at = RECONNECT_PAUSE[0], None
            lost_at = loop.time() if lost_at is None else lost_at
            if loop.time() - lost_at > RECONNECT_FOR:
                raise ClientError(f"cannot play at {where}: {why}; gave up after "
                                  f"{RECONNECT_FOR:.0f} s without a connection")
            self.log(f"{why}; connecting again in {pause:g} s")
            self.lost = True
            await asyncio.sleep(pause)
            pause = min(2 * pause, RECONNECT_PAUSE[1])

    async def _play(self, socket: Any, hands: int | None) -> Outcome | None:
        """Play over one connection: the outcome once the bot has left, None if the connection
        ended first (the seat is the account's: the next connection finds it again)."""
        asked = leaving = False
        self.acted = None  # a decision sent as the connection went may be lost: send it again
        table = TableState()
        async for message in socket:
            received = json.loads(message)
            if received.get("type") == "error":
                if received.get("code") in ("seat_taken", "wallet_short", "bad_buy_in",
                                            "no_such_seat", "no_account", "not_invited"):
                    raise ClientError(f"cannot sit: {received.get('message')}")
                self.log(f"the server refused: {received.get('message')}")
                continue
            try:
                state = table.read(received)
            except FrameGap as gap:
                self.log(f"missed a frame ({gap}); asking for the whole table again")
                await socket.send(json.dumps({"type": "resync"}))
                continue
            if state is None:
                continue
            self.heard = True  # served: a connection that is only accepted and closed is not
            if self.lost:
                self.lost = False
                self.log("connected again")
            frame = state
            me = frame["you"]["seat"]
            if me is not None:
                seat = frame["seats"][me - 1]
                self.stack = seat["stack"] if seat else self.stack
                if not self.seated:
                    self.seated = True
                    self.log(f"sat in seat {me} with {self.stack} chips")
            elif self.seated:  # gone: the leave is done (or the host removed the seat)
                return Outcome(len(self.played), self.stack)
            else:
                if not asked:
                    await socket.send(json.dumps(self._sit(frame)))
                    asked = True
                continue
            self._count(frame)
            if hands is not None and len(self.played) >= hands and not leaving:
                await socket.send(json.dumps({"type": "leave"}))
                leaving = True
            if not leaving:
                action = self._decide(frame)
                if action is not None:
                    await socket.send(json.dumps(action))
        return None

    def _sit(self, frame: Json) -> Json:
        empty = [k + 1 for k, seat in enumerate(frame["seats"]) if seat is None]
        if not empty:
            raise ClientError(f"table {self.table} has no empty seat")
        small = frame["table"]["stakes"]["small_bet"]
        buy_in = self.buy_in or min(100 * small, frame["you"]["wallet"])
        return {"type": "sit", "seat": empty[0], "buy_in": buy_in}

    def _count(self, frame: Json) -> None:
        """Count the hands this seat was dealt and saw end: a hand seen only once over (the
        last one before it sat down, played by whoever had the seat then) is not its own."""
        me = frame["you"]["seat"]
        for hand in (frame.get("hand"), frame.get("last")):
            if not hand or me not in [p["seat"] for p in hand.get("players", [])]:
                continue
            if not hand["over"]:
                self.dealt.add(hand["number"])
            elif hand["number"] in self.dealt:
                self.played.add(hand["number"])

    def _decide(self, frame: Json) -> Json | None:
        hand = frame.get("hand")
        if not hand or not hand["legal"]:
            return None
        moment = (hand["number"], len(hand["events"]))
        if self.acted == moment:  # this decision was sent already
            return None
        view = seat_view(frame)
        legal = [(entry["action"], entry["to"]) for entry in hand["legal"]]
        choice: Action | None = self.bot.act(view) if view is not None else None
        picked = None if choice is None else (choice.kind.value, choice.to)
        if picked not in legal:
            self.log(f"hand {hand['number']}: the bot's {choice} is not among the table's "
                     f"legal actions {legal}; checking or calling instead")
            picked = next((a for a in legal if a[0] in (ActionKind.CHECK.value,
                                                        ActionKind.CALL.value)), legal[0])
        self.acted = moment
        return {"type": "act", "action": picked[0], "to": picked[1], "hand": hand["number"]}
