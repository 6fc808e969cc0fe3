"""Lookup tables over 13-bit rank masks, shared by the plain evaluators.

A rank mask has bit r set when rank r (deuce = 0 .. ace = 12) is present.
"""

from __future__ import annotations

MASKS = 1 << 13

POPCOUNT: list[int] = [bin(m).count("1") for m in range(MASKS)]

# Highest set bit of a mask (-1 for an empty mask).
HIGH_BIT: list[int] = [m.bit_length() - 1 for m in range(MASKS)]


def _top(mask: int, k: int) -> int:
    """The k highest ranks of mask as nibbles, the highest at bits 16-19."""
    value, shift = 0, 16
    rank = 12
    while k and rank >= 0:
        if mask >> rank & 1:
            value |= rank << shift
            shift -= 4
            k -= 1
        rank -= 1
    return value


# TOP[k][mask]: the k highest ranks of mask, packed from bit 16 down.
TOP: list[list[int]] = [[_top(m, k) for m in range(MASKS)] for k in range(6)]


def _straight_high(mask: int) -> int:
    for high in range(12, 3, -1):
        run = 0b11111 << (high - 4)
        if mask & run == run:
            return high
    wheel = (1 << 12) | 0b1111  # A-2-3-4-5
    if mask & wheel == wheel:
        return 3  # five high
    return -1


# STRAIGHT_HIGH[mask]: the top rank of the best straight in mask, or -1.
STRAIGHT_HIGH: list[int] = [_straight_high(m) for m in range(MASKS)]
