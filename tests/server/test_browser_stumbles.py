"""What players stumbled on (issue 12), each point checked in a real browser.

The tests click only what the page shows, as tests/server/test_browser.py does (whose
fixtures and Player they share). Where a point needs particular cards, every hand of the test
is dealt from a stacked deck (``deal``): the server runs in this process, so its room takes
the deck the test gives it.
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest

from stud.cards import CARDS, Deck, parse_cards
from stud.server import room as room_module

from . import test_browser as house
from .test_browser import Player, expect, my_turn

# The house's fixtures: one chromium for the module, a server, a new user per person().
browser, site, person = house.browser, house.site, house.person

Deal = Callable[..., None]


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
