"""The pages' words as players read them in a real browser (Debian's chromium, as
test_browser.py, whose fixtures and Player this module shares): a refusal is said once, in the
reader's language (an English page the server's words, which name the facts, as a sentence;
another the catalogue's sentence for its code), never raw; words fit their boxes; the chat shows
whole lines.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from stud.text import catalogue

from . import test_browser as house
from .conftest import Server
from .test_browser import DESKTOP, PHONE, expect, screenshot
from .wsclient import TableClient, make_account, make_table

# The house's fixtures: one chromium for the module, a server, a new user per person().
browser, site, person = house.browser, house.site, house.person

WORDS = {"en": catalogue("en"), "de": catalogue("de")}
LOCALES = {"en": "en-US", "de": "de-DE"}
# The server's English as sent (lower-case), which a page never shows as it is.
RAW = re.compile(r"is private: open it|nickname must be|seat \d+ is taken")
# An English page's sentences: the server's words, which name the facts, from a capital.
ENGLISH = {"error.seat_taken": re.compile(r"^Seat \d is taken"),
           "error.bad_nickname": re.compile(r"^Nickname must be 1 to 20 letters.*, not '")}


def said(lang: str, key: str) -> str | re.Pattern[str]:
    return ENGLISH[key] if lang == "en" else WORDS[lang][key]
WIDE = {"width": 1366, "height": 768}


def private_table(site: Server) -> int:
    with site.client() as http:
        _, token = make_account(http, "Hostess")
        return make_table(http, token, name="Hidden", private=True, seats=4)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_wrong_invite_is_said_once_in_the_banner_in_the_readers_language(
        person, site: Server, lang: str) -> None:
    table_id = private_table(site)
    viewer = person(locale=LOCALES[lang])
    page = viewer.page
    with page.expect_response(lambda r: f"/api/tables/{table_id}/hands" in r.url) as answer:
        page.goto(f"/tables/{table_id}?invite=wrong")
    assert answer.value.status == 403
    sentence = WORDS[lang]["ui.table_private"]
    expect(page.get_by_test_id("shut-out")).to_have_text(sentence)
    page.wait_for_timeout(1000)  # the last hands were refused: a toast would show by now
    assert not page.get_by_test_id("toast").is_visible()
    shown = page.locator("body").inner_text()
    assert shown.count(sentence) == 1, shown
    assert not RAW.search(page.locator("body").text_content() or ""), shown
    screenshot(page, f"words-wrong-invite-{lang}.png")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_refused_table_message_is_worded_from_its_code_in_the_readers_language(
        person, site: Server, lang: str) -> None:
    """The toast (a bot for a seat taken meanwhile) and the sit dialog (a seat taken while the
    buy-in was typed) say it in the reader's language: the catalogue's sentence for its code in
    German, the server's words (the seat) as a sentence in English."""
    host = person(locale=LOCALES[lang])
    page = host.page
    host.open_lobby()
    host.pick_nickname("Hosta")
    table_id = host.create_table("Contested", "stud", seats=4)
    with site.client() as http:
        _, token = make_account(http, "Taker")
    taken = said(lang, "error.seat_taken")
    with TableClient(site.ws, table_id, token) as taker:
        page.get_by_test_id("add-bot-2").click()
        taker.send({"type": "sit", "seat": 2, "buy_in": 100})
        host.wait(lambda: host.frames.state["seats"][1] is not None, "the taker in seat 2")
        page.get_by_test_id("bot-station").click()
        expect(page.get_by_test_id("toast")).to_have_text(taken)

        page.get_by_test_id("sit-3").click()
        taker.send({"type": "add_bot", "seat": 3, "bot": "station"})
        host.wait(lambda: host.frames.state["seats"][2] is not None, "a bot in seat 3")
        page.get_by_test_id("sit-confirm").click()
        expect(page.get_by_test_id("buy-in-error")).to_have_text(taken)
    assert not RAW.search(page.locator("body").text_content() or "")


@pytest.mark.parametrize(("lang", "typed"), [("en", "Bob!"), ("en", "  "), ("de", "Bob!")])
def test_a_refused_nickname_is_a_sentence_in_the_readers_language(
        person, lang: str, typed: str) -> None:
    viewer = person(locale=LOCALES[lang])
    page = viewer.page
    viewer.open_lobby()
    page.get_by_test_id("nickname-input").fill(typed)
    page.get_by_test_id("nickname-submit").click()
    expect(page.get_by_test_id("nickname-error")).to_have_text(said(lang, "error.bad_nickname"))
    expect(page.get_by_test_id("nickname-input")).to_be_visible()


PLACEHOLDER_FITS = """() => {
  const input = document.querySelector('[data-testid="nickname-input"]');
  const style = getComputedStyle(input);
  const pen = document.createElement("canvas").getContext("2d");
  pen.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return {text: input.placeholder, needs: pen.measureText(input.placeholder).width, room};
}"""


@pytest.mark.parametrize("viewport", [WIDE, PHONE], ids=["desktop", "phone"])
@pytest.mark.parametrize("page_path", ["/", "/tables/1"])
def test_the_nickname_placeholder_is_whole_in_both_languages(
        person, site: Server, viewport: dict[str, int], page_path: str) -> None:
    with site.client() as http:
        _, token = make_account(http, "Opener")
        make_table(http, token, name="Any")
    for lang in ("de", "en"):
        viewer = person(viewport=viewport, locale=LOCALES[lang])
        page = viewer.page
        page.goto(page_path)
        expect(page.get_by_test_id("nickname-input")).to_have_attribute(
            "placeholder", WORDS[lang]["ui.nickname_placeholder"])
        fit = page.evaluate(PLACEHOLDER_FITS)
        assert fit["needs"] <= fit["room"], fit
        screenshot(page, f"words-placeholder-{lang}-{viewport['width']}"
                         f"{'-table' if 'tables' in page_path else ''}.png")


def cut_lines(area: dict[str, Any], lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The lines the top or the bottom edge of the chat's scroll area cuts in two."""
    edges = (area["y"], area["y"] + area["height"])
    return [line for line in lines
            if any(line["top"] + 0.5 < edge < line["bottom"] - 0.5 for edge in edges)]


CHAT_LINES = """() => [...document.querySelectorAll('[data-testid="chat-log"] li')].map((li) => {
  const box = li.getBoundingClientRect();
  return {top: box.top, bottom: box.bottom, text: li.textContent};
})"""


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_chat_shows_whole_lines_under_its_heading(
        person, site: Server, viewport: dict[str, int]) -> None:
    with site.client() as http:
        _, token = make_account(http, "Chatter0")
        table_id = make_table(http, token, name="Chatty", seats=4)
        talkers = [token] + [make_account(http, f"Chatter{k}")[1] for k in (1, 2)]
    for k, talker in enumerate(talkers):  # at most five lines each in ten seconds
        with TableClient(site.ws, table_id, talker) as client:
            for i in range(4):  # short lines and long ones, which wrap
                text = f"line {k}-{i} " + "some words " * (3 * (i % 3))
                client.send({"type": "chat", "text": text})
            time.sleep(0.3)
    viewer = person(viewport=viewport)
    page = viewer.page
    page.goto(f"/tables/{table_id}")
    log = page.get_by_test_id("chat-log")
    expect(log.locator("li")).to_have_count(12)
    page.wait_for_timeout(300)
    for count in (12, 13):  # the lines kept, then one said while the page is open
        if count == 13:
            with TableClient(site.ws, table_id, talkers[0]) as client:
                client.send({"type": "chat", "text": "one more " + "word " * 12})
                expect(log.locator("li")).to_have_count(13)
            page.wait_for_timeout(300)
        box = log.bounding_box()
        assert box
        lines = page.evaluate(CHAT_LINES)
        assert lines[-1]["bottom"] <= box["y"] + box["height"] + 0.5, (box, lines[-1])  # newest
        assert not cut_lines(box, lines), (box, cut_lines(box, lines))
    house.SHOTS.mkdir(parents=True, exist_ok=True)
    page.get_by_test_id("chat").screenshot(
        path=str(house.SHOTS / f"words-chat-{viewport['width']}.png"))
