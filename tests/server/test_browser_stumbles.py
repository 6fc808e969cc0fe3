"""What players stumbled on (issue 12), each point checked in a real browser.

The tests click only what the page shows, as tests/server/test_browser.py does (whose
fixtures and Player they share). Where a point needs particular cards, every hand of the test
is dealt from a stacked deck (``deal``): the server runs in this process, so its room takes
the deck the test gives it.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest

from stud.cards import CARDS, Deck, parse_cards
from stud.server import room as room_module
from stud.text import catalogue

from . import test_browser as house
from .test_browser import Player, expect, my_turn, screenshot

# The house's fixtures: one chromium for the module, a server, a new user per person().
browser, site, person = house.browser, house.site, house.person

Deal = Callable[..., None]
DESKTOP_SIZE = {"width": 1280, "height": 800}
PHONE_SIZE = {"width": 390, "height": 844}


def stacked(hands: tuple[str, ...]) -> Deck:
    """A deck that deals hand seat k (the k-th seat dealt in, in table order) the seven cards
    hands[k - 1], in dealing order: two down, one up on third street, then one a street (a
    card is burnt before each street from fourth on)."""
    n = len(hands)
    top: list[Any] = [None] * (3 * n + 4 * (n + 1))
    for k, text in enumerate(hands):
        cards = parse_cards(text)
        for i in range(3):
            top[i * n + k] = cards[i]
        for street in range(4, 8):
            top[3 * n + (street - 4) * (n + 1) + 1 + k] = cards[street - 1]
    rest = iter(c for c in CARDS if c not in set(top))
    return Deck.ordered([next(rest) if c is None else c for c in top])


@pytest.fixture
def deal(monkeypatch: pytest.MonkeyPatch) -> Deal:
    """deal(hand, hand, ...): every hand from now on is dealt from that stacked deck."""

    def stack(*hands: str) -> None:
        deck = stacked(hands)
        monkeypatch.setattr(room_module, "Deck", SimpleNamespace(shuffled=lambda: deck))

    return stack


# Hand seat 1 (a bot in table seat 1) makes trip aces, then aces full; hand seat 2 (the
# player, table seat 2) shows the lowest up card, the 2c, and brings in.
ACES, RAGS = "AhAdAsKhKdKsQh", "7c3d2c8h9dJsTd"


def seated_against(player: Player, bot: str, name: str, buy_in: int = 100,
                   variant: str = "stud") -> int:
    """The player opens a table of two, sits in seat 2 and seats the bot in seat 1."""
    player.open_lobby()
    player.pick_nickname(name)
    table_id = player.create_table(f"{name}'s table", variant, seats=2)
    player.sit(2, buy_in)
    player.add_bot(1, bot)
    return table_id


def turn_with(player: Player, action: str) -> dict[str, Any]:
    """Waits for my turn with ``action`` among the legal ones; returns that entry."""
    def offered() -> dict[str, Any] | None:
        state = player.frames.state
        if not my_turn(state):
            return None
        assert state is not None
        return next((o for o in state["hand"]["legal"] if o["action"] == action), None)

    return player.wait(offered, f"my turn with {action} among the actions")  # type: ignore


def click_action(player: Player, action: str) -> None:
    before = player.frames.count
    player.page.get_by_test_id(f"action-{action}").click()
    player.wait(lambda: player.frames.count > before, f"a frame after {action}")


# ------------------------------------------------------------------ 1. the call button


def test_1_the_call_button_says_what_the_call_adds_and_the_total(person, deal: Deal) -> None:
    deal(ACES, RAGS)
    ann = person()
    page = ann.page
    seated_against(ann, "strength", "Ann")

    # Ann brings in for 1; the bot completes to 2: calling adds 1 to the 1 she has in.
    turn_with(ann, "bring_in")
    click_action(ann, "bring_in")
    call = turn_with(ann, "call")
    assert (call["to"], call["adds"]) == (2, 1), call
    button = page.get_by_test_id("action-call")
    expect(button).to_have_text("Call 1 (to 2)")
    page.get_by_test_id("lang-switch").get_by_test_id("lang-de").click()
    expect(button).to_have_text("Mitgehen 1 (auf 2)")
    page.get_by_test_id("lang-switch").get_by_test_id("lang-en").click()
    expect(button).to_have_text("Call 1 (to 2)")
    ann.agrees()  # every button as the frame's legal entries say (tests/server/test_browser.py)
    click_action(ann, "call")

    # Fourth street: the bot bets first; with nothing in yet, the call is just its amount.
    call = turn_with(ann, "call")
    assert call["adds"] == call["to"], call
    expect(page.get_by_test_id("action-call")).to_have_text(f"Call {call['to']}")
    ann.agrees()


def switch(player: Player, lang: str) -> None:
    player.page.get_by_test_id("lang-switch").get_by_test_id(f"lang-{lang}").click()
    player.lang = lang
    expect(player.page.locator("html")).to_have_attribute("lang", lang)


# ------------------------------------------------------------------ 4. the add-chips dialog


def test_4_the_add_chips_dialog_speaks_of_adding_chips_not_of_a_buy_in(person) -> None:
    gus = person()
    page = gus.page
    gus.open_lobby()
    gus.pick_nickname("Gus")
    gus.create_table("Top-up stud", "stud", seats=4)
    gus.sit(2, 100)  # alone: no hand, so chips may be added
    page.get_by_test_id("rebuy").click()
    dialog = page.get_by_test_id("dialog-rebuy")
    expect(dialog.get_by_role("heading")).to_have_text("Add chips to seat 2")
    expect(dialog.locator("label")).to_contain_text("Chips to add")
    expect(page.get_by_test_id("sit-confirm")).to_have_text("Add chips")
    expect(page.get_by_test_id("buy-in-hint")).to_have_text(
        "From 1 to 900 more chips (a stack holds at most 1,000) · wallet 9,900")
    expect(dialog).not_to_contain_text(re.compile("Buy-in|Sit down|rebuy_title"))

    page.get_by_test_id("dialog-cancel").click()
    switch(gus, "de")
    page.get_by_test_id("rebuy").click()
    expect(dialog.get_by_role("heading")).to_have_text("Chips nachkaufen für Platz 2")
    expect(dialog.locator("label")).to_contain_text("Chips dazu")
    expect(page.get_by_test_id("sit-confirm")).to_have_text("Chips nachkaufen")
    expect(page.get_by_test_id("buy-in-hint")).to_have_text(
        "1 bis 900 Chips dazu (höchstens 1.000 am Platz) · Guthaben 9.900")
    expect(dialog).not_to_contain_text(re.compile("Buy-In|Hinsetzen"))

    page.get_by_test_id("buy-in-input").fill("150")
    page.get_by_test_id("sit-confirm").click()
    gus.wait(lambda: gus.frames.state["seats"][1]["stack"] == 250, "a stack of 250")
    expect(dialog).to_have_count(0)
    expect(page.get_by_test_id("stack-2")).to_have_text("250")


# ------------------------------------------------------------------ 5. the sit dialog


def test_5_the_sit_dialog_waits_for_the_servers_answer(person, monkeypatch) -> None:
    from stud.server.store import Store

    sit = Store.sit

    def slow_sit(self: Store, *args: Any) -> Any:
        time.sleep(1.0)  # the store's thread: the answer comes a second later
        return sit(self, *args)

    hal = person()
    page = hal.page
    hal.open_lobby()
    hal.pick_nickname("Hal")
    hal.create_table("Slow stud", "stud", seats=4)
    monkeypatch.setattr(Store, "sit", slow_sit)
    page.get_by_test_id("sit-3").click()
    page.get_by_test_id("buy-in-input").fill("150")
    page.get_by_test_id("sit-confirm").click()
    # Sent, not yet answered: the dialog stays, and cannot be sent twice.
    expect(page.get_by_test_id("sit-confirm")).to_be_disabled()
    assert hal.seat is None
    expect(page.get_by_test_id("dialog-sit")).to_be_visible()
    hal.wait(lambda: hal.seat == 3, "the frame that seats me", timeout=5)
    expect(page.get_by_test_id("dialog-sit")).to_have_count(0)
    expect(page.get_by_test_id("stack-3")).to_have_text("150")


def test_5_a_refused_sit_keeps_the_amount_and_says_why_beside_the_field(person) -> None:
    ann, bob = person(), person(locale="de-DE")
    ann.open_lobby()
    ann.pick_nickname("Ann")
    table_id = ann.create_table("Contested", "stud", small_bet=100, seats=4)
    bob.open_lobby()
    bob.pick_nickname("Bob")
    bob.page.goto(f"/tables/{table_id}")
    bob.wait(lambda: bob.frames.state, "Bob's first frame")
    page = bob.page
    page.get_by_test_id("sit-2").click()
    ann.sit(2, 2000)  # Ann takes the seat while Bob types
    bob.wait(lambda: bob.frames.state["seats"][1] is not None, "Bob to see Ann in seat 2")
    page.get_by_test_id("buy-in-input").fill("2500")
    page.get_by_test_id("sit-confirm").click()
    error = bob.wait(lambda: bob.frames.errors and bob.frames.errors[-1], "an error frame")
    assert error["code"] == "seat_taken", error
    # Still open, with the amount as typed (written the German way), and the reason beside it.
    expect(page.get_by_test_id("dialog-sit")).to_be_visible()
    expect(page.get_by_test_id("buy-in-input")).to_have_value("2.500")
    expect(page.get_by_test_id("buy-in-error")).to_have_text(catalogue("de")["error.seat_taken"])
    expect(page.get_by_test_id("toast")).to_be_hidden()
    expect(page.get_by_test_id("sit-confirm")).to_be_enabled()
    screenshot(page, "stumbles-sit-dialog-refused-de.png")
    # Bob picks the next seat with the amount still typed; he sits with it.
    page.get_by_test_id("dialog-cancel").click()
    page.get_by_test_id("sit-3").click()
    page.get_by_test_id("buy-in-input").fill("2.500")
    page.get_by_test_id("sit-confirm").click()
    bob.wait(lambda: bob.seat == 3, "a frame with Bob in seat 3")
    expect(page.get_by_test_id("dialog-sit")).to_have_count(0)
    expect(page.get_by_test_id("playing-as")).to_contain_text("7.500")  # 10.000 less 2.500


def test_5_chip_amounts_have_thousands_separators_and_stop_at_the_wallet(person) -> None:
    cy = person()
    page = cy.page
    cy.open_lobby()
    cy.pick_nickname("Cy")
    cy.create_table("High stud", "stud", small_bet=100, seats=4)  # buy-ins 1,000 to 50,000
    page.get_by_test_id("sit-1").click()
    field, hint, problem = (page.get_by_test_id(name) for name in
                            ("buy-in-input", "buy-in-hint", "buy-in-error"))
    expect(field).to_have_value("10,000")  # 100 small bets, all the wallet holds
    expect(hint).to_have_text("From 1,000 to 10,000 chips · wallet 10,000")
    errors = len(cy.frames.errors)
    field.fill("20000")
    page.get_by_test_id("sit-confirm").click()
    expect(problem).to_have_text("Your wallet holds 10,000 chips.")
    expect(field).to_have_value("20,000")
    screenshot(page, "stumbles-sit-dialog-wallet.png")
    field.fill("ten")
    page.get_by_test_id("sit-confirm").click()
    expect(problem).to_have_text("Type a whole number of chips.")
    field.fill("500")
    page.get_by_test_id("sit-confirm").click()
    expect(problem).to_have_text("From 1,000 to 10,000 chips.")
    page.wait_for_timeout(300)
    assert len(cy.frames.errors) == errors and cy.seat is None, "the page sent a refused amount"

    page.get_by_test_id("dialog-cancel").click()
    switch(cy, "de")
    page.get_by_test_id("sit-1").click()
    expect(field).to_have_value("10.000")
    expect(hint).to_have_text("Von 1.000 bis 10.000 Chips · Guthaben 10.000")
    field.fill("12.000")
    page.get_by_test_id("sit-confirm").click()
    expect(problem).to_have_text("Dein Guthaben beträgt 10.000 Chips.")
    field.fill("2.500")
    page.get_by_test_id("sit-confirm").click()
    cy.wait(lambda: cy.seat == 1, "a frame with me in seat 1")
    assert cy.frames.state["seats"][0]["stack"] == 2500
    expect(page.get_by_test_id("stack-1")).to_have_text("2.500")
    expect(page.get_by_test_id("playing-as")).to_contain_text("7.500")


def play_until(player: Player, done: Callable[[dict[str, Any]], bool],
               prefer: tuple[str, ...] = ("raise", "bet", "complete", "call", "check",
                                          "bring_in"),
               timeout: float = 30.0) -> dict[str, Any]:
    """Clicks the first of ``prefer`` the page offers whenever it is my turn, until
    ``done(state)``; returns that state."""
    deadline = time.monotonic() + timeout
    while True:
        state = player.frames.state
        if state is not None and done(state):
            return state
        assert time.monotonic() < deadline, f"played {timeout} s without reaching the goal"
        if my_turn(state):
            assert state is not None
            kinds = [o["action"] for o in state["hand"]["legal"]]
            click_action(player, next(k for k in prefer if k in kinds))
            continue
        player.page.wait_for_timeout(25)


def in_play(state: dict[str, Any]) -> bool:
    return bool(state["hand"] and not state["hand"]["over"])


# ------------------------------------------------------------------ 7. out of chips


def test_7_a_player_who_goes_broke_is_asked_to_add_chips_or_leave(person, deal: Deal) -> None:
    deal(ACES, RAGS)  # every hand: the bot's aces full beat Ivy's rags
    ivy = person()
    page = ivy.page
    seated_against(ivy, "strength", "Ivy", buy_in=20)  # the least buy-in: 10 small bets
    prompt = page.get_by_test_id("broke-prompt")
    expect(prompt).to_have_count(0)

    def broke(state: dict[str, Any]) -> bool:
        return state["seats"][1]["stack"] == 0 and not in_play(state)

    play_until(ivy, broke)
    expect(prompt).to_have_text(re.compile("You have no chips left: add chips to play on, or "
                                           "leave the table."))
    expect(page.get_by_test_id("broke-add-chips")).to_have_text("Add chips")
    expect(page.get_by_test_id("broke-leave")).to_have_text("Leave")
    screenshot(page, "stumbles-broke.png")
    switch(ivy, "de")
    expect(prompt).to_contain_text(catalogue("de")["ui.broke"])
    expect(page.get_by_test_id("broke-add-chips")).to_have_text("Chips nachkaufen")
    switch(ivy, "en")

    # Add chips: the prompt goes, and the next hand deals Ivy in again.
    page.get_by_test_id("broke-add-chips").click()
    page.get_by_test_id("buy-in-input").fill("20")
    page.get_by_test_id("sit-confirm").click()
    ivy.wait(lambda: ivy.frames.state["you"]["wallet"] == 10_000 - 40, "the chips added")
    expect(prompt).to_have_count(0)
    ivy.wait(lambda: in_play(ivy.frames.state), "a hand with Ivy dealt in again")

    # Broke again: this time she leaves, with the prompt's other button.
    play_until(ivy, broke)
    page.get_by_test_id("broke-leave").click()
    ivy.wait(lambda: ivy.seat is None, "a frame without Ivy's seat")
    expect(prompt).to_have_count(0)
    expect(page.get_by_test_id("sit-2")).to_be_visible()


# ------------------------------------------------------------------ 10. sitting out


def test_10_sitting_out_is_not_shown_while_the_player_still_plays_the_hand(person) -> None:
    jo = person()
    page = jo.page
    seated_against(jo, "station", "Jo")
    badge = page.locator('[data-testid="seat-2"] .mark.out')
    play_until(jo, my_turn, prefer=("call", "check", "bring_in"))
    page.get_by_test_id("sit-out").click()
    jo.wait(lambda: jo.frames.state["seats"][1]["sitting_out"], "a frame with Jo sitting out")
    expect(page.get_by_test_id("sit-in")).to_be_visible()  # the choice is taken ...
    expect(badge).to_have_count(0)  # ... but Jo still plays this hand: no badge yet
    number = jo.frames.state["hand"]["number"]

    def seen_out(state: dict[str, Any]) -> bool:
        # What the page shows, read at once (its frame may be newer than the last one here):
        # while no showdown shows, the hand is in play and Jo in it, so no badge.
        shown = page.evaluate("""() => ({
          badge: !!document.querySelector('[data-testid="seat-2"] .mark.out'),
          over: !document.querySelector('[data-testid="showdown"]').hidden})""")
        assert shown["over"] or not shown["badge"], "a sitting-out badge while Jo plays"
        return not in_play(state)

    state = play_until(jo, seen_out, prefer=("call", "check", "bring_in"))
    assert state["hand"]["number"] == number and state["hand"]["over"]
    expect(badge).to_have_text("sitting out")


# ------------------------------------------------------------------ 9. an unknown table


@pytest.mark.parametrize("lang", ["en", "de"])
def test_9_an_unknown_tables_page_says_so_and_leads_back_to_the_lobby(person, lang: str) -> None:
    kim = person(locale="de-DE" if lang == "de" else "en-US")
    page = kim.page
    words = catalogue(lang)
    for path in ("/tables/999", "/tables/999/rules"):
        answer = page.goto(path)
        assert answer is not None and answer.status == 404
        expect(page.get_by_role("heading")).to_have_text(words["ui.no_table_title"])
        expect(page.get_by_test_id("no-table-text")).to_have_text(
            words["ui.no_table_text"].format(table=999))
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page.locator("body")).not_to_contain_text("detail")
    screenshot(page, f"stumbles-no-table-{lang}.png")
    page.get_by_test_id("back-to-lobby").click()
    page.wait_for_url(re.compile(r"/$"))
    expect(page.get_by_test_id("create-submit")).to_be_visible()


LINES = """(selector) => [...document.querySelectorAll(selector)].map((node) => {
  const range = document.createRange();
  range.selectNodeContents(node);
  const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
  return {text: node.innerText.trim(), title: node.title, lines: tops.size};
})"""


def test_10_the_lobby_game_column_keeps_to_one_line(person) -> None:
    lee = person()
    page = lee.page
    lee.open_lobby()
    lee.pick_nickname("Lee")
    for variant, name in (("stud", "Friday stud"), ("stud8", "Hi-lo all night long"),
                          ("razz", "Razz")):
        lee.frames.clear()
        lee.create_table(name, variant)
        lee.open_lobby()
    for lang in ("en", "de"):
        switch(lee, lang)
        for width in (1280, 1024, 900, 780, 390):
            page.set_viewport_size({"width": width, "height": 800})
            expect(page.get_by_test_id("table-row")).to_have_count(3)
            cells = page.evaluate(LINES, "td.col-game")
            assert [c["lines"] for c in cells] == [1, 1, 1], (lang, width, cells)
            titles = {c["text"]: c["title"] for c in cells}
            assert titles == {catalogue(lang)[f"variant.{v}.short"]: catalogue(lang)[f"variant.{v}"]
                              for v in ("stud", "stud8", "razz")}, titles
            assert page.evaluate("document.documentElement.scrollWidth") <= max(width, 390)
            inside = page.evaluate("""() => {
              const panel = document.querySelector(".tables-panel").getBoundingClientRect();
              return [...document.querySelectorAll(".tables .col-open .button")].every(
                (b) => b.getBoundingClientRect().right <= panel.right + 0.5);
            }""")
            assert inside, f"an Open button sticks out of the panel at {width} px ({lang})"
            if width in (1024, 390):
                screenshot(page, f"stumbles-lobby-{lang}-{width}.png")


def test_10_a_ten_low_says_10_and_long_names_keep_to_one_line_at_the_showdown(
        person, deal: Deal) -> None:
    # Razz: the bot (hand seat 1) brings in with the jack up and pairs up; the player makes
    # 10-6-4-2-A, the name the cards show: "10", not "T".
    deal("QsQdJcJhQhJsKs", "Td6d4hAs2cKdKh")
    long = "Bartholomew-Smithers"  # 20 characters, the longest a nickname may be
    mo = person()
    page = mo.page
    table_id = seated_against(mo, "station", long, variant="razz")

    def seventh(state: dict[str, Any]) -> bool:
        return in_play(state) and state["hand"]["street"] == 7

    play_until(mo, seventh, prefer=("check", "call", "bring_in"))
    page.get_by_test_id("sit-out").click()  # no next hand: the showdown stays in view
    mo.wait(lambda: mo.frames.state["seats"][1]["sitting_out"], "a frame with Mo sitting out")
    state = play_until(mo, lambda s: bool(s["hand"] and s["hand"]["over"]),
                       prefer=("check", "call", "bring_in"))
    shown = {s["seat"]: s for s in state["hand"]["showdown"]["shown"]}
    assert shown[2]["low"]["ranks"] == ["T", "6", "4", "2", "A"]
    panel = page.get_by_test_id("showdown")
    expect(page.get_by_test_id("shown-2")).to_contain_text("10-6-4-2-A low")
    expect(panel).not_to_contain_text("T-6")
    expect(page.get_by_test_id("hand-log")).to_contain_text(
        re.compile(f"{long} wins \\d+ from the main pot with 10-6-4-2-A low"))
    for size, name in ((DESKTOP_SIZE, "desktop"), (PHONE_SIZE, "phone")):
        page.set_viewport_size(size)
        names = page.evaluate(LINES, '[data-testid="showdown"] .who')
        assert names and all(n["lines"] == 1 for n in names), (name, names)
        assert {n["title"] for n in names} >= {long, "station-1"}
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        panel.scroll_into_view_if_needed()
        screenshot(page, f"stumbles-showdown-long-name-{name}.png")
    switch(mo, "de")
    expect(page.get_by_test_id("shown-2")).to_contain_text("10-6-4-2-A Low")

    # The Python renderer, in the table's last hands (the text history), says it alike.
    hands = page.request.get(f"/api/tables/{table_id}/hands").json()
    assert any("10-6-4-2-A low" in line for line in hands[0]["text"]), hands[0]["text"]
    assert not any("T-6" in line for line in hands[0]["text"])


# ------------------------------------------------------------------ 13. play now


def test_13_a_fresh_lobby_offers_play_now_and_it_leads_to_a_seat_against_bots(person) -> None:
    nia = person(viewport=PHONE_SIZE, is_mobile=True, has_touch=True)
    page = nia.page
    nia.open_lobby()
    expect(page.get_by_test_id("table-row")).to_have_count(0)  # a fresh server: no tables
    panel = page.get_by_test_id("play-now")
    expect(panel).to_contain_text("Play now")
    button = page.get_by_test_id("play-now-razz")
    expect(button).to_have_text("Razz")
    button.click()  # no nickname yet: the page asks for one
    expect(page.get_by_test_id("play-now-error")).to_have_text("Pick a nickname first.")
    nia.pick_nickname("Nia")
    screenshot(page, "stumbles-play-now-phone.png")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_SIZE["width"]
    button.click()
    page.wait_for_url(re.compile(r"/tables/\d+$"))  # the ?sit= of the link is used up
    dialog = page.get_by_test_id("dialog-sit")
    expect(dialog.get_by_role("heading")).to_have_text("Sit in seat 4")
    expect(page.get_by_test_id("buy-in-input")).to_have_value("200")
    state = nia.frames.state
    assert state is not None and state["table"]["variant"] == "razz"
    assert [s and s["bot"] for s in state["seats"][:3]] == ["expert", "strength", "station"]
    page.get_by_test_id("sit-confirm").click()
    nia.wait(lambda: nia.seat == 4, "a frame with Nia in seat 4")
    nia.play(hands=1)  # the house's check of every frame, button and showdown
    page.reload()  # the dialog does not open again
    nia.wait(lambda: nia.frames.state and nia.seat == 4, "Nia's seat after a reload")
    expect(dialog).to_have_count(0)


def test_13_play_now_in_german_on_a_wide_lobby(person) -> None:
    ole = person(locale="de-DE")
    page = ole.page
    ole.open_lobby()
    ole.pick_nickname("Ole")
    expect(page.get_by_test_id("play-now")).to_contain_text(catalogue("de")["ui.play_now_text"])
    expect(page.get_by_test_id("play-now-stud8")).to_have_text(catalogue("de")["variant.stud8"])
    screenshot(page, "stumbles-play-now-de.png")
    page.get_by_test_id("play-now-stud8").click()
    expect(page.get_by_test_id("dialog-sit").get_by_role("heading")).to_have_text(
        "Auf Platz 4 setzen")
    page.get_by_test_id("dialog-cancel").click()
    ole.open_lobby()  # the table is listed now, and Play now takes Ole back to it
    expect(page.get_by_test_id("table-row")).to_have_count(1)
    table_id = page.get_by_test_id("table-row").get_attribute("data-id")
    page.get_by_test_id("play-now-stud8").click()
    page.wait_for_url(re.compile(rf"/tables/{table_id}$"))
    expect(page.get_by_test_id("dialog-sit")).to_be_visible()


def test_13_play_now_right_after_a_nickname_waits_for_the_account(person) -> None:
    """A nickname typed and Play now clicked at once (not sent, or sent and not yet answered):
    the account is made first, then the table; no "Pick a nickname first"."""
    for name, send_first in [("Una", False), ("Uwe", True)]:
        player = person()
        page = player.page
        player.open_lobby()
        page.get_by_test_id("nickname-input").fill(name)
        if send_first:  # Enter, then at once the button, before the account's answer
            page.get_by_test_id("nickname-input").press("Enter")
        page.get_by_test_id("play-now-stud").click()
        page.wait_for_url(re.compile(r"/tables/\d+$"))
        expect(page.get_by_test_id("dialog-sit")).to_be_visible()
        frames, wanted = player.frames, name
        player.wait(lambda f=frames, n=wanted: f.state and f.state["you"]["nickname"] == n,
                    f"{name}'s frames")


def test_13_play_now_with_a_nickname_taken_says_so_beside_the_nickname(person) -> None:
    first = person()
    first.open_lobby()
    first.pick_nickname("Vera")
    second = person()
    page = second.page
    second.open_lobby()
    page.get_by_test_id("nickname-input").fill("VERA")
    page.get_by_test_id("play-now-stud").click()
    expect(page.get_by_test_id("nickname-error")).to_contain_text("Vera")
    expect(page.get_by_test_id("play-now-error")).to_have_text("Pick a nickname first.")
    assert "/tables/" not in page.url


# ------------------------------------------------------------------ keyboard players


def test_a_player_acting_from_the_keyboard_finds_the_focus_on_the_actions_at_each_turn(
        person) -> None:
    """Enter on a focused action acts; at the player's next turn the focus is on the first
    action that is not Fold (check, call or bring-in: Enter never folds), so that Tab and
    Enter play a hand without the mouse. A player who clicks keeps the focus where it was."""
    ann = person()
    seated_against(ann, "station", "Kim")
    page = ann.page
    focused = "() => document.activeElement && document.activeElement.dataset.testid || ''"
    turns = 0
    while turns < 3:
        ann.wait(lambda: my_turn(ann.frames.state), "my turn")
        before = ann.frames.count
        safe = page.locator("[data-testid^='action-']:visible:enabled"
                            ":not([data-action='fold'])").first
        if turns == 0:  # the first turn: Tab onto the actions
            safe.focus()
        else:
            expect(safe).to_be_focused()
        assert page.evaluate(focused) in ("action-check", "action-call", "action-bring_in")
        page.keyboard.press("Enter")
        ann.wait(lambda before=before: ann.frames.count > before, "a frame after the action")
        turns += 1
    # A click (a pointer) leaves the focus alone at the next turn.
    ann.wait(lambda: my_turn(ann.frames.state), "my turn")
    before = ann.frames.count
    page.locator("[data-testid^='action-']:visible:enabled").first.click()
    ann.wait(lambda: ann.frames.count > before, "a frame after the click")
    ann.wait(lambda: my_turn(ann.frames.state) and ann.frames.count > before + 1, "my turn")
    assert not page.evaluate(focused).startswith("action-")
