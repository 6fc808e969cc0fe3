"""The players of one hand: their chips, their cards, and whether they are still in it.

``Seats`` is the one owner of this state; the betting round, the dealer and the showdown
change it only through its methods. Players are indices 0..n-1 here (seat numbers are 1..n).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress
from operator import not_

from stud.cards import CARDS, Card
from stud.engine.events import AntePosted, CardDealt, Event
from stud.evaluate.showing import rank_key
from stud.rules import STREETS

_tuple = tuple.__new__  # antes are many: skip the named tuple's Python-level __new__
# _DEALT[street][up][i][card id]: the event of that card dealt to player i, made once; a hand
# deals dozens of cards, and an event is an immutable value.
_DEALT: dict[int, dict[bool, list[list[CardDealt]]]] = {
    street.number: {up: [[CardDealt(i + 1, street.number, card, up) for card in CARDS]
                         for i in range(8)] for up in (False, True)}
    for street in STREETS}
_RANK_KEYS: tuple[int, ...] = tuple(rank_key(card_id) for card_id in range(52))


class Seats:
    """Stacks, chips committed to the pot, cards (up or down), folds, shows and mucks."""

    __slots__ = ("count", "stacks", "committed", "pot", "folded", "cards", "up", "up_cards",
                 "up_keys", "shown", "shown_count", "versions", "mucked", "live_count",
                 "actor_count")

    def __init__(self, stacks: Sequence[int]) -> None:
        n = len(stacks)
        self.count: int = n
        self.stacks: list[int] = list(stacks)
        self.committed: list[int] = [0] * n
        self.pot: int = 0  # the sum of committed
        self.folded: list[bool] = [False] * n
        self.cards: list[list[Card]] = [[] for _ in range(n)]
        self.up: list[list[bool]] = [[] for _ in range(n)]
        self.up_cards: list[list[Card]] = [[] for _ in range(n)]
        self.up_keys: list[int] = [0] * n  # each seat's up ranks (evaluate.showing.rank_key)
        self.shown: list[bool] = [False] * n
        self.shown_count: list[int] = [0] * n  # cards held when last shown
        self.mucked: list[bool] = [False] * n
        # Bumped by every change to a seat but a card dealt: views remake a seat when its
        # version or the street changes, and every street's cards come with a new street.
        self.versions: list[int] = [0] * n
        self.live_count: int = n  # players who have not folded
        self.actor_count: int = n  # players who have not folded and have chips behind

    def can_act(self, i: int) -> bool:
        return not self.folded[i] and self.stacks[i] > 0

    def in_showdown(self, i: int) -> bool:
        return not self.folded[i] and not self.mucked[i]

    def live(self) -> list[int]:
        """Players who have not folded, in seat order."""
        return list(compress(range(self.count), map(not_, self.folded)))  # no frame in C

    def next_actor_after(self, i: int) -> int:
        """The next player clockwise from ``i`` who can still bet."""
        for step in range(1, self.count + 1):
            j = (i + step) % self.count
            if self.can_act(j):
                return j
        raise AssertionError("no player can act")

    def put_in(self, i: int, chips: int) -> None:
        """Player i moves ``chips`` from the stack into the pot (an ante or a wager)."""
        self.versions[i] += 1
        self.stacks[i] -= chips
        self.committed[i] += chips
        self.pot += chips
        if chips and self.stacks[i] == 0:
            self.actor_count -= 1

    def take_back(self, i: int, chips: int) -> None:
        """An uncalled bet returns to player i."""
        self.versions[i] += 1
        if self.stacks[i] == 0 and not self.folded[i]:
            self.actor_count += 1
        self.committed[i] -= chips
        self.pot -= chips
        self.stacks[i] += chips

    def pay(self, i: int, chips: int) -> None:
        """Chips won from a pot."""
        self.versions[i] += 1
        self.stacks[i] += chips

    def fold(self, i: int) -> list[Card]:
        """Player i folds; their cards (for the muck pile) are returned."""
        self.versions[i] += 1
        self.folded[i] = True
        self.live_count -= 1
        if self.stacks[i]:
            self.actor_count -= 1
        return self.cards[i]

    def post_antes(self, ante: int, events: list[Event]) -> None:
        """Every player posts the ante, or what they have (all in)."""
        stacks, committed, versions, append = self.stacks, self.committed, self.versions, \
            events.append
        for i in range(self.count):
            amount = ante if stacks[i] > ante else stacks[i]
            stacks[i] -= amount
            committed[i] += amount
            versions[i] += 1
            self.pot += amount
            if not stacks[i]:
                self.actor_count -= 1
            append(_tuple(AntePosted, (i + 1, amount, not stacks[i])))

    def receive_round(self, street: int, receivers: list[int], dealt: list[Card], up: bool,
                      events: list[Event]) -> None:
        """``dealt[k]`` to ``receivers[k]``, one card each, each told in ``events``."""
        cards, flags, append = self.cards, self.up, events.append
        told = _DEALT[street][up]  # the events are values: one shared object for each
        if up:
            ups, keys = self.up_cards, self.up_keys
            for i, card in zip(receivers, dealt, strict=True):
                cards[i].append(card)
                flags[i].append(True)
                ups[i].append(card)
                card_id = card.id
                keys[i] += _RANK_KEYS[card_id]
                append(told[i][card_id])
        else:
            for i, card in zip(receivers, dealt, strict=True):
                cards[i].append(card)
                flags[i].append(False)
                append(told[i][card.id])

    def show(self, i: int) -> None:
        self.versions[i] += 1
        self.shown[i] = True
        self.shown_count[i] = len(self.cards[i])

    def muck(self, i: int) -> None:
        self.versions[i] += 1
        self.mucked[i] = True
