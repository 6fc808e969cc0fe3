"""Reading the table from one seat's view: the cards seen, what is still live, the price.

Everything here is built from a ``HandView`` only, so a bot that reads the table this way sees
exactly what a player in that seat would: its own cards, every up card (folded hands' too, and
the community card), the betting so far this hand and on this street.

>>> from stud.cards import Deck
>>> from stud.engine import Hand
>>> from stud.rules import Stakes
>>> hand = Hand("stud", Stakes(1, 2, 5, 10), [200, 200, 200], deck=Deck.seeded(7))
>>> read = TableRead.of(hand.view(hand.to_act))
>>> len(read.mine), len(read.opponents), read.to_come, read.unseen
(3, 2, 4, 47)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from math import comb

from stud.cards import Card
from stud.engine import Action, ActionKind, ActionTaken, HandShown, HandView, PlayerView
from stud.rules import Variant

_AGGRESSIVE = frozenset({ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE})
# Actions taken facing a bet (a fold is offered only then; a completion faces the bring-in).
_FACING = frozenset({ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE, ActionKind.COMPLETE})


def low_card(card: Card) -> int:
    """The card's rank with the ace low: ace 1, deuce 2 .. king 13."""
    return (card.id >> 2) + 2 if card.id < 48 else 1


def hit_chance(outs: int, need: int, unseen: int, draws: int) -> float:
    """The chance that ``draws`` cards from ``unseen`` hold at least ``need`` of ``outs``.

    Hypergeometric; the cards the opponents will be dealt count as unseen too, which is right
    for the average over what they might get.
    """
    if need <= 0:
        return 1.0
    if draws < need or outs < need or unseen <= 0 or draws > unseen:
        return 0.0
    total = comb(unseen, draws)
    miss = sum(comb(outs, k) * comb(unseen - outs, draws - k) for k in range(need))
    return 1.0 - miss / total


@dataclass(frozen=True, slots=True)
class Options:
    """The legal actions by kind: wagers are the bets, raises or completions, smallest first."""

    fold: Action | None
    check: Action | None
    call: Action | None
    bring_in: Action | None
    wagers: tuple[Action, ...]
    show: Action | None
    muck: Action | None

    @staticmethod
    def of(legal: tuple[Action, ...]) -> Options:
        by_kind = {a.kind: a for a in legal}
        wagers = tuple(sorted((a for a in legal if a.wagers and a.kind is not ActionKind.BRING_IN),
                              key=lambda a: a.to))
        return Options(by_kind.get(ActionKind.FOLD), by_kind.get(ActionKind.CHECK),
                       by_kind.get(ActionKind.CALL), by_kind.get(ActionKind.BRING_IN), wagers,
                       by_kind.get(ActionKind.SHOW), by_kind.get(ActionKind.MUCK))

    def passive(self) -> Action:
        """Check, else post the bring-in, else call: never fold what is free."""
        for action in (self.check, self.bring_in, self.call, self.show):
            if action is not None:
                return action
        return self.fold or self.wagers[0]

    def give_up(self) -> Action:
        """Check when free, else fold (post the bring-in when it cannot be folded)."""
        for action in (self.check, self.fold, self.bring_in, self.call, self.show):
            if action is not None:
                return action
        return self.wagers[0]


class Tendencies:
    """How the opponents at this table have played so far, pooled over seats and hands, from
    the public events this seat has seen: how often they fold facing a bet, how often they bet
    or raise when they act. Priors keep the first hands near an ordinary player's figures.
    One per bot, and a bot per seat (a new deal is told by the door cards and own down cards)."""

    FOLD_PRIOR, AGGRESSION_PRIOR, WEIGHT = 0.4, 0.25, 6

    def __init__(self) -> None:
        self.faced = self.folded = self.acted = self.wagered = 0
        self._hand: tuple[object, ...] | None = None
        self._done = 0

    def observe(self, view: HandView) -> None:
        """Count the opponents' actions not counted yet (a new deal starts a new hand)."""
        me = view.viewer
        doors = tuple(p.cards[2] if len(p.cards) > 2 else None for p in view.players)
        key = (doors, view.player(me).cards[:2] if me else ())
        if key != self._hand:
            self._hand, self._done = key, 0
        events = view.public_events
        for event in events[self._done:]:
            if not isinstance(event, ActionTaken) or event.seat == me:
                continue
            kind = event.action.kind
            if kind is ActionKind.BRING_IN:
                continue
            self.acted += 1
            self.wagered += kind in _AGGRESSIVE
            if kind in _FACING:
                self.faced += 1
                self.folded += kind is ActionKind.FOLD
        self._done = len(events)

    @property
    def fold_rate(self) -> float:
        """How often an opponent folds facing a bet."""
        return (self.folded + self.WEIGHT * self.FOLD_PRIOR) / (self.faced + self.WEIGHT)

    @property
    def aggression(self) -> float:
        """How often an opponent bets, raises or completes when acting."""
        return (self.wagered + self.WEIGHT * self.AGGRESSION_PRIOR) / (self.acted + self.WEIGHT)

    @property
    def bet_discount(self) -> float:
        """The factor by which each bet or raise against me lowers a share worked out against
        random hidden cards: a bet means strength, less so at a table that bets a lot."""
        return 1 - 0.1 * max(0.0, 1 - self.aggression / 0.4)


@dataclass(frozen=True, slots=True)
class TableRead:
    """What one seat knows: its cards, the live opponents, the cards seen, the betting."""

    view: HandView
    seat: int
    mine: tuple[Card, ...]  # own cards in dealing order, then the community card
    my_up: tuple[Card, ...]
    opponents: tuple[PlayerView, ...]  # still in the hand
    seen: frozenset[Card]  # every other card this seat can see (folded hands' up cards too)
    dead: frozenset[Card]  # the seen cards of folded hands
    price: int  # chips to call; 0 when the seat may check
    bets: int  # completions, bets and raises on this street so far
    wagered: dict[int, int]  # seat -> its completions, bets and raises this hand
    wagered_now: dict[int, int]  # seat -> the same on this street
    yet_to_act: tuple[int, ...]  # live opponents with no action yet on this street
    used_ranks: tuple[int, ...]  # per rank (deuce 0 .. ace 12): cards mine or seen
    used_suits: tuple[int, ...]

    @staticmethod
    def of(view: HandView) -> TableRead:
        seat = view.viewer if view.viewer is not None else view.to_act or 1
        me = view.player(seat)
        board = tuple(view.board)
        mine = tuple(c for c in me.cards if c is not None) + board
        seen: set[Card] = set()
        dead: set[Card] = set()
        for player in view.players:
            if player.seat == seat:
                continue
            cards = {c for c in player.cards if c is not None}
            seen |= cards
            if player.folded or player.mucked:
                dead |= cards
        for event in view.public_events:
            if isinstance(event, HandShown) and event.seat != seat:
                seen.update(event.cards)
        seen -= set(mine)
        dead -= set(mine)
        opponents = tuple(p for p in view.players
                          if p.seat != seat and not p.folded and not p.mucked)
        wagered: Counter[int] = Counter()
        wagered_now: Counter[int] = Counter()
        acted: set[int] = set()
        bets = 0
        for event in view.public_events:
            if not isinstance(event, ActionTaken):
                continue
            if event.action.kind in _AGGRESSIVE:
                wagered[event.seat] += 1
                if event.street == view.street:
                    wagered_now[event.seat] += 1
                    bets += 1
            if event.street == view.street:
                acted.add(event.seat)
        call = next((a for a in view.legal_actions if a.kind is ActionKind.CALL), None)
        price = call.to - me.wager if call is not None else 0
        yet = tuple(p.seat for p in opponents if p.seat not in acted and not p.all_in)
        ranks, suits = [0] * 13, [0] * 4
        for card in (*mine, *seen):
            ranks[card.id >> 2] += 1
            suits[card.id & 3] += 1
        return TableRead(view, seat, mine, tuple(me.up_cards) + board, opponents,
                         frozenset(seen), frozenset(dead), price, bets, dict(wagered),
                         dict(wagered_now), yet, tuple(ranks), tuple(suits))

    @property
    def variant(self) -> Variant:
        return self.view.variant

    @property
    def street(self) -> int:
        return self.view.street

    @property
    def pot(self) -> int:
        return self.view.pot

    @property
    def to_come(self) -> int:
        """Cards this seat will still be dealt (the community card counts as one)."""
        return max(0, 7 - len(self.mine))

    @property
    def unseen(self) -> int:
        return 52 - len(self.mine) - len(self.seen)

    def up(self, player: PlayerView) -> tuple[Card, ...]:
        """A player's up cards with the community card."""
        return tuple(player.up_cards) + tuple(self.view.board)

    def hidden(self, player: PlayerView) -> int:
        """How many of a player's cards this seat cannot see."""
        return sum(1 for c in player.cards if c is None)

    def rank_left(self, rank: int) -> int:
        """Cards of ``rank`` (deuce 0 .. ace 12) neither mine nor seen: still live."""
        return max(0, 4 - self.used_ranks[rank])

    def suit_left(self, suit: int) -> int:
        return max(0, 13 - self.used_suits[suit])

    def pot_odds(self) -> float:
        """The share of the pot a call must win to break even."""
        return self.price / (self.pot + self.price) if self.price else 0.0
