"""Kings Club hand histories (``#37581152: Limit Seven Card Stud - 44/88``, the date on the next
line): cash and tournament Seven Card Stud, Hi-Lo and Razz, alone or in a mixed game.

Kings Club names its streets one behind: the cards dealt before any ``***`` line are third
street, ``*** 3RD STREET ***`` is fourth street, and so on to ``*** 6TH STREET ***``, the
river; each street marker is taken as the next street whatever its number. Cards are
``Dealt to NAME: [X X 2s]``, then ``Dealt to NAME: [3h]`` (``X`` unknown). Calls, bets and
raises are all written as the player's total on the street (``calls 625`` after calling a
bring-in of 125 puts in 500 more). The history writes no uncalled bet going back (``wins pot``
leaves it out): the uncalled part of the last wager goes back to its owner. The summary gives
each player's stack after the hand, which the reader checks against its own count.
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
    largest_ante,
    return_uncalled,
)
from stud.history.sites.model import (
    Act,
    Ante,
    Cancelled,
    Collected,
    Mucked,
    Returned,
    Seat,
    Shown,
    SiteError,
    SiteHand,
)
from stud.history.sites.reading import LineReader, amount, card, named, split_at
from stud.rules import Variant

SITE = "kingsclub"
HEADER = re.compile(r"^#(\d+): (.+) - ([\d.,]+)/([\d.,]+)[ \t]*\r?\n\d{4}-\d\d-\d\d "
                    r"\d\d:\d\d:\d\d", re.M)
_SEAT = re.compile(r"^Seat (\d+): (.+) \(([\d.,]+)\)$")
_FINAL = re.compile(r"^Seat (\d+): (.+) \(([\d.,]+)\) [-+]?[\d.,]+$")
_AMOUNT = r"([\d.,]+)"
_ALL_IN = re.compile(r",? and is all.in\s*$")
_IGNORED = re.compile(r"^.+ (?:sits out|is sitting out|joins the table|leaves the table|"
                      r"has returned|is disconnected|is connected|has timed out|"
                      r"cashed out the hand|said, .*)$")


def detect(text: str) -> bool:
    return bool(HEADER.search(text))


def split(text: str) -> list[tuple[int, str]]:
    """Each hand's text, with the line it starts on (1-based)."""
    return split_at(HEADER, text)


def _variant(game: str, line: int) -> Variant:
    name = re.sub(r"^(?:Limit|Fixed Limit)\s+", "", game.strip())
    variants = {"Seven Card Stud": Variant.STUD, "Seven Card Stud Hi-Lo": Variant.STUD8,
                "Razz": Variant.RAZZ}
    if name not in variants or not game.strip().startswith("Limit"):
        raise SiteError(f"not a stud hand: the game is {game.strip()!r}", line)
    return variants[name]


def parse(text: str, first_line: int = 1) -> SiteHand:
    """One hand's text (from its header line) as a ``SiteHand``."""
    match = HEADER.match(text)
    if match is None:
        raise SiteError("no Kings Club hand header", first_line)
    lines = text.split("\n")
    variant = _variant(match.group(2), first_line)
    table = re.search(r"^Table '(.*)'", text, re.M)
    tournament = re.match(r"T(\d+) \[\d+\]$", table.group(1)) if table else None
    cash = not tournament
    unit = 100 if cash else 1
    hand = SiteHand(
        site=SITE, hand=match.group(1), variant=variant,
        small_bet=amount(match.group(3), unit, first_line),
        big_bet=amount(match.group(4), unit, first_line), seats=[],
        table=table.group(1) if table else None,
        tournament=tournament.group(1) if tournament else None,
        currency="USD" if cash else None, game=match.group(2).strip(),
        time=lines[1].strip())
    _Reader(hand, unit, first_line).read(lines[2:])
    return hand


class _Reader(LineReader):
    """The lines after the header and the date: the table, the seats, the hand, the summary."""

    def __init__(self, hand: SiteHand, unit: int, first_line: int) -> None:
        super().__init__(hand, unit, first_line)
        self.dealing = Dealing(hand.steps, hand.seats)
        self.summary = False
        self.finals: dict[str, tuple[int, int]] = {}  # the summary's stacks, and their lines

    def read(self, lines: list[str]) -> None:
        for k, raw in enumerate(lines, self.first_line + 2):
            line = raw.strip()
            if line:
                self.line(line, k)
        hand = self.hand
        check_complete(hand.steps, self.first_line, self.summary,
                       self.first_line + len(lines) + 1)
        return_uncalled(hand.steps)
        check_final_stacks(self.hand, self.finals)
        hand.ante = largest_ante(hand.steps)
        hand.bring_in = first_bring_in(hand.steps)

    def line(self, line: str, k: int) -> None:
        hand = self.hand
        if line.startswith("Table '"):
            return
        if line.startswith("***"):
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
                hand.seats.append(Seat(int(seat.group(1)), seat.group(2),
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
            hand.steps.append(Returned(found.group(2), amount(found.group(1), self.unit, k)))
            return
        who = named(line, self.names)
        if who is None:
            raise SiteError(f"cannot read {line!r}: it names no player at the table", k)
        self.dealing.close()
        self.player_line(who[0], who[1], line, k)

    def section(self, line: str, k: int) -> None:
        if line == "*** SUMMARY ***":
            self.dealing.close()
            self.summary = True
        elif re.fullmatch(r"\*\*\* (?:\d(?:ST|ND|RD|TH) STREET|RIVER) \*\*\*", line):
            self.dealing.begin(self.dealing.street + 1 if self.dealing.street else 3, k)
        elif line != "*** SHOW DOWN ***":
            raise SiteError(f"cannot read {line!r}", k)

    def dealt(self, text: str, k: int) -> None:
        who = named(text, self.names)
        found = re.fullmatch(r": \[([^\]]*)\]", who[1]) if who else None
        if who is None or found is None:
            raise SiteError(f"cannot read 'Dealt to {text}'", k)
        if self.dealing.street == 0:
            self.dealing.begin(3, k)
        new = tuple(None if t == "X" else card(t, k) for t in found.group(1).split())
        self.dealing.deal(who[0], new, k)

    def player_line(self, name: str, rest: str, line: str, k: int) -> None:
        hand, unit = self.hand, self.unit
        verb = _ALL_IN.sub("", rest.removeprefix(":")).strip()
        if found := re.fullmatch(r"posts (?:the )?ante " + _AMOUNT, verb):
            hand.steps.append(Ante(name, amount(found.group(1), unit, k)))
        elif found := re.fullmatch(r"brings?[- ]in(?: low)? for " + _AMOUNT, verb):
            hand.steps.append(Act(name, "pb", amount(found.group(1), unit, k)))
        elif verb == "checks":
            hand.steps.append(Act(name, "cc", line=k))
        elif verb == "folds":
            hand.steps.append(Act(name, "f"))
            self.dealing.fold(name)
        elif found := re.fullmatch(r"calls " + _AMOUNT, verb):
            hand.steps.append(Act(name, "cc", amount(found.group(1), unit, k), to=True))
        elif found := re.fullmatch(r"(?:bets|raises to|completes to) " + _AMOUNT, verb):
            hand.steps.append(Act(name, "cbr", amount(found.group(1), unit, k), to=True))
        elif found := re.fullmatch(r"shows \[([^\]]*)\].*", verb):
            shown = tuple(card(t, k) for t in found.group(1).split())
            hand.steps.append(Shown(name, in_dealing_order(self.dealing.cards(name), shown)))
        elif verb.startswith("mucks"):
            hand.steps.append(Mucked(name))
        else:
            raise SiteError(f"cannot read {line!r}", k)

    def summary_line(self, line: str, k: int) -> None:
        hand = self.hand
        final = _FINAL.match(line)
        if final is not None and final.group(2) in self.names:
            self.finals[final.group(2)] = (amount(final.group(3), self.unit, k), k)
            return
        rake = re.fullmatch(r"Rake " + _AMOUNT, line)
        if rake is not None:
            hand.rake = amount(rake.group(1), self.unit, k)
            return
        who = named(line, self.names)
        won = re.fullmatch(r" wins (?:the )?(?:pot|side pot \d+|main pot)\s*\(" + _AMOUNT +
                           r"\)(?: from pot)?.*", who[1]) if who else None
        if who is None or won is None:
            raise SiteError(f"cannot read {line!r} in the summary", k)
        hand.steps.append(Collected(who[0], amount(won.group(1), self.unit, k)))


__all__ = ["SITE", "detect", "parse", "split"]
