"""Facts into words: one message catalogue per language (``en.json``, ``de.json``).

The engine states facts (``FirstToAct``, ``HandValue``, ``PotAwarded``, actions); this is the
one place they become sentences, for the terminal, the text history and the server. The web
client renders the same facts from the same catalogues (served as JSON).

>>> from stud.cards import parse_cards
>>> from stud.evaluate.values import HandValue, ValueKind
>>> value = HandValue.of(ValueKind.HIGH, parse_cards("KsKdKh4c4d9s2c"))
>>> words("en").hand(value), words("de").hand(value)
('Full House, Kings over Fours', 'Full House, Könige über Vieren')
>>> words("de").action(Action.complete(5))
'Komplettieren auf 5'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from functools import cache
from importlib import resources

from stud.cards import Card, Rank
from stud.engine import (
    Action,
    ActionKind,
    ActionTaken,
    Category,
    FirstToAct,
    Half,
    HandValue,
    Opener,
    PotAwarded,
    Showing,
    ValueKind,
)

LANGUAGES = ("en", "de")
Who = Callable[[int], str]


@cache
def catalogue(lang: str) -> dict[str, str]:
    """The message catalogue of a language (``en`` or ``de``)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: use {' or '.join(LANGUAGES)}")
    text = resources.files("stud.text").joinpath(f"{lang}.json").read_text(encoding="utf-8")
    loaded: dict[str, str] = json.loads(text)
    return loaded


class Words:
    """The sentences of one language, made from facts."""

    def __init__(self, lang: str = "en") -> None:
        self.lang = lang
        self.messages = catalogue(lang)

    def t(self, key: str, **params: object) -> str:
        template = self.messages[key]
        return template.format(**params) if params else template

    # ---------------------------------------------------------------- small pieces

    def rank(self, rank: Rank) -> str:
        return self.t(f"rank.{rank.char}")

    def ranks(self, rank: Rank) -> str:
        """The plural: "Kings"."""
        return self.t(f"ranks.{rank.char}")

    def rank_char(self, rank: Rank) -> str:
        """A rank as the cards show it ("10" for the ten)."""
        return self.messages.get(f"short_rank.{rank.char}", rank.char)

    def cards(self, cards: Sequence[Card | None]) -> str:
        return " ".join("??" if c is None else str(c) for c in cards)

    def street(self, number: int) -> str:
        return self.t(f"street.{number}")

    def seat(self, seat: int) -> str:
        return self.t("seat", seat=seat)

    def listing(self, items: Sequence[str], joiner: str = "and") -> str:
        if len(items) < 2:
            return "".join(items)
        return self.t(f"list.{joiner}", rest=", ".join(items[:-1]), last=items[-1])

    def _params(self, ranks: Sequence[Rank]) -> dict[str, str]:
        params: dict[str, str] = {}
        for k, rank in enumerate(ranks[:2], 1):
            params[f"r{k}"] = self.rank(rank)
            params[f"p{k}"] = self.ranks(rank)
        params["ranks"] = "-".join(self.rank_char(r) for r in ranks)
        return params

    # ---------------------------------------------------------------- facts

    def hand(self, value: HandValue) -> str:
        """A hand's name: "Full House, Kings over Fours", "8-6-4-2-A low", "no low"."""
        category = value.category
        if value.kind is ValueKind.A5 and category is not Category.LOW:
            return self.t(f"hand.a5.{category.value}", **self._params(value.ranks))
        return self.t(f"hand.{category.value}", **self._params(value.ranks))

    def showing(self, showing: Showing) -> str:
        """What up cards show: "a pair of Kings", "A-K high", "6-4-A low"."""
        category = showing.category
        if category is Category.HIGH_CARD and showing.lowball:
            return self.t("showing.low", **self._params(showing.ranks))
        return self.t(f"showing.{category.value}", **self._params(showing.ranks))

    def first_to_act(self, why: FirstToAct, who: Who | None = None, you: int | None = None
                     ) -> str:
        """Why a seat acts first, naming it: "Seat 3 acts first: best up cards, a pair of
        Kings"; with what follows from it (an all-in seat skipped, an open pair). The seat
        ``you`` is spoken to: "You act first: ..."."""
        name = who or self.seat
        if why.opener is Opener.NO_BETTING:
            return self.t("first.no_betting")
        decider = name(why.decider) if why.decider is not None else ""
        mine = ".you" if you is not None and why.decider == you else ""
        if why.opener in (Opener.LOW_CARD, Opener.HIGH_CARD):
            text = self.t(f"first.{why.opener.value}{mine}", decider=decider,
                          card=self.cards(why.cards))
        elif why.opener is Opener.SIXTH_STREET:
            text = self.t(f"first.sixth_street{mine}", decider=decider)
        else:
            showing = why.showing
            assert showing is not None
            key = "first.best_hand.lowball" if showing.lowball else "first.best_hand"
            text = self.t(key + mine, decider=decider, showing=self.showing(showing))
        parts = [text]
        if why.tie:
            parts.append(self.t("first.tie", rule=self.t("first.tie.seat")))
        if (why.decider_all_in or why.decider_folded) and why.seat is not None:
            key = ("first.folded" if why.decider_folded else
                   "first.all_in.bring_in" if why.street == 3 else "first.all_in")
            if you is not None and why.seat == you:
                key += ".you_next"
            parts.append(self.t(key + mine, decider=decider, seat=name(why.seat)))
        if why.open_pair:
            parts.append(self.t("first.open_pair"))
        return "; ".join(parts)

    def action(self, action: Action) -> str:
        """An action as a menu or a button says it: "call 5", "complete to 5"."""
        return self.t(f"action.{action.kind.value}", to=action.to)

    def taken(self, event: ActionTaken, who: str, you: bool = False) -> str:
        """An action taken, as a history tells it: "Seat 2 completes to 5"."""
        person = "you" if you else "did"
        kind = event.action.kind
        if kind in (ActionKind.SHOW, ActionKind.MUCK):
            return self.t(f"{person}.{kind.value}", who=who, cards="")
        text = self.t(f"{person}.{kind.value}", who=who, to=event.action.to, added=event.added)
        return self.t(f"{person}.all_in", text=text) if event.all_in else text

    def pot(self, index: int) -> str:
        return self.t("pot.main") if index == 0 else self.t("pot.side", index=index)

    def award_hand(self, award: PotAwarded) -> str:
        """What won a pot or half: a hand's name, "... and ... (scoop)", "...; no low". Hands
        tied for both halves share the pot: "... and ...", no scoop (one player takes all)."""
        if award.high is not None and award.low is not None:
            key = "award.scoop" if len(award.shares) == 1 else "award.both"
            return self.t(key, high=self.hand(award.high), low=self.hand(award.low))
        if award.high is not None:
            text = self.hand(award.high)
            return self.t("award.no_low", hand=text) if award.no_low else text
        if award.low is not None:
            return self.hand(award.low)
        return self.t("award.low_unclaimed") if award.no_low else ""

    def award(self, award: PotAwarded, who: Who | None = None, you: int | None = None
              ) -> list[str]:
        """One line per winner: "Seat 2 wins 40 from the main pot (high) with ..."."""
        name = who or self.seat
        pot = self.pot(award.pot)
        half = {Half.HIGH: self.t("pot.half.high"), Half.LOW: self.t("pot.half.low")}.get(
            award.half, "")
        lines = []
        for seat, chips in award.shares:
            suffix = ".you" if seat == you else ""
            if award.uncontested:
                lines.append(self.t("award.uncontested" + suffix, who=name(seat), chips=chips,
                                    pot=pot))
            else:
                lines.append(self.t("award.won" + suffix, who=name(seat), chips=chips, pot=pot,
                                    half=half, hand=self.award_hand(award)))
        return lines

    def scoop(self, awards: Sequence[PotAwarded], who: Who | None = None,
              you: int | None = None) -> str | None:
        """ "Seat 2 scoops the main pot (40)" when one seat took all of a contested hi/lo pot
        (both halves, or the whole pot when no low qualified); None otherwise. ``awards`` are
        one pot's awards."""
        hi_lo = any(a.half is not Half.ALL or a.no_low or a.high is not None and a.low is not None
                    for a in awards)
        seats = {seat for a in awards for seat, _ in a.shares}
        if not hi_lo or len(seats) != 1 or any(a.uncontested for a in awards):
            return None
        (seat,) = seats
        name = who or self.seat
        chips = sum(c for a in awards for _, c in a.shares)
        key = "award.scooped.you" if seat == you else "award.scooped"
        return self.t(key, who=name(seat), pot=self.pot(awards[0].pot), chips=chips)

    def odd_chips(self, award: PotAwarded, who: Who | None = None) -> str | None:
        """Who got the odd chips of a split, and by which rule; None when it divided evenly."""
        odd = award.odd
        if odd is None:
            return None
        name = who or self.seat
        rule = "odd_chip.suit.low" if odd.by == "suit" and award.half is Half.LOW or \
            (odd.by == "suit" and award.high is None) else f"odd_chip.{odd.by}"
        seats = self.listing([name(s) for s in odd.seats])
        if odd.chips == 1:
            return self.t("award.odd_chip", seats=seats, rule=self.t(rule))
        return self.t("award.odd_chips", chips=odd.chips, seats=seats, rule=self.t(rule))


@cache
def words(lang: str = "en") -> Words:
    """The renderer of a language: ``words("en")``, ``words("de")``."""
    return Words(lang)


__all__ = ["LANGUAGES", "Words", "catalogue", "words"]
