"""The fast engine's hands as PHH: every action logged as it is taken, written as the engine's
``from_hand`` writes it.

``play_logged`` plays a batch to its end with the built-in policies, as ``Batch.play`` does,
and keeps each hand's actions (street, seat, kind, "to") in a ``Log``. ``phh_actions`` then
writes a hand's PHH action lines from its log and the batch's final table: each street's cards
(grouped by seat, in seat order, as ``history.phh.phh_actions`` groups the engine's events), or
the community card, then that street's actions, then the hands turned up and mucked.

What the fast engine does not keep, who shows and who mucks at the showdown, is worked out
here by the engine's own functions (``best_showing``, ``build_pots``, ``can_win``): no rule is
written twice. The engine turns every hand up as soon as nobody can bet any more (before the
next street's cards, or at the showdown when someone is all in), then shows in showdown order
what can still win and mucks the rest (``engine.reveal``); a hand turned up early is shown
again with all its cards. ``tests/fast/test_history.py`` proves the files equal the engine's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from stud.cards import Card, format_cards
from stud.engine.order import best_showing
from stud.engine.pots import build_pots
from stud.engine.showdown import Values, can_win, hand_values
from stud.fast import layout as L
from stud.fast.batch import Batch
from stud.fast.betting import legal
from stud.fast.compiled import entry
from stud.fast.policies import choose
from stud.fast.streets import step
from stud.history.phh import HandHistory
from stud.rules import PROFILES, Variant

Array = npt.NDArray[Any]
_MT = 625  # the reshuffle's twister: its words and its position
_FIRST_CAPACITY = 64  # actions a hand, to begin with; a hand with more doubles it
# A logged action's code: street * _STREET + seat * _SEAT + kind.
_STREET, _SEAT = 128, 8


@entry
def _play_logged(table: Any, stub: Any, game: Any, policies: Any, rng: Any, keys: Any,
                 awards: Any, log: Any, counts: Any, first: int) -> int:
    """``hands.play_all`` from hand ``first`` on, each action logged before it is taken as
    (code, to) in ``log[h, counts[h]]``; -1 when every hand is played, else the hand whose
    log is full (played up to that action: the caller grows the log and calls again)."""
    kinds = np.zeros(L.MAX_LEGAL, dtype=np.int64)
    tos = np.zeros(L.MAX_LEGAL, dtype=np.int64)
    mt = np.zeros(_MT, dtype=np.int64)
    back = np.zeros(64, dtype=np.int64)
    capacity = log.shape[1]
    for h in range(first, table.shape[0]):
        r = table[h]
        s = stub[h]
        while r[L.PHASE] == L.BETTING and r[L.ACTOR] >= 0:
            taken = counts[h]
            if taken == capacity:
                return h
            count = legal(r, game, kinds, tos)
            actor = r[L.ACTOR]
            choice = choose(r, game, policies[actor], rng[h], kinds, tos, count)
            log[h, taken, 0] = r[L.STREET] * _STREET + actor * _SEAT + kinds[choice]
            log[h, taken, 1] = tos[choice]
            counts[h] = taken + 1
            step(r, s, game, kinds[choice], tos[choice], keys[h], mt, back, awards[h])
    return -1


@dataclass(frozen=True, slots=True)
class Action:
    """One logged action: its street, the acting player (index), the kind
    (``layout.ACTION_NAMES``) and its "to" amount."""

    street: int
    seat: int
    kind: int
    to: int

    def phh(self) -> str:
        """The PHH line the engine's ``ActionTaken`` makes (``history.phh._action_line``)."""
        seat = self.seat + 1
        if self.kind == L.FOLD:
            return f"p{seat} f"
        if self.kind in (L.CHECK, L.CALL):
            return f"p{seat} cc"
        if self.kind == L.BRING_IN:
            return f"p{seat} pb"
        return f"p{seat} cbr {self.to}"


@dataclass(frozen=True, slots=True)
class Log:
    """Every hand's actions in the order taken: ``codes[h, :counts[h]]`` and ``tos``."""

    codes: Array
    tos: Array
    counts: Array

    def actions(self, h: int) -> list[Action]:
        return [Action(c // _STREET, c % _STREET // _SEAT, c % _SEAT, to)
                for c, to in zip(self.codes[h, :self.counts[h]].tolist(),
                                 self.tos[h, :self.counts[h]].tolist(), strict=True)]


def play_logged(batch: Batch, policy: str | Sequence[str] = "random", seed: int = 0,
                seeds: Array | None = None, capacity: int = _FIRST_CAPACITY) -> Log:
    """``batch.play(policy, seed, seeds)``, the same hands, with every action logged
    (room for ``capacity`` actions a hand at first, doubled whenever a hand needs more)."""
    codes = batch.policy_codes(policy)
    generators = batch.generators(seed, seeds)
    hands = len(batch)
    log = np.zeros((hands, max(1, capacity), 2), dtype=np.int64)
    counts = np.zeros(hands, dtype=np.int64)
    first = 0
    while True:
        full = _play_logged(batch.table, batch.stub, batch.game, codes, generators, batch.keys,
                            batch.awards_table, log, counts, first)
        if full < 0:
            break
        grown = np.zeros((hands, 2 * log.shape[1], 2), dtype=np.int64)
        grown[:, :log.shape[1]] = log
        log, first = grown, int(full)
    batch.settle()
    return Log(log[:, :, 0], log[:, :, 1], counts)


# ---------------------------------------------------------------- PHH from the final table

@dataclass(frozen=True, slots=True)
class _Seen:
    """One hand's end as the table holds it."""

    variant: Variant
    players: int
    cards: list[list[Card]]  # each player's own cards, in dealing order
    up: list[list[bool]]
    board: list[Card]  # the community card, if one was dealt (on seventh street)
    live: list[bool]  # not folded
    committed: list[int]
    all_in: list[bool]  # live with no chip behind once the betting is over
    last_aggressor: int | None  # seventh street's


def _seen(batch: Batch, h: int) -> _Seen:
    row = batch.table[h].tolist()
    n = batch.players
    held = [row[L.HELD + i] for i in range(n)]
    live = [not row[L.FOLDED + i] for i in range(n)]
    committed = [row[L.COMMITTED + i] for i in range(n)]
    return _Seen(
        batch.variant, n,
        [[Card.from_id(row[L.CARD + L.CARDS * i + k]) for k in range(held[i])] for i in range(n)],
        [[bool(row[L.UP + i] >> k & 1) for k in range(held[i])] for i in range(n)],
        [Card.from_id(row[L.BOARD])] if row[L.BOARD] >= 0 else [],
        live, committed,
        [live[i] and row[L.START + i] == committed[i] for i in range(n)],
        row[L.LAST_AGGRESSOR] if row[L.LAST_AGGRESSOR] >= 0 else None)


def _dealt(street: int) -> slice:
    """The cards of a player's hand dealt on ``street``."""
    return slice(0, 3) if street == 3 else slice(street - 1, street)


def _order(seen: _Seen, rules: Any, street: int, live: list[int],
           last_aggressor: int | None) -> list[int]:
    """``engine.order.showdown_order`` with the cards dealt up to ``street``."""
    if last_aggressor is not None and last_aggressor in live:
        first = last_aggressor
    else:
        ups = [[c for c, up in zip(seen.cards[i][:street], seen.up[i][:street], strict=True)
                if up] + (seen.board if street == 7 else []) for i in range(seen.players)]
        first = best_showing(seen.variant, rules, live, ups)
    n = seen.players
    return sorted(live, key=lambda i: (i - first) % n)


def phh_actions(batch: Batch, log: Log, h: int) -> list[str]:
    """Hand h's PHH action lines, as ``history.phh.from_hand`` writes the engine's hand."""
    seen = _seen(batch, h)
    rules = batch.rules
    n = seen.players
    actions = log.actions(h)
    by_street: dict[int, list[Action]] = {}
    for action in actions:
        by_street.setdefault(action.street, []).append(action)
    live = [i for i in range(n) if seen.live[i]]
    showdown = len(live) >= 2
    # Nobody could bet after the last action (or after the antes): every hand turned up then.
    last = actions[-1].street if actions else 3
    turned_up = last if showdown and last < 7 and \
        sum(not seen.all_in[i] for i in live) < 2 else None
    shown_count = [0] * n
    lines: list[str] = []
    for street in range(3, 8):
        if street == 7 and seen.board:
            lines.append(f"d db {seen.board[0]}")
        else:
            part = _dealt(street)
            dealt = [(i, seen.cards[i][part]) for i in range(n)]
            if not any(cards for _, cards in dealt):
                break  # the hand was over before this street
            lines.extend(f"d dh p{i + 1} {format_cards(cards)}" for i, cards in dealt if cards)
        lines.extend(action.phh() for action in by_street.get(street, ()))
        if street == turned_up:
            for i in _order(seen, rules, street, live, None):
                shown_count[i] = len(seen.cards[i][:street])
                lines.append(f"p{i + 1} sm {format_cards(seen.cards[i][:street])}")
    if showdown:
        lines.extend(_showdown(seen, rules, live, shown_count))
    return lines


def _showdown(seen: _Seen, rules: Any, live: list[int], shown_count: list[int]) -> list[str]:
    """``engine.reveal``'s automatic showdown: who shows and who mucks, in order."""
    lines = []
    order = _order(seen, rules, 7, live, seen.last_aggressor)
    shown = [count > 0 for count in shown_count]
    if any(seen.all_in[i] for i in live):
        for i in order:
            if not shown[i]:
                shown[i] = True
                shown_count[i] = len(seen.cards[i])
                lines.append(f"p{i + 1} sm {format_cards(seen.cards[i])}")
    values: dict[int, Values] = {}
    in_showdown = list(seen.live)
    for i in order:
        if shown[i] and shown_count[i] == len(seen.cards[i]):
            continue
        if shown[i]:  # turned up before its last cards: shown again with them
            lines.append(f"p{i + 1} sm {format_cards(seen.cards[i])}")
            continue
        for j in live:
            if j not in values:
                values[j] = hand_values(seen.variant, seen.cards[j] + seen.board)
        if can_win(build_pots(seen.committed, in_showdown), shown, i, values):
            shown[i] = True
            lines.append(f"p{i + 1} sm {format_cards(seen.cards[i])}")
        else:
            in_showdown[i] = False
            lines.append(f"p{i + 1} sm")
    return lines


def history(batch: Batch, log: Log, h: int, **fields: object) -> HandHistory:
    """Hand h as ``history.phh.from_hand`` makes the engine's hand into a ``HandHistory``:
    the rules' closest profile and every policy that differs, then ``fields``."""
    rules = batch.rules
    base_name = rules.closest_profile()
    extra: dict[str, object] = {"_rules": base_name}
    for policy, value in rules.differences(PROFILES[base_name]).items():
        extra[f"_rule_{policy}"] = value
    extra.update(fields)
    stakes = batch.stakes
    return HandHistory(
        variant=batch.variant.phh_code,
        antes=[stakes.ante] * batch.players,
        bring_in=stakes.bring_in,
        small_bet=stakes.small_bet,
        big_bet=stakes.big_bet,
        starting_stacks=batch.starting_stacks[h].tolist(),
        actions=phh_actions(batch, log, h),
        finishing_stacks=batch.stacks[h].tolist(),
        fields=extra,
    )


__all__ = ["Action", "Log", "history", "phh_actions", "play_logged"]
