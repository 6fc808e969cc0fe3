"""Absolute Poker and UltimateBet hand histories (``Stage #1300000000: Seven Card Hi/Lo  Normal
$0.02/$0.04 - 2009-03-18 19:10:00 (ET)``): cash and tournament Seven Card Stud, Hi/Lo and
Razz.

Lines are ``NAME - Action``; a player's name may be written in another case than in the seat
list (``Player1 - Ante $0.01`` for ``PLAYER1``), and is matched regardless of case. Cards are
written as each player's cards so far (``PLAYER1 - Pocket [H H Js 10d]``, ``H`` unknown), the
new card last. Calls and bets are the chips they add, ``Raises $X to $Y`` the total.
"""

from __future__ import annotations

import re

from stud.cards import Card
from stud.history.sites.inferred import (
    Dealing,
    cancelled,
    first_bring_in,
    in_dealing_order,
    largest_ante,
    put_in,
)
from stud.history.sites.model import (
    Act,
    Ante,
    Cancelled,
    Collected,
    Dealt,
    Mucked,
    Returned,
    Seat,
    Shown,
    SiteError,
    SiteHand,
)
from stud.history.sites.reading import CURRENCIES, LineReader, amount, card, is_money, split_at
from stud.rules import Variant

SITE = "absolute"
HEADER = re.compile(r"^Stage #C?(\d+): (.+?) ([$€£]?[\d.,]+)/([$€£]?[\d.,]+)(.*?) - "
                    r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d.*)$", re.M)
_SEAT = re.compile(r"^Seat (\d+) - (.+) \(([$€£]?[\d.,]+) in chips\)(.*)$")
_STREETS = {"3rd STREET": 3, "4TH STREET": 4, "5TH STREET": 5, "6TH STREET": 6,
            "RIVER": 7, "7TH STREET": 7}
_AMOUNT = r"([$€£]?[\d.,]+)"
_ALL_IN = re.compile(r"\s*\(?All-In\)?\s*$", re.I)
_QUIET = re.compile(r"^(?:Sitout|Sits out|Sit out|Is disconnected|Is connected|"
                    r"Sits down|Stands up|Leaves the table|Joins the table)\b.*$", re.I)


def detect(text: str) -> bool:
    return bool(HEADER.search(text))


def split(text: str) -> list[tuple[int, str]]:
    """Each hand's text, with the line it starts on (1-based)."""
    return split_at(HEADER, text)


def _variant(game: str, line: int) -> Variant:
    name = " ".join(game.split()).casefold()
    name = re.sub(r"\s+(?:normal|turbo|fast)$", "", name)
    name = re.sub(r"^(?:fixed limit|limit)\s+", "", name)
    variants = {"seven card": Variant.STUD, "seven card stud": Variant.STUD,
                "seven card hi/lo": Variant.STUD8, "seven card stud hi/lo": Variant.STUD8,
                "razz": Variant.RAZZ}
    if name not in variants:
        raise SiteError(f"not a stud hand: the game is {game.strip()!r}", line)
    return variants[name]


def parse(text: str, first_line: int = 1) -> SiteHand:
    """One hand's text (from its header line) as a ``SiteHand``."""
    lines = text.split("\n")
    match = HEADER.match(lines[0])
    if match is None:
        raise SiteError("no Absolute Poker hand header", first_line)
    variant = _variant(match.group(2), first_line)
    tournament = re.search(r"Tourney ID (\d+)|Tournament #?(\d+)", match.group(5))
    cash = not tournament and (is_money(match.group(3)) or is_money(match.group(4)))
    unit = 100 if cash else 1
    sign = match.group(3)[:1]
    hand = SiteHand(
        site=SITE, hand=match.group(1), variant=variant,
        small_bet=amount(match.group(3), unit, first_line),
        big_bet=amount(match.group(4), unit, first_line), seats=[],
        tournament=(tournament.group(1) or tournament.group(2)) if tournament else None,
        currency=CURRENCIES.get(sign) if cash else None,
        game=" ".join(match.group(2).split()), time=match.group(6).strip())
    _Reader(hand, unit, first_line).read(lines[1:])
    return hand


class _Reader(LineReader):
    """The lines after the header: the table, the seats, the streets, then the summary."""

    def __init__(self, hand: SiteHand, unit: int, first_line: int) -> None:
        super().__init__(hand, unit, first_line)
        self.dealing = Dealing(hand.steps, hand.seats)
        self.summary = False
        self.pot: tuple[int, int] | None = None  # the summary's total pot, and its line

    def name(self, text: str) -> tuple[str, str] | None:
        """The seat whose name ``text`` starts with, whatever the case, and the rest."""
        best: str | None = None
        for seat in self.hand.seats:
            if text[:len(seat.name)].casefold() == seat.name.casefold() and (
                    best is None or len(seat.name) > len(best)):
                best = seat.name
        return None if best is None else (best, text[len(best):])

    def read(self, lines: list[str]) -> None:
        for k, raw in enumerate(lines, self.first_line + 1):
            line = raw.strip()
            if line:
                self.line(line, k)
        hand = self.hand
        if not any(isinstance(s, Dealt) for s in hand.steps):
            raise SiteError("the hand deals no cards (cut short?)", self.first_line)
        if self.pot is None:
            raise SiteError("the hand has no summary: the history is cut short",
                            self.first_line + len(lines))
        total = sum(put_in(hand.steps).values())
        if total != self.pot[0]:
            raise SiteError(f"the actions put {total} in the pot, the summary says "
                            f"{self.pot[0]}", self.pot[1])
        hand.ante = largest_ante(hand.steps)
        hand.bring_in = first_bring_in(hand.steps)

    def line(self, line: str, k: int) -> None:
        hand = self.hand
        if line.startswith("*** "):
            self.section(line.strip("* "), k)
            return
        if cancelled(line):
            raise Cancelled("the site cancelled this hand", k)
        if self.summary:
            self.summary_line(line, k)
            return
        if line.startswith("Table: ") or line.startswith("Table "):
            hand.table = line.split(" ", 1)[1].strip()
            return
        if self.dealing.street == 0:
            seat = _SEAT.match(line)
            if seat is not None:
                hand.seats.append(Seat(int(seat.group(1)), seat.group(2),
                                       amount(seat.group(3), self.unit, k)))
                return
        who = self.name(line)
        if who is not None and who[1].startswith(" - "):
            self.player_line(who[0], who[1][3:].strip(), line, k)
            return
        if who is not None:
            self.collect(who[0], who[1].strip(), line, k)
            return
        raise SiteError(f"cannot read {line!r}: it names no player at the table", k)

    def section(self, name: str, k: int) -> None:
        if name == "SUMMARY":
            self.dealing.close()
            self.summary = True
        elif name in _STREETS:
            self.dealing.begin(_STREETS[name], k)
        elif name not in ("SHOW DOWN", "SHOWDOWN"):
            raise SiteError(f"cannot read the section {name!r}", k)

    def pocket(self, name: str, text: str, k: int) -> None:
        """``name``'s cards so far: the new ones of this street."""
        tokens = text.split()
        have = len(self.dealing.cards(name))
        if name not in self.dealing.live and have:
            return  # a folded player's cards, written again
        new = tokens[have:]
        count = 3 if self.dealing.street == 3 else 1
        if len(new) != count:
            raise SiteError(f"{len(new)} new cards for {name} on street "
                            f"{self.dealing.street}", k)
        self.dealing.deal(name, tuple(self.card(t, k) for t in new), k)

    @staticmethod
    def card(token: str, k: int) -> Card | None:
        return None if token == "H" else card(token, k)

    def player_line(self, name: str, verb: str, line: str, k: int) -> None:
        steps, unit = self.hand.steps, self.unit
        if found := re.fullmatch(r"Pocket \[([^\]]*)\]", verb):
            self.pocket(name, found.group(1), k)
            return
        if _QUIET.match(verb):
            return
        if found := re.fullmatch(r"Ante " + _AMOUNT + r"(?: All-In)?", verb):
            steps.append(Ante(name, amount(found.group(1), unit, k)))
            return
        self.dealing.close()
        verb = _ALL_IN.sub("", verb)
        if found := re.fullmatch(r"Bring-In " + _AMOUNT, verb):
            steps.append(Act(name, "pb", amount(found.group(1), unit, k)))
        elif verb == "Checks":
            steps.append(Act(name, "cc", line=k))
        elif verb == "Folds":
            steps.append(Act(name, "f"))
            self.dealing.fold(name)
        elif found := re.fullmatch(r"Calls " + _AMOUNT, verb):
            steps.append(Act(name, "cc", amount(found.group(1), unit, k)))
        elif found := re.fullmatch(r"(?:Bets|Completes) " + _AMOUNT, verb):
            steps.append(Act(name, "cbr", amount(found.group(1), unit, k)))
        elif found := re.fullmatch(r"Raises " + _AMOUNT + r" to " + _AMOUNT, verb):
            steps.append(Act(name, "cbr", amount(found.group(2), unit, k), to=True))
        elif found := re.fullmatch(r"returned \(?" + _AMOUNT + r"\)?.*", verb, re.I):
            # an uncalled bet back: "X - returned ($0.04) : not called"
            steps.append(Returned(name, amount(found.group(1), unit, k)))
        elif found := re.fullmatch(r"Shows \[([^\]]*)\].*", verb):
            shown = tuple(card(t, k) for t in found.group(1).split())
            steps.append(Shown(name, in_dealing_order(self.dealing.cards(name), shown)))
        elif verb.startswith("Mucks") or verb.startswith("Does not show"):
            if len(self.dealing.live) > 1:
                steps.append(Mucked(name))
        else:
            raise SiteError(f"cannot read {line!r}", k)

    def collect(self, name: str, rest: str, line: str, k: int) -> None:
        found = re.fullmatch(r"Collects " + _AMOUNT + r" from (?:main |side )?pot(?: \d+)?.*",
                             rest)
        if found is None:
            raise SiteError(f"cannot read {line!r}", k)
        self.hand.steps.append(Collected(name, amount(found.group(1), self.unit, k)))

    def summary_line(self, line: str, k: int) -> None:
        total = re.match(r"Total Pot\(" + _AMOUNT + r"\)(?: \| Rake \(" + _AMOUNT + r"\))?",
                         line)
        if total is not None:
            self.pot = (amount(total.group(1), self.unit, k), k)
            self.hand.rake = amount(total.group(2), self.unit, k) if total.group(2) else 0
            return
        if not re.match(r"Seat \d+: ", line) and not line.startswith("Board"):
            raise SiteError(f"cannot read {line!r} in the summary", k)


__all__ = ["SITE", "detect", "parse", "split"]
