"""One hand as a room's history tells it, and its PHH.

A site's parser reads a hand's text into a ``SiteHand``: the players dealt in, in seat order,
and the hand's steps in the order the history gives them (antes, cards dealt, actions, shows,
mucks, what each player collected), amounts in whole units of the site's smallest unit (cents
at a cash table, chips in a tournament), players by name. ``to_history`` turns it into PHH:
every card the history's owner knew (their own down cards, every up card, every hand shown or
listed at the end) in the deal lines, ``??`` for the rest; the site's rake and collected
amounts; and ``finishing_stacks`` from the site's own record: the starting stack, minus what
was put in, plus what was collected.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from stud.cards import Card, format_cards
from stud.digits import all_digits
from stud.history.phh import HandHistory
from stud.rules import Variant


class SiteError(ValueError):
    """A hand the importer cannot read: which line, and why."""

    def __init__(self, reason: str, line: int | None = None) -> None:
        self.reason = reason
        self.line = line
        super().__init__(reason if line is None else f"line {line}: {reason}")


class Cancelled(SiteError):
    """A hand the site cancelled: nothing in it was played for real."""


@dataclass(frozen=True, slots=True)
class Ante:
    player: str
    amount: int


@dataclass(frozen=True, slots=True)
class Dealt:
    """Cards a player gets on ``street`` (3 to 7), in dealing order; None: not known."""

    player: str
    street: int
    cards: tuple[Card | None, ...]


@dataclass(frozen=True, slots=True)
class Board:
    """The community card (the stub ran short)."""

    card: Card


@dataclass(frozen=True, slots=True)
class Act:
    """A decision: ``verb`` is ``pb`` (bring in), ``cc`` (check or call), ``f`` (fold) or
    ``cbr`` (complete, bet or raise). ``amount`` is the chips the action adds, or with
    ``to`` the player's total on the street after it. ``line``: the history's line it is on,
    where the reader gives it (a check's: PHH writes a check and a call alike, so a check
    facing a bet is refused at its own line, before a replay would take it for a call)."""

    player: str
    verb: str
    amount: int = 0
    to: bool = False
    line: int | None = field(default=None, compare=False)

    @property
    def checks(self) -> bool:
        """A check: ``cc`` that adds nothing."""
        return self.verb == "cc" and not self.amount and not self.to


@dataclass(frozen=True, slots=True)
class Returned:
    """An uncalled bet back to its player."""

    player: str
    amount: int


@dataclass(frozen=True, slots=True)
class Shown:
    """A hand turned up: its cards in dealing order. With ``mucked`` the player threw it
    away (a ``Mucked`` step says so) and the history lists its cards all the same: they are
    known, nothing is shown."""

    player: str
    cards: tuple[Card | None, ...]
    mucked: bool = False


@dataclass(frozen=True, slots=True)
class Mucked:
    player: str


@dataclass(frozen=True, slots=True)
class Collected:
    player: str
    amount: int


Step = Ante | Dealt | Board | Act | Returned | Shown | Mucked | Collected


@dataclass(frozen=True, slots=True)
class Seat:
    number: int
    name: str
    stack: int


@dataclass(slots=True)
class SiteHand:
    site: str
    hand: str
    variant: Variant
    small_bet: int
    big_bet: int
    seats: list[Seat]
    steps: list[Step] = field(default_factory=list)
    bring_in: int = 0
    ante: int = 0
    rake: int = 0
    table: str | None = None
    time: str | None = None  # as the site wrote it
    tournament: str | None = None
    currency: str | None = None  # None: tournament chips or play money
    game: str | None = None  # the site's name for the game (a mixed game's, say)


def to_history(site_hand: SiteHand) -> HandHistory:
    """The PHH of a site's hand. Raises SiteError where the history contradicts itself."""
    for k, s in enumerate(site_hand.seats):
        for other in site_hand.seats[:k]:
            if other.number == s.number:
                raise SiteError(f"seat {s.number} is listed twice ({other.name!r} and "
                                f"{s.name!r})")
            if other.name == s.name:
                raise SiteError(f"{s.name!r} is listed at two seats ({other.number} and "
                                f"{s.number})")
    seats = [s for s in site_hand.seats if _dealt_in(site_hand, s.name)]
    if len(seats) > 8:
        raise SiteError(f"stud is for 2 to 8 players, but the history deals {len(seats)} in")
    index = {s.name: k for k, s in enumerate(seats, 1)}
    known = _known_cards(site_hand, index)
    actions: list[str] = []
    put_in = {name: 0 for name in index}
    street_in = {name: 0 for name in index}
    collected = {name: 0 for name in index}
    antes = {name: 0 for name in index}
    street = 2
    board = False
    counts = {name: 0 for name in index}

    def player(name: str) -> int:
        if name not in index:
            raise SiteError(f"{name!r} acts but was not dealt in")
        return index[name]

    for step in site_hand.steps:
        if isinstance(step, Ante):
            antes[step.player] = step.amount
            put_in[step.player] += step.amount
        elif isinstance(step, Dealt):
            if step.street != street:
                street = step.street
                street_in = dict.fromkeys(street_in, 0)
            seat = player(step.player)
            cards = known[seat][counts[step.player]:counts[step.player] + len(step.cards)]
            counts[step.player] += len(step.cards)
            actions.append(f"d dh p{seat} {format_cards(cards)}")
        elif isinstance(step, Board):
            actions.append(f"d db {step.card}")
            board = True
        elif isinstance(step, Act):
            seat = player(step.player)
            _check_can_check(step, street_in, street)
            need = 3 if street <= 3 else street - (1 if board and street == 7 else 0)
            if counts[step.player] < need:
                raise SiteError(f"{step.player} acts on street {street} but the history deals "
                                f"them {counts[step.player]} cards by then")
            added = step.amount - street_in[step.player] if step.to else step.amount
            street_in[step.player] += added
            put_in[step.player] += added
            line = f"p{seat} {step.verb}"
            if step.verb == "cbr":
                line += f" {street_in[step.player]}"
            actions.append(line)
        elif isinstance(step, Returned):
            put_in[step.player] -= step.amount
            street_in[step.player] -= step.amount
        elif isinstance(step, Shown) and not step.mucked:
            seat = player(step.player)
            actions.append(f"p{seat} sm {format_cards(known[seat][:len(step.cards)])}")
        elif isinstance(step, Mucked):
            actions.append(f"p{player(step.player)} sm")
        elif isinstance(step, Collected):
            collected[step.player] += step.amount
    for s in seats:
        if counts[s.name] < 3:
            raise SiteError(f"{s.name} is dealt in but the history gives no third street cards "
                            f"for them")
    finishing = [s.stack - put_in[s.name] + collected[s.name] for s in seats]
    if any(f < 0 for f in finishing):
        raise SiteError("a player puts in more than their stack")
    pot, paid = sum(put_in.values()), sum(collected.values()) + site_hand.rake
    if site_hand.tournament is not None and site_hand.rake:
        raise SiteError(f"a tournament hand cannot be raked, but the history leaves "
                        f"{site_hand.rake} of the pot unpaid")
    if site_hand.rake > pot // 10 + 1:  # rooms rake a few percent, up to a cap
        raise SiteError(f"a rake of {site_hand.rake} from a pot of {pot} is more than any "
                        f"room takes: the history's winnings do not add up")
    if pot != paid:
        raise SiteError(f"the money does not add up: the players put {pot} in the pot, and "
                        f"the history pays out {paid} (collected, and {site_hand.rake} rake)")
    bring_in = site_hand.bring_in
    if not bring_in:  # no bring-in in the hand (completed at once): any below the small bet
        bring_in = max(1, site_hand.small_bet // 2)
    fields: dict[str, object] = {
        "_rules": "standard",
        # Online rooms let a player fold when a check is free, and an all-in player muck at
        # the showdown (nothing turns the hand up): their histories do both.
        "_rule_free_fold": True,
        "_rule_all_in_muck": True,
        "rake": site_hand.rake,
        "_collected": [collected[s.name] for s in seats],
        "players": [s.name for s in seats],
        "seats": [s.number for s in seats],
        "hand": int(site_hand.hand) if all_digits(site_hand.hand) else site_hand.hand,
        "_site": site_hand.site,
        "table": site_hand.table,
        "_time": site_hand.time,
        "_tournament": site_hand.tournament,
        "currency": site_hand.currency,
        "_game": site_hand.game,
        "_bring_in_not_in_history": True if not site_hand.bring_in else None,
    }
    ante_amounts = [antes[s.name] for s in seats]
    return HandHistory(
        variant=site_hand.variant.phh_code,
        antes=[site_hand.ante or max(ante_amounts, default=0)] * len(seats),
        bring_in=bring_in,
        small_bet=site_hand.small_bet,
        big_bet=site_hand.big_bet,
        starting_stacks=[s.stack for s in seats],
        actions=actions,
        finishing_stacks=finishing,
        fields={k: v for k, v in fields.items() if v is not None},
    )


def _check_can_check(act: Act, street_in: dict[str, int], street: int) -> None:
    """Refuse a check where a bet is to be called: PHH's ``cc`` would replay it as a call."""
    owed = max(street_in.values(), default=0) - street_in[act.player]
    if act.checks and owed > 0:
        raise SiteError(f"{act.player} checks facing a bet: {owed} to call on street {street}",
                        act.line)


def _dealt_in(site_hand: SiteHand, name: str) -> bool:
    return any(isinstance(s, Dealt | Ante) and s.player == name for s in site_hand.steps)


def _known_cards(site_hand: SiteHand, index: dict[str, int]) -> dict[int, list[Card | None]]:
    """Each player's cards in dealing order, as known by the end of the history."""
    cards: dict[int, list[Card | None]] = {seat: [] for seat in index.values()}
    for step in site_hand.steps:
        if isinstance(step, Dealt) and step.player in index:
            cards[index[step.player]].extend(step.cards)
    for step in site_hand.steps:
        if isinstance(step, Shown) and step.player in index:
            mine = cards[index[step.player]]
            for k, card in enumerate(step.cards):
                if card is None:
                    continue
                if k >= len(mine):
                    raise SiteError(f"{step.player} shows {len(step.cards)} cards but was "
                                    f"dealt {len(mine)}")
                if mine[k] is not None and mine[k] != card:
                    raise SiteError(f"{step.player} shows {card} as card {k + 1} but was "
                                    f"dealt {mine[k]}")
                mine[k] = card
    return cards
