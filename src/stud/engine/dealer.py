"""The dealer: the stub, burn cards, the muck pile, the community card and deal scripts.

Each street deals as ``stud.rules.STREETS`` says, one round at a time clockwise from seat 1,
after a burn. When the stub runs short the ``deck_exhaustion`` policy decides (RULES.md 2):
no burn and, only if the stub still cannot give every remaining player a card, one community
card (``community``); or burned and mucked cards shuffled back first (``reshuffle``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from stud.cards import Card, Deck
from stud.engine.events import CardBurned, CommunityCardDealt, Event, StubReshuffled
from stud.engine.seats import Seats
from stud.rules import (
    FIRST_STREET,
    LAST_STREET,
    STREET_NAMES,
    STREETS,
    Rules,
    RulesError,
    Street,
    is_whole,
)

_BURNED = {street.number: CardBurned(street.number) for street in STREETS}  # values, shared
DealScript = Mapping[tuple[int, int], Sequence[Card | None]]
_STREET = {street.number: street for street in STREETS}


def _check_script(script: DealScript, players: int) -> None:
    """Every entry of a deal script names a street and a seat (0: the community card) that can
    be dealt to, no more cards than that street deals, and each a Card or None; else a
    RulesError naming the entry."""
    if not isinstance(script, Mapping):
        raise RulesError(f"deal_script must map (street, seat) to cards, not {script!r}")
    for key, cards in script.items():
        if not (isinstance(key, tuple) and len(key) == 2 and all(is_whole(k) for k in key)):
            raise RulesError(f"deal_script: {key!r} is not a (street, seat) pair of numbers")
        street, seat = key
        if street not in _STREET:
            raise RulesError(f"deal_script {key}: there is no street {street} "
                             f"(streets {FIRST_STREET} to {LAST_STREET})")
        if not 0 <= seat <= players:
            raise RulesError(f"deal_script {key}: there is no seat {seat} "
                             f"(seats 1 to {players}, 0 for the community card)")
        if isinstance(cards, str) or not isinstance(cards, Sequence):
            raise RulesError(f"deal_script {key}: the cards must be a list of Card "
                             f"(parse_cards({cards!r})), not {cards!r}")
        most = 1 if seat == 0 else len(_STREET[street].cards)
        if seat == 0 and street == FIRST_STREET:
            raise RulesError(f"deal_script {key}: no community card is dealt on "
                             f"{STREET_NAMES[street]}")
        if len(cards) > most:
            what = "the community card is one card" if seat == 0 else \
                f"{STREET_NAMES[street]} deals {most} card{'s' * (most > 1)} to a seat"
            raise RulesError(f"deal_script {key}: {len(cards)} cards, but {what}")
        for card in cards:
            if card is not None and not isinstance(card, Card):
                raise RulesError(f"deal_script {key}: {card!r} is not a Card (parse_cards "
                                 f"gives them from text like 'As')")


class Dealer:
    """Owns every card not in a player's hand. ``script`` (for replays and scenarios) maps
    ``(street, seat)`` to the cards that seat gets on that street (``None``: not known) and
    ``(street, 0)`` to a community card; every other card comes from the deck."""

    __slots__ = ("deck", "script", "stub", "named", "reserved", "burned", "muck_pile",
                 "reshuffles", "board", "taken", "reshuffle")

    def __init__(self, deck: Deck, rules: Rules, script: DealScript | None,
                 players: int = 8) -> None:
        self.deck = deck
        if script is not None:
            _check_script(script, players)
        self.script = script
        self.reshuffle: bool = rules.deck_exhaustion == "reshuffle"
        self.stub: list[Card] = list(reversed(deck.cards))  # the top card last
        self.named: dict[Card, list[int]] = {}  # a scripted card -> the streets it is named on
        self.reserved: dict[Card, int] = self._reserve(script) if script is not None else {}
        self.burned: list[Card] = []
        self.muck_pile: list[Card] = []
        self.reshuffles = 0
        self.board: list[Card] = []
        self.taken: dict[tuple[int, int], int] = {}

    def _reserve(self, script: DealScript) -> dict[Card, int]:
        """Cards a script names stay in the stub, reserved, until dealt: the stub's size is the
        real deck's, which deck exhaustion depends on."""
        reserved: dict[Card, int] = {}
        for (street, seat), cards in sorted(script.items()):
            for card in cards:
                if card is None:
                    continue
                # Only a reshuffle of burned and mucked cards can deal a card a second time.
                if card in reserved and not self.reshuffle:
                    place = f"to seat {seat}" if seat else "as the community card"
                    raise RulesError(f"card {card} is dealt twice (again {place} on "
                                     f"{STREET_NAMES.get(street, street)})")
                reserved[card] = reserved.get(card, 0) + 1
                self.named.setdefault(card, []).append(street)  # in street order: sorted
        return reserved

    def muck(self, cards: Sequence[Card]) -> None:
        """A folded hand goes to the muck pile (which a reshuffle may bring back)."""
        self.muck_pile.extend(cards)

    def deal(self, street: Street, receivers: list[int], seats: Seats,
             events: list[Event]) -> None:
        """Deal ``street`` to the players in ``receivers`` (indices in seat order)."""
        if not street.burn:
            self._rounds(street, receivers, seats, events)
            return
        need = len(receivers) * len(street.cards)
        stub = self.stub
        if len(stub) < need + 1 and self.reshuffle:
            back = self.burned + self.muck_pile
            if back:
                self.reshuffles += 1
                fresh = self.deck.reshuffle(back, self.reshuffles)
                stub[:0] = reversed(fresh)
                self.burned, self.muck_pile = [], []
                events.append(StubReshuffled(street.number, len(back)))
        if len(stub) >= need + 1:
            self.burned.append(self._draw())
            events.append(_BURNED[street.number])
        if len(stub) < need:
            card = self._community_card(street.number)
            self.board.append(card)
            events.append(CommunityCardDealt(street.number, card))
            return
        self._rounds(street, receivers, seats, events)

    def _rounds(self, street: Street, receivers: list[int], seats: Seats,
                events: list[Event]) -> None:
        """The street's rounds: one card to each receiver a round, clockwise from seat 1."""
        number, receive = street.number, seats.receive_round
        if self.script is not None:
            for up in street.cards:
                receive(number, receivers, [self._scripted(number, i) for i in receivers], up,
                        events)
            return
        stub, count = self.stub, len(receivers)
        for up in street.cards:
            dealt = stub[:-count - 1:-1]  # the top cards, in the order they leave the stub
            del stub[-count:]
            receive(number, receivers, dealt, up, events)

    def _scripted(self, street: int, i: int) -> Card:
        """The next card for player i: the script's, where it names one, else the stub's."""
        assert self.script is not None
        key = (street, i + 1)
        cards = self.script.get(key, ())
        taken = self.taken.get(key, 0)
        self.taken[key] = taken + 1
        card = cards[taken] if taken < len(cards) else None
        return self._draw() if card is None else self._take(card, street)

    def _draw(self) -> Card:
        stub = self.stub
        if not self.reserved:
            return stub.pop()
        for k in range(len(stub) - 1, -1, -1):
            if stub[k] not in self.reserved:
                return stub.pop(k)
        if self.reshuffle and stub:
            # Every card left is named again. Take the one named next the latest: a reshuffle
            # brings it back before then (one named on this very street never could).
            return stub.pop(max(range(len(stub)), key=lambda k: self._named_next(stub[k])))
        raise RulesError("the deck has no card left that the history does not name")

    def _named_next(self, card: Card) -> int:
        """The street on which the script names ``card`` next: of the streets it is named on,
        in order, the first of those its remaining reservations stand for."""
        return self.named[card][-self.reserved[card]]

    def _take(self, card: Card, street: int) -> Card:
        """A card the script names, out of the stub."""
        left = self.reserved.get(card, 0) - 1
        if left > 0:
            self.reserved[card] = left
        else:
            self.reserved.pop(card, None)
        try:
            self.stub.remove(card)
        except ValueError:
            raise RulesError(f"card {card} is not in the deck any more (dealt or burned "
                             f"before {STREET_NAMES[street]})") from None
        return card

    def _community_card(self, street: int) -> Card:
        if self.script is not None:
            cards = self.script.get((street, 0), ())
            if cards and cards[0] is not None:
                return self._take(cards[0], street)
        if not self.stub:
            raise RulesError("the deck is exhausted: no card left for a community card")
        return self._draw()
