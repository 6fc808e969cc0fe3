"""The terminal game as a player meets it: what a typed action means or why it is refused (in
English and German), leaving in the middle of a hand, the equity table in a narrow terminal."""

from __future__ import annotations

import re

import pytest

from scenarios import play_and_leave
from stud.engine import Action
from stud.rules import Stakes, Variant, profile
from stud.terminal import parse_choice, play_session
from stud.text import words

THIRD = (Action.fold(), Action.call(2), Action.complete(5))
FACING = (Action.fold(), Action.call(5), Action.raise_to(10))


@pytest.mark.parametrize("typed", ["complete ²", "complete ⑤", "call ٥", "raise ５"])
def test_an_amount_not_in_the_digits_0_to_9_is_refused_as_a_bad_amount(typed: str) -> None:
    legal = THIRD if typed.startswith("complete") else FACING
    with pytest.raises(ValueError, match=f"^'{typed}' is not an action: '{typed.split()[1]}' "
                       "is not an amount; type amounts in the digits 0 to 9, like 'raise 10'$"):
        parse_choice(typed, legal)
    with pytest.raises(ValueError, match=f"^'{typed}' ist keine Aktion: '{typed.split()[1]}' "
                       "ist kein Betrag; gib Beträge mit den Ziffern 0 bis 9 ein, wie "
                       "'erhöhen 10'$"):
        parse_choice(typed, legal, w=words("de"))


def test_a_bet_in_other_digits_is_refused_where_only_a_bet_is_possible() -> None:
    legal = (Action.check(), Action.bet(5))
    with pytest.raises(ValueError, match="'⑤' is not an amount"):
        parse_choice("bet ⑤", legal)
    with pytest.raises(ValueError, match="'²' is not an amount"):
        parse_choice("b ²", legal)


@pytest.mark.parametrize("typed, verb", [("fold 5", "fold"), ("f 5", "fold"),
                                         ("check 3", "check"), ("k 3", "check")])
def test_an_action_that_takes_no_amount_says_so(typed: str, verb: str) -> None:
    legal = (Action.fold(), Action.check(), Action.bet(5))
    with pytest.raises(ValueError, match=f"^'{typed}' is not an action: {verb} takes no amount; "
                       f"type '{verb}' alone$"):
        parse_choice(typed, legal)


def test_an_action_that_takes_no_amount_says_so_in_german() -> None:
    with pytest.raises(ValueError, match="^'passen 5' ist keine Aktion: passen nimmt keinen "
                       "Betrag; gib nur 'passen' ein$"):
        parse_choice("passen 5", FACING, w=words("de"))


def test_a_german_refusal_lists_the_menu_as_a_list_not_mid_sentence() -> None:
    """The menu's labels are nouns in German ("Komplettieren auf 5"): they follow "möglich:",
    never "du kannst"."""
    bring_in = (Action.bring_in(2), Action.complete(5))
    de = words("de")
    with pytest.raises(ValueError, match="^du kannst jetzt nicht erhöhen: auf der dritten Straße "
                       "ist die erste Erhöhung das Komplettieren; möglich: Bring-In 2 oder "
                       "Komplettieren auf 5$"):
        parse_choice("erhöhen 10", bring_in, w=de)
    refusals = [("passen", bring_in), ("passen", (Action.check(), Action.bet(5))),
                ("mitgehen 5", (Action.check(), Action.bet(5)))]
    for typed, legal in refusals:
        with pytest.raises(ValueError) as error:
            parse_choice(typed, legal, w=de)
        assert "; möglich: " in str(error.value) and "du kannst Checken" not in str(error.value)


@pytest.mark.parametrize("typed", ["all in", "allin", "all-in", "ALL IN", "All-In"])
def test_all_in_is_the_wager_that_puts_in_every_chip(typed: str) -> None:
    short = (Action.fold(), Action.call(5), Action.raise_to(8))
    assert parse_choice(typed, short, most=8) is short[2]
    assert parse_choice(typed, (Action.check(), Action.bet(4)), most=4).to == 4
    assert parse_choice(typed, (Action.bring_in(2), Action.complete(3)), most=3).to == 3
    # Where calling is all one can do, all in is the call.
    assert parse_choice(typed, (Action.fold(), Action.call(4)), wager=1, most=4).to == 4


@pytest.mark.parametrize("typed", ["all-in", "alles", "all in", "allin"])
def test_all_in_in_german(typed: str) -> None:
    short = (Action.fold(), Action.call(5), Action.raise_to(8))
    assert parse_choice(typed, short, w=words("de"), most=8) is short[2]


def test_all_in_where_no_action_puts_in_every_chip_says_what_one_can_do() -> None:
    with pytest.raises(ValueError, match="^you cannot go all in now: no action puts in all your "
                       "chips; you may fold, call 5 or raise to 10$"):
        parse_choice("all in", FACING, most=200)
    with pytest.raises(ValueError, match="^du kannst jetzt nicht all-in gehen: keine Aktion "
                       "setzt alle deine Chips; möglich: Passen, Mitgehen 5 oder Erhöhen auf 10$"):
        parse_choice("alles", FACING, w=words("de"), most=200)


def _leave_on_seventh(leave: BaseException) -> tuple[list[str], int]:
    """Two stations and you, checking and calling to seventh street, where you leave by
    ``leave``; the lines written and how many there were when you left."""
    left: list[int] = []

    def go(lines: list[str]) -> str:
        left.append(len(lines))
        raise leave

    return play_and_leave("*** SEVENTH", go, window=30), left[0]


@pytest.mark.parametrize("leave", [KeyboardInterrupt(), EOFError()])
def test_leaving_mid_hand_ends_the_prompts_line_and_shows_the_showdown(
        leave: BaseException) -> None:
    lines, at = _leave_on_seventh(leave)
    after = lines[at:]
    # ^C or ^D leaves the cursor after "> ": the next text starts on a line of its own.
    assert after[0] == "" or after[0].startswith("\n"), after[:3]
    text = "\n".join(after)
    result = text.index("--- Result ---")
    showdown = text[:result]
    assert re.search(r"station-\d shows ", showdown), text
    assert "You show" in showdown or "You muck" in showdown, text


def _call_down_stud8(monkeypatch: pytest.MonkeyPatch, columns: int) -> list[str]:
    monkeypatch.setenv("COLUMNS", str(columns))
    lines: list[str] = []

    def read(prompt: str) -> str:
        if prompt.startswith("Enter for the next hand"):
            return "q"
        return "i" if "bring in" in prompt else "c"

    play_session(Variant.STUD8, Stakes(1, 2, 5, 10), profile("standard"), ["station"] * 5, 50,
                 seed=2, read=read, write=lines.append)
    return lines


def _table(lines: list[str]) -> list[str]:
    """The rows of the equity-by-street table among ``lines``."""
    start = next(k for k, line in enumerate(lines) if line.startswith("Equity by street"))
    end = next(k for k in range(start, len(lines)) if "You leave with" in lines[k])
    return [row for text in lines[start + 1:end] for row in text.split("\n")]


def test_the_equity_by_street_table_fits_a_narrow_terminal(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    """60 columns: the players in blocks, each under its own header, with the same shares as
    the one block of a wide terminal."""
    wide = _table(_call_down_stud8(monkeypatch, 200))
    narrow = _table(_call_down_stud8(monkeypatch, 60))
    assert all(len(row) <= 60 for row in narrow), narrow
    assert sum(row.strip().startswith("third street") for row in wide) == 1, wide

    def columns(table: list[str]) -> dict[str, list[str]]:
        """Each player's shares, street by street, read under the headers."""
        shares: dict[str, list[str]] = {}
        names: list[str] = []
        for row in table:
            if row.strip() and "%" not in row:
                names = row.split()
            elif "%" in row:
                for name, share in zip(names, row.split()[2:], strict=True):
                    shares.setdefault(name, []).append(share)
        return shares

    assert len(columns(wide)) > 3, wide
    assert columns(narrow) == columns(wide), narrow
    blocks = [row for row in narrow if row.strip() and "%" not in row]
    assert len(blocks) > 1, narrow
