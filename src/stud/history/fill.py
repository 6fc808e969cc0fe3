"""Up cards a history does not show, chosen to agree with the order of play it does show.

Some rooms print no other player's up cards (PartyPoker), or not those of a player who folds
early. A replay needs a card there, and the card decides who brings in and who acts first: so
each unknown up card is chosen, street by street, for the history's own first actor to be the
engine's. The first actor, if their card is unknown, gets the card that claims the street most
(the bring-in card; the best showing); every other player the card that claims it least.
Where no card can agree (or an all-in player is passed over), the engine judges, and the
replay names the action it refuses.
"""

from __future__ import annotations

from collections.abc import Sequence

from stud.cards import Card
from stud.engine.order import best_showing, bring_in_player, showing_value
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
        if parts[:2] == ["d", "dh"] and len(parts) == 4 and parts[2][1:].isdigit():
            seat = int(parts[2][1:])
            if seat in count:
                count[seat] += len(parts[3]) // 2
                street = max(3, count[seat])
        elif len(parts) >= 2 and parts[0] != "d" and parts[1] != "sm" and \
                parts[0][1:].isdigit():
            seat = int(parts[0][1:])
            if street == 3 and parts[1] == "pb":
                first[3] = seat
            first.setdefault(street, seat)
    return first


def fill_up_cards(variant: Variant, rules: Rules, holes: dict[int, list[Card | None]],
                  unknown_up: set[tuple[int, int]], spare: list[Card],
                  first: dict[int, int]) -> None:
    """Fill ``holes`` (seat -> cards in dealing order) at the unknown up positions (seat,
    index), taking cards from ``spare``, to agree with ``first`` where they can."""
    for street, k in ((3, _DOOR), (4, 3), (5, 4), (6, 5)):
        live = [s for s, cards in holes.items() if len(cards) > k]
        todo = [s for s in live if (s, k) in unknown_up]
        if not todo:
            continue
        actor = first.get(street)
        if actor not in live:
            actor = None

        def claim(seat: int, card: Card, street: int = street, k: int = k) -> int:
            """How strongly ``card`` at position k makes ``seat`` the street's first actor."""
            if street == 3:
                return bring_in_key_low(card.id) if variant is Variant.RAZZ else -card.id
            board = [c for c in holes[seat][_DOOR:k] if c is not None]
            return showing_value(variant, [*board, card])

        for seat in todo:
            if seat != actor:
                card = min(spare, key=lambda c: (claim(seat, c), c.id))  # noqa: B023
                holes[seat][k] = card
                spare.remove(card)
        if actor is None:
            continue
        if actor in todo:
            ranked = sorted(spare, key=lambda c: (claim(actor, c), -c.id), reverse=True)
            chosen = next((c for c in ranked if _agrees(variant, rules, holes, live, street,
                                                        k, actor, c)), ranked[0])
            holes[actor][k] = chosen
            spare.remove(chosen)


def _agrees(variant: Variant, rules: Rules, holes: dict[int, list[Card | None]],
            live: list[int], street: int, k: int, actor: int, card: Card) -> bool:
    holes[actor][k] = card
    return _first(variant, rules, holes, live, street, k) == actor


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
