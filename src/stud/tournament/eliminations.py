"""Placing the players who bust, and what their places pay.

Players who bust in the same hand are placed by their stacks at the start of that hand, the
larger stack higher (the rulebooks' rule the issue cites; PokerStars' tournament rules say the
same). Players who started that hand with
equal stacks tie: they share the best of their places, and the prizes of all the places they
cover are added up and split equally among them (PokerStars' tournament rules, "Simultaneous
elimination": "(Prize5 + Prize6)/2"). The chips such a split leaves over go one each to the
tied players in seat order, first clockwise from the dealer: the ``seat`` rule for a split
pot's odd chips (RULES.md 6), since a prize has no cards to break the tie by suit.

>>> busts = place_busted({2: 300, 5: 900, 6: 300}, remaining=5, hand=40)
>>> [(f.seat, f.place, f.tied) for f in busts]
[(5, 3, 1), (2, 4, 2), (6, 4, 2)]
>>> shares = prize_shares(busts + [Finish(1, 1, 1, 40), Finish(3, 2, 1, 40)], (500, 300, 200, 1))
>>> sorted(shares.items())  # seats 2 and 6 share 4th and 5th: (1 + 0) / 2, the odd chip to 2
[(1, 500), (2, 1), (3, 300), (5, 200), (6, 0)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby


@dataclass(frozen=True, slots=True)
class Finish:
    """Seat ``seat`` finished in ``place`` (the best of the ``tied`` places it shares; 1 when
    alone), in hand ``hand`` (the last hand, for the winner)."""

    seat: int
    place: int
    tied: int
    hand: int

    @property
    def places(self) -> range:
        """The places this finish covers with those it is tied with."""
        return range(self.place, self.place + self.tied)


def place_busted(starting_stacks: Mapping[int, int], remaining: int, hand: int) -> list[Finish]:
    """Places for the seats that busted in ``hand``, given their stacks at its start, when
    ``remaining`` players (busted ones included) were left: the last places, the larger
    starting stack higher, equal ones tied. In place order, then seat order."""
    if len(starting_stacks) >= remaining:
        raise ValueError(f"{len(starting_stacks)} of {remaining} players busted: one must be "
                         f"left")
    finishes: list[Finish] = []
    place = remaining - len(starting_stacks) + 1
    ordered = sorted(starting_stacks.items(), key=lambda seat_stack: (-seat_stack[1],
                                                                      seat_stack[0]))
    for _, group in groupby(ordered, key=lambda seat_stack: seat_stack[1]):
        seats = [seat for seat, _ in group]
        finishes.extend(Finish(seat, place, len(seats), hand) for seat in seats)
        place += len(seats)
    return finishes


def prize_shares(finishes: Sequence[Finish], prizes: Sequence[int]) -> dict[int, int]:
    """Each seat's prize: its place's (``prizes`` best place first; places beyond them pay
    nothing), or its share of the prizes of the places it is tied for."""
    shares: dict[int, int] = {}
    by_place = sorted(finishes, key=lambda f: (f.place, f.seat))
    for _, group in groupby(by_place, key=lambda f: f.place):
        tied = list(group)
        total = sum(prizes[p - 1] for p in tied[0].places if p <= len(prizes))
        each, odd = divmod(total, len(tied))
        for k, finish in enumerate(tied):  # seat order: the odd chips to the first seats
            shares[finish.seat] = each + (1 if k < odd else 0)
    return shares


__all__ = ["Finish", "place_busted", "prize_shares"]
