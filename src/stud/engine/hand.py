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

from collections.abc import Mapping, Sequence

from stud.cards import Card, Deck
from stud.engine.actions import CHECK, FOLD, Action, ActionKind, IllegalAction, make_action
from stud.engine.events import (
    ActionTaken,
    AntePosted,
    CardBurned,
    CardDealt,
    CommunityCardDealt,
    Event,
    HandEnded,
    HandMucked,
    HandShown,
    StreetStarted,
    StubReshuffled,
    UncalledReturned,
)
from stud.engine.order import best_showing, bring_in_player, showing_value
from stud.engine.showdown import award_pots, can_win, hand_names, may_muck, showdown_order
from stud.engine.view import HandView, make_view, visible_events
from stud.rules import PROFILES, Rules, RulesError, Stakes, Variant

BETTING = "betting"
SHOWDOWN = "showdown"
COMPLETE = "complete"

STREET_NAMES = {3: "third street", 4: "fourth street", 5: "fifth street", 6: "sixth street",
                7: "seventh street"}

# The hottest events are built with tuple.__new__, skipping the named tuples' Python-level
# __new__: a hand makes dozens of them.
_tuple = tuple.__new__

DealScript = Mapping[tuple[int, int], Sequence[Card | None]]


class Hand:
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
        rules: Rules | None = None,
        deck: Deck | None = None,
        *,
        deal_script: DealScript | None = None,
        auto_showdown: bool = True,
    ) -> None:
        self.variant = variant if isinstance(variant, Variant) else Variant.parse(variant)
        self.stakes = stakes
        self.rules = rules if rules is not None else PROFILES["standard"]
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

    def _reset_street_betting(self) -> None:
        n = self.players
        self.current_bet = 0
        self.full_level = 0
        self.unit = self.stakes.small_bet if self.street <= 4 else self.stakes.big_bet
        self.bets = 0
        self.uncapped = False
        self.big_allowed = False
        self.big_made = False
        self.acted = [False] * n
        self.raise_seq = 0
        self.seq_at = [0] * n
        self.bring_in_pending = False
        self.bring_in_may_fold = False
        self.wagers_made = 0
        self.largest = 0
        self.short_all_ins: list[int] = []
        self.wagers = [0] * n
        self.last_aggressor = None

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

    # ---------------------------------------------------------------- dealing

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

    def _update_uncapped(self) -> None:
        if (self.rules.heads_up_uncapped and not self.uncapped
                and self.bets < self.rules.max_bets and self._actors() <= 2):
            self.uncapped = True

    # ---------------------------------------------------------------- legal actions

    def legal_actions(self) -> tuple[Action, ...]:
        """Every action the player to act may take, with exact amounts (empty when none)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    def _compute_legal(self) -> tuple[Action, ...]:
        i = self.actor
        if i is None:
            return ()
        if self.phase == SHOWDOWN:
            if may_muck(self, i):
                return (Action(ActionKind.SHOW), Action(ActionKind.MUCK))
            return (Action(ActionKind.SHOW),)
        wager = self.wagers[i]
        total = wager + self.stacks[i]
        if self.bring_in_pending:
            return self._bring_in_options(total)
        current = self.current_bet
        if current > wager:
            options = [FOLD, make_action(ActionKind.CALL, current if current < total else total)]
        else:
            options = [CHECK]
        if total > current:  # not covered: the player may be able to bet or raise
            reach = self._may_raise(i)
            if reach:
                options.extend(self._wager_options(i, total, reach))
        return tuple(options)

    def _bring_in_options(self, total: int) -> tuple[Action, ...]:
        stakes = self.stakes
        options = [FOLD] if self.bring_in_may_fold else []
        options.append(make_action(ActionKind.BRING_IN, min(stakes.bring_in, total)))
        # PokerKit also lets a player too short for the bring-in "complete" all in.
        if (total > stakes.bring_in or self.rules.pokerkit) and stakes.small_bet > stakes.bring_in:
            options.append(make_action(ActionKind.COMPLETE, min(stakes.small_bet, total)))
        return tuple(options)

    def _wager_kind(self) -> ActionKind:
        if self.bets == 0:
            return ActionKind.COMPLETE if self.street == 3 else ActionKind.BET
        return ActionKind.RAISE

    def _units(self) -> tuple[int, ...]:
        if self.big_allowed and not self.big_made:
            return (self.stakes.small_bet, self.stakes.big_bet)
        return (self.unit,)

    def _target(self, unit: int) -> int:
        """The "to" amount of a full bet or raise by ``unit``.

        ``half_bet``: the last full bet or raise plus a bet, so a short all-in is completed to
        a full raise. ``full_bet`` (PokerKit): the completion is to the small bet, anything
        later to the current amount plus a bet.
        """
        if self.rules.short_all_in == "half_bet":
            return self.full_level + unit
        if self.street == 3 and self.wagers_made == 0:
            return self.stakes.small_bet
        return self.current_bet + unit

    def _may_raise(self, i: int) -> int:
        """The most an opponent can have in on this street, when the player to act may bet or
        raise at all (0 when not: capped, not reopened to them, or nobody could call)."""
        if self.bets >= self.rules.max_bets and not self.uncapped:
            return 0
        current = self.current_bet
        stacks, wagers, folded = self.stacks, self.wagers, self.folded
        reach = 0
        for j in range(self.players):
            if j != i and not folded[j] and stacks[j] + wagers[j] > reach:
                reach = stacks[j] + wagers[j]
        if reach <= current:
            return 0  # nobody could call a raise
        reopened = not self.acted[i] or self.seq_at[i] < self.raise_seq
        if self.rules.short_all_in == "half_bet":
            return reach if reopened else 0
        if current - wagers[i] < self.largest:
            return 0  # PokerKit: a short all-in cannot be raised by who it did not reopen to
        if self.short_all_ins and sum(self.short_all_ins) < self.largest and not reopened:
            return 0
        return reach

    def _opponent_reach(self, i: int) -> int:
        """The most any opponent with chips could have in on this street."""
        reach = 0
        stacks, wagers, folded = self.stacks, self.wagers, self.folded
        for j in range(self.players):
            if j != i and stacks[j] and not folded[j] and wagers[j] + stacks[j] > reach:
                reach = wagers[j] + stacks[j]
        return reach

    def _wager_options(self, i: int, total: int, reach: int) -> list[Action]:
        kind = self._wager_kind()
        if self.big_allowed and not self.big_made:
            tos = sorted({min(self._target(self.stakes.small_bet), total),
                          min(self._target(self.stakes.big_bet), total)})
        else:
            to = self._target(self.unit)
            tos = [to if to < total else total]
        if not self.rules.pokerkit:
            # Less than a full raise is allowed when it already puts every opponent all in
            # (RULES.md 5; PokerKit does not allow it).
            if self.current_bet < reach < tos[-1] and reach not in tos:
                tos.append(reach)
                tos.sort()
        return [make_action(kind, to) for to in tos]

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
        if action not in legal:
            if not isinstance(action, Action):
                raise IllegalAction(i + 1, action, "that is not an action", legal)
            if not self._accepts_between(i, action, legal):
                raise IllegalAction(i + 1, action, self._why_illegal(i, action, legal), legal)
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

    def _accepts_between(self, i: int, action: Action, legal: tuple[Action, ...]) -> bool:
        """A raise between the opponents' reach and the full amount puts everyone all-in."""
        if not action.wagers or action.kind is ActionKind.BRING_IN:
            return False
        same = [a.to for a in legal if a.kind is action.kind]
        if len(same) < 2:
            return False
        reach = self._opponent_reach(i)
        return reach in same and reach <= action.to <= max(same)

    def _why_illegal(self, i: int, action: Action, legal: tuple[Action, ...]) -> str:
        kinds = {a.kind for a in legal}
        if action.kind not in kinds:
            if action.kind is ActionKind.FOLD:
                return "there is no bet to fold to: check instead"
            if action.kind is ActionKind.CHECK:
                return f"there is a bet of {self.current_bet} to call"
            if action.kind in (ActionKind.SHOW, ActionKind.MUCK):
                return "showing and mucking happen only at the showdown"
            if action.wagers and any(a.wagers for a in legal):
                return f"a {action.kind.label} is not the wager here"
            if action.wagers and not self.bring_in_pending:
                if self.acted[i] and self.seq_at[i] >= self.raise_seq:
                    return "the betting was not reopened to this player (no full raise since)"
                if not self.uncapped and self.bets >= self.rules.max_bets:
                    return f"the betting is capped at {self.rules.max_bets} bets on this street"
                return "no raise is possible"
            return f"{action.kind.label} is not possible now"
        amounts = ", ".join(str(a.to) for a in legal if a.kind is action.kind)
        return f"the amount must be {amounts}, not {action.to}"

    def _put_in(self, i: int, to: int) -> int:
        added = to - self.wagers[i]
        self.stacks[i] -= added
        if self.stacks[i] == 0 and added:
            self._actor_count -= 1
        self.committed[i] += added
        self.wagers[i] = to
        return added

    def _record(self, i: int, action: Action, to: int, added: int = 0) -> None:
        self.acted[i] = True
        self.seq_at[i] = self.raise_seq
        self.events.append(_tuple(ActionTaken, (i + 1, self.street, action, added,
                                                not self.stacks[i] and not self.folded[i])))

    def _fold(self, i: int) -> None:
        self.folded[i] = True
        self._live_count -= 1
        if self.stacks[i]:
            self._actor_count -= 1
        self._muck_pile.extend(self.cards[i])
        self._record(i, FOLD, 0)

    def _bring_in(self, i: int, action: Action) -> None:
        added = self._put_in(i, action.to)
        self.bring_in_pending = False
        self.bring_in_may_fold = False
        posted = action.to
        self.current_bet = self.stakes.bring_in if self.rules.short_bring_in == "full" else posted
        self.current_bet = max(self.current_bet, posted)
        self._record(i, action, posted, added)

    def _wager(self, i: int, action: Action) -> None:
        before = self.current_bet
        to = action.to
        small_target = self._target(self._units()[0])
        added = self._put_in(i, to)
        self.bring_in_pending = False
        self.bring_in_may_fold = False
        self.wagers_made += 1
        self.last_aggressor = i
        if self.rules.short_all_in == "full_bet":
            self._wager_full_bet(i, action, before, added)
            return
        unit = self._units()[0]
        if self.big_allowed and not self.big_made and to >= self._target(self.stakes.big_bet):
            self.big_made = True
            self.unit = self.stakes.big_bet
            unit = self.stakes.big_bet
        full = to >= small_target or to >= self._opponent_reach(i) > before
        if not full and self.rules.short_all_in == "half_bet":
            prior = before if self.bets else 0
            full = 2 * (to - prior) >= unit or to - self.full_level >= unit
        self.current_bet = max(before, to)
        if full:
            self.bets += 1
            self.full_level = to
            self.raise_seq += 1
        self._record(i, action, to, added)

    def _wager_full_bet(self, i: int, action: Action, before: int, added: int) -> None:
        """PokerKit's bookkeeping: every wager counts toward the cap; one at least as big as the
        largest increment so far reopens the betting; short all-ins reopen only together."""
        to = action.to
        if self.big_allowed and not self.big_made and to - before >= self.stakes.big_bet:
            self.big_made = True
            self.unit = self.stakes.big_bet
        increment = to - before
        if increment >= self.largest:
            self.raise_seq += 1
        self.largest = max(self.largest, increment)
        self.bets += 1
        if self.stacks[i]:
            self.short_all_ins.clear()
        else:
            self.short_all_ins.append(increment)
        if sum(self.short_all_ins) >= self.largest:
            self.short_all_ins.clear()
        self.current_bet = max(before, to)
        self.full_level = self.current_bet
        self._record(i, action, to, added)

    def _advance(self, i: int) -> None:
        """After seat i acted: the next player to act, or the end of the betting round."""
        if self._live_count == 1:
            self._end_betting_round()
            return
        if not self.uncapped and self.rules.heads_up_uncapped:
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
            self.stacks[top] += extra
            self.events.append(UncalledReturned(top + 1, extra))

    # ---------------------------------------------------------------- showdown

    def _turn_up_all(self) -> None:
        """No more betting is possible: every live hand is turned up (RULES.md 6)."""
        for i in showdown_order(self, None):
            if not self.shown[i]:
                self._show(i)

    def _show(self, i: int) -> None:
        self.shown[i] = True
        self._shown_count[i] = len(self.cards[i])
        high, low = hand_names(self, i)
        self.events.append(HandShown(i + 1, tuple(self.cards[i]), high, low))

    def _start_showdown(self) -> None:
        if any(not self.folded[i] and not self.stacks[i] for i in range(self.players)):
            self._turn_up_all()  # a player is all in: every live hand is turned up
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
