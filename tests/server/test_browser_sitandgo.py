"""The web sit-and-go in a real browser (Debian's chromium, as tests/server/test_browser.py):
two people open the lobby; one opens a sit-and-go and is registered, the other registers from
the tournament's page (in German), bots fill the free seats, and both see the standings, the
level and, at the end, the winner and the prizes, with their own wallets paid."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from stud.server.room import Timing

from .conftest import Server, serve_in_thread
from .test_browser import PHONE, Browser, Page, browser, expect, screenshot

__all__ = ["browser"]  # the module's chromium, shared with test_browser's fixture

# Bots act at once; the people never go to the table, so their clocks (5 s at 0.01) run out in
# a moment and they are away: dealt in, folded, to the end.
QUICK = Timing(bot_delay=0.0, hand_pause=0.0, clock_scale=0.01, seat_wait=0.0)


@pytest.fixture
def site(sqlite_database: str) -> Iterator[Server]:
    with serve_in_thread(sqlite_database, QUICK) as running:
        yield running


def person(browser: Browser, site: Server, locale: str = "en-US",
           viewport: dict[str, int] | None = None) -> Page:
    context = browser.new_context(viewport=viewport or {"width": 1280, "height": 900},
                                  locale=locale, base_url=site.url)
    context.set_default_timeout(15_000)
    return context.new_page()


def nickname(page: Page, name: str) -> None:
    page.wait_for_load_state("networkidle")  # the lobby drawn: its account box is the last
    page.get_by_test_id("nickname-input").fill(name)
    page.get_by_test_id("nickname-submit").click()
    expect(page.get_by_test_id("playing-as")).to_contain_text(name)


def test_two_people_and_bots_play_a_sit_and_go_to_its_end_in_the_browser(
        browser: Browser, site: Server) -> None:
    ann = person(browser, site)
    ann.goto("/")
    nickname(ann, "Ann")
    ann.get_by_test_id("tournament-variant").select_option("rotation")
    ann.get_by_test_id("tournament-players").fill("4")
    ann.get_by_test_id("tournament-buy-in").fill("300")
    ann.get_by_test_id("tournament-stack").fill("400")
    ann.get_by_test_id("tournament-structure").select_option("turbo")
    ann.get_by_test_id("tournament-clock").fill("5")
    # A buy-in beyond the wallet, with "Register me at once", opens nothing: the field says why.
    # An empty one is named by its bounds, in words, not as the API's.
    buy_in = ann.get_by_test_id("tournament-buy-in")
    buy_in.fill("20000")
    ann.get_by_test_id("tournament-submit").click()
    field = ann.locator('.field[data-field="buy_in"] .field-error')
    expect(field).to_have_text(
        "Your wallet holds 10,000 chips, less than this buy-in: lower it, or untick "
        "“Register me at once”.")
    buy_in.fill("")
    ann.get_by_test_id("tournament-submit").click()
    expect(field).to_have_text("A whole number from 1 to 100,000.")
    expect(ann.get_by_test_id("tournament-row")).to_have_count(0)
    buy_in.fill("300")
    ann.get_by_test_id("tournament-submit").click()
    ann.wait_for_url(re.compile(r"/tournaments/\d+$"))
    address = ann.url
    expect(ann.get_by_test_id("tournament-waiting")).to_contain_text("3 more")
    expect(ann.get_by_test_id("tournament-you")).to_contain_text("seat 1")
    expect(ann.get_by_test_id("standing")).to_have_count(1)
    expect(ann.get_by_test_id("prizes")).to_contain_text("780")  # 65% of 1,200

    # Bea finds it in the lobby, on a phone, in German, and registers from its page.
    bea = person(browser, site, "de-DE", PHONE)
    bea.goto("/")
    nickname(bea, "Bea")
    row = bea.get_by_test_id("tournament-row")
    expect(row).to_contain_text("1 von 4")
    row.get_by_role("link").first.click()
    bea.wait_for_url(address)
    bea.get_by_test_id("register").click()
    expect(bea.get_by_test_id("tournament-you")).to_contain_text("Platz 2")
    expect(bea.get_by_test_id("playing-as")).to_contain_text("9.700")
    screenshot(bea, "sitandgo-registered-de-phone.png")

    # Its table (empty seats that nobody may take there) says the game, the level and the
    # next, and leads back to the tournament.
    ann.get_by_test_id("go-to-table").click()
    expect(ann.locator("#felt-status")).to_have_text("Waiting for 2 more: it starts when full.")
    expect(ann.locator("#table-meta")).to_contain_text(
        "Razz · next Seven Card Stud after 4 more hands")
    expect(ann.locator("#table-meta")).to_contain_text("Level 1 · level 2 after 5 more hands")
    table_address = ann.url
    expect(ann.get_by_test_id("add-bot-3")).to_have_count(1)  # drawn, and hidden here
    expect(ann.get_by_test_id("add-bot-3")).to_be_hidden()
    ann.get_by_test_id("tournament-link").click()
    ann.wait_for_url(address)
    # Ann fills the free seats with bots: the table is full, and it starts.
    ann.get_by_test_id("fill-bots").click()
    expect(ann.get_by_test_id("standing")).to_have_count(4)
    expect(ann.get_by_test_id("tournament-meta")).not_to_contain_text("Registering")
    screenshot(ann, "sitandgo-running-en.png")
    # They are away; the tournament plays to its end, and the page shows the winner.
    expect(ann.get_by_test_id("tournament-winner")).to_be_visible(timeout=60_000)
    places = ann.get_by_test_id("standing-place").all_inner_texts()
    assert places[0] == "1" and "still in" not in places, places
    prizes = [int(p.replace(",", "")) for p in ann.get_by_test_id("standing-prize")
              .all_inner_texts()]
    assert sum(prizes) == 1200 and prizes[0] >= 780, prizes
    # Its hands stay, each with its game, a replay and the PHH.
    expect(ann.get_by_test_id("tournament-hand").first).to_contain_text(
        re.compile("Razz|Seven Card Stud"))
    screenshot(ann, "sitandgo-finished-en.png")
    # The page shows the last 20 hands; "Older hands" adds the ones before them.
    hands_shown = ann.get_by_test_id("tournament-hand")
    expect(hands_shown).to_have_count(20)
    ann.get_by_test_id("tournament-hands-more").click()
    expect(hands_shown).not_to_have_count(20)
    assert hands_shown.count() > 20
    expect(bea.get_by_test_id("tournament-winner")).to_be_visible(timeout=20_000)
    expect(bea.get_by_test_id("tournament-you")).to_contain_text("gelandet")
    screenshot(bea, "sitandgo-finished-de-phone.png")
    # The standings (six columns, German headers) fit the phone: no sideways scroll.
    assert bea.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # Each wallet holds what was left and the prize won.
    for page, name in ((ann, "Ann"), (bea, "Bea")):
        page.reload()
        expect(page.get_by_test_id("standing")).to_have_count(4)
        mine = next(i for i, text in enumerate(page.get_by_test_id("standing")
                                                .all_inner_texts()) if name in text)
        prize = prizes[mine]
        wallet = 10_000 - 300 + prize
        shown = f"{wallet:,}" if page is ann else f"{wallet:,}".replace(",", ".")
        expect(page.get_by_test_id("playing-as")).to_contain_text(shown)
    # Its table, once it is over, names no next level and offers no seat.
    # An entrant reads its own place there (not "watching"), and a link to sit opens no
    # buy-in dialog: a tournament's seats are its entrants'.
    ann.goto(f"{table_address}?sit=3")
    expect(ann.get_by_test_id("action-wait")).to_have_text(re.compile(
        r"^You (won this tournament: prize [\d,]+|are out of this tournament in place \d "
        r"\(hand \d+\); prize [\d,]+)\.$"))
    expect(ann.get_by_test_id("dialog-sit")).to_have_count(0)
    expect(ann.locator("#table-meta")).not_to_contain_text("after")
    expect(ann.get_by_test_id("tournament-link")).to_be_visible()


def test_long_names_fit_a_phone_and_a_missing_tournament_shows_the_way_back(
        browser: Browser, site: Server) -> None:
    # A table and a tournament named by one long word each: the lobby, the tournament's page
    # and the table's stay as wide as the phone (the names break inside the word).
    page = person(browser, site, viewport=PHONE)
    page.goto("/")
    nickname(page, "Longo")
    api = page.request
    tournament = api.post("/api/tournaments", data={
        "name": "FreitagabendTurnierFürFreundeUndNachbarn", "players": 4, "buy_in": 100}).json()
    table = api.post("/api/tables", data={"name": "W" * 24, "variant": "stud",
                                           "seats": 4}).json()
    for path, name in (("/", "W" * 8), (f"/tournaments/{tournament['id']}", "Freitag"),
                       (f"/tables/{table['id']}", "W" * 8)):
        page.goto(path)
        expect(page.get_by_text(re.compile(name)).first).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], path
    # No such tournament: said, with the way back, not empty panels.
    page.goto("/tournaments/99999")
    expect(page.locator("#tournament-name")).to_have_text("There is no such tournament.")
    expect(page.get_by_test_id("tournament-back")).to_have_attribute("href", "/")
    expect(page.locator("main section.panel:visible")).to_have_count(1)
