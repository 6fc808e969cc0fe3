"""Stud knowledge for the expert bot: starting hands by variant, and later streets read as a
share of the pot.

Third street sorts a hand into PREMIUM, GOOD, SPECULATIVE or TRASH by the rules of thumb of
stud literature, taking the cards seen on the other doors into account (a pair whose cards are
out, a flush whose suit is spread around the table, a razz hand whose cards sit on other doors
are "dead"). Later streets estimate the share of the pot the hand wins, from the hand made so
far, the draws and how live their outs are, and the opponents' boards (scare cards: overcards,
paired boards, three suited or connected cards, low boards in the low games). The shares
are those against an opponent whose hidden cards are random; the bots lower them when the
opponents bet.

>>> from stud.cards import parse_cards
>>> category(high_key([c.id for c in parse_cards("KsKd")])) == ONE_PAIR
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from math import exp, prod

from stud.bots.reading import TableRead, hit_chance, low_card
from stud.cards import Card
from stud.engine import PlayerView
from stud.evaluate.high import (
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    ONE_PAIR,
    STRAIGHT,
    THREE_OF_A_KIND,
    TWO_PAIR,
    category,
    high_value,
)
from stud.rules import Variant

TRASH, SPECULATIVE, GOOD, PREMIUM = range(4)
TEN, QUEEN, ACE = 8, 10, 12  # ranks, deuce = 0


def high_key(ids: list[int]) -> int:
    """A high value for 1 to 7 cards on the scale of ``high_value``: five or more cards are
    valued in full, fewer by their pairs, trips and quads and then their high cards."""
    if len(ids) >= 5:
        return high_value(ids)
    counts = Counter(c >> 2 for c in ids)
    groups = sorted(counts.items(), key=lambda rc: (-rc[1], -rc[0]))
    shape = sorted(counts.values(), reverse=True)
    if shape[0] == 4:
        cat = FOUR_OF_A_KIND
    elif shape[0] == 3:
        cat = THREE_OF_A_KIND
    elif shape[:2] == [2, 2]:
        cat = TWO_PAIR
    else:
        cat = ONE_PAIR if shape[0] == 2 else 0
    value, shift = cat << 20, 16
    for rank, _ in groups:
        value |= rank << shift
        shift -= 4
    return value


def rank_of_low(value: int) -> int:
    """The rank (deuce 0 .. ace 12) of a low value (ace 1 .. king 13)."""
    return 12 if value == 1 else value - 2


# --- third street -----------------------------------------------------------------------------


def starting_class(read: TableRead) -> int:
    """PREMIUM, GOOD, SPECULATIVE or TRASH for the three cards of third street."""
    if read.variant is Variant.RAZZ:
        return _start_razz(read)
    if read.variant is Variant.STUD8:
        return _start_stud8(read)
    return _start_stud(read)


def _doors(read: TableRead, seats: tuple[int, ...] | None = None) -> list[Card]:
    players = read.opponents if seats is None else [read.view.player(s) for s in seats]
    return [p.up_cards[0] for p in players if p.up_cards]


def _three_flush_live(read: TableRead, three: tuple[Card, ...]) -> int:
    """Cards of the suit still live when all three are suited, else 0 (of 10 at best)."""
    if len({c.suit for c in three}) != 1:
        return 0
    return read.suit_left(three[0].suit)


def _three_straight_live(read: TableRead, ranks: Sequence[int]) -> int:
    """For three cards within a five-rank window: the live cards of the ranks that would make
    the straight (both ends of an open run), else 0."""
    distinct = sorted(set(ranks))
    if len(distinct) != 3 or distinct[-1] - distinct[0] > 4:
        return 0
    low, high = distinct[0], distinct[-1]
    wanted = [r for r in range(max(0, high - 4), min(12, low + 4) + 1) if r not in distinct]
    return sum(read.rank_left(r) for r in wanted)


def _start_stud(read: TableRead) -> int:
    three = read.mine[:3]
    ranks = [c.rank for c in three]
    counts = Counter(ranks)
    top_door = max((c.rank for c in _doors(read)), default=-1)
    if 3 in counts.values():
        return PREMIUM
    if 2 in counts.values():
        pair = next(r for r, n in counts.items() if n == 2)
        kicker = next(r for r, n in counts.items() if n == 1)
        live = read.rank_left(pair)  # 2 when no other card of the rank is out
        if pair > top_door:
            if pair >= TEN:
                return PREMIUM if live else GOOD
            return GOOD if live else SPECULATIVE
        if pair >= TEN and live and kicker >= top_door:
            return GOOD
        if live and (kicker >= QUEEN or kicker > top_door) and read.rank_left(kicker) >= 2:
            return SPECULATIVE
        return SPECULATIVE if live == 2 and kicker > top_door else TRASH
    flush = _three_flush_live(read, three)
    if flush >= 9 and max(ranks) >= QUEEN:
        return GOOD
    if flush >= 8:
        return SPECULATIVE
    straight = _three_straight_live(read, ranks)
    if straight >= 6 and max(ranks) - min(ranks) == 2 and min(ranks) >= 3:
        return SPECULATIVE
    return TRASH


def _start_stud8(read: TableRead) -> int:
    three = read.mine[:3]
    values = [low_card(c) for c in three]
    lows = sorted({v for v in values if v <= 8})
    counts = Counter(values)
    ace = 1 in values
    low_doors = sum(1 for c in _doors(read) if low_card(c) <= 8)
    if 3 in counts.values():
        return PREMIUM
    if 2 in counts.values():
        pair = next(v for v, n in counts.items() if n == 2)
        if pair == 1:
            return PREMIUM
        top_door = max((c.rank for c in _doors(read)), default=-1)
        pair_rank = rank_of_low(pair)
        if pair > 8 and pair_rank > top_door and read.rank_left(pair_rank):
            # A big pair plays best against low boards that must draw.
            return GOOD if low_doors >= len(read.opponents) - 1 else SPECULATIVE
        return SPECULATIVE if ace else TRASH
    if len(lows) == 3:
        suited = len({c.suit for c in three}) == 1
        connected = lows[-1] - lows[0] <= 4
        if (ace and lows[-1] <= 6) or lows[-1] <= 5:
            return PREMIUM
        if suited or connected or ace:  # scoop potential: low and high together
            return GOOD
        return GOOD if low_doors <= 3 else SPECULATIVE
    if len(lows) == 2 and (ace or _three_flush_live(read, three) >= 8):
        return SPECULATIVE
    return TRASH


def _start_razz(read: TableRead) -> int:
    three = read.mine[:3]
    values = [low_card(c) for c in three]
    distinct = sorted(set(values))
    door = low_card(three[2])
    lower_doors = sum(1 for c in _doors(read) if low_card(c) < door)
    needed_out = sum(1 for c in _doors(read) if low_card(c) <= 8 and low_card(c) not in values)
    if len(distinct) == 3:
        top = distinct[-1]
        if top <= 6:
            cls = PREMIUM
        elif top <= 7:
            cls = GOOD if lower_doors else PREMIUM
        elif top <= 8:
            cls = GOOD if lower_doors <= 1 else SPECULATIVE
        elif top <= 10 and distinct[1] <= 5:
            cls = SPECULATIVE
        else:
            cls = TRASH
    elif len(distinct) == 2 and distinct[-1] <= 4:
        cls = SPECULATIVE
    else:
        cls = TRASH
    if cls and needed_out >= 4:  # many of the small cards are already on other doors
        cls -= 1
    return cls


def something_to_build(read: TableRead) -> bool:
    """Below the charts but not hopeless: two high cards in stud, two small cards in the low
    games (worth a cheap look at fourth street)."""
    three = read.mine[:3]
    if read.variant is Variant.STUD:
        return sum(1 for c in three if c.rank >= TEN) >= 2
    return len(_low_values(three, 9)) >= 2


def steal_spot(read: TableRead) -> bool:
    """Nobody has completed yet and my door card outranks every door still to act (lowest in
    razz), with few players left behind: a completion may take the antes at once."""
    if read.bets or len(read.yet_to_act) > 3:
        return False
    door = read.mine[2]
    behind = _doors(read, read.yet_to_act)
    if read.variant is Variant.RAZZ:
        return low_card(door) <= 6 and all(low_card(c) > low_card(door) for c in behind)
    if read.variant is Variant.STUD8 and low_card(door) == 1:
        return True
    return door.rank >= QUEEN and all(c.rank < door.rank for c in behind)


# --- later streets: high --------------------------------------------------------------------


def high_draw(read: TableRead) -> float:
    """The chance to make a flush or straight with the cards still to come."""
    k, unseen = read.to_come, read.unseen
    if not k:
        return 0.0
    best = 0.0
    for suit, n in Counter(c.suit for c in read.mine).items():
        if 5 - n <= k:
            best = max(best, hit_chance(read.suit_left(suit), 5 - n, unseen, k))
    ranks = {c.rank for c in read.mine}
    single: set[int] = set()
    for low in range(-1, 9):
        window = [12 if r < 0 else r for r in range(low, low + 5)]
        missing = [r for r in window if r not in ranks]
        if len(missing) == 1:
            single.add(missing[0])
        elif len(missing) == 2 and k >= 2:
            chance = prod(hit_chance(read.rank_left(r), 1, unseen, k) for r in missing) * 0.7
            best = max(best, chance)
    if single:
        best = max(best, hit_chance(sum(read.rank_left(r) for r in single), 1, unseen, k))
    return best


# Heads-up shares against a hand whose hidden cards are random, by street (measured by Monte
# Carlo over thousands of positions; the adjustments below are measured the same way).
_BEATEN = {4: 0.33, 5: 0.27, 6: 0.17, 7: 0.0}
_NO_PAIR = {4: 0.45, 5: 0.42, 6: 0.36, 7: 0.18}
_PAIR = {4: 0.72, 5: 0.73, 6: 0.73, 7: 0.68}
_TWO_PAIR = {4: 0.85, 5: 0.85, 6: 0.86, 7: 0.84}


def _beats_board_high(read: TableRead, mine: int, opponent: PlayerView) -> float:
    """The chance my high hand ends better than this opponent's, from their board."""
    ups = read.up(opponent)
    theirs = high_key([c.id for c in ups])
    street = min(7, max(4, read.street))
    if mine <= theirs:
        return _BEATEN[street]  # their up cards alone beat my hand: I must improve
    cat, top = category(mine), mine >> 16 & 15
    up_ranks = [c.rank for c in ups]
    paired = len(set(up_ranks)) < len(up_ranks)  # full-house and two-pair threats
    over = min(2, len({r for r in up_ranks if r > top}))  # cards that pair to beat me
    scare = max(Counter(c.suit for c in ups).values(), default=0) >= 3 or _connected(up_ranks)
    if cat >= FULL_HOUSE:
        chance = 0.99 - 0.04 * paired
    elif cat == FLUSH:
        chance = 0.97 - 0.05 * paired
    elif cat == STRAIGHT:
        chance = 0.95 - 0.07 * paired - 0.08 * scare
    elif cat == THREE_OF_A_KIND:
        chance = (0.92 if street < 7 else 0.88) - 0.05 * paired - 0.1 * scare
    elif cat == TWO_PAIR:
        chance = _TWO_PAIR[street] - 0.06 * over - (0.08 + 0.1 * over) * paired
        chance -= 0.05 * (street == 7 and over == 2)
    elif cat == ONE_PAIR:
        chance = _PAIR[street] - (0.09 if street < 7 else 0.14) * over - 0.16 * paired
    else:
        chance = _NO_PAIR[street]
    return max(0.02, chance)


def _connected(ranks: Sequence[int]) -> bool:
    """Three up cards within a five-rank window: a straight draw showing."""
    distinct = sorted(set(ranks))
    return any(distinct[i + 2] - distinct[i] <= 4 for i in range(len(distinct) - 2))


def high_share(read: TableRead) -> float:
    mine = high_key([c.id for c in read.mine])
    made = prod(_beats_board_high(read, mine, p) for p in read.opponents)
    if category(mine) < STRAIGHT:
        made += (1 - made) * 0.85 * high_draw(read)
    return made


# --- later streets: low ---------------------------------------------------------------------


def _low_values(cards: tuple[Card, ...], under: int) -> list[int]:
    """Distinct low values (ace 1) below ``under``, lowest first."""
    return sorted({v for v in (low_card(c) for c in cards) if v < under})


def _make_low(read: TableRead, have: list[int], under: int, draws: int, chosen: bool) -> float:
    """The chance that ``draws`` unknown cards complete five distinct values below ``under``."""
    need = 5 - len(have)
    if need <= 0:
        return 1.0
    if need > draws:
        return 0.0
    outs = sum(read.rank_left(rank_of_low(v)) for v in range(1, under) if v not in have)
    chance = hit_chance(outs, need, read.unseen, draws) * (0.85 if need >= 2 else 1.0)
    # Hidden cards of a player who chose to stay in are better than random.
    return min(1.0, chance * 1.25) if chosen else chance


def _opponent_low(read: TableRead, opponent: PlayerView, under: int) -> float:
    """The chance this opponent ends with five distinct values below ``under``."""
    ups = read.up(opponent)
    have = _low_values(ups, under)
    draws = read.hidden(opponent) + read.to_come
    return _make_low(read, have, under, draws, chosen=read.hidden(opponent) > 0)


def _my_low(read: TableRead, under: int) -> tuple[float, int]:
    """My chance to make a low below ``under``, and its expected top card."""
    have = _low_values(read.mine, under)
    if len(have) >= 5:
        return 1.0, have[4]
    chance = _make_low(read, have, under, read.to_come, chosen=False)
    expected = max(have[-1] if have else under - 1, min(under - 1, 6 + (5 - len(have))))
    return chance, expected


def low8_share(read: TableRead) -> float:
    """Stud hi/lo: half for the high, half for a qualifying low, all of it when nobody has a
    low."""
    high = high_share(read)
    mine, top = _my_low(read, 9)
    lows = [_opponent_low(read, p, 9) for p in read.opponents]
    win_low = mine * prod(1 - _opponent_low(read, p, top) for p in read.opponents)
    no_low = (1 - mine) * prod(1 - x for x in lows)
    return high * (0.5 + 0.5 * no_low) + 0.5 * win_low


# Razz drawing hands: each good card (a distinct ace to eight) I hold against the opponent's
# good up cards and their hidden cards (about half of which are good), through a logistic
# whose slope steepens as the cards to come run out (measured by Monte Carlo, heads-up).
_RAZZ_SLOPE = {4: 0.8, 5: 0.9, 6: 1.0, 7: 1.3}


def _razz_vs(read: TableRead, opponent: PlayerView, good: int) -> float:
    theirs = len(_low_values(read.up(opponent), 9)) + 0.55 * read.hidden(opponent)
    edge = good - min(5.0, theirs)
    return 1.0 / (1.0 + exp(-_RAZZ_SLOPE[min(7, max(4, read.street))] * edge))


def razz_share(read: TableRead) -> float:
    """Razz: the chance my low ends better than every opponent's."""
    have = _low_values(read.mine, 9)
    if len(have) >= 5:  # an eight-low or better made: who can still make a better one?
        return prod(1 - _opponent_low(read, p, have[4]) for p in read.opponents)
    return prod(_razz_vs(read, p, len(have)) for p in read.opponents)


def pot_share(read: TableRead) -> float:
    """My estimated share of the pot at the showdown (fourth street on)."""
    if read.variant is Variant.RAZZ:
        share = razz_share(read)
    elif read.variant is Variant.STUD8:
        share = low8_share(read)
    else:
        share = high_share(read)
    return max(0.0, min(1.0, share))
