"""Cards, ranks, suits and decks.

Cards are immutable and interned: ``Card.parse("As") is Card.parse("As")``.
A card's id is ``rank * 4 + suit`` with deuce = 0 .. ace = 12 and clubs 0, diamonds 1,
hearts 2, spades 3, so ids run 0..51 and sort by rank, then suit.

>>> card = Card.parse("As")
>>> str(card), card.id
('As', 51)
>>> [str(c) for c in parse_cards("Td3c4d")]
['Td', '3c', '4d']
"""

from __future__ import annotations

import numbers
import random
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
SUIT_SYMBOLS = "♣♦♥♠"


class CardError(ValueError):
    """A card string that does not name a card, or cards that repeat where they must not."""


class Rank(IntEnum):
    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def char(self) -> str:
        return RANK_CHARS[self]


class Suit(IntEnum):
    """Suits in bring-in order: clubs lowest, spades highest."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def char(self) -> str:
        return SUIT_CHARS[self]

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self]


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card. ``Card.parse`` and ``Card.from_id`` return the interned card;
    ``Card(12)`` and ``Card('5s')`` (its repr) make an equal one, and anything else is a
    CardError."""

    id: int

    def __post_init__(self) -> None:
        card_id: object = self.id
        if isinstance(card_id, str):
            card_id = Card.parse(card_id).id
        elif not isinstance(card_id, numbers.Integral) or isinstance(card_id, bool) \
                or not 0 <= int(card_id) < 52:
            raise CardError(f"card id {card_id!r} is not between 0 and 51 (or a card like 'As')")
        object.__setattr__(self, "id", int(card_id))

    @property
    def rank(self) -> Rank:
        return _RANK_OF[self.id]

    @property
    def suit(self) -> Suit:
        return _SUIT_OF[self.id]

    @staticmethod
    def from_id(card_id: int) -> Card:
        if type(card_id) is not int and (not isinstance(card_id, numbers.Integral)
                                         or isinstance(card_id, bool)) or not 0 <= card_id < 52:
            raise CardError(f"card id {card_id!r} is not between 0 and 51")
        return CARDS[int(card_id)]

    @staticmethod
    def parse(text: str) -> Card:
        """Parse two characters, rank then suit: ``"As"``, ``"Td"``, ``"2c"``."""
        if not isinstance(text, str) or len(text) != 2:
            raise CardError(
                f"bad card {text!r}: a card is two characters, rank then suit, like 'As'")
        rank_char, suit_char = text[0].upper(), text[1].lower()
        rank = RANK_CHARS.find(rank_char)
        if rank < 0:
            raise CardError(f"bad card {text!r}: rank {text[0]!r} is not one of {RANK_CHARS}")
        suit = SUIT_CHARS.find(suit_char)
        if suit < 0:
            raise CardError(f"bad card {text!r}: suit {text[1]!r} is not one of {SUIT_CHARS}")
        return CARDS[rank * 4 + suit]

    def __str__(self) -> str:
        return RANK_CHARS[self.id >> 2] + SUIT_CHARS[self.id & 3]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __lt__(self, other: Card) -> bool:
        return self.id < other.id

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_id, (self.id,))

    @property
    def pretty(self) -> str:
        """The card with a suit symbol: ``A♠``."""
        return RANK_CHARS[self.id >> 2] + SUIT_SYMBOLS[self.id & 3]


CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(52))
_RANK_OF: tuple[Rank, ...] = tuple(Rank(i >> 2) for i in range(52))
_SUIT_OF: tuple[Suit, ...] = tuple(Suit(i & 3) for i in range(52))


def parse_cards(text: str, *, distinct: bool = True) -> tuple[Card, ...]:
    """Parse cards written together (``"AsKd"``) or apart (``"As Kd"``, ``"As,Kd"``).

    With ``distinct`` (the default) a card that appears twice is an error.
    """
    compact = "".join(ch for ch in text if ch not in " ,\t\n")
    if len(compact) % 2:
        raise CardError(f"bad cards {text!r}: cards are two characters each, like 'AsKd'")
    cards = tuple(Card.parse(compact[i : i + 2]) for i in range(0, len(compact), 2))
    if distinct:
        require_distinct(cards, text)
    return cards


def require_distinct(cards: Iterable[Card], where: str = "") -> None:
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            place = f" in {where!r}" if where else ""
            raise CardError(f"card {card} appears twice{place}")
        seen.add(card)


def format_cards(cards: Iterable[Card | None]) -> str:
    """Cards written together, ``??`` for one that is hidden."""
    return "".join("??" if card is None else str(card) for card in cards)


FULL_DECK: tuple[Card, ...] = CARDS


_SEEDED = random.Random()


def _seeded_order(seed: int) -> tuple[Card, ...]:
    """``random.Random(seed).shuffle`` of the 52 cards, the same order, at half the cost: a
    simulation shuffles once a hand. ``test_cards`` checks the two agree."""
    _SEEDED.seed(seed)
    return _shuffled_order(_SEEDED.getrandbits)


def _shuffled_order(bits: Callable[[int], int]) -> tuple[Card, ...]:
    """``shuffle`` of the 52 cards by the generator whose ``getrandbits`` is ``bits``: the
    standard library's own steps (draws of as many bits as the choice needs, drawn again when
    too large), without its method calls."""
    order = list(CARDS)
    for i, n, k in _SWAPS:
        j = bits(k)
        while j >= n:
            j = bits(k)
        order[i], order[j] = order[j], order[i]
    return tuple(order)


# random.shuffle's steps for 52 cards: position, how many to choose from, bits to draw.
_SWAPS = tuple((i, i + 1, (i + 1).bit_length()) for i in range(51, 0, -1))


@dataclass(frozen=True, slots=True)
class Deck:
    """A shuffled deck: the order cards leave the stub, and the seed for any later reshuffle.

    ``Deck.shuffled()`` uses the operating system's secure generator (``secrets``);
    ``Deck.seeded(n)`` is reproducible, for simulation and tests.
    """

    cards: tuple[Card, ...]
    seed: int | None = None
    _check: bool = field(default=True, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self._check:
            require_distinct(self.cards, "deck")

    @staticmethod
    def shuffled() -> Deck:
        order = list(CARDS)
        secrets.SystemRandom().shuffle(order)
        return Deck(tuple(order), None, False)

    @staticmethod
    def seeded(seed: int) -> Deck:
        return Deck(_seeded_order(seed), seed, False)

    @staticmethod
    def drawn(generator: random.Random) -> Deck:
        """A deck shuffled by ``generator`` (its ``shuffle`` of the 52 cards, the same order),
        for a simulation that draws every deck from one generator; the seed of a later
        reshuffle is drawn from it too, so the hand stays reproducible."""
        order = _shuffled_order(generator.getrandbits)
        return Deck(order, generator.getrandbits(32), False)

    @staticmethod
    def ordered(top: Sequence[Card] = ()) -> Deck:
        """``top`` first, in that order, then the rest of the 52 by id: for tests and replays."""
        require_distinct(top, "deck")
        rest = [card for card in CARDS if card not in set(top)]
        return Deck(tuple(top) + tuple(rest), 0, False)

    def reshuffle(self, cards: Sequence[Card], salt: int) -> list[Card]:
        """Shuffle cards going back into the stub: seeded decks stay reproducible."""
        order = list(cards)
        if self.seed is None:
            secrets.SystemRandom().shuffle(order)
        else:
            random.Random(self.seed * 1_000_003 + salt).shuffle(order)
        return order

    def __len__(self) -> int:
        return len(self.cards)
