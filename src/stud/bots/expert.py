"""A rule-based stud player: starting hands by variant, board reading, pot odds.

Third street (``knowledge.starting_class``):

- Stud: rolled-up trips and a big pair (tens or better) higher than every door card are
  PREMIUM; a smaller pair that is the highest showing, or a big pair with a kicker over every
  door, GOOD; a pair with a high live kicker, three to a flush with at most two of its suit
  seen, three to a straight whose cards are live, SPECULATIVE. A pair whose third and fourth
  cards are on other doors is dead and worth a class less.
- Stud hi/lo: trips, aces, and three low cards to a six with an ace (or to a five) are
  PREMIUM; three low cards (scoop potential when suited or connected) GOOD; a big pair against
  low doors, two low cards with an ace or a live three-flush, SPECULATIVE.
- Razz: three to a six is PREMIUM, to a seven or eight GOOD when few doors are lower than mine,
  two small cards and a nine or ten SPECULATIVE; pairs are trash. A hand whose small cards sit
  on four or more other doors is worth a class less.

The bring-in player completes only PREMIUM hands. Facing the bring-in, GOOD and better
complete, SPECULATIVE calls, and a steal (``steal_spot``: my door outranks every door still
to act, three or fewer of them) completes with anything speculative or better, or a bare high
door in stud; any hand completes when the table folds often enough for the folds alone to pay
(``bet_gain``). A hand with something to build on (two high cards, two small cards in the low
games) takes a cheap look for the bring-in when the pot pays it a fair share. Facing a
completion PREMIUM raises, GOOD calls, SPECULATIVE calls once (and a hand with something to
build on, at a table that completes with anything); facing a raise PREMIUM re-raises, GOOD
calls, the rest fold.

Fourth street on (``knowledge.pot_share``): the share of the pot the hand should win, read
from the hand made so far against each opponent's up cards (their board beating my whole hand,
overcards to my pair, paired boards that threaten full houses, three suited or connected scare
cards), draws to flushes and straights counted by their live outs, and in the low games the
chance to make a low against the chance each opponent makes a better one from the cards they
show (bricks: a paired or high up card can never be part of their low). Stud hi/lo counts the
high and the low halves, and the whole pot when nobody can make a low (scoop potential). Each
bet or raise against me on the street lowers the estimate, less at a table that bets a lot.

The table (``reading.Tendencies``): the bot counts, over the hands it plays, how often the
opponents fold facing a bet and how often they bet or raise, and adapts: bluffs and steals
where folds pay for them (never against a table that does not fold), and reads bets as less
strong where everybody bets.

- Bet when the share is worth a bet against the callers (half heads-up, less multiway), with
  the big bet on fourth street when an open pair allows it and the hand is well ahead; or when
  the opponents fold often enough that the bet gains by their folds.
- Raise a bet when the share is higher still (more for each raise already made).
- Check-raise: on fifth street and later with a raising hand, check when an opponent who acts
  after me has bet or raised in this hand, and raise when the bet comes.
- Call when the share beats the pot odds (price / (pot + price)); draws on fourth and fifth
  street get some implied odds. Otherwise check or fold.
"""

from __future__ import annotations

import random

from stud.bots.base import not_to_act
from stud.bots.knowledge import (
    GOOD,
    PREMIUM,
    SPECULATIVE,
    TRASH,
    high_draw,
    pot_share,
    something_to_build,
    starting_class,
    steal_spot,
)
from stud.bots.reading import Options, TableRead, Tendencies
from stud.engine import Action, HandView
from stud.rules import Variant

# A third-street class as a multiple of a fair share of the pot (1 / players in the hand).
_CLASS_SHARE = {TRASH: 0.6, SPECULATIVE: 0.9, GOOD: 1.2, PREMIUM: 1.6}


def bet_line(opponents: int) -> float:
    """The share of the pot a value bet needs against this many opponents."""
    return 0.5 if opponents <= 1 else max(0.3, 1.5 / (opponents + 1))


def bet_gain(share: float, pot: int, bet: int, callers: int, fold_all: float) -> float:
    """What betting gains over checking on this street: everybody folds (``fold_all``) and the
    pot is mine, or they all call and I get my share of the bigger pot."""
    called = share * (pot + bet * (callers + 1)) - bet
    return fold_all * pot + (1 - fold_all) * called - share * pot


def play_share(read: TableRead, options: Options, share: float, *, implied: float = 1.0,
               trap: bool = False, fold_rate: float = 0.0) -> Action:
    """Bet, raise, call or fold by the share of the pot a hand should win and the pot odds.

    ``implied`` scales the pot odds a call needs (below 1 for draws with bets still to win);
    ``trap`` checks a raising hand to raise when an opponent bets; ``fold_rate`` (how often an
    opponent folds to a bet) adds bets that win by the folds they get.
    """
    n = len(read.opponents)
    line = bet_line(n)
    raise_line = line + 0.12 + 0.08 * max(0, read.bets - 1)
    if options.bring_in is not None:
        if options.wagers and share >= raise_line:
            return options.wagers[0]
        return options.bring_in
    if options.wagers:
        if not read.price:
            if trap and options.check is not None and share >= raise_line:
                return options.check
            bet = options.wagers[0].to - read.view.player(read.seat).wager
            if share >= line or bet_gain(share, read.pot, bet, n, fold_rate ** n) > 0.2 * bet:
                big = share >= line + 0.2 and len(options.wagers) > 1
                return options.wagers[-1] if big else options.wagers[0]
        elif share >= raise_line:
            return options.wagers[0] if share < line + 0.3 else options.wagers[-1]
    if not read.price:
        return options.passive()
    return options.passive() if share >= read.pot_odds() * implied else options.give_up()


class ExpertBot:
    """Plays by starting-hand charts on third street and by board reading after it."""

    name = "expert"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.table = Tendencies()

    def act(self, view: HandView) -> Action:
        if not view.legal_actions:
            raise not_to_act(view)
        options = Options.of(view.legal_actions)
        if options.show is not None:
            return options.show
        self.table.observe(view)
        read = TableRead.of(view)
        if view.street <= 3:
            return self.third_street(read, options)
        wagers = sum(read.wagered_now.get(p.seat, 0) for p in read.opponents)
        share = pot_share(read) * self.table.bet_discount ** wagers
        # Draws on fourth and fifth street have more bets to win when they come in.
        drawing = view.variant is Variant.RAZZ or high_draw(read) >= 0.2
        implied = 0.8 if view.street <= 5 and drawing else 1.0
        trap = (view.street >= 5 and any(read.wagered.get(s, 0) for s in read.yet_to_act)
                and self.rng.random() < 0.7)
        return play_share(read, options, share, implied=implied, trap=trap,
                          fold_rate=self.table.fold_rate)

    def third_street(self, read: TableRead, options: Options) -> Action:
        cls = starting_class(read)
        wager = options.wagers[0] if options.wagers else None  # the completion or a raise
        n = len(read.opponents)
        if options.bring_in is not None:
            if wager is not None and cls == PREMIUM:
                return wager
            if options.fold is not None and cls < SPECULATIVE:
                return options.fold
            return options.bring_in
        fair = 1 / (n + 1)
        if read.bets == 0:
            if wager is not None:
                steal = steal_spot(read)
                if cls >= GOOD or (steal and (cls >= SPECULATIVE or read.variant is Variant.STUD)):
                    return wager
                # A steal that pays by the folds alone, at a table that folds enough.
                gain = bet_gain(_CLASS_SHARE[cls] * fair, read.pot, wager.to, n,
                                self.table.fold_rate ** n)
                if gain > 0:
                    return wager
            # A cheap look when the pot pays at least a fair share for the bring-in.
            if cls >= SPECULATIVE or (something_to_build(read) and read.pot_odds() <= fair):
                return options.passive()
            return options.give_up()
        if cls == PREMIUM:
            return wager if wager is not None else options.passive()
        if cls == GOOD:
            return options.passive()
        if cls == SPECULATIVE and (read.bets == 1 or read.pot_odds() <= 0.2):
            return options.passive()
        # Completions at a table that completes with anything: defend with a live hand.
        if (read.bets == 1 and self.table.aggression >= 0.35 and something_to_build(read)
                and read.pot_odds() <= fair + 0.05):
            return options.passive()
        return options.give_up()
