"""PartyPoker hand histories: cash (``$0.50/$1 USD 7 Card Stud Hi-Lo - ...``, with or without
``FL``) and tournament (``FL 7 Card Stud $6 USD Buy-in Trny:N Level:2 Stakes-Antes(60/120-10) -
...``), 7 Card Stud and 7 Card Stud Hi-Lo, each hand under ``***** Hand History for Game N
*****`` (with the ``Game #N starts.`` and ``#Game No : N`` lines before it, where written).

Streets are ``** Dealing **`` (third) to ``** Dealing River **``; amounts are in brackets and are
what the action adds (``raises [$17 USD]`` after a $3 bring-in is a raise to $20). The site
prints only its owner's cards while the hand is played: everyone else's cards, up cards too, are
unknown (None) unless listed at the end (``shows [ ... ]``, ``doesn't show [ ... ]``). It
writes no uncalled bet going back and no rake: both are worked out (the rake is what the pot
held beyond what was won). ``X opens`` names the first to act on a street; it must be so.
"""

from __future__ import annotations

import re

from stud.cards import Card
from stud.history.sites.inferred import in_dealing_order, put_in, uncalled
from stud.history.sites.model import (
    Act,
    Ante,
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
    amount,
    ante_of,
    bring_in_of,
    cards,
    is_money,
    named,
)
from stud.rules import Variant

SITE = "partypoker"
HEADER = re.compile(r"^\*{5} Hand History [Ff]or Game (\d+)\w*? \*{5}(?: \([^()]*\))?\s*$", re.M)
_PREAMBLE = re.compile(r"^(?:Game #\d+ starts\.|#Game No ?: ?\d+)\s*$")
_STREETS = {"** Dealing **": 3, "** Dealing Fourth street **": 4,
            "** Dealing Fifth street **": 5, "** Dealing Sixth street **": 6,
            "** Dealing River **": 7}
_MONEY = r"[$€£]?[\d.,]+"
_CODE = r"(?:USD|EUR|GBP|CAD)"
_BRACKET = re.compile(r"^\[\s*(" + _MONEY + r")\s*(?:" + _CODE + r"|chips)?\s*\]$")
_CASH = re.compile(r"^(" + _MONEY + r")/(" + _MONEY + r")\s*(?:" + _CODE + r")?\s+")
_LEVEL = re.compile(r"(?:Blinds|Stakes)(?:-Antes)?\(\s*([\d.,]+)\s*/\s*([\d.,]+)"
                    r"(?:\s*-\s*([\d.,]+))?\s*\)")
_SEAT = re.compile(r"^Seat (\d+): (.+) \(\s*([^()]*?)\s*\)$")
_WINS = re.compile(r"^ wins (?:Lo \()?(" + _MONEY + r")(?: " + _CODE + r"| chips)?\)?"
                   r"(?: from .*)?$")
_IGNORED = re.compile(
    r"^(?:.+ (?:has joined the table|has left the table|is sitting out|is disconnected.*|"
    r"has been reconnected|has reconnected|did not respond in time|"
    r"could not respond in time.*|will be using (?:his|her|their) time bank.*|"
    r"has \d+ seconds left to act|finished in \d+ place|is connected|is back)\.?|"
    r"There was no qualifying low hand\.?|"
    r".+ shows\s*[\dAKQJT,]+\s+for low\.?|"  # the low a player's shown hand makes
    r"Seat \d+ is the button|Total number of players ?: ?\d+(?:/\d+)?|"
    r"Trny: ?\d+ Level: ?\d+|(?:Blinds|Stakes)(?:-Antes)?\(.*\)|"
    r"(?!Seat \d+: )[^\[\]]{1,40}?: .*)$")  # chat


def detect(text: str) -> bool:
    return bool(HEADER.search(text))


def split(text: str) -> list[tuple[int, str]]:
    """Each hand's text, with the line it starts on (1-based): from the lines announcing it
    (``Game #N starts.``, ``#Game No : N``) where there are some, else from its header."""
    lines = text.split("\n")
    starts: list[int] = []
    for k, line in enumerate(lines):
        if HEADER.match(line):
            start = k
            j = k - 1
            while j >= 0 and (not lines[j].strip() or _PREAMBLE.match(lines[j].strip())):
                if lines[j].strip():
                    start = j
                j -= 1
            starts.append(start)
    return [(a + 1, "\n".join(lines[a:b]).strip("\n"))
            for a, b in zip(starts, [*starts[1:], len(lines)], strict=True)]


def _variant(game: str, line: int) -> Variant:
    name = game.casefold()
    if "7 card stud" in name:
        return Variant.STUD8 if "hi-lo" in name or "hi/lo" in name else Variant.STUD
    raise SiteError(f"not a stud hand: the game is {game.strip()!r}", line)


def parse(text: str, first_line: int = 1) -> SiteHand:
    """One hand's text (from its header line, or the lines announcing it) as a ``SiteHand``."""
    lines = text.split("\n")
    at = 0
    while at < len(lines) and (not lines[at].strip() or _PREAMBLE.match(lines[at].strip())):
        at += 1
    match = HEADER.match(lines[at]) if at < len(lines) else None
    if match is None or at + 1 >= len(lines):
        raise SiteError("no PartyPoker hand header", first_line + at)
    k = first_line + at + 1
    game_line = lines[at + 1].strip()
    game, _, when = game_line.rpartition(" - ")
    variant = _variant(game or game_line, k)
    hand = SiteHand(site=SITE, hand=match.group(1), variant=variant, small_bet=0, big_bet=0,
                    seats=[], time=when or None)
    tournament = re.search(r"Trny: ?(\d+)", game_line) or re.search(r"^Trny: ?(\d+)", text, re.M)
    if tournament:
        level = _LEVEL.search(text)
        if level is None:
            raise SiteError("the tournament's stakes are not given", k)
        unit = 1
        hand.tournament = tournament.group(1)
        hand.small_bet, hand.big_bet = (amount(level.group(n), unit, k) for n in (1, 2))
        hand.ante = amount(level.group(3), unit, k) if level.group(3) else 0
        hand.game = re.sub(r"\s+(?:" + _MONEY + r"\s*(?:" + _CODE + r")?\s*Buy-in.*|Trny:.*)$",
                           "", game)
    else:
        stakes = _CASH.match(game)
        if stakes is None:
            raise SiteError("the header gives no stakes (small bet/big bet)", k)
        unit = 100 if is_money(stakes.group(1)) or is_money(stakes.group(2)) else 1
        hand.small_bet, hand.big_bet = (amount(stakes.group(n), unit, k) for n in (1, 2))
        code = re.search(r"\b(" + _CODE + r")\b", game)
        sign = CURRENCIES.get(stakes.group(1)[:1])
        hand.currency = (code.group(1) if code else sign) if unit == 100 else None
        hand.game = game[stakes.end():].strip()
    _Reader(hand, unit, k).read(lines[at + 2:])
    return hand


class _Reader:
    """The lines after the game's: the table, the seats, the antes, the streets."""

    def __init__(self, hand: SiteHand, unit: int, game_line: int) -> None:
        self.hand = hand
        self.unit = unit
        self.game_line = game_line
        self.street = 0
        self.live: list[str] = []  # players dealt in and not folded, in seat order
        self.cards: dict[str, list[Card | None]] = {}  # cards so far, None: unknown
        self.dealt_at: dict[str, int] = {}  # this street's deal to each player: step index
        self.street_in: dict[str, int] = {}  # chips each player put in on this street
        self.opener: tuple[str, int] | None = None  # who opens the street, and where it says
        self.showdown = False
        self.bring_ins: list[tuple[int, bool]] = []
        self.antes: list[tuple[int, bool]] = []

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.hand.seats]

    def read(self, lines: list[str]) -> None:
        last = self.game_line
        for k, raw in enumerate(lines, self.game_line + 1):
            line = raw.strip()
            if line:
                self.line(line, k)
                last = k
        hand = self.hand
        if not any(isinstance(s, Dealt) for s in hand.steps):
            raise SiteError("the hand deals no cards (cut short?)", self.game_line)
        if not any(isinstance(s, Collected) for s in hand.steps):
            raise SiteError("nobody wins the pot: the history is cut short", last)
        hand.bring_in = bring_in_of(self.bring_ins) or hand.bring_in
        hand.ante = hand.ante or ante_of(self.antes)
        self.settle(last)

    def settle(self, last: int) -> None:
        """The uncalled bet back to its owner, and the rake: what the pot held beyond what was
        won (none in a tournament)."""
        hand = self.hand
        back = uncalled(hand.steps)
        if back is not None:
            at = max(k for k, s in enumerate(hand.steps) if isinstance(s, Act)) + 1
            hand.steps.insert(at, back)
        pot = sum(put_in(hand.steps).values())
        won = sum(s.amount for s in hand.steps if isinstance(s, Collected))
        if won > pot or (hand.tournament and won != pot):
            raise SiteError(f"the pot held {pot} and {won} was won", last)
        hand.rake = pot - won

    def line(self, line: str, k: int) -> None:
        hand = self.hand
        if line in _STREETS:
            self.deal(_STREETS[line])
            return
        if self.street == 0:
            table = re.match(r"^Table (.+?)\s*\((?:Real|Play) Money\)", line)
            if table is not None:
                hand.table = table.group(1)
                return
            seat = _SEAT.match(line)
            if seat is not None:
                hand.seats.append(Seat(int(seat.group(1)), seat.group(2),
                                       amount(seat.group(3), self.unit, k)))
                hand.seats.sort(key=lambda s: s.number)
                return
        if line.startswith("Dealt to "):
            self.dealt(line[len("Dealt to "):], k)
            return
        who = named(line, self.names)
        if who is not None and not who[1].startswith(": "):
            self.player_line(who[0], who[1], line, k)
            return
        if _IGNORED.match(line):
            return
        raise SiteError(f"cannot read {line!r}" + ("" if who else
                                                   ": it names no player at the table"), k)

    def deal(self, street: int) -> None:
        """Every player still in gets the street's cards, unknown until the site says."""
        hand = self.hand
        if street == 3:
            posted = [s.player for s in hand.steps if isinstance(s, Ante)]
            self.live = [n for n in self.names if n in posted] if posted else list(self.names)
        self.street = street
        self.street_in = {}
        self.opener = None
        self.dealt_at = {}
        for name in self.live:
            new: tuple[Card | None, ...] = (None,) * (3 if street == 3 else 1)
            self.dealt_at[name] = len(hand.steps)
            hand.steps.append(Dealt(name, street, new))
            self.cards.setdefault(name, []).extend(new)

    def dealt(self, text: str, k: int) -> None:
        who = named(text, self.names)
        if who is None:
            raise SiteError(f"cards dealt to a player not at the table: {text!r}", k)
        name, rest = who
        found = re.match(r"^ \[([^\]]*)\]$", rest)
        if found is None or name not in self.dealt_at:
            raise SiteError(f"cannot read 'Dealt to {text}'", k)
        new = cards(found.group(1).replace(",", " "), k)
        if len(new) != (3 if self.street == 3 else 1):
            raise SiteError(f"{name} gets {len(new)} cards on street {self.street}", k)
        self.hand.steps[self.dealt_at[name]] = Dealt(name, self.street, new)
        self.cards[name][-len(new):] = new

    def player_line(self, name: str, rest: str, line: str, k: int) -> None:
        hand = self.hand
        won = _WINS.match(rest.rstrip("."))
        if won is not None:
            hand.steps.append(Collected(name, amount(won.group(1), self.unit, k)))
            return
        if rest == " opens":
            self.opener = (name, k)
            return
        shown = re.match(r"^ (shows|doesn't show) \[([^\]]*)\]", rest)
        if shown is not None:
            self.showdown = True
            listed = cards(shown.group(2).replace(",", " "), k)
            if name not in self.cards:
                raise SiteError(f"{name} shows cards but was not dealt in", k)
            known = in_dealing_order(self.cards[name], listed)
            if shown.group(1) == "shows":
                hand.steps.append(Shown(name, known))
            else:
                hand.steps.append(Mucked(name))
                hand.steps.append(Shown(name, known, mucked=True))
            return
        if rest in (" does not show cards.", " does not show cards", " mucks"):
            if len(self.live) > 1:  # at a showdown; a winner nobody called mucks unseen
                hand.steps.append(Mucked(name))
            return
        found = re.match(r"^ (posts ante(?: of)?|bring-ins|completes|calls|bets|double bets|"
                         r"raises|is all-In)\s+(\[[^\]]*\])\.?$", rest)
        if found is not None:
            value = _BRACKET.match(found.group(2))
            if value is None:
                raise SiteError(f"cannot read {line!r}", k)
            self.wager(name, found.group(1), amount(value.group(1), self.unit, k), k)
            return
        if rest in (" checks", " folds"):
            self.act(Act(name, "cc" if rest == " checks" else "f"), k)
            if rest == " folds" and name in self.live:
                self.live.remove(name)
            return
        if _IGNORED.match(line):
            return
        raise SiteError(f"cannot read {line!r}", k)

    def wager(self, name: str, verb: str, value: int, k: int) -> None:
        if verb.startswith("posts ante"):
            if self.street:
                raise SiteError(f"{name} posts an ante after the deal", k)
            self.antes.append((value, False))
            self.hand.steps.append(Ante(name, value))
            return
        if verb == "is all-In":  # a bring-in, call, bet or raise: what it adds says which
            high = max(self.street_in.values(), default=0)
            if self.street == 3 and not high:
                verb = "bring-ins" if value < self.hand.small_bet else "bets"
            else:
                verb = "bets" if self.street_in.get(name, 0) + value > high else "calls"
            if verb == "bring-ins":
                self.bring_ins.append((value, True))
        elif verb == "bring-ins":
            self.bring_ins.append((value, False))
        code = {"bring-ins": "pb", "calls": "cc"}.get(verb, "cbr")
        self.act(Act(name, code, value), k)

    def act(self, act: Act, k: int) -> None:
        if self.street == 0:
            raise SiteError(f"{act.player} acts before the deal", k)
        if self.opener is not None:
            opener, said = self.opener
            if act.player != opener:
                raise SiteError(f"line {said} says {opener} opens, but {act.player} acts "
                                f"first", k)
            self.opener = None
        self.street_in[act.player] = self.street_in.get(act.player, 0) + act.amount
        self.hand.steps.append(act)


__all__ = ["SITE", "detect", "parse", "split"]
