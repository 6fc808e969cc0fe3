"""Friends at one private table, in real browsers (issue 12): the invite link, chat, the wait
for players, the time bank, the host's pause, remove and close; every frame any of them received
read again for another seat's down cards.

Several browser contexts (several people) share one server in this process; they click only
what the pages show, as tests/server/test_browser.py does (whose fixtures and Player they use).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from stud.server.room import Timing
from stud.table_state import TableState
from stud.text import catalogue

from . import test_browser as house
from .conftest import Server, serve_in_thread
from .test_browser import Player, expect, my_turn, screenshot

browser, person = house.browser, house.person

# A table clock of 5 s runs 1.5 s here, and a time bank of 30 s runs 9 s; after a sit the table
# waits 4 s for more players (Deal now skips the wait).
TIMING = Timing(bot_delay=0.1, hand_pause=1.0, clock_scale=0.3, seat_wait=4.0)
EN, DE = catalogue("en"), catalogue("de")


@pytest.fixture
def site(sqlite_database: str) -> Iterator[Server]:
    with serve_in_thread(sqlite_database, TIMING) as running:
        yield running


class Wire:
    """Every frame a page's table sockets received, raw, for reading again afterwards."""

    def __init__(self, player: Player) -> None:
        self.frames: list[dict[str, Any]] = []
        self.closed: list[int] = []
        player.page.on("websocket", self._socket)

    def _socket(self, socket: Any) -> None:
        if "/ws/tables/" in socket.url:
            table = TableState()  # a small frame is kept as the whole state it makes

            def received(payload: str | bytes) -> None:
                frame = json.loads(payload)
                self.frames.append(table.read(frame) or frame)

            socket.on("framereceived", received)

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [f for f in self.frames if f.get("type") == kind]


def foreign_down_cards(frames: list[dict[str, Any]]) -> list[str]:
    """Down cards of another seat in any state frame, before that seat showed them. A player
    keeps seeing their own cards of a hand after leaving the seat: the seats this page's
    account ever held are its own."""
    found = []
    own = {f["you"]["seat"] for f in frames if f.get("type") == "state"} - {None}
    for frame in frames:
        if frame.get("type") != "state":
            continue
        me = frame["you"]["seat"]
        for hand in (frame["hand"], frame["last"]):
            if hand is None:
                continue
            shown = {e["seat"] for e in hand["events"] if e["kind"] == "shown"}
            for event in hand["events"]:
                if (event["kind"] == "card" and not event["up"] and event["card"] is not None
                        and event["seat"] not in own and event["seat"] not in shown):
                    found.append(f"hand {hand['number']}: seat {event['seat']}'s "
                                 f"{event['card']} sent to seat {me}")
        for entry in frame["seats"]:
            if entry is None or entry["seat"] in own or entry["shown"]:
                continue
            for card in entry["cards"]:
                if not card["up"] and card["card"] is not None:
                    found.append(f"seat {entry['seat']}'s down card {card['card']} in a frame "
                                 f"to seat {me}")
    return found


def words(key: str, lang: str = "en", **params: object) -> str:
    text = (DE if lang == "de" else EN)[key]
    for name, value in params.items():
        text = text.replace(f"{{{name}}}", str(value))
    return text


def arrive(player: Player, nickname: str, url: str) -> None:
    """Open a page and pick a nickname there (the table page has the account box too)."""
    with player.page.expect_response(lambda r: r.url.endswith("/api/me")):
        player.page.goto(url)
    player.pick_nickname(nickname)
    player.wait(lambda: player.frames.state and player.frames.state["you"]["account"],
                f"{nickname}'s account at the table")


def act_when_asked(players: list[Player], until: Callable[[], bool], timeout: float = 40.0,
                   idle: Player | None = None) -> None:
    """Each player (but ``idle``) clicks a legal button whenever it is its turn, until ``until``."""
    first = players[0]

    def step() -> bool:
        for player in players:
            if player is not idle and my_turn(player.frames.state):
                player.click(player.choose(player.frames.state["hand"]["legal"]))
        return until()

    first.wait(step, "the table to get there", timeout)


def test_friends_at_a_private_table_invite_chat_wait_time_bank_pause_remove_and_close(
        person: Callable[..., Player], site: Server) -> None:
    hanna, gus, wanda = person(), person(locale="de-DE"), person()
    wires = {name: Wire(p) for name, p in (("hanna", hanna), ("gus", gus), ("wanda", wanda))}

    # Hanna opens a private table from the lobby; the page opens with its invite link.
    hanna.open_lobby()
    hanna.pick_nickname("Hanna")
    page = hanna.page
    page.get_by_test_id("create-name").fill("Friday friends")
    page.get_by_test_id("create-clock").fill("5")
    page.get_by_test_id("create-private").check()
    page.get_by_test_id("create-submit").click()
    page.wait_for_url(re.compile(r"/tables/\d+\?invite=.+$"))
    table_id = int(re.search(r"/tables/(\d+)", page.url)[1])  # type: ignore[index]
    hanna.wait(lambda: hanna.frames.state, "the first state frame")
    hanna.sit(1, 200)
    link = page.get_by_test_id("invite-link").input_value()
    assert link.startswith(f"{site.url}/tables/{table_id}?invite=") and link in page.url + ""

    # Nobody else sees the table in the lobby, and without the link its page shuts them out.
    with httpx.Client(base_url=site.url) as http:
        assert [t["id"] for t in http.get("/api/tables").json()] == []
    gus.page.goto(f"/tables/{table_id}")
    expect(gus.page.get_by_test_id("shut-out")).to_have_text(words("ui.table_private", "de"))
    expect(gus.page.get_by_test_id("back-to-lobby")).to_have_attribute("href", "/")
    expect(gus.page.get_by_test_id("chat")).to_be_hidden()  # no chat, no "connecting"
    expect(gus.page.locator("#felt-status")).to_have_text("")

    # With the link, Gus (German) joins and sits; Wanda watches.
    arrive(gus, "Gus", link)
    gus.sit(3, 200)
    arrive(wanda, "Wanda", link)
    # A watcher is offered no bots to seat: that is for the players and the host.
    expect(wanda.page.locator('[data-testid^="add-bot-"]')).to_have_count(0)
    expect(gus.page.locator('[data-testid^="add-bot-"]').first).to_be_visible()

    # The table waits for more players after each sit, and says so; Hanna adds a bot and
    # deals at once.
    expect(page.get_by_test_id("next-hand-in")).to_be_visible()
    assert hanna.frames.state["next_hand_ms"] > 0 and hanna.frames.state["hand"] is None
    hanna.add_bot(2, "station")
    page.get_by_test_id("deal-now").click()
    hanna.wait(lambda: hanna.frames.state["hand"] is not None, "a hand dealt by Deal now", 3.0)

    # Chat from a player and from a watcher reaches everyone, as text (never markup).
    gus.page.get_by_test_id("chat-input").fill("Hallo <b>alle</b>")
    gus.page.get_by_test_id("chat-send").click()
    wanda.page.get_by_test_id("chat-input").fill("good luck")
    wanda.page.get_by_test_id("chat-input").press("Enter")
    for player in (hanna, gus, wanda):
        log = player.page.get_by_test_id("chat-log")
        lines = log.get_by_test_id("chat-line")
        expect(lines.filter(has_text="Hallo <b>alle</b>")).to_have_count(1)
        expect(lines.filter(has_text="good luck")).to_have_count(1)
        assert log.locator("b").count() == 0
    # A line the server refuses (the sixth in ten seconds) goes back into the input, to be
    # sent again once allowed; the lines it took are gone from it.
    box = wanda.page.get_by_test_id("chat-input")
    for n in range(2, 7):
        box.fill(f"line {n}")
        box.press("Enter")
        if n < 6:
            expect(wanda.page.get_by_test_id("chat-line").filter(has_text=f"line {n}")) \
                .to_have_count(1)
            expect(box).to_have_value("")
    expect(box).to_have_value("line 6")

    # Gus lets his clock run out: the time bank runs (shown on his seat), then runs out too;
    # the house acts for him, and everyone is told he timed out, each in their language.
    def gus_to_act() -> bool:
        state = gus.frames.state
        return bool(state and state["hand"] and state["hand"]["to_act"] == 3)

    act_when_asked([hanna, gus], gus_to_act, idle=gus)
    banked = gus.wait(lambda: (s := gus.frames.state)["hand"] and s["hand"]["clock"]
                      and s["hand"]["clock"]["bank"] and s, "Gus's time bank running", 5.0)
    assert banked["hand"]["clock"]["seat"] == 3
    expect(gus.page.locator('[data-testid="clock"][data-bank="1"]')).to_be_visible()
    expect(gus.page.get_by_test_id("bank-3")).to_be_visible()
    screenshot(gus.page, "together-time-bank-de.png")
    gus.wait(lambda: gus.frames.state["seats"][2]["timed_out"], "Gus timed out", 15.0)
    expect(gus.page.get_by_test_id("notice-timed_out")).to_have_text(
        re.compile(re.escape(words("notice.timed_out", "de", name="Gus", seat=3))))
    expect(page.get_by_test_id("notice-timed_out")).to_have_text(
        re.compile(re.escape(words("notice.timed_out", name="Gus", seat=3))))
    expect(page.locator('[data-seat="3"] .mark.timed-out')).to_have_text(words("ui.timed_out"))
    # The hand log says which action the house took for him.
    assert any(e["kind"] == "action" and e.get("timed_out") and e["seat"] == 3
               for f in wires["gus"].of("state") if f["hand"] for e in f["hand"]["events"])
    expect(gus.page.get_by_test_id("hand-log")).to_contain_text(
        words("did.timed_out", "de", text="").strip())
    seat = gus.frames.state["seats"][2]
    assert seat["time_bank_ms"] == 0 and seat["sitting_out"]

    # Who won each hand is told in the pane.
    act_when_asked([hanna], lambda: bool(page.get_by_test_id("notice-won").count()), 30.0)
    screenshot(page, "together-host.png")

    # Hanna renews the link: Wanda, who came by the old one, is shown out; Gus, seated, stays.
    page.get_by_test_id("invite-renew").click()
    expect(wanda.page.get_by_test_id("shut-out")).to_have_text(words("ui.table_private"))
    new_link = page.get_by_test_id("invite-link")
    expect(new_link).not_to_have_value(link)
    assert gus.page.get_by_test_id("shut-out").count() == 0
    wanda.page.goto(link)
    expect(wanda.page.get_by_test_id("shut-out")).to_be_visible()

    # Pause: the hand in play ends and no new one is dealt; everyone is told.
    page.get_by_test_id("host-pause").click()
    expect(gus.page.get_by_test_id("paused")).to_have_text(words("ui.paused", "de"))
    act_when_asked([hanna], lambda: hanna.frames.state["hand"] is None
                   or hanna.frames.state["hand"]["over"], 30.0)
    number = hanna.frames.state["table"]["hands"]
    page.wait_for_timeout(2500)
    assert hanna.frames.state["table"]["hands"] == number
    assert hanna.frames.state["hand"] is None or hanna.frames.state["hand"]["over"]

    # Hanna removes Gus between hands: his chips are back in his wallet at once.
    stack = gus.frames.state["seats"][2]["stack"]
    wallet = gus.frames.state["you"]["wallet"]
    page.get_by_test_id("host-remove-3").click()
    gus.wait(lambda: gus.frames.state["you"]["seat"] is None, "Gus removed")
    assert gus.frames.state["you"]["wallet"] == wallet + stack
    expect(gus.page.get_by_test_id("notice-removed")).to_be_visible()
    # He came by the link Hanna has renewed since: no longer a player, his page is shown out.
    expect(gus.page.get_by_test_id("shut-out")).to_have_text(words("ui.table_private", "de"))

    # Hanna resumes and closes the table during the next hand: it is said to close after it
    # (not "paused"), with nothing left to resume, and it closes when the hand ends. Every
    # stack goes back to its wallet, shown at once; the pages are shut, their chat left to
    # read and nothing to write; the lobby forgets the table.
    page.get_by_test_id("host-resume").click()
    hanna.wait(lambda: hanna.frames.state["hand"] is not None
               and not hanna.frames.state["hand"]["over"], "a hand after the pause", 10.0)
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_test_id("host-close").click()
    expect(page.get_by_test_id("closing")).to_have_text(words("ui.closing"))
    expect(page.get_by_test_id("paused")).to_have_count(0)
    expect(page.get_by_test_id("host-resume")).to_have_count(0)
    act_when_asked([hanna], lambda: bool(page.get_by_test_id("shut-out").count()), 30.0)
    expect(page.get_by_test_id("shut-out")).to_have_text(words("ui.table_closed"))
    with httpx.Client(base_url=site.url) as http:
        assert http.get(f"/api/tables/{table_id}").status_code == 404
    me = page.evaluate("fetch('/api/me').then((r) => r.json())")
    assert hanna.frames.state["you"]["wallet"] == me["wallet"]  # the stack is in it, shown
    expect(page.get_by_test_id("chat-log")).to_be_visible()
    expect(page.get_by_test_id("chat-form")).to_be_hidden()
    expect(page.locator(".empty-actions button:visible")).to_have_count(0)  # no seat to take
    screenshot(page, "together-closed.png")
    # Switching the language renders the page again: still nothing to host or wait for.
    page.get_by_test_id("lang-de").click()
    expect(page.get_by_test_id("shut-out")).to_have_text(words("ui.table_closed", "de"))
    expect(page.get_by_test_id("host-panel")).to_be_hidden()
    expect(page.get_by_test_id("next-hand")).to_be_hidden()
    expect(page.get_by_test_id("chat-form")).to_be_hidden()

    # No page was ever sent another seat's down card.
    for name, wire in wires.items():
        assert wire.of("state"), name
        assert foreign_down_cards(wire.frames) == [], name


def talking(person: Callable[..., Player]) -> tuple[Player, Player]:
    """KeyAnn opens a table and says hello; Bob, at the table, reads it."""
    ann, bob = person(), person()
    ann.open_lobby()
    ann.pick_nickname("KeyAnn")
    table_id = ann.create_table("Talk", "stud", seats=4)
    arrive(bob, "Bob", f"/tables/{table_id}")
    ann.page.get_by_test_id("chat-input").fill("hello")
    ann.page.get_by_test_id("chat-input").press("Enter")
    expect(bob.page.get_by_test_id("chat-line").filter(has_text="hello")).to_have_count(1)
    return ann, bob


def test_chat_times_are_on_the_24_hour_clock_as_the_last_hands_are(
        person: Callable[..., Player], site: Server) -> None:
    """Chat times say "15:49", never "03:49 PM", in English too: one clock for the page."""
    now = "() => { const d = new Date(); return [d.getHours(), d.getMinutes()]; }"
    ann, bob = person(), person()
    ann.open_lobby()
    ann.pick_nickname("KeyAnn")
    table_id = ann.create_table("Talk", "stud", seats=4)
    arrive(bob, "Bob", f"/tables/{table_id}")
    before = "{:02d}:{:02d}".format(*bob.page.evaluate(now))
    ann.page.get_by_test_id("chat-input").fill("hello")
    ann.page.get_by_test_id("chat-input").press("Enter")
    line = bob.page.get_by_test_id("chat-line").filter(has_text="hello")
    expect(line).to_have_count(1)
    stamp = line.locator(".chat-time").inner_text()
    after = "{:02d}:{:02d}".format(*bob.page.evaluate(now))
    assert stamp in (before, after), f"the chat says {stamp!r} at {before} (24-hour clock)"


def test_the_muted_list_names_the_muted_player_after_a_reload(
        person: Callable[..., Player], site: Server) -> None:
    """A muted player's lines are never sent, so the muted list takes their names from the
    muted frame: after a reload it still says "KeyAnn", never an account id ("#1")."""
    _, bob = talking(person)
    line = bob.page.get_by_test_id("chat-line").filter(has_text="hello")
    line.get_by_test_id("chat-mute").focus()
    bob.page.keyboard.press("Enter")
    unmute = bob.page.get_by_test_id("chat-unmute")
    expect(unmute).to_have_text("KeyAnn")
    bob.page.reload()
    bob.wait(lambda: bob.frames.state, "Bob's frame after the reload")
    expect(unmute).to_have_text("KeyAnn")
    expect(unmute).to_have_accessible_name(words("ui.chat_unmute", name="KeyAnn"))
    expect(bob.page.get_by_test_id("chat-muted")).not_to_contain_text("#")


def test_after_a_reload_the_pane_shows_each_notice_and_each_hand_won_once(
        person: Callable[..., Player], site: Server) -> None:
    """The chat history a page gets on connecting carries the table's notices and the hands
    won, in order with the lines: they are there after a reload, each once."""
    ann = person()
    ann.open_lobby()
    ann.pick_nickname("HostAnn")
    ann.create_table("Notices", "stud", seats=3)
    ann.add_bot(1, "station")
    ann.add_bot(2, "station")
    page = ann.page
    won = page.get_by_test_id("notice-won")
    expect(won.first).to_be_visible(timeout=30_000)
    page.get_by_test_id("host-pause").click()
    expect(page.get_by_test_id("notice-paused")).to_have_count(1)
    before = won.all_inner_texts()
    page.reload()
    ann.wait(lambda: ann.frames.state, "a frame after the reload")
    expect(page.get_by_test_id("notice-paused")).to_have_count(1)
    expect(won).to_have_count(len(before))
    assert won.all_inner_texts() == before
