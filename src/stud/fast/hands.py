"""Kernels over a whole batch: every hand started, every hand's legal actions, one action in
each hand, whole hands played by the built-in policies, and the showdowns settled.

A showdown needs the hands' values, which ``stud.evaluate.batch`` works out for many hands at
once: ``showdown_cards`` gathers the seven cards of every hand still in at a showdown,
``settle_all`` takes their values back. ``stud.fast.batch`` drives these.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from stud.fast.betting import legal
from stud.fast.compiled import entry
from stud.fast.layout import (
    ACTOR,
    BETTING,
    BOARD,
    CARD,
    CARDS,
    FOLDED,
    G_PLAYERS,
    HELD,
    MAX_LEGAL,
    PHASE,
    SEATS,
    SHOWDOWN,
)
from stud.fast.policies import choose
from stud.fast.showdown import WORK, settle
from stud.fast.streets import start, step

_MT = 625  # the twister's words and its position


@entry
def start_all(table: Any, stub: Any, game: Any, stacks: Any, keys: Any, awards: Any) -> None:
    mt = np.zeros(_MT, dtype=np.int64)
    back = np.zeros(64, dtype=np.int64)
    for h in range(table.shape[0]):
        start(table[h], stub[h], game, stacks[h], keys[h], mt, back, awards[h])


@entry
def legal_all(table: Any, game: Any, kinds: Any, tos: Any, counts: Any) -> None:
    for h in range(table.shape[0]):
        counts[h] = legal(table[h], game, kinds[h], tos[h])


@entry
def act_all(table: Any, stub: Any, game: Any, choices: Any, keys: Any, awards: Any) -> int:
    """Hand h's player to act takes legal action ``choices[h]`` (hands nobody is to act in
    are left alone); -1, or the first hand whose choice is not one of its legal actions."""
    kinds = np.zeros(MAX_LEGAL, dtype=np.int64)
    tos = np.zeros(MAX_LEGAL, dtype=np.int64)
    mt = np.zeros(_MT, dtype=np.int64)
    back = np.zeros(64, dtype=np.int64)
    for h in range(table.shape[0]):
        r = table[h]
        if r[PHASE] != BETTING or r[ACTOR] < 0:
            continue
        count = legal(r, game, kinds, tos)
        choice = choices[h]
        if not 0 <= choice < count:
            return h
    for h in range(table.shape[0]):
        r = table[h]
        if r[PHASE] != BETTING or r[ACTOR] < 0:
            continue
        legal(r, game, kinds, tos)
        choice = choices[h]
        step(r, stub[h], game, kinds[choice], tos[choice], keys[h], mt, back, awards[h])
    return -1


@entry
def play_all(table: Any, stub: Any, game: Any, policies: Any, rng: Any, keys: Any,
             awards: Any) -> None:
    """Every hand played by the seats' policies up to its showdown or its end."""
    kinds = np.zeros(MAX_LEGAL, dtype=np.int64)
    tos = np.zeros(MAX_LEGAL, dtype=np.int64)
    mt = np.zeros(_MT, dtype=np.int64)
    back = np.zeros(64, dtype=np.int64)
    for h in range(table.shape[0]):
        r = table[h]
        s = stub[h]
        while r[PHASE] == BETTING and r[ACTOR] >= 0:
            count = legal(r, game, kinds, tos)
            choice = choose(r, game, policies[r[ACTOR]], rng[h], kinds, tos, count)
            step(r, s, game, kinds[choice], tos[choice], keys[h], mt, back, awards[h])


@entry
def showdown_cards(table: Any, game: Any) -> Any:
    """The seven cards of each hand still in at a showdown, and whose (hand, seat) they are."""
    n = game[G_PLAYERS]
    rows = 0
    for h in range(table.shape[0]):
        r = table[h]
        if r[PHASE] == SHOWDOWN:
            for i in range(n):
                if r[FOLDED + i] == 0:
                    rows += 1
    cards = np.zeros((rows, 7), dtype=np.uint8)
    owners = np.zeros((rows, 2), dtype=np.int64)
    row = 0
    for h in range(table.shape[0]):
        r = table[h]
        if r[PHASE] != SHOWDOWN:
            continue
        for i in range(n):
            if r[FOLDED + i]:
                continue
            held = r[HELD + i]
            for k in range(held):
                cards[row, k] = r[CARD + CARDS * i + k]
            if held < 7:
                cards[row, held] = r[BOARD]
            owners[row, 0] = h
            owners[row, 1] = i
            row += 1
    return cards, owners


@entry
def settle_all(table: Any, game: Any, owners: Any, high: Any, low: Any, awards: Any) -> None:
    """Every showdown settled from the values of ``showdown_cards``'s hands, row for row."""
    highs = np.full(SEATS, -1, dtype=np.int64)
    lows = np.full(SEATS, -1, dtype=np.int64)
    work = np.zeros(WORK, dtype=np.int64)
    row = 0
    rows = owners.shape[0]
    while row < rows:
        h = owners[row, 0]
        while row < rows and owners[row, 0] == h:
            highs[owners[row, 1]] = high[row]
            lows[owners[row, 1]] = low[row]
            row += 1
        settle(table[h], game, highs, lows, awards[h], work)
