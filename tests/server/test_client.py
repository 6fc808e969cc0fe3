"""``stud.client`` and ``stud bot``: a bot of one's own at a web table, over the protocol."""

from __future__ import annotations

import asyncio
import json
import random

import httpx
import websockets

from stud.bots import make_bot
from stud.cards import Deck
from stud.client import TableClient, create_account, phh_actions, seat_view
from stud.engine import Hand
from stud.history.phh import HandHistory
from stud.history.replay import rebuild
from stud.rules import PROFILES, Stakes
from stud.server.frames import event_json

from .conftest import Server


def test_a_hand_rebuilt_from_what_a_seat_saw_gives_that_seats_view() -> None:
    # The client's rebuilt hand (events as the protocol sends them to one seat) offers that
    # seat the same legal actions, cards and pots as the real hand, at every decision.
    rng = random.Random(3)
    stakes = Stakes(1, 2, 5, 10)
    for n in range(40):
        stacks = [rng.choice([30, 100, 300]) for _ in range(2 + n % 5)]
        hand = Hand(("stud", "stud8", "razz")[n % 3], stakes, stacks, deck=Deck.seeded(n))
        while not hand.is_over:
            seat = hand.to_act
            assert seat is not None
            real = hand.view(seat)
            events = [e for e in (event_json(x, lambda s: s) for x in real.events) if e]
            history = HandHistory(hand.variant.phh_code, [1] * len(stacks), 2, 5, 10, stacks,
                                  phh_actions(events, lambda s: s - 1))
            view = rebuild(history, PROFILES["standard"]).view(seat)
            assert view.legal_actions == real.legal_actions, n
            assert [p.cards for p in view.players] == [p.cards for p in real.players], n
            assert view.pots == real.pots and view.street == real.street
            hand.act(rng.choice(hand.legal_actions()))


def test_seat_view_is_none_when_the_seat_is_not_in_a_hand() -> None:
    assert seat_view({"hand": None, "you": {"seat": 2}}) is None
    assert seat_view({"hand": {"over": True}, "you": {"seat": 2}}) is None


def test_a_bot_of_ones_own_sits_plays_and_leaves_with_its_chips(server: Server) -> None:
    http = server.client()
    host = http.post("/api/accounts", json={"nickname": "Host"}).json()["token"]
    table = http.post("/api/tables", json={"name": "T", "variant": "stud", "seats": 3},
                      headers={"Authorization": f"Bearer {host}"}).json()

    async def add_house_bot() -> None:
        async with websockets.connect(f"{server.ws}/ws/tables/{table['id']}?token={host}") as ws:
            await ws.recv()
            await ws.send(json.dumps({"type": "add_bot", "seat": 1, "bot": "station"}))
            await ws.recv()

    asyncio.run(add_house_bot())
    token = create_account(server.url, "my-expert")
    lines: list[str] = []
    client = TableClient(server.url, table["id"], make_bot("expert", 1), token, buy_in=200,
                         log=lines.append)
    outcome = asyncio.run(client.run(hands=3, seconds=60))
    assert outcome.hands == 3 and not lines, lines  # every decision was one of the legal ones
    mine = httpx.get(f"{server.url}/api/me", headers={"Authorization": f"Bearer {token}"}).json()
    assert mine["seats"] == [] and mine["wallet"] == 10_000 - 200 + outcome.stack


def test_stud_bot_says_plainly_when_there_is_no_table_or_no_server(server: Server) -> None:
    from typer.testing import CliRunner

    from stud.cli import app

    runner = CliRunner()
    result = runner.invoke(app, ["bot", "--url", server.url, "--table", "99", "--hands", "1"])
    assert result.exit_code == 2 and f"there is no table 99 at {server.url}" in result.output
    result = runner.invoke(app, ["bot", "--url", "http://127.0.0.1:9", "--table", "1"])
    assert result.exit_code == 2 and "cannot reach http://127.0.0.1:9" in result.output
    result = runner.invoke(app, ["bot", "--url", server.url, "--table", "1", "--bot", "x"])
    assert result.exit_code == 2 and "--bot 'x': choose one of" in result.output
