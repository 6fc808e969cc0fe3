"""Your hands and the hand replayer in a real browser (Debian's chromium, as test_browser.py).

Two people in two browser contexts, with two accounts, play a few hands at one private table
with a bot. Then each opens the table's last hands, their hands page and the replayer, and
steps through a hand with the keys: each sees its own down cards and never another seat's that
was not shown. Every WebSocket frame each page received, and every answer the pages are given,
is read again for such cards; the dealer's PHH in the database says which they are. The
replayer also opens PHH files: a hand imported from a poker room and a WSOP hand.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

from stud.history.importer import import_file
from stud.history.phh import dumps_all, load
from stud.table_state import TableState

from . import test_browser as house
from .conftest import Server
from .test_browser import DESKTOP, PHONE, Player, expect, my_turn, screenshot
from .test_replays import Dealt, cards_in, corrupted_second_hand, dealt_hands, unplayable_hands

# The house's fixtures: one chromium for the module, a server, a new user per person().
browser, site, person = house.browser, house.site, house.person

HANDS = 3
ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "history" / "sites" / "fixtures"
WSOP = ROOT.parent / "shared" / "data" / "phh" / "wsop-2023-43-5"

# The replayer as the page draws it: each seat's cards, the step counter, the equity shown.
REPLAYER = """() => {
  const all = (selector, root = document) => [...root.querySelectorAll(selector)];
  const seats = all('#ring [data-testid^="seat-"]').map((seat) => ({
    seat: Number(seat.dataset.seat), tableSeat: Number(seat.dataset.tableSeat),
    me: seat.classList.contains("me"),
    name: seat.querySelector(".name").innerText,
    cards: all("[data-card]", seat).map((c) => ({card: c.dataset.card, up: c.dataset.up ?? null,
      back: c.classList.contains("back")})),
    equity: seat.querySelector("[data-equity]")
      ? Number(seat.querySelector("[data-equity]").dataset.equity) : null,
  }));
  return {
    seats, step: document.querySelector('[data-testid="step-text"]').innerText,
    counter: document.querySelector('[data-testid="replay-step"]').innerText,
    cards: all("[data-card]").map((c) => c.dataset.card).filter(Boolean),
    scrollWidth: document.documentElement.scrollWidth,
  };
}"""


class Watched:
    """Every WebSocket frame a page received, as the server sent it; a small frame as the
    whole state it makes (which holds all it carried)."""

    def __init__(self, player: Player) -> None:
        self.raw: list[str] = []
        player.page.on("websocket", self._socket)

    def _socket(self, socket: Any) -> None:
        table = TableState()

        def received(payload: str | bytes) -> None:
            text = payload if isinstance(payload, str) else payload.decode()
            state = table.read(json.loads(text))
            self.raw.append(text if state is None else json.dumps(state))

        socket.on("framereceived", received)


def foreign_in_frames(raw: list[str], by_number: dict[int, Dealt], seat: int) -> list[str]:
    """Down cards of other seats in the frames before those seats showed them: the hand in
    play (with the seats) and the last hand, each against its own cards."""
    problems = []
    for text in raw:
        frame = json.loads(text)
        if frame.get("type") != "state":
            continue
        for part, seats in ((frame.get("hand"), frame.get("seats")), (frame.get("last"), None)):
            if not part or part["number"] not in by_number:
                continue
            dealt = by_number[part["number"]]
            shown = {e["seat"] for e in part["events"] if e["kind"] == "shown"}
            shown |= {s["seat"] for s in seats or [] if s and s["shown"]}
            hidden = {c for s, cards in dealt.down.items() if s != seat and s not in shown
                      for c in cards}
            seen = cards_in(json.dumps(part) + json.dumps(seats or []))
            if seen & hidden:
                problems.append(f"hand {part['number']}: {sorted(seen & hidden)} sent to seat "
                                f"{seat}")
    return problems


def open_private_table(player: Player, name: str, variant: str, seats: int) -> int:
    """The lobby's form with "private" ticked: the table opens with its invite link."""
    page = player.page
    page.get_by_test_id("create-name").fill(name)
    page.get_by_test_id("create-variant").select_option(variant)
    page.get_by_test_id("create-seats").fill(str(seats))
    page.get_by_test_id("create-private").check()
    page.get_by_test_id("create-submit").click()
    page.wait_for_url(re.compile(r"/tables/\d+\?invite="))
    state = player.wait(lambda: player.frames.state, "the table's first state frame")
    assert state["table"]["private"], state["table"]
    return int(state["table"]["id"])


def play_together(players: list[Player], hands: int, timeout: float = 90.0) -> None:
    """Each player clicks its buttons when it is to act, until `hands` hands have ended."""
    deadline = time.monotonic() + timeout
    while True:
        states = [p.frames.state for p in players]
        if all(s and s["last"] and s["last"]["number"] >= hands for s in states):
            return
        assert time.monotonic() < deadline, f"{hands} hands not played in {timeout} s"
        for player in players:
            state = player.frames.state
            if my_turn(state):
                player.click(player.choose(state["hand"]["legal"]))
        players[0].page.wait_for_timeout(25)


def check_replayer(player: Player, dealt: Dealt, seat: int, shot: str | None = None) -> None:
    """Steps through the hand in the replayer with the keys, to its end, a street at a time
    and then a step at a time back to the start: at every step the page shows this seat's own
    down cards and no down card of another seat that was not shown."""
    page = player.page
    expect(page.get_by_test_id("replay-step")).to_be_visible()
    foreign = dealt.foreign(seat)

    def look() -> dict[str, Any]:
        shown = page.evaluate(REPLAYER)
        assert not set(shown["cards"]) & foreign, (
            f"hand {dealt.number}: the replayer shows {sorted(set(shown['cards']) & foreign)}")
        return shown

    first = look()
    total = int(first["counter"].split()[-1].replace(".", "").replace(",", ""))
    mine = [s for s in first["seats"] if s["tableSeat"] == seat]
    played = seat in dealt.own
    assert [s["me"] for s in mine] == ([True] if played else []), first["seats"]
    assert sum(s["me"] for s in first["seats"]) == played
    for _ in range(total):  # a street at a time: the counter moves to each street's deal
        before = page.get_by_test_id("replay-step").inner_text()
        page.keyboard.press("ArrowDown")
        if page.get_by_test_id("replay-step").inner_text() == before:
            break
        shown = look()
        equity = [s["equity"] for s in shown["seats"] if s["equity"] is not None]
        if len(equity) >= 2:
            assert sum(equity) == pytest.approx(1.0, abs=0.002), shown["seats"]
    last = look()
    if not played:
        return
    own = next(s for s in last["seats"] if s["tableSeat"] == seat)
    assert [c["card"] for c in own["cards"]] == dealt.own[seat][:len(own["cards"])]
    assert any(c["up"] == "false" and c["card"] for c in own["cards"]), (
        f"seat {seat} does not see its own down cards: {own}")
    if shot:
        screenshot(page, shot)
    for _ in range(total):
        page.keyboard.press("ArrowLeft")
    look()
    assert player.max_width is None or last["scrollWidth"] <= player.max_width, last


def test_two_players_see_their_own_down_cards_in_their_hands_and_the_replayer_and_only_theirs(
        person, site: Server) -> None:
    ann = person()
    bea = person(viewport=PHONE, locale="de-DE")
    watched = {2: Watched(ann), 3: Watched(bea)}
    ann.open_lobby()
    ann.pick_nickname("Ann")
    table_id = open_private_table(ann, "Replay night", "stud8", seats=3)
    ann.sit(2, 200)
    ann.add_bot(1, "station")
    invite = ann.page.get_by_test_id("invite-link").input_value()
    bea.page.goto(invite)
    bea.wait(lambda: bea.frames.state, "Bea's first frame at the private table")
    bea.pick_nickname("Bea")
    bea.wait(lambda: bea.frames.state and bea.frames.state["you"]["nickname"] == "Bea",
             "a frame for Bea's account")
    bea.sit(3, 200)
    play_together([ann, bea], HANDS)
    for player in (ann, bea):  # no more hands: what was played is what the pages show
        player.page.get_by_test_id("sit-out").click()

    dealt = dealt_hands(site, table_id)
    by_number = {d.number: d for d in dealt.values()}
    assert len(dealt) >= HANDS
    for seat, seen in watched.items():
        assert seen.raw, f"no frames seen by seat {seat}"
        problems = foreign_in_frames(seen.raw, by_number, seat)
        assert not problems, problems

    for player, seat, lang in ((ann, 2, "en"), (bea, 3, "de")):
        page = player.page
        # The table's last hands: each hand you played shows your own cards, yours only.
        box = page.get_by_test_id("last-hand").first
        expect(box.get_by_test_id("last-hand-mine")).to_be_visible()
        number = int(box.get_attribute("data-id"))
        own_cards = box.get_by_test_id("last-hand-mine").locator("[data-card]")
        assert [c.get_attribute("data-card") for c in own_cards.all()] == dealt[number].own[seat]
        rows = page.request.get(f"/api/tables/{table_id}/hands?limit=20").json()
        for row in rows:
            if row["id"] in dealt:
                assert not cards_in(json.dumps(row)) & dealt[row["id"]].foreign(seat)
                if seat in dealt[row["id"]].own:  # dealt in: the hand carries your part
                    assert row["mine"]["seat"] == seat
                else:
                    assert "mine" not in row
        house.SHOTS.mkdir(parents=True, exist_ok=True)
        page.get_by_test_id("last-hands").screenshot(
            path=str(house.SHOTS / f"last-hands-{lang}.png"))

        # Your hands: from the lobby's link; every hand with your cards and result.
        page.goto("/")
        page.get_by_test_id("hands-link").click()
        page.wait_for_url("**/me/hands")
        expect(page.get_by_test_id("my-hand").first).to_be_visible()
        listed = page.get_by_test_id("my-hand").all()
        assert len(listed) == len([d for d in dealt.values() if seat in d.own]) >= HANDS - 1
        for row in listed:
            hand = dealt[int(row.get_attribute("data-id"))]
            cards = row.locator("[data-card]").all()
            assert [c.get_attribute("data-card") for c in cards] == hand.own[seat]
            assert any(c.get_attribute("data-up") == "false" for c in cards)
        for row in listed:  # a row's cards are that hand's, and none of another seat's
            hand = dealt[int(row.get_attribute("data-id"))]
            drawn = {c.get_attribute("data-card") for c in row.locator("[data-card]").all()}
            assert not drawn & hand.foreign(seat)
        expect(page.get_by_test_id("my-hand-replay").first).to_have_text(
            "Replay" if lang == "en" else "Abspielen")
        if player.max_width is not None:
            assert page.evaluate("document.documentElement.scrollWidth") <= player.max_width
        screenshot(page, f"hands-{lang}{'-phone' if player.max_width else ''}.png")

        # The replayer, from the newest hand's link: stepped through with the keys.
        newest = int(listed[0].get_attribute("data-id"))
        listed[0].get_by_test_id("my-hand-replay").click()
        page.wait_for_url(f"**/replayer?hand={newest}")
        check_replayer(player, dealt[newest], seat,
                       f"replayer-{lang}{'-phone' if player.max_width else ''}.png")
        answer = page.request.get(f"/api/hands/{newest}/replay")
        assert not cards_in(answer.text()) & dealt[newest].foreign(seat)
        # Every other hand too: each replay, stepped through.
        for hand in dealt.values():
            if hand.hand_id != newest:  # a hand not dealt to you: the public hand
                page.goto(f"/replayer?hand={hand.hand_id}")
                check_replayer(player, hand, seat)


def imported_hand(tmp_path: Path) -> Path:
    results = import_file(FIXTURES / "pokerstars" / "7-StudHL-USD-0.04-0.08-200911.txt",
                          tmp_path)
    paths = [Path(r.path) for r in results if r.ok and r.path]
    # A hand with unknown down cards and a showdown: both kinds of card to draw.
    return next(p for p in paths if "??" in p.read_text() and " sm " in p.read_text())


@pytest.mark.parametrize(("viewport", "locale"), [(DESKTOP, "en-US"), (PHONE, "de-DE")])
def test_the_replayer_opens_an_uploaded_phh_file_and_refuses_a_bad_one(
        person, tmp_path: Path, viewport: dict[str, int], locale: str) -> None:
    viewer = person(viewport=viewport, locale=locale)
    page = viewer.page
    lang = "de" if locale.startswith("de") else "en"
    page.goto("/replayer")
    expect(page.get_by_test_id("replay-file")).to_be_visible()
    path = imported_hand(tmp_path)
    history = load(path)
    page.get_by_test_id("replay-file").set_input_files(str(path))
    expect(page.get_by_test_id("replay-step")).to_be_visible()
    drawn = page.evaluate(REPLAYER)
    names = [s["name"] for s in drawn["seats"]]
    assert names == history.fields["players"]
    assert not any(s["me"] for s in drawn["seats"])
    # Up cards the room's history does not show stay backs; nobody's cards are made up.
    page.keyboard.press("End")
    drawn = page.evaluate(REPLAYER)
    for seat in drawn["seats"]:
        named = {c for line in history.actions if line.startswith(f"d dh p{seat['seat']} ")
                 or line.startswith(f"p{seat['seat']} sm")
                 for c in cards_in(line.split()[-1])}
        assert {c["card"] for c in seat["cards"] if c["card"]} <= named
    result = page.get_by_test_id("replay-result")
    expect(result).to_be_visible()
    for k, final in enumerate(history.finishing_stacks or [], 1):
        net = final - history.starting_stacks[k - 1]
        text = page.get_by_test_id(f"net-{k}").inner_text()
        digits = text.replace(".", "").replace(",", "")
        assert digits.endswith(str(abs(net))), (text, net)
    assert page.get_by_test_id("equity").locator("tbody tr").count() >= 1
    if viewer.max_width is not None:
        assert drawn["scrollWidth"] <= viewer.max_width
    screenshot(page, f"replayer-upload-{lang}.png")

    if WSOP.is_dir():  # a second file replaces the first
        page.get_by_test_id("replay-file").set_input_files(str(WSOP / "10.phh"))
        expect(page.locator("#ring .name").first).to_have_text("James Obst")
        expect(page.get_by_test_id("replay-bundle")).to_be_hidden()
        # A .phhs of several hands: its first, then another chosen from the file's list.
        bundle = tmp_path / "three.phhs"
        histories = [history] + [load(WSOP / name) for name in ("10.phh", "11.phh")]
        bundle.write_text(dumps_all(histories), encoding="utf-8")
        page.get_by_test_id("replay-file").set_input_files(str(bundle))
        choice = page.get_by_test_id("replay-bundle")
        expect(choice).to_be_visible()
        expect(choice.locator("option")).to_have_count(3)
        expect(page.locator("#ring .name").first).to_have_text(history.fields["players"][0])
        choice.select_option("3")
        expect(page.locator("#ring .name").first).to_have_text(
            load(WSOP / "11.phh").fields["players"][0])
        expect(choice).to_have_value("3")
        screenshot(page, f"replayer-phhs-{lang}.png")

    bad = tmp_path / "bad.phh"
    bad.write_text(path.read_text().replace('"p1 ', '"p9 ', 1)
                   if '"p1 ' in path.read_text() else "nonsense = [", encoding="utf-8")
    page.get_by_test_id("replay-file").set_input_files(str(bad))
    error = page.get_by_test_id("replay-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("This file cannot be replayed." if lang == "en"
                                  else "Diese Datei lässt sich nicht abspielen.")
    expect(page.get_by_test_id("replay-step")).to_be_hidden()
    screenshot(page, f"replayer-error-{lang}.png")


def test_a_hand_that_does_not_exist_is_said_so_in_the_replayer(person) -> None:
    viewer = person()
    viewer.page.goto("/replayer?hand=987654")
    expect(viewer.page.get_by_test_id("replay-error")).to_contain_text(
        "There is no finished hand #987654.")
    viewer.page.goto("/replayer?hand=abc")  # no hand is called that either
    expect(viewer.page.get_by_test_id("replay-error")).to_contain_text(
        "There is no finished hand #abc.")


def test_a_bad_hand_of_a_phhs_shows_its_error_and_the_files_other_hands_stay_to_choose(
        person, tmp_path: Path) -> None:
    if not WSOP.is_dir():
        pytest.skip(f"{WSOP} is missing")
    histories = [load(WSOP / name) for name in ("10.phh", "11.phh", "20.phh")]
    bundle = tmp_path / "three.phhs"
    bundle.write_text(corrupted_second_hand(histories), encoding="utf-8")
    for viewer, lang in ((person(), "en"), (person(viewport=PHONE, locale="de-DE"), "de")):
        page = viewer.page
        page.goto("/replayer")
        page.get_by_test_id("replay-file").set_input_files(str(bundle))
        choice = page.get_by_test_id("replay-bundle")
        expect(choice.locator("option")).to_have_count(3)
        expect(page.locator("#ring .name").first).to_have_text(histories[0].fields["players"][0])
        choice.select_option("2")
        error = page.get_by_test_id("replay-error")
        expect(error).to_contain_text("Hand [2] of this file cannot be replayed" if lang == "en"
                                      else "Hand [2] dieser Datei lässt sich nicht abspielen")
        expect(error).to_contain_text("9s9s2s")
        expect(choice).to_be_visible()  # the file's list stays: its other hands are a choice away
        expect(choice).to_have_value("2")
        expect(choice.locator("option")).to_have_count(3)
        screenshot(page, f"replayer-phhs-bad-hand-{lang}.png")
        choice.select_option("3")
        expect(page.locator("#ring .name").first).to_have_text(histories[2].fields["players"][0])
        expect(error).to_be_hidden()
        choice.select_option("2")
        expect(error).to_be_visible()
        choice.select_option("1")
        expect(page.locator("#ring .name").first).to_have_text(histories[0].fields["players"][0])
        expect(page.get_by_test_id("replay-step")).to_be_visible()


@pytest.mark.parametrize(("viewport", "locale"), [(DESKTOP, "en-US"), (PHONE, "de-DE")])
def test_a_voided_hand_and_a_private_one_are_said_so_in_the_replayer_with_the_tables_number(
        person, site: Server, viewport: dict[str, int], locale: str) -> None:
    """Not "This file cannot be replayed" (no file was opened), not "no finished hand": a hand
    voided by a stop is named as the table page names it (hand #13 at its table), with what
    the id in the address is; a private table's hand says the reader may not see it."""
    hands = unplayable_hands(site.database)
    viewer = person(viewport=viewport, locale=locale)
    page = viewer.page
    en = locale.startswith("en")
    page.goto(f"/replayer?hand={hands.voided}")
    error = page.get_by_test_id("replay-error")
    expect(error).to_contain_text(
        "Hand #13 at the table “Night owls” was voided" if en
        else "Hand Nr. 13 am Tisch „Night owls“ wurde annulliert")
    expect(error).to_contain_text(
        f"The {hands.voided} in this page's address is the server's id of that hand" if en
        else f"Die {hands.voided} in der Adresse dieser Seite")
    screenshot(page, f"replayer-voided-{'en' if en else 'de'}.png")
    page.goto(f"/replayer?hand={hands.running}")
    expect(error).to_contain_text("still being played at the table “Night owls”" if en
                                  else "wird am Tisch „Night owls“ noch gespielt")
    page.goto(f"/replayer?hand={hands.private_voided}")
    expect(error).to_contain_text("You may not see this hand: it was played at a private table"
                                  if en else "Du darfst diese Hand nicht sehen")
    for words in ("This file cannot be replayed", "Diese Datei", "Hidden"):
        expect(error).not_to_contain_text(words)
    if viewer.max_width is not None:
        assert page.evaluate("document.documentElement.scrollWidth") <= viewer.max_width


def test_the_equity_table_of_eight_players_fits_a_phone_without_sideways_scrolling(
        person, tmp_path: Path) -> None:
    results = import_file(FIXTURES / "pokerstars" / "7-StudHL-USD-0.04-0.08-200911.txt",
                          tmp_path)
    paths = [Path(r.path) for r in results if r.ok and r.path]
    names, eight = next((n, p) for p in paths
                        if isinstance(n := load(p).fields["players"], list) and len(n) == 8)
    viewer = person(viewport=PHONE, locale="de-DE")
    page = viewer.page
    page.goto("/replayer")
    page.get_by_test_id("replay-file").set_input_files(str(eight))
    table = page.get_by_test_id("equity")
    expect(table.locator("tbody tr").first).to_be_visible()
    page.keyboard.press("End")
    fits = page.evaluate("""() => {
      const box = document.querySelector(".replay-equity-scroll");
      const table = document.getElementById("equity");
      return {box: box.clientWidth, scroll: box.scrollWidth, table: table.scrollWidth,
              right: Math.max(...[...table.querySelectorAll("td, th")].filter((c) =>
                c.getClientRects().length).map((c) => c.getBoundingClientRect().right)),
              page: document.documentElement.scrollWidth};
    }""")
    assert fits["scroll"] <= fits["box"] and fits["table"] <= fits["box"], fits
    assert fits["right"] <= PHONE["width"] and fits["page"] <= PHONE["width"], fits
    # Every seat's equity is still there, named: its name beside its figure.
    street = table.locator("tbody tr").last
    cells = street.locator("td[data-name]")
    assert [c.get_attribute("data-name") for c in cells.all()] == names
    page.locator("#equity-panel").screenshot(path=str(house.SHOTS / "replayer-equity-phone.png"))
    screenshot(page, "replayer-eight-phone.png")
