"""Fixed-limit betting: what the player to act may do, and what a wager does to the street.

The rules of RULES.md sections 3-5 live here: the bring-in and the completion, the small and
big bet, the open-pair big bet on fourth street, the cap and heads-up, and short all-ins under
``half_bet`` (a wager of half a bet or more is a full one) or ``full_bet`` (PokerKit's
bookkeeping). ``Hand`` inherits these methods; the state they read is the hand's.
"""

from __future__ import annotations

from stud.cards import Card
from stud.engine.actions import CHECK, FOLD, Action, ActionKind, make_action
from stud.engine.events import ActionTaken, Event
from stud.engine.showdown import may_muck
from stud.rules import Rules, Stakes

# Actions taken are built with tuple.__new__, like dealt cards (see dealing.py).
_tuple = tuple.__new__

SHOWDOWN = "showdown"


class Betting:
    """The betting half of a hand (a mixin of ``Hand``)."""

    # The hand's state, as far as betting reads and writes it.
    rules: Rules
    stakes: Stakes
    players: int
    street: int
    phase: str
    actor: int | None
    stacks: list[int]
    wagers: list[int]
    committed: list[int]
    folded: list[bool]
    cards: list[list[Card]]
    events: list[Event]
    last_aggressor: int | None
    _legal: tuple[Action, ...] | None
    _actor_count: int

    _live_count: int
    _muck_pile: list[Card]
    acted: list[bool]
    seq_at: list[int]
    raise_seq: int

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
        self._reach_top: list[tuple[int, int]] | None = None

    def _update_uncapped(self) -> None:
        if (self.rules.heads_up_uncapped and not self.uncapped
                and self.bets < self.rules.max_bets and self._actors() <= 2):
            self.uncapped = True

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
        wagers = self.wagers
        reach = self._opponent_reach(i)
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
        """The most any opponent still in could have in on this street.

        A player's chips in front plus behind do not change during a street, so the two
        largest are worked out once per street (and again after a fold).
        """
        top = self._reach_top
        if top is None:
            stacks, wagers, folded = self.stacks, self.wagers, self.folded
            ranked = sorted(((stacks[j] + wagers[j], j) for j in range(self.players)
                             if not folded[j]), reverse=True)
            top = self._reach_top = ranked[:2] + [(0, -1)] * (2 - len(ranked[:2]))
        return top[0][0] if top[0][1] != i else top[1][0]

    def _wager_options(self, i: int, total: int, reach: int) -> list[Action]:
        kind = self._wager_kind()
        if self.big_allowed and not self.big_made:
            tos = sorted({min(self._target(self.stakes.small_bet), total),
                          min(self._target(self.stakes.big_bet), total)})
        else:
            to = (self.full_level + self.unit if self.rules.short_all_in == "half_bet"
                  else self._target(self.unit))
            tos = [to if to < total else total]
        if not self.rules.pokerkit:
            # Less than a full raise is allowed when it already puts every opponent all in
            # (RULES.md 5; PokerKit does not allow it).
            if self.current_bet < reach < tos[-1] and reach not in tos:
                tos.append(reach)
                tos.sort()
        return [make_action(kind, to) for to in tos]

    def _accepts_between(self, i: int, action: Action, legal: tuple[Action, ...]) -> bool:
        """A raise between the opponents' reach and the full amount puts everyone all-in."""
        if not action.wagers or action.kind is ActionKind.BRING_IN:
            return False
        same = [a.to for a in legal if a.kind is action.kind]
        if len(same) < 2:
            return False
        reach = self._opponent_reach(i)
        return reach in same and reach <= action.to <= max(same)

    def _same_wager(self, action: Action, legal: tuple[Action, ...]) -> Action:
        """A bet, raise or completion to a legal amount is that legal wager, whatever it is
        called (PHH has one verb, ``cbr``, for all three)."""
        if action.wagers and action.kind is not ActionKind.BRING_IN:
            for option in legal:
                if option.to == action.to and option.wagers and \
                        option.kind is not ActionKind.BRING_IN:
                    return option
        return action

    def _why_illegal(self, i: int, action: Action, legal: tuple[Action, ...]) -> str:
        kinds = {a.kind for a in legal}
        if action.kind not in kinds:
            if self.bring_in_pending and not action.wagers:
                return "the bring-in comes first: bring in or complete"
            if action.kind is ActionKind.FOLD:
                return "there is no bet to fold to: check instead"
            if action.kind is ActionKind.CHECK:
                return f"there is a bet of {self.current_bet} to call"
            if action.kind in (ActionKind.SHOW, ActionKind.MUCK):
                return "showing and mucking happen only at the showdown"
            wager = next((a.kind for a in legal if a.wagers), None)
            if action.wagers and wager is not None:
                return f"the wager here is a {wager.value.replace('_', '-')}, not a " \
                       f"{action.kind.value.replace('_', '-')}"
            if action.wagers and not self.bring_in_pending:
                if self.acted[i] and self.seq_at[i] >= self.raise_seq:
                    return "the betting was not reopened to this player (no full raise since)"
                if not self.uncapped and self.bets >= self.rules.max_bets:
                    return f"the betting is capped at {self.rules.max_bets} bets on this street"
                return "no raise is possible"
            return f"{action.kind.label} is not possible now"
        amounts = ", ".join(str(a.to) for a in legal if a.kind is action.kind)
        return f"the amount must be {amounts}, not {action.to}"

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
        self._reach_top = None
        self._live_count -= 1
        if self.stacks[i]:
            self._actor_count -= 1
        self._muck_pile.extend(self.cards[i])
        self._record(i, FOLD, 0)
