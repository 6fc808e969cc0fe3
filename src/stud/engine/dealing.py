"""Dealing from the stub: burns, deal scripts for replays and scenarios, deck exhaustion.

Third street goes round three times (down, down, up) clockwise from seat 1; fourth to sixth
street one card up, seventh one down, each after a burn. When the stub runs short, the
``deck_exhaustion`` policy decides: no burn and a community card (``community``), or burned and
mucked cards shuffled back first (``reshuffle``). ``Hand`` inherits these methods.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from stud.cards import Card, Deck
from stud.engine.events import (
    CardBurned,
    CardDealt,
    CommunityCardDealt,
    Event,
    StubReshuffled,
)
from stud.rules import Rules, RulesError

STREET_NAMES = {3: "third street", 4: "fourth street", 5: "fifth street", 6: "sixth street",
                7: "seventh street"}

DealScript = Mapping[tuple[int, int], Sequence[Card | None]]

# Dealt cards are built with tuple.__new__, skipping the named tuple's Python-level __new__:
# a hand deals dozens of them.
_tuple = tuple.__new__


class Dealing:
    """The dealing half of a hand (a mixin of ``Hand``)."""

    rules: Rules
    deck: Deck
    players: int
    street: int
    folded: list[bool]
    cards: list[list[Card]]
    up: list[list[bool]]
    board: list[Card]
    events: list[Event]
    _ups: list[list[Card]]
    _script: DealScript | None
    _stub: list[Card]
    _reserved: dict[Card, int]
    _burned: list[Card]
    _muck_pile: list[Card]
    _reshuffles: int

    def _make_stub(self) -> list[Card]:
        """The deck, top card last. Cards a deal script names stay in it, reserved, until dealt:
        the stub's size is the real deck's, which deck exhaustion depends on."""
        self._reserved: dict[Card, int] = {}
        # Only a reshuffle of burned and mucked cards can deal a card a second time.
        repeats = self.rules.deck_exhaustion == "reshuffle"
        if self._script is not None:
            for (street, seat), cards in sorted(self._script.items()):
                for card in cards:
                    if card is None:
                        continue
                    if card in self._reserved and not repeats:
                        place = f"to seat {seat}" if seat else "as the community card"
                        raise RulesError(f"card {card} is dealt twice (again {place} on "
                                         f"{STREET_NAMES.get(street, street)})")
                    self._reserved[card] = self._reserved.get(card, 0) + 1
        return list(reversed(self.deck.cards))

    def _draw(self) -> Card:
        stub = self._stub
        if not self._reserved:
            return stub.pop()
        for k in range(len(stub) - 1, -1, -1):
            if stub[k] not in self._reserved:
                return stub.pop(k)
        if self.rules.deck_exhaustion == "reshuffle" and stub:
            # Every card left is named later; the one named last will come back in the reshuffle.
            latest = self._latest_scripted_street()
            return stub.pop(max(range(len(stub)), key=lambda k: latest.get(stub[k], 0)))
        raise RulesError("the deck has no card left that the history does not name")

    def _latest_scripted_street(self) -> dict[Card, int]:
        latest: dict[Card, int] = {}
        for (street, _), cards in (self._script or {}).items():
            for card in cards:
                if card is not None:
                    latest[card] = max(latest.get(card, 0), street)
        return latest

    def _take(self, card: Card) -> Card:
        """A card the script names, out of the stub."""
        left = self._reserved.get(card, 0) - 1
        if left > 0:
            self._reserved[card] = left
        else:
            self._reserved.pop(card, None)
        try:
            self._stub.remove(card)
        except ValueError:
            raise RulesError(f"card {card} is not in the deck any more (dealt or burned "
                             f"before {STREET_NAMES[self.street]})") from None
        return card

    def _card_for(self, i: int) -> Card:
        """The next card for player i: the script's, where it names one, else the stub's."""
        if self._script is None:
            return self._draw()
        cards = self._script.get((self.street, i + 1), ())
        taken = sum(1 for e in self.events if isinstance(e, CardDealt)
                    and e.seat == i + 1 and e.street == self.street)
        card = cards[taken] if taken < len(cards) else None
        return self._draw() if card is None else self._take(card)

    def _deal_street(self) -> None:
        receivers = [i for i in range(self.players) if not self.folded[i]]
        if self.street == 3:
            for up in (False, False, True):
                self._deal_round(receivers, up)
            return
        need = len(receivers)
        if len(self._stub) < need + 1 and self.rules.deck_exhaustion == "reshuffle":
            back = self._burned + self._muck_pile
            if back:
                self._reshuffles += 1
                fresh = self.deck.reshuffle(back, self._reshuffles)
                self._stub[:0] = reversed(fresh)
                self._burned, self._muck_pile = [], []
                self.events.append(StubReshuffled(self.street, len(back)))
        if len(self._stub) >= need + 1:
            self._burned.append(self._draw())
            self.events.append(CardBurned(self.street))
        up = self.street != 7
        community = len(self._stub) < need or (
            self._script is not None and (self.street, 0) in self._script)
        if community:
            card = self._community_card()
            self.board.append(card)
            self.events.append(CommunityCardDealt(self.street, card))
            return
        self._deal_round(receivers, up)

    def _community_card(self) -> Card:
        if self._script is not None:
            cards = self._script.get((self.street, 0), ())
            if cards and cards[0] is not None:
                return self._take(cards[0])
        if not self._stub:
            raise RulesError("the deck is exhausted: no card left for a community card")
        return self._draw()

    def _deal_round(self, receivers: list[int], up: bool) -> None:
        """One card to each receiver in seat order (clockwise from seat 1)."""
        street, stub, scripted = self.street, self._stub, self._script is not None
        cards, flags, ups, events = self.cards, self.up, self._ups, self.events
        for i in receivers:
            card = self._card_for(i) if scripted else stub.pop()
            cards[i].append(card)
            flags[i].append(up)
            if up:
                ups[i].append(card)
            events.append(_tuple(CardDealt, (i + 1, street, card, up)))
