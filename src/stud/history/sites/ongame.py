"""Ongame network hand histories (``***** History for hand R5-292493407-77 *****``): cash
Seven Card Stud, Hi-Lo and Razz (``Table: Winnipeg [292493407] (LIMIT SEVEN_CARD_STUD $1/$2,
ante: $0.10, Real money)``).

Cards are ``Dealing to NAME: [5c, 2h, 2s]`` (``-`` unknown), one street after each ``---``.
The bring-in player chooses a ``small bring in`` (the bring-in) or a ``big bring in`` (the
small bet: a completion). ``raises $X to $Y`` gives in ``Y`` the player's total in the hand,
antes apart. Nothing is written at the showdown but the summary: a hand shown is listed with
its seat's result (``Seat 6: Player0 ($79), net: +$4.60, [6d, 4c, 7d, ...]``), a player still
in whose cards are not listed mucked. Each seat's stack after the hand is checked against the
reader's own count; an uncalled bet goes back to its owner though no line says so.
"""

from __future__ import annotations

import re

from stud.history.sites.inferred import (
    Dealing,
    cancelled,
    check_complete,
    check_final_stacks,
    first_bring_in,
    in_dealing_order,
    return_uncalled,
)
from stud.history.sites.model import (
    Act,
    Ante,
    Cancelled,
    Collected,
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
    first_match,
    is_money,
    named,
    split_at,
)
from stud.rules import Variant

SITE = "ongame"
HEADER = re.compile(r"^\*\*\*\*\* History for hand (\S+) \*\*\*\*\*[ \t\r]*$", re.M)
_TABLE = re.compile(r"^Table: (.+?) \[(\d+)\] \((\w+) (\w+) ([$€£]?[\d.,]+)/([$€£]?[\d.,]+)"
                    r"(?:, ante: ([$€£]?[\d.,]+))?(?:, (.+))?\)$")
_SEAT = re.compile(r"^Seat (\d+): (.+) \(([$€£]?[\d.,]+)\)$")
_FINAL = re.compile(r"^Seat (\d+): (.+?) \(([$€£]?[\d.,]+)\), net: [-+]?[$€£]?[\d.,]+"
                    r"(?:, \[([^\]]*)\].*)?$")
_STREETS = {"Dealing pocket cards": 3, "Dealing 4th street": 4, "Dealing 5th street": 5,
            "Dealing 6th street": 6, "Dealing river": 7}
_GAMES = {"SEVEN_CARD_STUD": Variant.STUD, "SEVEN_CARD_STUD_HI_LO": Variant.STUD8,
          "RAZZ": Variant.RAZZ}
_AMOUNT = r"([$€£]?[\d.,]+)"
_IGNORED = re.compile(r"^(?:---|Start hand: .*|User: .*|Button: seat \d+|"
                      r"Players in round: .*|\*\*\*\*\* End of hand \S+ \*\*\*\*\*|"
                      r".+ (?:sits out|is sitting out|sits in|joins the table|leaves the table|"
                      r"has timed out|is disconnected|is connected|has reconnected))$")


def detect(text: str) -> bool:
    return bool(HEADER.search(text))


def split(text: str) -> list[tuple[int, str]]:
    """Each hand's text, with the line it starts on (1-based)."""
    return split_at(HEADER, text)


def parse(text: str, first_line: int = 1) -> SiteHand:
    """One hand's text (from its header line) as a ``SiteHand``."""
    lines = text.split("\n")
    match = HEADER.match(lines[0])
    if match is None:
        raise SiteError("no Ongame hand header", first_line)
    found = first_match(_TABLE, lines, first_line)
    if found is None:
        raise SiteError("the hand gives no table, game and stakes", first_line)
    k, table = found
    if table.group(4) not in _GAMES or table.group(3) != "LIMIT":
        raise SiteError(f"not a stud hand: the game is {table.group(3)} {table.group(4)}", k)
    money = table.group(8) or ""
    cash = is_money(table.group(5)) or is_money(table.group(6))
    unit = 100 if cash else 1
    sign = table.group(5)[:1]
    real = cash and "play" not in money.casefold()
    hand = SiteHand(
        site=SITE, hand=match.group(1), variant=_GAMES[table.group(4)],
        small_bet=amount(table.group(5), unit, k), big_bet=amount(table.group(6), unit, k),
        seats=[], ante=amount(table.group(7), unit, k) if table.group(7) else 0,
        table=table.group(1), currency=CURRENCIES.get(sign)
        if real else None, game=f"{table.group(3)} {table.group(4)}")
    start = re.search(r"^Start hand: (.+)$", text, re.M)
    hand.time = start.group(1).strip() if start else None
    _Reader(hand, unit, first_line).read(lines[1:])
    return hand


class _Reader(LineReader):
    """The lines after the header: the table, the seats, the streets, then the summary."""

    def __init__(self, hand: SiteHand, unit: int, first_line: int) -> None:
        super().__init__(hand, unit, first_line)
        self.dealing = Dealing(hand.steps, hand.seats)
        self.summary = False
        self.before: dict[str, int] = {}  # chips in before this street, antes apart
        self.chips: dict[str, int] = {}  # this street's chips by player
        self.finals: dict[str, tuple[int, int]] = {}
        self.shown: list[Shown] = []

    def read(self, lines: list[str]) -> None:
        for k, raw in enumerate(lines, self.first_line + 1):
            line = raw.strip()
            if line:
                self.line(line, k)
        hand = self.hand
        check_complete(hand.steps, self.first_line, self.summary,
                       self.first_line + len(lines))
        return_uncalled(hand.steps)
        self.showdown()
        check_final_stacks(self.hand, self.finals)
        hand.bring_in = first_bring_in(hand.steps)

    def showdown(self) -> None:
        """Those shown in the summary show; the others still in muck."""
        live = self.dealing.live
        if len(live) < 2:
            return
        shown = {s.player for s in self.shown}
        self.hand.steps.extend(s for s in self.shown if s.player in live)
        self.hand.steps.extend(Mucked(n) for n in live if n not in shown)

    def line(self, line: str, k: int) -> None:
        if line.startswith("Table: "):
            return
        if cancelled(line):
            raise Cancelled("the site cancelled this hand", k)
        if line == "Summary:":
            self.dealing.close()
            self.summary = True
            return
        if self.summary:
            self.summary_line(line, k)
            return
        if line in _STREETS:
            for name, chips in self.chips.items():
                self.before[name] = self.before.get(name, 0) + chips
            self.chips = {}
            self.dealing.begin(_STREETS[line], k)
            return
        if self.dealing.street == 0:
            seat = _SEAT.match(line)
            if seat is not None:
                self.hand.seats.append(Seat(int(seat.group(1)), seat.group(2),
                                            amount(seat.group(3), self.unit, k)))
                return
        if _IGNORED.match(line):
            return
        if line.startswith("Dealing to "):
            self.dealt(line[len("Dealing to "):], k)
            return
        who = named(line, self.names)
        if who is None or not who[1].startswith(" "):
            raise SiteError(f"cannot read {line!r}: it names no player at the table", k)
        self.dealing.close()
        self.player_line(who[0], who[1].strip(), line, k)

    def dealt(self, text: str, k: int) -> None:
        who = named(text, self.names)
        found = re.fullmatch(r": \[([^\]]*)\]", who[1]) if who else None
        if who is None or found is None:
            raise SiteError(f"cannot read 'Dealing to {text}'", k)
        tokens = [t.strip() for t in found.group(1).split(",")]
        self.dealing.deal(who[0], tuple(None if t == "-" else card(t, k) for t in tokens), k)

    def wager(self, name: str, verb: str, added: int) -> None:
        self.chips[name] = self.chips.get(name, 0) + added
        self.hand.steps.append(Act(name, verb, added))

    def player_line(self, name: str, verb: str, line: str, k: int) -> None:
        steps, unit = self.hand.steps, self.unit
        if found := re.fullmatch(r"posts ante " + _AMOUNT, verb):
            steps.append(Ante(name, amount(found.group(1), unit, k)))
        elif found := re.fullmatch(r"small bring in " + _AMOUNT, verb):
            self.wager(name, "pb", amount(found.group(1), unit, k))
        elif found := re.fullmatch(r"big bring in " + _AMOUNT, verb):
            self.wager(name, "cbr", amount(found.group(1), unit, k))  # a completion
        elif verb == "checks":
            steps.append(Act(name, "cc", line=k))
        elif verb == "folds":
            steps.append(Act(name, "f"))
            self.dealing.fold(name)
        elif found := re.fullmatch(r"calls " + _AMOUNT, verb):
            self.wager(name, "cc", amount(found.group(1), unit, k))
        elif found := re.fullmatch(r"bets " + _AMOUNT, verb):
            self.wager(name, "cbr", amount(found.group(1), unit, k))
        elif found := re.fullmatch(r"raises " + _AMOUNT + " to " + _AMOUNT, verb):
            total = amount(found.group(2), unit, k) - self.before.get(name, 0)
            self.wager(name, "cbr", total - self.chips.get(name, 0))
        else:
            raise SiteError(f"cannot read {line!r}", k)

    def summary_line(self, line: str, k: int) -> None:
        if _IGNORED.match(line):
            return
        rake = re.fullmatch(r"Rake taken: " + _AMOUNT, line)
        if rake is not None:
            self.hand.rake = amount(rake.group(1), self.unit, k)
            return
        pot = re.fullmatch(r"(?:Main pot|Side pot(?: \d+)?): " + _AMOUNT + r" won by (.+)", line)
        if pot is not None:
            for winner in re.split(r",\s*|\s+and\s+", pot.group(2)):
                found = re.fullmatch(r"(.+) \(" + _AMOUNT + r"\)", winner.strip())
                if found is None or found.group(1) not in self.names:
                    raise SiteError(f"cannot read the winner {winner!r} in {line!r}", k)
                self.hand.steps.append(Collected(found.group(1),
                                                 amount(found.group(2), self.unit, k)))
            return
        final = _FINAL.match(line)
        if final is None or final.group(2) not in self.names:
            raise SiteError(f"cannot read {line!r} in the summary", k)
        name = final.group(2)
        self.finals[name] = (amount(final.group(3), self.unit, k), k)
        if final.group(4):
            shown = tuple(card(t.strip(), k) for t in final.group(4).split(","))
            self.shown.append(Shown(name, in_dealing_order(self.dealing.cards(name), shown)))


__all__ = ["SITE", "detect", "parse", "split"]
