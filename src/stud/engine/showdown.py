"""The showdown as pure functions: what each hand is worth, who can still win, and the awards.

``award`` maps a frozen ``HandEnd`` (the chips committed, the cards, who is still in and who
has shown) to the pots' awards; ``Hand`` pays them. One algorithm serves both profiles, with
the policies ``odd_chip``, ``odd_chip_shares``, ``hi_lo_halves`` and ``scoop_split``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from stud.cards import Card
from stud.engine.events import PotAwarded
from stud.engine.facts import Half, OddChips
from stud.engine.pots import Pot, build_pots, split
from stud.evaluate.high import FLUSH, STRAIGHT, STRAIGHT_FLUSH, category
from stud.evaluate.low import NO_LOW, low_rank
from stud.evaluate.values import HandValue, ValueKind
from stud.rules import Rules, Variant

Values = tuple[HandValue | None, HandValue | None]  # (high, low) of one hand
_NONE: Values = (None, None)


def hand_values(variant: Variant, cards: Sequence[Card]) -> Values:
    """A hand's high and low values as its variant plays them (None: not played, or fewer
    than five cards)."""
    if len(cards) < 5:
        return _NONE
    if variant is Variant.RAZZ:
        return None, HandValue.of(ValueKind.A5, cards)
    high = HandValue.of(ValueKind.HIGH, cards)
    if variant is Variant.STUD8:
        return high, HandValue.of(ValueKind.LOW8, cards)
    return high, None


@dataclass(frozen=True, slots=True)
class HandEnd:
    """What decides the pots: each player's chips in, cards (the community card included),
    whether still in the showdown (not folded, not mucked), and whether shown."""

    variant: Variant
    rules: Rules
    committed: tuple[int, ...]
    cards: tuple[tuple[Card, ...], ...]
    in_showdown: tuple[bool, ...]
    shown: tuple[bool, ...]

    def pots(self) -> list[Pot]:
        return build_pots(self.committed, self.in_showdown)


def _score(value: HandValue | None) -> int:
    return NO_LOW if value is None else value.value


def can_win(pots: Sequence[Pot], shown: Sequence[bool], i: int, values: dict[int, Values]
            ) -> bool:
    """Whether player i can still win part of one of the ``pots`` against the hands already
    ``shown``."""
    high, low = (_score(v) for v in values[i])
    for pot in pots:
        if i not in pot.eligible:
            continue
        rivals = [values[j] for j in pot.eligible if j != i and shown[j]]
        if not rivals:
            return True
        if high != NO_LOW and high >= max(_score(r[0]) for r in rivals):
            return True
        if low != NO_LOW and low >= max(_score(r[1]) for r in rivals):
            return True
    return False


def may_muck(pots: Sequence[Pot], i: int) -> bool:
    """A player may muck unless that would leave a pot they can win with nobody to claim it."""
    return all(any(j != i for j in pot.eligible) for pot in pots if i in pot.eligible)


def turns_up_a_card(up: Sequence[bool], shown_count: int) -> bool:
    """Whether showing a hand turns up a card: one dealt face down since it was last shown
    (``shown_count`` cards held then; 0: never shown). ``up`` is each card's face, in dealing
    order. A hand turned up at an all-in that got only up cards since (sixth street, then a
    community card on seventh) is already wholly face up: PokerKit's showdown skips it and
    kills the losers, so a history writes no show for it (the engine still tells its final
    value in ``HandShown``)."""
    return not all(up[shown_count:])


# ---------------------------------------------------------------- the odd chip

def _top_card_key(value: HandValue) -> int:
    """The highest card of a high hand, as rank*4+suit, for the odd chip by suit."""
    cat = category(value.value)
    used = {8: 1, 4: 1, 7: 2, 6: 2, 3: 3, 2: 3, 1: 4}.get(cat, 5)
    ranks = [value.value >> (16 - 4 * k) & 15 for k in range(used)]
    top = max(ranks) if cat not in (STRAIGHT, STRAIGHT_FLUSH) else ranks[0]
    cards: Sequence[Card] = value.cards
    if cat in (FLUSH, STRAIGHT_FLUSH):
        suits = [c.suit for c in cards]
        flush_suit = max(set(suits), key=suits.count)
        cards = [c for c in cards if c.suit == flush_suit]
    if cat in (STRAIGHT, STRAIGHT_FLUSH) and top == 3:
        candidates = [c for c in cards if c.rank == 3]  # five-high: the five is the top card
    else:
        candidates = [c for c in cards if c.rank == top]
    return max(c.id for c in candidates)


def _lowest_card_suit(value: HandValue) -> int:
    """The suit of the lowest card of a low hand, for the odd chip of a low split."""
    lowest = min(low_rank(c.id) for c in value.cards)
    return min(c.id & 3 for c in value.cards if low_rank(c.id) == lowest)


Priority = tuple[list[int], str]  # winners in the order odd chips go to them, and the rule


def _by_priority(rules: Rules, winners: list[int], half: int,
                 values: dict[int, Values]) -> Priority:
    """Winners in the order odd chips go to them (``odd_chip``): the highest card by suit in
    a high split, the lowest card by suit in a low split, or the first clockwise (seat)."""
    rule = rules.odd_chip
    if rule == "seat" or len(winners) == 1:
        return sorted(winners), rule
    if half == 0:
        return sorted(winners, key=lambda i: (-_top_card_key(_value(values, i, 0)), i)), rule
    return sorted(winners, key=lambda i: (_lowest_card_suit(_value(values, i, 1)), i)), rule


def _value(values: dict[int, Values], i: int, half: int) -> HandValue:
    value = values[i][half]
    assert value is not None
    return value


# ---------------------------------------------------------------- the awards

def _winners(eligible: Sequence[int], values: dict[int, Values], half: int) -> list[int]:
    """The best hands of one half among ``eligible``; empty when none qualifies."""
    scores = {i: _score(values[i][half]) for i in eligible}
    best = max(scores.values(), default=NO_LOW)
    return [] if best == NO_LOW else [i for i in eligible if scores[i] == best]


def _winning_somewhere(end: HandEnd, contenders: list[int], values: dict[int, Values]
                       ) -> set[int]:
    """PokerKit's first step (``hi_lo_halves = any_low``): hands that win no part of any pot
    are out before the pots are built."""
    halves = (0, 1) if end.variant is Variant.STUD8 else ((1,) if end.variant is Variant.RAZZ
                                                           else (0,))
    found: set[int] = set()
    for pot in end.pots():
        for half in halves:
            found.update(_winners(pot.eligible, values, half))
    return found


def uncontested(i: int, amount: int, pot: int = 0) -> PotAwarded:
    """A pot nobody else can claim (everyone else folded): player i takes it."""
    return PotAwarded(pot, amount, Half.ALL, ((i + 1, amount),), None, None, True, False, None,
                      False)


def award(end: HandEnd, known: dict[int, Values] | None = None) -> tuple[PotAwarded, ...]:
    """Every pot's award, the last-formed side pot first (RULES.md 5-7). ``known`` may bring
    hand values already worked out for these cards."""
    n = len(end.committed)
    contenders = [i for i in range(n) if end.in_showdown[i]]
    if len(contenders) == 1 and not end.shown[contenders[0]]:
        return (uncontested(contenders[0], sum(end.committed)),)
    known = known or {}
    values = {i: known[i] if i in known else hand_values(end.variant, end.cards[i])
              for i in contenders}
    live: Sequence[bool] = end.in_showdown
    halve: bool | None = None  # decided per pot, unless the policy decides for the hand
    if end.rules.hi_lo_halves == "any_low" and len(contenders) > 1:
        winning = _winning_somewhere(end, contenders, values)
        live = [i in winning for i in range(n)]
        halve = end.variant is Variant.STUD8 and any(
            _score(values[i][1]) != NO_LOW for i in winning)
    pots = build_pots(end.committed, live)
    awards: list[PotAwarded] = []
    for index in range(len(pots) - 1, -1, -1):
        awards.extend(_award_pot(end, index, pots[index], values, halve))
    return tuple(awards)


def _share(end: HandEnd, index: int, amount: int, half: Half, priority: Priority,
           high: HandValue | None, low: HandValue | None, *, no_low: bool = False,
           halving_chip: bool = False) -> PotAwarded:
    order, rule = priority
    shares = split(amount, order, end.rules.odd_chip_shares)
    odd = amount % len(order)
    chips = None if not odd else OddChips(
        odd, tuple(w + 1 for w, c in shares if c > amount // len(order)), rule)
    return PotAwarded(index, amount, half, tuple((w + 1, c) for w, c in shares), high, low,
                      False, no_low, chips, halving_chip)


def _award_pot(end: HandEnd, index: int, pot: Pot, values: dict[int, Values],
               halve: bool | None) -> list[PotAwarded]:
    eligible, amount, rules = pot.eligible, pot.amount, end.rules
    if len(eligible) == 1 and not end.shown[eligible[0]]:
        return [uncontested(eligible[0], amount, index)]
    variant = end.variant
    if variant is not Variant.STUD8:
        half = 1 if variant is Variant.RAZZ else 0
        winners = _winners(eligible, values, half)
        order = _by_priority(rules, winners, half, values)
        best = values[winners[0]][half]
        return [_share(end, index, amount, Half.ALL, order,
                       best if half == 0 else None, best if half == 1 else None)]
    high_winners = _winners(eligible, values, 0)
    high_order = _by_priority(rules, high_winners, 0, values)
    high = values[high_winners[0]][0]
    low_winners = _winners(eligible, values, 1)
    if not (halve if halve is not None else bool(low_winners)):
        return [_share(end, index, amount, Half.ALL, high_order, high, None, no_low=True)]
    low = values[low_winners[0]][1] if low_winners else None
    if (rules.scoop_split == "whole_pot" and len(high_winners) > 1
            and set(high_winners) == set(low_winners)):
        # Identical scooping hands split the whole pot as evenly as possible (RULES.md 7).
        return [_share(end, index, amount, Half.ALL, high_order, high, low)]
    low_amount = amount // 2
    # No eligible hand has a low, though the hand's pots are halved (PokerKit): the low half
    # goes to all of this pot's players alike.
    low_order = (_by_priority(rules, low_winners, 1, values) if low_winners
                 else (sorted(eligible), "seat"))
    return [
        _share(end, index, amount - low_amount, Half.HIGH, high_order, high, None,
               halving_chip=amount % 2 == 1),
        _share(end, index, low_amount, Half.LOW, low_order, None, low, no_low=not low_winners),
    ]
