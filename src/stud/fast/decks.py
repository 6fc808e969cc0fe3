"""Many shuffled decks at once, for simulation: a Fisher-Yates shuffle a deck, compiled.

>>> decks = shuffled_decks(3, seed=1)
>>> decks.shape, sorted(decks[0].tolist()) == list(range(52))
((3, 52), True)

These decks are reproducible from ``seed`` but are not ``Deck.seeded`` decks; their reshuffle
seeds (``deck_exhaustion = reshuffle``) are ``reshuffle_seeds(n, seed)``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from stud.fast.compiled import entry


@entry
def _shuffle(decks: Any, draws: Any) -> None:
    for h in range(decks.shape[0]):
        deck = decks[h]
        for c in range(52):
            deck[c] = c
        for i in range(51, 0, -1):
            j = draws[h, i] % (i + 1)
            deck[i], deck[j] = deck[j], deck[i]


def shuffled_decks(hands: int, seed: int = 0) -> npt.NDArray[Any]:
    """``hands`` shuffled decks of card ids, shape (hands, 52), uint8."""
    draws = np.random.default_rng(seed).integers(0, 2**62, size=(hands, 52), dtype=np.int64)
    decks = np.zeros((hands, 52), dtype=np.uint8)
    _shuffle(decks, draws)
    return decks


def reshuffle_seeds(hands: int, seed: int = 0) -> npt.NDArray[Any]:
    """A reshuffle seed for each of ``shuffled_decks(hands, seed)``'s decks."""
    return np.random.default_rng([seed, 1]).integers(0, 2**31, size=hands, dtype=np.int64)
