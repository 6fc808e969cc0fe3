"""Everleaf Gaming hand histories (``Everleaf Gaming Game #``): cash 7 Card Stud, Hi/Lo and
Razz, in dollars or euros, the older format (``**** dealing 4th street ****``, no cards dealt
written for anyone) and the newer (``** Dealing 4th Street **``, every up card and the
owner's down cards written ``Dealt to NAME [ Ah ].``).

Everleaf writes no line for an uncalled bet going back (the winner ``wins`` the pot without
it), nor a rake: the uncalled part of the last wager goes back to its owner, and the rake is
what went in less what was won. Wagers are written as the chips they add (``raises [$ 0.20
USD]``), a completion as the player's total (``completes to $0.05.``). A shown hand lists its
down cards in any order; they are put back in the order they were dealt.
"""

from __future__ import annotations

import re

from stud.history.sites.inferred import (
    Dealing,
    cancelled,
    in_dealing_order,
    largest_ante,
    put_in,
    uncalled,
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
    cards,
    first_match,
    is_money,
    named,
    split_at,
)
from stud.rules import Variant

SITE = "everleaf"
HEADER = re.compile(r"^Everleaf Gaming Game #(\d+)\s*$", re.M)
_GAME = re.compile(r"^([$€£]?\s*[\d.,]+)/([$€£]?\s*[\d.,]+) (.+?) - (\d{4}/\d\d/\d\d - "
                   r"\d\d:\d\d:\d\d)\s*$")
_SEAT = re.compile(r"^Seat (\d+): (.+) \(\s*([^()]*?)\s*\)$")
_STREET = re.compile(r"^\*\*+ (?:Dealing|dealing) (down cards|4th street|5th street|"
                     r"6th street|river) \*\*+$", re.I)
_STREETS = {"down cards": 3, "4th street": 4, "5th street": 5, "6th street": 6, "river": 7}
_BRACKET = r"\[\s*([^\]]*?)\s*\]"
_IGNORED = re.compile(r"^(?:\*\*\*\*\* Hand history for game #\d+ \*\*\*\*\*|"
                      r"Total number of players: \d+|.+ (?:has joined the table|"
                      r"has left the table|is sitting out|sits out|has returned|"
                      r"is disconnected|is connected|has timed out)\.?)$")


def detect(text: str) -> bool:
    return bool(HEADER.search(text))


def split(text: str) -> list[tuple[int, str]]:
    """Each hand's text, with the line it starts on (1-based)."""
    return split_at(HEADER, text)


def _variant(game: str, line: int) -> Variant:
    name = game.casefold()
    if "stud" in name and ("hi/lo" in name or "hi-lo" in name or "8" in name.split()):
        return Variant.STUD8
    if "razz" in name:
        return Variant.RAZZ
    if "7 card stud" in name or "seven card stud" in name:
        return Variant.STUD
    raise SiteError(f"not a stud hand: the game is {game.strip()!r}", line)


def _money(text: str, unit: int, line: int) -> int:
    """``€ 0.01 EURO``, ``$ 0.02 USD``, ``$0.05``."""
    return amount(re.sub(r"\bEURO\b", "", text), unit, line)


def parse(text: str, first_line: int = 1) -> SiteHand:
    """One hand's text (from its ``Everleaf Gaming Game #`` line) as a ``SiteHand``."""
    lines = text.split("\n")
    match = HEADER.match(lines[0])
    if match is None:
        raise SiteError("no Everleaf hand header", first_line)
    found = first_match(_GAME, lines, first_line)
    if found is None:
        raise SiteError("the hand gives no game and stakes line", first_line)
    k, game = found
    variant = _variant(game.group(3), k)
    cash = is_money(game.group(1)) or is_money(game.group(2))
    unit = 100 if cash else 1
    sign = game.group(1).strip()[:1]
    hand = SiteHand(
        site=SITE, hand=match.group(1), variant=variant,
        small_bet=_money(game.group(1), unit, k), big_bet=_money(game.group(2), unit, k),
        seats=[], currency=CURRENCIES.get(sign) if cash else None,
        game=game.group(3).strip(), time=game.group(4))
    _Reader(hand, unit, first_line).read(lines[1:], k - first_line)
    return hand


class _Reader(LineReader):
    """The lines after the header: the game, the table, the seats, then the hand."""

    def __init__(self, hand: SiteHand, unit: int, first_line: int) -> None:
        super().__init__(hand, unit, first_line)
        self.dealing = Dealing(hand.steps, hand.seats)
        self.showdown = -1  # the step where the showdown begins
        self.bring_ins: list[int] = []

    def read(self, lines: list[str], game_line: int) -> None:
        for k, raw in enumerate(lines, self.first_line + 1):
            line = raw.strip()
            if line and k - self.first_line != game_line:
                self.line(line, k)
        self.dealing.close()
        hand = self.hand
        if not any(isinstance(s, Dealt) for s in hand.steps):
            raise SiteError("the hand deals no cards (cut short?)", self.first_line)
        if not any(isinstance(s, Collected) for s in hand.steps):
            raise SiteError("nobody wins the pot: the history is cut short",
                            self.first_line + len(lines))
        at = self.showdown if self.showdown >= 0 else len(hand.steps)
        back = uncalled(hand.steps[:at])
        if back is not None:
            hand.steps.insert(at, back)
        won = sum(s.amount for s in hand.steps if isinstance(s, Collected))
        rake = sum(put_in(hand.steps).values()) - won
        if rake < 0:
            raise SiteError(f"the winners get more than the pot ({won} won, "
                            f"{won + rake} in the pot)", self.first_line)
        hand.rake = rake
        if self.bring_ins:
            hand.bring_in = self.bring_ins[0]
        hand.ante = largest_ante(hand.steps)

    def line(self, line: str, k: int) -> None:
        hand = self.hand
        if line.startswith("Table "):
            hand.table = line[len("Table "):].strip()
            return
        street = _STREET.match(line)
        if street is not None:
            self.dealing.begin(_STREETS[street.group(1).casefold()], k)
            return
        if cancelled(line):
            raise Cancelled("the site cancelled this hand", k)
        if self.dealing.street == 0:
            seat = _SEAT.match(line)
            if seat is not None:
                hand.seats.append(Seat(int(seat.group(1)), seat.group(2),
                                       _money(seat.group(3), self.unit, k)))
                return
        if _IGNORED.match(line):
            return
        if line.startswith("Dealt to "):
            self.dealt_line(line[len("Dealt to "):], k)
            return
        who = named(line, self.names)
        if who is None:
            raise SiteError(f"cannot read {line!r}: it names no player at the table", k)
        self.dealing.close()
        self.player_line(who[0], who[1], line, k)

    def dealt_line(self, text: str, k: int) -> None:
        who = named(text, self.names)
        found = re.fullmatch(r"\s*" + _BRACKET + r"\s*\.?", who[1]) if who else None
        if who is None or found is None:
            raise SiteError(f"cannot read 'Dealt to {text}'", k)
        self.dealing.deal(who[0], cards(found.group(1).replace(",", " "), k), k)

    def player_line(self, name: str, rest: str, line: str, k: int) -> None:
        hand, unit = self.hand, self.unit
        found = re.fullmatch(r": posts ante " + _BRACKET, rest)
        if found is not None:
            hand.steps.append(Ante(name, _money(found.group(1), unit, k)))
            return
        if rest == " checks":
            hand.steps.append(Act(name, "cc", line=k))
        elif rest == " folds":
            hand.steps.append(Act(name, "f"))
            self.dealing.fold(name)
        elif found := re.fullmatch(r" posts bring-in (.+?)\.?", rest):
            value = _money(found.group(1), unit, k)
            self.bring_ins.append(value)
            hand.steps.append(Act(name, "pb", value))
        elif found := re.fullmatch(r" completes to (.+?)\.?", rest):
            hand.steps.append(Act(name, "cbr", _money(found.group(1), unit, k), to=True))
        elif found := re.fullmatch(r" calls " + _BRACKET, rest):
            hand.steps.append(Act(name, "cc", _money(found.group(1), unit, k)))
        elif found := re.fullmatch(r"(?::)? (?:bets|raises) " + _BRACKET, rest):
            hand.steps.append(Act(name, "cbr", _money(found.group(1), unit, k)))
        elif found := re.fullmatch(r" shows " + _BRACKET + r".*", rest):
            self.begin_showdown()
            shown = cards(found.group(1).replace(",", " "), k)
            hand.steps.append(Shown(name, in_dealing_order(self.dealing.cards(name), shown)))
        elif rest == " does not show cards":
            self.begin_showdown()
            if len(self.dealing.live) > 1:
                hand.steps.append(Mucked(name))
        elif found := re.fullmatch(r" wins (.+?) from (?:the )?(?:main|side) pot(?: \d+)?"
                                   r"(?: with .*)?", rest):
            self.begin_showdown()
            hand.steps.append(Collected(name, _money(found.group(1), unit, k)))
        else:
            raise SiteError(f"cannot read {line!r}", k)

    def begin_showdown(self) -> None:
        if self.showdown < 0:
            self.showdown = len(self.hand.steps)


__all__ = ["SITE", "detect", "parse", "split"]
