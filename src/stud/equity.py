"""Equity of stud, stud hi/lo and razz hands: exact where feasible, Monte Carlo otherwise.

A hand is the cards a player holds as far as they are known, in dealing order, ``??`` for a card
nobody at the table can see: ``"AsKs2d"`` on third street, ``"????Qc7d"`` for an opponent on
fourth. Every unknown card and every card still to come is dealt from the unseen cards (the deck
less every known card and the ``dead`` ones), so each hand ends with seven cards. Only which cards
a player ends with matters at the showdown, so ``??`` and a card still to come are the same thing.

>>> result = equity("stud", ["AsAdKs9h2c7d", "QhQcQdJs3c4h"], dead="2h", exact=True)
>>> result.method, result.deals
('exact', 1482)
>>> [round(p.equity, 4) for p in result.players]
[0.0378, 0.9622]

How it works:

- Monte Carlo deals the unknown cards in fixed chunks of ``CHUNK`` deals, each from its own seed
  derived from ``seed`` and the chunk's number, so a seed gives the same numbers however many
  workers share the chunks. The hands of a chunk are valued by the batch kernels of
  ``stud.evaluate.batch`` (N hands of seven cards at a time).
- Exact enumeration walks every way to complete the hands: each player's completions are valued
  once (batch kernels again), then a compiled loop walks the combinations of completions that
  share no card. The innermost player's loop only sorts its completions into nine outcome
  classes against the best of the others; each class is then settled once.
- Results are kept as integer sums (a pot is 1680 units, so every split of a half among up to
  eight players is whole), so merging chunks in any order gives identical numbers.
"""

from __future__ import annotations

import hashlib
import math
import os
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations
from typing import Any

import numpy as np

from stud.cards import Card, CardError
from stud.rules import RulesError, Variant, is_whole

__all__ = ["CHUNK", "DEFAULT_TRIALS", "EXACT_AUTO_STEPS", "EXACT_MAX_STEPS", "STEP_SECONDS",
           "EquityError", "EquityResult", "PlayerEquity", "Spot", "equity", "exact_steps",
           "parse_spot"]

HAND_SIZE = 7
MAX_PLAYERS = 8
CHUNK = 1 << 15  # Monte Carlo deals per chunk: the unit of seeding and of work for a worker
DEFAULT_TRIALS = 1_000_000
# Exact enumeration is chosen when its innermost loop runs at most this many times: about a
# second on one core of a small machine (bench/equity.py measures it).
EXACT_AUTO_STEPS = 300_000_000
EXACT_MAX_STEPS = 2_000_000_000_000  # beyond this even exact=True is refused: hours of work
STEP_SECONDS = 5e-9  # about one step of the innermost loop on one core, to say steps in hours
COMPLETIONS_MAX = 1 << 21  # nor may one hand have more completions than this (memory)
EXACT_PIECES = 64  # the outermost loop is cut into this many pieces for workers

POT = 1680  # lcm(1..8) * 2: a half pot splits evenly among any number of players up to eight
HALF = POT // 2
STUD, STUD8, RAZZ = 0, 1, 2
_MODES = {Variant.STUD: STUD, Variant.STUD8: STUD8, Variant.RAZZ: RAZZ}
# A player's outcome in one deal is a code: HIGH_STEP times how many share the best high if the
# player is among them, plus how many share the best low if the player is among them, plus
# LOW_SEEN if any hand has a (qualifying) low. Counts of codes per player add up across deals.
HIGH_STEP = 9
LOW_SEEN = 81
CODES = 162


class EquityError(ValueError):
    """Hands or options that make no equity question: which hand, which card, why."""


@dataclass(frozen=True, slots=True)
class PlayerEquity:
    """One player's results; every figure is a fraction of the deals (equity: of the pot)."""

    cards: str
    equity: float
    win_high: float
    tie_high: float
    win_low: float
    tie_low: float
    scoop: float
    stderr: float

    def as_dict(self) -> dict[str, Any]:
        return {"cards": self.cards, "equity": self.equity, "win_high": self.win_high,
                "tie_high": self.tie_high, "win_low": self.win_low, "tie_low": self.tie_low,
                "scoop": self.scoop, "stderr": self.stderr}


@dataclass(frozen=True, slots=True)
class EquityResult:
    variant: Variant
    method: str  # "exact" or "monte-carlo"
    deals: int
    players: tuple[PlayerEquity, ...]

    def as_dict(self) -> dict[str, Any]:
        """The shape ``stud equity --json`` prints."""
        return {"method": self.method, "deals": self.deals,
                "players": [p.as_dict() for p in self.players]}


@dataclass(frozen=True, slots=True)
class Spot:
    """A checked equity question: known cards per player, and the cards left to deal from."""

    mode: int
    known: tuple[tuple[int, ...], ...]  # card ids each player is known to hold
    unseen: tuple[int, ...]  # card ids that may still be dealt, ascending

    @property
    def missing(self) -> tuple[int, ...]:
        return tuple(HAND_SIZE - len(k) for k in self.known)


# --- input -----------------------------------------------------------------------------------


def _parse_hand(text: object, seat: int) -> list[int | None]:
    """A hand as a string (``"??Kd7c"``) or as cards, with ``None`` or ``"??"`` unknown; never
    empty (a player in the hand holds cards, ``??`` where unknown)."""
    if not isinstance(text, str):
        if isinstance(text, Iterable):
            given = list(text)
            if not given:
                raise _empty(text, seat)
            return [None if c is None or c == "??" else _one_card(c, seat, text) for c in given]
        raise EquityError(f"hand {seat} is {text!r}: write it as cards like 'AsKs2d' or '????Qc'")
    compact = "".join(ch for ch in text if ch not in " ,\t\n")
    if not compact:
        raise _empty(text, seat)
    if len(compact) % 2:
        raise EquityError(f"hand {seat} {text!r}: cards are two characters each, like 'As' or "
                          f"'??' for an unknown card")
    cards: list[int | None] = []
    for i in range(0, len(compact), 2):
        token = compact[i:i + 2]
        cards.append(None if token == "??" else _one_card(token, seat, text))
    return cards


def _empty(text: object, seat: int) -> EquityError:
    return EquityError(f"hand {seat} {text!r} is empty: give the cards it holds, ?? for each "
                       f"unknown one, like 'AsKs2d' or '??????'")


def _one_card(token: object, seat: int, text: object) -> int:
    if isinstance(token, Card):
        return token.id
    try:
        return Card.parse(token).id  # type: ignore[arg-type]
    except CardError as error:
        raise EquityError(f"hand {seat} {text!r}: {error}") from None


def _parse_dead(dead: object) -> list[int]:
    if dead is None:
        return []
    if isinstance(dead, str):
        compact = "".join(ch for ch in dead if ch not in " ,\t\n")
        if len(compact) % 2:
            raise EquityError(f"dead cards {dead!r}: cards are two characters each, like 'As'")
        tokens: list[object] = [compact[i:i + 2] for i in range(0, len(compact), 2)]
    elif isinstance(dead, Iterable):
        tokens = list(dead)
    else:
        raise EquityError(f"dead cards {dead!r}: give cards, like 'As Kd' or ['As', 'Kd']")
    ids = []
    for token in tokens:
        try:
            ids.append(token.id if isinstance(token, Card) else Card.parse(token).id)  # type: ignore[arg-type]
        except CardError as error:
            raise EquityError(f"dead cards {dead!r}: {error}") from None
    return ids


def parse_spot(variant: str | Variant, hands: Sequence[object], dead: object = ()) -> Spot:
    """Check the hands and dead cards; every problem is an ``EquityError`` naming it."""
    try:
        game = Variant.parse(variant) if not isinstance(variant, Variant) else variant
    except RulesError as error:
        raise EquityError(str(error)) from None
    if isinstance(hands, str):
        raise EquityError(f"hands {hands!r}: give a list of hands, one string per player")
    hands = list(hands)
    if len(hands) < 2:
        raise EquityError(f"equity needs at least 2 hands, got {len(hands)}")
    if len(hands) > MAX_PLAYERS:
        raise EquityError(f"stud is for 2 to {MAX_PLAYERS} players, got {len(hands)} hands")
    where: dict[int, str] = {}

    def claim(card: int, place: str) -> None:
        if card in where:
            both = f"in {place}" if where[card] == place else \
                f"in {where[card]} and in {place}"
            raise EquityError(f"card {Card.from_id(card)} appears twice: {both}")
        where[card] = place

    known: list[tuple[int, ...]] = []
    for seat, text in enumerate(hands, 1):
        cards = _parse_hand(text, seat)
        if len(cards) > HAND_SIZE:
            raise EquityError(f"hand {seat} {text!r} has {len(cards)} cards; a stud hand has at "
                              f"most {HAND_SIZE}")
        ids = tuple(c for c in cards if c is not None)
        for card in ids:
            claim(card, f"hand {seat} {text!r}")
        known.append(ids)
    for card in _parse_dead(dead):
        claim(card, "the dead cards")
    unseen = tuple(c for c in range(52) if c not in where)
    needed = sum(HAND_SIZE - len(k) for k in known)
    if needed > len(unseen):
        raise EquityError(
            f"the deck runs out: the hands need {needed} more cards to reach seven each, but "
            f"only {len(unseen)} are unseen (a community card is not modelled)")
    return Spot(_MODES[game], tuple(known), unseen)


def format_hand(cards: Sequence[int | None]) -> str:
    return "".join("??" if c is None else str(Card.from_id(c)) for c in cards)


# --- sizes -----------------------------------------------------------------------------------


def _deal_count(sizes: Sequence[int], unseen: int) -> int:
    """Ways to give each player their number of cards from ``unseen`` cards (as sets)."""
    total, left = 1, unseen
    for k in sizes:
        total *= math.comb(left, k)
        left -= k
    return total


def _order(spot: Spot) -> list[int]:
    """Players in loop order: the one with most completions innermost, the next outermost."""
    by_size = sorted(range(len(spot.known)), key=lambda p: (-spot.missing[p], p))
    return by_size[1:] + by_size[:1]


def exact_steps(spot: Spot) -> int:
    """How many times exact enumeration's innermost loop runs: its cost."""
    order = _order(spot)
    outer = _deal_count([spot.missing[p] for p in order[:-1]], len(spot.unseen))
    return outer * math.comb(len(spot.unseen), spot.missing[order[-1]])


# --- kernels (compiled by numba on first use) ------------------------------------------------


def _settle(hi, lo, mode, weight, outcomes):  # noqa: ANN001, ANN202
    """One showdown of values ``hi[p]``, ``lo[p]``: adds ``weight`` to each player's outcome."""
    players = hi.shape[0]
    best_hi, n_hi, best_lo, n_lo = -1, 0, -1, 0
    if mode != RAZZ:
        for p in range(players):
            if hi[p] > best_hi:
                best_hi, n_hi = hi[p], 1
            elif hi[p] == best_hi:
                n_hi += 1
    else:
        n_hi = 0
    if mode != STUD:
        for p in range(players):
            if lo[p] > best_lo:
                best_lo, n_lo = lo[p], 1
            elif lo[p] == best_lo:
                n_lo += 1
        if best_lo < 0:
            n_lo = 0
    base = LOW_SEEN if n_lo else 0
    for p in range(players):
        code = base
        if hi[p] == best_hi:
            code += HIGH_STEP * n_hi
        if lo[p] == best_lo:
            code += n_lo
        outcomes[p, code] += weight


def _settle_rows(hi, lo, mode, outcomes):  # noqa: ANN001, ANN202
    for n in range(hi.shape[0]):
        _settle(hi[n], lo[n], mode, 1, outcomes)


def _deal(template, slots, deck, draws, out):  # noqa: ANN001, ANN202
    """Deal each row of ``draws`` (uniform 32-bit numbers) by a partial Fisher-Yates shuffle of
    ``deck``: the j-th card drawn fills flat position ``slots[j]`` of the row's hands. The deck
    is left as it was shuffled: a partial shuffle of any order of it deals uniformly."""
    size = deck.shape[0]
    for n in range(draws.shape[0]):
        for i in range(template.shape[0]):
            out[n, i] = template[i]
        for j in range(slots.shape[0]):
            r = j + ((np.int64(draws[n, j]) * (size - j)) >> 32)
            card = deck[r]
            deck[r] = deck[j]
            deck[j] = card
            out[n, slots[j]] = card


def _walk(masks, his, los, starts, ends, first, stop, mode, outcomes):  # noqa: ANN001, ANN202
    """Every combination of completions that share no card, the outermost player's completions
    limited to ``first..stop``. Completions of player p (in loop order) are rows
    ``starts[p]..ends[p]`` of ``masks`` (card sets), ``his`` and ``los`` (their values, with
    no low as -2 so that it loses even to the -1 of "no low yet")."""
    players = starts.shape[0]
    last = players - 1
    index = np.empty(players, np.int64)
    used = np.zeros(players, np.uint64)
    counts = np.zeros(9, np.int64)
    sample = np.zeros(9, np.int64)
    hi = np.empty(players, np.int64)
    lo = np.empty(players, np.int64)
    deals = 0
    level = 0
    index[0] = first - 1
    while level >= 0:
        index[level] += 1
        end = stop if level == 0 else ends[level]
        if index[level] >= end:
            level -= 1
            continue
        c = index[level]
        if masks[c] & used[level]:
            continue
        if level < last - 1:
            used[level + 1] = used[level] | masks[c]
            level += 1
            index[level] = starts[level] - 1
            continue
        taken = used[level] | masks[c]
        best_hi, best_lo = -1, -1
        for p in range(last):
            hi[p] = his[index[p]]
            lo[p] = los[index[p]]
            best_hi = max(best_hi, hi[p])
            best_lo = max(best_lo, lo[p])
        counts[:] = 0
        # The innermost player's completions fall into nine classes: better, equal or worse
        # than the best high of the others, times the same for the low. Each is settled once.
        for d in range(starts[last], ends[last]):
            if masks[d] & taken:
                continue
            v = his[d]
            w = los[d]
            k = 3 * ((v <= best_hi) + (v < best_hi)) + (w <= best_lo) + (w < best_lo)
            counts[k] += 1
            sample[k] = d
        for k in range(9):
            if counts[k]:
                hi[last] = his[sample[k]]
                lo[last] = los[sample[k]]
                _settle(hi, lo, mode, counts[k], outcomes)
                deals += counts[k]
    return deals


@cache
def _kernels() -> tuple[Callable[..., Any], Callable[..., Any], Callable[..., Any]]:
    import numba

    # The kernels call _settle by its global name; numba resolves it when it compiles them, so
    # the global must be the compiled function by then.
    globals()["_settle"] = numba.njit(cache=True)(_settle)
    return (numba.njit(cache=True)(_settle_rows), numba.njit(cache=True)(_deal),
            numba.njit(cache=True)(_walk))


@cache
def _evaluators(mode: int) -> tuple[Callable[[np.ndarray], np.ndarray] | None, ...]:
    """(high, low) batch evaluators of (N, 7) card arrays for the mode; None where unused."""
    from stud.evaluate import batch  # numba: imported only when equity is first computed

    if mode == STUD:
        return batch.high7, None
    if mode == STUD8:
        return batch.high7, batch.low8
    return None, batch.low_a5


def _values(mode: int, cards: np.ndarray, shape: tuple[int, ...]) -> tuple[np.ndarray, ...]:
    high, low = _evaluators(mode)
    zeros = np.zeros(shape, np.int64)
    hi = zeros if high is None else np.asarray(high(cards), np.int64).reshape(shape)
    lo = zeros if low is None else np.asarray(low(cards), np.int64).reshape(shape)
    return hi, lo


# --- work units (run in this process, a worker process, or a Ray task) -----------------------


def _sample_chunk(spot: Spot, index: int, size: int, entropy: int) -> np.ndarray:
    """Outcome counts (player, code) of ``size`` random deals, from the seed of chunk ``index``."""
    settle_rows, deal, _ = _kernels()
    players = len(spot.known)
    template = np.zeros(players * HAND_SIZE, np.uint8)
    slots: list[int] = []
    for p, known in enumerate(spot.known):
        template[p * HAND_SIZE:p * HAND_SIZE + len(known)] = known
        slots.extend(range(p * HAND_SIZE + len(known), (p + 1) * HAND_SIZE))
    seeds = np.random.SeedSequence(entropy, spawn_key=(index,))
    draws = np.random.PCG64(seeds).random_raw((size, (len(slots) + 1) // 2)).view(np.uint32)
    cards = np.empty((size, players * HAND_SIZE), np.uint8)
    deal(template, np.array(slots, np.int64), np.array(spot.unseen, np.uint8), draws, cards)
    hi, lo = _values(spot.mode, cards.reshape(size * players, HAND_SIZE), (size, players))
    outcomes = np.zeros((players, CODES), np.int64)
    settle_rows(hi, lo, spot.mode, outcomes)
    return outcomes


@lru_cache(maxsize=4)
def _completions(spot: Spot) -> tuple[np.ndarray, ...]:
    """Every completion of every player, in loop order, valued: (masks, his, los, starts, ends)."""
    unseen = np.array(spot.unseen, np.int64)
    masks, his, los, starts, ends = [], [], [], [], []
    at = 0
    for p in _order(spot):
        k = spot.missing[p]
        if k:
            picks = np.fromiter((i for combo in combinations(range(len(unseen)), k)
                                 for i in combo), np.int64).reshape(-1, k)
        else:
            picks = np.zeros((1, 0), np.int64)
        cards = np.empty((len(picks), HAND_SIZE), np.uint8)
        cards[:, :HAND_SIZE - k] = spot.known[p]
        cards[:, HAND_SIZE - k:] = unseen[picks]
        hi, lo = _values(spot.mode, cards, (len(picks),))
        bits = np.left_shift(np.uint64(1), unseen[picks].astype(np.uint64))
        masks.append(np.bitwise_or.reduce(bits, axis=1, initial=np.uint64(0)))
        his.append(hi)
        los.append(np.where(lo < 0, -2, lo))  # see _walk
        starts.append(at)
        at += len(picks)
        ends.append(at)
    return (np.concatenate(masks), np.concatenate(his), np.concatenate(los),
            np.array(starts, np.int64), np.array(ends, np.int64))


def _walk_piece(spot: Spot, first: int, stop: int) -> tuple[np.ndarray, int]:
    """Outcome counts (player, code) of every deal whose outermost completion is first..stop."""
    masks, his, los, starts, ends = _completions(spot)
    outcomes = np.zeros((len(spot.known), CODES), np.int64)
    deals = _kernels()[2](masks, his, los, starts, ends, first, stop, spot.mode, outcomes)
    seats = np.empty_like(outcomes)
    seats[_order(spot)] = outcomes  # rows back from loop order to seat order
    return seats, int(deals)


def _run_sample(args: tuple[Spot, list[tuple[int, int]], int]) -> tuple[np.ndarray, int]:
    spot, chunks, entropy = args
    outcomes = np.zeros((len(spot.known), CODES), np.int64)
    for index, size in chunks:
        outcomes += _sample_chunk(spot, index, size, entropy)
    return outcomes, sum(size for _, size in chunks)


def _run_walk(args: tuple[Spot, list[tuple[int, int]]]) -> tuple[np.ndarray, int]:
    spot, pieces = args
    outcomes = np.zeros((len(spot.known), CODES), np.int64)
    deals = 0
    for first, stop in pieces:
        piece, count = _walk_piece(spot, first, stop)
        outcomes += piece
        deals += count
    return outcomes, deals


def _spread(items: list[Any], slots: int) -> list[list[Any]]:
    """Items dealt round-robin into at most ``slots * 4`` groups (small tail, balanced load)."""
    groups = max(1, min(len(items), slots * 4))
    return [items[g::groups] for g in range(groups)]


def _ray() -> Any:
    """The ray module, connected to RAY_ADDRESS or a local Ray started here if none is up."""
    try:
        import ray
    except ImportError:
        raise EquityError("backend ray needs the ray package: pip install 'stud[ray]'") from None
    if not ray.is_initialized():
        address = os.environ.get("RAY_ADDRESS")
        try:
            ray.init(address=address)
        except Exception as error:  # noqa: BLE001 - whatever stops Ray, say so plainly
            where = f"at RAY_ADDRESS={address}" if address else "locally"
            raise EquityError(f"backend ray: cannot start Ray {where}: {error}") from None
    return ray


def _map(function: Callable[[Any], tuple[np.ndarray, int]], jobs: list[Any], workers: int,
         backend: str) -> list[tuple[np.ndarray, int]]:
    if backend == "ray":
        ray = _ray()
        remote = ray.remote(function)
        return ray.get([remote.remote(job) for job in jobs])
    if workers == 1 or len(jobs) == 1:
        return [function(job) for job in jobs]
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        return list(pool.map(function, jobs))


# --- the calculator --------------------------------------------------------------------------



def equity(variant: str | Variant, hands: Sequence[object], dead: object = (),
           trials: int | None = None, exact: bool = False, workers: int = 1,
           backend: str = "process", seed: int | None = None) -> EquityResult:
    """Each player's share of the pot, wins and ties per half, and scoops.

    ``hands`` are in dealing order with ``??`` for unknown cards; ``dead`` are cards out of play
    (folded hands, burns seen). Exact enumeration is used when it takes about a second or less
    (``exact_steps(spot) <= EXACT_AUTO_STEPS``), else ``DEFAULT_TRIALS`` Monte Carlo deals;
    ``exact=True`` forces enumeration and ``trials`` forces Monte Carlo with that many deals.
    ``workers`` processes (or Ray tasks with ``backend="ray"``) share the work; a ``seed`` gives
    the same numbers for any number of workers.
    """
    hands = hands if isinstance(hands, str) else list(hands)  # a str: parse_spot says why not
    spot = parse_spot(variant, hands, dead)
    if exact and trials is not None:
        raise EquityError("ask for exact enumeration or a number of trials, not both")
    if trials is not None and (not is_whole(trials) or trials < 1):
        raise EquityError(f"trials must be a whole number of deals >= 1, not {trials!r}")
    if not is_whole(workers) or workers < 1:
        raise EquityError(f"workers must be a whole number >= 1, not {workers!r}")
    if backend not in ("process", "ray"):
        raise EquityError(f"unknown backend {backend!r}: use process or ray")
    if seed is not None and not is_whole(seed):
        raise EquityError(f"seed must be a whole number, not {seed!r}")
    trials, workers = (None if trials is None else int(trials)), int(workers)
    seed = None if seed is None else int(seed)
    steps = exact_steps(spot)
    largest = max(math.comb(len(spot.unseen), k) for k in spot.missing)
    if exact and steps > EXACT_MAX_STEPS:
        raise EquityError(f"exact enumeration would take {steps:,} steps, about "
                          f"{_hours(steps):,.1f} hours, more than the limit of "
                          f"{EXACT_MAX_STEPS:,} steps (about {_hours(EXACT_MAX_STEPS):.1f} "
                          f"hours); use Monte Carlo (trials) here")
    if exact and largest > COMPLETIONS_MAX:
        raise EquityError(f"exact enumeration would value {largest:,} completions of one hand, "
                          f"more than memory allows; use Monte Carlo (trials) here")
    walk = exact or (trials is None and steps <= EXACT_AUTO_STEPS
                     and largest <= COMPLETIONS_MAX)
    slots = workers  # how many jobs may run at once: the work is cut into a few per slot
    if backend == "ray":
        slots = max(workers, int(_ray().cluster_resources().get("CPU", 1)))
    if walk:
        outer = _order(spot)[0]
        count = math.comb(len(spot.unseen), spot.missing[outer])
        bounds = np.linspace(0, count, min(count, EXACT_PIECES) + 1).astype(int).tolist()
        pieces = [(a, b) for a, b in zip(bounds, bounds[1:], strict=False) if b > a]
        jobs: list[Any] = [(spot, group) for group in _spread(pieces, slots)]
        results = _map(_run_walk, jobs, workers, backend)
    else:
        total = DEFAULT_TRIALS if trials is None else trials
        # A negative seed is a seed of its own (as in stud simulate and stud play), not its
        # absolute value's: NumPy's SeedSequence takes numbers >= 0, so it gets a 128-bit hash.
        entropy = (secrets.randbits(128) if seed is None else seed if seed >= 0 else
                   int.from_bytes(hashlib.blake2b(f"equity seed {seed}".encode(),
                                                  digest_size=16).digest()))
        chunks = [(i, min(CHUNK, total - start)) for i, start in enumerate(range(0, total, CHUNK))]
        jobs = [(spot, group, entropy) for group in _spread(chunks, slots)]
        results = _map(_run_sample, jobs, workers, backend)
    outcomes = sum((r[0] for r in results), np.zeros((len(spot.known), CODES), np.int64))
    deals = sum(r[1] for r in results)
    texts = [format_hand(_parse_hand(h, i)) for i, h in enumerate(hands, 1)]
    return _result(spot, texts, outcomes, deals, "exact" if walk else "monte-carlo")


def _hours(steps: int) -> float:
    """About how many hours exact enumeration of ``steps`` steps takes on one core."""
    return steps * STEP_SECONDS / 3600


def _code_table(mode: int) -> np.ndarray:
    """Per outcome code: pot units won, high won alone, high tied, low alone, low tied."""
    table = np.zeros((CODES, 5), np.int64)
    for code in range(CODES):
        n_hi, n_lo, low_seen = code % LOW_SEEN // HIGH_STEP, code % HIGH_STEP, code >= LOW_SEEN
        if mode == RAZZ:
            units = POT // n_lo if n_lo else 0
        else:
            units = ((HALF if low_seen else POT) // n_hi if n_hi else 0) + \
                (HALF // n_lo if n_lo else 0)
        table[code] = units, n_hi == 1, n_hi > 1, n_lo == 1, n_lo > 1
    return table


def _result(spot: Spot, texts: list[str], outcomes: np.ndarray, deals: int,
            method: str) -> EquityResult:
    table = _code_table(spot.mode)
    units = table[:, 0]
    players = []
    for p, text in enumerate(texts):
        counts = outcomes[p]
        share = int(counts @ units) / POT / deals
        stderr = 0.0
        if method == "monte-carlo" and deals > 1:
            mean_square = int(counts @ (units * units)) / POT**2 / deals
            stderr = math.sqrt(max(mean_square - share * share, 0.0) / (deals - 1))
        win_high, tie_high, win_low, tie_low = (int(counts @ table[:, k]) / deals
                                                for k in range(1, 5))
        scoop = int(counts @ (units == POT)) / deals
        players.append(PlayerEquity(text, share, win_high, tie_high, win_low, tie_low, scoop,
                                    stderr))
    return EquityResult(Variant(["stud", "stud8", "razz"][spot.mode]), method, deals,
                        tuple(players))
