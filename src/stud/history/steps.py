"""A hand history as a replayer's steps: the table as it stands after each deal and action,
and each live hand's equity at the start of every street, as far as the history's reader knows.

The engine replays the history (``stud.history.replay.rebuild``: every action checked), and the
steps are a fold over the hand's events. A card counts as known only where the history names it
(a deal line, or a hand shown at the end): a card the history writes ``??`` is ``None`` here,
even though the engine had to deal something in its place (an unknown up card is chosen to agree
with the order of play, an unknown down card is any unseen card), and no fact built on such an
invented card (what a shown hand is worth, why a seat acts first) leaves this module.

Equity follows ``stud.odds``: each pot as it stands is shared among the hands that can still win
it, unknown cards and the cards to come are dealt from the cards not seen, and a seat's figure
is its expected share of the chips in the pots. The work is bounded: exact enumeration when it
is small (``EXACT_STEPS``), else ``TRIALS`` Monte Carlo deals with a fixed seed, so the same
history always gives the same figures.

>>> from stud.history.phh import loads
>>> replay = replay_steps(loads('''variant = "F7S"
... antes = [1, 1]
... bring_in = 1
... small_bet = 2
... big_bet = 4
... starting_stacks = [50, 50]
... actions = ["d dh p1 AsAd2c", "d dh p2 ????Kh", "p1 pb", "p2 f"]
... '''))
>>> [(step.kind.value, step.seat) for step in replay.steps]
[('antes', None), ('deal', None), ('action', 1), ('action', 2), ('returned', 1), ('awards', None)]
>>> replay.steps[1].seats[1].cards
(None, None, Card('Kh'))
>>> [round(e.equity, 2) for e in replay.equity[0].seats]
[0.77, 0.23]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from stud.cards import Card, CardError
from stud.digits import all_digits
from stud.engine import (
    Action,
    ActionKind,
    ActionTaken,
    AntePosted,
    CardDealt,
    CommunityCardDealt,
    Event,
    FirstToAct,
    Hand,
    HandEnded,
    HandMucked,
    HandShown,
    IllegalAction,
    Phase,
    PotAwarded,
    StreetStarted,
    UncalledReturned,
    open_pots,
)
from stud.equity import EquityError, equity, exact_steps, parse_spot
from stud.history.phh import HandHistory, PHHError
from stud.history.rake import raked_stacks
from stud.history.replay import ReplayError, rebuild
from stud.odds import NoFigure
from stud.rules import Rules, RulesError, Stakes, Variant

# Exact enumeration up to this many innermost steps (a few milliseconds), else Monte Carlo.
EXACT_STEPS = 2_000_000
TRIALS = 50_000  # a figure to about half a percent; a few milliseconds a pot


class StepsError(ValueError):
    """A history that cannot be replayed: where (the field, or the action's ``index`` and
    ``line``) and why, in words a user can read."""

    def __init__(self, message: str, index: int | None = None, line: str | None = None
                 ) -> None:
        super().__init__(message)
        self.index = index
        self.line = line


class StepKind(StrEnum):
    ANTES = "antes"  # every player posts the ante
    DEAL = "deal"  # a street's cards (and the community card, if any); its betting begins
    ACTION = "action"  # one betting decision
    RETURNED = "returned"  # the part of a bet nobody called goes back
    SHOWN = "shown"  # a hand turned up
    MUCKED = "mucked"  # a hand thrown away at the showdown
    AWARDS = "awards"  # the pots go to their winners; the hand is over


@dataclass(frozen=True, slots=True)
class SeatAt:
    """One player at one step, as the history's reader knows them: ``cards`` in dealing
    order (None: not known), ``up`` for each."""

    seat: int
    cards: tuple[Card | None, ...]
    up: tuple[bool, ...]
    stack: int
    wager: int  # put in on this street
    committed: int  # put in this hand, antes included
    folded: bool
    all_in: bool
    shown: bool
    mucked: bool


@dataclass(frozen=True, slots=True)
class Step:
    """The table after one deal, action or award. ``seat`` is who acted (or posted, showed,
    got chips back); ``added`` the chips that moved (put in, or given back); ``first`` who
    acts first on a dealt street (None: nobody can bet), ``why`` the engine's facts of why
    when every card they rest on is known; ``awards`` the pots of the last step."""

    kind: StepKind
    street: int
    seats: tuple[SeatAt, ...]
    pot: int
    pots: tuple[int, ...]
    board: tuple[Card | None, ...]
    seat: int | None = None
    action: Action | None = None
    added: int = 0
    all_in: bool = False
    first: int | None = None
    why: FirstToAct | None = None
    shown: HandShown | None = None
    awards: tuple[PotAwarded, ...] = ()


@dataclass(frozen=True, slots=True)
class SeatEquity:
    """A live seat's prospects on a street: ``equity``, its expected share of the chips in
    the pots; ``high`` and ``low``, its chance of winning or sharing that half (pot-weighted;
    None for the half the variant does not play); ``known``: every card it holds is known."""

    seat: int
    equity: float
    high: float | None
    low: float | None
    known: bool


@dataclass(frozen=True, slots=True)
class StreetEquity:
    """Every live seat's equity as a street begins, or why there is none (``missing``).
    ``method`` is "exact" when every pot was enumerated, else "monte-carlo"."""

    street: int
    seats: tuple[SeatEquity, ...]
    method: str | None = None
    missing: NoFigure | None = None


@dataclass(frozen=True, slots=True)
class Replay:
    """A history's steps. ``finishing_stacks`` are the engine's, less the history's ``rake``;
    ``over`` is False for a history that stops before its hand ends; ``checked`` that the
    history's own ``finishing_stacks`` were compared with the replay (and agreed)."""

    variant: Variant
    stakes: Stakes
    rules: Rules
    starting_stacks: tuple[int, ...]
    names: tuple[str | None, ...]
    steps: tuple[Step, ...]
    equity: tuple[StreetEquity, ...]
    finishing_stacks: tuple[int, ...]
    rake: int
    over: bool
    checked: bool


# ---------------------------------------------------------------------- what the history names


def _cards(text: str) -> list[Card | None]:
    out: list[Card | None] = []
    for k in range(0, len(text) - 1, 2):
        chunk = text[k:k + 2]
        try:
            out.append(None if chunk == "??" else Card.parse(chunk))
        except CardError:
            out.append(None)  # rebuild() has refused such a line already
    return out


def known_cards(history: HandHistory) -> tuple[dict[int, list[Card | None]], list[Card | None]]:
    """Each player's cards in dealing order as the history names them (its deal lines, then
    the hands shown at the end fill what those left ``??``), and the community cards."""
    players = len(history.starting_stacks)
    holes: dict[int, list[Card | None]] = {s: [] for s in range(1, players + 1)}
    board: list[Card | None] = []
    shown: list[tuple[int, list[Card | None]]] = []
    for line in history.actions:
        parts = line.split()
        if parts[:2] == ["d", "dh"] and len(parts) == 4 and all_digits(parts[2][1:]):
            holes.setdefault(int(parts[2][1:]), []).extend(_cards(parts[3]))
        elif parts[:2] == ["d", "db"] and len(parts) == 3:
            board.extend(_cards(parts[2]))
        elif len(parts) == 3 and parts[1] == "sm" and all_digits(parts[0][1:]):
            shown.append((int(parts[0][1:]), _cards(parts[2])))
    for seat, cards in shown:
        held = holes.setdefault(seat, [])
        for k, card in enumerate(cards):
            if k < len(held) and held[k] is None:
                held[k] = card
    return holes, board


# ---------------------------------------------------------------------- replaying


def _hand(history: HandHistory, rules: Rules | None) -> tuple[Hand, Rules]:
    try:
        rules = rules or history.rules()
        hand = rebuild(history, rules)
        while hand.phase is Phase.SHOWDOWN and hand.actor is not None:
            hand.act(Action(ActionKind.SHOW))  # a player the history leaves silent shows
    except ReplayError as error:
        raise StepsError(str(error), error.index, error.text) from None
    except (PHHError, RulesError, IllegalAction) as error:
        raise StepsError(str(error)) from None
    return hand, rules


def replay_steps(history: HandHistory, rules: Rules | None = None) -> Replay:
    """The steps of ``history`` (its own rules unless ``rules`` is given), with equity.

    Raises ``StepsError`` naming the field or action that cannot be replayed."""
    hand, rules = _hand(history, rules)
    holes, board = known_cards(history)
    fold = _Fold(hand, holes, board)
    for event in hand.events:
        fold.take(event)
    fold.close()
    stacks = list(hand.stacks)
    rake = history.fields.get("rake", 0)
    if rake:
        if not isinstance(rake, int) or isinstance(rake, bool) or rake < 0:
            raise StepsError(f"rake must be a whole number of chips >= 0, not {rake!r}")
        awards = [e for e in hand.events if isinstance(e, PotAwarded)]
        try:
            stacks = raked_stacks(stacks, awards, rake, rules)
        except ValueError as error:
            raise StepsError(f"rake: {error}") from None
    checked = hand.is_over and history.finishing_stacks is not None
    if checked and list(history.finishing_stacks or ()) != stacks:
        raise StepsError(f"finishing_stacks: the history says {history.finishing_stacks}, "
                         f"the replay gives {stacks}")
    names = history.fields.get("players")
    players = hand.players
    named: tuple[str | None, ...] = (
        tuple(n if isinstance(n, str) else None for n in names)
        if isinstance(names, list) and len(names) == players else (None,) * players)
    return Replay(hand.variant, hand.stakes, rules, hand.starting_stacks, named,
                  tuple(fold.steps), tuple(fold.equity), tuple(stacks),
                  rake if isinstance(rake, int) else 0, hand.is_over, checked)


class _Fold:
    """The table as the events go by, with only the history's cards known."""

    def __init__(self, hand: Hand, holes: dict[int, list[Card | None]],
                 board: list[Card | None]) -> None:
        n = hand.players
        self.hand = hand
        self.holes = holes
        self.board_known = board
        self.cards: list[list[Card | None]] = [[] for _ in range(n)]
        self.up: list[list[bool]] = [[] for _ in range(n)]
        self.stack = list(hand.starting_stacks)
        self.wager = [0] * n
        self.committed = [0] * n
        self.folded = [False] * n
        self.shown = [False] * n
        self.mucked = [False] * n
        self.board: list[Card | None] = []
        self.street = 3
        self.steps: list[Step] = []
        self.equity: list[StreetEquity] = []
        self.antes = 0
        self.dealing = False  # a deal step is being gathered
        self.awards: list[PotAwarded] = []

    # -- reading

    def _known(self, seat: int, position: int) -> Card | None:
        named = self.holes.get(seat, [])
        return named[position] if position < len(named) else None

    def _all_known(self, seat: int) -> bool:
        return all(c is not None for c in self.cards[seat - 1])

    def _seats(self) -> tuple[SeatAt, ...]:
        return tuple(SeatAt(i + 1, tuple(self.cards[i]), tuple(self.up[i]), self.stack[i],
                            self.wager[i], self.committed[i], self.folded[i],
                            self.stack[i] == 0 and not self.folded[i], self.shown[i],
                            self.mucked[i])
                     for i in range(self.hand.players))

    def _open_pots(self) -> list[tuple[int, tuple[int, ...]]]:
        n = self.hand.players
        live = [not f for f in self.folded]
        all_in = [self.stack[i] == 0 and live[i] for i in range(n)]
        return open_pots(self.committed, live, all_in)

    def _step(self, kind: StepKind, **facts: Any) -> None:
        pots = tuple(amount for amount, _ in self._open_pots()) or (0,)
        if kind is StepKind.AWARDS:
            by_pot: dict[int, int] = {}
            for award in self.awards:
                by_pot[award.pot] = by_pot.get(award.pot, 0) + award.amount
            pots = tuple(by_pot[k] for k in sorted(by_pot)) or pots
        self.steps.append(Step(kind, self.street, self._seats(), sum(self.committed), pots,
                               tuple(self.board), **facts))

    # -- folding

    def _street(self, street: int) -> None:
        if street != self.street:
            self.street = street
            self.wager = [0] * self.hand.players

    def take(self, event: Event) -> None:
        if self.antes and not isinstance(event, AntePosted):
            self._step(StepKind.ANTES, added=self.antes)
            self.antes = 0
        if self.dealing and not isinstance(event, CardDealt | CommunityCardDealt
                                           | StreetStarted):
            self._step(StepKind.DEAL)  # dealt, but nobody bets: the next event follows
            self.dealing = False
        if isinstance(event, AntePosted):
            i = event.seat - 1
            self.stack[i] -= event.amount
            self.committed[i] += event.amount
            self.antes = max(self.antes, event.amount)
        elif isinstance(event, CardDealt):
            self._street(event.street)
            i = event.seat - 1
            self.cards[i].append(self._known(event.seat, len(self.cards[i])))
            self.up[i].append(event.up)
            self.dealing = True
        elif isinstance(event, CommunityCardDealt):
            self._street(event.street)
            k = len(self.board)
            self.board.append(self.board_known[k] if k < len(self.board_known) else None)
            self.dealing = True
        elif isinstance(event, StreetStarted):
            self._street(event.street)
            self.equity.append(self._equity())
            why = event.why if self._why_known(event.why) else None
            self._step(StepKind.DEAL, first=event.first, why=why)
            self.dealing = False
        elif isinstance(event, ActionTaken):
            self._street(event.street)
            i = event.seat - 1
            self.stack[i] -= event.added
            self.committed[i] += event.added
            self.wager[i] += event.added
            if event.action.kind is ActionKind.FOLD:
                self.folded[i] = True
            self._step(StepKind.ACTION, seat=event.seat, action=event.action,
                       added=event.added, all_in=event.all_in)
        elif isinstance(event, UncalledReturned):
            i = event.seat - 1
            self.stack[i] += event.amount
            self.committed[i] -= event.amount
            self.wager[i] = max(0, self.wager[i] - event.amount)
            self._step(StepKind.RETURNED, seat=event.seat, added=event.amount)
        elif isinstance(event, HandShown):
            self.shown[event.seat - 1] = True
            known = self._all_known(event.seat)
            shown = event if known else HandShown(event.seat, (), None, None)
            self._step(StepKind.SHOWN, seat=event.seat, shown=shown)
        elif isinstance(event, HandMucked):
            self.mucked[event.seat - 1] = True
            self._step(StepKind.MUCKED, seat=event.seat)
        elif isinstance(event, PotAwarded):
            for seat, chips in event.shares:
                self.stack[seat - 1] += chips
            known = all(self._all_known(seat) for seat, _ in event.shares)
            self.awards.append(event if known or event.uncontested
                               else event._replace(high=None, low=None))
        elif isinstance(event, HandEnded):
            self._step(StepKind.AWARDS, awards=tuple(self.awards))

    def close(self) -> None:
        """A history that stops mid-hand: what was gathered is a step too."""
        if self.antes:
            self._step(StepKind.ANTES, added=self.antes)
        if self.dealing:
            self._step(StepKind.DEAL)

    def _why_known(self, why: FirstToAct) -> bool:
        """Whether the cards why names are the history's, not cards the replay chose."""
        if why.decider is None:
            return True
        held = [c for c, u in zip(self.cards[why.decider - 1], self.up[why.decider - 1],
                                  strict=True) if u]
        return None not in held

    # -- equity

    def _equity(self) -> StreetEquity:
        variant = self.hand.variant
        live = [i + 1 for i in range(self.hand.players) if not self.folded[i]]
        if len(live) < 2:
            return StreetEquity(self.street, ())
        if self.board:
            return StreetEquity(self.street, (), missing=NoFigure.COMMUNITY)
        hands = {s: _text(self.cards[s - 1]) for s in live}
        dead = [c for i in range(self.hand.players) if self.folded[i]
                for c in self.cards[i] if c is not None]
        pots = [(amount, tuple(i + 1 for i in eligible))
                for amount, eligible in self._open_pots() if eligible]
        if not pots:  # nothing in the pot yet (no ante): the hand's chips are all to come
            pots = [(1, tuple(live))]
        try:
            parse_spot(variant, list(hands.values()), dead)
            shares, methods = _split(variant, hands, dead, pots)
        except EquityError:
            return StreetEquity(self.street, (), missing=NoFigure.DECK)
        seats = tuple(SeatEquity(s, shares[s][0],
                                 None if variant is Variant.RAZZ else shares[s][1],
                                 None if variant is Variant.STUD else shares[s][2],
                                 self._all_known(s))
                      for s in live)
        return StreetEquity(self.street, seats,
                            "exact" if methods == {"exact"} else "monte-carlo")


def _text(cards: Sequence[Card | None]) -> str:
    return "".join("??" if c is None else str(c) for c in cards)


def _split(variant: Variant, hands: dict[int, str], dead: Sequence[Card],
           pots: Sequence[tuple[int, tuple[int, ...]]]
           ) -> tuple[dict[int, tuple[float, float, float]], set[str]]:
    """Each seat's (equity, high, low) over ``pots``, each pot among its eligible hands (the
    others' known cards out of its deck), weighted by the pots' chips; and the methods used.
    Raises EquityError."""
    total = sum(amount for amount, _ in pots)
    out = {s: [0.0, 0.0, 0.0] for s in hands}
    methods: set[str] = set()
    memo: dict[tuple[int, ...], dict[int, tuple[float, float, float]]] = {}
    for amount, eligible in pots:
        if eligible not in memo:
            if len(eligible) == 1:
                memo[eligible] = {eligible[0]: (1.0, 1.0, 1.0)}
            else:
                others = [Card.parse(t[k:k + 2]) for s, t in hands.items() if s not in eligible
                          for k in range(0, len(t), 2) if t[k:k + 2] != "??"]
                texts = [hands[s] for s in eligible]
                spot = parse_spot(variant, texts, [*dead, *others])
                exact = exact_steps(spot) <= EXACT_STEPS
                result = equity(variant, texts, dead=[*dead, *others], exact=exact,
                                trials=None if exact else TRIALS, seed=0)
                methods.add(result.method)
                memo[eligible] = {s: (p.equity, p.win_high + p.tie_high, p.win_low + p.tie_low)
                                  for s, p in zip(eligible, result.players, strict=True)}
        for seat, figures in memo[eligible].items():
            for k in range(3):
                out[seat][k] += amount * figures[k] / total
    return {s: (f[0], f[1], f[2]) for s, f in out.items()}, methods


__all__ = ["EXACT_STEPS", "TRIALS", "Replay", "SeatAt", "SeatEquity", "Step", "StepKind",
           "StepsError", "StreetEquity", "known_cards", "replay_steps"]
