"""Up cards a history does not show, chosen to agree with the order of play it does show.

Some rooms print no other player's up cards (PartyPoker), or not those of a player who folds
early. A replay needs a card there, and the card decides who brings in and who acts first: so
the unknown up cards are chosen for the history's own first actor to be the engine's on every
street. The first actor, if their card is unknown, is tried first with the card that claims
the street most (the bring-in card; the best showing), every other player with the card that
claims it least. Where no cards can agree (or an all-in player is passed over), the engine
judges, and the replay names the action it refuses.
"""

from __future__ import annotations

from collections.abc import Sequence

from stud.cards import Card
from stud.digits import all_digits
from stud.engine import best_showing, bring_in_player, showing_value
from stud.evaluate.showing import bring_in_key_low
from stud.rules import Rules, Variant

_DOOR = 2  # a player's third card, the first up


def first_actors(actions: Sequence[str], players: int) -> dict[int, int]:
    """Street -> the seat whose cards open it, as the history tells: on third street the
    bring-in (or the first to act, when nobody brings in), later the first to act. Deal lines
    mark the streets: a player's fourth card is fourth street's, and so on."""
    count = dict.fromkeys(range(1, players + 1), 0)
    street = 3
    first: dict[int, int] = {}
    for line in actions:
        parts = line.split()
        if parts[:2] == ["d", "dh"] and len(parts) == 4 and all_digits(parts[2][1:]):
            seat = int(parts[2][1:])
            if seat in count:
                count[seat] += len(parts[3]) // 2
                street = max(3, count[seat])
        elif len(parts) >= 2 and parts[0] != "d" and parts[1] != "sm" and \
                all_digits(parts[0][1:]):
            seat = int(parts[0][1:])
            if street == 3 and parts[1] == "pb":
                first[3] = seat
            first.setdefault(street, seat)
    return first


_STREETS = ((3, _DOOR), (4, 3), (5, 4), (6, 5))  # each street, and its up card's position
_BUDGET = 200_000  # choices tried (a second or so at most) before settling for first choices


def fill_up_cards(variant: Variant, rules: Rules, holes: dict[int, list[Card | None]],
                  unknown_up: set[tuple[int, int]], spare: list[Card],
                  first: dict[int, int]) -> None:
    """Fill ``holes`` (seat -> cards in dealing order) at the unknown up positions (seat,
    index), taking cards from ``spare``, to agree with ``first`` on every street if any cards
    can: a search, street by street, that tries the first actor's most claiming cards and the
    others' least claiming first, and goes back a street where a later one cannot agree."""
    search = _Search(variant, rules, holes, unknown_up, spare, first)
    saved = {seat: list(cards) for seat, cards in holes.items()}
    pool = list(spare)
    if search.street(0):
        return
    for seat, cards in saved.items():  # no agreement within the budget: first choices
        holes[seat][:] = cards
    spare[:] = pool
    for street, k in _STREETS:
        for seat in sorted(holes):
            if (seat, k) in unknown_up and len(holes[seat]) > k:
                card = search.ranked(seat, k, street, low_doors=False)[0]
                holes[seat][k] = card
                spare.remove(card)


class _Search:
    def __init__(self, variant: Variant, rules: Rules, holes: dict[int, list[Card | None]],
                 unknown_up: set[tuple[int, int]], spare: list[Card],
                 first: dict[int, int]) -> None:
        self.variant, self.rules, self.holes = variant, rules, holes
        self.unknown, self.spare, self.first = unknown_up, spare, first
        self.budget = _BUDGET

    def actor(self, street: int, live: list[int]) -> int | None:
        actor = self.first.get(street)
        return actor if actor in live else None

    def claim(self, seat: int, card: Card, k: int) -> int:
        """How strongly ``card`` at position k makes ``seat`` the street's first actor."""
        if k == _DOOR:
            return bring_in_key_low(card.id) if self.variant is Variant.RAZZ else -card.id
        board = [c for c in self.holes[seat][_DOOR:k] if c is not None]
        return showing_value(self.variant, [*board, card])

    def ranked(self, seat: int, k: int, street: int, low_doors: bool = True) -> list[Card]:
        """The cards to try: the street's first actor's most claiming first, another's least
        (in the search a door card low, so as not to lead the later streets, unless in razz;
        the search checks it does not bring in)."""
        if seat == self.first.get(street):
            return sorted(self.spare, key=lambda c: (self.claim(seat, c, k), -c.id),
                          reverse=True)
        if low_doors and k == _DOOR and self.variant is not Variant.RAZZ:
            return sorted(self.spare, key=lambda c: c.id)
        return sorted(self.spare, key=lambda c: (self.claim(seat, c, k), c.id))

    def street(self, i: int) -> bool:
        if i == len(_STREETS):
            return True
        street, k = _STREETS[i]
        live = [s for s, cards in self.holes.items() if len(cards) > k]
        todo = [s for s in live if (s, k) in self.unknown]
        actor = self.actor(street, live)
        order = ([actor] if actor in todo else []) + [s for s in todo if s != actor]
        return self.assign(i, live, order, 0)

    def assign(self, i: int, live: list[int], order: list[int], j: int) -> bool:
        street, k = _STREETS[i]
        actor = self.actor(street, live)
        self.budget -= 1
        if self.budget < 0:
            return False
        if j == len(order):
            agrees = actor is None or _first(self.variant, self.rules, self.holes, live,
                                             street, k) == actor
            return agrees and self.street(i + 1)
        seat = order[j]
        for card in self.ranked(seat, k, street):
            self.holes[seat][k] = card
            self.spare.remove(card)
            if self.assign(i, live, order, j + 1):
                return True
            self.spare.append(card)
            self.holes[seat][k] = None
            if self.budget < 0:
                return False
        return False


def _first(variant: Variant, rules: Rules, holes: dict[int, list[Card | None]],
           live: list[int], street: int, k: int) -> int:
    """Whose cards open ``street``: the bring-in card, or the best showing up to card k."""
    if street == 3:
        doors = [(s, c) for s in live if (c := holes[s][_DOOR]) is not None]
        return bring_in_player(variant, doors)
    ups = {s: [c for c in holes[s][_DOOR:k + 1] if c is not None] for s in live}
    return best_showing(variant, rules, live, _Boards(ups))


class _Boards(Sequence[Sequence[Card]]):
    """Seat -> up cards, read as ``best_showing`` reads a player's up cards."""

    def __init__(self, ups: dict[int, list[Card]]) -> None:
        self._ups = ups

    def __getitem__(self, seat: int) -> list[Card]:  # type: ignore[override]
        return self._ups[seat]

    def __len__(self) -> int:
        return len(self._ups)
