"""Batch kernels (numba) against the plain evaluators: the values must be equal, not just ordered
alike, on random hands, on every rank multiset of seven cards and on crafted corners; bad input
is a ValueError that names the hand; importing the package compiles nothing.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable

import numpy as np
import pytest

from stud.evaluate import NO_LOW, a5_value, high_value, low8_value
from stud.evaluate.batch import REFERENCES, high7, low8, low_a5

from .reference import ids, rank_multisets

RANDOM_HANDS = 200_000
BATCH = [high7, low8, low_a5]


def random_hands(seed: int, count: int) -> np.ndarray:
    """``count`` hands of seven distinct cards, shape (count, 7), uint8."""
    rng = np.random.default_rng(seed)
    decks = rng.permuted(np.tile(np.arange(52, dtype=np.uint8), (count, 1)), axis=1)
    return np.ascontiguousarray(decks[:, :7])


@pytest.fixture(scope="module")
def hands() -> np.ndarray:
    return random_hands(2024, RANDOM_HANDS)


def assert_equal_to_plain(batch: Callable[..., np.ndarray], hands: np.ndarray) -> None:
    plain = REFERENCES[batch]
    got = batch(hands)
    assert got.dtype == np.int64 and got.shape == (len(hands),)
    expected = np.fromiter((plain(hand) for hand in hands.tolist()), np.int64, len(hands))
    wrong = np.flatnonzero(got != expected)
    assert not len(wrong), (
        f"{len(wrong)} hands differ, first {hands[wrong[0]].tolist()}: "
        f"{batch.__name__} {got[wrong[0]]}, {plain.__name__} {expected[wrong[0]]}")


def test_references_are_the_plain_evaluators() -> None:
    assert REFERENCES == {high7: high_value, low8: low8_value, low_a5: a5_value}


@pytest.mark.parametrize("batch", BATCH, ids=lambda f: f.__name__)
def test_random_hands_equal_plain(batch: Callable[..., np.ndarray], hands: np.ndarray) -> None:
    assert_equal_to_plain(batch, hands)


def multiset_hands(*, suited: bool) -> np.ndarray:
    """One hand per rank multiset of seven cards (49,205). Suits go round (no flush anywhere),
    or, ``suited``, the n-th card of a rank gets the n-th suit (a club flush or straight flush
    whenever there are five ranks or more, a flush of two suits never)."""
    rows = []
    for ranks in rank_multisets(7):
        hand, seen = [], {}
        for i, r in enumerate(ranks):
            suit = seen.get(r, 0) if suited else i % 4
            seen[r] = seen.get(r, 0) + 1
            hand.append(r * 4 + suit)
        rows.append(hand)
    return np.array(rows, dtype=np.uint8)


@pytest.mark.parametrize(
    ("batch", "suited"),
    [(high7, False), (high7, True), (low8, False), (low_a5, False)],  # lows ignore suits
    ids=["high7-rainbow", "high7-suited", "low8", "low_a5"],
)
def test_every_rank_multiset_equals_plain(batch: Callable[..., np.ndarray], suited: bool) -> None:
    hands = multiset_hands(suited=suited)
    assert len(hands) == 49_205
    assert_equal_to_plain(batch, hands)


CORNERS = {
    "wheel": "As2d3h4c5s9dKh",
    "steel wheel": "As2s3s4s5sKdKh",
    "six-high straight flush over the wheel": "As2s3s4s5s6sKd",
    "royal flush": "AhKhQhJhTh2c2d",
    "straight flush and a bigger flush card": "9c8c7c6c5cAcKd",
    "straight and flush, not a straight flush": "9c8c7c6c5dAcKd",
    "six-card flush": "Ad9d7d5d3d2dKs",
    "seven-card flush": "Ad9d7d5d3d2dKd",
    "quads with kickers": "7s7h7d7cAsKhQd",
    "quads with trips": "7s7h7d7cAsAhAd",
    "quads with a pair": "2s2h2d2cKsKhQd",
    "two trips": "AsAhAdKsKhKd2c",
    "trips and two pairs": "5s5h5d9s9hTsTh",
    "three pairs": "AsAhKsKhQsQhJd",
    "two pair, the kicker from a third pair": "AsAhKsKh2s2hQd",
    "no pair": "As9h7d5c3s2hJd",
    "8-7-6-5-4 low": "8s7h6d5c4sKhKd",
    "8-6-4-2-A low": "8s6d4h2cAsKdKh",
    "A-2-3-4-5 low": "As2h3d4c5sKhKd",
    "no low: nine high": "9s7h6d5c4sKhKd",
    "no low: four low ranks": "As2h3d4cKsKhQd",
    "paired razz board": "AsAh2d2c3s3h4d",
    "razz trips": "AsAhAd2c2s3h3d",
    "razz quads and trips": "AsAhAdAc2s2h2d",
    "razz quads and a pair": "KsKhKdKcQsQh7d",
    "razz two pair of kings": "KsKhQdQcJsJh7d",
}


@pytest.mark.parametrize("name", CORNERS)
def test_crafted_hands_equal_plain(name: str) -> None:
    hand = ids(CORNERS[name])
    row = np.array([hand], dtype=np.uint8)
    assert int(high7(row)[0]) == high_value(hand)
    assert int(low8(row)[0]) == low8_value(hand)
    assert int(low_a5(row)[0]) == a5_value(hand)


def test_no_low_is_minus_one() -> None:
    assert low8(np.array([ids("9s7h6d5c4sKhKd")]))[0] == NO_LOW == -1


@pytest.mark.parametrize(
    "dtype", [np.uint8, np.int8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64])
def test_any_integer_dtype(dtype: type, hands: np.ndarray) -> None:
    some = hands[:1000]
    big_endian = np.dtype(dtype).newbyteorder(">")
    for batch in BATCH:
        assert np.array_equal(batch(some.astype(dtype)), batch(some))
        assert np.array_equal(batch(some.astype(big_endian)), batch(some))  # '>i8' too


def test_no_hands_are_no_values() -> None:
    for batch in BATCH:
        for empty in ([], np.zeros((0, 7), dtype=np.int64)):
            assert batch(empty).shape == (0,)


@pytest.mark.parametrize("count", [1, 2, 63, 64, 65, 1000, 20_000])
def test_int64_input_prefetched_ahead_gives_uint8s_values_at_every_size(
        count: int, hands: np.ndarray) -> None:
    """Wider input is prefetched 64 hands ahead, past the end too (a prefetch never faults);
    its values are uint8's at every size around that distance, and a bad card in the last hand
    is still found."""
    some = hands[:count]
    for batch in BATCH:
        assert np.array_equal(batch(some.astype(np.int64)), batch(some))
        bad = some.astype(np.int64)
        bad[-1, -1] = 256 + int(bad[-1, 0])  # the low byte repeats the hand's first card
        with pytest.raises(ValueError, match=f"hand {count - 1} .*is not between 0 and 51"):
            batch(bad)


@pytest.mark.parametrize("dtype", [np.int16, np.uint16, np.int32, np.uint32, np.int64])
@pytest.mark.parametrize("card", range(7))
def test_a_wide_id_is_found_at_every_card_of_a_hand(dtype: type, card: int,
                                                    hands: np.ndarray) -> None:
    """Each hand's seven wider ids are tested as two overlapping vectors (ids 0-3 and 3-6): an
    id whose low byte is a card the hand lacks, at any of the seven places of the first, a
    middle or the last hand, is still an error."""
    some = hands[:100].astype(dtype)
    info = np.iinfo(dtype)
    for row in (0, 50, 99):
        lacking = next(c for c in range(52) if c not in some[row])
        # Over 255, the largest of the dtype, below 0: each with the lacking card's low byte.
        for wide in (256 + lacking, (info.max & ~255) + lacking, min(0, info.min + lacking)):
            if wide == 0:
                continue  # unsigned: nothing below 0
            bad = some.copy()
            bad[row, card] = wide
            for batch in BATCH:
                with pytest.raises(ValueError, match=f"hand {row} .*is not between 0 and 51"):
                    batch(bad)


def test_lists_and_non_contiguous_arrays(hands: np.ndarray) -> None:
    some = hands[:1000]
    for batch in BATCH:
        expected = batch(some)
        assert np.array_equal(batch(some.tolist()), expected)
        assert np.array_equal(batch(np.asfortranarray(some)), expected)
        assert np.array_equal(batch(some[::2]), expected[::2])
        assert np.array_equal(batch(some.astype(np.int64)[:, ::-1]), expected)


def test_no_hands() -> None:
    for batch in BATCH:
        empty = batch(np.zeros((0, 7), dtype=np.uint8))
        assert empty.dtype == np.int64 and empty.shape == (0,)


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        (np.zeros(7, dtype=np.uint8), r"shape \(N, 7\).*got shape \(7,\)"),
        (np.zeros((3, 6), dtype=np.uint8), r"shape \(N, 7\).*got shape \(3, 6\)"),
        (np.zeros((2, 3, 7), dtype=np.uint8), r"got shape \(2, 3, 7\)"),
        (np.zeros((1, 7)), "must be integers, got dtype float64"),
        (np.zeros((1, 7), dtype=bool), "must be integers, got dtype bool"),
        ([["As"] * 7], "must be integers"),
    ],
)
def test_bad_shapes_and_dtypes(cards: object, message: str) -> None:
    for batch in BATCH:
        with pytest.raises(ValueError, match=message):
            batch(cards)


@pytest.mark.parametrize(
    ("row", "dtype", "message"),
    [
        ([0, 1, 2, 3, 4, 5, 52], np.uint8, "hand 2 .*: card id 52 is not between 0 and 51"),
        ([255, 1, 2, 3, 4, 5, 6], np.uint8, "hand 2 .*: card id 255 is not between 0 and 51"),
        ([0, 1, 2, 3, 4, 5, -1], np.int64, "hand 2 .*: card id -1 is not between 0 and 51"),
        ([0, 1, 2, 3, 4, 5, 300], np.int16, "hand 2 .*: card id 300 is not between 0 and 51"),
        # Ids whose low byte is a card the hand lacks: only the bits above it give them away.
        ([0, 1, 2, 3, 4, 5, 262], np.int64, "hand 2 .*: card id 262 is not between 0 and 51"),
        ([0, 1, 2, 3, 4, 5, 2**40 + 6], np.int64, "card id 1099511627782 is not between"),
        ([0, 1, 2, 3, 4, 5, -250], np.int32, "hand 2 .*: card id -250 is not between 0 and 51"),
        ([51, 1, 2, 3, 4, 5, 51], np.uint8, r"hand 2 .*: card id 51 \(As\) appears twice"),
        ([0, 0, 0, 0, 0, 0, 0], np.int32, r"hand 2 .*: card id 0 \(2c\) appears twice"),
    ],
)
def test_bad_cards_name_the_hand(row: list[int], dtype: type, message: str) -> None:
    good = [ids("AsKsQsJsTs9s8s"), ids("2c3d4h5s7c8d9h")]
    cards = np.array([*good, row, *good], dtype=np.int64).astype(dtype)
    for batch in BATCH:
        with pytest.raises(ValueError, match=message):
            batch(cards)


def test_kernels_run_as_plain_python_too(hands: np.ndarray) -> None:
    """What NUMBA_DISABLE_JIT=1 runs, to debug a kernel: the same source, the same values."""
    from stud.evaluate import batch

    some = hands[:2000]
    tables = batch._kernels().tables
    for evaluate, kernel, args in [
        (high7, batch._high7_kernel,
         (tables.weight, tables.offset, tables.index, tables.unsuited, tables.suited)),
        (low8, batch._low8_kernel, (tables.low_card, tables.low8)),
        (low_a5, batch._low_a5_kernel, (tables.weight, tables.offset, tables.index, tables.a5)),
    ]:
        wide = some.astype(np.int64)  # its bytes passed beside it, as high7 and the rest do
        for cards, low_bytes in [(some, some), (wide, wide.reshape(-1).view(np.uint8))]:
            out = np.empty(len(some), dtype=np.int64)
            assert kernel(cards, low_bytes, out, *args) == 0
            assert np.array_equal(out, evaluate(some))
        for bad in [np.array([[0, 1, 2, 3, 4, 5, 5]], dtype=np.uint8),
                    np.array([[0, 1, 2, 3, 4, 5, 262]], dtype=np.int64)]:
            assert kernel(bad, bad.reshape(-1).view(np.uint8), out, *args) != 0


def run_python(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_importing_the_package_compiles_nothing() -> None:
    run_python("import stud, stud.evaluate, stud.engine, stud.evaluate.batch, sys; "
               "assert 'numba' not in sys.modules, 'numba imported'")


CACHE_STATS = """
import json
import numpy as np
from stud.evaluate import batch
hands = np.array([[0, 5, 10, 15, 20, 25, 30]], dtype=np.uint8)
for evaluate in batch.REFERENCES:
    evaluate(hands)
kernels = batch._kernels()
print(json.dumps({name: [sum(getattr(kernels, name).stats.cache_hits.values()),
                         sum(getattr(kernels, name).stats.cache_misses.values())]
                  for name in ("high7", "low8", "low_a5")}))
"""


def test_a_second_process_loads_the_kernels_from_the_cache() -> None:
    for evaluate in BATCH:  # this process compiles and writes the cache, unless one did before
        evaluate(np.array([[0, 5, 10, 15, 20, 25, 30]], dtype=np.uint8))
    stats = json.loads(run_python(CACHE_STATS))
    assert all(hits == 1 and misses == 0 for hits, misses in stats.values()), stats
