"""Adding chips to a seat (``rebuy``): a stack below the least buy-in (10 small bets), after
going broke or nearly, is topped up to at least it; a chip or two would get round the buy-in's
minimum."""

from __future__ import annotations

import asyncio
import json

from stud.rules import PROFILES, Stakes, Variant
from stud.server.app import Casino
from stud.server.connection import Client
from stud.server.room import Timing
from stud.server.store import Store

SLOW = Timing(bot_delay=0.0, hand_pause=60.0, seat_wait=60.0)  # no hand is dealt meanwhile


async def _nothing_to_send(_text: str) -> None:
    return None


def test_a_stack_below_the_least_buy_in_is_topped_up_to_at_least_it(
        sqlite_database: str) -> None:
    async def scenario() -> None:
        store = await asyncio.to_thread(Store, sqlite_database)
        account, _token = await asyncio.to_thread(store.create_account, "Broke")
        table = await asyncio.to_thread(store.create_table, "T", Variant.STUD,
                                        Stakes.for_limit(2), PROFILES["standard"], 6, 30)
        casino = Casino(store, SLOW)
        await casino.open()
        try:
            room = casino.rooms[table.id]
            client = Client(account, _nothing_to_send)
            await room.join(client)
            await room.handle(client, {"type": "sit", "seat": 1, "buy_in": 20})
            room.table.seats[1].stack = 3  # as after losing 17 of the 20 chips
            client.errors.clear()
            await room.handle(client, {"type": "rebuy", "amount": 16})
            error = json.loads(client.errors[-1])
            assert error["code"] == "bad_buy_in", error
            assert error["message"].startswith("amount must be from 17 to 997 chips (a stack "
                                               "holds from 20 to 1000"), error
            client.errors.clear()
            await room.handle(client, {"type": "rebuy", "amount": 17})
            assert not client.errors, client.errors
            assert room.table.seats[1].stack == 37  # the store's stack: 20 bought + 17 added
        finally:
            await casino.close()

    asyncio.run(scenario())
