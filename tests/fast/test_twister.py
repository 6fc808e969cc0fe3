"""``stud.fast.twister`` is CPython's ``random.Random``: the same words, the same ``random()``
floats (a StrengthBot's noise) and the same shuffles (a reshuffled deck), for seeds of every
width, across several rounds of the twister."""

from __future__ import annotations

import random

import numpy as np
import pytest

from stud.fast import twister

SEEDS = [0, 1, 12345, 2**32 - 1, 2**32, 2**40 + 7, 2**62 - 3, 2**63 - 1, 2**100 + 99]


@pytest.mark.parametrize("seed", SEEDS)
def test_random_is_random_random(seed: int) -> None:
    mt = np.zeros(625, dtype=np.int64)
    twister.seed(mt, twister.seed_key(seed))
    reference = random.Random(seed)
    # 2,000 floats draw 4,000 words: past the twister's 624, six times.
    assert [twister.random(mt) for _ in range(2000)] == [reference.random() for _ in range(2000)]


@pytest.mark.parametrize("seed", SEEDS)
def test_shuffle_is_random_shuffle(seed: int) -> None:
    mt = np.zeros(625, dtype=np.int64)
    for count in (2, 13, 52):
        cards = np.arange(52, dtype=np.uint8)
        twister.shuffle(cards, count, twister.seed_key(seed), mt)
        expected = list(range(count))
        random.Random(seed).shuffle(expected)
        assert cards[:count].tolist() == expected
        assert cards[count:].tolist() == list(range(count, 52))
