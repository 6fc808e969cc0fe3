"""Pieces every room's text shares: amounts, cards, names at the start of a line."""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from xml.etree import ElementTree as ET

from stud.cards import Card, CardError
from stud.history.sites.model import SiteError, SiteHand

_MONEY = re.compile(r"[$€£¥₹]|\b(?:USD|EUR|GBP|CAD)\b")


def amount(text: str, unit: int, line: int | None = None) -> int:
    """``$1.81`` as 181 with ``unit`` 100 (cents), ``4,842`` as 4842 with unit 1 (chips);
    ``€0,10`` (a decimal comma) as 10 cents."""
    cleaned = _MONEY.sub("", text).strip()
    if re.fullmatch(r"-?\d+,\d{1,2}", cleaned):  # a decimal comma (0,10), not 1,000
        cleaned = cleaned.replace(",", ".")
    cleaned = cleaned.replace(",", "")
    try:
        value = Decimal(cleaned) * unit
    except InvalidOperation:
        raise SiteError(f"{text!r} is not an amount", line) from None
    if value != value.to_integral_value():
        raise SiteError(f"{text!r} is not a whole number of the site's smallest unit", line)
    return int(value)


def is_money(text: str) -> bool:
    """Whether an amount is written as money (a currency sign or code, or cents)."""
    return bool(_MONEY.search(text)) or bool(re.search(r"\d\.\d", text))


def card(text: str, line: int | None = None) -> Card:
    """``Ac``, ``Th`` or ``10h``."""
    token = text.strip()
    if token[:2] == "10":
        token = "T" + token[2:]
    try:
        return Card.parse(token[0].upper() + token[1:].lower())
    except (CardError, IndexError):
        raise SiteError(f"{text!r} is not a card", line) from None


def cards(text: str, line: int | None = None) -> tuple[Card, ...]:
    """Cards apart (``Ac Kc 8c``)."""
    return tuple(card(t, line) for t in text.split())


def named(text: str, names: Sequence[str]) -> tuple[str, str] | None:
    """The player whose name ``text`` starts with (the longest that fits), and the rest."""
    best: str | None = None
    for name in names:
        if text.startswith(name) and (best is None or len(name) > len(best)):
            best = name
    return None if best is None else (best, text[len(best):])


def split_at(header: re.Pattern[str], text: str) -> list[tuple[int, str]]:
    """Each hand's text, from one ``header`` match to the next, with the line it starts on
    (1-based)."""
    starts = [m.start() for m in header.finditer(text)]
    return [(text.count("\n", 0, a) + 1, text[a:b].strip("\n"))
            for a, b in zip(starts, [*starts[1:], len(text)], strict=True)]


_GAME_END = re.compile(r"</game\s*>")


def xml_games(start: re.Pattern[str], text: str) -> list[tuple[int, str]]:
    """Each ``<game>`` of an XML history (iPoker, Merge), where ``start`` finds its opening
    tag: its offset in ``text`` and its text, to its ``</game>``. A game that opens and does
    not close before the next one opens (a file cut short, a garbled end tag) runs to there:
    its reader refuses it (``xml_hand``) rather than let it swallow the next game or vanish."""
    starts = [m.start() for m in start.finditer(text)]
    games = []
    for a, b in zip(starts, [*starts[1:], len(text)], strict=True):
        end = _GAME_END.search(text, a, b)
        games.append((a, text[a:end.end() if end else b].rstrip()))
    return games


def xml_hand(text: str, first_line: int) -> ET.Element:
    """One hand of an XML history (iPoker, Merge), its elements under one root."""
    if not _GAME_END.search(text):
        raise SiteError("the hand is cut short: its <game> is not closed (no </game> before "
                        "the next game or the end of the file)", first_line)
    try:
        return ET.fromstring(f"<hand>{text}</hand>")
    except ET.ParseError as error:
        raise SiteError(f"not well-formed XML: {error}", first_line + error.position[0] - 1
                        ) from None


class XmlLines:
    """Where in the file an element of an XML hand is written."""

    def __init__(self, text: str, first_line: int) -> None:
        self.text = text
        self.first_line = first_line

    def of(self, tag: str, *attrs: tuple[str, str]) -> int:
        """The line of the first ``<tag>`` with these attributes (in this order)."""
        pattern = rf"<{tag}\b" + "".join(rf'[^>]*\b{a}="{re.escape(v)}"' for a, v in attrs)
        found = re.search(pattern, self.text)
        return self.first_line + (self.text.count("\n", 0, found.start()) if found else 0)


CURRENCIES = {"$": "USD", "€": "EUR", "£": "GBP"}  # a currency sign's code


def bring_in_of(posted: Sequence[tuple[int, bool]]) -> int:
    """The table's bring-in from the bring-ins posted (amount, all in): the first one not
    short of it, else the first (0 where none was posted)."""
    full = [a for a, all_in in posted if not all_in]
    return full[0] if full else posted[0][0] if posted else 0


def ante_of(posted: Sequence[tuple[int, bool]]) -> int:
    """The table's ante from the antes posted (amount, all in): the largest not all in, else
    the largest (0 where none was posted)."""
    full = [a for a, all_in in posted if not all_in]
    return max(full) if full else max((a for a, _ in posted), default=0)


def first_match(pattern: re.Pattern[str], lines: list[str], first_line: int
                ) -> tuple[int, re.Match[str]] | None:
    """The first line after a hand's header that ``pattern`` matches, and its number."""
    for k, raw in enumerate(lines[1:], first_line + 1):
        found = pattern.match(raw.strip())
        if found is not None:
            return k, found
    return None


class LineReader:
    """What every site's reader of one hand holds: the hand being read, its unit of money (cents
    or chips) and the line its header is on; and the names of its seats."""

    def __init__(self, hand: SiteHand, unit: int, first_line: int) -> None:
        self.hand = hand
        self.unit = unit
        self.first_line = first_line

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.hand.seats]
