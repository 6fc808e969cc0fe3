"""Winning Poker Network (Americas Cardroom, ...) hand histories (``Hand #85198832 -
7Stud(Fixed Limit) - $0.04/$0.08 - 2019/07/28 16:15:58 UTC``): cash and tournament 7 Card
Stud, Hi/Lo and Razz.

Cards are ``Dealt to NAME [Qd]``, then ``Dealt to NAME [Qd] [2d]`` (the new card last); each
street's ``Main pot $0.21 | Rake $0.00`` (and ``Side pot(1) ...``) line is a running count,
and ignored, as are ``collected ... from main pot`` lines; a jackpot fee (``| JP Fee $0.02``)
is taken from the pot with the rake. Calls and bets
are the chips they add, ``raises $0.04 to $0.04`` the player's total on the street. What each
player won is in the summary only (``Seat 7: Player2 did not show and won $0.36``).
"""

from __future__ import annotations

import re

from stud.history.sites.inferred import (
    Dealing,
    cancelled,
    first_bring_in,
    in_dealing_order,
    largest_ante,
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
from stud.history.sites.reading import (
    CURRENCIES,
    LineReader,
    amount,
    cards,
    is_money,
    named,
    split_at,
)
from stud.rules import Variant

SITE = "winning"
HEADER = re.compile(r"^(?:Game )?Hand #(\d+)(?: - Tournament #(\d+))? - (.+?)\((Fixed Limit|"
                    r"No Limit|Pot Limit|Limit)\) - ([$€£]?[\d.,]+)/([$€£]?[\d.,]+) - (.+)$",
                    re.M)
_SEAT = re.compile(r"^Seat (\d+): (.+) \(([$€£]?[\d.,]+)\)(.*)$")
_STREETS = {"3rd STREET": 3, "4th STREET": 4, "5th STREET": 5, "6th STREET": 6,
            "7th STREET": 7, "RIVER": 7}
_AMOUNT = r"([$€£]?[\d.,]+)"
_ALL_IN = re.compile(r"\s+and is all-in\s*$")
_IGNORED = re.compile(r"^(?:(?:Main pot|Side pot\(\d+\)) .*|"
                      r".+ (?:sits out|is sitting out|joins the table|"
                      r"leaves the table|has returned|is disconnected|is connected|"
                      r"has timed out|said, .*))$")


def detect(text: str) -> bool:
    return bool(HEADER.search(text))


def split(text: str) -> list[tuple[int, str]]:
    """Each hand's text, with the line it starts on (1-based)."""
    return split_at(HEADER, text)


def _variant(game: str, limit: str, line: int) -> Variant:
    name = game.casefold().replace(" ", "")
    if limit in ("Fixed Limit", "Limit"):
        if name in ("7stud", "7cardstud", "sevencardstud"):
            return Variant.STUD
        if name in ("7studhilo", "7studhi/lo", "7stud8", "7cardstudhi/lo", "7studh/l"):
            return Variant.STUD8
        if name == "razz":
            return Variant.RAZZ
    raise SiteError(f"not a stud hand: the game is {game}({limit})", line)


def parse(text: str, first_line: int = 1) -> SiteHand:
    """One hand's text (from its header line) as a ``SiteHand``."""
    lines = text.split("\n")
    match = HEADER.match(lines[0])
    if match is None:
        raise SiteError("no Winning Poker hand header", first_line)
    variant = _variant(match.group(3), match.group(4), first_line)
    tournament = match.group(2)
    cash = not tournament and (is_money(match.group(5)) or is_money(match.group(6)))
    unit = 100 if cash else 1
    sign = match.group(5)[:1]
    hand = SiteHand(
        site=SITE, hand=match.group(1), variant=variant,
        small_bet=amount(match.group(5), unit, first_line),
        big_bet=amount(match.group(6), unit, first_line), seats=[], tournament=tournament,
        currency=CURRENCIES.get(sign) if cash else None,
        game=match.group(3).strip(), time=match.group(7).strip())
    if len(lines) > 1 and not lines[1].startswith("Seat "):
        hand.table = re.sub(r"\s+\d+-max$", "", lines[1].strip())
    _Reader(hand, unit, first_line).read(lines[1:])
    return hand


class _Reader(LineReader):
    """The lines after the header: the table, the seats, the streets, then the summary."""

    def __init__(self, hand: SiteHand, unit: int, first_line: int) -> None:
        super().__init__(hand, unit, first_line)
        self.dealing = Dealing(hand.steps, hand.seats)
        self.summary = False
        self.total = False

    def read(self, lines: list[str]) -> None:
        for k, raw in enumerate(lines, self.first_line + 1):
            line = raw.strip()
            if line and not (k == self.first_line + 1 and self.hand.table):
                self.line(line, k)
        hand = self.hand
        if not any(isinstance(s, Dealt) for s in hand.steps):
            raise SiteError("the hand deals no cards (cut short?)", self.first_line)
        if not self.total:
            raise SiteError("the hand has no summary: the history is cut short",
                            self.first_line + len(lines))
        hand.ante = largest_ante(hand.steps)
        hand.bring_in = first_bring_in(hand.steps)

    def line(self, line: str, k: int) -> None:
        if line.startswith("*** "):
            self.section(line, k)
            return
        if cancelled(line):
            raise Cancelled("the site cancelled this hand", k)
        if self.summary:
            self.summary_line(line, k)
            return
        if self.dealing.street == 0:
            seat = _SEAT.match(line)
            if seat is not None:
                if "sitting out" not in seat.group(4):
                    self.hand.seats.append(Seat(int(seat.group(1)), seat.group(2),
                                                amount(seat.group(3), self.unit, k)))
                return
        if _IGNORED.match(line):
            return
        if line.startswith("Dealt to "):
            self.dealt(line[len("Dealt to "):], k)
            return
        if line.startswith("Uncalled bet"):
            found = re.fullmatch(r"Uncalled bet \(" + _AMOUNT + r"\) returned to (.+)", line)
            if found is None or found.group(2) not in self.names:
                raise SiteError(f"cannot read {line!r}", k)
            self.dealing.close()
            self.hand.steps.append(Returned(found.group(2), amount(found.group(1), self.unit,
                                                                   k)))
            return
        who = named(line, self.names)
        if who is None or not who[1].startswith(" "):
            raise SiteError(f"cannot read {line!r}: it names no player at the table", k)
        self.dealing.close()
        self.player_line(who[0], who[1].strip(), line, k)

    def section(self, line: str, k: int) -> None:
        name = line.strip("* ")
        if name == "SUMMARY":
            self.dealing.close()
            self.summary = True
        elif name in _STREETS:
            self.dealing.begin(_STREETS[name], k)
        elif name not in ("SHOW DOWN", "SHOWDOWN"):
            raise SiteError(f"cannot read {line!r}", k)

    def dealt(self, text: str, k: int) -> None:
        who = named(text, self.names)
        groups = re.findall(r"\[([^\]]*)\]", who[1]) if who else []
        if who is None or not groups:
            raise SiteError(f"cannot read 'Dealt to {text}'", k)
        self.dealing.deal(who[0], cards(groups[-1], k), k)

    def player_line(self, name: str, verb: str, line: str, k: int) -> None:
        steps, unit = self.hand.steps, self.unit
        verb = _ALL_IN.sub("", verb)
        if found := re.fullmatch(r"posts (?:the )?ante " + _AMOUNT, verb):
            steps.append(Ante(name, amount(found.group(1), unit, k)))
        elif found := re.fullmatch(r"brings in (?:for )?" + _AMOUNT, verb):
            steps.append(Act(name, "pb", amount(found.group(1), unit, k)))
        elif verb == "checks":
            steps.append(Act(name, "cc", line=k))
        elif verb == "folds":
            steps.append(Act(name, "f"))
            self.dealing.fold(name)
        elif found := re.fullmatch(r"calls " + _AMOUNT, verb):
            steps.append(Act(name, "cc", amount(found.group(1), unit, k)))
        elif found := re.fullmatch(r"bets " + _AMOUNT, verb):
            steps.append(Act(name, "cbr", amount(found.group(1), unit, k)))
        elif found := re.fullmatch(r"(?:raises " + _AMOUNT + " to|completes (?:it )?to) "
                                   + _AMOUNT, verb):
            steps.append(Act(name, "cbr", amount(found.group(2), unit, k), to=True))
        elif found := re.fullmatch(r"shows \[([^\]]*)\].*", verb):
            shown = cards(found.group(1), k)
            steps.append(Shown(name, in_dealing_order(self.dealing.cards(name), shown)))
        elif verb.startswith("collected "):
            return  # each player's winnings are read from the summary
        elif verb.startswith("mucks") or verb == "does not show":
            if len(self.dealing.live) > 1:
                steps.append(Mucked(name))
        else:
            raise SiteError(f"cannot read {line!r}", k)

    def summary_line(self, line: str, k: int) -> None:
        total = re.fullmatch(r"Total pot " + _AMOUNT + r"(?: \| Rake " + _AMOUNT + r")?.*",
                             line)
        if total is not None:
            self.total = True
            self.hand.rake = amount(total.group(2), self.unit, k) if total.group(2) else 0
            jackpot = re.search(r"\| JP Fee " + _AMOUNT, line)
            if jackpot:  # the jackpot's fee comes out of the pot as the rake does
                self.hand.rake += amount(jackpot.group(1), self.unit, k)
            return
        seat = re.match(r"Seat \d+: (.+)$", line)
        who = named(seat.group(1), self.names) if seat else None
        if who is None:
            if line.startswith("Board"):
                return
            raise SiteError(f"cannot read {line!r} in the summary", k)
        for won in re.findall(r"\bwon (?:\w+ )?\(?" + _AMOUNT, who[1]):
            self.hand.steps.append(Collected(who[0], amount(won, self.unit, k)))


__all__ = ["SITE", "detect", "parse", "split"]
