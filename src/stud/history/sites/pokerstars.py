"""PokerStars hand histories: cash and tournament, 7 Card Stud, Hi/Lo and Razz, alone or in a
mixed game (HORSE, 8-Game, ...), the old (``PokerStars Game #``) and new (``PokerStars Hand
#``) headers. Seventh street is ``*** RIVER ***``; a community card is ``*** RIVER *** [6h]``.
"""

from __future__ import annotations

import re

from stud.history.sites.model import (
    Act,
    Ante,
    Board,
    Cancelled,
    Collected,
    Dealt,
    Mucked,
    Returned,
    Seat,
    Shown,
    SiteError,
    SiteHand,
    Step,
)
from stud.history.sites.reading import (
    CURRENCIES,
    LineReader,
    amount,
    ante_of,
    bring_in_of,
    card,
    cards,
    is_money,
    named,
    split_at,
)
from stud.rules import Variant

SITE = "pokerstars"
HEADER = re.compile(r"^PokerStars (?:Home Game |Zoom )?(?:Game|Hand) #(\d+):", re.M)
_STREETS = {"3rd STREET": 3, "4th STREET": 4, "5th STREET": 5, "6th STREET": 6,
            "7th STREET": 7, "RIVER": 7}
_STREET = re.compile(r"^\*\*\* (3rd STREET|4th STREET|5th STREET|6th STREET|7th STREET|RIVER)"
                     r" \*\*\*(?: \[(\S+)\])?\s*$")
_SEAT = re.compile(r"^Seat (\d+): (.+) \(([^()]*?) in chips[^()]*\)(.*)$")
_STAKES = re.compile(r"\((?:[^()]*?,\s+)?([$€£₹]?[\d.,]+)/([$€£₹]?[\d.,]+)(?: [A-Z]{3})?\)")
_AMOUNT = r"([$€£₹]?[\d.,]+)"
_ALL_IN = re.compile(r"\s+and (?:is all-in|has reached the \S+ cap)\s*$")


def detect(text: str) -> bool:
    return bool(HEADER.search(text))


def split(text: str) -> list[tuple[int, str]]:
    """Each hand's text, with the line it starts on (1-based)."""
    return split_at(HEADER, text)


def _variant(game: str, line: int) -> Variant:
    name = game.casefold()  # some tools export the header in capitals
    if "hi/lo" in name and "stud" in name:
        return Variant.STUD8
    if "razz" in name and "2-7" not in name:
        return Variant.RAZZ
    if "7 card stud" in name:
        return Variant.STUD
    raise SiteError(f"not a stud hand: the game is {game.strip()!r}", line)


def _time(header: str) -> str | None:
    """The hand's date and time as the header writes them (``2009/07/16 2:36:31 CET [...]``,
    or the older ``2006/07/31 - 16:55:13 (ET)``)."""
    found = re.search(r"\d{4}/\d{1,2}/\d{1,2}.*$", header)
    return found.group(0).strip() if found else None


def parse(text: str, first_line: int = 1) -> SiteHand:
    """One hand's text (from its header line) as a ``SiteHand``."""
    lines = text.split("\n")
    header = lines[0]
    match = HEADER.match(header)
    if match is None:
        raise SiteError("no PokerStars hand header", first_line)
    number = match.group(1)
    rest = header[match.end():].strip()
    tournament = re.search(r"Tournament #(\d+)", rest, re.I)
    parts = rest.split(" - ")
    game = parts[0]
    if tournament:
        game = re.sub(r"^Tournament #\d+,\s*(?:\S+\+\S+(?: [A-Z]{3})?\s*|Freeroll\s*)?", "",
                      parts[0], flags=re.I)
    variant = _variant(game, first_line)
    stakes = _STAKES.search(rest)
    if stakes is None:
        raise SiteError("the header gives no stakes (small bet/big bet)", first_line)
    cash = not tournament and (is_money(stakes.group(1)) or is_money(stakes.group(2)))
    unit = 100 if cash else 1
    currency = None
    if cash:
        code = re.search(r"\b(USD|EUR|GBP|CAD)\b", rest)
        currency = code.group(1) if code else CURRENCIES.get(
            stakes.group(1).strip()[:1], None)
    hand = SiteHand(
        site=SITE, hand=number, variant=variant,
        small_bet=amount(stakes.group(1), unit, first_line),
        big_bet=amount(stakes.group(2), unit, first_line),
        seats=[], tournament=tournament.group(1) if tournament else None,
        currency=currency, game=_STAKES.sub("", game).strip(),
        time=_time(rest))
    _Reader(hand, unit, first_line).read(lines[1:])
    return hand


class _Reader(LineReader):
    """The lines after the header, in order: the table, the seats, then the hand."""

    def __init__(self, hand: SiteHand, unit: int, first_line: int) -> None:
        super().__init__(hand, unit, first_line)
        self.street = 0
        self.live: list[str] = []  # players dealt in and not folded, in seat order
        self.summary = False
        self.bring_ins: list[tuple[int, bool]] = []
        self.antes: list[tuple[int, bool]] = []
        self.river: dict[str, int] = {}  # seventh street's unknown cards, by player: step index

    def read(self, lines: list[str]) -> None:
        for k, raw in enumerate(lines, self.first_line + 1):
            line = raw.strip()
            if not line:
                continue
            self.line(line, k)
        hand = self.hand
        if not any(isinstance(s, Dealt) for s in hand.steps):
            raise SiteError("the hand deals no cards (cut short?)", self.first_line)
        hand.bring_in = bring_in_of(self.bring_ins)
        hand.ante = ante_of(self.antes)
        if not self.summary:
            raise SiteError("the hand has no summary: the history is cut short",
                            self.first_line + len(lines))

    def line(self, line: str, k: int) -> None:
        hand = self.hand
        if line.startswith("Table '"):
            table = re.match(r"Table '([^']*)'", line)
            hand.table = table.group(1) if table else None
            return
        if line.startswith("*** "):
            self.section(line, k)
            return
        if line == "Hand cancelled":
            raise Cancelled("the site cancelled this hand", k)
        if self.street == 0 and not self.summary:
            seat = _SEAT.match(line)
            if seat is not None:
                if "out of hand" not in seat.group(4):
                    hand.seats.append(Seat(int(seat.group(1)), seat.group(2),
                                           amount(seat.group(3), self.unit, k)))
                return
        if self.summary:
            self.summary_line(line, k)
            return
        if line.startswith("Dealt to "):
            self.dealt(line[len("Dealt to "):], k)
            return
        if line.startswith("Uncalled bet"):
            found = re.match(r"Uncalled bet \(" + _AMOUNT + r"\) returned to (.+)$", line)
            if found is None or found.group(2) not in self.names:
                raise SiteError(f"cannot read {line!r}", k)
            hand.steps.append(Returned(found.group(2), amount(found.group(1), self.unit, k)))
            return
        who = named(line, self.names)
        if who is None:
            return  # the table's own words ("Pair on board - ..."): no chips, no cards move
        name, rest = who
        self.player_line(name, rest, line, k)

    def section(self, line: str, k: int) -> None:
        if line.startswith("*** SUMMARY"):
            self.summary = True
            return
        if line.startswith("*** SHOW DOWN") or line.startswith("*** FIRST") or \
                line.startswith("*** SECOND"):
            return
        found = _STREET.match(line)
        if found is None:
            raise SiteError(f"cannot read {line!r}", k)
        self.street = _STREETS[found.group(1)]
        if self.street == 3:
            return  # the players dealt in are those dealt a card on it
        if found.group(2):  # the community card: nobody gets a card of their own
            self.hand.steps.append(Board(card(found.group(2), k)))
            return
        if self.street == 7:
            for name in self.live:  # seventh street's down cards, unknown unless shown later
                self.river[name] = len(self.hand.steps)
                self.hand.steps.append(Dealt(name, 7, (None,)))

    def dealt(self, text: str, k: int) -> None:
        who = named(text, self.names)
        if who is None:
            raise SiteError(f"cards dealt to a player not at the table: {text!r}", k)
        name, rest = who
        groups = re.findall(r"\[([^\]]*)\]", rest)
        if not groups:
            raise SiteError(f"no cards in 'Dealt to {text}'", k)
        new = cards(groups[-1], k)
        if self.street == 3:
            if name not in self.live:
                self.live.append(name)
                self.live.sort(key=self.names.index)
            got = (None,) * (3 - len(new)) + new
            self.hand.steps.append(Dealt(name, 3, got))
        elif self.street == 7 and name in self.river:
            self.hand.steps[self.river[name]] = Dealt(name, 7, new)
        else:
            self.hand.steps.append(Dealt(name, self.street, new))

    def player_line(self, name: str, rest: str, line: str, k: int) -> None:
        hand, unit = self.hand, self.unit
        if rest.startswith(" collected "):
            found = re.match(r" collected " + _AMOUNT, rest)
            if found is None:
                raise SiteError(f"cannot read {line!r}", k)
            hand.steps.append(Collected(name, amount(found.group(1), unit, k)))
            return
        if not rest.startswith(": "):
            return  # news of a player ("... has timed out", "... leaves the table")
        verb = rest[2:]
        all_in = bool(_ALL_IN.search(verb))
        verb = _ALL_IN.sub("", verb)
        if verb.startswith("posts the ante "):
            value = amount(verb[len("posts the ante "):], unit, k)
            self.antes.append((value, all_in))
            hand.steps.append(Ante(name, value))
        elif verb.startswith("brings in for "):
            value = amount(verb[len("brings in for "):], unit, k)
            self.bring_ins.append((value, all_in))
            hand.steps.append(Act(name, "pb", value))
        elif verb == "checks":
            hand.steps.append(Act(name, "cc", line=k))
        elif verb.startswith("calls "):
            hand.steps.append(Act(name, "cc", amount(verb[len("calls "):], unit, k)))
        elif verb.startswith("folds"):
            hand.steps.append(Act(name, "f"))
            if name in self.live:
                self.live.remove(name)
        elif verb.startswith("bets "):
            hand.steps.append(Act(name, "cbr", amount(verb[len("bets "):], unit, k)))
        elif verb.startswith("raises "):
            found = re.match(r"raises " + _AMOUNT + r" to " + _AMOUNT + r"$", verb)
            if found is None:
                raise SiteError(f"cannot read {line!r}", k)
            hand.steps.append(Act(name, "cbr", amount(found.group(2), unit, k), to=True))
        elif verb.startswith("completes it to "):
            value = amount(verb[len("completes it to "):], unit, k)
            hand.steps.append(Act(name, "cbr", value, to=True))
        elif verb.startswith("shows ["):
            shown = re.match(r"shows \[([^\]]*)\]", verb)
            if shown is None:
                raise SiteError(f"cannot read {line!r}", k)
            hand.steps.append(Shown(name, cards(shown.group(1), k)))
        elif verb.startswith(("doesn't show", "sits out", "is sitting out", "is back",
                              "shows one card")):
            return
        elif verb.startswith("mucks"):
            listed = re.search(r"\[([^\]]*)\]", verb)
            hand.steps.append(Mucked(name))
            if listed:
                hand.steps.append(Shown(name, cards(listed.group(1), k), mucked=True))
        else:
            raise SiteError(f"cannot read {line!r}", k)

    def summary_line(self, line: str, k: int) -> None:
        rake = re.search(r"\| Rake " + _AMOUNT, line)
        if line.startswith("Total pot") and rake:
            self.hand.rake = amount(rake.group(1), self.unit, k)
            return
        seat = re.match(r"Seat \d+: (.+?) (?:\([^)]*\) )?(?:mucked|showed) \[([^\]]*)\]",
                        line)
        if seat is not None and seat.group(1) in self.names:  # cards known, nothing done
            self.hand.steps.append(Shown(seat.group(1), cards(seat.group(2), k), mucked=True))


__all__ = ["SITE", "detect", "parse", "split", "Step"]
