"""What some rooms' histories leave unsaid, worked out from what they do say.

Several rooms write no line for an uncalled bet going back, no rake, or a shown hand in another
order than it was dealt; their readers share these helpers:

- ``uncalled``: the part of the last wager nobody matched, which went back to its owner;
- ``put_in``: what each player put in, by the steps so far;
- ``in_dealing_order``: a shown hand's cards rearranged to agree with the cards dealt;
- ``Dealing``: the cards of each street, unknown ones where the history writes none;
- ``cancelled``: whether a line says the site cancelled the hand.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from stud.cards import Card
from stud.history.sites.model import (
    Act,
    Ante,
    Collected,
    Dealt,
    Returned,
    Seat,
    SiteError,
    SiteHand,
    Step,
)

_CANCELLED = re.compile(r"^(?:the |this )?(?:hand|game)(?: #?\S+)? (?:was |has been |is )?"
                        r"cancel(?:l)?ed\b", re.I)


def cancelled(line: str) -> bool:
    """Whether ``line`` says the hand was cancelled (``Hand cancelled``, ``Game #12 was
    cancelled``), and not merely names a player called so.

    >>> cancelled("Hand cancelled"), cancelled("Game #12 has been canceled")
    (True, True)
    >>> cancelled("cancelled_guy: folds")
    False
    """
    return bool(_CANCELLED.match(line))


def _streets(steps: Sequence[Step]) -> dict[int, dict[str, int]]:
    """Each street's chips by player (antes apart), uncalled bets taken back."""
    streets: dict[int, dict[str, int]] = {}
    street = 3
    for step in steps:
        if isinstance(step, Dealt):
            street = step.street
        elif isinstance(step, Act):
            chips = streets.setdefault(street, {})
            have = chips.get(step.player, 0)
            chips[step.player] = step.amount if step.to else have + step.amount
        elif isinstance(step, Returned):
            chips = streets.setdefault(street, {})
            chips[step.player] = chips.get(step.player, 0) - step.amount
    return streets


def uncalled(steps: Sequence[Step]) -> Returned | None:
    """The uncalled part of the last street's biggest wager, back to its owner, if any.

    >>> uncalled([Dealt("a", 3, (None,)), Act("a", "pb", 2), Act("b", "cbr", 5),
    ...           Act("a", "f")])
    Returned(player='b', amount=3)
    >>> uncalled([Act("a", "cbr", 10), Act("b", "cc", 4)])
    Returned(player='a', amount=6)
    >>> uncalled([Act("a", "cbr", 10), Act("b", "cc", 10)]) is None
    True
    """
    streets = {k: v for k, v in _streets(steps).items() if any(v.values())}
    if not streets:
        return None
    chips = streets[max(streets)]
    ranked = sorted(chips.items(), key=lambda kv: kv[1], reverse=True)
    top = ranked[0]
    second = ranked[1][1] if len(ranked) > 1 else 0
    return Returned(top[0], top[1] - second) if top[1] > second else None


def return_uncalled(steps: list[Step]) -> None:
    """Put the uncalled bet a history does not write (``uncalled``) back where it happens:
    after the last action or return."""
    back = uncalled(steps)
    if back is not None:
        last = max(k for k, s in enumerate(steps) if isinstance(s, Act | Returned))
        steps.insert(last + 1, back)


def put_in(steps: Sequence[Step]) -> dict[str, int]:
    """Every player's chips in the pot: antes, wagers, less what came back."""
    total: dict[str, int] = {}
    for step in steps:
        if isinstance(step, Ante):
            total[step.player] = total.get(step.player, 0) + step.amount
    for chips in _streets(steps).values():
        for player, amount in chips.items():
            total[player] = total.get(player, 0) + amount
    return total


def largest_ante(steps: Sequence[Step]) -> int:
    """The ante, from what was posted: the largest (a short stack posts less), 0 for none."""
    return max((s.amount for s in steps if isinstance(s, Ante)), default=0)


def first_bring_in(steps: Sequence[Step]) -> int:
    """The bring-in, from the first one posted; 0 for none."""
    return next((s.amount for s in steps if isinstance(s, Act) and s.verb == "pb"), 0)


def check_complete(steps: Sequence[Step], first_line: int, summary: bool,
                   end_line: int) -> None:
    """A history cut short deals no cards, or ends before its summary."""
    if not any(isinstance(s, Dealt) for s in steps):
        raise SiteError("the hand deals no cards (cut short?)", first_line)
    if not summary:
        raise SiteError("the hand has no summary: the history is cut short", end_line)


def check_final_stacks(hand: SiteHand, finals: dict[str, tuple[int, int]]) -> None:
    """The summary's stacks (each with its line) against the history's own count."""
    mine = put_in(hand.steps)
    won: dict[str, int] = {}
    for step in hand.steps:
        if isinstance(step, Collected):
            won[step.player] = won.get(step.player, 0) + step.amount
    for seat in hand.seats:
        if seat.name in finals:
            final, k = finals[seat.name]
            counted = seat.stack - mine.get(seat.name, 0) + won.get(seat.name, 0)
            if counted != final:
                raise SiteError(f"the summary leaves {seat.name} {final}, the actions "
                                f"{counted}", k)


def in_dealing_order(dealt: Sequence[Card | None], shown: Sequence[Card]
                     ) -> tuple[Card | None, ...]:
    """``shown`` rearranged to agree with ``dealt`` (the cards known to have been dealt, in
    order, None where unknown): each known card keeps its place, and the rest fill the unknown
    places, a card staying where the site put it when that place is unknown.

    >>> from stud.cards import parse_cards
    >>> d = [*parse_cards("5c4dKsAc9dQh"), None]
    >>> "".join(map(str, in_dealing_order(d, parse_cards("Js4dKsAc9dQh5c"))))
    '5c4dKsAc9dQhJs'
    """
    if len(shown) != len(dealt):
        return tuple(shown)  # not as many cards as dealt: to_history says so
    known = {c for c in dealt if c is not None}
    rest = [c for c in shown if c not in known]
    out: list[Card | None] = list(dealt)
    for k, card in enumerate(shown):
        if out[k] is None and card in rest:
            out[k] = card
            rest.remove(card)
    for k, place in enumerate(out):
        if place is None and rest:
            out[k] = rest.pop(0)
    if rest or not known <= set(shown):  # cards that do not fit: keep the site's word
        return tuple(shown)
    return tuple(out)


class Dealing:
    """The cards dealt street by street, into a hand's steps.

    A street begins (``begin``); the history may write some players' cards (``deal``); before
    anything else happens on the street (``close``, called by ``begin`` and by the reader when
    an action comes), every player still in who was written no card is dealt unknown ones. On
    third street the players in are those who posted an ante (or, with no antes, those written
    cards); a fold takes a player out (``fold``).

    >>> steps: list[Step] = [Ante("a", 1), Ante("b", 1)]
    >>> dealing = Dealing(steps, [Seat(1, "a", 10), Seat(2, "b", 10), Seat(3, "c", 10)])
    >>> dealing.begin(3); dealing.deal("b", (None, None, Card.parse("Ah"))); dealing.close()
    >>> [(s.player, s.cards) for s in steps if isinstance(s, Dealt)]
    [('b', (None, None, Card('Ah'))), ('a', (None, None, None))]
    """

    def __init__(self, steps: list[Step], seats: Sequence[Seat]) -> None:
        self.steps = steps
        self.seats = seats  # the hand's, as they are read
        self.street = 0
        self.live: list[str] = []  # players dealt in and not folded, in seat order
        self.held: dict[str, list[Card | None]] = {}  # each player's cards, dealing order
        self.dealt: set[str] = set()  # players dealt a card on this street
        self.open = False  # the street's unwritten cards are still to come

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def begin(self, street: int, line: int | None = None) -> None:
        self.close()
        if street != self.street + 1 and not (street == 3 and self.street == 0):
            raise SiteError(f"street {street} comes after street {self.street}", line)
        if street == 3:
            antes = {s.player for s in self.steps if isinstance(s, Ante)}
            self.live = [n for n in self.names if n in antes]
        self.street = street
        self.dealt = set()
        self.open = True

    def deal(self, name: str, new: tuple[Card | None, ...], line: int | None = None) -> None:
        """``name``'s new cards of this street, as the history writes them (third street:
        the three cards, or the door card alone)."""
        if not self.open or name in self.dealt:
            raise SiteError(f"cards dealt to {name} out of turn", line)
        if self.street == 3:
            if len(new) == 1:
                new = (None, None, *new)
            if name not in self.live and not any(isinstance(s, Ante) for s in self.steps):
                self.live.append(name)
                self.live.sort(key=self.names.index)
        if name not in self.live:
            raise SiteError(f"cards dealt to {name}, who is not in the hand", line)
        if len(new) != (3 if self.street == 3 else 1):
            raise SiteError(f"{len(new)} cards dealt to {name} on street {self.street}", line)
        self.dealt.add(name)
        self.held.setdefault(name, []).extend(new)
        self.steps.append(Dealt(name, self.street, new))

    def close(self) -> None:
        """The cards of this street the history does not write: unknown ones."""
        if not self.open:
            return
        self.open = False
        for name in self.live:
            if name not in self.dealt:
                self.deal_unknown(name)

    def deal_unknown(self, name: str) -> None:
        new = (None,) * (3 if self.street == 3 else 1)
        self.held.setdefault(name, []).extend(new)
        self.steps.append(Dealt(name, self.street, new))

    def fold(self, name: str) -> None:
        if name in self.live:
            self.live.remove(name)

    def cards(self, name: str) -> list[Card | None]:
        return self.held.get(name, [])


__all__ = ["Dealing", "cancelled", "in_dealing_order", "put_in", "uncalled"]
