"""Hands after they are played: your own hands, and the replayer's steps of any finished hand
or of an uploaded PHH file.

Every hand here is read from a PHH as one reader knew it: the account's own record of a hand it
played (its own down cards, the others' only where shown), else the public history (no down card
that was not shown). The steps are ``stud.history.steps``'; this module only turns them into
JSON (facts, never sentences: the pages word them from the catalogues) and serves the two pages.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse

from stud.cards import Card
from stud.digits import all_digits
from stud.history.phh import PHHError, loads_all
from stud.history.steps import Replay, SeatAt, Step, StepsError, StreetEquity, replay_steps
from stud.rules import POLICIES
from stud.server.auth import account_of, casino_of, must_be_me
from stud.server.frames import Json, award_json, cards_json, first_json, value_json
from stud.server.pages import page
from stud.server.store import is_key

if TYPE_CHECKING:
    from stud.server.app import Casino

MAX_PHH_BYTES = 1024 * 1024  # a hand of eight players is a few kilobytes; a .phhs more
MAX_HANDS = 200  # one page of "your hands"

router = APIRouter()


class Refused(HTTPException):
    """A replay the server does not give: the words (``detail``) and the facts a page can put
    in its own words (``code`` and ``facts``)."""

    def __init__(self, status: int, code: str, detail: str, facts: Json | None = None) -> None:
        super().__init__(status, detail)
        self.code = code
        self.facts: Json = facts or {}

    def response(self) -> JSONResponse:
        return JSONResponse({"detail": self.detail, "code": self.code} | self.facts,
                            status_code=self.status_code)


class PHHRefused(Refused):
    """A PHH that cannot be replayed: where the history went wrong (``index``, ``line``) and,
    of a ``.phhs`` whose hand is the bad one, ``bundle``: every hand's name, and this one's
    (another may be asked for)."""

    def __init__(self, code: str, detail: str, index: int | None = None,
                 line: str | None = None, bundle: Json | None = None) -> None:
        super().__init__(400, code, detail, {"index": index, "line": line}
                         | ({"bundle": bundle} if bundle else {}))
        self.index = index
        self.line = line


# ---------------------------------------------------------------------- JSON


def _card(card: Card | None) -> str | None:
    return None if card is None else str(card)


def _seat_json(seat: SeatAt) -> Json:
    return {"seat": seat.seat, "stack": seat.stack, "wager": seat.wager,
            "committed": seat.committed, "folded": seat.folded, "all_in": seat.all_in,
            "shown": seat.shown, "mucked": seat.mucked,
            "cards": [{"card": _card(c), "up": u} for c, u in zip(seat.cards, seat.up,
                                                                   strict=True)]}


def _same(seat: int) -> int:
    return seat


def step_json(step: Step) -> Json:
    out: Json = {"kind": step.kind.value, "street": step.street, "seat": step.seat,
                 "pot": step.pot, "pots": list(step.pots),
                 "board": [_card(c) for c in step.board],
                 "seats": [_seat_json(s) for s in step.seats]}
    if step.action is not None:
        out |= {"action": step.action.kind.value, "to": step.action.to, "added": step.added,
                "all_in": step.all_in}
    elif step.kind.value in ("antes", "returned"):
        out["added"] = step.added
    if step.kind.value == "deal":
        out |= {"first": step.first, "why": first_json(step.why, _same)}
    if step.shown is not None:
        out |= {"cards": cards_json(step.shown.cards), "high": value_json(step.shown.high),
                "low": value_json(step.shown.low)}
    if step.awards:
        out["awards"] = [award_json(a, _same) for a in step.awards]
    return out


def _equity_json(street: StreetEquity) -> Json:
    return {"street": street.street, "method": street.method,
            "missing": None if street.missing is None else street.missing.value,
            "seats": [{"seat": s.seat, "equity": s.equity, "high": s.high, "low": s.low,
                       "known": s.known} for s in street.seats]}


def replay_json(replay: Replay, fields: dict[str, object], you: int | None = None) -> Json:
    """The replayer's hand: who played (names, table seats), the stakes and rules, every
    step, each street's equity, and how it ended. ``you``: the reader's own seat, if any."""
    players = len(replay.starting_stacks)
    seats = fields.get("seats")
    table_seats = (list(seats) if isinstance(seats, list) and len(seats) == players
                   and all(isinstance(s, int) for s in seats) else list(range(1, players + 1)))
    stakes = replay.stakes
    return {
        "variant": replay.variant.value,
        "stakes": {"ante": stakes.ante, "bring_in": stakes.bring_in,
                   "small_bet": stakes.small_bet, "big_bet": stakes.big_bet},
        "rules": {"name": replay.rules.closest_profile()}
        | {p: getattr(replay.rules, p) for p in POLICIES},
        "table": _text_field(fields, "table"), "hand": _text_field(fields, "hand"),
        "you": you,
        "players": [{"seat": k, "name": replay.names[k - 1], "table_seat": table_seats[k - 1],
                     "start": replay.starting_stacks[k - 1],
                     "final": replay.finishing_stacks[k - 1],
                     "net": replay.finishing_stacks[k - 1] - replay.starting_stacks[k - 1]}
                    for k in range(1, players + 1)],
        "steps": [step_json(s) for s in replay.steps],
        "streets": [_equity_json(e) for e in replay.equity],
        "rake": replay.rake, "over": replay.over, "checked": replay.checked,
    }


def _text_field(fields: dict[str, object], name: str) -> str | int | None:
    value = fields.get(name)
    return value if isinstance(value, str | int) and not isinstance(value, bool) else None


def replay_of(text: str, source: str, you_table_seat: int | None = None,
              hand: str | None = None) -> Json:
    """A PHH text's replay as JSON; ``PHHRefused`` when it cannot be replayed. Of a ``.phhs``
    (several hands, ``[1]``, ``[2]``, ...), the hand named ``hand`` (the first by default),
    and ``bundle``: every hand's name, and this one's."""
    try:
        hands = loads_all(text, source)
    except PHHError as error:
        raise PHHRefused("bad_phh", str(error)) from None
    names = [name for name, _ in hands]
    chosen = names[0] if hand is None else hand
    if chosen not in names:
        raise PHHRefused("bad_phh", f"{source} has no hand [{hand}]: its hands are "
                                    f"{', '.join(f'[{n}]' for n in names)}")
    history = hands[names.index(chosen)][1]
    bundle: Json | None = {"hands": names, "hand": chosen} if chosen else None
    if chosen:
        source = f"{source} [{chosen}]"
    try:
        replay = replay_steps(history)
    except PHHError as error:
        raise PHHRefused("bad_phh", f"{source}: {error}", bundle=bundle) from None
    except StepsError as error:
        raise PHHRefused("bad_phh", f"{source}: {error}", error.index, error.line,
                         bundle) from None
    seats = history.fields.get("seats")
    you = None
    if you_table_seat is not None and isinstance(seats, list) and you_table_seat in seats:
        you = seats.index(you_table_seat) + 1
    found = replay_json(replay, history.fields, you)
    if bundle:
        found["bundle"] = bundle
    return found


def _card_list(cards: object) -> list[Json]:
    return list(cards) if isinstance(cards, Sequence) and not isinstance(cards, str) else []


# ---------------------------------------------------------------------- the API


async def _phh_text(request: Request) -> str:
    """The body, read no further than ``MAX_PHH_BYTES``, as UTF-8 text."""
    size = request.headers.get("content-length")
    if size is not None and all_digits(size) and int(size) > MAX_PHH_BYTES:
        raise PHHRefused("phh_too_large", f"a PHH file may be {MAX_PHH_BYTES // 1024} KiB at "
                                          f"most, not {int(size):,} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_PHH_BYTES:
            raise PHHRefused("phh_too_large", f"a PHH file may be {MAX_PHH_BYTES // 1024} KiB "
                                              f"at most")
    if not body.strip():
        raise PHHRefused("bad_phh", "send the PHH file's text as the body; it is empty")
    try:
        return bytes(body).decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise PHHRefused("bad_phh", f"a PHH file is UTF-8 text; byte {error.start} is not "
                                    f"UTF-8") from None


@router.post("/api/replays", response_model=None)
async def replay_upload(request: Request) -> JSONResponse:
    """The steps of a PHH file sent as the body (any history: an imported hand, a PokerKit
    one, one of ours); of a ``.phhs``, the hand ``?hand=`` names, else its first."""
    try:
        text = await _phh_text(request)
        return JSONResponse(await asyncio.to_thread(replay_of, text, "the uploaded file", None,
                                                    request.query_params.get("hand")))
    except PHHRefused as refused:
        return refused.response()


async def _not_replayed(casino: Casino, hand_id: int) -> Refused:
    """Why a hand has no replay, as facts: there is no such hand (``no_hand``), it was voided
    (``hand_voided``) or is still being played (``hand_running``); with the table's name and
    the hand's number there (the table page's "Hand #13"), which differ from the hand's id."""
    place = await casino.db(casino.store.hand_place, hand_id) if is_key(hand_id) else None
    if place is None:
        return Refused(404, "no_hand", f"there is no hand {hand_id}", {"hand": hand_id})
    table_id, number, status = place
    spec = await casino.db(casino.store.table, table_id)
    where: Json = {"hand": hand_id, "table": spec.name, "table_id": table_id, "number": number}
    named = f"hand {hand_id} (hand #{number} at the table {spec.name!r})"
    if status == "running":
        return Refused(404, "hand_running", f"{named} is still being played: it can be "
                       "replayed when it is over", where)
    if status == "voided":
        return Refused(404, "hand_voided", f"{named} was voided: the server stopped during it "
                       "and every player got their starting stack back, so there is nothing "
                       "to replay", where)
    return Refused(404, "no_hand", f"{named} has no history kept", where)


async def _own_or_public(request: Request, hand_id: int) -> tuple[str, int | None]:
    """The PHH of a finished hand as this request's account saw it (the public one when it
    did not play it), and the table seat it played; 404 when there is none (no such hand, a
    voided one, one still running: ``_not_replayed``), 403 (``private_hand``) for a hand of a
    private table this request may not see (``?invite=`` lets its bearers in)."""
    casino = casino_of(request)
    account = await account_of(request)
    mine = account.id if account is not None else None
    if is_key(hand_id) and not await casino.may_see_hand(
            hand_id, account, request.query_params.get("invite")):
        raise Refused(403, "private_hand", f"hand {hand_id} was played at a private table: "
                      "open it with the table's invite link", {"hand": hand_id})
    text = (await casino.db(casino.store.own_phh, hand_id, mine)
            if is_key(hand_id) else None)
    if text is None:
        raise await _not_replayed(casino, hand_id)
    seat = None
    if mine is not None:
        own = await casino.db(casino.store.own_hands, mine, [hand_id])
        if hand_id in own:
            seat = own[hand_id]["seat"]
    return text, seat


@router.get("/api/hands/{hand_id}/replay", response_model=None)
async def hand_replay(request: Request, hand_id: int) -> JSONResponse:
    """A finished hand's steps: with your own cards if you played it, else the public hand."""
    try:
        text, seat = await _own_or_public(request, hand_id)
        return JSONResponse(await asyncio.to_thread(replay_of, text, f"hand {hand_id}", seat))
    except Refused as refused:
        return refused.response()


@router.get("/api/hands/{hand_id}/mine.phh", response_model=None)
async def own_phh(request: Request, hand_id: int) -> PlainTextResponse | JSONResponse:
    """The PHH of a hand with your own cards in it (the public one for a hand you did not
    play)."""
    try:
        text, seat = await _own_or_public(request, hand_id)
    except Refused as refused:
        return refused.response()
    name = f"stud-hand-{hand_id}{'-mine' if seat is not None else ''}.phh"
    return PlainTextResponse(text, headers={
        "Content-Disposition": f'attachment; filename="{name}"'})


@router.get("/api/me/hands")
async def my_hands(request: Request, limit: int = 50, before: int | None = None
                   ) -> list[Json]:
    """The finished hands you played, newest first (``before``: older than that hand id):
    where and when, your seat, your cards (your own down cards among them), your result."""
    account = await must_be_me(request)
    if not 1 <= limit <= MAX_HANDS:
        raise HTTPException(400, f"limit must be from 1 to {MAX_HANDS}, not {limit}")
    if before is not None and not is_key(before):
        raise HTTPException(400, f"before must be a hand id, not {before}")
    casino = casino_of(request)
    rows = await casino.db(casino.store.hands_of, account.id, limit, before)
    return [row | {"cards": _card_list(row.get("cards"))} for row in rows]


@router.get("/replayer")
async def replayer_page() -> FileResponse:
    return page("replayer.html")


@router.get("/me/hands")
async def hands_page() -> FileResponse:
    return page("hands.html")
