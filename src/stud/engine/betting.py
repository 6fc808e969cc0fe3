"""One street's fixed-limit betting: what the player to act may do, and what a wager does.

RULES.md sections 3-5: the bring-in and the completion, the small and big bet, the open-pair
big bet on fourth street, the cap and heads-up, and short all-ins under ``half_bet`` (a wager
of half a bet or more is a full one) or ``full_bet`` (PokerKit's bookkeeping). A
``BettingRound`` owns its street's wagers and counts; the players' chips are the ``Seats``'.
"""

from __future__ import annotations

from stud.engine.actions import CHECK, FOLD, Action, ActionKind, make_action
from stud.engine.events import ActionTaken, Event, UncalledReturned
from stud.engine.seats import Seats
from stud.rules import BetSize, Rules, Stakes, Street

# Actions taken are built with tuple.__new__, like dealt cards (see dealer.py).
_tuple = tuple.__new__


_FOLD, _CHECK, _CALL, _BRING_IN = (ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL,
                                   ActionKind.BRING_IN)
_BET, _RAISE, _COMPLETE = ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE
# _CLOCKWISE[n][i]: the players after i, clockwise, i last, at a table of n.
_CLOCKWISE = [[tuple((i + step) % n for step in range(1, n + 1)) for i in range(n)]
              for n in range(9)]
_CALLS: dict[int, Action] = {}


def _call(to: int) -> Action:
    """The call to ``to``, shared: every decision facing a bet offers one."""
    call = _CALLS.get(to)
    if call is None:
        call = make_action(ActionKind.CALL, to)
        if len(_CALLS) < 100_000:
            _CALLS[to] = call
    return call


class BettingRound:
    """The betting on one street. The hand says who is to act; the round says what they may
    do (``legal``), does it (``act``) and says who is next."""

    __slots__ = ("street", "completes", "stakes", "seats", "events", "max_bets",
                 "heads_up_uncapped",
                 "half_bet", "rules", "all_in_raise_for_less", "current_bet",
                 "full_level", "unit", "bets", "uncapped", "big_open", "acted", "raise_seq",
                 "seq_at", "bring_in_pending", "bring_in_may_fold", "wagers_made", "largest",
                 "short_all_ins", "wagers", "last_aggressor", "reach_top", "stacks",
                 "folded", "unopened")

    def __init__(self, street: Street, rules: Rules, stakes: Stakes, seats: Seats,
                 events: list[Event]) -> None:
        n = seats.count
        self.street = street.number
        self.completes = street.brings_in  # the first wager completes the bring-in
        self.stakes = stakes
        self.seats = seats
        self.stacks = seats.stacks  # the seats' lists, read here, changed through the seats
        self.folded = seats.folded
        self.events = events
        self.max_bets = rules.max_bets
        self.heads_up_uncapped = rules.heads_up_uncapped
        self.half_bet = rules.short_all_in == "half_bet"
        self.rules = rules  # the bring-in's policies are read where the bring-in is made
        self.all_in_raise_for_less = rules.all_in_raise_for_less
        self.current_bet = 0
        self.full_level = 0  # the last full bet or raise (half_bet bookkeeping)
        self.unit = stakes.small_bet if street.bet is BetSize.SMALL else stakes.big_bet
        self.bets = 0  # bets and raises toward the cap; the bring-in is none
        self.uncapped = False
        self.big_open = False  # fourth street's open pair: the big bet is still an option
        self.acted = [False] * n
        self.raise_seq = 0  # full raises so far: who acted before the last one may act again
        self.seq_at = [0] * n
        self.bring_in_pending = False
        self.bring_in_may_fold = False
        self.wagers_made = 0
        self.largest = 0  # the largest increment so far (full_bet bookkeeping)
        self.short_all_ins: list[int] = []
        self.wagers = [0] * n
        self.last_aggressor: int | None = None
        self.reach_top: list[tuple[int, int]] | None = None
        # What a player not facing a bet may do besides betting: check, or (free_fold) fold.
        self.unopened: tuple[Action, ...] = (FOLD, CHECK) if rules.free_fold else (CHECK,)

    def open(self, *, bring_in: bool = False, bring_in_seat_all_in: bool = False,
             big_bet_allowed: bool = False) -> None:
        """The round begins (on third street, with the bring-in)."""
        self.bring_in_pending = bring_in
        # WSOP 217: after an all-in low card the next player may fold, bring in or complete.
        self.bring_in_may_fold = bring_in_seat_all_in and self.rules.fold_facing_all_in_bring_in
        self.big_open = big_bet_allowed
        self.update_uncapped()

    def update_uncapped(self) -> None:
        if (self.heads_up_uncapped and not self.uncapped and self.bets < self.max_bets
                and self.seats.actor_count <= 2):
            self.uncapped = True

    # ---------------------------------------------------------------- what may be done

    def legal(self, i: int) -> tuple[Action, ...]:
        """What player i, to act, may do."""
        wager = self.wagers[i]
        total = wager + self.stacks[i]
        if self.bring_in_pending:
            return self._bring_in_options(total)
        current = self.current_bet
        if total <= current:  # covered: calling is all in
            return (FOLD, _call(total))
        if current > wager:
            return (FOLD, _call(current)) + self._raises(i, total)
        return self.unopened + self._raises(i, total)

    def _bring_in_options(self, total: int) -> tuple[Action, ...]:
        stakes = self.stakes
        options = [FOLD] if self.bring_in_may_fold else []
        options.append(make_action(ActionKind.BRING_IN, min(stakes.bring_in, total)))
        if total > stakes.bring_in or self.rules.short_bring_in_completes:
            options.append(make_action(ActionKind.COMPLETE, min(stakes.small_bet, total)))
        return tuple(options)

    def wager_kind(self) -> ActionKind:
        """What a bet or raise is called here: the completion, a bet, or a raise."""
        if self.bets == 0:
            return ActionKind.COMPLETE if self.completes else ActionKind.BET
        return ActionKind.RAISE

    def target(self, unit: int) -> int:
        """The "to" amount of a full bet or raise by ``unit``.

        ``half_bet``: the last full bet or raise plus a bet, so a short all-in is completed to
        a full raise. ``full_bet`` (PokerKit): the completion is to the small bet, anything
        later to the current amount plus a bet.
        """
        if self.half_bet:
            return self.full_level + unit
        if self.completes and self.wagers_made == 0:
            return self.stakes.small_bet
        return self.current_bet + unit

    def _raises(self, i: int, total: int) -> tuple[Action, ...]:
        """The bets or raises player i (with ``total`` chips in front and behind, more than the
        current bet) may make: none when capped, not reopened to them, or nobody could call."""
        if self.bets >= self.max_bets and not self.uncapped:
            return ()
        current = self.current_bet
        top = self.reach_top
        if top is None:
            top = self._rank_reach()
        reach = top[0][0] if top[0][1] != i else top[1][0]  # the most an opponent can have in
        if reach <= current:
            return ()  # nobody could call a raise
        reopened = not self.acted[i] or self.seq_at[i] < self.raise_seq
        if self.half_bet:
            if not reopened:
                return ()
        elif current - self.wagers[i] < self.largest:
            return ()  # PokerKit: a short all-in cannot be raised by who it did not reopen to
        elif self.short_all_ins and sum(self.short_all_ins) < self.largest and not reopened:
            return ()
        if not self.big_open:  # the common case, one full bet or raise, without a call
            to = self.full_level + self.unit if self.half_bet else self.target(self.unit)
            if to > total:
                to = total
            if not (self.all_in_raise_for_less and current < reach < to):
                return (make_action(_RAISE if self.bets else
                                    _COMPLETE if self.completes else _BET, to),)
        return self._wager_options(total, reach)

    def opponent_reach(self, i: int) -> int:
        """The most any opponent still in could have in on this street.

        A player's chips in front plus behind do not change during a street, so the two
        largest are worked out once per street (and again after a fold).
        """
        top = self.reach_top
        if top is None:
            top = self._rank_reach()
        return top[0][0] if top[0][1] != i else top[1][0]

    def _rank_reach(self) -> list[tuple[int, int]]:
        """The two players still in with the most chips in front and behind: (chips, player),
        the later seat first on a tie, as sorting (chips, player) descending would."""
        stacks, wagers, folded = self.stacks, self.wagers, self.folded
        most = second = 0
        first_at = second_at = -1
        for j in range(self.seats.count):
            if folded[j]:
                continue
            chips = stacks[j] + wagers[j]
            if chips >= most:
                most, second, first_at, second_at = chips, most, j, first_at
            elif chips >= second:
                second, second_at = chips, j
        top = self.reach_top = [(most, first_at), (second, second_at)]
        return top

    def _wager_options(self, total: int, reach: int) -> tuple[Action, ...]:
        if self.big_open:
            tos = sorted({min(self.target(self.stakes.small_bet), total),
                          min(self.target(self.stakes.big_bet), total)})
        else:
            to = self.full_level + self.unit if self.half_bet else self.target(self.unit)
            tos = [to if to < total else total]
        # Less than a full raise, when it already puts every opponent all in (RULES.md 5).
        if self.all_in_raise_for_less and self.current_bet < reach < tos[-1] \
                and reach not in tos:
            tos.append(reach)
            tos.sort()
        kind = self.wager_kind()
        if len(tos) == 1:
            return (make_action(kind, tos[0]),)
        return tuple([make_action(kind, to) for to in tos])

    def accepts_between(self, i: int, action: Action, legal: tuple[Action, ...]) -> bool:
        """A raise between the opponents' reach and the full amount puts everyone all-in."""
        if not action.wagers or action.kind is ActionKind.BRING_IN:
            return False
        same = [a.to for a in legal if a.kind is action.kind]
        if len(same) < 2:
            return False
        reach = self.opponent_reach(i)
        return reach in same and reach <= action.to <= max(same)

    # ---------------------------------------------------------------- doing it

    def act(self, i: int, action: Action) -> int | None:
        """Player i takes ``action`` (already checked to be legal; a fold already told to the
        seats); returns who acts next, or None when the round is over."""
        kind = action.kind
        added = 0
        if kind is _CALL:
            added = action.to - self.wagers[i]
            self.seats.put_in(i, added)
            self.wagers[i] = action.to
        elif kind is _FOLD:
            top = self.reach_top
            if top is not None and (top[0][1] == i or top[1][1] == i):
                self.reach_top = None
        elif kind is _BRING_IN:
            added = self._bring_in(i, action)
        elif kind is not _CHECK:
            added = self._wager(i, action)
        self.acted[i] = True
        self.seq_at[i] = self.raise_seq
        stacks, folded, seats = self.stacks, self.folded, self.seats
        self.events.append(_tuple(ActionTaken, (i + 1, self.street, action, added,
                                                not stacks[i] and not folded[i])))
        # Who is next: the first player clockwise still in, with chips, who owes chips or has
        # not acted yet (while two or more can still bet).
        if seats.live_count == 1:
            return None
        if not self.uncapped and seats.actor_count <= 2 and self.heads_up_uncapped:
            self.update_uncapped()
        wagers, current, acted = self.wagers, self.current_bet, self.acted
        several = seats.actor_count >= 2
        for j in _CLOCKWISE[seats.count][i]:
            if folded[j] or not stacks[j]:
                continue
            if wagers[j] < current or (several and not acted[j]):
                return j
        return None

    def _bring_in(self, i: int, action: Action) -> int:
        added = self._put_in(i, action.to)
        self.bring_in_pending = self.bring_in_may_fold = False
        posted = action.to
        owed = self.stakes.bring_in if self.rules.short_bring_in == "full" else posted
        self.current_bet = max(owed, posted)
        return added

    def _wager(self, i: int, action: Action) -> int:
        before = self.current_bet
        to = action.to
        small_target = self.target(self.stakes.small_bet if self.big_open else self.unit)
        big_made = self.big_open and to >= self.target(self.stakes.big_bet)
        added = self._put_in(i, to)
        self.bring_in_pending = self.bring_in_may_fold = False
        self.wagers_made += 1
        self.last_aggressor = i
        if big_made:
            self.big_open = False
            self.unit = self.stakes.big_bet
        if self.half_bet:
            full = to >= small_target or to >= self.opponent_reach(i) > before
            if not full:
                # Half a bet is measured on the wager's own increment; only the street's
                # first wager (a bet, or a completion over the bring-in) is measured from
                # nothing. A short all-in after another is its increment: 4 all in, then 7
                # all in on a 10 street is 3 more, and the two together are short of a bet.
                prior = before if self.bets or self.wagers_made > 1 else 0
                full = 2 * (to - prior) >= self.unit or to - self.full_level >= self.unit
            if full:
                self.bets += 1
                self.full_level = to
                self.raise_seq += 1
        else:
            self._count_full_bet(i, to - before)
        self.current_bet = max(before, to)
        return added

    def _count_full_bet(self, i: int, increment: int) -> None:
        """PokerKit's bookkeeping: every wager counts toward the cap; one at least as big as the
        largest increment so far reopens the betting; short all-ins reopen only together."""
        if increment >= self.largest:
            self.raise_seq += 1
        self.largest = max(self.largest, increment)
        self.bets += 1
        if self.seats.stacks[i]:
            self.short_all_ins.clear()
        else:
            self.short_all_ins.append(increment)
        if sum(self.short_all_ins) >= self.largest:
            self.short_all_ins.clear()
        self.full_level = max(self.current_bet, self.current_bet + increment)

    def _put_in(self, i: int, to: int) -> int:
        added = to - self.wagers[i]
        self.seats.put_in(i, added)
        self.wagers[i] = to
        return added

    def return_uncalled(self) -> None:
        """The part of the largest commitment nobody matched goes back to its owner."""
        committed = self.seats.committed
        top, most, others = 0, -1, -1
        for k, amount in enumerate(committed):
            if amount > most:
                top, most, others = k, amount, most
            elif amount > others:
                others = amount
        extra = most - others
        if extra > 0:
            self.wagers[top] = max(0, self.wagers[top] - extra)
            self.reach_top = None
            self.seats.take_back(top, extra)
            self.events.append(UncalledReturned(top + 1, extra))
