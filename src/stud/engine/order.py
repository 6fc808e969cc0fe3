"""Order of play: who brings in on third street, who acts first later, who shows first.

Each answer comes with its reason as a fact (``FirstToAct``): the rule, the seat whose cards
decided, those cards and what they show, whether that seat was all in and skipped, a tie, and
the open pair that allows the big bet on fourth street.
"""

from __future__ import annotations

from collections.abc import Sequence

from stud.cards import Card
from stud.engine.facts import FirstToAct, Opener
from stud.engine.seats import Seats
from stud.evaluate.showing import (
    bring_in_key_high,
    bring_in_key_low,
    rank_key,
    showing_high,
    showing_high_key,
    showing_low,
    showing_low_key,
    shows_one_pair,
)
from stud.rules import LAST_STREET, Rules, Street, Variant

_tuple = tuple.__new__  # a fact a street: skip the named tuple's Python-level __new__


def bring_in_player(variant: Variant, door_cards: Sequence[tuple[int, Card]]) -> int:
    """The player (index) whose up card brings in: lowest in stud and stud8, highest in razz.

    Suits break ties: clubs, diamonds, hearts, spades from lowest to highest (RULES.md 3).
    """
    if variant is Variant.RAZZ:
        return max(door_cards, key=lambda pc: bring_in_key_low(pc[1].id))[0]
    return min(door_cards, key=lambda pc: bring_in_key_high(pc[1].id))[0]


def showing_value(variant: Variant, up_cards: Sequence[Card]) -> int:
    """The rank of up cards for the order of play: a higher value acts first."""
    ids = [c.id for c in up_cards]
    return showing_low(ids) if variant is Variant.RAZZ else showing_high(ids)


def _highest_card_key(variant: Variant, up_cards: Sequence[Card]) -> int:
    keys = [bring_in_key_low(c.id) if variant is Variant.RAZZ else c.id for c in up_cards]
    return max(keys, default=-1)


def _best_showing(variant: Variant, rules: Rules, players: Sequence[int],
                  up_cards: Sequence[Sequence[Card]], values: dict[int, int]
                  ) -> tuple[int, bool]:
    """The player among ``players`` (indices in seat order) whose up cards rank best, and
    whether it was a tie. ``first_actor_tie`` breaks ties: ``seat`` takes the first clockwise
    from the dealer, ``suit`` the tied player holding the highest card by suit."""
    best = max(values.values())
    tied = [p for p in players if values[p] == best]
    if len(tied) == 1:
        return tied[0], False
    if rules.first_actor_tie == "seat":
        return tied[0], True
    return max(tied, key=lambda p: _highest_card_key(variant, up_cards[p])), True


def best_showing(variant: Variant, rules: Rules, players: Sequence[int],
                 up_cards: Sequence[Sequence[Card]]) -> int:
    """The player among ``players`` whose up cards rank best (ties by ``first_actor_tie``)."""
    values = {p: showing_value(variant, up_cards[p]) for p in players}
    return _best_showing(variant, rules, players, up_cards, values)[0]


def third_street(variant: Variant, seats: Seats) -> FirstToAct:
    """The bring-in (RULES.md 3). If the bring-in card's player is all in from the ante, the
    next player clockwise acts first."""
    ups = seats.up_cards
    if variant is Variant.RAZZ:
        low = bring_in_player(variant, [(i, ups[i][0]) for i in range(seats.count)])
    else:  # the lowest card id: lowest rank, clubs lowest (bring_in_key_high is the id)
        doors = [up[0].id for up in ups]
        low = doors.index(min(doors))
    opener = Opener.HIGH_CARD if variant is Variant.RAZZ else Opener.LOW_CARD
    all_in = seats.stacks[low] == 0
    actor = seats.next_actor_after(low) if all_in and seats.actor_count else low
    return _tuple(FirstToAct, (3, opener, actor + 1, low + 1, (ups[low][0],),
                               variant is Variant.RAZZ, all_in, False, False, False))


def later_street(variant: Variant, rules: Rules, plan: Street, seats: Seats, live: list[int],
                 board: Sequence[Card], sixth: FirstToAct | None) -> FirstToAct:
    """The best showing hand among ``live`` (the players in, in seat order) acts first
    (RULES.md 4); on seventh street after a community card, sixth street's first actor (TDA
    2024 RP-10). ``sixth`` is sixth street's fact."""
    street = plan.number
    if board and street == LAST_STREET and sixth is not None and sixth.seat is not None:
        first = sixth.seat - 1
        folded = first not in live
        skipped = folded or not seats.can_act(first)
        actor = seats.next_actor_after(first) if skipped else first
        return FirstToAct(street, Opener.SIXTH_STREET, actor + 1, first + 1, (),
                          variant is Variant.RAZZ, skipped and not folded, False, False, folded)
    ups = seats.up_cards
    shows = [ups[i] + list(board) for i in range(seats.count)] if board else ups
    lowball = variant is Variant.RAZZ
    showing = showing_low_key if lowball else showing_high_key
    extra = sum(rank_key(c.id) for c in board) if board else 0
    keys = seats.up_keys
    best, top, tie = -1, -1, False
    for i in live:  # the best showing, in one pass: the common case has no tie
        value = showing(keys[i] + extra)
        if value > top:
            best, top, tie = i, value, False
        elif value == top:
            tie = True
    if tie:
        values = {i: showing(keys[i] + extra) for i in live}
        best = _best_showing(variant, rules, live, shows, values)[0]
    # The open-pair option is decided as fourth street begins (RULES.md 4).
    open_pair = plan.open_pair and rules.open_pair_big_bet and not lowball and any(
        shows_one_pair(showing(keys[i] + extra)) for i in live)
    all_in = seats.stacks[best] == 0
    actor = seats.next_actor_after(best) if all_in else best
    return _tuple(FirstToAct, (street, Opener.BEST_HAND, actor + 1, best + 1,
                               tuple(shows[best]), lowball, all_in, tie, open_pair, False))


def no_betting(street: int) -> FirstToAct:
    return FirstToAct(street, Opener.NO_BETTING, None, None, (), False, False, False, False,
                      False)


def showdown_order(variant: Variant, rules: Rules, seats: Seats, board: Sequence[Card],
                   last_aggressor: int | None) -> list[int]:
    """Players still in the showdown in the order they show (RULES.md 6): the last player to
    bet or raise on seventh street first; without one, the best up cards; then clockwise."""
    live = [i for i in range(seats.count) if seats.in_showdown(i)]
    if last_aggressor is not None and last_aggressor in live:
        first = last_aggressor
    else:
        ups = [seats.up_cards[i] + list(board) for i in range(seats.count)]
        first = best_showing(variant, rules, live, ups)
    n = seats.count
    return sorted(live, key=lambda i: (i - first) % n)
