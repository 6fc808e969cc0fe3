"""The game: variant, stakes, and the policies of RULES.md with their named profiles.

>>> Stakes(ante=1, bring_in=1, small_bet=2, big_bet=4)
Stakes(ante=1, bring_in=1, small_bet=2, big_bet=4)
>>> profile("pokerkit").short_all_in
'full_bet'
"""

from __future__ import annotations

import dataclasses
import numbers
import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal, TypeGuard


class RulesError(ValueError):
    """Stakes or rules that make no game: which field, which value, why."""


class Variant(StrEnum):
    STUD = "stud"
    STUD8 = "stud8"
    RAZZ = "razz"

    @property
    def full_name(self) -> str:
        return {"stud": "Seven Card Stud", "stud8": "Seven Card Stud Hi/Lo (8 or better)",
                "razz": "Razz"}[self.value]

    @property
    def phh_code(self) -> str:
        return {"stud": "F7S", "stud8": "F7S/8", "razz": "FR"}[self.value]

    @staticmethod
    def parse(text: str) -> Variant:
        if text in _BY_NAME:
            return _BY_NAME[text]
        codes = {"F7S": "stud", "F7S/8": "stud8", "FR": "razz"}
        name = codes.get(text, text.lower() if isinstance(text, str) else text)
        try:
            return Variant(name)
        except ValueError:
            raise RulesError(
                f"unknown variant {text!r}: use stud, stud8 or razz (PHH: F7S, F7S/8, FR)"
            ) from None


_BY_NAME: dict[str, Variant] = {v.value: v for v in Variant}


MAX_CHIPS = 2**50  # a bet or a stake at most: eight stacks of it still sum exactly in int64


def is_whole(value: object) -> TypeGuard[int]:
    """A whole number as a count is given: an int or NumPy's (``np.int64(4)``), not a bool."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class Stakes:
    """A fixed-limit structure: ante, bring-in, small bet (3rd and 4th street), big bet."""

    ante: int
    bring_in: int
    small_bet: int
    big_bet: int

    def __post_init__(self) -> None:
        for name in ("ante", "bring_in", "small_bet", "big_bet"):
            value = getattr(self, name)
            if not is_whole(value) or value < 0:
                raise RulesError(
                    f"stakes: {name} must be a whole number of chips >= 0, not {value!r}")
            if value > MAX_CHIPS:
                raise RulesError(f"stakes: {name} {value} is more than {MAX_CHIPS:,} chips")
            object.__setattr__(self, name, int(value))  # NumPy's ints as Python's
        if self.small_bet <= 0:
            raise RulesError("stakes: small_bet must be at least 1")
        if self.bring_in <= 0:
            raise RulesError("stakes: bring_in must be at least 1")
        if self.bring_in >= self.small_bet:
            raise RulesError(
                f"stakes: bring_in {self.bring_in} must be less than the small bet "
                f"{self.small_bet} (the bring-in is the part bet that can be completed)"
            )
        if self.big_bet < self.small_bet:
            raise RulesError(
                f"stakes: big_bet {self.big_bet} is less than the small bet {self.small_bet}"
            )

    @staticmethod
    def parse(text: str) -> Stakes:
        """``ANTE/BRING_IN/SMALL_BET/BIG_BET`` in chips, like ``1/2/5/10``.

        >>> Stakes.parse("1/2/5/10")
        Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)
        """
        parts = text.split("/")
        if len(parts) != 4 or not all(re.fullmatch(r"\s*[0-9]+\s*", p) for p in parts):
            raise RulesError(f"stakes {text!r}: write ANTE/BRING_IN/SMALL_BET/BIG_BET in chips, "
                             f"like 1/2/5/10")
        try:
            return Stakes(*(int(p) for p in parts))
        except RulesError as error:
            raise RulesError(f"stakes {text!r}: {str(error).removeprefix('stakes: ')}") from None

    @staticmethod
    def for_limit(small_bet: int, big_bet: int | None = None, ante: int | None = None) -> Stakes:
        """The usual structure for a small/big game: bring-in half the small bet (RULES.md 1)."""
        big = 2 * small_bet if big_bet is None else big_bet
        return Stakes(
            ante=max(1, small_bet // 4) if ante is None else ante,
            bring_in=max(1, small_bet // 2),
            small_bet=small_bet,
            big_bet=big,
        )

    def __str__(self) -> str:
        return (f"{self.small_bet}/{self.big_bet} (ante {self.ante}, bring-in {self.bring_in})")


class BetSize(StrEnum):
    SMALL = "small"
    BIG = "big"


@dataclass(frozen=True, slots=True)
class Street:
    """What one street deals and which bet it uses (RULES.md sections 2 and 4).

    ``cards`` is one entry per round of dealing, clockwise from seat 1: True for a card face
    up. A burn card comes before every street but the first. ``brings_in``: the low card
    brings in, and the first full bet completes it (RULES.md 3). ``open_pair``: a pair showing
    makes the big bet an option (RULES.md 4, policy ``open_pair_big_bet``).
    """

    number: int
    name: str
    cards: tuple[bool, ...]
    burn: bool
    bet: BetSize
    brings_in: bool = False
    open_pair: bool = False


STREETS: tuple[Street, ...] = (
    Street(3, "third street", (False, False, True), False, BetSize.SMALL, brings_in=True),
    Street(4, "fourth street", (True,), True, BetSize.SMALL, open_pair=True),
    Street(5, "fifth street", (True,), True, BetSize.BIG),
    Street(6, "sixth street", (True,), True, BetSize.BIG),
    Street(7, "seventh street", (False,), True, BetSize.BIG),
)
FIRST_STREET = STREETS[0].number
LAST_STREET = STREETS[-1].number
STREET_NAMES: dict[int, str] = {street.number: street.name for street in STREETS}
_BY_NUMBER: dict[int, Street] = {street.number: street for street in STREETS}


def street(number: int) -> Street:
    """The street with this number (3 to 7)."""
    return _BY_NUMBER[number]


FirstActorTie = Literal["seat", "suit"]
OddChip = Literal["suit", "seat"]
DeckExhaustion = Literal["community", "reshuffle"]
ShortBringIn = Literal["full", "posted"]
ShortAllIn = Literal["half_bet", "full_bet"]
OddChipShares = Literal["one_each", "all_to_first"]
HiLoHalves = Literal["qualified", "any_low"]
ScoopSplit = Literal["whole_pot", "halves"]

_CHOICES: dict[str, tuple[str, ...]] = {
    "first_actor_tie": ("seat", "suit"),
    "odd_chip": ("suit", "seat"),
    "deck_exhaustion": ("community", "reshuffle"),
    "short_bring_in": ("full", "posted"),
    "short_all_in": ("half_bet", "full_bet"),
    "odd_chip_shares": ("one_each", "all_to_first"),
    "hi_lo_halves": ("qualified", "any_low"),
    "scoop_split": ("whole_pot", "halves"),
}
_FLAGS = ("open_pair_big_bet", "heads_up_uncapped", "fold_facing_all_in_bring_in",
          "short_bring_in_completes", "all_in_raise_for_less", "all_in_muck", "free_fold")


@dataclass(frozen=True, slots=True)
class Rules:
    """The policies where rulebooks differ (RULES.md section 9). Each is read in one place."""

    name: str = "standard"
    open_pair_big_bet: bool = True
    max_bets: int = 4
    heads_up_uncapped: bool = True
    first_actor_tie: FirstActorTie = "seat"
    odd_chip: OddChip = "suit"
    deck_exhaustion: DeckExhaustion = "community"
    short_bring_in: ShortBringIn = "full"
    short_all_in: ShortAllIn = "half_bet"
    # Where PokerKit 0.7 goes its own way beyond the table of RULES.md section 9:
    # the player after an all-in low card may fold instead of bringing in (WSOP 217).
    fold_facing_all_in_bring_in: bool = True
    # a bring-in player too short for the bring-in may also "complete" all in.
    short_bring_in_completes: bool = False
    # a bet or raise for less than a full one that puts every opponent all in (RULES.md 5).
    all_in_raise_for_less: bool = True
    # odd chips of a split: one each to the first winners in odd_chip order, or all to the first.
    odd_chip_shares: OddChipShares = "one_each"
    # a hi/lo pot is halved when a hand eligible for it qualifies for low (RULES.md 7), or, as
    # PokerKit, whenever any hand that wins somewhere has a low (hands that win nothing out first).
    hi_lo_halves: HiLoHalves = "qualified"
    # identical hands that win both halves split the whole pot, or each half apart (PokerKit).
    scoop_split: ScoopSplit = "whole_pot"
    # a history's muck by a player at an all-in showdown is honoured (PokerKit); otherwise every
    # live hand is turned up once a player is all in and no more betting is possible.
    all_in_muck: bool = False
    # a player may fold when they could check (online rooms allow it: their histories do it).
    free_fold: bool = False

    def __post_init__(self) -> None:
        for policy, choices in _CHOICES.items():
            if getattr(self, policy) not in choices:
                raise RulesError(
                    f"rules: {policy} must be one of {', '.join(choices)}, "
                    f"not {getattr(self, policy)!r}"
                )
        for policy in _FLAGS:
            if not isinstance(getattr(self, policy), bool):
                raise RulesError(f"rules: {policy} must be true or false")
        if (not isinstance(self.max_bets, int) or isinstance(self.max_bets, bool)
                or self.max_bets < 1):
            raise RulesError(f"rules: max_bets must be a whole number >= 1, not {self.max_bets!r}")

    def with_policies(self, **policies: object) -> Rules:
        """These rules with some policies changed; the name becomes "custom" unless given."""
        unknown = set(policies) - set(POLICIES) - {"name"}
        if unknown:
            raise RulesError(f"rules: unknown policy {sorted(unknown)[0]!r}; "
                             f"known: {', '.join(POLICIES)}")
        if "name" not in policies and any(getattr(self, k) != v for k, v in policies.items()):
            policies["name"] = "custom"
        return dataclasses.replace(self, **policies)  # type: ignore[arg-type]

    def differences(self, other: Rules) -> dict[str, object]:
        """Policies whose values differ from ``other``, with this object's values."""
        return {p: getattr(self, p) for p in POLICIES if getattr(self, p) != getattr(other, p)}

    def closest_profile(self) -> str:
        """The name of the profile these rules differ least from (``standard`` on a tie)."""
        return min(PROFILES, key=lambda name: len(self.differences(PROFILES[name])))


POLICIES: tuple[str, ...] = (
    "open_pair_big_bet",
    "max_bets",
    "heads_up_uncapped",
    "first_actor_tie",
    "odd_chip",
    "deck_exhaustion",
    "short_bring_in",
    "short_all_in",
    "fold_facing_all_in_bring_in",
    "short_bring_in_completes",
    "all_in_raise_for_less",
    "odd_chip_shares",
    "hi_lo_halves",
    "scoop_split",
    "all_in_muck",
    "free_fold",
)

PROFILES: dict[str, Rules] = {
    "standard": Rules(),
    "pokerkit": Rules(
        name="pokerkit",
        open_pair_big_bet=False,
        max_bets=4,
        heads_up_uncapped=False,
        first_actor_tie="seat",
        odd_chip="seat",
        deck_exhaustion="reshuffle",
        short_bring_in="posted",
        short_all_in="full_bet",
        fold_facing_all_in_bring_in=False,
        short_bring_in_completes=True,
        all_in_raise_for_less=False,
        odd_chip_shares="all_to_first",
        hi_lo_halves="any_low",
        scoop_split="halves",
        all_in_muck=True,
    ),
}


def profile(name: str) -> Rules:
    """A named profile: ``standard`` (the default) or ``pokerkit``."""
    try:
        return PROFILES[name]
    except KeyError:
        raise RulesError(f"unknown rules profile {name!r}: use {' or '.join(PROFILES)}") from None


def as_rules(rules: Rules | str | None) -> Rules:
    """The rules a ``rules=`` argument names: a Rules, a profile's name, or None (``standard``);
    anything else is a RulesError saying so."""
    if isinstance(rules, str):
        return profile(rules)
    if rules is None:
        return PROFILES["standard"]
    if not isinstance(rules, Rules):
        raise RulesError(f"rules must be a Rules or a profile name, not {rules!r}")
    return rules
