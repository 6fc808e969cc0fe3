"""Bovada, Bodog and Ignition hand histories (``Bovada Hand #``, ``Bodog Hand #``): cash and
tournament 7 Card Stud (``7CARD``) and Stud Hi/Lo (``7CARD HiLo``), the older format (only
``*** HOLE CARDS ***``, raises written ``Raises $0.10``) and the newer (``*** 3RD STREET ***``
to ``*** RIVER ***``, raises written ``Raises $7.50 to $10``).

Players are their seats (``Seat+3``; the history's owner ``Seat+3 [ME]``), and every card of
every player is written (``Card dealt to a spot [7h 8c Jc]``: two down cards and the door card,
then one card a street). The header gives no stakes: the small and big bet are read from the
wagers (a completion or a fourth-street bet is the small bet, a fifth-street bet or a double
bet on an open pair the big bet). Calls and bets are the chips they add, a raise the player's
total on the street. A hand without a written rake was raked what went in less what was won.
"""

from __future__ import annotations

import re

from stud.cards import Card
from stud.history.sites.inferred import (
    cancelled,
    check_complete,
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
from stud.history.sites.reading import LineReader, amount, cards, is_money, named, split_at
from stud.rules import Variant

SITE = "bovada"
HEADER = re.compile(r"^(?:Ignition|Bovada|Bodog(?:\.com|\.eu| UK| Canada|88)?) Hand #C?(\d+):?"
                    r"[ \t]+(.*)$", re.M)
_GAME = re.compile(r"^(?:(?:Zone Poker ID|TBL)#(\S+) )?(\S+(?: HiLo)?) "
                   r"(?:Tournament #(?:M-)?(\d+) TBL#(\d+), )?(.*?) - (\d{4}-\d\d-\d\d[ -]"
                   r"\d\d:\d\d:\d\d)\s*$")
_SEAT = re.compile(r"^Seat[+ ](\d+)(?: \[ME\])?: (?:(.+?) \()?([$]?[\d.,]+) in chips\)?\s*$")
_PLAYER = re.compile(r"^(.+?)(?: \[ME\])? ?: (.+)$")
_AMOUNT = r"([$]?[\d.,]+)"
_SECTION_STREETS = {"3RD STREET": 3, "4TH STREET": 4, "5TH STREET": 5, "6TH STREET": 6,
                    "7TH STREET": 7, "RIVER": 7}
_STREET = re.compile(r"^\*\*\* (HOLE CARDS|3RD STREET|4TH STREET|5TH STREET|6TH STREET|"
                     r"RIVER|SUMMARY) \*\*\*$")
# Lines that move no chips: seats taken and left, sitting out and back, a tournament's
# place for a player knocked out ("Ranking 18"), chat.
_IGNORED = re.compile(r"^(?:Seat sit out|Seat sit down|Seat stand|Seat re-join|"
                      r"Table leave user|Table enter user|Table deposit .*|Sitout \(.*\)|"
                      r"Set dealer/Bring in spot \[\d+\]|Stand up|Stand|Leave table|"
                      r"Sit out|Re-join|Ranking \d+|Chat .*)$")
_TIMEOUT = re.compile(r"\s*\((?:timeout|disconnect)\)\s*")


def detect(text: str) -> bool:
    return bool(HEADER.search(text))


def split(text: str) -> list[tuple[int, str]]:
    """Each hand's text, with the line it starts on (1-based)."""
    return split_at(HEADER, text)


def _variant(game: str, line: int) -> Variant:
    name = game.upper()
    if name in ("7CARD HILO", "7CARD_HL"):
        return Variant.STUD8
    if name == "7CARD":
        return Variant.STUD
    if name == "RAZZ":
        return Variant.RAZZ
    raise SiteError(f"not a stud hand: the game is {game!r}", line)


def parse(text: str, first_line: int = 1) -> SiteHand:
    """One hand's text (from its header line) as a ``SiteHand``."""
    lines = text.split("\n")
    match = HEADER.match(lines[0])
    if match is None:
        raise SiteError("no Bovada hand header", first_line)
    game = _GAME.match(match.group(2).strip())
    if game is None:
        raise SiteError(f"cannot read the header {lines[0]!r}", first_line)
    variant = _variant(game.group(2), first_line)
    if re.search(r"\b(?:No|Pot) Limit\b", game.group(5)):
        raise SiteError(f"not a stud hand: {game.group(5)} {game.group(2)} (stud is played at "
                        f"fixed limit)", first_line)
    tournament = game.group(3)
    cash = not tournament and any(is_money(s) for s in re.findall(r"\S+ in chips", text))
    hand = SiteHand(
        site=SITE, hand=match.group(1), variant=variant, small_bet=0, big_bet=0, seats=[],
        table=game.group(4) or game.group(1), tournament=tournament,
        currency="USD" if cash else None, game=game.group(2), time=game.group(6))
    _Reader(hand, 100 if cash else 1, first_line).read(lines[1:])
    return hand


class _Reader(LineReader):
    """The lines after the header: the seats, the antes, the hand, then the summary."""

    def __init__(self, hand: SiteHand, unit: int, first_line: int) -> None:
        super().__init__(hand, unit, first_line)
        self.section = ""
        self.held: dict[str, list[Card | None]] = {}  # each player's cards so far
        self.live: list[str] = []  # players dealt in and not folded, in seat order
        self.street = 0
        self.chips: dict[str, int] = {}  # this street's chips by player
        self.smalls: list[int] = []  # wagers that show the small bet, then the big
        self.bigs: list[int] = []
        self.summary = False
        self.rake: int | None = None
        self.bring_in = 0

    def read(self, lines: list[str]) -> None:
        for k, raw in enumerate(lines, self.first_line + 1):
            line = raw.strip()
            if line:
                self.line(line, k)
        hand = self.hand
        check_complete(hand.steps, self.first_line, self.summary,
                       self.first_line + len(lines))
        self.stakes()
        won = sum(s.amount for s in hand.steps if isinstance(s, Collected))
        rake = self.rake if self.rake is not None else sum(put_in(hand.steps).values()) - won
        if rake < 0:
            raise SiteError(f"the winners get {won}, more than the pot", self.first_line)
        hand.rake = rake
        hand.bring_in = self.bring_in
        hand.ante = max((s.amount for s in hand.steps if isinstance(s, Ante)), default=0)

    def stakes(self) -> None:
        """The small and big bet, from the wagers that show them."""
        small = self.smalls[0] if self.smalls else None
        big = self.bigs[0] if self.bigs else None
        if small is None and big is None:
            raise SiteError("the hand shows no stakes: nobody completes or bets",
                            self.first_line)
        self.hand.small_bet = small if small is not None else (big or 0) // 2
        self.hand.big_bet = big if big is not None else 2 * self.hand.small_bet

    def line(self, line: str, k: int) -> None:
        street = _STREET.match(line)
        if street is not None:
            self.section = street.group(1)
            self.summary = self.section == "SUMMARY"
            return
        if cancelled(line):
            raise Cancelled("the site cancelled this hand", k)
        if self.summary:
            self.summary_line(line, k)
            return
        if not self.section:
            seat = _SEAT.match(line)
            if seat is not None:
                name = seat.group(2) or f"Seat+{seat.group(1)}"
                self.hand.seats.append(Seat(int(seat.group(1)), name,
                                            amount(seat.group(3), self.unit, k)))
                return
        found = _PLAYER.match(line)
        who = named(found.group(1), self.names) if found else None
        if found is None or who is None or who[1]:
            raise SiteError(f"cannot read {line!r}: it names no player at the table", k)
        text = _TIMEOUT.sub(" ", found.group(2)).strip()
        if _IGNORED.match(text):
            return
        self.player_line(who[0], text, line, k)

    def player_line(self, name: str, text: str, line: str, k: int) -> None:
        hand, unit = self.hand, self.unit
        dealt = re.fullmatch(r"Card dealt to a spot \[([^\]]*)\]", text)
        if dealt is not None:
            self.deal(name, cards(dealt.group(1), k), k)
            return
        ante = re.fullmatch(r"(?:Ante chip|All-in) " + _AMOUNT, text)
        if ante is not None and self.street == 0:
            hand.steps.append(Ante(name, amount(ante.group(1), unit, k)))
            return
        self.owe_river()
        if text == "Checks":
            hand.steps.append(Act(name, "cc", line=k))
        elif text in ("Fold", "Folds"):
            hand.steps.append(Act(name, "f"))
            if name in self.live:
                self.live.remove(name)
        elif found := re.fullmatch(r"(?:Bring_in chip|Bring in|Big blind/Bring in) " + _AMOUNT,
                                   text):
            self.bring_in = amount(found.group(1), unit, k)
            self.wager(name, "pb", self.bring_in)
        elif found := re.fullmatch(r"Calls? " + _AMOUNT, text):
            self.wager(name, "cc", amount(found.group(1), unit, k))
        elif found := re.fullmatch(r"(D bets|Double bets|Bets) " + _AMOUNT, text):
            value = amount(found.group(2), unit, k)
            self.note_stakes(value, found.group(1) != "Bets")
            self.wager(name, "cbr", value)
        elif found := re.fullmatch(r"(?:Raises|All-in\(raise\)|All-in\(raise-timeout\)) "
                                   + _AMOUNT + r"(?: to " + _AMOUNT + r")?", text):
            total = amount(found.group(2) or found.group(1), unit, k)
            if self.street == 3 and not any(v > self.bring_in for v in self.chips.values()):
                self.smalls.append(total)  # the completion
            self.wager(name, "cbr", total - self.chips.get(name, 0))
        elif found := re.fullmatch(r"All-in " + _AMOUNT, text):
            added = amount(found.group(1), unit, k)
            top = max(self.chips.values(), default=0)
            verb = "cbr" if self.chips.get(name, 0) + added > top else "cc"
            self.wager(name, verb, added)
        elif found := re.fullmatch(r"Return uncalled portion of bet " + _AMOUNT, text):
            value = amount(found.group(1), unit, k)
            self.chips[name] = self.chips.get(name, 0) - value
            hand.steps.append(Returned(name, value))
        elif text.startswith("Showdown ["):
            hand.steps.append(Shown(name, tuple(self.held.get(name, ()))))
        elif text.startswith("Does not show"):
            if len(self.live) > 1:
                hand.steps.append(Mucked(name))
        elif text.startswith("Mucks"):
            hand.steps.append(Mucked(name))
        elif found := re.fullmatch(r"Hand (?:R|r)esult(?:-Side (?:P|p)ot)? " + _AMOUNT, text):
            hand.steps.append(Collected(name, amount(found.group(1), unit, k)))
        else:
            raise SiteError(f"cannot read {line!r}", k)

    def deal(self, name: str, new: tuple[Card, ...], k: int) -> None:
        held = self.held.setdefault(name, [])
        street = 3 if not held else len(held) + 1
        if (street == 3) != (len(new) == 3) or street > 7:
            raise SiteError(f"{len(new)} cards dealt to {name}, who holds {len(held)}", k)
        announced = _SECTION_STREETS.get(self.section)
        if announced is not None and announced != street:  # the newer format names streets
            raise SiteError(f"a card for {name}'s street {street} under the street "
                            f"{announced} header: a deal line is missing", k)
        if street == 3:
            self.live.append(name)
            self.live.sort(key=self.names.index)
        elif name not in self.live:
            raise SiteError(f"a card dealt to {name}, who is not in the hand", k)
        if street != self.street:
            self.street = street
            self.chips = {}
        held.extend(new)
        self.hand.steps.append(Dealt(name, street, new))

    def owe_river(self) -> None:
        """Seventh street's cards the history does not write: unknown ones."""
        if self.street != 7:
            return
        for name in self.live:
            if len(self.held.get(name, ())) == 6:
                self.held[name].append(None)
                self.hand.steps.append(Dealt(name, 7, (None,)))

    def wager(self, name: str, verb: str, added: int) -> None:
        self.chips[name] = self.chips.get(name, 0) + added
        self.hand.steps.append(Act(name, verb, added))

    def note_stakes(self, value: int, double: bool) -> None:
        if double or self.street >= 5:
            self.bigs.append(value)
        elif self.street in (3, 4):
            self.smalls.append(value)

    def summary_line(self, line: str, k: int) -> None:
        pot = re.match(r"Total Pot\(" + _AMOUNT + r"\)(?: \| Rake \(" + _AMOUNT + r"\))?", line)
        if pot is not None:
            if pot.group(2) is not None:
                self.rake = amount(pot.group(2), self.unit, k)
            return
        if not re.match(r"Seat[+ ]\d+:", line):
            raise SiteError(f"cannot read {line!r} in the summary", k)


__all__ = ["SITE", "detect", "parse", "split"]
