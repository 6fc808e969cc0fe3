"""The proof that the fast engine is the engine: both play the same hands side by side.

``compare`` deals each hand from the same ``Deck.seeded`` deck to a ``stud.engine.Hand`` and
to a ``Batch``, makes the same random choice (an index into the legal actions) in both, and
compares at every step the street, the player to act, the legal actions with their amounts,
the stacks, the chips committed (so the pots), this street's wagers and the folds; at every
new street and at the end each seat's cards (up or down) and the community card; at the end
every pot's award (pot, half, chips, winners in odd-chip order) and the final stacks. Used by
``tests/fast`` and ``bench/fast_agree.py``.

>>> from stud.rules import Stakes
>>> found = compare("razz", "standard", Stakes(1, 1, 2, 4), players=3, hands=20, seed=1)
>>> found.hands, found.mismatches
(20, [])
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from stud.cards import Deck
from stud.engine import (
    ActionKind,
    ActionTaken,
    CommunityCardDealt,
    Half,
    Hand,
    PotAwarded,
    StreetStarted,
    StubReshuffled,
    UncalledReturned,
)
from stud.fast import layout as L
from stud.fast.batch import Batch
from stud.rules import Rules, Stakes, Variant, profile

Snapshot = tuple[object, ...]


@dataclass
class Agreement:
    """How many hands and steps were compared, and what disagreed (the first ones)."""

    hands: int = 0
    steps: int = 0
    mismatches: list[str] = field(default_factory=list)
    mismatched_hands: int = 0
    covered: Counter[str] = field(default_factory=Counter)  # hands that met each rule

    def add(self, other: Agreement) -> None:
        self.hands += other.hands
        self.steps += other.steps
        self.mismatched_hands += other.mismatched_hands
        self.mismatches.extend(other.mismatches[:max(0, 5 - len(self.mismatches))])
        self.covered.update(other.covered)


def coverage(hand: Hand) -> set[str]:
    """The rules a finished hand met, by name (for saying what a comparison covered)."""
    met = set()
    stakes = hand.stakes
    short_to = 0  # the last wager's "to" while every wager of the street was a short all-in
    for e in hand.events:
        if isinstance(e, PotAwarded):
            if e.pot > 0:
                met.add("side pot")
            if len(e.shares) > 1:
                met.add("split pot")
            if e.odd is not None and len(e.shares) > 1:
                met.add(f"odd chip by {e.odd.by}")
            if e.half is Half.LOW:
                met.add("hi/lo halves")
            if e.no_low:
                met.add("no low")
            if e.uncontested:
                met.add("uncontested")
        elif isinstance(e, CommunityCardDealt):
            met.add("community card")
        elif isinstance(e, StubReshuffled):
            met.add("reshuffle")
        elif isinstance(e, UncalledReturned):
            met.add("uncalled bet returned")
        elif isinstance(e, StreetStarted):
            short_to = 0
            if e.why.tie:
                met.add("first actor tie")
            if e.why.decider_all_in:
                met.add("all-in first actor skipped")
            if e.why.open_pair:
                met.add("open pair")
            if e.first is None:
                met.add("street without betting")
        elif isinstance(e, ActionTaken):
            kind = e.action.kind
            if kind is ActionKind.BRING_IN and e.action.to < stakes.bring_in:
                met.add("short bring-in")
            if e.action.wagers and kind is not ActionKind.BRING_IN:
                # Under half_bet, less than half a bet more (unit: ignoring the open pair).
                unit = stakes.small_bet if e.street <= 4 else stakes.big_bet
                to = e.action.to
                short = e.all_in and short_to >= 0 and 2 * (to - short_to) < unit
                if short and short_to > 0 and 2 * to >= unit:
                    met.add("short all-in over a short all-in")
                if e.all_in:
                    met.add("all-in wager")
                short_to = to if short else -1
            if kind in (ActionKind.BET, ActionKind.RAISE) and e.action.to % stakes.small_bet:
                met.add("wager of an odd size")
    if len(hand.seats.live()) > 1:
        met.add("showdown")
    return met


STAKES: tuple[Stakes, ...] = (Stakes(1, 1, 2, 4), Stakes(2, 2, 5, 10), Stakes(0, 1, 2, 4),
                               Stakes(5, 3, 10, 20), Stakes(1, 2, 3, 6), Stakes(3, 1, 4, 8))


def random_rules(rng: random.Random) -> Rules:
    """Rules with every policy drawn at random (``max_bets`` from 1 to 5)."""
    base = profile(rng.choice(["standard", "pokerkit"]))
    choices: dict[str, object] = {}
    for policy, values in (("first_actor_tie", ("seat", "suit")), ("odd_chip", ("suit", "seat")),
                           ("deck_exhaustion", ("community", "reshuffle")),
                           ("short_bring_in", ("full", "posted")),
                           ("short_all_in", ("half_bet", "full_bet")),
                           ("odd_chip_shares", ("one_each", "all_to_first")),
                           ("hi_lo_halves", ("qualified", "any_low")),
                           ("scoop_split", ("whole_pot", "halves"))):
        choices[policy] = rng.choice(values)
    for flag in ("open_pair_big_bet", "heads_up_uncapped", "fold_facing_all_in_bring_in",
                 "short_bring_in_completes", "all_in_raise_for_less", "all_in_muck",
                 "free_fold"):
        choices[flag] = rng.random() < 0.5
    choices["max_bets"] = rng.randint(1, 5)
    return base.with_policies(**choices)


def random_stacks(rng: random.Random, players: int, hands: int, stakes: Stakes,
                  short: float = 0.5) -> list[list[int]]:
    """Starting stacks: deep, or (with probability ``short`` a seat) short enough for all-ins
    on any street, down to a chip."""
    deep = 200 * stakes.big_bet
    top = 6 * stakes.big_bet + stakes.ante
    return [[rng.randint(1, top) if rng.random() < short else deep for _ in range(players)]
            for _ in range(hands)]


def _reference_state(hand: Hand) -> Snapshot:
    over = hand.is_over
    actor = hand.actor
    return (None if over else hand.street, -1 if actor is None else actor,
            [(a.kind.value, a.to) for a in hand.legal_actions()], hand.stacks,
            hand.committed, None if over else hand.wagers, hand.folded)


def _reference_cards(hand: Hand) -> Snapshot:
    return ([[(c.id, up) for c, up in zip(cards, ups, strict=True)]
             for cards, ups in zip(hand.cards, hand.up, strict=True)],
            hand.board[0].id if hand.board else -1)


def _reference_awards(hand: Hand) -> Snapshot:
    return tuple((e.pot, e.half.value, e.amount, tuple(e.shares))
                 for e in hand.events if isinstance(e, PotAwarded))


def _fast_states(batch: Batch, hands: list[int]) -> list[Snapshot]:
    """The snapshots of ``_reference_state`` for these hands of the batch, read at once."""
    n = batch.players
    legal = batch.legal()
    rows = batch.table[hands].tolist()
    kinds = legal.kinds[hands].tolist()
    tos = legal.tos[hands].tolist()
    counts = legal.counts[hands].tolist()
    names = L.ACTION_NAMES
    states: list[Snapshot] = []
    for r, kind, to, count in zip(rows, kinds, tos, counts, strict=True):
        over = r[L.PHASE] == L.OVER
        states.append((None if over else r[L.STREET], r[L.ACTOR],
                       [(names[kind[k]], to[k]) for k in range(count)],
                       r[L.STACK:L.STACK + n], r[L.COMMITTED:L.COMMITTED + n],
                       None if over else r[L.WAGER:L.WAGER + n],
                       [f == 1 for f in r[L.FOLDED:L.FOLDED + n]], r))
    return states


def _fast_cards(r: list[int], n: int) -> Snapshot:
    return ([[(r[L.CARD + L.CARDS * i + k], r[L.UP + i] >> k & 1 == 1)
              for k in range(r[L.HELD + i])] for i in range(n)], r[L.BOARD])


def _fast_awards(batch: Batch, h: int) -> Snapshot:
    return tuple((a.pot, a.half, a.amount, a.shares) for a in batch.awards(h))


def _choose(rng: random.Random, legal: list[tuple[str, int]], passive: float) -> int:
    """A random legal action; with probability ``passive`` a check or call where there is
    one (so that hands go deep: eight players to seventh street run the stub short)."""
    if passive and rng.random() < passive:
        for k, (kind, _) in enumerate(legal):
            if kind == "check" or kind == "call":
                return k
    return rng.randrange(len(legal))


def twin_decks(rng: random.Random, players: int, hands: int) -> list[Deck]:
    """Seeded decks rearranged so that seats 1 and 2 get cards of the same ranks, card for
    card, while nobody folds: tied hands, split pots and their odd chips. A deck's seed (for a
    reshuffle) is kept."""
    decks = []
    n = players
    slots = [k * n for k in range(3)] + [3 * n + s * (n + 1) + 1 for s in range(4)]
    for _ in range(hands):
        seed = rng.getrandbits(40)
        cards = list(Deck.seeded(seed).cards)
        fixed: set[int] = set()
        for a in slots:
            b = a + 1
            if b >= 52:
                break
            fixed.update((a, b))
            rank = cards[a].rank
            for q in range(52):
                if q not in fixed and cards[q].rank == rank:
                    cards[b], cards[q] = cards[q], cards[b]
                    break
        decks.append(Deck(tuple(cards), seed))
    return decks


def _describe(variant: Variant, rules: Rules, stakes: Stakes, stacks: Sequence[int],
              deck: Deck, choices: list[int], what: str, ours: object, theirs: object) -> str:
    return (f"{variant.value} {rules!r} {stakes!r} stacks {list(stacks)} deck "
            f"{''.join(str(c) for c in deck.cards)} (seed {deck.seed}) choices {choices}: "
            f"{what} differ: engine {theirs!r}, fast {ours!r}")


def compare(variant: Variant | str, rules: Rules | str, stakes: Stakes, *, players: int,
            hands: int, seed: int, stacks: Sequence[Sequence[int]] | None = None,
            decks: Sequence[Deck] | None = None, passive: float = 0.0) -> Agreement:
    """Play ``hands`` hands on both engines and compare every step (see the module)."""
    variant = variant if isinstance(variant, Variant) else Variant.parse(variant)
    rules = profile(rules) if isinstance(rules, str) else rules
    rng = random.Random(seed)
    if decks is None:
        decks = [Deck.seeded(rng.getrandbits(40)) for _ in range(hands)]
    if stacks is None:
        stacks = [[200 * stakes.big_bet] * players] * hands
    reference = [Hand(variant, stakes, list(stacks[h]), rules, decks[h]) for h in range(hands)]
    batch = Batch(variant, stakes, rules, np.array(stacks, dtype=np.int64), decks)
    found = Agreement(hands=hands)
    history: list[list[int]] = [[] for _ in range(hands)]
    open_hands = list(range(hands))
    streets = [0] * hands
    bad: set[int] = set()
    choices = np.zeros(hands, dtype=np.int64)

    def mismatch(h: int, what: str, ours: object, theirs: object) -> None:
        bad.add(h)
        choices[h] = 0  # the fast hand plays on to its end by its first legal action
        if len(found.mismatches) < 5:
            found.mismatches.append(_describe(variant, rules, stakes, stacks[h], decks[h],
                                              history[h], what, ours, theirs))

    while open_hands:
        still = []
        for h, ours in zip(open_hands, _fast_states(batch, open_hands), strict=True):
            hand = reference[h]
            theirs = _reference_state(hand)
            found.steps += 1
            if theirs != ours[:7]:
                mismatch(h, "state (street, actor, legal, stacks, committed, wagers, folds)",
                         ours[:7], theirs)
                continue
            over = hand.is_over
            if over or streets[h] != hand.street:
                streets[h] = hand.street
                cards = _fast_cards(ours[7], players)  # type: ignore[arg-type]
                if _reference_cards(hand) != cards:
                    mismatch(h, "cards", cards, _reference_cards(hand))
                    continue
            if over:
                if _reference_awards(hand) != _fast_awards(batch, h):
                    mismatch(h, "awards", _fast_awards(batch, h), _reference_awards(hand))
                found.covered.update(coverage(hand))
                continue
            k = _choose(rng, theirs[2], passive)  # type: ignore[arg-type]
            history[h].append(k)
            hand.act(hand.legal_actions()[k])
            choices[h] = k
            still.append(h)
        if still:
            batch.act(choices)
        open_hands = still
    found.mismatched_hands = len(bad)
    return found
