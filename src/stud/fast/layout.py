"""Where each fact of a hand lives in the fast engine's arrays.

A batch of N hands is a few arrays with one row per hand: ``table`` (int64, the columns below),
``stub`` (uint8[52], the hand's deck, dealt from ``TOP`` on), ``awards`` (int64, one record per
pot or half pot awarded) and ``rng`` (uint64, the built-in policies' generators). The rules and
stakes of the batch are one int64 vector, ``game``, indexed by the ``G_`` constants. Numba
reads these module-level ints as constants.

Seats are indices 0..n-1 here (seat numbers are 1..n), as in the engine.
"""

from __future__ import annotations

import numpy as np


def code(value: int) -> int:
    """``value`` as a numpy int64 (typed as the int it is): kernels pass such codes to kernels,
    and numba compiles a kernel anew for every Python int constant it is called with (a
    literal), but once for any int64."""
    return np.int64(value)  # type: ignore[return-value]


def flag(value: bool) -> bool:
    """``value`` as a numpy bool, for the same reason as ``code``."""
    return np.bool_(value)  # type: ignore[return-value]


SEATS = 8
CARDS = 7  # a seat's own cards; a community card is the board's

# ---------------------------------------------------------------- the game (int64 vector)
G_PLAYERS = 0
G_VARIANT = 1  # VARIANTS below
G_ANTE = 2
G_BRING_IN = 3
G_SMALL = 4
G_BIG = 5
G_MAX_BETS = 6
G_HEADS_UP_UNCAPPED = 7
G_OPEN_PAIR_BIG_BET = 8
G_TIE_BY_SUIT = 9  # first_actor_tie == "suit"
G_ODD_CHIP_BY_SUIT = 10  # odd_chip == "suit"
G_RESHUFFLE = 11  # deck_exhaustion == "reshuffle"
G_SHORT_BRING_IN_FULL = 12  # short_bring_in == "full"
G_HALF_BET = 13  # short_all_in == "half_bet"
G_FOLD_FACING_ALL_IN_BRING_IN = 14
G_SHORT_BRING_IN_COMPLETES = 15
G_ALL_IN_RAISE_FOR_LESS = 16
G_ODD_CHIPS_ALL_TO_FIRST = 17  # odd_chip_shares == "all_to_first"
G_ANY_LOW_HALVES = 18  # hi_lo_halves == "any_low"
G_SCOOP_HALVES = 19  # scoop_split == "halves"
G_FREE_FOLD = 20
GAME_SIZE = 21

STUD, STUD8, RAZZ = code(0), code(1), code(2)
VARIANTS = ("stud", "stud8", "razz")

# ---------------------------------------------------------------- actions
FOLD, CHECK, CALL, BRING_IN, COMPLETE, BET, RAISE = (code(k) for k in range(7))
NOTHING = code(0)  # the "to" of a fold or check
ACTION_NAMES = ("fold", "check", "call", "bring_in", "complete", "bet", "raise")
MAX_LEGAL = 6  # fold or check, call, and up to three wagers, or fold, bring-in, complete

# ---------------------------------------------------------------- phases
BETTING = 0  # ACTOR is to act
SHOWDOWN = 1  # the betting is over with two or more hands in: the hands' values are needed
OVER = 2  # every pot awarded

# ---------------------------------------------------------------- table columns (int64)
PHASE = 0
STREET = 1
ACTOR = 2  # -1: nobody
TOP = 3  # the next card of the stub
BOARD = 4  # the community card, -1 for none
BURNED = 5  # how many burn cards since the last reshuffle; the cards at BURN_CARDS
BURN_CARDS = 6  # four
FOLDS = 10  # how many players folded so far
MUCK_FROM = 11  # folds before this one were shuffled back into the stub already
RESHUFFLES = 12
BRING_IN_SEAT = 13  # the bring-in card's player
FIRST_ON_SIXTH = 14  # sixth street's first actor, -1 when it had no betting
ACTIONS = 15  # actions taken so far
AWARDS = 16  # pot awards recorded in ``awards``
# The betting round (betting.py): one street's counts.
CURRENT = 17  # the current bet ("to" amount)
FULL_LEVEL = 18  # the last full bet or raise (half_bet bookkeeping)
UNIT = 19  # the street's bet
BETS = 20  # bets and raises toward the cap
UNCAPPED = 21
BIG_OPEN = 22  # fourth street's open pair: the big bet is still an option
RAISE_SEQ = 23  # full raises so far
BRING_IN_PENDING = 24
BRING_IN_MAY_FOLD = 25
WAGERS_MADE = 26
LARGEST = 27  # the largest increment so far (full_bet bookkeeping)
SHORT_ALL_INS = 28  # how many short all-ins not yet making a full raise together
SHORT_SUM = 29  # and their increments' sum
LAST_AGGRESSOR = 30  # -1: none on this street
COMPLETES = 31  # the street's first wager completes the bring-in
# One column per seat from each of these.
STACK = 32
START = STACK + SEATS  # the starting stack
COMMITTED = START + SEATS  # chips in the pot, this street's wager included
WAGER = COMMITTED + SEATS  # this street's wager
FOLDED = WAGER + SEATS
ACTED = FOLDED + SEATS
SEQ_AT = ACTED + SEATS  # RAISE_SEQ when the seat last acted
FOLD_ORDER = SEQ_AT + SEATS  # the seat's place among the folds (-1: in)
HELD = FOLD_ORDER + SEATS  # how many cards the seat holds
UP = HELD + SEATS  # bit k: the seat's card k is face up
CARD = UP + SEATS  # CARDS card ids a seat, CARD + CARDS * seat + k
WIDTH = CARD + CARDS * SEATS

# ---------------------------------------------------------------- awards (int64 records)
# One record per pot (or half of a hi/lo pot) in the order the engine awards them, the last
# side pot first: the pot's number (0 the main pot), the half, the chips, how many winners,
# then the winners (indices) in the order odd chips go to them, and their chips.
A_POT = 0
A_HALF = 1  # HALVES below
A_AMOUNT = 2
A_WINNERS = 3
A_SEAT = 4  # SEATS entries
A_CHIPS = A_SEAT + SEATS  # SEATS entries
AWARD_SIZE = A_CHIPS + SEATS
MAX_AWARDS = 2 * SEATS  # a pot a distinct all-in level, each in two halves at most

WHOLE, HIGH_HALF, LOW_HALF = code(0), code(1), code(2)
HALVES = ("all", "high", "low")

# ---------------------------------------------------------------- generators (uint64)
RNG_SIZE = SEATS + 1  # one a seat (random policy), one for the hand (strength's noise)
