"""iPoker network hand histories, the XML kind (``<session>`` holding ``<game gamecode=...>``):
cash and tournament 7 Card Stud, Hi-Lo and Razz (``<gametype>7 Card Stud Hi-Lo L
€0.05/€0.10</gametype>``), read with ``xml.etree.ElementTree``.

Each ``<game>`` is a hand: its players with their starting ``chips``, what they ``bet`` in all
and ``win``; then rounds 0 (antes) and 2 to 6 (third street to the river), each with the cards
dealt (``<cards type="Fourth Street" player="P">C3</cards>``, suit first, ``X`` unknown) and
the actions, put in order by their ``no``. Action types: 0 fold, 3 call, 4 check, 5 bet (or
complete), 6 raise by, 7 all in (the chips it adds), 15 ante, 16 bring-in, 23 raise to.

The history writes no uncalled bet going back: a player's ``win`` holds it. The rake is what
was bet less what was won; each player's actions must add up to his ``bet``. Nothing says who
showed: at a showdown every player still in whose cards are all written shows them, the others
muck. Hands of a session share its ``<general>`` (the game, the stakes,
the table): ``split`` puts it after each hand's own text, so that line numbers stay the file's.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from stud.cards import Card
from stud.digits import all_digits
from stud.history.sites.inferred import (
    first_bring_in,
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
    Seat,
    Shown,
    SiteError,
    SiteHand,
    Step,
)
from stud.history.sites.reading import (
    CURRENCIES,
    XmlLines,
    amount,
    card,
    is_money,
    xml_games,
    xml_hand,
)
from stud.rules import Variant

SITE = "ipoker"
_SESSION = re.compile(r"<session\b[^>]*>")
_GAME = re.compile(r"<game\b[^>]*?\bgamecode=\"(\d+)\"")  # its opening tag
_GENERAL = re.compile(r"<general>.*?</general>", re.S)
_STAKES = re.compile(r"^(.*?)\s+(?:(?:L|FL|Limit|Fixed Limit)\s+)?([$€£]?[\d.,]+)/([$€£]?[\d.,]+)"
                     r"(?:\s+[A-Z]{3})?\s*$")
_STREETS = {"Third Street": 3, "Fourth Street": 4, "Fifth Street": 5, "Sixth Street": 6,
            "River": 7, "Seventh Street": 7}


def detect(text: str) -> bool:
    return bool(_SESSION.search(text)) and bool(_GAME.search(text)) and "<gametype>" in text


def split(text: str) -> list[tuple[int, str]]:
    """Each ``<game>``'s text, with the line it starts on (1-based), followed by the
    ``<general>`` of its session."""
    out: list[tuple[int, str]] = []
    sessions = [m.start() for m in _SESSION.finditer(text)]
    for k, start in enumerate(sessions):
        end = sessions[k + 1] if k + 1 < len(sessions) else len(text)
        body = text[start:end]
        first_game = _GAME.search(body)
        general = _GENERAL.search(body[:first_game.start()] if first_game else body)
        shared = " ".join(general.group(0).split()) if general else ""
        for offset, game in xml_games(_GAME, body):
            line = text.count("\n", 0, start + offset) + 1
            out.append((line, game + "\n" + shared))
    return out


def _variant(game: str, line: int) -> Variant:
    name = game.casefold()
    if "stud" in name and ("hi-lo" in name or "hi/lo" in name or "hilo" in name):
        return Variant.STUD8
    if "razz" in name:
        return Variant.RAZZ
    if "7 card stud" in name or "seven card stud" in name:
        return Variant.STUD
    raise SiteError(f"not a stud hand: the game is {game.strip()!r}", line)


def _card(text: str, line: int) -> Card | None:
    """``D7``, ``C10``, ``SK``; ``X`` is a card not known."""
    if text.upper() == "X":
        return None
    if len(text) < 2:
        raise SiteError(f"{text!r} is not a card", line)
    return card(text[1:] + text[0], line)


def parse(text: str, first_line: int = 1) -> SiteHand:
    """One ``<game>``'s text (with its session's ``<general>`` after it) as a ``SiteHand``."""
    root = xml_hand(text, first_line)
    game = root.find("game")
    if game is None:
        raise SiteError("no <game> in the hand", first_line)
    general = root.find("general")
    gametype = general.findtext("gametype", "") if general is not None else ""
    stakes = _STAKES.match(gametype.strip())
    if stakes is None:
        raise SiteError(f"the game gives no stakes: <gametype>{gametype}</gametype>", first_line)
    variant = _variant(stakes.group(1), first_line)
    tournament = general.findtext("tournamentcode") if general is not None else None
    cash = not tournament and (is_money(stakes.group(2)) or is_money(stakes.group(3)))
    unit = 100 if cash else 1
    currency = None
    if cash and general is not None:
        currency = (general.findtext("tablecurrency") or general.findtext("currency") or
                    CURRENCIES.get(stakes.group(2)[:1]))
    hand = SiteHand(
        site=SITE, hand=game.get("gamecode", "?"), variant=variant,
        small_bet=amount(stakes.group(2), unit, first_line),
        big_bet=amount(stakes.group(3), unit, first_line), seats=[],
        table=general.findtext("tablename") if general is not None else None,
        tournament=tournament, currency=currency, game=stakes.group(1).strip(),
        time=game.findtext("general/startdate"))
    _Reader(hand, unit, XmlLines(text, first_line)).read(game)
    return hand


class _Reader:
    """A ``<game>`` element: its players, then its rounds."""

    def __init__(self, hand: SiteHand, unit: int, lines: XmlLines) -> None:
        self.hand = hand
        self.unit = unit
        self.lines = lines
        self.held: dict[str, list[Card | None]] = {}
        self.live: list[str] = []
        self.bets: dict[str, int] = {}  # what each player bet in all, by the history
        self.wins: dict[str, int] = {}

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.hand.seats]

    def read(self, game: ET.Element) -> None:
        hand = self.hand
        if game.find("cancelled") is not None or game.get("cancelled") == "1":
            raise Cancelled("the site cancelled this hand", self.lines.first_line)
        for player in game.iterfind("general/players/player"):
            self.player(player)
        rounds = game.findall("round")
        if not rounds:
            raise SiteError("the hand has no rounds (cut short?)", self.lines.first_line)
        for element in rounds:
            self.round(element)
        if not any(isinstance(s, Dealt) for s in hand.steps):
            raise SiteError("the hand deals no cards (cut short?)", self.lines.first_line)
        self.showdown()
        for name in self.names:
            if self.wins.get(name):
                hand.steps.append(Collected(name, self.wins[name]))
        self.check_bets()
        hand.rake = sum(self.bets.values()) - sum(self.wins.values())
        if hand.rake < 0:
            raise SiteError("the players win more than they bet", self.lines.first_line)
        hand.ante = largest_ante(hand.steps)
        hand.bring_in = first_bring_in(hand.steps)

    def player(self, player: ET.Element) -> None:
        name = player.get("name", "")
        if not name:
            return  # an empty seat
        line = self.lines.of("player", ("name", name))
        seat = player.get("seat", "")
        if not all_digits(seat):
            raise SiteError(f"player {name!r} has no seat number", line)
        self.hand.seats.append(Seat(int(seat), name, amount(player.get("chips", ""),
                                                            self.unit, line)))
        self.bets[name] = amount(player.get("bet", "0"), self.unit, line)
        self.wins[name] = amount(player.get("win", "0"), self.unit, line)

    def round(self, element: ET.Element) -> None:
        number = element.get("no", "")
        if not all_digits(number):
            raise SiteError("a round without a number", self.lines.first_line)
        street = int(number) + 1 if int(number) >= 2 else 0
        if street > 7:
            raise SiteError(f"round {number}: stud has no street {street}",
                            self.lines.of("round", ("no", number)))
        dealt = {}
        for cards in element.iterfind("cards"):
            dealt[cards.get("player", "")] = cards
        if street:
            self.deal(street, dealt)
        elif dealt:
            raise SiteError(f"cards dealt in round {number}",
                            self.lines.of("round", ("no", number)))
        actions = sorted(element.iterfind("action"), key=lambda a: int(a.get("no", "0")))
        chips: dict[str, int] = {}
        for action in actions:
            self.action(action, street, chips)

    def deal(self, street: int, dealt: dict[str, ET.Element]) -> None:
        for name in dealt:
            if name not in self.names:
                raise SiteError(f"cards dealt to {name!r}, who is not at the table",
                                self.lines.of("cards", ("player", name)))
        if street == 3:
            self.live = [n for n in self.names if n in dealt]
        for name in self.live:
            element = dealt.get(name)
            if element is None:
                if street < 7:
                    raise SiteError(f"no card dealt to {name} on street {street}",
                                    self.lines.first_line)
                new: tuple[Card | None, ...] = (None,)
            else:
                line = self.lines.of("cards", ("type", element.get("type", "")), ("player", name))
                if _STREETS.get(element.get("type", "")) != street:
                    raise SiteError(f"{element.get('type')!r} cards on street {street}", line)
                new = tuple(_card(t, line) for t in (element.text or "").split())
                if len(new) != (3 if street == 3 else 1):
                    raise SiteError(f"{len(new)} cards dealt to {name} on street {street}",
                                    line)
            self.held.setdefault(name, []).extend(new)
            self.hand.steps.append(Dealt(name, street, new))

    def action(self, action: ET.Element, street: int, chips: dict[str, int]) -> None:
        name = action.get("player", "")
        kind = action.get("type", "")
        line = self.lines.of("action", ("no", action.get("no", "")), ("player", name))
        if name not in self.names:
            raise SiteError(f"an action by {name!r}, who is not at the table", line)
        value = amount(action.get("sum", "0"), self.unit, line)
        steps = self.hand.steps
        step: Step
        if kind == "15" and street == 0:
            step = Ante(name, value)
        elif street == 0:
            raise SiteError(f"action type {kind} before the cards are dealt", line)
        elif kind == "0":
            step = Act(name, "f")
            if name in self.live:
                self.live.remove(name)
        elif kind == "4":
            step = Act(name, "cc", line=line)
        elif kind in ("3", "5", "16"):
            step = Act(name, {"3": "cc", "5": "cbr", "16": "pb"}[kind], value)
        elif kind == "7":  # all in: a call unless it puts in more than the others
            top = max(chips.values(), default=0)
            step = Act(name, "cbr" if chips.get(name, 0) + value > top else "cc", value)
        elif kind == "6":  # raise by
            top = max(chips.values(), default=0)
            step = Act(name, "cbr", top + value - chips.get(name, 0))
        elif kind == "23":  # raise to
            step = Act(name, "cbr", value - chips.get(name, 0))
        else:
            raise SiteError(f"cannot read action type {kind!r}", line)
        if isinstance(step, Act):
            chips[name] = chips.get(name, 0) + step.amount
        steps.append(step)

    def showdown(self) -> None:
        if len(self.live) < 2:
            return
        for name in self.live:
            held = self.held.get(name, [])
            if held and all(c is not None for c in held):
                self.hand.steps.append(Shown(name, tuple(held)))
            else:
                self.hand.steps.append(Mucked(name))

    def check_bets(self) -> None:
        mine = put_in(self.hand.steps)
        for name, bet in self.bets.items():
            if mine.get(name, 0) != bet:
                raise SiteError(f"{name} bets {mine.get(name, 0)} by the actions, but "
                                f"{bet} by the history", self.lines.of("player", ("name", name)))


__all__ = ["SITE", "detect", "parse", "split"]
