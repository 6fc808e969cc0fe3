"""``stud.client`` and ``stud bot``: a bot of one's own at a web table, over the protocol."""

from __future__ import annotations

import asyncio
import json
import random

import httpx
import websockets

from stud.bots import make_bot
from stud.cards import Deck
from stud.client import ClientError, TableClient, create_account, phh_actions, seat_view
from stud.engine import Hand
from stud.history.phh import HandHistory
from stud.history.replay import rebuild
from stud.rules import PROFILES, Stakes
from stud.server.frames import event_json
from stud.table_state import TableState

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
    _, table = _house_table(server, "Host")
    token = create_account(server.url, "my-expert")
    lines: list[str] = []
    client = TableClient(server.url, table, make_bot("expert", 1), token, buy_in=200,
                         log=lines.append)
    outcome = asyncio.run(client.run(hands=3, seconds=60))
    # Every decision was one of the legal ones: nothing said but where it sat.
    assert outcome.hands == 3 and lines == ["sat in seat 2 with 200 chips"], lines
    mine = httpx.get(f"{server.url}/api/me", headers={"Authorization": f"Bearer {token}"}).json()
    assert mine["seats"] == [] and mine["wallet"] == 10_000 - 200 + outcome.stack


def test_a_bot_asked_for_k_hands_plays_k_hands_of_its_own_not_the_last_one_of_its_seat(
        server: Server) -> None:
    # The seat's last hand, played by the bot before it, is in the table's state when the
    # next bot sits in that seat: it is not the new bot's hand.
    _, table = _house_table(server, "CountHost")
    before = create_account(server.url, "sat-before")
    first = TableClient(server.url, table, make_bot("station", 1), before, buy_in=200,
                        log=lambda line: None)
    assert asyncio.run(first.run(hands=1, seconds=60)).hands == 1
    token = create_account(server.url, "sits-after")
    client = TableClient(server.url, table, make_bot("station", 2), token, buy_in=200,
                         log=lambda line: None)
    outcome = asyncio.run(client.run(hands=2, seconds=60))
    dealt = httpx.get(f"{server.url}/api/me/hands",
                      headers={"Authorization": f"Bearer {token}"}).json()
    assert outcome.hands == 2 and len(dealt) == 2, dealt


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


def test_stud_bot_from_another_process_joins_a_private_table_by_invite_marked_as_a_bot(
        server: Server) -> None:
    import subprocess
    import sys
    import time
    from pathlib import Path

    http = server.client()
    host = http.post("/api/accounts", json={"nickname": "PrivateHost"}).json()["token"]
    table = http.post("/api/tables", json={"name": "P", "variant": "razz", "seats": 3,
                                            "private": True},
                      headers={"Authorization": f"Bearer {host}"}).json()
    stud = Path(sys.executable).with_name("stud")  # the console script beside this Python
    command = [str(stud), "bot", "--url", server.url, "--table",
               str(table["id"]), "--bot", "station", "--hands", "2", "--nickname", "Robo"]
    refused = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and "is private: give --invite" in refused.stderr

    seen: list[dict[str, object]] = []

    async def host_watches(bot: subprocess.Popen[str]) -> None:
        url = f"{server.ws}/ws/tables/{table['id']}?token={host}"
        async with websockets.connect(url) as ws:
            await ws.send(json.dumps({"type": "add_bot", "seat": 1, "bot": "station"}))
            deadline = time.monotonic() + 60
            table_state = TableState()
            while bot.poll() is None and time.monotonic() < deadline:
                try:
                    frame = table_state.read(json.loads(await asyncio.wait_for(ws.recv(), 1)))
                except TimeoutError:
                    continue
                if frame is not None:
                    seen.extend(s for s in frame["seats"] if s and s["name"] == "Robo")

    bot = subprocess.Popen([*command, "--invite", table["invite"]], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
    try:
        asyncio.run(host_watches(bot))
        output = bot.communicate(timeout=30)[0]
    finally:
        bot.kill()
    assert bot.returncode == 0, output
    assert "Robo played 2 hands and left with" in output
    assert seen and all(s["own_bot"] is True and s["bot"] is None for s in seen)


def _house_table(server: Server, name: str) -> tuple[str, int]:
    """A host's token and a new 3-seat stud table with the host's station bot in seat 1."""
    http = server.client()
    host = http.post("/api/accounts", json={"nickname": name}).json()["token"]
    table = http.post("/api/tables", json={"name": name, "variant": "stud", "seats": 3},
                      headers={"Authorization": f"Bearer {host}"}).json()

    async def add_house_bot() -> None:
        async with websockets.connect(f"{server.ws}/ws/tables/{table['id']}?token={host}") as ws:
            await ws.recv()
            await ws.send(json.dumps({"type": "add_bot", "seat": 1, "bot": "station"}))
            await ws.recv()

    asyncio.run(add_house_bot())
    return host, int(table["id"])


def test_a_bot_whose_connection_is_closed_connects_again_and_plays_on_in_its_seat(
        server: Server, monkeypatch) -> None:  # noqa: ANN001
    # Between the bot and the server, a relay that closes the bot's first two connections as a
    # server with several workers does when a table moves (4503) or is between two owners
    # (1013): the bot connects again, finds its seat, and plays its hands out.
    import stud.client

    monkeypatch.setattr(stud.client, "RECONNECT_PAUSE", (0.05, 0.2))
    _, table = _house_table(server, "RelayHost")
    closes = [4503, 1013]

    async def relay(client: websockets.ServerConnection) -> None:
        upstream_url = f"{server.ws}{client.request.path}"
        async with websockets.connect(upstream_url) as upstream:
            async def down() -> None:
                frames = 0
                async for message in upstream:
                    await client.send(message)
                    frames += 1
                    if closes and frames == 6:
                        await client.close(closes.pop(0), "moved")
                        return

            async def up() -> None:
                async for message in client:
                    await upstream.send(message)

            done, pending = await asyncio.wait([asyncio.create_task(down()),
                                                asyncio.create_task(up())],
                                               return_when=asyncio.FIRST_COMPLETED)
            for task in pending:
                task.cancel()

    async def play() -> tuple[stud.client.Outcome, list[str]]:
        lines: list[str] = []
        async with websockets.serve(relay, "127.0.0.1", 0) as relay_server:
            port = relay_server.sockets[0].getsockname()[1]
            token = create_account(server.url, "comes-back")
            client = TableClient(f"http://127.0.0.1:{port}", table, make_bot("station", 1),
                                 token, buy_in=200, log=lines.append)
            return await client.run(hands=2, seconds=90), lines

    outcome, lines = asyncio.run(play())
    assert outcome.hands == 2
    assert not closes  # both closes happened
    assert sum("connecting again" in line for line in lines) == 2, lines
    assert lines.count("connected again") == 2, lines  # it says when it is back
    assert lines[0] == "sat in seat 2 with 200 chips" and lines.count(lines[0]) == 1, lines


def test_a_bot_at_a_table_that_is_not_there_stops_at_once_saying_so(server: Server) -> None:
    token = create_account(server.url, "no-table")
    client = TableClient(server.url, 99, make_bot("station", 1), token)
    try:
        asyncio.run(client.run(hands=1, seconds=30))
    except ClientError as error:
        assert "there is no such table" in str(error)
    else:
        raise AssertionError("no error")


def test_stud_bot_refuses_a_buy_in_outside_the_tables_range_before_making_an_account(
        server: Server) -> None:
    from typer.testing import CliRunner

    from stud.cli import app

    _, table = _house_table(server, "BuyInHost")
    result = CliRunner().invoke(app, ["bot", "--url", server.url, "--table", str(table),
                                      "--buy-in", "5", "--nickname", "too-poor"])
    assert result.exit_code == 2, result.output
    assert f"--buy-in 5: table {table}'s buy-in is from 20 to 1000 chips" in result.output
    assert "joins" not in result.output
    create_account(server.url, "too-poor")  # the name is free: no account was made


def test_a_bot_whose_table_is_never_served_gives_up_in_time_saying_why(monkeypatch) -> None:  # noqa: ANN001
    # Each connection is accepted and closed at once with 1013 (no process plays the table):
    # a handshake is not being served, so the bot's time to give up is not started again.
    import stud.client

    monkeypatch.setattr(stud.client, "RECONNECT_PAUSE", (0.02, 0.05))
    monkeypatch.setattr(stud.client, "RECONNECT_FOR", 1.0)
    lines: list[str] = []

    async def never_served(client: websockets.ServerConnection) -> None:
        await client.close(1013, "no process plays table 1")

    async def play() -> None:
        async with websockets.serve(never_served, "127.0.0.1", 0) as server:
            port = server.sockets[0].getsockname()[1]
            client = TableClient(f"http://127.0.0.1:{port}", 1, make_bot("station", 1), "t",
                                 log=lines.append)
            await client.run(hands=1, seconds=20)

    try:
        asyncio.run(play())
    except ClientError as error:
        assert "gave up after 1 s without a connection" in str(error)
        assert "(1013 no process plays table 1)" in str(error)
    else:
        raise AssertionError("no error")
    assert lines and lines[0] == ("the server closed the connection (1013 no process plays "
                                  "table 1); connecting again in 0.02 s"), lines[:2]
