"""Winamax hand histories (``Winamax Poker - CashGame - HandId: #...``, tournaments
``Winamax Poker - Tournament "..."``): 7-Card Stud, Hi/Lo and Razz, real and play money, the
streets ``*** 3rd STREET ***`` or ``*** THIRD ***``; the stakes are the header's ``(ante/small
bet/big bet)``. Cards dealt are ``Dealt to NAME [X X 9h]``, then ``[X X 9h] [Kh]`` (the new
card last, ``X`` unknown); an exported history may write none, and its cards are unknown.

Winamax writes no uncalled bet going back: the winner ``collected`` it with the pot (the
summary's ``Total pot`` counts it too). Calls and bets are the chips they add; ``raises X to Y``
gives the player's total on the street, not counting a bring-in he posted on it (the bring-in
player ``raises -6.10€ to 18.90€``: all in for 18.90 more).
"""

from __future__ import annotations

import re

from stud.history.sites.inferred import (
    Dealing,
    cancelled,
    first_bring_in,
    in_dealing_order,
    put_in,
)
from stud.history.sites.model import (
    Act,
    Ante,
    Cancelled,
    Collected,
    Dealt,
    Mucked,
    Seat,
    Shown,
    SiteError,
    SiteHand,
)
from stud.history.sites.reading import (
    CURRENCIES,
    LineReader,
    amount,
    card,
    is_money,
    named,
    split_at,
)
from stud.rules import Variant

SITE = "winamax"
HEADER = re.compile(r"^Winamax Poker - (.*?)HandId: #([\d-]+) - (.+)$", re.M)
_GAME = re.compile(r"^(.+?) \(([^()/]+)/([^()/]+)/([^()/]+)\) - (.+)$")
_SEAT = re.compile(r"^Seat (\d+): (.+) \(([-\d.,]+\s*[$€£]?)(?:,[^()]*)?\)$")
_STREETS = {"3rd STREET": 3, "THIRD": 3, "4th STREET": 4, "FOURTH": 4, "5th STREET": 5,
            "FIFTH": 5, "6th STREET": 6, "SIXTH": 6, "7th STREET": 7, "SEVENTH": 7,
            "RIVER": 7}
_SECTION = re.compile(r"^\*\*\* (.+?) \*\*\*$")
_AMOUNT = r"(-?[\d.,]+(?:\s?[$€£])?)"
_ALL_IN = re.compile(r"\s+and is all-in\s*$")
_IGNORED = re.compile(r"^.+ (?:joins the table|leaves the table|sits out|is sitting out|"
                      r"is back|has returned|is disconnected|is connected|has timed out|"
                      r"will be allowed to play after the button|said, .*)$")


def detect(text: str) -> bool:
    return bool(HEADER.search(text))


def split(text: str) -> list[tuple[int, str]]:
    """Each hand's text, with the line it starts on (1-based)."""
    return split_at(HEADER, text)


def _variant(game: str, line: int) -> Variant:
    name = game.casefold().replace("-", " ")
    if "stud" in name and ("hi/lo" in name or "hi lo" in name):
        return Variant.STUD8
    if "razz" in name:
        return Variant.RAZZ
    if re.search(r"\b7 ?card stud\b|\b7stud\b", name):
        return Variant.STUD
    raise SiteError(f"not a stud hand: the game is {game.strip()!r}", line)


def parse(text: str, first_line: int = 1) -> SiteHand:
    """One hand's text (from its header line) as a ``SiteHand``."""
    lines = text.split("\n")
    match = HEADER.match(lines[0])
    if match is None:
        raise SiteError("no Winamax hand header", first_line)
    game = _GAME.match(match.group(3).strip())
    if game is None:
        raise SiteError("the header gives no game and stakes (ante/small bet/big bet)",
                        first_line)
    kind = match.group(1).strip(" -")
    variant = _variant(game.group(1), first_line)
    tournament = re.search(r'Tournament "([^"]*)"', kind)
    cash = not tournament and any(is_money(game.group(g)) for g in (2, 3, 4))
    unit = 100 if cash else 1
    sign = re.search(r"[$€£]", game.group(3))
    hand = SiteHand(
        site=SITE, hand=match.group(2), variant=variant,
        small_bet=amount(game.group(3), unit, first_line),
        big_bet=amount(game.group(4), unit, first_line), seats=[],
        ante=amount(game.group(2), unit, first_line),
        tournament=tournament.group(1) if tournament else None,
        currency=CURRENCIES[sign.group(0)] if cash and sign else None,
        game=game.group(1).strip(), time=game.group(5).strip())
    _Reader(hand, unit, first_line).read(lines[1:])
    return hand


class _Reader(LineReader):
    """The lines after the header: the table, the seats, then the hand and its summary."""

    def __init__(self, hand: SiteHand, unit: int, first_line: int) -> None:
        super().__init__(hand, unit, first_line)
        self.dealing = Dealing(hand.steps, hand.seats)
        self.section = ""
        self.chips: dict[str, int] = {}  # this street's chips by player
        self.brought_in: dict[str, int] = {}  # this street's bring-in by player
        self.pot: int | None = None  # the summary's total pot and rake
        self.summary = False

    def read(self, lines: list[str]) -> None:
        for k, raw in enumerate(lines, self.first_line + 1):
            line = raw.strip()
            if line:
                self.line(line, k)
        hand = self.hand
        self.dealing.close()
        if not any(isinstance(s, Dealt) for s in hand.steps):
            raise SiteError("the hand deals no cards (cut short?)", self.first_line)
        if self.pot is None:
            raise SiteError("the hand has no summary: the history is cut short",
                            self.first_line + len(lines))
        total = sum(put_in(hand.steps).values())
        if total != self.pot + hand.rake:
            raise SiteError(f"the actions put {total} in the pot, the summary says "
                            f"{self.pot} and a rake of {hand.rake}", self.first_line)
        hand.bring_in = first_bring_in(hand.steps)

    def line(self, line: str, k: int) -> None:
        hand = self.hand
        section = _SECTION.match(line)
        if section is not None:
            self.begin(section.group(1), k)
            return
        if line.startswith("Table: "):
            table = re.match(r"Table: '(.*)'", line)
            hand.table = table.group(1) if table else None
            if "(play money)" in line:
                hand.currency = None
            return
        if cancelled(line):
            raise Cancelled("the site cancelled this hand", k)
        if not self.section:
            seat = _SEAT.match(line)
            if seat is None:
                raise SiteError(f"cannot read {line!r}", k)
            hand.seats.append(Seat(int(seat.group(1)), seat.group(2),
                                   amount(seat.group(3), self.unit, k)))
            return
        if self.summary:
            self.summary_line(line, k)
            return
        if _IGNORED.match(line):
            return
        if line.startswith("Dealt to "):
            self.dealt(line[len("Dealt to "):], k)
            return
        who = named(line, self.names)
        if who is None or not who[1].startswith(" "):
            raise SiteError(f"cannot read {line!r}: it names no player at the table", k)
        self.dealing.close()
        self.player_line(who[0], who[1].strip(), line, k)

    def begin(self, section: str, k: int) -> None:
        self.section = section
        if section in _STREETS:
            self.dealing.begin(_STREETS[section], k)
            self.chips = {}
            self.brought_in = {}
        elif section == "SUMMARY":
            self.dealing.close()
            self.summary = True
        elif section not in ("ANTE/BLINDS", "SHOW DOWN", "PRE-FLOP"):
            raise SiteError(f"cannot read the section {section!r}", k)

    def dealt(self, text: str, k: int) -> None:
        who = named(text, self.names)
        groups = re.findall(r"\[([^\]]*)\]", who[1]) if who else []
        if who is None or not groups:
            raise SiteError(f"cannot read 'Dealt to {text}'", k)
        new = tuple(None if t == "X" else card(t, k) for t in groups[-1].split())
        self.dealing.deal(who[0], new, k)

    def wager(self, name: str, verb: str, added: int) -> None:
        self.chips[name] = self.chips.get(name, 0) + added
        self.hand.steps.append(Act(name, verb, added))

    def player_line(self, name: str, verb: str, line: str, k: int) -> None:
        hand, unit = self.hand, self.unit
        verb = _ALL_IN.sub("", verb)
        if found := re.fullmatch(r"posts ante " + _AMOUNT, verb):
            hand.steps.append(Ante(name, amount(found.group(1), unit, k)))
        elif found := re.fullmatch(r"(?:brings in|bring-in) " + _AMOUNT, verb):
            value = amount(found.group(1), unit, k)
            self.brought_in[name] = value
            self.wager(name, "pb", value)
        elif verb == "checks":
            hand.steps.append(Act(name, "cc", line=k))
        elif verb == "folds":
            hand.steps.append(Act(name, "f"))
            self.dealing.fold(name)
        elif found := re.fullmatch(r"calls " + _AMOUNT, verb):
            self.wager(name, "cc", amount(found.group(1), unit, k))
        elif found := re.fullmatch(r"(?:bets|completes) " + _AMOUNT, verb):
            self.wager(name, "cbr", amount(found.group(1), unit, k))
        elif found := re.fullmatch(r"raises " + _AMOUNT + " to " + _AMOUNT, verb):
            total = amount(found.group(2), unit, k) + self.brought_in.get(name, 0)
            self.wager(name, "cbr", total - self.chips.get(name, 0))
        elif found := re.fullmatch(r"shows \[([^\]]*)\].*", verb):
            shown = tuple(card(t, k) for t in found.group(1).split())
            hand.steps.append(Shown(name, in_dealing_order(self.dealing.cards(name), shown)))
        elif verb.startswith("mucks") or verb.startswith("doesn't show"):
            hand.steps.append(Mucked(name))
        elif found := re.fullmatch(r"collected " + _AMOUNT + r" from (?:the )?(?:main |side )?"
                                   r"pot(?: \d+)?\s*(?:\((?:HI|LO)\))?", verb):
            hand.steps.append(Collected(name, amount(found.group(1), unit, k)))
        else:
            raise SiteError(f"cannot read {line!r}", k)

    def summary_line(self, line: str, k: int) -> None:
        pot = re.match(r"Total pot " + _AMOUNT + r"(?: \| (?:Rake " + _AMOUNT + r"|No rake))?",
                       line)
        if pot is not None:
            self.pot = amount(pot.group(1), self.unit, k)
            self.hand.rake = amount(pot.group(2), self.unit, k) if pot.group(2) else 0
            return
        if line.startswith("Seat ") or line.startswith("Board"):
            return
        raise SiteError(f"cannot read {line!r} in the summary", k)


__all__ = ["SITE", "detect", "parse", "split"]
