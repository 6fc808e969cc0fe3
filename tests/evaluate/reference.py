"""Shared helpers for the evaluator tests: random hands, rank multisets, PokerKit references."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations, combinations_with_replacement

from pokerkit.lookups import Lookup

from stud.cards import parse_cards

NAMES = [r + s for r in "23456789TJQKA" for s in "cdhs"]


def ids(text: str) -> list[int]:
    return [c.id for c in parse_cards(text)]


def names(hand: Sequence[int]) -> str:
    return "".join(NAMES[c] for c in hand)


def random_hands(seed: int, count: int, sizes: Sequence[int] = (5, 6, 7)) -> list[list[int]]:
    """``count`` random hands of the given sizes, reproducible from ``seed``."""
    rng = random.Random(seed)
    deck = list(range(52))
    return [rng.sample(deck, rng.choice(sizes)) for _ in range(count)]


def rank_multisets(size: int) -> Iterator[tuple[int, ...]]:
    """Every multiset of ``size`` ranks (deuce = 0 .. ace = 12) that one deck can deal."""
    for ranks in combinations_with_replacement(range(13), size):
        if max(Counter(ranks).values()) <= 4:
            yield ranks


def cards_of(ranks: Sequence[int]) -> list[int]:
    """Card ids for ranks: the n-th card of a rank gets the n-th suit."""
    seen: Counter[int] = Counter()
    hand = []
    for r in ranks:
        hand.append(r * 4 + seen[r])
        seen[r] += 1
    return hand


def assert_same_order(ours: Sequence[int], theirs: Sequence[int]) -> None:
    """Ours and theirs (both higher = better) order the hands the same way, ties included."""
    pairs = sorted(set(zip(ours, theirs, strict=True)))
    assert len({o for o, _ in pairs}) == len(pairs), "one of our values, two of theirs"
    assert len({t for _, t in pairs}) == len(pairs), "one of their values, two of ours"
    for (o1, t1), (o2, t2) in zip(pairs, pairs[1:], strict=False):
        assert t1 < t2, f"order differs: ours {o1} < {o2} but theirs {t1} >= {t2}"


_MISSING = object()


class PokerKitBest:
    """The best five-card PokerKit lookup entry among 5 to 7 cards, as an int (higher = better).

    PokerKit's ``Hand.from_game`` does this too, but builds a hand object for every five cards:
    far too slow for 100,000 hands. The lookup is memoised on what PokerKit keys it on (the ranks
    and whether the five are suited); tests check this shortcut against ``from_game``.
    ``None`` when no five cards make a hand (no 8-or-better low).
    """

    def __init__(self, lookup: Lookup, *, low: bool) -> None:
        self.lookup = lookup
        self.sign = -1 if low else 1  # PokerKit's low lookups give the better hand a lower index
        self.memo: dict[tuple[tuple[int, ...], bool], int | None] = {}

    def __call__(self, hand: Sequence[int]) -> int | None:
        hand = sorted(hand)
        ranks = [c >> 2 for c in hand]
        suits = [c & 3 for c in hand]
        best = None
        for five_ranks, five_suits, five in zip(
            combinations(ranks, 5), combinations(suits, 5), combinations(hand, 5), strict=True
        ):
            key = (five_ranks, five_suits.count(five_suits[0]) == 5)
            value = self.memo.get(key, _MISSING)
            if value is _MISSING:
                entry = self.lookup.get_entry_or_none(names(five))
                value = self.memo[key] = None if entry is None else self.sign * entry.index
            if value is not None and (best is None or value > best):
                best = value  # type: ignore[assignment]
        return best
