"""One hand of stud as a pure state machine.

>>> from stud.cards import Deck
>>> from stud.rules import Stakes, Variant
>>> hand = Hand(Variant.STUD, Stakes(1, 1, 2, 4), [100, 100, 100], deck=Deck.seeded(7))
>>> hand.street, hand.to_act
(3, 2)
>>> [str(a) for a in hand.legal_actions()]
['bring in 1', 'complete to 2']
>>> hand.act(hand.legal_actions()[0])

Players are numbered by seat, 1..n clockwise from the dealer's left; internally they are
indices 0..n-1. No clock, no I/O, no global random state: the deck is injected.
"""

from __future__ import annotations

from collections.abc import Sequence

from stud.cards import Card, Deck
from stud.engine.actions import Action, ActionKind, IllegalAction
from stud.engine.betting import SHOWDOWN, Betting
from stud.engine.dealing import STREET_NAMES, Dealing, DealScript, _tuple
from stud.engine.events import (
    AntePosted,
    Event,
    HandEnded,
    HandMucked,
    HandShown,
    StreetStarted,
    UncalledReturned,
)
from stud.engine.order import best_showing, bring_in_player, showing_value
from stud.engine.pots import Pot
from stud.engine.result import HandResult, result_of
from stud.engine.showdown import award_pots, can_win, hand_names, showdown_order
from stud.engine.view import HandView, make_view, visible_events
from stud.rules import PROFILES, Rules, RulesError, Stakes, Variant, profile

BETTING = "betting"
COMPLETE = "complete"


class Hand(Dealing, Betting):
    """One hand: antes, five streets of dealing and betting, the showdown and the pots.

    ``deal_script`` (for replaying a history, or setting up a scenario) maps ``(street, seat)``
    to the cards that seat is dealt on that street, ``None`` for a card not known, and
    ``(street, 0)`` to a community card; every other card comes from the deck. With
    ``auto_showdown`` (the default) the engine shows each hand that can still win and mucks the
    rest; without it, the players in showdown order choose ``show`` or ``muck``.
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
    ) -> None:
        self.variant = variant if isinstance(variant, Variant) else Variant.parse(variant)
        if not isinstance(stakes, Stakes):
            raise RulesError(f"stakes must be Stakes(ante, bring_in, small_bet, big_bet), "
                             f"not {stakes!r}")
        self.stakes = stakes
        if isinstance(rules, str):
            rules = profile(rules)
        if rules is not None and not isinstance(rules, Rules):
            raise RulesError(f"rules must be a Rules or a profile name, not {rules!r}")
        self.rules = rules if rules is not None else PROFILES["standard"]
        if isinstance(stacks, str | bytes) or not isinstance(stacks, Sequence):
            raise RulesError(f"stacks must be a list of chip counts, one per seat, "
                             f"not {stacks!r}")
        if not 2 <= len(stacks) <= 8:
            raise RulesError(f"stud is for 2 to 8 players, not {len(stacks)}")
        for seat, stack in enumerate(stacks, 1):
            if not isinstance(stack, int) or isinstance(stack, bool) or stack <= 0:
                raise RulesError(f"seat {seat}: a starting stack must be a whole number of chips "
                                 f"> 0, not {stack!r}")
        self.deck = deck if deck is not None else Deck.shuffled()
        self.auto_showdown = auto_showdown
        n = self.players = len(stacks)
        self.starting_stacks: tuple[int, ...] = tuple(stacks)
        self.stacks: list[int] = list(stacks)
        self.wagers: list[int] = [0] * n
        self.committed: list[int] = [0] * n
        self.folded: list[bool] = [False] * n
        self.cards: list[list[Card]] = [[] for _ in range(n)]
        self.up: list[list[bool]] = [[] for _ in range(n)]
        self._ups: list[list[Card]] = [[] for _ in range(n)]
        self.shown: list[bool] = [False] * n
        self._shown_count: list[int] = [0] * n
        self.mucked: list[bool] = [False] * n
        self.board: list[Card] = []
        self.events: list[Event] = []
        self.values_memo: dict[tuple[int, int], tuple[int, int]] = {}
        self.pots_memo: dict[tuple[bool, ...], list[Pot]] = {}
        self._public: list[Event] = []
        self.street = 3
        self.phase = BETTING
        self.actor: int | None = None
        self.bring_in: int | None = None
        self.first_reason = ""
        self.last_aggressor: int | None = None
        self._script = deal_script
        self._legal: tuple[Action, ...] | None = None
        self._live_count = n
        self._actor_count = n
        self._stub: list[Card] = self._make_stub()
        self._burned: list[Card] = []
        self._muck_pile: list[Card] = []
        self._reshuffles = 0
        self._reset_street_betting()
        self._post_antes()
        self._deal_street()
        self._start_third_street()

    # ---------------------------------------------------------------- public reading

    @property
    def is_over(self) -> bool:
        return self.phase == COMPLETE

    @property
    def to_act(self) -> int | None:
        """The seat (1-based) whose decision the hand waits for, or None."""
        return None if self.actor is None else self.actor + 1

    @property
    def pot(self) -> int:
        """All chips in the middle, this street's bets included."""
        return sum(self.committed)

    @property
    def result(self) -> HandResult | None:
        """Pots, winners, amounts, hand names (high and low parts apart), stacks and net
        results, once the hand is over; None before."""
        return result_of(self.events, self.starting_stacks) if self.is_over else None

    def public_events(self) -> tuple[Event, ...]:
        """The events with every down card hidden (``None``) unless it has been shown."""
        done = len(self._public)
        if done < len(self.events):
            self._public.extend(visible_events(self.events[done:], None))
        return tuple(self._public)

    def up_cards(self, seat: int) -> list[Card]:
        i = seat - 1
        return self._ups[i] + self.board

    def hole_cards(self, seat: int) -> list[Card]:
        """All of a seat's cards in dealing order, community card last."""
        return self.cards[seat - 1] + self.board

    def live(self, seat: int) -> bool:
        return not self.folded[seat - 1] and not self.mucked[seat - 1]

    def all_in(self, seat: int) -> bool:
        i = seat - 1
        return self.stacks[i] == 0 and not self.folded[i]

    # ---------------------------------------------------------------- set-up

    def _post_antes(self) -> None:
        ante = self.stakes.ante
        if ante <= 0:
            return
        for i in range(self.players):
            amount = min(ante, self.stacks[i])
            self.stacks[i] -= amount
            self.committed[i] += amount
            if self.stacks[i] == 0:
                self._actor_count -= 1
            self.events.append(_tuple(AntePosted, (i + 1, amount, self.stacks[i] == 0)))


    # ---------------------------------------------------------------- streets

    def _can_act(self, i: int) -> bool:
        return not self.folded[i] and self.stacks[i] > 0

    def _actors(self) -> int:
        """Players still in the hand with chips behind (who can still bet)."""
        return self._actor_count

    def _start_third_street(self) -> None:
        doors = [(i, self._door(i)) for i in range(self.players)]
        low = bring_in_player(self.variant, doors)
        self.bring_in = low
        if self._actors() < 2:
            self.events.append(StreetStarted(3, None, "no betting: at most one player has chips"))
            self._end_betting_round()
            return
        actor = low
        reason = "bring-in: " + ("highest" if self.variant is Variant.RAZZ else "lowest") + \
            f" up card {self._door(low)}"
        if self.stacks[low] == 0:
            actor = self._next_actor_after(low)
            reason += f", all in from the ante; seat {actor + 1} acts first"
            # WSOP 217: the next player may fold, bring in or complete; PokerKit: no fold.
            self.bring_in_may_fold = not self.rules.pokerkit
        self.bring_in_pending = True
        self.first_reason = reason
        self.actor = actor
        self._update_uncapped()
        self.events.append(StreetStarted(3, actor + 1, reason))

    def _door(self, i: int) -> Card:
        return self._ups[i][0]

    def _next_actor_after(self, i: int) -> int:
        for step in range(1, self.players + 1):
            j = (i + step) % self.players
            if self._can_act(j):
                return j
        raise AssertionError("no player can act")

    def _start_later_street(self) -> None:
        folded, ups, board = self.folded, self._ups, self.board
        live = [i for i in range(self.players) if not folded[i]]
        shows = {i: showing_value(self.variant, ups[i] + board if board else ups[i]) for i in live}
        best = best_showing(self.variant, self.rules, live, ups, shows)
        reason = "best up cards" if self.variant is not Variant.RAZZ else "lowest up cards"
        actor = best
        if not self.stacks[best]:
            actor = self._next_actor_after(best)
            reason += f" (seat {best + 1}, all in; next to the left acts)"
        if (self.street == 4 and self.rules.open_pair_big_bet and self.variant is not Variant.RAZZ
                and any(value >> 20 == 1 for value in shows.values())):
            self.big_allowed = True
            reason += "; open pair: the big bet is allowed"
        self.first_reason = reason
        self.actor = actor
        self._update_uncapped()
        self.events.append(StreetStarted(self.street, actor + 1, reason))


    # ---------------------------------------------------------------- acting

    def act(self, action: Action, seat: int | None = None) -> None:
        """Apply ``action`` for the player to act (``seat``, if given, must be that player).

        Raises ``IllegalAction`` and leaves the hand unchanged when the action is not legal.
        """
        i = self.actor
        if i is None:
            raise IllegalAction(seat, action, "the hand is over" if self.is_over
                                else "nobody is to act")
        if seat is not None and seat != i + 1:
            raise IllegalAction(seat, action, f"it is seat {i + 1}'s turn, not seat {seat}'s",
                                self.legal_actions())
        legal = self._legal or self.legal_actions()
        for option in legal:  # legal actions are shared objects: identity first, cheaply
            if option is action:
                break
        else:
            action = self._check_unlisted(i, action, legal)
        self._legal = None
        if self.phase == SHOWDOWN:
            self._show_or_muck(i, action.kind is ActionKind.SHOW)
            return
        kind = action.kind
        if kind is ActionKind.FOLD:
            self._fold(i)
        elif kind is ActionKind.CHECK:
            self._record(i, action, 0)
        elif kind is ActionKind.CALL:
            self._record(i, action, action.to, self._put_in(i, action.to))
        elif kind is ActionKind.BRING_IN:
            self._bring_in(i, action)
        else:
            self._wager(i, action)
        self._advance(i)

    def _check_unlisted(self, i: int, action: Action, legal: tuple[Action, ...]) -> Action:
        """The action to apply for one that is not one of the listed objects: an equal one, the
        same wager by another name, a raise that puts everyone all in; else IllegalAction."""
        if action in legal:
            return action
        if not isinstance(action, Action):
            raise IllegalAction(i + 1, action, "that is not an action", legal)
        same = self._same_wager(action, legal)
        if same in legal or self._accepts_between(i, same, legal):
            return same
        raise IllegalAction(i + 1, action, self._why_illegal(i, action, legal), legal)

    def _advance(self, i: int) -> None:
        """After seat i acted: the next player to act, or the end of the betting round."""
        if self._live_count == 1:
            self._end_betting_round()
            return
        if not self.uncapped and self._actor_count <= 2 and self.rules.heads_up_uncapped:
            self._update_uncapped()
        n, stacks, folded, wagers = self.players, self.stacks, self.folded, self.wagers
        current, acted, several = self.current_bet, self.acted, self._actor_count >= 2
        for step in range(1, n + 1):
            j = (i + step) % n
            if folded[j] or not stacks[j]:
                continue
            if wagers[j] < current or (several and not acted[j]):
                self.actor = j
                return
        self._end_betting_round()

    def _end_betting_round(self) -> None:
        self.actor = None
        self._return_uncalled()
        live = [i for i in range(self.players) if not self.folded[i]]
        if len(live) == 1:
            self._finish()
            return
        while True:
            if self.street == 7:
                self._start_showdown()
                return
            if self._actors() < 2:
                self._turn_up_all()
            self.street += 1
            self._reset_street_betting()
            self._deal_street()
            if self._actors() >= 2:
                self._start_later_street()
                return
            self.events.append(StreetStarted(self.street, None,
                                             "no betting: at most one player has chips"))

    def _return_uncalled(self) -> None:
        committed = self.committed
        top, most, others = 0, -1, -1
        for k, amount in enumerate(committed):
            if amount > most:
                top, most, others = k, amount, most
            elif amount > others:
                others = amount
        extra = most - others
        if extra > 0:
            self.committed[top] -= extra
            self.wagers[top] = max(0, self.wagers[top] - extra)
            if self.stacks[top] == 0 and not self.folded[top]:
                self._actor_count += 1
            self._reach_top = None
            self.stacks[top] += extra
            self.events.append(UncalledReturned(top + 1, extra))

    # ---------------------------------------------------------------- showdown

    def _turn_up_all(self, last_aggressor: int | None = None) -> None:
        """No more betting is possible: every live hand is turned up (RULES.md 6), in showdown
        order."""
        for i in showdown_order(self, last_aggressor):
            if not self.shown[i]:
                self._show(i)

    def _show(self, i: int) -> None:
        self.shown[i] = True
        self._shown_count[i] = len(self.cards[i])
        high, low = hand_names(self, i)
        self.events.append(HandShown(i + 1, tuple(self.cards[i]), high, low))

    def _start_showdown(self) -> None:
        if any(not self.folded[i] and not self.stacks[i] for i in range(self.players)):
            self._turn_up_all(self.last_aggressor)  # someone is all in: every hand turned up
        self.phase = SHOWDOWN
        self._showdown_queue = [i for i in showdown_order(self, self.last_aggressor)
                                if not self.shown[i] or self._shown_count[i] < len(self.cards[i])]
        self._next_to_show()

    def _next_to_show(self) -> None:
        while self._showdown_queue:
            i = self._showdown_queue[0]
            if self.shown[i]:
                # Turned up when the betting ended; shown again with the cards dealt since.
                self._showdown_queue.pop(0)
                self._show(i)
                continue
            if self.auto_showdown:
                self._showdown_queue.pop(0)
                if can_win(self, i):
                    self._show(i)
                else:
                    self._muck(i)
                continue
            self.actor = i
            return
        self.actor = None
        self._finish()

    def _show_or_muck(self, i: int, show: bool) -> None:
        self._showdown_queue.pop(0)
        if show:
            self._show(i)
        else:
            self._muck(i)
        self._next_to_show()

    def _muck(self, i: int) -> None:
        self.mucked[i] = True
        self.events.append(HandMucked(i + 1))

    def _finish(self) -> None:
        self.phase = COMPLETE
        self.actor = None
        self.events.extend(award_pots(self))
        self.events.append(HandEnded(tuple(self.stacks)))

    # ---------------------------------------------------------------- views

    def view(self, seat: int | None = None) -> HandView:
        """What ``seat`` may see (its own down cards, every up card); ``None``: the public view."""
        return make_view(self, seat)

    def __repr__(self) -> str:
        state = ("over" if self.is_over
                 else f"{STREET_NAMES[self.street]}, seat {self.to_act} to act")
        return f"<Hand {self.variant.value} {self.players} players, {state}>"


__all__ = ["Hand", "showing_value"]
