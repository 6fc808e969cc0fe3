"""The fast engine's hands as PHH: every action logged as it is taken, written as the engine's
``from_hand`` writes it.

``play_logged`` plays a batch to its end with the built-in policies, as ``Batch.play`` does,
and keeps each hand's actions (street, seat, kind, "to") in a ``Log``; a ``Recorder`` keeps
the same ``Log`` of a batch driven step by step by the caller's choices. ``phh_actions`` then
writes a hand's PHH action lines from its log and the batch's final table: each street's cards
(grouped by seat, in seat order, as ``history.phh.phh_actions`` groups the engine's events), or
the community card, then that street's actions, then the hands turned up and mucked.

What the fast engine does not keep, who shows and who mucks at the showdown, is worked out
here by the engine's own functions (``best_showing``, ``build_pots``, ``can_win``): no rule is
written twice. The engine turns every hand up as soon as nobody can bet any more (before the
next street's cards, or at the showdown when someone is all in), then shows in showdown order
what can still win and mucks the rest (``engine.reveal``); a hand turned up early is shown
again with all its cards when one dealt since is face down (``turns_up_a_card``).
``tests/fast/test_history.py`` proves the files equal the engine's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from stud.cards import Card
from stud.engine import Values, best_showing, build_pots, can_win, turns_up_a_card
from stud.evaluate import a5_value, high_value, low8_value
from stud.evaluate.values import HandValue, ValueKind
from stud.fast import layout as L
from stud.fast import twister
from stud.fast.batch import Batch
from stud.fast.betting import legal
from stud.fast.compiled import entry
from stud.fast.policies import STRENGTH, choose, strength, strength_choice
from stud.fast.streets import step
from stud.fast.twister import KEY_WORDS
from stud.history.phh import HandHistory, dumps
from stud.rules import PROFILES, Variant

Array = npt.NDArray[Any]
_MT = 625  # the reshuffle's twister: its words and its position
_FIRST_CAPACITY = 64  # actions a hand, to begin with; a hand with more doubles it
# A logged action's code: street * _STREET + seat * _SEAT + kind.
_STREET, _SEAT = 128, 8


@entry
def _play_logged(table: Any, stub: Any, game: Any, policies: Any, rng: Any, keys: Any,
                 awards: Any, bot_keys: Any, mts: Any, log: Any, counts: Any, first: int) -> int:
    """``hands.play_all`` from hand ``first`` on, each action logged before it is taken as
    (code, to) in ``log[h, counts[h]]``; -1 when every hand is played, else the hand whose
    log is full (played up to that action: the caller grows the log and calls again).

    Where ``bot_keys`` has a row a hand (else none), a ``strength`` seat draws its noise as
    ``StrengthBot(seed)`` does, from ``random.Random(seed)`` (its twister in ``mts[seat]``,
    seeded from ``bot_keys[h, seat]`` when the hand starts)."""
    kinds = np.zeros(L.MAX_LEGAL, dtype=np.int64)
    tos = np.zeros(L.MAX_LEGAL, dtype=np.int64)
    mt = np.zeros(_MT, dtype=np.int64)
    back = np.zeros(64, dtype=np.int64)
    capacity = log.shape[1]
    own_noise = bot_keys.shape[0] > 0
    n = game[L.G_PLAYERS]
    for h in range(first, table.shape[0]):
        r = table[h]
        s = stub[h]
        if own_noise and counts[h] == 0:
            for i in range(n):
                if policies[i] == STRENGTH:
                    twister.seed(mts[i], bot_keys[h, i])
        while r[L.PHASE] == L.BETTING and r[L.ACTOR] >= 0:
            taken = counts[h]
            if taken == capacity:
                return h
            count = legal(r, game, kinds, tos)
            actor = r[L.ACTOR]
            if own_noise and policies[actor] == STRENGTH:
                # StrengthBot.act: strength + rng.uniform(-0.05, 0.05), a + (b - a) * random()
                noise = -0.05 + (0.05 - -0.05) * twister.random(mts[actor])
                choice = strength_choice(r, game, actor, strength(r, game, actor) + noise,
                                         kinds, tos, count)
            else:
                choice = choose(r, game, policies[actor], rng[h], kinds, tos, count)
            log[h, taken, 0] = r[L.STREET] * _STREET + actor * _SEAT + kinds[choice]
            log[h, taken, 1] = tos[choice]
            counts[h] = taken + 1
            step(r, s, game, kinds[choice], tos[choice], keys[h], mt, back, awards[h])
    return -1


@dataclass(frozen=True, slots=True)
class Log:
    """Every hand's actions in the order taken: ``codes[h, :counts[h]]`` (street * 128 +
    player * 8 + kind, ``layout.ACTION_NAMES``) and their "to" amounts ``tos``."""

    codes: Array
    tos: Array
    counts: Array

    def actions(self, h: int) -> list[tuple[int, int, str, int]]:
        """Hand h's actions as (street, player, kind, to)."""
        return [(c // _STREET, c % _STREET // _SEAT, L.ACTION_NAMES[c % _SEAT], to)
                for c, to in zip(self.codes[h, :self.counts[h]].tolist(),
                                 self.tos[h, :self.counts[h]].tolist(), strict=True)]


def play_logged(batch: Batch, policy: str | Sequence[str] = "random", seed: int = 0,
                seeds: Array | None = None, capacity: int = _FIRST_CAPACITY) -> Log:
    """``batch.play(policy, seed, seeds)`` with every action logged (room for ``capacity``
    actions a hand at first, doubled whenever a hand needs more): the same hands, but for
    ``strength`` seats when ``seeds`` is given, which then play as ``StrengthBot(seeds[h,
    seat])`` does, noise and all (``Batch.play`` draws their noise from the hand's own
    generator), as the random policy plays as ``RandomBot(seeds[h, seat])``."""
    codes = batch.policy_codes(policy)
    generators = batch.generators(seed, seeds)
    hands = len(batch)
    bot_keys = np.zeros((0, L.SEATS, KEY_WORDS), dtype=np.int64)
    if seeds is not None and (codes == STRENGTH).any():
        bot_keys = _keys(twister.magnitudes(seeds))
    mts = np.zeros((L.SEATS, _MT), dtype=np.int64)
    log = np.zeros((hands, max(1, capacity), 2), dtype=np.int64)
    counts = np.zeros(hands, dtype=np.int64)
    first = 0
    while True:
        full = _play_logged(batch.table, batch.stub, batch.game, codes, generators, batch.keys,
                            batch.awards_table, bot_keys, mts, log, counts, first)
        if full < 0:
            break
        grown = np.zeros((hands, 2 * log.shape[1], 2), dtype=np.int64)
        grown[:, :log.shape[1]] = log
        log, first = grown, int(full)
    batch.settle()
    return Log(log[:, :, 0], log[:, :, 1], counts)


class Recorder:
    """A batch driven step by step (``Batch.act`` with choices of the caller's own, an agent's
    say), every action logged as ``play_logged`` logs it, so that its hands can be written as
    PHH (``Writer``, ``history``) once they are over.

    Made right after ``Batch.deal`` (or the batch's making), before any action; every action
    then goes through ``Recorder.act``. ``log()`` refuses, naming the hand, while one is not
    over or when the batch took actions the recorder did not see.

    >>> from stud.cards import Deck
    >>> from stud.rules import Stakes
    >>> batch = Batch("razz", Stakes(1, 2, 5, 10), "standard", [[200] * 3] * 2,
    ...               [Deck.seeded(1), Deck.seeded(2)])
    >>> recorder = Recorder(batch)
    >>> while not batch.is_over.all():
    ...     recorder.act(np.zeros(len(batch), dtype=np.int64))  # the first legal action
    >>> text = Writer(batch, recorder.log()).text(0)  # hand 0 as PHH
    >>> [line for line in text.splitlines() if line.startswith("actions")]
    ['actions = ["d dh p1 Ad7h6s", "d dh p2 4d2h4s", "d dh p3 JdJhTs", "p3 pb", "p1 f", "p2 f"]']
    """

    def __init__(self, batch: Batch, capacity: int = _FIRST_CAPACITY) -> None:
        taken = np.flatnonzero(batch.table[:, L.ACTIONS] != 0)
        if len(taken):
            raise ValueError(f"hand {int(taken[0])} has actions already: make the Recorder "
                             "right after the deal, before any action")
        self.batch = batch
        self.dealt = batch.stub  # Batch.deal makes a new one: the hands recorded are gone
        self.codes = np.zeros((len(batch), max(1, capacity)), dtype=np.int64)
        self.tos = np.zeros_like(self.codes)
        self.counts = np.zeros(len(batch), dtype=np.int64)

    def act(self, choices: Sequence[int] | Array) -> None:
        """``batch.act(choices)``, each action taken logged; an ``IllegalChoice`` changes no
        hand and logs nothing."""
        batch = self.batch
        self._same_deal()
        legal, street, actor = batch.legal(), batch.street, batch.actor
        batch.act(choices)
        acting = np.flatnonzero(legal.counts > 0)
        chosen = np.asarray(choices, dtype=np.int64)[acting]
        if len(acting) and int(self.counts[acting].max()) == self.codes.shape[1]:
            wider = self.codes.shape[1] * 2
            self.codes, self.tos = (np.pad(a, ((0, 0), (0, wider - a.shape[1])))
                                    for a in (self.codes, self.tos))
        at = self.counts[acting]
        self.codes[acting, at] = (street[acting] * _STREET + actor[acting] * _SEAT
                                  + legal.kinds[acting, chosen])
        self.tos[acting, at] = legal.tos[acting, chosen]
        self.counts[acting] = at + 1

    def _same_deal(self) -> None:
        if self.batch.stub is not self.dealt:
            raise ValueError("the batch was dealt again since this Recorder was made: make a "
                             "new Recorder after each deal")

    def log(self) -> Log:
        """Every hand's actions, once every hand is over."""
        self._same_deal()
        table = self.batch.table
        unseen = np.flatnonzero(table[:, L.ACTIONS] != self.counts)
        if len(unseen):
            h = int(unseen[0])
            raise ValueError(f"hand {h} took {int(table[h, L.ACTIONS])} actions, "
                             f"{int(self.counts[h])} of them through this Recorder: every "
                             "action must go through Recorder.act")
        playing = np.flatnonzero(table[:, L.PHASE] != L.OVER)
        if len(playing):
            raise ValueError(f"hand {int(playing[0])} is not over yet: a hand is written once "
                             "it is over")
        return Log(self.codes, self.tos, self.counts)


def _keys(seeds: Array) -> Array:
    """``twister.seed_key`` of every seed (uint64, shape (hands, seats)): the 32-bit words
    ``random.Random(seed)`` seeds its twister with, as many as the seed needs."""
    keys = np.full((*seeds.shape, KEY_WORDS), -1, dtype=np.int64)
    keys[..., 0] = (seeds & np.uint64(0xFFFFFFFF)).astype(np.int64)
    high = (seeds >> np.uint64(32)).astype(np.int64)
    keys[..., 1] = np.where(high > 0, high, -1)
    padded = np.full((len(seeds), L.SEATS, KEY_WORDS), -1, dtype=np.int64)
    padded[:, :seeds.shape[1]] = keys
    return padded


# ---------------------------------------------------------------- PHH from the final table

_NAMES = tuple(str(Card.from_id(i)) for i in range(52))
# An action's PHH line by its code less the street (player * 8 + kind), as the engine's
# ``history.phh._action_line`` writes it; a wager's line ends with its "to".
_VERBS = {"fold": "f", "check": "cc", "call": "cc", "bring_in": "pb"}  # else "cbr TO"
_LINES = tuple(f"p{code // _SEAT + 1} {_VERBS.get(L.ACTION_NAMES[code % _SEAT], 'cbr ')}"
               if code % _SEAT < len(L.ACTION_NAMES) else "" for code in range(L.SEATS * _SEAT))
_WAGERS = frozenset(int(k) for k in (L.COMPLETE, L.BET, L.RAISE))


def _dealt(street: int) -> slice:
    """The cards of a player's hand dealt on ``street``."""
    return slice(0, 3) if street == 3 else slice(street - 1, street)


class _End:
    """One hand's end as the table holds it, and the engine's showdown replayed on it."""

    __slots__ = ("batch", "n", "cards", "up", "board", "live", "committed", "all_in",
                 "last_aggressor")

    def __init__(self, batch: Batch, row: list[int]) -> None:
        n = self.n = batch.players
        self.batch = batch
        self.cards = [row[L.CARD + L.CARDS * i:L.CARD + L.CARDS * i + row[L.HELD + i]]
                      for i in range(n)]  # ids, in dealing order
        self.up = [row[L.UP + i] for i in range(n)]  # bit k: card k is face up
        self.board = [row[L.BOARD]] if row[L.BOARD] >= 0 else []
        self.live = [i for i in range(n) if not row[L.FOLDED + i]]
        self.committed = row[L.COMMITTED:L.COMMITTED + n]
        # Live with no chip behind once the betting is over (before any pot is awarded).
        self.all_in = [row[L.START + i] == self.committed[i] for i in range(n)]
        self.last_aggressor = row[L.LAST_AGGRESSOR] if row[L.LAST_AGGRESSOR] >= 0 else None

    def shown(self, i: int, cards: int) -> str:
        return f"p{i + 1} sm " + "".join(_NAMES[c] for c in self.cards[i][:cards])

    def faces(self, i: int) -> list[bool]:
        """Player i's cards face up or down, in dealing order."""
        return [bool(self.up[i] >> k & 1) for k in range(len(self.cards[i]))]

    def order(self, street: int, last_aggressor: int | None) -> list[int]:
        """``engine.order.showdown_order`` with the cards dealt up to ``street``."""
        live, n = self.live, self.n
        if last_aggressor is not None and last_aggressor in live:
            first = last_aggressor
        else:
            board = self.board if street == 7 else []
            ups = [[Card.from_id(c) for k, c in enumerate(self.cards[i][:street])
                    if self.up[i] >> k & 1] + [Card.from_id(c) for c in board]
                   for i in range(n)]
            first = best_showing(self.batch.variant, self.batch.rules, live, ups)
        return sorted(live, key=lambda i: (i - first) % n)

    def values(self, i: int) -> Values:
        """``engine.showdown.hand_values`` of player i's seven cards, from their ids."""
        ids = self.cards[i] + self.board
        variant = self.batch.variant
        if variant is Variant.RAZZ:
            return None, HandValue(ValueKind.A5, a5_value(ids), ())
        high = HandValue(ValueKind.HIGH, high_value(ids), ())
        if variant is Variant.STUD8:
            return high, HandValue(ValueKind.LOW8, low8_value(ids), ())
        return high, None

    def showdown(self, shown_count: list[int]) -> list[str]:
        """``engine.reveal``'s automatic showdown: who shows and who mucks, in order."""
        lines = []
        cards, live = self.cards, self.live
        order = self.order(7, self.last_aggressor)
        shown = [count > 0 for count in shown_count]
        if any(self.all_in[i] for i in live):  # every hand turned up
            for i in order:
                if not shown[i]:
                    shown[i] = True
                    shown_count[i] = len(cards[i])
                    lines.append(self.shown(i, 7))
        values: dict[int, Values] = {}
        in_showdown = [i in live for i in range(self.n)]
        for i in order:
            if shown[i]:
                if turns_up_a_card(self.faces(i), shown_count[i]):  # a down card dealt since
                    lines.append(self.shown(i, 7))
                continue
            if not values:
                values = {j: self.values(j) for j in live}
            if can_win(build_pots(self.committed, in_showdown), shown, i, values):
                shown[i] = True
                lines.append(self.shown(i, 7))
            else:
                in_showdown[i] = False
                lines.append(f"p{i + 1} sm")
        return lines


def phh_actions(batch: Batch, log: Log, h: int) -> list[str]:
    """Hand h's PHH action lines, as ``history.phh.from_hand`` writes the engine's hand."""
    end = _End(batch, batch.table[h].tolist())
    n, cards, live = end.n, end.cards, end.live
    count = int(log.counts[h])
    codes = log.codes[h, :count].tolist()
    tos = log.tos[h, :count].tolist()
    showdown = len(live) >= 2
    # Nobody could bet after the last action (or after the antes): every hand turned up then.
    last = codes[-1] // _STREET if codes else 3
    turned_up = last if showdown and last < 7 and \
        sum(not end.all_in[i] for i in live) < 2 else None
    shown_count = [0] * n
    lines: list[str] = []
    at = 0
    for street in range(3, 8):
        if street == 7 and end.board:
            lines.append(f"d db {_NAMES[end.board[0]]}")
        else:
            part = _dealt(street)
            dealt = [(i, cards[i][part]) for i in range(n) if len(cards[i]) > part.start]
            if not dealt:
                break  # the hand was over before this street
            lines.extend(f"d dh p{i + 1} " + "".join(_NAMES[c] for c in ids) for i, ids in dealt)
        while at < count and codes[at] // _STREET == street:
            code = codes[at] % _STREET
            line = _LINES[code]
            lines.append(f"{line}{tos[at]}" if code % _SEAT in _WAGERS else line)
            at += 1
        if street == turned_up:
            for i in end.order(street, None):
                shown_count[i] = min(street, len(cards[i]))
                lines.append(end.shown(i, street))
    if showdown:
        lines.extend(end.showdown(shown_count))
    return lines


def _rules_fields(batch: Batch) -> dict[str, object]:
    """The rules as ``from_hand`` names them: the closest profile, then every policy that
    differs from it."""
    rules = batch.rules
    base_name = rules.closest_profile()
    fields: dict[str, object] = {"_rules": base_name}
    for policy, value in rules.differences(PROFILES[base_name]).items():
        fields[f"_rule_{policy}"] = value
    return fields


def history(batch: Batch, log: Log, h: int, **fields: object) -> HandHistory:
    """Hand h as ``history.phh.from_hand`` makes the engine's hand into a ``HandHistory``:
    the rules' profile and policies, then ``fields``."""
    stakes, row = batch.stakes, batch.table[h]
    return HandHistory(
        variant=batch.variant.phh_code,
        antes=[stakes.ante] * batch.players,
        bring_in=stakes.bring_in,
        small_bet=stakes.small_bet,
        big_bet=stakes.big_bet,
        starting_stacks=row[L.START:L.START + batch.players].tolist(),
        actions=phh_actions(batch, log, h),
        finishing_stacks=row[L.STACK:L.STACK + batch.players].tolist(),
        fields={**_rules_fields(batch), **fields},
    )


class Writer:
    """A batch's hands as PHH text, what ``history.phh.dumps(history(...))`` writes, sooner:
    what every hand of the batch shares is written once (``tests/fast/test_history.py``)."""

    def __init__(self, batch: Batch, log: Log) -> None:
        self.batch, self.log = batch, log
        stakes = batch.stakes
        self.head = dumps(HandHistory(batch.variant.phh_code, [stakes.ante] * batch.players,
                                      stakes.bring_in, stakes.small_bet, stakes.big_bet,
                                      [], [])).split("starting_stacks = ")[0]
        self.rules = self.fields(**_rules_fields(batch))

    @staticmethod
    def fields(**fields: object) -> str:
        """Field lines as ``dumps`` writes them."""
        text = dumps(HandHistory("", [], 0, 0, 0, [], [], fields=fields))
        return text.split("actions = []\n", 1)[1]

    def text(self, h: int, fields: str = "") -> str:
        """Hand h's PHH file, ``fields`` (``Writer.fields``) after the rules'."""
        n, row = self.batch.players, self.batch.table[h]
        # An action line is ASCII without quotes or backslashes: JSON writes it as it is.
        actions = ", ".join(f'"{line}"' for line in phh_actions(self.batch, self.log, h))
        return (f"{self.head}starting_stacks = {_list(row[L.START:L.START + n])}\n"
                f"actions = [{actions}]\n{self.rules}{fields}"
                f"finishing_stacks = {_list(row[L.STACK:L.STACK + n])}\n")


def _list(values: Array) -> str:
    return "[" + ", ".join(map(str, values.tolist())) + "]"


__all__ = ["Log", "Recorder", "Writer", "history", "phh_actions", "play_logged"]
