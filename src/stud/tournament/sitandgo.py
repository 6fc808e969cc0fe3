"""A sit-and-go: one table, hand after hand, until one player has every chip.

>>> from stud.rules import Variant
>>> sng = SitAndGo.with_bots(sit_and_go("rotation", players=4), ["random"] * 4, seed=1)
>>> outcome = sng.play()
>>> [p.prize for p in outcome.placings], sum(p.prize for p in outcome.placings)
([260, 140, 0, 0], 400)

``Tournament`` is the format (game, players, buy-in, starting stack, structure, payouts,
rules); ``SitAndGo`` is one play of it, and drives ``stud.table.Table``: before each hand it
sets the table's game (the rotation's, for the hand's number) and stakes (the level's), starts
the hand with a deck seeded from the tournament's seed and the hand's number, lets the bots
act from their seats' views, and after it places whoever busted. The engine does what a short
stack may do: an ante it cannot cover is posted all in (RULES.md 1), and so is a bring-in.

Levels go by hands played, or by minutes: the web table says how many minutes have been
played when it starts a hand (``start_hand(minutes)``); a simulation counts each hand as
``minutes_per_hand`` minutes (``play``). No clock here, no I/O, no global random state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from stud.bots import Bot, make_bot
from stud.cards import Deck
from stud.engine import Hand
from stud.history.phh import HandHistory, from_hand
from stud.rules import PROFILES, Rules, RulesError, Variant
from stud.sim import derive_seed, derive_seeds
from stud.table import Table
from stud.tournament.eliminations import Finish, place_busted, prize_shares
from stud.tournament.payouts import check_payouts, prizes
from stud.tournament.rotation import Rotation, RotationError
from stud.tournament.standings import Outcome, Placing
from stud.tournament.structure import Level, Per, Structure, structure


class TournamentError(ValueError):
    """A tournament that cannot be set up or go on as asked: what and why."""


GAMES: tuple[str, ...] = ("stud", "stud8", "razz", "rotation")


def parse_game(text: str, seats: int, every: int | None = None) -> Rotation:
    """``stud``, ``stud8``, ``razz`` (or a PHH code) for one game, ``rotation`` for the stud
    rotation changing game every ``every`` hands (one orbit, ``seats`` hands, by default)."""
    if text == "rotation":
        return Rotation.orbit(seats, every)
    try:
        variant = Variant.parse(text)
    except RulesError:
        raise RotationError(f"unknown game {text!r}: use {', '.join(GAMES)}") from None
    if every is not None:
        raise RotationError(f"{text} is one game: a rotation's length is for 'rotation'")
    return Rotation.fixed(variant)


@dataclass(frozen=True, slots=True)
class Tournament:
    """A sit-and-go's format. ``payouts`` are percentages of the pool by place, best first;
    empty for the default table (``payouts.DEFAULT_PAYOUTS``). The prize pool is ``players``
    buy-ins; the chips in play ``players`` starting stacks."""

    game: Rotation
    players: int
    structure: Structure
    buy_in: int = 100
    starting_stack: int = 2000
    payouts: tuple[int, ...] = ()
    rules: Rules = PROFILES["standard"]

    def __post_init__(self) -> None:
        if not 2 <= self.players <= 8:
            raise TournamentError(f"a sit-and-go is for 2 to 8 players, not {self.players}")
        if self.buy_in < 1:
            raise TournamentError(f"a buy-in of {self.buy_in}: at least 1")
        if self.starting_stack < 1:
            raise TournamentError(f"a starting stack of {self.starting_stack}: at least 1 chip")
        if self.payouts:
            check_payouts(self.payouts, self.players)

    @property
    def prize_pool(self) -> int:
        return self.buy_in * self.players

    @property
    def prizes(self) -> tuple[int, ...]:
        """Each paid place's prize, best first."""
        return prizes(self.players, self.prize_pool, self.payouts)

    @property
    def chips(self) -> int:
        """The chips in play, always."""
        return self.starting_stack * self.players


def sit_and_go(game: str | Variant | Rotation = "stud", players: int = 6,
               structure_name: str = "standard", *, buy_in: int = 100,
               starting_stack: int = 2000, every: int | None = None, per: Per = "hands",
               payouts: Sequence[int] = (), rules: Rules | None = None) -> Tournament:
    """A tournament with a named structure (``standard`` or ``turbo``) for its starting stack;
    ``game`` by name, ``rotation`` changing game every ``every`` hands (one orbit by default)."""
    if isinstance(game, Variant):
        rotation = Rotation.fixed(game)
    elif isinstance(game, Rotation):
        rotation = game
    else:
        rotation = parse_game(game, players, every)
    return Tournament(rotation, players, structure(structure_name, starting_stack, per), buy_in,
                      starting_stack, tuple(payouts), rules or PROFILES["standard"])


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player: a name, and a bot, or None for a person who acts for themselves."""

    name: str
    bot: Bot | None = None


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand of the tournament: its number (from 1), game, level, the table seats dealt in
    (hand seat k is ``seats[k - 1]``), their stacks before and after, who busted, the hand."""

    number: int
    variant: Variant
    level: Level
    seats: tuple[int, ...]
    starting_stacks: tuple[int, ...]
    stacks: tuple[int, ...]
    busted: tuple[Finish, ...]
    hand: Hand

    def history(self, names: Mapping[int, str] | None = None, seat_count: int = 8,
                viewer: int | None = 0) -> HandHistory:
        """The hand's PHH: its game (``variant``), the tournament's hand number and level, the
        table seats, and the players' names when given (by table seat)."""
        fields: dict[str, object] = {"hand": self.number, "level": self.level.number,
                                     "seats": list(self.seats), "seat_count": seat_count}
        if names is not None:
            fields["players"] = [names[seat] for seat in self.seats]
        return from_hand(self.hand, viewer, **fields)


class SitAndGo:
    """One sit-and-go: entrant ``k`` (from 1) sits in seat ``k``, everyone with the starting
    stack. Each hand's deck is seeded from ``seed`` and the hand's number."""

    def __init__(self, tournament: Tournament, entrants: Sequence[Entrant], seed: int = 0
                 ) -> None:
        if len(entrants) != tournament.players:
            raise TournamentError(f"{len(entrants)} entrants for a sit-and-go of "
                                  f"{tournament.players} players")
        self.tournament = tournament
        self.seed = seed
        self.entrants: tuple[Entrant, ...] = tuple(entrants)
        self.level: Level = tournament.structure.level(1)
        self.table = Table(tournament.game.variant(1), self.level.stakes, tournament.rules,
                           seats=tournament.players)
        for seat, entrant in enumerate(self.entrants, start=1):
            self.table.sit(seat, entrant.name, tournament.starting_stack, entrant.bot)
        self.hands_played = 0
        self.finishes: dict[int, Finish] = {}  # by seat, as players are placed
        self._starting: dict[int, int] = {}  # the current hand's stacks at its start, by seat

    @staticmethod
    def with_bots(tournament: Tournament, bots: Sequence[str], seed: int = 0) -> SitAndGo:
        """Bots by name (``stud.bots.BOTS``), one per seat, each seeded from ``seed`` and its
        seat; they are named like ``random-3`` (the bot and its seat)."""
        seeds = derive_seeds(seed, 0, [f"bot{seat}" for seat in range(1, len(bots) + 1)])
        return SitAndGo(tournament, [Entrant(f"{name}-{seat}", make_bot(name, bot_seed))
                                     for seat, (name, bot_seed)
                                     in enumerate(zip(bots, seeds, strict=True), start=1)],
                        seed)

    @property
    def is_over(self) -> bool:
        return len(self.finishes) == self.tournament.players

    @property
    def hand(self) -> Hand | None:
        """The hand in play, or the last one."""
        return self.table.hand

    def stacks(self) -> dict[int, int]:
        """The chips of every player still in, by seat."""
        return {number: seat.stack for number, seat in sorted(self.table.seats.items())}

    def start_hand(self, minutes: float | None = None) -> Hand:
        """Deal the next hand at the level in force: after the hands played so far, or (levels
        by minutes) after ``minutes`` minutes of play."""
        if self.is_over:
            raise TournamentError("the tournament is over")
        table, structure = self.table, self.tournament.structure
        if table.hand is not None and not table.hand.is_over:
            raise TournamentError(f"hand {self.hands_played + 1} is still in play")
        if structure.per == "minutes":
            if minutes is None:
                raise TournamentError(f"the {structure.name} structure's levels go by minutes: "
                                      f"say how many minutes have been played")
            level = structure.level_at(minutes)
        else:
            level = structure.level_at(self.hands_played)
        if level.number > self.level.number:  # a clock set back never lowers the stakes
            self.level = level
        number = self.hands_played + 1
        table.variant = self.tournament.game.variant(number)
        table.stakes = self.level.stakes
        self._starting = {seat: table.seats[seat].stack for seat in table.ready()}
        return table.start_hand(Deck.seeded(derive_seed(self.seed, number, "deck")))

    def finish_hand(self) -> HandRecord:
        """Settle the finished hand: carry the stacks, place whoever busted (and the winner,
        when one player is left)."""
        table = self.table
        hand = table.hand
        if hand is None or not hand.is_over or len(self._starting) == 0:
            raise TournamentError("no finished hand to settle")
        table.finish_hand()
        self.hands_played = number = self.hands_played + 1
        starting = self._starting
        self._starting = {}
        busted = {seat: starting[seat] for seat in table.hand_seats
                  if table.seats[seat].stack == 0}
        finishes = place_busted(busted, len(starting), number) if busted else []
        for finish in finishes:
            self.finishes[finish.seat] = finish
            table.leave(finish.seat)
        if len(table.seats) == 1:
            winner = next(iter(table.seats))
            self.finishes[winner] = Finish(winner, 1, 1, number)
        chips = sum(seat.stack for seat in table.seats.values())
        if chips != self.tournament.chips:
            raise AssertionError(f"hand {number}: {chips} chips at the table, not "
                                 f"{self.tournament.chips}")
        return HandRecord(number, hand.variant, self.level, table.hand_seats,
                          tuple(starting[seat] for seat in table.hand_seats), tuple(hand.stacks),
                          tuple(finishes), hand)

    def play_hand(self, minutes: float | None = None) -> HandRecord:
        """Deal a hand, let the bots play it out, settle it. Every player left must be a bot."""
        people = [seat.number for seat in self.table.seats.values() if seat.bot is None]
        if people:
            raise TournamentError(f"seat {people[0]} has no bot: deal with start_hand, act "
                                  f"for the people, then finish_hand")
        self.start_hand(minutes)
        self.table.play_bots()
        return self.finish_hand()

    def play(self, minutes_per_hand: float = 1.0) -> Outcome:
        """Play to the end among bots. Levels by minutes count each hand as
        ``minutes_per_hand`` minutes (a simulated clock; online stud runs about a hand a
        minute)."""
        while not self.is_over:
            self.play_hand(self.hands_played * minutes_per_hand)
        return self.outcome()

    def prize(self, seat: int) -> int | None:
        """What the player in ``seat`` has won, once placed; None before."""
        if seat not in self.finishes:
            return None
        return prize_shares(list(self.finishes.values()), self.tournament.prizes)[seat]

    def outcome(self) -> Outcome:
        """The finishing order and the prizes, once the tournament is over."""
        if not self.is_over:
            raise TournamentError(f"{self.tournament.players - len(self.finishes)} players are "
                                  f"still in")
        finishes = sorted(self.finishes.values(), key=lambda f: (f.place, f.seat))
        shares = prize_shares(finishes, self.tournament.prizes)
        t = self.tournament
        placings = tuple(Placing(f.seat, self.entrants[f.seat - 1].name,
                                 _bot_name(self.entrants[f.seat - 1]), f.place, f.tied,
                                 shares[f.seat], f.hand) for f in finishes)
        return Outcome(t.game, t.buy_in, t.prize_pool, self.hands_played, self.level, placings)


def _bot_name(entrant: Entrant) -> str | None:
    return None if entrant.bot is None else entrant.bot.name


__all__ = ["GAMES", "Entrant", "HandRecord", "SitAndGo", "Tournament", "TournamentError",
           "parse_game", "sit_and_go"]
