"""Full Tilt Poker hand histories: cash (dollars, euros or play chips) and tournament, 7 Card
Stud (``Stud Hi``), Hi/Lo (``Stud H/L``) and Razz, the header ``Full Tilt Poker Game #N: Table
T - $2/$4 Ante $0.40 - Limit Stud Hi - 13:14:27 ET - 2010/06/10`` (a tournament hand's names
the tournament first: ``$200 Heads-Up Sit & Go (123), Table 1 - 40/80 Ante 7 - Limit Razz``).
Streets are ``*** 3RD STREET ***`` to ``*** 7TH STREET ***``; everyone's up cards are printed
(``Dealt to X [9c] [9d]``), the owner's down cards too; nobody else's seventh-street card.
Shown hands list their down cards in any order: they are put back in dealing order. Antes,
the rake and every amount are as the site wrote them; an ante returned (``Ante of $0.40
returned to X``) leaves its player out of the hand.
"""

from __future__ import annotations

import re

from stud.cards import Card
from stud.history.sites.inferred import in_dealing_order
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
    ante_of,
    bring_in_of,
    cards,
    is_money,
    named,
    split_at,
)
from stud.rules import Variant

SITE = "fulltilt"
HEADER = re.compile(r"^Full ?Tilt ?Poker Game #(\d+):", re.M)
_STREETS = {"3RD": 3, "4TH": 4, "5TH": 5, "6TH": 6, "7TH": 7}
_STREET = re.compile(r"^\*\*\* (3RD|4TH|5TH|6TH|7TH) STREET \*\*\*"
                     r"(?: \(Total Pot: [^()]*\))?$")  # the pot so far, in all-in hands
_AMOUNT = r"([$€£]?[\d.,]+)"
_STAKES = re.compile(r"^" + _AMOUNT + "/" + _AMOUNT + r"(?: Ante " + _AMOUNT + r")?$")
_GAME = re.compile(r"^(?:No Limit|Pot Limit|Limit|NL|PL|FL) (.+)$")
_SEAT = re.compile(r"^Seat (\d+): (.+) \(([^()]*)\)(, is sitting out)?$")
_ALL_IN = re.compile(r", and is (?:all in|capped)$")
_WINS = re.compile(r" (?:wins|ties for) (?:the )?(?:high |low )?(?:main |side )?pot(?: #?\d+)? "
                   r"\(" + _AMOUNT + r"\)(?: with .*)?$")
_IGNORED = re.compile(
    r"^(?:(?:.+ has )?\d+ seconds? left to act|"
    r".+ (?:is (?:low|high) with \[[^\]]*\]|sits down|stands up|adds [$€£]?[\d.,]+|"
    r"is sitting out|has returned|has timed out|has been disconnected|has reconnected|"
    r"is disconnected|has requested TIME|is feeling \w+|has \d+ seconds? to reconnect)|"
    r"The button is in seat #\d+|"
    r"(?!Seat \d+: )[^\[\]]{1,40}?: .*)$")  # the last: chat


def detect(text: str) -> bool:
    return bool(HEADER.search(text))


def split(text: str) -> list[tuple[int, str]]:
    """Each hand's text, with the line it starts on (1-based)."""
    return split_at(HEADER, text)


def _variant(game: str, line: int) -> Variant:
    name = game.casefold()
    if "razz" in name and "2-7" not in name:
        return Variant.RAZZ
    if "stud" in name and "5 card" not in name and "5-card" not in name:
        if "h/l" in name or "hi/lo" in name:
            return Variant.STUD8
        return Variant.STUD
    raise SiteError(f"not a stud hand: the game is {game.strip()!r}", line)


def parse(text: str, first_line: int = 1) -> SiteHand:
    """One hand's text (from its header line) as a ``SiteHand``."""
    lines = text.split("\n")
    match = HEADER.match(lines[0])
    if match is None:
        raise SiteError("no Full Tilt hand header", first_line)
    if lines[0].rstrip().endswith("(partial)"):
        raise SiteError("a partial hand: the site wrote only part of it", first_line)
    parts = lines[0][match.end():].strip().split(" - ")
    where = parts[0]
    stakes = next((m for m in map(_STAKES.match, parts) if m is not None), None)
    game = next((m for m in map(_GAME.match, parts) if m is not None), None)
    if game is None:
        raise SiteError(f"not a stud hand: the header names no game ({lines[0]!r})", first_line)
    variant = _variant(game.group(0), first_line)
    if stakes is None:
        raise SiteError("the header gives no stakes (small bet/big bet)", first_line)
    cash = is_money(stakes.group(1)) or is_money(stakes.group(2))
    unit = 100 if cash else 1
    sign = stakes.group(1)[:1]
    tournament = re.match(r"^(.+) \((\d+)\), (?:Table|Match) ", where)
    table = re.search(r"(?:^|, )(?:Table|Match) (.+?)(?: \([^()]*\))?$", where)
    hand = SiteHand(
        site=SITE, hand=match.group(1), variant=variant,
        small_bet=amount(stakes.group(1), unit, first_line),
        big_bet=amount(stakes.group(2), unit, first_line),
        seats=[], ante=amount(stakes.group(3), unit, first_line) if stakes.group(3) else 0,
        table=table.group(1) if table else where,
        tournament=tournament.group(2) if tournament else None,
        currency=CURRENCIES.get(sign) if cash else None,
        game=game.group(0),
        time=" - ".join(parts[parts.index(game.group(0)) + 1:]) or None)
    _Reader(hand, unit, first_line).read(lines[1:])
    return hand


class _Reader(LineReader):
    """The lines after the header, in order: the seats, the antes, the streets, the summary."""

    def __init__(self, hand: SiteHand, unit: int, first_line: int) -> None:
        super().__init__(hand, unit, first_line)
        self.street = 0
        self.live: list[str] = []  # players dealt in and not folded, in seat order
        self.cards: dict[str, list[Card | None]] = {}  # cards so far, None: unknown
        self.summary = False
        self.bring_ins: list[tuple[int, bool]] = []
        self.antes: dict[str, tuple[int, bool]] = {}  # by player: the ante, all in or not
        self.river: dict[str, int] = {}  # seventh street's unknown cards, by player: step index

    def read(self, lines: list[str]) -> None:
        for k, raw in enumerate(lines, self.first_line + 1):
            line = raw.strip()
            if line:
                self.line(line, k)
        hand = self.hand
        if not any(isinstance(s, Dealt) for s in hand.steps):
            raise SiteError("the hand deals no cards (cut short?)", self.first_line)
        hand.bring_in = bring_in_of(self.bring_ins) or hand.bring_in
        hand.ante = hand.ante or ante_of(list(self.antes.values()))
        if not self.summary:
            raise SiteError("the hand has no summary: the history is cut short",
                            self.first_line + len(lines))

    def line(self, line: str, k: int) -> None:
        if re.match(r"^Hand #\d+ has been cancell?ed", line):
            raise Cancelled("the site cancelled this hand", k)
        if line.startswith("*** "):
            self.section(line, k)
            return
        if self.summary:
            self.summary_line(line, k)
            return
        if self.street == 0:
            seat = _SEAT.match(line)
            if seat is not None:
                self.hand.seats.append(Seat(int(seat.group(1)), seat.group(2),
                                            amount(seat.group(3), self.unit, k)))
                return
        if line.startswith("Dealt to "):
            self.dealt(line[len("Dealt to "):], k)
            return
        returned = re.match(r"^(Uncalled bet|Ante) of " + _AMOUNT + r" returned to (.+)$", line)
        if returned is not None:
            self.returned(returned.group(1), returned.group(3),
                          amount(returned.group(2), self.unit, k), line, k)
            return
        who = named(line, self.names)
        if who is not None and not who[1].startswith(": "):
            self.player_line(who[0], who[1], line, k)
            return
        if _IGNORED.match(line):
            return
        raise SiteError(f"cannot read {line!r}" + ("" if who else
                                                   ": it names no player at the table"), k)

    def section(self, line: str, k: int) -> None:
        if line.startswith("*** SUMMARY ***"):
            self.summary = True
            return
        if line.startswith("*** SHOW DOWN ***"):
            return
        found = _STREET.match(line)
        if found is None:
            raise SiteError(f"cannot read {line!r}", k)
        self.street = _STREETS[found.group(1)]
        if self.street == 7:
            for name in self.live:  # seventh street's down cards, unknown unless shown later
                self.river[name] = len(self.hand.steps)
                self.hand.steps.append(Dealt(name, 7, (None,)))
                self.cards[name].append(None)

    def dealt(self, text: str, k: int) -> None:
        who = named(text, self.names)
        if who is None:
            raise SiteError(f"cards dealt to a player not at the table: {text!r}", k)
        name, rest = who
        groups = re.findall(r"\[([^\]]*)\]", rest)
        if not groups or self.street not in _STREETS.values():
            raise SiteError(f"cannot read 'Dealt to {text}'", k)
        if self.street == 3:
            new = cards(" ".join(groups), k)
            if len(new) > 3 or name in self.live:
                raise SiteError(f"cannot read 'Dealt to {text}'", k)
            self.live.append(name)
            self.live.sort(key=self.names.index)
            got = (None,) * (3 - len(new)) + new
            self.cards[name] = list(got)
            self.hand.steps.append(Dealt(name, 3, got))
            return
        new = cards(groups[-1], k)
        if len(new) != 1 or name not in self.live:
            raise SiteError(f"cannot read 'Dealt to {text}'", k)
        if self.street == 7 and name in self.river:
            self.hand.steps[self.river[name]] = Dealt(name, 7, new)
            self.cards[name][-1] = new[0]
        else:
            self.hand.steps.append(Dealt(name, self.street, new))
            self.cards[name].append(new[0])

    def returned(self, what: str, name: str, value: int, line: str, k: int) -> None:
        hand = self.hand
        if name not in self.names:
            raise SiteError(f"cannot read {line!r}: it names no player at the table", k)
        if what == "Uncalled bet":
            hand.steps.append(Returned(name, value))
            return
        # An ante back to a player who then sits out: he is not dealt in.
        if name in self.cards:
            raise SiteError(f"{name} is dealt in, but his ante goes back", k)
        if self.antes.pop(name, (None, False))[0] != value:
            raise SiteError(f"{name} gets back an ante he did not post", k)
        hand.steps = [s for s in hand.steps if not (isinstance(s, Ante) and s.player == name)]

    def player_line(self, name: str, rest: str, line: str, k: int) -> None:
        hand, unit = self.hand, self.unit
        won = _WINS.match(rest)
        if won is not None:
            hand.steps.append(Collected(name, amount(won.group(1), unit, k)))
            return
        verb = rest.lstrip()
        all_in = bool(_ALL_IN.search(verb))
        verb = _ALL_IN.sub("", verb)
        if verb.startswith("antes "):
            value = amount(verb[len("antes "):], unit, k)
            self.antes[name] = (value, all_in)
            hand.steps.append(Ante(name, value))
        elif verb.startswith("brings in for "):
            value = amount(verb[len("brings in for "):], unit, k)
            self.bring_ins.append((value, all_in))
            hand.steps.append(Act(name, "pb", value))
        elif verb == "checks":
            hand.steps.append(Act(name, "cc", line=k))
        elif verb.startswith("calls "):
            hand.steps.append(Act(name, "cc", amount(verb[len("calls "):], unit, k)))
        elif verb == "folds":
            hand.steps.append(Act(name, "f"))
            if name in self.live:
                self.live.remove(name)
        elif verb.startswith("bets "):
            hand.steps.append(Act(name, "cbr", amount(verb[len("bets "):], unit, k)))
        elif verb.startswith("raises to "):
            hand.steps.append(Act(name, "cbr", amount(verb[len("raises to "):], unit, k),
                                  to=True))
        elif verb.startswith("completes it to "):
            hand.steps.append(Act(name, "cbr", amount(verb[len("completes it to "):], unit, k),
                                  to=True))
        elif re.match(r"^shows \[[^\]]*\]", verb):
            shown = re.match(r"^shows \[([^\]]*)\]", verb)
            assert shown is not None
            hand.steps.append(Shown(name, self.in_order(name, shown.group(1), k)))
        elif verb == "mucks":
            if len(self.live) > 1:  # at a showdown; a winner nobody called mucks unseen
                hand.steps.append(Mucked(name))
        elif not _IGNORED.match(line):
            raise SiteError(f"cannot read {line!r}", k)

    def in_order(self, name: str, text: str, k: int) -> tuple[Card | None, ...]:
        shown = cards(text, k)
        return in_dealing_order(self.cards.get(name, []), shown)

    def summary_line(self, line: str, k: int) -> None:
        rake = re.search(r"\| Rake " + _AMOUNT, line)
        if line.startswith("Total pot") and rake:
            self.hand.rake = amount(rake.group(1), self.unit, k)
            return
        seat = re.match(r"^Seat \d+: (.+?) (?:\([^)]*\) )?mucked \[([^\]]*)\]", line)
        if seat is not None and seat.group(1) in self.names:
            name = seat.group(1)
            self.hand.steps.append(Shown(name, self.in_order(name, seat.group(2), k),
                                         mucked=True))


__all__ = ["SITE", "detect", "parse", "split"]
