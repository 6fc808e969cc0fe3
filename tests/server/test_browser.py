"""The web table in a real browser: Debian's chromium, driven by Playwright's sync API.

Each test is a new user in a fresh browser context, against a server in this process (SQLite,
bots that act after a short pause so the page can be followed). The tests click only what the
page shows and never send a WebSocket message themselves. They read what the server sent by
listening to the page's own WebSocket frames, and hold the page to it: the action buttons are the
frame's ``legal`` entries (labels with amounts), the cards are the frame's (own down cards face
up, other seats' down cards as backs), the showdown is the frame's (hand names, winners per pot
with their chips, "Scoop", "No low").

Screenshots go to artifacts/screenshots/ (gitignored). With STUD_UPDATE_SCREENSHOT=1 the desktop
showdown is also copied to docs/screenshot-table.png, the README's picture.

Without /usr/bin/chromium the tests are skipped, unless STUD_REQUIRE_BROWSER is set (CI): then a
missing browser is a failure. No browser is ever downloaded.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from stud.cards import parse_cards
from stud.engine import FirstToAct, Half, HandValue, OddChips, Opener, PotAwarded, ValueKind
from stud.rules import POLICIES
from stud.server.room import Timing
from stud.table_state import TableState
from stud.text import words

from .conftest import Server, missing, serve_in_thread
from .wsclient import in_play

try:
    from playwright import sync_api
except ImportError as missing:  # CI must have it; elsewhere the browser tests are skipped
    if os.environ.get("STUD_REQUIRE_BROWSER"):
        raise
    pytest.skip(f"the playwright package is missing: {missing}", allow_module_level=True)

Browser = sync_api.Browser
Page = sync_api.Page
expect = sync_api.expect

CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"
README_SHOT = ROOT / "docs" / "screenshot-table.png"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
# Bots wait a little so a person could follow; the showdown stays up long enough to be checked
# (and photographed) before the next hand replaces it.
TIMING = Timing(bot_delay=0.1, hand_pause=1.5, clock_scale=1.0, seat_wait=0.0)
STALE_AFTER = 3.0  # seconds the page may disagree with the last frame before that is a failure

State = dict[str, Any]
Dom = dict[str, Any]

# ------------------------------------------------------------------ what the page should say

LABELS = {
    "en": {"fold": "Fold", "check": "Check", "call": "Call {to}", "bring_in": "Bring in {to}",
           "complete": "Complete to {to}", "bet": "Bet {to}", "raise": "Raise to {to}"},
    "de": {"fold": "Passen", "check": "Checken", "call": "Mitgehen {to}",
           "bring_in": "Bring-In {to}", "complete": "Komplettieren auf {to}",
           "bet": "Setzen {to}", "raise": "Erhöhen auf {to}"},
}
WORDS = {
    "en": {"pot": "Pot", "seat": "Seat {seat}", "hand_no": "#{number}", "high": "High",
           "low": "Low", "scoop": "Scoop", "no_low": "No low", "uncontested": "uncontested",
           "rules": "Rules", "variant_stud8": "Seven Card Stud Hi/Lo (8 or better)",
           "policies": "This table's policies"},
    "de": {"pot": "Pot", "seat": "Platz {seat}", "hand_no": "Nr. {number}", "high": "High",
           "low": "Low", "scoop": "Scoop", "no_low": "Kein Low", "uncontested": "ohne Showdown",
           "rules": "Regeln", "variant_stud8": "Seven Card Stud Hi/Lo (8 oder besser)",
           "policies": "Die Regeloptionen dieses Tisches"},
}

GERMAN_HAND_WORDS = ("Ein Paar", "Zwei Paare", "Drilling", "Straße", "Flush", "Full House",
                     "Vierling", "Höchste Karte", "Low")
SUITS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
NO_LOW = parse_cards("KsKdKhQcQd")  # five cards with no 8-or-better low

# The page gets facts and puts them into words; the test puts the same facts into words with
# stud.text, the Python renderer of the same catalogues, and the two must agree.


def value_of(sent: dict[str, Any]) -> HandValue:
    """A hand value as a frame sends it, back as the engine's (from its five cards)."""
    cards = parse_cards("".join(sent["cards"])) if sent["cards"] else NO_LOW
    value = HandValue.of(ValueKind(sent["kind"]), cards)
    assert (value.category.value, [r.char for r in value.ranks]) == (sent["category"],
                                                                     sent["ranks"]), sent
    return value


def why_of(sent: dict[str, Any]) -> FirstToAct:
    showing = sent["showing"]
    return FirstToAct(street=sent["street"], opener=Opener(sent["opener"]), seat=sent["seat"],
                      decider=sent["decider"], cards=parse_cards("".join(sent["cards"])),
                      lowball=bool(showing and showing["lowball"]),
                      decider_all_in=sent["decider_all_in"], tie=sent["tie"],
                      open_pair=sent["open_pair"], decider_folded=sent["decider_folded"])


def award_of(sent: dict[str, Any]) -> PotAwarded:
    odd = sent["odd"]
    return PotAwarded(sent["pot"], sent["amount"], Half(sent["half"]),
                      tuple((s, c) for s, c in sent["shares"]),
                      value_of(sent["high"]) if sent["high"] else None,
                      value_of(sent["low"]) if sent["low"] else None, sent["uncontested"],
                      sent["no_low"],
                      OddChips(odd["chips"], tuple(odd["seats"]), odd["by"]) if odd else None,
                      sent["halving_chip"])


def with_symbols(text: str) -> str:
    """Cards as the page draws them: "2c" -> "2♣", "Td" -> "10♦"."""
    return re.sub(r"\b([2-9TJQKA])([shdc])\b",
                  lambda m: ("10" if m[1] == "T" else m[1]) + SUITS[m[2]], text)


def hand_name(sent: dict[str, Any] | None, lang: str) -> str:
    return words(lang).hand(value_of(sent)) if sent else ""


def award_hand(sent: dict[str, Any], lang: str) -> str:
    """What a winner's line in the showdown panel says it won with (no low: said below)."""
    award = award_of(sent)
    if award.high is not None and award.low is None and award.no_low:
        return words(lang).hand(award.high)
    return words(lang).award_hand(award)


def chips(amount: int, lang: str) -> str:
    text = f"{amount:,}"
    return text.replace(",", ".") if lang == "de" else text


def label(option: dict[str, Any], lang: str) -> str:
    if option["action"] == "call" and "adds" in option:  # a call says the chips it adds
        adds, to = option["adds"], option["to"]
        text = words(lang).t("play.call" if adds == to else "play.call.to",
                             added=chips(adds, lang), to=chips(to, lang))
        return text[0].upper() + text[1:]
    return LABELS[lang][option["action"]].format(to=chips(option["to"], lang))


def seat_name(state: State, seat: int, lang: str) -> str:
    player = state["seats"][seat - 1]
    return player["name"] if player else WORDS[lang]["seat"].format(seat=seat)


def my_turn(state: State | None) -> bool:
    hand = state and state["hand"]
    return bool(hand and not hand["over"] and hand["legal"])


# ------------------------------------------------------------------ reading the page

SNAPSHOT = """() => {
  const all = (selector, root = document) => [...root.querySelectorAll(selector)];
  const shows = (node) => !!node && !node.closest("[hidden]") && node.getClientRects().length > 0
    && getComputedStyle(node).visibility !== "hidden";
  const byId = (id, root = document) => root.querySelector(`[data-testid="${id}"]`);
  const text = (node) => (node ? node.innerText.replace(/\\s+/g, " ").trim() : "");
  const seats = {};
  for (const seat of all('[data-testid^="seat-"]')) {
    const stack = seat.querySelector('[data-testid^="stack-"]');
    seats[seat.dataset.testid.slice(5)] = {
      me: seat.classList.contains("me"),
      stack: stack ? text(stack) : null,
      cards: all("[data-card]", seat).map((c) => ({card: c.dataset.card, up: c.dataset.up ?? null,
        back: c.classList.contains("back"), text: text(c)})),
    };
  }
  const panel = byId("showdown");
  let showdown = null;
  if (shows(panel)) {
    showdown = {text: text(panel), pots: {}, shown: {}};
    for (const box of all('[data-testid^="pot-result-"]', panel)) {
      const lines = all(".winner-line", box).map(text);
      showdown.pots[box.dataset.testid.slice(11)] = {text: text(box),
        lines: lines.length ? lines : box.innerText.split("\\n"),
        noLow: shows(byId("no-low", box)), scoops: all('[data-testid="scoop"]', box).map(text)};
    }
    for (const hand of all('[data-testid^="shown-"]', panel)) {
      showdown.shown[hand.dataset.testid.slice(6)] = {text: text(hand),
        cards: all("[data-card]", hand).map((c) => c.dataset.card)};
    }
  }
  return {
    buttons: all('button[data-testid^="action-"]').map((b) => ({testid: b.dataset.testid,
      to: b.dataset.to, label: b.innerText.trim(), shows: shows(b), disabled: b.disabled})),
    seats,
    clocks: all('[data-testid="clock"]').filter(shows).map((c) => Number(c.dataset.seat)),
    pot: text(byId("pot")),
    showdown,
    log: text(byId("hand-log")),
    why: text(byId("first-why")),
    scrollWidth: document.documentElement.scrollWidth,
  };
}"""


def card_problems(state: State, dom: Dom) -> list[str]:
    """Every seat shows the frame's cards: the viewer's own down cards face up, other seats'
    down cards as backs, up cards face up."""
    problems = []
    me = state["you"]["seat"]
    for number, player in enumerate(state["seats"], 1):
        shown = dom["seats"].get(str(number))
        if shown is None:
            problems.append(f"no seat-{number} on the page")
            continue
        if player is None:
            continue
        want = [c["card"] or "" for c in player["cards"]]
        got = [c["card"] for c in shown["cards"]]
        if got != want:
            problems.append(f"seat {number} shows cards {got}, the frame has {want}")
            continue
        for sent, drawn in zip(player["cards"], shown["cards"], strict=True):
            if (number != me and not sent["up"] and sent["card"] is not None
                    and not player["shown"]):  # a hand shown at the showdown is face up
                problems.append(f"the frame leaks seat {number}'s down card {sent['card']}")
            if sent["card"] is None and not drawn["back"]:
                problems.append(f"seat {number}: a hidden card is not drawn as a back")
            if sent["card"] is not None:
                rank = "10" if sent["card"][0] == "T" else sent["card"][0]
                if drawn["back"] or rank not in drawn["text"]:
                    problems.append(f"seat {number}: {sent['card']} is not face up "
                                    f"({drawn})")
                if drawn["up"] != str(sent["up"]).lower():
                    problems.append(f"seat {number}: {sent['card']} has data-up={drawn['up']}")
        if number == me and player["in_hand"] and not any(
                c["card"] and not c["up"] for c in player["cards"]):
            problems.append(f"my seat {me} is in the hand but the frame shows no down card")
    return problems


def table_problems(state: State | None, dom: Dom, lang: str, max_width: int | None) -> list[str]:
    """Where the page disagrees with the last state frame (an empty list: it agrees)."""
    if state is None:
        return ["no state frame yet"]
    problems = []
    hand = state["hand"]
    legal = hand["legal"] if hand and not hand["over"] else []
    want = [(f"action-{o['action']}", str(o["to"]), label(o, lang)) for o in legal]
    got = [(b["testid"], b["to"], b["label"]) for b in dom["buttons"]]
    if got != want:
        problems.append(f"the buttons are {got}; the frame's legal entries are {want}")
    elif any(not b["shows"] or b["disabled"] for b in dom["buttons"]):
        problems.append(f"an action button is hidden or disabled: {dom['buttons']}")
    problems += card_problems(state, dom)
    if hand:
        pot = f"{WORDS[lang]['pot']} {chips(hand['pot'], lang)}"
        if pot not in dom["pot"]:
            problems.append(f"the pot shows {dom['pot']!r}, not {pot!r}")
        # Why this street's first seat acts first, on the felt, as stud.text words the facts.
        why = "" if hand["over"] or not hand["why"] else with_symbols(
            words(lang).first_to_act(why_of(hand["why"]), names_in(state, hand)))
        if dom["why"] != " ".join(why.split()):
            problems.append(f"the felt says {dom['why']!r} of who acts first, not {why!r}")
    if my_turn(state):
        me = state["you"]["seat"]
        if not hand["clock"] or hand["clock"]["seat"] != me:
            problems.append(f"my turn, but the frame's clock is {hand['clock']}")
        if dom["clocks"] != [me]:
            problems.append(f"my turn, but the page shows a clock for seats {dom['clocks']}")
    if max_width is not None and dom["scrollWidth"] > max_width:
        problems.append(f"the page is {dom['scrollWidth']} px wide, more than {max_width}")
    return problems


def names_in(state: State, hand: State) -> Callable[[int], str]:
    """Who played each seat of ``hand``: the names dealt in, not whoever sits there now."""
    names = {p["seat"]: p["name"] for p in hand.get("players") or ()}
    return lambda seat: names.get(seat) or seat_name(state, seat, "en")


def log_problems(state: State, hand: State, dom: Dom, lang: str) -> list[str]:
    """The hand log tells why each street's first seat acts first, and who won what with what,
    in the words stud.text gives the same facts."""
    who, say = names_in(state, hand), words(lang)
    wanted = []
    for event in hand["events"]:
        if event["kind"] == "street" and event["why"]:
            wanted.append(with_symbols(say.first_to_act(why_of(event["why"]), who)))
        elif event["kind"] == "pot":
            wanted += say.award(award_of(event), who)
    log = dom["log"]
    return [f"the hand log lacks {line!r}" for line in wanted if " ".join(line.split()) not in log]


def showdown_problems(state: State, dom: Dom, lang: str) -> list[str]:
    """The showdown panel shows the frame's last hand: the shown hands with their names, each
    pot's winners with their chips and hands, "Scoop" and "No low" exactly where the frame has
    them."""
    last, words = state["last"], WORDS[lang]
    result = last["showdown"]
    panel = dom["showdown"]
    if panel is None:
        return [f"hand {last['number']} is over but the showdown panel is hidden"]
    problems = []
    number = words["hand_no"].format(number=last["number"])
    if number not in panel["text"]:
        problems.append(f"the showdown panel does not name the hand ({number}): {panel['text']}")
    for shown in result["shown"]:
        drawn = panel["shown"].get(str(shown["seat"]))
        if drawn is None:
            problems.append(f"seat {shown['seat']} showed, but there is no shown-{shown['seat']}")
            continue
        if drawn["cards"] != shown["cards"]:
            problems.append(f"shown-{shown['seat']} has {drawn['cards']}, not {shown['cards']}")
        for name in (shown["high"], shown["low"]):
            if name and hand_name(name, lang) not in drawn["text"]:
                problems.append(f"shown-{shown['seat']} lacks {hand_name(name, lang)!r}: "
                                f"{drawn['text']!r}")
    who = names_in(state, last)
    for pot in result["pots"]:
        index = pot["pot"]
        box = panel["pots"].get(str(index))
        if box is None:
            problems.append(f"no pot-result-{index} for {pot}")
            continue
        if chips(pot["amount"], lang) not in box["text"]:
            problems.append(f"pot {index} does not show its {pot['amount']} chips")
        for award in pot["awards"]:
            text = words["uncontested"] if award["uncontested"] else award_hand(award, lang)
            for seat, won in award["shares"]:
                wanted = [who(seat), f"+{chips(won, lang)}", text]
                if award["half"] != "all":
                    wanted.append(words[award["half"]])
                if not any(all(w.casefold() in line.casefold() for w in wanted)
                           for line in box["lines"]):
                    problems.append(f"pot {index}: no line with {wanted}: {box['lines']}")
        has_scoop = words["scoop"].casefold() in box["text"].casefold()
        if has_scoop != (pot["scoop"] is not None) or has_scoop != bool(box["scoops"]):
            problems.append(f"pot {index}: scoop is {pot['scoop']} but the page "
                            f"{'shows' if has_scoop else 'lacks'} {words['scoop']!r}: "
                            f"{box['text']!r}")
        elif pot["scoop"] is not None and who(pot["scoop"]).casefold() not in (
                " ".join(box["scoops"]).casefold()):
            problems.append(f"pot {index}: the scoop badge {box['scoops']} does not "
                            f"name {who(pot['scoop'])}")
        no_low = any(a["no_low"] and a["half"] == "all" for a in pot["awards"])
        if box["noLow"] != no_low or (no_low and words["no_low"] not in box["text"]):
            problems.append(f"pot {index}: no_low is {no_low}, the page says {box['text']!r}")
    problems += log_problems(state, last, dom, lang)
    if not dom["log"]:
        problems.append("the hand log is empty at the showdown")
    return problems


# ------------------------------------------------------------------ a person at a browser


class Frames:
    """The state and error frames the page's WebSockets receive, as the server sent them."""

    def __init__(self, page: Page) -> None:
        self.count = 0
        self.state: State | None = None
        self.errors: list[dict[str, Any]] = []
        page.on("websocket", self._socket)

    def _socket(self, socket: Any) -> None:
        if "/ws/tables/" in socket.url:
            table = TableState()  # each socket's frames: a whole state, then small ones
            socket.on("framereceived", lambda payload: self._frame(table, payload))

    def _frame(self, table: TableState, payload: str | bytes) -> None:
        frame = json.loads(payload)
        state = table.read(frame)
        if state is not None:
            self.state = state
            self.count += 1
        elif frame.get("type") == "error":
            self.errors.append(frame)

    def clear(self) -> None:
        self.state = None


@dataclass
class Player:
    page: Page
    frames: Frames
    lang: str = "en"
    max_width: int | None = None  # phones: the page may not be wider than this
    clicked: list[str] = field(default_factory=list)
    shown_hands: int = 0  # showdowns checked where at least one hand was shown

    @property
    def seat(self) -> int | None:
        state = self.frames.state
        return state["you"]["seat"] if state else None

    def wait(self, predicate: Callable[[], Any], what: str, timeout: float = 10.0) -> Any:
        """Polls (letting Playwright deliver frames) until predicate() is true."""
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"waited {timeout} s for {what}; errors from the server: "
                                     f"{self.frames.errors}")
            self.page.wait_for_timeout(25)

    def snapshot(self) -> Dom:
        return self.page.evaluate(SNAPSHOT)  # type: ignore[no-any-return]

    def agrees(self, timeout: float = STALE_AFTER) -> State:
        """Waits until the page shows the last frame; returns that frame."""
        problems: list[str] = []

        def check() -> State | None:
            nonlocal problems
            state = self.frames.state
            problems = table_problems(state, self.snapshot(), self.lang, self.max_width)
            return None if problems else state

        try:
            return self.wait(check, "the page to show the last frame", timeout)  # type: ignore
        except AssertionError:
            raise AssertionError("the page disagrees with the last frame: "
                                 + "; ".join(problems)) from None

    # -------------------------------------------------------------- lobby and seats

    def open_lobby(self) -> None:
        # lobby.js fills the account box with GET /api/me's answer whenever it comes, even after
        # a nickname was picked meanwhile (the box then asks for a nickname again): a person
        # does not type that fast, so wait for the answer first.
        with self.page.expect_response(lambda response: response.url.endswith("/api/me")):
            self.page.goto("/")

    def pick_nickname(self, nickname: str) -> None:
        self.page.get_by_test_id("nickname-input").fill(nickname)
        self.page.get_by_test_id("nickname-submit").click()
        expect(self.page.get_by_test_id("nickname-input")).to_have_count(0)

    def create_table(self, name: str, variant: str, small_bet: int = 2, seats: int = 6,
                     clock: int = 30) -> int:
        page = self.page
        page.get_by_test_id("create-name").fill(name)
        page.get_by_test_id("create-variant").select_option(variant)
        page.get_by_test_id("create-small-bet").fill(str(small_bet))
        page.get_by_test_id("create-seats").fill(str(seats))
        page.get_by_test_id("create-clock").fill(str(clock))
        page.get_by_test_id("create-submit").click()
        page.wait_for_url(re.compile(r"/tables/\d+$"))
        table_id = int(page.url.rsplit("/", 1)[1])
        state = self.wait(lambda: self.frames.state, "the table's first state frame")
        assert state["table"]["id"] == table_id
        assert (state["table"]["name"], state["table"]["variant"]) == (name, variant)
        assert state["table"]["stakes"]["small_bet"] == small_bet
        assert (state["table"]["seats"], state["table"]["clock"]) == (seats, clock)
        return table_id

    def sit(self, seat: int, buy_in: int) -> None:
        page = self.page
        page.get_by_test_id(f"sit-{seat}").click()
        page.get_by_test_id("buy-in-input").fill(str(buy_in))
        page.get_by_test_id("sit-confirm").click()
        state = self.wait(lambda: self.seat == seat and self.frames.state,
                          f"a frame with me in seat {seat}")
        assert state["seats"][seat - 1]["stack"] == buy_in, state["seats"][seat - 1]
        expect(page.get_by_test_id(f"sit-{seat}")).to_have_count(0)

    def add_bot(self, seat: int, bot: str) -> None:
        self.page.get_by_test_id(f"add-bot-{seat}").click()
        self.page.get_by_test_id(f"bot-{bot}").click()

        def seated() -> bool:
            player = self.frames.state and self.frames.state["seats"][seat - 1]
            return bool(player and player["bot"] == bot)

        self.wait(seated, f"a {bot} bot in seat {seat}")

    # -------------------------------------------------------------- playing

    def click(self, option: dict[str, Any]) -> None:
        # An open pair on fourth street offers two bets (small and big): data-to tells them apart.
        button = self.page.locator(
            f'button[data-testid="action-{option["action"]}"][data-to="{option["to"]}"]')
        if self.max_width is not None:
            button.scroll_into_view_if_needed()
            expect(button).to_be_in_viewport()
            box = button.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= self.max_width, box
        before = self.frames.count
        button.click()
        self.clicked.append(option["action"])
        self.wait(lambda: self.frames.count > before, f"a frame after clicking {option}")

    def choose(self, legal: list[dict[str, Any]]) -> dict[str, Any]:
        """Mostly call or check (or bring in); every third decision bets, raises or
        completes when it may."""
        kinds = {o["action"]: o for o in legal}
        strong = [kinds[k] for k in ("complete", "bet", "raise") if k in kinds]
        if strong and len(self.clicked) % 3 == 2:
            return strong[0]
        for kind in ("check", "call", "bring_in"):
            if kind in kinds:
                return kinds[kind]
        return kinds.get("fold", legal[0])

    def play(self, hands: int = 0, until: Callable[[State], bool] | None = None,
             on_showdown: Callable[[Player, State], None] | None = None,
             on_turn: Callable[[Player, State], None] | None = None,
             timeout: float = 45.0) -> State:
        """Plays by clicking the buttons shown until `hands` hands this seat was dealt into
        have ended and their showdowns were checked, or until `until(state)` holds. All along
        the page must agree with the last frame; returns the last frame checked."""
        deadline = time.monotonic() + timeout
        checked = 0
        agreed_at = time.monotonic()
        due: tuple[int, list[str]] | None = None  # a showdown seen but not yet checked
        seen: set[int] = set()
        while True:
            state = self.frames.state
            dom = self.snapshot()
            problems = table_problems(state, dom, self.lang, self.max_width)
            last = state and state["last"]
            showing = (state is not None and in_play(state) is None and last is not None
                       and last["showdown"] is not None and last["number"] not in seen
                       and self.seat in [s for s, _ in last["showdown"]["net"]])
            if due and not (showing and last["number"] == due[0]):
                raise AssertionError(f"the showdown of hand {due[0]} never matched its frame "
                                     f"before the next hand: {'; '.join(due[1])}")
            if showing:
                problems += showdown_problems(state, dom, self.lang)
                if due is None or due[0] != last["number"]:
                    due = (last["number"], [])
                due[1].extend(p for p in problems if p not in due[1])
            now = time.monotonic()
            if problems:
                if now - agreed_at > STALE_AFTER:
                    raise AssertionError(f"the page disagreed with the last frame for "
                                         f"{STALE_AFTER} s: {'; '.join(problems)}")
                self.page.wait_for_timeout(25)
                continue
            agreed_at = now
            assert now < deadline, (f"played {timeout} s and checked {checked} of {hands} "
                                    f"hands{'' if until is None else ' without reaching the goal'}")
            if showing:
                seen.add(last["number"])
                due = None
                checked += 1
                self.shown_hands += bool(last["showdown"]["shown"])
                if on_showdown:
                    on_showdown(self, state)
            if (hands and checked >= hands) or (until and until(state)):
                return state
            if my_turn(state):
                if on_turn:
                    on_turn(self, state)
                self.click(self.choose(state["hand"]["legal"]))
                continue
            self.page.wait_for_timeout(25)


# ------------------------------------------------------------------ fixtures


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One headless Debian chromium for the module."""
    if not CHROMIUM.exists():
        missing(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium);"
                " these tests never download a browser", "STUD_REQUIRE_BROWSER")
    with sync_api.sync_playwright() as playwright:
        expect.set_options(timeout=10_000)  # a busy CI machine is slow to render
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                              args=LAUNCH_ARGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def site(sqlite_database: str) -> Iterator[Server]:
    with serve_in_thread(sqlite_database, TIMING) as running:
        yield running


@pytest.fixture
def person(browser: Browser, site: Server) -> Iterator[Callable[..., Player]]:
    """person(viewport=..., locale=...) opens a fresh browser context (a new user) on the
    site; every context closes at the end of the test."""
    contexts = []

    def open_one(viewport: dict[str, int] = DESKTOP, locale: str = "en-US",
                 **options: Any) -> Player:
        context = browser.new_context(viewport=viewport, locale=locale, base_url=site.url,
                                      **options)
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        return Player(page, Frames(page), lang="de" if locale.startswith("de") else "en",
                      max_width=viewport["width"] if viewport["width"] < 500 else None)

    yield open_one
    for context in contexts:
        context.close()


def screenshot(page: Page, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / name
    page.screenshot(path=str(path))
    return path


def in_hand(state: State) -> int:
    """How many seats still hold cards in the hand."""
    return sum(1 for p in state["seats"] if p and p["in_hand"] and not p["folded"])


# ------------------------------------------------------------------ the tests


def test_new_player_opens_a_stud8_table_sits_adds_bots_and_plays_hands_by_clicking(person):
    ann = person()
    page = ann.page
    ann.open_lobby()
    ann.pick_nickname("Ann")
    table_id = ann.create_table("Friday stud8", "stud8", small_bet=2, seats=6, clock=30)
    ann.sit(3, 150)
    for seat, bot in ((1, "expert"), (5, "station"), (6, "station")):
        ann.add_bot(seat, bot)

    shots: dict[str, Path] = {}

    def photograph(player: Player, state: State, players: int = 3) -> None:
        # The README's picture: a showdown of three or more players, two or more hands shown.
        result = state["last"]["showdown"]
        if "desktop" not in shots and len(result["net"]) >= players and len(result["shown"]) >= 2:
            shots["desktop"] = screenshot(player.page, "table-desktop.png")

    def photograph_turn(player: Player, state: State) -> None:
        # Mid-hand, late: every seat has cards on the felt, the buttons and the clock show.
        if "turn" not in shots and state["hand"]["street"] >= 6 and in_hand(state) >= 3:
            shots["turn"] = screenshot(player.page, "table-desktop-turn.png")

    ann.play(hands=3, on_showdown=photograph, on_turn=photograph_turn)
    assert ann.shown_hands >= 1, "three hands against two calling stations, and no showdown"
    assert {"check", "call", "bring_in"} & set(ann.clicked), ann.clicked
    assert {"complete", "bet", "raise"} & set(ann.clicked), ann.clicked
    if "desktop" not in shots:  # no showdown of three yet: take the next with two hands shown
        ann.play(hands=2, until=lambda s: "desktop" in shots,
                 on_showdown=lambda player, state: photograph(player, state, players=2))
    assert "desktop" in shots, "no showdown with two hands shown to photograph"
    if os.environ.get("STUD_UPDATE_SCREENSHOT") == "1":
        shutil.copyfile(shots["desktop"], README_SHOT)

    # Back in the lobby the table is listed.
    page.get_by_test_id("lobby-link").click()
    row = page.locator(f'[data-testid="table-row"][data-id="{table_id}"]')
    expect(row).to_contain_text("Friday stud8")
    # The game column gives the game's short name; its full title is the tooltip (issue 12).
    expect(row.locator("td.col-game")).to_have_text("Stud Hi/Lo")
    expect(row.locator("td.col-game")).to_have_attribute("title",
                                                          "Seven Card Stud Hi/Lo (8 or better)")
    screenshot(page, "lobby.png")


def test_german_browser_gets_a_german_lobby_table_and_rules_page_and_can_switch(person):
    bea = person(locale="de-DE")
    page = bea.page
    bea.open_lobby()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.get_by_test_id("create-submit")).to_have_text("Tisch eröffnen")
    expect(page.get_by_test_id("nickname-submit")).to_have_text("Spielen")
    bea.pick_nickname("Bea")
    table_id = bea.create_table("Stud8 am Abend", "stud8", seats=4)
    expect(page.get_by_test_id("rules-link")).to_have_text("Regeln")
    bea.sit(2, 100)
    bea.add_bot(1, "station")
    bea.add_bot(3, "station")

    # German buttons on every turn and German hand names at the showdown (play() checks both).
    state = bea.play(hands=4, until=lambda s: bea.shown_hands >= 1)
    assert bea.shown_hands >= 1
    names = " ".join(hand_name(s["high"], "de")
                     for s in state["last"]["showdown"]["shown"])
    assert any(word in names for word in GERMAN_HAND_WORDS), names
    # The last hands are told in German too, from their events.
    expect(page.get_by_test_id("last-hand").first).to_contain_text("setzt die Ante")

    # The switch changes the language in place: no reload (the marker survives).
    state = bea.play(until=my_turn)
    page.evaluate("window.studNoReload = 1")
    for lang in ("en", "de"):
        page.get_by_test_id("lang-switch").get_by_test_id(f"lang-{lang}").click()
        bea.lang = lang
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page.get_by_test_id("rules-link")).to_have_text(WORDS[lang]["rules"])
        bea.agrees()  # the buttons' labels are now in this language
        assert page.evaluate("window.studNoReload") == 1, "the language switch reloaded"

    # The rules page of the table, in German and then in English.
    rules = state["table"]["rules"]
    page.goto(f"/tables/{table_id}/rules")
    variant, policies = page.get_by_test_id("rules-variant"), page.get_by_test_id("rules-policies")
    expect(variant).to_have_attribute("data-variant", "stud8")
    expect(variant).to_contain_text(WORDS["de"]["variant_stud8"])
    expect(policies).to_contain_text(WORDS["de"]["policies"])
    german = {}
    for name in POLICIES:
        row = policies.get_by_test_id(f"policy-{name}")
        value = str(rules[name]).lower() if isinstance(rules[name], bool) else str(rules[name])
        expect(row).to_contain_text(f"{name} = {value}")
        german[name] = row.inner_text()
    page.evaluate("window.studNoReload = 1")
    page.get_by_test_id("lang-switch").get_by_test_id("lang-en").click()
    expect(variant).to_contain_text(WORDS["en"]["variant_stud8"])
    expect(policies).to_contain_text(WORDS["en"]["policies"])
    for name in POLICIES:
        expect(policies.get_by_test_id(f"policy-{name}")).not_to_have_text(german[name])
    assert page.evaluate("window.studNoReload") == 1, "the language switch reloaded"


def test_phone_table_has_no_horizontal_scroll_and_buttons_that_work(person):
    cy = person(viewport=PHONE, is_mobile=True, has_touch=True)
    page = cy.page
    cy.open_lobby()
    cy.pick_nickname("Cy")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], "lobby"
    cy.create_table("Pocket stud", "stud", seats=5)
    cy.sit(4, 100)
    cy.add_bot(1, "station")
    cy.add_bot(2, "expert")

    def photograph(player: Player, state: State) -> None:
        if player.shown_hands:  # the first showdown with hands shown
            screenshot(player.page, "table-phone.png")

    # play() checks the width on every look and that each button it clicks lies on screen.
    cy.play(hands=3, until=lambda s: cy.shown_hands >= 1, on_showdown=photograph)
    assert cy.clicked, "no action was clicked on the phone"
    assert (SHOTS / "table-phone.png").exists()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # On his turn, scrolled down to the chat and the last hands, the buttons are still on the
    # screen's foot, and nothing of the page is hidden under them for good.
    cy.play(until=my_turn)
    page.mouse.wheel(0, 10_000)
    page.wait_for_function("document.scrollingElement.scrollTop > 0")
    bar = page.get_by_test_id("action-bar").bounding_box()
    assert bar is not None and abs(bar["y"] + bar["height"] - PHONE["height"]) <= 1, bar
    expect(page.locator("button[data-testid^='action-']:visible:enabled").first) \
        .to_be_in_viewport()
    assert page.evaluate("parseFloat(getComputedStyle(document.body).paddingBottom)") \
        >= bar["height"] - 1


def test_reload_mid_hand_restores_seat_own_cards_and_stacks(person):
    dee = person()
    page = dee.page
    dee.open_lobby()
    dee.pick_nickname("Dee")
    dee.create_table("Reload stud", "stud", seats=4)
    dee.sit(2, 100)
    dee.add_bot(1, "station")
    dee.add_bot(4, "station")

    before = dee.play(until=lambda s: my_turn(s) and s["hand"]["street"] >= 4)
    seen = dee.snapshot()
    dee.frames.clear()
    page.reload()
    after = dee.wait(lambda: dee.frames.state, "a state frame after the reload")
    dee.agrees()
    again = dee.snapshot()

    assert after["you"]["seat"] == before["you"]["seat"] == 2
    assert after["hand"]["number"] == before["hand"]["number"]
    assert after["seats"] == before["seats"], "the table changed while it waited for me"
    assert again["seats"]["2"]["me"], "my seat is not marked as mine after the reload"
    for seat in ("1", "2", "4"):
        assert again["seats"][seat]["stack"] == seen["seats"][seat]["stack"], seat
        assert again["seats"][seat]["cards"] == seen["seats"][seat]["cards"], seat
    assert [c["card"] for c in again["seats"]["2"]["cards"] if c["up"] == "false"] == [
        c["card"] for c in before["seats"][1]["cards"] if not c["up"]]
    assert [b["label"] for b in again["buttons"]] == [b["label"] for b in seen["buttons"]]
    dee.play(hands=1)  # the seat plays on after the reload


def test_server_errors_show_in_a_toast(person):
    ann, bob = person(), person()
    ann.open_lobby()
    ann.pick_nickname("Ann")
    table_id = ann.create_table("High stakes", "stud", small_bet=100, seats=4)

    # Bob only watches: sitting asks for a nickname first (the page's own check).
    bob.page.goto(f"/tables/{table_id}")
    bob.wait(lambda: bob.frames.state, "Bob's first frame")
    bob.page.get_by_test_id("sit-2").click()
    expect(bob.page.get_by_test_id("toast")).to_be_visible()
    expect(bob.page.get_by_test_id("toast")).to_have_text("Pick a nickname first.")
    bob.pick_nickname("Bob")
    bob.wait(lambda: bob.frames.state and bob.frames.state["you"]["nickname"] == "Bob",
             "a frame for Bob's account")

    # Bob opens seat 2 while Ann takes it: the server refuses Bob's sit, and the dialog says so
    # beside its field (issue 12: the sit dialog waits for the server's answer).
    bob.page.get_by_test_id("sit-2").click()
    expect(bob.page.get_by_test_id("buy-in-input")).to_be_visible()
    ann.sit(2, 2000)
    bob.wait(lambda: bob.frames.state["seats"][1] is not None, "Bob to see Ann in seat 2")
    bob.page.get_by_test_id("buy-in-input").fill("2000")
    bob.page.get_by_test_id("sit-confirm").click()
    error = bob.wait(lambda: bob.frames.errors and bob.frames.errors[-1], "an error frame")
    assert error["code"] == "seat_taken", error
    # On an English page the server's words, which name the seat, as a sentence.
    expect(bob.page.get_by_test_id("buy-in-error")).to_contain_text("Seat 2 is taken")
    bob.page.get_by_test_id("dialog-cancel").click()

    # A buy-in the table allows but the wallet cannot pay: the page says so and sends nothing.
    errors = len(bob.frames.errors)
    bob.page.get_by_test_id("sit-3").click()
    bob.page.get_by_test_id("buy-in-input").fill("20000")
    bob.page.get_by_test_id("sit-confirm").click()
    expect(bob.page.get_by_test_id("buy-in-error")).to_have_text(
        "Your wallet holds 10,000 chips.")
    assert len(bob.frames.errors) == errors
    assert bob.frames.state["you"]["seat"] is None


def test_buy_in_typed_while_the_table_plays_is_kept(person):
    # State frames come several times a second while bots play; the dialog must not reset.
    eve, fay = person(), person()
    eve.open_lobby()
    eve.pick_nickname("Eve")
    table_id = eve.create_table("Busy stud", "stud", seats=4)
    eve.add_bot(1, "station")
    eve.add_bot(2, "station")
    fay.open_lobby()
    fay.pick_nickname("Fay")
    fay.page.goto(f"/tables/{table_id}")
    fay.wait(lambda: fay.frames.state and fay.frames.state["hand"], "a hand between the bots")
    fay.page.get_by_test_id("sit-4").click()
    fay.page.get_by_test_id("buy-in-input").fill("123")
    frames = fay.frames.count
    fay.wait(lambda: fay.frames.count >= frames + 3, "three more frames while the bots play")
    assert fay.page.get_by_test_id("buy-in-input").input_value() == "123"


def test_a_seated_player_adds_chips_between_hands(person):
    gus = person()
    gus.open_lobby()
    gus.pick_nickname("Gus")
    gus.create_table("Top-up stud", "stud", seats=4)
    gus.sit(2, 100)  # alone: no hand, so chips may be added
    gus.page.get_by_test_id("rebuy").click()
    gus.page.get_by_test_id("buy-in-input").fill("150")
    gus.page.get_by_test_id("sit-confirm").click()
    state = gus.wait(lambda: gus.frames.state and gus.frames.state["seats"][1]["stack"] == 250
                     and gus.frames.state, "a stack of 250 after adding 150")
    assert state["you"]["wallet"] == 10_000 - 250
    expect(gus.page.get_by_test_id("stack-2")).to_contain_text("250")


AGREE = """([facts, lang]) => {
  const i = window.studI18n;
  const seat = (n) => `Seat ${n}`;
  return {
    hands: facts.hands.map((v) => i.handText(v, lang)),
    whys: facts.whys.map((w) => i.firstToAct(w, seat, lang)),
    awards: facts.awards.map((a) => [i.awardLines(a, seat, lang), i.oddChipsText(a, seat, lang)]),
    actions: facts.actions.map((e) => i.takenText(e, seat(e.seat), lang)),
    streets: facts.streets.map((n) => i.streetName(n, lang)),
  };
}"""


def _facts(seed: int) -> tuple[dict[str, list[Any]], dict[str, list[Any]]]:
    """Facts of many random hands with small stacks (all-ins, side pots, ties, odd chips), as
    frames send them and as the engine has them."""
    import random

    from stud.bots import make_bot
    from stud.cards import Deck
    from stud.engine import ActionTaken, HandShown, StreetStarted
    from stud.rules import PROFILES, Stakes, Variant
    from stud.server.frames import award_json, event_json, first_json, value_json
    from stud.table import Table

    rng = random.Random(seed)
    bots = [make_bot("random", seed), make_bot("station")]  # stations go to showdowns: ties
    sent: dict[str, list[Any]] = {"hands": [], "whys": [], "awards": [], "actions": [],
                                  "streets": [3, 4, 5, 6, 7]}
    kept: dict[str, list[Any]] = {key: [] for key in sent}
    seat_of = int  # the facts' own seat numbers: the test names them "Seat n"
    for n in range(240):
        table = Table(list(Variant)[n % 3], Stakes.for_limit(2),
                      PROFILES[("standard", "pokerkit")[n % 2]], 8)
        for seat in range(1, rng.randint(2, 8) + 1):
            table.sit(seat, f"p{seat}", rng.choice((3, 5, 9, 20, 60)))
        hand = table.start_hand(Deck.seeded(rng.randrange(2**32)))
        bot = bots[n % 4 // 2]
        while not hand.is_over:
            hand.act(bot.act(hand.view(hand.to_act)), hand.to_act)
        for e in hand.public_events():
            if isinstance(e, HandShown):
                for value in (e.high, e.low):
                    if value is not None:
                        sent["hands"].append(value_json(value))
                        kept["hands"].append(value)
            elif isinstance(e, StreetStarted):
                sent["whys"].append(first_json(e.why, seat_of))
                kept["whys"].append(e.why)
            elif isinstance(e, PotAwarded):
                sent["awards"].append(award_json(e, seat_of))
                kept["awards"].append(e)
            elif isinstance(e, ActionTaken):
                sent["actions"].append(event_json(e, seat_of))
                kept["actions"].append(e)
    # What random play rarely makes: odd chips by each rule, identical hands taking a whole hi/lo
    # pot, a low half nobody can claim (PokerKit's halves), a tie for first to act.
    high = HandValue.of(ValueKind.HIGH, parse_cards("AsAdTsTc4h3d2c"))
    low = HandValue.of(ValueKind.LOW8, parse_cards("AsAdTsTc4h3d2c"))
    made = [PotAwarded(0, 41, Half.HIGH, ((2, 21), (5, 20)), high, None, False, False,
                       OddChips(1, (2,), "suit"), True),
            PotAwarded(1, 11, Half.LOW, ((3, 4), (4, 4), (6, 3)), None, low, False, False,
                       OddChips(2, (3, 4), "suit"), False),
            PotAwarded(0, 9, Half.ALL, ((1, 5), (2, 4)), high, low, False, False,
                       OddChips(1, (1,), "seat"), False),
            PotAwarded(0, 6, Half.LOW, ((1, 3), (2, 3)), None, None, False, True, None, False)]
    tie = FirstToAct(street=5, opener=Opener.BEST_HAND, seat=4, decider=3,
                     cards=parse_cards("KsKd9c"), lowball=False, decider_all_in=True, tie=True,
                     open_pair=False, decider_folded=False)
    sent["awards"] += [award_json(a, seat_of) for a in made]
    kept["awards"] += made
    # Seventh street after a community card, sixth street's first actor folded since.
    folded = tie._replace(street=7, opener=Opener.SIXTH_STREET, cards=(), decider_all_in=False,
                          tie=False, decider_folded=True)
    for why in (tie, folded):
        sent["whys"].append(first_json(why, seat_of))
        kept["whys"].append(why)
    return sent, kept


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_pages_word_facts_as_stud_text_does(browser: Browser, site: Server, lang: str) -> None:
    # One dictionary, two renderers of it: the page's (i18n.js) and stud.text's must say the
    # same facts in the same words, hand names, reasons, awards and actions alike.
    sent, kept = _facts(seed=5)
    assert any(w.decider_all_in for w in kept["whys"]) and any(a.odd for a in kept["awards"])
    assert any(w.decider_folded for w in kept["whys"])
    assert any(w.open_pair for w in kept["whys"]) and any(a.no_low for a in kept["awards"])
    context = browser.new_context(base_url=site.url)
    try:
        page = context.new_page()
        page.goto("/")
        page.wait_for_function("window.studI18n !== undefined")
        said = page.evaluate(AGREE, [sent, lang])
    finally:
        context.close()
    say = words(lang)

    def seat(n: int) -> str:
        return f"Seat {n}"

    assert said["hands"] == [say.hand(v) for v in kept["hands"]]
    assert said["whys"] == [with_symbols(say.first_to_act(w, seat)) for w in kept["whys"]]
    assert said["awards"] == [[say.award(a, seat), say.odd_chips(a, seat) or ""]
                              for a in kept["awards"]]
    assert said["actions"] == [say.taken(e, seat(e.seat)) for e in kept["actions"]]
    assert said["streets"] == [say.street(n) for n in sent["streets"]]


# ------------------------------------------------------------------ keyboard and screen readers
# A player with the keyboard alone (and a screen reader): Tab, Shift-Tab, Enter, Escape.

FOCUSED = "() => (document.activeElement && document.activeElement.dataset.testid) || ''"
SAFE_ACTION = "#actions button.action:not([disabled]):not([data-action='fold'])"


def tab_to(page: Page, testid: str, presses: int = 80) -> None:
    """Presses Tab until the control ``testid`` has the focus, as a keyboard user would."""
    for _ in range(presses):
        page.keyboard.press("Tab")
        if page.evaluate(FOCUSED) == testid:
            return
    raise AssertionError(f"{presses} presses of Tab never reached {testid}")


def in_dialog(page: Page) -> bool:
    return bool(page.evaluate("() => Boolean(document.activeElement.closest('[role=dialog]'))"))


def sit_by_keyboard(player: Player, seat: int, buy_in: int) -> None:
    page = player.page
    tab_to(page, f"sit-{seat}")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("buy-in-input")).to_be_focused()
    page.keyboard.press("Control+A")
    page.keyboard.type(str(buy_in))
    page.keyboard.press("Enter")
    player.wait(lambda: player.seat == seat, f"a frame with me in seat {seat}")


def test_dialogs_take_the_focus_keep_it_and_give_it_back_to_their_button(person) -> None:
    """The sit, add-chips and add-bot dialogs are named by their titles; the focus moves into
    them, Tab and Shift-Tab go round inside them, and Escape, a choice or a confirmed sit gives
    the focus back to the button that opened them (or the one in its place)."""
    ann = person()
    ann.open_lobby()
    ann.pick_nickname("KeyAnn")
    ann.create_table("Keys", "stud", seats=3)
    page = ann.page
    tab_to(page, "sit-2")
    page.keyboard.press("Enter")
    dialog = page.get_by_role("dialog", name="Sit in seat 2")
    expect(dialog).to_be_visible()
    expect(page.get_by_test_id("buy-in-input")).to_be_focused()
    for key in ["Tab"] * 4 + ["Shift+Tab"] * 4:  # three controls: each way round, and on
        page.keyboard.press(key)
        assert in_dialog(page), f"{key} left the dialog for {page.evaluate(FOCUSED)!r}"
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(page.get_by_test_id("sit-2")).to_be_focused()
    # Sitting down: the sit button is gone, the focus is on the seat's own controls.
    page.keyboard.press("Enter")
    page.keyboard.press("Control+A")
    page.keyboard.type("100")
    page.keyboard.press("Enter")
    ann.wait(lambda: ann.seat == 2, "me in seat 2")
    expect(page.get_by_test_id("sit-out")).to_be_focused()
    # Add chips, then Escape: back on Add chips.
    tab_to(page, "rebuy")
    page.keyboard.press("Enter")
    expect(page.get_by_role("dialog", name="Add chips to seat 2")).to_be_visible()
    expect(page.get_by_test_id("buy-in-input")).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("rebuy")).to_be_focused()
    # A bot: the focus goes to the first choice (not left on "Add bot" behind the backdrop),
    # and after the choice to the bot's remove button that took the place of "Add bot".
    page.get_by_test_id("leave").focus()
    page.keyboard.press("Enter")  # alone at the table: no hand, so the bot will deal none
    ann.wait(lambda: ann.seat is None, "me gone from seat 2")
    tab_to(page, "add-bot-1")
    page.keyboard.press("Enter")
    expect(page.get_by_role("dialog", name="A bot for seat 1")).to_be_visible()
    expect(page.get_by_test_id("bot-random")).to_be_focused()
    page.keyboard.press("Shift+Tab")
    assert in_dialog(page)
    page.keyboard.press("Tab")
    expect(page.get_by_test_id("bot-random")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.get_by_test_id("bot-station")).to_be_focused()
    page.keyboard.press("Enter")
    ann.wait(lambda: ann.frames.state["seats"][0] is not None, "a bot in seat 1")
    expect(page.get_by_test_id("remove-bot-1")).to_be_focused()


def test_the_focus_stays_on_the_control_that_takes_the_place_of_the_one_used(person) -> None:
    """Sit out becomes Sit in, Pause becomes Resume, Leave leaves a free seat: the focus moves
    to what replaced the control used, never back to the page's start."""
    ann = person()
    ann.open_lobby()
    ann.pick_nickname("KeyAnn")
    ann.create_table("Keys", "stud", seats=3)
    page = ann.page
    sit_by_keyboard(ann, 1, 100)  # alone: no hand is dealt
    tab_to(page, "sit-out")
    for press, now in (("sit-out", "sit-in"), ("sit-in", "sit-out")):
        expect(page.get_by_test_id(press)).to_be_focused()
        page.keyboard.press("Enter")
        expect(page.get_by_test_id(now)).to_be_focused()
    tab_to(page, "host-pause")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("host-resume")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("host-pause")).to_be_focused()
    tab_to(page, "leave")
    page.keyboard.press("Enter")
    ann.wait(lambda: ann.seat is None, "me gone from seat 1")
    expect(page.get_by_test_id("sit-1")).to_be_focused()


def test_a_keyboard_player_finds_a_safe_action_focused_at_the_first_turn(person) -> None:
    """Keyboard use before any action (Tab to a seat, Enter) counts: at the first turn after
    sitting down the focus is already on the first action that is not Fold, so Enter never
    folds (README: "Enter never folds")."""
    ann = person()
    ann.open_lobby()
    ann.pick_nickname("KeyAnn")
    ann.create_table("Keys", "stud", seats=2)
    ann.add_bot(1, "station")  # with the mouse; the rest with the keyboard
    page = ann.page
    sit_by_keyboard(ann, 2, 100)
    ann.wait(lambda: my_turn(ann.frames.state), "my first turn")
    expect(page.locator(SAFE_ACTION).first).to_be_focused()
    hand = ann.frames.state["hand"]["number"]
    page.keyboard.press("Enter")

    def mine() -> list[dict[str, Any]]:
        state = ann.frames.state
        return [e for e in ((state["hand"] or state["last"] or {}).get("events") or [])
                if e["kind"] == "action" and e["seat"] == 2]

    ann.wait(mine, "my action in the hand")
    assert ann.frames.state["hand"]["number"] == hand
    assert mine()[0]["action"] != "fold", mine()
    # Between turns the focus waits on the actions' place, not on Sit out or Leave (where a
    # second Enter would do harm); at the next turn it is on a safe action again.
    assert page.evaluate(FOCUSED) in ("actions", "action-check", "action-call",
                                      "action-bring_in"), page.evaluate(FOCUSED)
    ann.wait(lambda: my_turn(ann.frames.state) and len(mine()) >= 1
             and ann.frames.state["hand"]["to_act"] == 2 and ann.frames.state, "my next turn")
    expect(page.locator(SAFE_ACTION).first).to_be_focused()


def test_enter_in_the_sit_dialog_counts_as_the_keyboard_and_the_first_turn_is_focused(
        person) -> None:
    """Play now and a click on a seat open the sit dialog with the focus in its buy-in field;
    Enter there sits the player, who uses the keyboard from then on: at the first turn the focus
    is on a safe action, not left on Sit out, where Enter sat the player out (and in again)."""
    ann = person()
    ann.open_lobby()
    ann.pick_nickname("EnterAnn")
    ann.create_table("Enter", "stud", seats=2)
    ann.add_bot(1, "station")
    page = ann.page
    page.get_by_test_id("sit-2").click()  # a pointer
    expect(page.get_by_test_id("buy-in-input")).to_be_focused()
    page.keyboard.press("Enter")
    ann.wait(lambda: ann.seat == 2, "a frame with me in seat 2")
    ann.wait(lambda: my_turn(ann.frames.state), "my first turn")
    expect(page.locator(SAFE_ACTION).first).to_be_focused()


def heads_up_with_a_bot(ann: Player, table: str) -> None:
    """Ann, in the lobby, opens a two-seat stud table, sits in seat 2 and puts a station bot in
    seat 1."""
    ann.open_lobby()
    ann.pick_nickname("Ann")
    ann.create_table(table, "stud", seats=2)
    ann.sit(2, 100)
    ann.add_bot(1, "station")


def test_screen_readers_hear_stacks_bets_the_turn_and_cards_in_words(
        person, monkeypatch: pytest.MonkeyPatch) -> None:
    """Stacks and bets are said with what they are ("stack 99", "bet 1"), the felt's status is
    a polite live region, and cards are named in words, in the hand log too (a card's back
    included), in English and German."""
    from stud.server import room as room_module

    from .test_browser_stumbles import stacked

    deck = stacked(("7c3d2c8h9dJsTd", "AhKdAsKhAdKsQh"))  # seat 1 (the bot), seat 2 (Ann)
    monkeypatch.setattr(room_module, "Deck", SimpleNamespace(shuffled=lambda: deck))
    ann = person()
    heads_up_with_a_bot(ann, "Ears")
    page = ann.page
    # The bot's 2c brings in; the page then waits for me, the bring-in on the felt.
    state = ann.wait(lambda: my_turn(ann.frames.state) and ann.frames.state, "my turn")
    me = state["seats"][1]
    seat = page.get_by_test_id("seat-2")
    expect(seat.locator(".sr-only").first).to_have_text("stack ")
    expect(seat).to_contain_text(f"stack {chips(me['stack'], 'en')}")
    box = seat.locator(".sr-only").first.bounding_box()
    assert box and box["width"] <= 1 and box["height"] <= 1, box  # heard, not seen
    wagers = [p for p in state["seats"] if p and p["wager"] > 0]
    assert wagers, state["seats"]
    expect(page.get_by_test_id(f"wager-{wagers[0]['seat']}")).to_contain_text(
        f"bet {wagers[0]['wager']}")
    status = page.get_by_test_id("felt-status")
    expect(status).to_have_attribute("aria-live", "polite")
    down = next(c["card"] for c in me["cards"] if not c["up"])
    rank, suit = down[0], down[1]
    english = {"A": "Ace", "K": "King", "Q": "Queen", "J": "Jack", "T": "Ten", "9": "Nine",
               "8": "Eight", "7": "Seven", "6": "Six", "5": "Five", "4": "Four",
               "3": "Three", "2": "Two"}[rank]
    suits = {"s": ("spades", "Pik"), "h": ("hearts", "Herz"), "d": ("diamonds", "Karo"),
             "c": ("clubs", "Kreuz")}[suit]
    mine = seat.locator(f'[data-card="{down}"]').first
    expect(mine).to_have_accessible_name(f"{english} of {suits[0]}, face down")
    log = page.get_by_test_id("hand-log")
    expect(log.get_by_role("img", name=f"{english} of {suits[0]}")).not_to_have_count(0)
    expect(log.get_by_role("img", name="face-down card")).not_to_have_count(0)  # the bot's
    page.get_by_test_id("lang-de").click()
    german = {"A": "Ass", "K": "König", "Q": "Dame", "J": "Bube", "T": "Zehn", "9": "Neun",
              "8": "Acht", "7": "Sieben", "6": "Sechs", "5": "Fünf", "4": "Vier",
              "3": "Drei", "2": "Zwei"}[rank]
    expect(seat.locator(f'[data-card="{down}"]').first).to_have_accessible_name(
        f"{suits[1]} {german}, verdeckt")
    expect(page.get_by_test_id("hand-log").get_by_role("img", name="verdeckte Karte")) \
        .not_to_have_count(0)
    expect(page.get_by_test_id("seat-2").locator(".sr-only").first).to_have_text("Stack ")


def _luminance(color: str) -> float:
    r, g, b = (int(c) / 255 for c in re.findall(r"\d+(?:\.\d+)?", color)[:3])
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _contrast(one: str, two: str) -> float:
    a, b = sorted((_luminance(one), _luminance(two)), reverse=True)
    return (a + 0.05) / (b + 0.05)


RING = """(node) => {
  const style = getComputedStyle(node);
  const colors = (text) => text.match(/rgba?\\([^)]*\\)/g) || [];
  const solid = (c) => !/rgba\\([^)]*,\\s*0\\)$/.test(c);
  const rings = [];
  const outlined = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2;
  if (outlined) rings.push(style.outlineColor);
  // A box-shadow drawn as a ring: no blur, a spread of 2px or more.
  for (const shadow of style.boxShadow === "none" ? [] : style.boxShadow.split(/,(?![^(]*\\))/)) {
    const [color] = colors(shadow);
    const sizes = shadow.replace(color, "").trim().split(/\\s+/).map(parseFloat);
    if (color && sizes.length >= 4 && sizes[2] === 0 && sizes[3] >= 2) rings.push(color);
  }
  return {
    focusVisible: node.matches(":focus-visible"),
    rings,
    faces: [...colors(style.backgroundImage), style.backgroundColor].filter(solid),
  };
}"""
PAGE_BACKGROUND = "rgb(14, 23, 18)"  # --bg


def test_the_focus_ring_shows_on_every_button_colour(person) -> None:
    """A focused button (focus-visible, from the keyboard) has a ring of 3:1 contrast or more
    against each of its own colours (the yellow ones too) and against the page."""
    ann = person()
    heads_up_with_a_bot(ann, "Rings")
    page = ann.page
    ann.wait(lambda: my_turn(ann.frames.state), "my turn")
    page.keyboard.press("Shift")  # the keyboard in use: focus() shows the ring
    checked = []
    for selector in ("#actions button.action", "#my-controls button", ".host-panel button",
                     '[data-testid="chat-send"]'):
        for node in page.locator(selector).all():
            node.focus()
            ring = node.evaluate(RING)
            if not ring["focusVisible"]:
                continue
            name = node.inner_text()
            assert any(all(_contrast(r, f) >= 3 for f in ring["faces"]) for r in ring["rings"]), (
                f"{name!r}: no ring stands out from its colours {ring}")
            assert any(_contrast(r, PAGE_BACKGROUND) >= 3 for r in ring["rings"]), (
                f"{name!r}: no ring stands out from the page {ring}")
            checked.append(name)
    assert any(n.startswith(("Complete", "Bring")) for n in checked) and "Send" in checked, checked


def _covers(box: dict[str, float], others: list[dict[str, float]]) -> list[dict[str, float]]:
    return [o for o in others if o["x"] < box["x"] + box["width"] and o["x"] + o["width"] > box["x"]
            and o["y"] < box["y"] + box["height"] and o["y"] + o["height"] > box["y"]]


CONTROLS = """() => [...document.querySelectorAll('button, a[href], input, select, summary')]
  .filter((n) => !n.closest('#toast') && n.getClientRects().length
    && getComputedStyle(n).visibility !== 'hidden')
  .map((n) => { const r = n.getBoundingClientRect();
    return {x: r.x, y: r.y, width: r.width, height: r.height,
            id: n.dataset.testid || n.textContent}; })
  .filter((r) => r.width > 0 && r.height > 0 && r.y < innerHeight && r.y + r.height > 0)"""


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 860}, PHONE],
                         ids=["desktop", "phone"])
def test_a_refused_chat_line_and_a_toast_cover_no_control(person, viewport) -> None:
    """A chat line refused for the rate is said beside the chat's field, not over the sit-out
    and leave buttons; a toast finds a place on the table page where it covers no control."""
    ann = person(viewport=viewport)
    heads_up_with_a_bot(ann, "Toasts")
    page = ann.page
    ann.wait(lambda: my_turn(ann.frames.state), "my turn")
    long = "chat: at most 5 lines in 10 seconds; wait 9 s"  # as long as the chat's refusal
    page.evaluate("(text) => import('/static/lobby.js').then((m) => m.toast(text))", long)
    toast = page.get_by_test_id("toast")
    expect(toast).to_be_visible()
    page.wait_for_timeout(400)  # its fade-in has moved it into place
    shown = toast.bounding_box()
    assert shown
    covered = _covers(shown, page.evaluate(CONTROLS))
    screenshot(page, f"toast-{viewport['width']}.png")
    assert not covered, f"the toast {shown} covers {covered}"
    box = page.get_by_test_id("chat-input")
    for n in range(6):
        box.fill(f"line {n}")
        box.press("Enter")
    problem = page.get_by_test_id("chat-error")
    expect(problem).to_contain_text("5 lines")  # the server's words name the limit
    expect(problem).to_have_attribute("role", "alert")
    shown = problem.bounding_box()
    assert shown
    assert not _covers(shown, page.evaluate(CONTROLS)), _covers(shown, page.evaluate(CONTROLS))
