"""The showdown: who shows first, who can still win, and how each pot is awarded."""

from __future__ import annotations

from typing import TYPE_CHECKING

from stud.engine.events import PotAwarded
from stud.engine.order import best_showing
from stud.engine.pots import Pot, build_pots, split, split_odd_to_first
from stud.evaluate.high import high_value
from stud.evaluate.low import NO_LOW, a5_value, low8_value, low_rank
from stud.evaluate.names import a5_name, high_name, low8_name
from stud.rules import Variant

if TYPE_CHECKING:
    from stud.engine.hand import Hand


def _ids(hand: Hand, i: int) -> list[int]:
    return [c.id for c in hand.cards[i]] + [c.id for c in hand.board]


def _in_showdown(hand: Hand, i: int) -> bool:
    return not hand.folded[i] and not hand.mucked[i]


def showdown_order(hand: Hand, last_aggressor: int | None) -> list[int]:
    """Live players in the order they show (RULES.md 6).

    The last player to bet or raise on seventh street first; without one, the best up cards;
    then clockwise.
    """
    live = [i for i in range(hand.players) if _in_showdown(hand, i)]
    if last_aggressor is not None and last_aggressor in live:
        first = last_aggressor
    else:
        ups = [hand.up_cards(i + 1) for i in range(hand.players)]
        first = best_showing(hand.variant, hand.rules, live, ups)
    n = hand.players
    return sorted(live, key=lambda i: (i - first) % n)


def hand_names(hand: Hand, i: int) -> tuple[str | None, str | None]:
    """The names of a player's high and low hands (None where not played or too few cards)."""
    ids = _ids(hand, i)
    if len(ids) < 5:
        return None, None
    if hand.variant is Variant.RAZZ:
        return None, a5_name(a5_value(ids))
    high = high_name(high_value(ids))
    if hand.variant is Variant.STUD8:
        return high, low8_name(low8_value(ids))
    return high, None


def _values(hand: Hand, i: int) -> tuple[int, int]:
    """(high, low) values; NO_LOW where the variant has no such half. Remembered per hand
    and number of cards, since the showdown asks for them again and again."""
    key = (i, len(hand.cards[i]) + len(hand.board))
    memo = hand.values_memo
    if key not in memo:
        memo[key] = _evaluate(hand, i)
    return memo[key]


def _evaluate(hand: Hand, i: int) -> tuple[int, int]:
    ids = _ids(hand, i)
    if hand.variant is Variant.RAZZ:
        return NO_LOW, a5_value(ids)
    if hand.variant is Variant.STUD8:
        return high_value(ids), low8_value(ids)
    return high_value(ids), NO_LOW


def _pots(hand: Hand) -> list[Pot]:
    """The pots among the hands still in the showdown (remembered: chips no longer move)."""
    live = tuple(_in_showdown(hand, i) for i in range(hand.players))
    pots = hand.pots_memo.get(live)
    if pots is None:
        pots = hand.pots_memo[live] = build_pots(hand.committed, live)
    return pots


def can_win(hand: Hand, i: int) -> bool:
    """Whether player i can still win part of a pot against the hands already shown."""
    high, low = _values(hand, i)
    for pot in _pots(hand):
        if i not in pot.eligible:
            continue
        rivals = [_values(hand, j) for j in pot.eligible if j != i and hand.shown[j]]
        if not rivals:
            return True
        if high != NO_LOW and high >= max(r[0] for r in rivals):
            return True
        if low != NO_LOW and low >= max(r[1] for r in rivals):
            return True
    return False


def may_muck(hand: Hand, i: int) -> bool:
    """A player may muck unless that would leave a pot they can win with nobody to claim it."""
    return all(any(j != i for j in pot.eligible) for pot in _pots(hand) if i in pot.eligible)


def _top_card_key(hand: Hand, i: int, value: int) -> int:
    """The highest card of a high hand, as rank*4+suit, for the odd chip by suit."""
    from stud.evaluate.high import FLUSH, STRAIGHT, STRAIGHT_FLUSH, category

    cat = category(value)
    used = {8: 1, 4: 1, 7: 2, 6: 2, 3: 3, 2: 3, 1: 4}.get(cat, 5)
    ranks = [value >> (16 - 4 * k) & 15 for k in range(used)]
    top = max(ranks) if cat not in (STRAIGHT, STRAIGHT_FLUSH) else ranks[0]
    cards = hand.cards[i] + hand.board
    if cat in (FLUSH, STRAIGHT_FLUSH):
        suits = [c.suit for c in cards]
        flush_suit = max(set(suits), key=suits.count)
        cards = [c for c in cards if c.suit == flush_suit]
    if cat in (STRAIGHT, STRAIGHT_FLUSH) and top == 3:
        candidates = [c for c in cards if c.rank == 3]  # five-high: the five is the top card
    else:
        candidates = [c for c in cards if c.rank == top]
    return max(c.id for c in candidates)


def _lowest_card_suit(hand: Hand, i: int) -> int:
    """The suit of the lowest card of a low hand, for the odd chip of a low split."""
    cards = hand.cards[i] + hand.board
    lowest = min(low_rank(c.id) for c in cards)
    return min(c.id & 3 for c in cards if low_rank(c.id) == lowest)


def _by_priority(hand: Hand, winners: list[int], half: str, values: dict[int, int]) -> list[int]:
    """Winners in the order odd chips go to them (``odd_chip`` policy)."""
    if hand.rules.odd_chip == "seat" or len(winners) == 1:
        return sorted(winners)
    if half == "high":
        return sorted(winners, key=lambda i: (-_top_card_key(hand, i, values[i]), i))
    return sorted(winners, key=lambda i: (_lowest_card_suit(hand, i), i))


def _winners(eligible: tuple[int, ...], values: dict[int, int]) -> list[int]:
    best = max(values[i] for i in eligible)
    return [i for i in eligible if values[i] == best]


def award_pots(hand: Hand) -> list[PotAwarded]:
    """Award every pot, the last-formed side pot first (RULES.md 5-7); stacks are paid."""
    if hand.rules.pokerkit:
        return _award_as_pokerkit(hand)
    pots = _pots(hand)
    events: list[PotAwarded] = []
    contested = {i for pot in pots if len(pot.eligible) > 1 or hand.shown[pot.eligible[0]]
                 for i in pot.eligible}
    values = {i: _values(hand, i) for i in contested}
    highs = {i: v[0] for i, v in values.items()}
    lows = {i: v[1] for i, v in values.items()}
    for index in range(len(pots) - 1, -1, -1):
        pot = pots[index]
        for half, amount, shares, name in _split_pot(hand, pot, highs, lows):
            for seat_index, chips in shares:
                hand.stacks[seat_index] += chips
            events.append(PotAwarded(index, amount, half,
                                     tuple((s + 1, c) for s, c in shares), name))
    return events


def _split_pot(hand: Hand, pot: Pot, highs: dict[int, int], lows: dict[int, int]
               ) -> list[tuple[str, int, list[tuple[int, int]], str]]:
    if len(pot.eligible) == 1 and not hand.shown[pot.eligible[0]]:
        return [("all", pot.amount, [(pot.eligible[0], pot.amount)], "uncontested")]
    variant = hand.variant
    if variant is Variant.STUD:
        winners = _winners(pot.eligible, highs)
        order = _by_priority(hand, winners, "high", highs)
        return [("all", pot.amount, split(pot.amount, order), high_name(highs[winners[0]]))]
    if variant is Variant.RAZZ:
        winners = _winners(pot.eligible, lows)
        order = _by_priority(hand, winners, "low", lows)
        return [("all", pot.amount, split(pot.amount, order), a5_name(lows[winners[0]]))]
    high_winners = _winners(pot.eligible, highs)
    high_order = _by_priority(hand, high_winners, "high", highs)
    high_label = high_name(highs[high_winners[0]])
    qualified = tuple(i for i in pot.eligible if lows[i] != NO_LOW)
    if not qualified:
        return [("high", pot.amount, split(pot.amount, high_order), high_label + ", no low")]
    low_winners = _winners(qualified, lows)
    low_label = low8_name(lows[low_winners[0]])
    if (len(high_winners) > 1 and set(high_winners) == set(low_winners)
            and not hand.rules.pokerkit):
        # Identical scooping hands split the whole pot as evenly as possible (RULES.md 7).
        return [("all", pot.amount, split(pot.amount, high_order), f"{high_label}; {low_label}")]
    low_amount = pot.amount // 2
    high_amount = pot.amount - low_amount
    low_order = _by_priority(hand, low_winners, "low", lows)
    return [
        ("high", high_amount, split(high_amount, high_order), high_label),
        ("low", low_amount, split(low_amount, low_order), low_label),
    ]


def _award_as_pokerkit(hand: Hand) -> list[PotAwarded]:
    """PokerKit 0.7's payout, quirks included, for the ``pokerkit`` profile.

    Hands that can win nothing are killed first and leave every pot. A hi/lo pot is halved
    whenever any remaining hand has a low, even a side pot where no eligible hand has one; that
    low half then goes to all of the pot's players alike. Every odd chip of a split goes to the
    first winner in ``odd_chip`` order.
    """
    in_showdown = [_in_showdown(hand, i) for i in range(hand.players)]
    contenders = [i for i in range(hand.players) if in_showdown[i]]
    values = {i: _values(hand, i) for i in contenders} if len(contenders) > 1 else {}
    halves = [("all", 0)] if hand.variant is not Variant.RAZZ else [("all", 1)]
    if len(contenders) > 1:
        pots = build_pots(hand.committed, in_showdown)
        winners_somewhere: set[int] = set()
        for pot in pots:
            for _, k in halves + ([("low", 1)] if hand.variant is Variant.STUD8 else []):
                hands = {i: values[i][k] for i in pot.eligible if values[i][k] != NO_LOW}
                if hands:
                    best = max(hands.values())
                    winners_somewhere.update(i for i, v in hands.items() if v == best)
        live = [i in winners_somewhere for i in range(hand.players)]
        if hand.variant is Variant.STUD8 and any(values[i][1] != NO_LOW
                                                 for i in winners_somewhere):
            halves = [("high", 0), ("low", 1)]
        elif hand.variant is Variant.STUD8:
            halves = [("high", 0)]
    else:
        live = in_showdown
    events: list[PotAwarded] = []
    pots = build_pots(hand.committed, live)
    for index in range(len(pots) - 1, -1, -1):
        pot = pots[index]
        if len(pot.eligible) == 1:
            parts = [("all", pot.amount, [(pot.eligible[0], pot.amount)], "uncontested")]
        else:
            parts = []
            share, odd = divmod(pot.amount, len(halves))
            for n, (half, k) in enumerate(halves):
                amount = share + (odd if n == 0 else 0)
                hands = {i: values[i][k] for i in pot.eligible}
                scored = [v for v in hands.values() if v != NO_LOW]
                best = max(scored) if scored else NO_LOW
                winners = [i for i in pot.eligible if hands[i] == best]
                order = _by_priority(hand, winners, "low" if k else "high",
                                     {i: hands[i] for i in winners})
                if best == NO_LOW:
                    name = "no low"
                elif hand.variant is Variant.RAZZ:
                    name = a5_name(best)
                else:
                    name = high_name(best) if k == 0 else low8_name(best)
                parts.append((half, amount, split_odd_to_first(amount, order), name))
        for half, amount, shares, name in parts:
            for seat_index, chips in shares:
                hand.stacks[seat_index] += chips
            events.append(PotAwarded(index, amount, half,
                                     tuple((s + 1, c) for s, c in shares), name))
    return events
