"""One hand of stud as a pure state machine.

>>> from stud.cards import Deck
>>> from stud.rules import Stakes, Variant
>>> hand = Hand(Variant.STUD, Stakes(1, 1, 2, 4), [100, 100, 100], deck=Deck.seeded(7))
>>> hand.street, hand.to_act
(3, 1)
>>> [str(a) for a in hand.legal_actions()]
['bring in 1', 'complete to 2']
>>> hand.act(hand.legal_actions()[0])
>>> hand.to_act
2

Players are numbered by seat, 1..n clockwise from the dealer's left; internally they are
indices 0..n-1. No clock, no I/O, no global random state: the deck is injected.

A ``Hand`` is composed of parts that own their state: the ``Seats`` (chips and cards), the
``Dealer`` (stub, burns, muck, community card, script), one ``BettingRound`` per street, and
the showdown's queue. The flow from street to street is here.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence

from stud.cards import Card, Deck
from stud.engine.actions import Action, ActionKind, IllegalAction
from stud.engine.betting import BettingRound
from stud.engine.dealer import Dealer, DealScript
from stud.engine.events import Event, HandEnded, PotAwarded, StreetStarted
from stud.engine.facts import FirstToAct, Phase
from stud.engine.order import later_street, no_betting, third_street
from stud.engine.refusals import accept
from stud.engine.result import HandResult, result_of
from stud.engine.reveal import Reveal
from stud.engine.seats import Seats
from stud.engine.view import HandView, Viewer
from stud.rules import (
    FIRST_STREET,
    LAST_STREET,
    STREET_NAMES,
    Rules,
    RulesError,
    Stakes,
    Variant,
    as_rules,
    is_whole,
    street,
)

_tuple = tuple.__new__
_LISTS, _TEXT = (list, tuple), (str, bytes)
_references: Callable[[object], int] | None = getattr(sys, "getrefcount", None)
_SHOWDOWN, _FOLD = Phase.SHOWDOWN, ActionKind.FOLD
_SHOW = Action(ActionKind.SHOW)
_MUCK = Action(ActionKind.MUCK)


class Hand:
    """One hand: antes, five streets of dealing and betting, the showdown and the pots.

    ``deal_script`` (for replaying a history, or setting up a scenario) maps ``(street, seat)``
    to the cards that seat is dealt on that street, ``None`` for a card not known, and
    ``(street, 0)`` to a community card; every other card comes from the deck. With
    ``auto_showdown`` (the default) the engine shows each hand that can still win and mucks the
    rest; without it, the players in showdown order choose ``show``, or ``muck`` where their hand
    cannot win any part of a pot against the hands shown before them (RULES.md 6).
    ``as_written`` (for a replayed history, with ``auto_showdown`` off) takes its shows and mucks
    as recorded: a muck is refused only where it would leave a pot with nobody to claim it.
    """

    def __init__(
        self,
        variant: Variant | str,
        stakes: Stakes,
        stacks: Sequence[int],
        rules: Rules | str | None = None,
        deck: Deck | None = None,
        *,
        deal_script: DealScript | None = None,
        auto_showdown: bool = True,
        as_written: bool = False,
    ) -> None:
        self.variant: Variant = variant if isinstance(variant, Variant) else \
            Variant.parse(variant)
        if not isinstance(stakes, Stakes):
            raise RulesError(f"stakes must be Stakes(ante, bring_in, small_bet, big_bet), "
                             f"not {stakes!r}")
        self.stakes: Stakes = stakes
        self.rules: Rules = as_rules(rules)
        if not isinstance(stacks, _LISTS) and (
                isinstance(stacks, _TEXT) or not isinstance(stacks, Sequence)):
            raise RulesError(f"stacks must be a list of chip counts, one per seat, "
                             f"not {stacks!r}")
        if not 2 <= len(stacks) <= 8:
            raise RulesError(f"stud is for 2 to 8 players, not {len(stacks)}")
        for seat, stack in enumerate(stacks, 1):
            if type(stack) is not int and not is_whole(stack) or stack <= 0:
                raise RulesError(f"seat {seat}: a starting stack must be a whole number of chips "
                                 f"> 0, not {stack!r}")
        stacks = [int(stack) for stack in stacks]  # NumPy's ints as Python's
        self.auto_showdown: bool = auto_showdown
        self.players: int = len(stacks)
        self.starting_stacks: tuple[int, ...] = tuple(stacks)
        self.seats: Seats = Seats(stacks)
        if deck is not None and not isinstance(deck, Deck):
            raise RulesError(f"deck must be a Deck (Deck.seeded(7), Deck.shuffled()), "
                             f"not {deck!r}")
        self.dealer: Dealer = Dealer(deck if deck is not None else Deck.shuffled(), self.rules,
                                     deal_script, self.players)
        self.events: list[Event] = []
        self._viewer: Viewer | None = None  # made at the first view
        self.street: int = FIRST_STREET
        self.phase: Phase = Phase.BETTING
        self.round: BettingRound = BettingRound(street(FIRST_STREET), self.rules, stakes,
                                                self.seats, self.events)
        self.firsts: dict[int, FirstToAct] = {}  # why the first actor acts first, by street
        self.bring_in: int | None = None  # the bring-in card's player (an index)
        self.reveal: Reveal = Reveal(self.variant, self.rules, self.seats, self.dealer,
                                     self.events, auto_showdown, as_written)
        self._legal: tuple[Action, ...] | None = None
        self.actor: int | None = None  # the player (index) whose decision the hand waits for
        self.is_over: bool = False
        self._post_antes()
        self.dealer.deal(street(FIRST_STREET), list(range(self.players)), self.seats,
                         self.events)
        self._open_third_street()

    # ---------------------------------------------------------------- public reading

    @property
    def to_act(self) -> int | None:
        """The seat (1-based) whose decision the hand waits for, or None."""
        i = self.actor
        return None if i is None else i + 1

    @property
    def why(self) -> FirstToAct | None:
        """Why the first actor of the current street acts first."""
        return self.firsts.get(self.street)

    # The seats' state, read-only (one entry per player, index = seat - 1).
    @property
    def stacks(self) -> list[int]:
        return self.seats.stacks

    @property
    def committed(self) -> list[int]:
        return self.seats.committed

    @property
    def folded(self) -> list[bool]:
        return self.seats.folded

    @property
    def shown(self) -> list[bool]:
        return self.seats.shown

    @property
    def mucked(self) -> list[bool]:
        return self.seats.mucked

    @property
    def cards(self) -> list[list[Card]]:
        return self.seats.cards

    @property
    def up(self) -> list[list[bool]]:
        return self.seats.up

    @property
    def board(self) -> list[Card]:
        """The community card, when the stub ran short (RULES.md 2)."""
        return self.dealer.board

    @property
    def wagers(self) -> list[int]:
        """This street's wagers."""
        return self.round.wagers

    @property
    def current_bet(self) -> int:
        return self.round.current_bet

    @property
    def pot(self) -> int:
        """All chips in the middle, this street's bets included."""
        return self.seats.pot

    @property
    def result(self) -> HandResult | None:
        """Pots, winners, amounts, hand values (high and low apart), stacks and net results,
        once the hand is over; None before."""
        return result_of(self.events, self.starting_stacks) if self.is_over else None

    def public_events(self) -> Sequence[Event]:
        """The events with every down card hidden (``None``) unless it has been shown."""
        return self.viewer.logs.window(None)

    @property
    def viewer(self) -> Viewer:
        """What makes the views (a hand that is never looked at needs none)."""
        viewer = self._viewer
        if viewer is None:
            viewer = self._viewer = Viewer(self.events, self.players)
        return viewer

    def up_cards(self, seat: int) -> list[Card]:
        return self.seats.up_cards[seat - 1] + self.dealer.board

    def hole_cards(self, seat: int) -> list[Card]:
        """All of a seat's cards in dealing order, community card last."""
        return self.seats.cards[seat - 1] + self.dealer.board

    def live(self, seat: int) -> bool:
        return self.seats.in_showdown(seat - 1)

    def all_in(self, seat: int) -> bool:
        i = seat - 1
        return self.seats.stacks[i] == 0 and not self.seats.folded[i]

    # ---------------------------------------------------------------- set-up and streets

    def _post_antes(self) -> None:
        if self.stakes.ante > 0:
            self.seats.post_antes(self.stakes.ante, self.events)

    def _open_third_street(self) -> None:
        seats = self.seats
        why = third_street(self.variant, seats)
        assert why.decider is not None
        self.bring_in = why.decider - 1
        if seats.actor_count < 2:
            self._no_betting()
            return
        assert why.seat is not None
        self._open(why)
        self.round.open(bring_in=True, bring_in_seat_all_in=why.decider_all_in)
        self.actor = why.seat - 1

    def _open(self, why: FirstToAct) -> None:
        self.firsts[self.street] = why
        self.events.append(_tuple(StreetStarted, (self.street, why.seat, why)))

    def _no_betting(self) -> None:
        self._open(no_betting(self.street))
        self._end_betting_round()

    def _next_street(self) -> None:
        """Deal the next street and open its betting, or go on while nobody can bet."""
        seats = self.seats
        while True:
            if self.street == LAST_STREET:
                self._start_showdown()
                return
            if seats.actor_count < 2:
                self.reveal.turn_up_all(None)
            self.street += 1
            plan = street(self.street)
            self.round = BettingRound(plan, self.rules, self.stakes, seats, self.events)
            live = seats.live()
            self.dealer.deal(plan, live, seats, self.events)
            if seats.actor_count >= 2:
                why = later_street(self.variant, self.rules, plan, seats, live,
                                   self.dealer.board, self.firsts.get(self.street - 1))
                assert why.seat is not None
                self._open(why)
                self.round.open(big_bet_allowed=why.open_pair)
                self.actor = why.seat - 1
                return
            self._open(no_betting(self.street))

    # ---------------------------------------------------------------- acting

    def legal_actions(self) -> tuple[Action, ...]:
        """Every action the player to act may take, with exact amounts (empty when none)."""
        legal = self._legal
        if legal is None:
            i = self.actor
            if i is None:
                return ()
            if self.phase is _SHOWDOWN:
                legal = (_SHOW, _MUCK) if self.reveal.may_muck(i) else (_SHOW,)
            else:
                legal = self.round.legal(i)
            self._legal = legal
        return legal

    def act(self, action: Action, seat: int | None = None) -> None:
        """Apply ``action`` for the player to act (``seat``, if given, must be that player).

        Raises ``IllegalAction`` and leaves the hand unchanged when the action is not legal.
        """
        i = self.actor
        if seat is not None and (type(seat) is not int and not is_whole(seat)
                                 or not 0 < seat <= self.players):
            raise ValueError(f"seat {seat!r} is not in this hand (seats 1 to {self.players}, "
                             f"or None for the seat to act)")
        if i is None:
            raise IllegalAction(seat, action, "the hand is over" if self.is_over
                                else "nobody is to act")
        if seat is not None and seat != i + 1:
            raise IllegalAction(seat, action, f"it is seat {i + 1}'s turn, not seat {seat}'s",
                                self.legal_actions())
        viewer = self._viewer
        if viewer is not None and viewer.last is not None:
            # The views still held are fixed before the hand changes. The latest one a bot has
            # just read and, as a rule, dropped: held by nothing but ``latest`` and the count's
            # own argument, it need not be fixed at all (CPython counts references; elsewhere
            # it is always fixed).
            latest = viewer.last
            viewer.last = None
            if _references is None or _references(latest) > 2:
                latest.freeze()
            if viewer.unread:
                viewer.freeze()
        legal = self._legal or self.legal_actions()
        for option in legal:  # legal actions are shared objects: identity first, cheaply
            if option is action:
                break
        else:
            action = accept(self.round, self.phase, i, action, legal)
        self._legal = None
        if self.phase is _SHOWDOWN:
            self.reveal.decide(i, action.kind is ActionKind.SHOW)
            self._next_to_show()
            return
        if action.kind is _FOLD:
            self.dealer.muck(self.seats.fold(i))
        following = self.actor = self.round.act(i, action)
        if following is None:
            self._end_betting_round()

    def _end_betting_round(self) -> None:
        self.actor = None
        self.round.return_uncalled()
        if self.seats.live_count == 1:
            self._finish()
            return
        self._next_street()

    # ---------------------------------------------------------------- showdown

    def _start_showdown(self) -> None:
        self.phase = Phase.SHOWDOWN
        self.reveal.start(self.round.last_aggressor)
        self._next_to_show()

    def _next_to_show(self) -> None:
        following = self.reveal.next()
        if following is None:
            self._finish()
        else:
            self.actor = following  # the player decides: show or muck

    def _finish(self) -> None:
        self.phase = Phase.COMPLETE
        self.is_over = True
        self.actor = None
        awards = self.reveal.awards()
        pay = self.seats.pay
        for awarded in awards:
            for seat, chips in awarded.shares:
                pay(seat - 1, chips)
        self.events.extend(awards)
        self.events.append(HandEnded(tuple(self.seats.stacks)))

    # ---------------------------------------------------------------- views

    def view(self, seat: int | None = None) -> HandView:
        """What ``seat`` may see (its own down cards, every up card); ``None``: the public view."""
        if seat is not None and (type(seat) is not int and not is_whole(seat)
                                 or not 0 < seat <= self.players):
            raise ValueError(f"seat {seat!r} is not in this hand (seats 1 to {self.players}, "
                             f"or None for the public view)")
        return (self._viewer or self.viewer).view(self, None if seat is None else int(seat))

    def __repr__(self) -> str:
        state = ("over" if self.is_over
                 else f"{STREET_NAMES[self.street]}, seat {self.to_act} to act")
        return f"<Hand {self.variant.value} {self.players} players, {state}>"


__all__ = ["Hand", "PotAwarded"]
