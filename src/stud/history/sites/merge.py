"""Merge Network (Carbon, Lock, ...) hand histories: XML ``<game id="70969727-130" ...>``
elements, each after the ``<description type="7-Stud H/L8" stakes="Limit $0.25/$0.50"/>`` of
its game (a file is no single XML document: the games stand side by side). Fixed-limit 7-Stud,
7-Stud H/L8 and Razz, alone or in a mixed game (HORSE: ``multigametype``), read with
``xml.etree.ElementTree``.

Players are named by their seats in the events. Each round's cards are written as every
player's cards so far (``cards=",,2h,8s"``, ``null`` or nothing where unknown), after the
round's events: they are dealt before them. ``BET``, ``CALL``, ``COMPLETE`` and ``ALL_IN``
are the chips they add, ``RAISE`` the player's total on the street. A ``winner`` marked
``uncalled="true"`` is an uncalled bet going back. The rake is not written: it is what went in
less what was won.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from stud.cards import Card
from stud.digits import all_digits
from stud.history.sites.inferred import (
    Dealing,
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
from stud.history.sites.reading import (
    XmlLines,
    amount,
    card,
    is_money,
    xml_games,
    xml_hand,
)
from stud.rules import Variant

SITE = "merge"
_GAME = re.compile(r"<game\s+id=\"(\d+-\d+)\"\s+starttime=")  # its opening tag
_DESCRIPTION = re.compile(r"<description\b[^>]*/>")
_CODES = {38: Variant.STUD, 39: Variant.STUD, 41: Variant.STUD, 42: Variant.STUD,
          43: Variant.STUD8, 45: Variant.STUD8, 46: Variant.RAZZ, 47: Variant.RAZZ,
          49: Variant.RAZZ}
_GAMES = {"7-Stud": Variant.STUD, "7-Stud H/L8": Variant.STUD8, "Razz": Variant.RAZZ}
_ROUNDS = {"BRING_IN": 3, "THIRD_STREET": 3, "FOURTH_STREET": 4, "FIFTH_STREET": 5,
           "SIXTH_STREET": 6, "SEVENTH_STREET": 7}
_QUIET = {"SIT_OUT", "SIT_IN", "DISCONNECTED", "RECONNECTED", "LEAVE", "PLAYER_OUT", "JOIN",
          "CHAT", "TIMEOUT"}
_WAGERS = {"BRING_IN": "pb", "CALL": "cc", "BET": "cbr", "COMPLETE": "cbr"}


def detect(text: str) -> bool:
    return bool(_GAME.search(text))


def split(text: str) -> list[tuple[int, str]]:
    """Each ``<game>``'s text, with the line it starts on (1-based), followed by the
    ``<description>`` before it."""
    out: list[tuple[int, str]] = []
    for offset, game in xml_games(_GAME, text):
        descriptions = list(_DESCRIPTION.finditer(text, 0, offset))
        description = descriptions[-1].group(0) if descriptions else ""
        out.append((text.count("\n", 0, offset) + 1, game + "\n" + description))
    return out


def _variant(game: ET.Element, kind: str, line: int) -> Variant:
    code = game.get("multigametype") or game.get("gametype") or ""
    if all_digits(code) and int(code) in _CODES:
        return _CODES[int(code)]
    if kind in _GAMES and not game.get("multigametype"):
        return _GAMES[kind]
    raise SiteError(f"not a stud hand: the game is {kind!r} (game type {code})", line)


def parse(text: str, first_line: int = 1) -> SiteHand:
    """One ``<game>``'s text (with its ``<description>`` after it) as a ``SiteHand``."""
    root = xml_hand(text, first_line)
    game = root.find("game")
    description = root.find("description")
    if game is None or description is None:
        raise SiteError("no <description> of the game before it", first_line)
    kind = re.sub(r"\s+Tournament$", "", description.get("type", ""))
    stakes = re.fullmatch(r"(No Limit|Pot Limit|Half Pot Limit|Limit)\s*\(?([$]?[\d.,]+)/"
                          r"([$]?[\d.,]+)(?:/[$]?[\d.,]+)?\)?", description.get("stakes", ""))
    variant = _variant(game, kind, first_line)
    tournament = description.get("type", "").endswith("Tournament")
    if tournament and description.get("stakes") == "Limit":
        bets: tuple[int, int] | None = _bets_wagered(game)  # a tournament's levels go unsaid
    elif stakes is None or stakes.group(1) != "Limit":
        raise SiteError(f"not a stud hand: {description.get('stakes')} {kind} (stud is played "
                        f"at fixed limit)", first_line)
    else:
        bets = None
    cash = not tournament and stakes is not None and (is_money(stakes.group(2))
                                                       or is_money(stakes.group(3)))
    unit = 100 if cash else 1
    if bets is None:
        assert stakes is not None
        bets = (amount(stakes.group(2), unit, first_line),
                amount(stakes.group(3), unit, first_line))
    data = game.get("data", "").split("|")
    hand = SiteHand(
        site=SITE, hand=game.get("id", "?"), variant=variant,
        small_bet=bets[0], big_bet=bets[1], seats=[],
        table=data[1] if len(data) > 1 else None,
        tournament=data[2] if tournament and len(data) > 2 else None,
        currency="USD" if cash and game.get("realmoney") == "true" else None,
        game=description.get("type"), time=game.get("starttime"))
    _Reader(hand, unit, XmlLines(text, first_line)).read(game)
    if tournament:  # a tournament's balance is the stack after the ante
        antes = {s.player: s.amount for s in hand.steps if isinstance(s, Ante)}
        hand.seats = [Seat(s.number, s.name, s.stack + antes.get(s.name, 0))
                      for s in hand.seats]
    return hand


def _bets_wagered(game: ET.Element) -> tuple[int, int]:
    """A tournament game's small and big bet (chips), from what it wagers: the completion or
    the first bet of third or fourth street, the first bet of a later street (twice the small
    bet where there is none); with no wager at all, any two above the bring-in."""
    small = big = 0
    bring_in = 0
    for element in game.iterfind("round"):
        street = _ROUNDS.get(element.get("id", ""), 0)
        chips: dict[str, float] = {}
        for event in sorted(element.iterfind("event"), key=lambda e: int(e.get("sequence", "0"))):
            kind, who = event.get("type", ""), event.get("player", "")
            value = float(event.get("amount", "0").replace("$", "").replace(",", "") or 0)
            if kind == "BRING_IN":
                bring_in = int(value)
            chips[who] = chips.get(who, 0) + value
            if kind in ("COMPLETE", "BET") and street in (3, 4) and not small:
                small = int(chips[who] if kind == "COMPLETE" else value)
            elif kind == "BET" and street >= 5 and not big:
                big = int(value)
    small = small or big // 2 or 2 * max(bring_in, 1)
    return small, big or 2 * small


class _Reader:
    """A ``<game>`` element: its players, then its rounds."""

    def __init__(self, hand: SiteHand, unit: int, lines: XmlLines) -> None:
        self.hand = hand
        self.unit = unit
        self.lines = lines
        self.dealing = Dealing(hand.steps, hand.seats)
        self.by_seat: dict[str, str] = {}
        self.chips: dict[str, int] = {}  # this street's chips by player

    def read(self, game: ET.Element) -> None:
        hand = self.hand
        for player in game.iterfind("players/player"):
            self.player(player)
        for element in game.iterfind("round"):
            self.round(element)
        self.dealing.close()
        if not any(isinstance(s, Dealt) for s in hand.steps):
            raise SiteError("the hand deals no cards (cut short?)", self.lines.first_line)
        if not any(isinstance(s, Collected) for s in hand.steps):
            raise SiteError("nobody wins the pot: the history is cut short",
                            self.lines.first_line)
        won = sum(s.amount for s in hand.steps if isinstance(s, Collected))
        hand.rake = sum(put_in(hand.steps).values()) - won
        if hand.rake < 0:
            raise SiteError("the winners get more than the pot", self.lines.first_line)
        hand.ante = largest_ante(hand.steps)
        hand.bring_in = first_bring_in(hand.steps)

    def player(self, player: ET.Element) -> None:
        name = player.get("nickname", "")
        seat = player.get("seat", "")
        line = self.lines.of("player", ("seat", seat))
        if not name or not all_digits(seat):
            raise SiteError("a player without a seat or a name", line)
        if player.get("dealtin") == "false":
            return
        self.by_seat[seat] = name
        self.hand.seats.append(Seat(int(seat) + 1, name,
                                    amount(player.get("balance", ""), self.unit, line)))

    def name(self, element: ET.Element, line: int) -> str:
        seat = element.get("player", "")
        if seat not in self.by_seat:
            raise SiteError(f"seat {seat} is not dealt in", line)
        return self.by_seat[seat]

    def round(self, element: ET.Element) -> None:
        kind = element.get("id", "")
        line = self.lines.of("round", ("id", kind))
        street = _ROUNDS.get(kind, 0)
        if street and street != self.dealing.street:
            self.dealing.begin(street, line)
            self.chips = {}
        shown: dict[str, ET.Element] = {}
        for cards in element.iterfind("cards"):
            where = self.lines.of("cards", ("type", cards.get("type", "")),
                                  ("cards", cards.get("cards", "")))
            if cards.get("type") in ("DRAW_DRAWN_CARDS", "HOLE") and street:
                self.dealt(self.name(cards, where), cards.get("cards", ""), where)
            elif cards.get("type") in ("SHOWN", "MUCKED"):
                shown[self.name(cards, where)] = cards
            elif cards.get("type") not in ("DRAW_DRAWN_CARDS", "HOLE"):
                raise SiteError(f"cannot read cards of type {cards.get('type')!r}", where)
        self.dealing.close()
        events = sorted(element.iterfind("event"), key=lambda e: int(e.get("sequence", "0")))
        for event in events:
            self.event(event, shown)
        for winner in element.iterfind("winner"):
            where = self.lines.of("winner", ("amount", winner.get("amount", "")))
            value = amount(winner.get("amount", ""), self.unit, where)
            name = self.name(winner, where)
            if winner.get("uncalled") == "true":
                self.hand.steps.append(Returned(name, value))
            else:
                self.hand.steps.append(Collected(name, value))

    def dealt(self, name: str, text: str, line: int) -> None:
        """``name``'s cards so far: the new ones of this street."""
        have = len(self.dealing.cards(name))
        tokens = text.split(",")
        if name in self.dealing.dealt or name not in self.dealing.live and have:
            return  # the owner's cards, written again after a fold
        new = tokens[have:]
        if len(new) != (3 if self.dealing.street == 3 else 1):
            raise SiteError(f"{len(new)} new cards for {name} on street "
                            f"{self.dealing.street}: {text!r}", line)
        self.dealing.deal(name, tuple(self.card(t, line) for t in new), line)

    @staticmethod
    def card(token: str, line: int) -> Card | None:
        return None if token.strip() in ("", "null") else card(token, line)

    def event(self, event: ET.Element, shown: dict[str, ET.Element]) -> None:
        kind = event.get("type", "")
        line = self.lines.of("event", ("sequence", event.get("sequence", "")))
        if kind == "GAME_CANCELLED":
            raise Cancelled("the site cancelled this hand", line)
        if kind in _QUIET:
            return
        name = self.name(event, line)
        value = amount(event.get("amount", "0"), self.unit, line)
        steps = self.hand.steps
        mine = self.chips.get(name, 0)
        if kind == "ANTE":
            steps.append(Ante(name, value))
            return
        if kind == "FOLD":
            steps.append(Act(name, "f"))
            self.dealing.fold(name)
        elif kind == "CHECK":
            steps.append(Act(name, "cc", line=line))
        elif kind in _WAGERS:
            self.wager(name, _WAGERS[kind], value)
        elif kind == "RAISE":
            self.wager(name, "cbr", value - mine)
        elif kind == "ALL_IN":
            top = max(self.chips.values(), default=0)
            self.wager(name, "cbr" if mine + value > top else "cc", value)
        elif kind == "SHOW":
            cards = shown.get(name)
            held = self.dealing.cards(name)
            listed = tuple(self.card(t, line) for t in cards.get("cards", "").split(",")
                           ) if cards is not None else tuple(held)
            known = tuple(c for c in listed if c is not None)
            steps.append(Shown(name, in_dealing_order(held, known) if len(known) == len(held)
                               else listed))
        elif kind == "MUCK":
            if len(self.dealing.live) > 1:
                steps.append(Mucked(name))
                mucked = shown.get(name)
                if mucked is not None:
                    seen = tuple(card(t, line) for t in mucked.get("cards", "").split(","))
                    steps.append(Shown(name, in_dealing_order(self.dealing.cards(name), seen),
                                       mucked=True))
        else:
            raise SiteError(f"cannot read the event {kind!r}", line)

    def wager(self, name: str, verb: str, added: int) -> None:
        self.chips[name] = self.chips.get(name, 0) + added
        self.hand.steps.append(Act(name, verb, added))


__all__ = ["SITE", "detect", "parse", "split"]
