"""Many hands of bots against bots, on many processes or a Ray cluster, reproducibly.

Every hand is a function of the seed and its number alone, so the results never depend on how
the hands were shared out:

- its deck and its bots' seeds are hashes of (seed, hand number, what for), not draws from
  one generator that would have to be passed from hand to hand;
- every seat starts every hand with ``buy_in`` big bets (no stacks carried over, so no hand
  waits for the one before it), and a hand's result is each entrant's net in chips;
- with ``rotate`` the entrants move one seat round the table every hand: entrant ``k`` (from 0)
  sits in seat ``(k + number - 1) % n + 1`` in hand ``number`` (from 1), so over any ``n``
  hands in a row each entrant has played every seat once.

Hands are played in chunks (a batch of consecutive hand numbers: the unit of scheduling and of
progress, nothing more) on one process, on ``workers`` processes, or as Ray tasks; the chunks'
results are put back in hand order. Results, and PHH files, are the same for every number of
workers, every chunk size and both backends.

>>> from stud.rules import Stakes, Variant, profile
>>> match = Match(Variant.RAZZ, Stakes(1, 2, 5, 10), profile("standard"), ("random", "station"))
>>> results = simulate(match, hands=20, progress=False)
>>> results.nets.shape, int(results.nets.sum())
((20, 2), 0)
"""

from __future__ import annotations

import hashlib
import json
import math
import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from statistics import NormalDist
from typing import Literal, TypeVar

import numpy as np

from stud.bots import make_bot
from stud.cards import Deck
from stud.engine import Hand
from stud.history.phh import dumps, from_hand
from stud.rules import Rules, Stakes, Variant

T = TypeVar("T")

Backend = Literal["process", "ray"]
BACKENDS: tuple[str, ...] = ("process", "ray")
Engine = Literal["auto", "fast", "reference"]
ENGINES: tuple[str, ...] = ("auto", "fast", "reference")
# The bots the batch engine plays as the reference path does, hand for hand (sim_fast).
FAST_BOTS: frozenset[str] = frozenset({"random", "station", "strength"})
FAST_CHUNK = 4_000  # hands per chunk on the batch engine, at most
# JSON files carry every hand's nets only up to this many hands; beyond it, running totals.
PER_HAND_LIMIT = 20_000
RUNNING_POINTS = 1_000
Z95 = NormalDist().inv_cdf(0.975)


class SimulationError(ValueError):
    """A simulation that cannot be run as asked: which setting and why."""


@dataclass(frozen=True, slots=True)
class Match:
    """Who plays what: the game, and the entrants (bot names), one per seat."""

    variant: Variant
    stakes: Stakes
    rules: Rules
    bots: tuple[str, ...]
    labels: tuple[str, ...] = ()
    buy_in: int = 50
    seed: int = 0
    rotate: bool = False

    def __post_init__(self) -> None:
        if not 2 <= len(self.bots) <= 8:
            raise SimulationError(f"stud is for 2 to 8 players, not {len(self.bots)}")
        if self.labels and len(self.labels) != len(self.bots):
            raise SimulationError(f"{len(self.labels)} labels for {len(self.bots)} bots")
        if self.buy_in < 1:
            raise SimulationError(f"buy_in {self.buy_in}: at least one big bet")

    @property
    def players(self) -> int:
        return len(self.bots)

    @property
    def names(self) -> tuple[str, ...]:
        """Each entrant's name: its label, or the bot's name (with its number if repeated)."""
        if self.labels:
            return self.labels
        return tuple(b if self.bots.count(b) == 1 else f"{b}-{k + 1}"
                     for k, b in enumerate(self.bots))

    def seating(self, number: int) -> tuple[int, ...]:
        """The entrant (from 0) in each seat, seat 1 first, for hand ``number`` (from 1)."""
        n = self.players
        return _rotation(n, (number - 1) % n if self.rotate else 0)


def derive_seed(seed: int, number: int, purpose: str) -> int:
    """A 63-bit seed for one purpose in one hand: the same in every process and Python."""
    digest = hashlib.blake2b(f"{seed}:{number}:{purpose}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def derive_seeds(seed: int, number: int, purposes: Sequence[str]) -> list[int]:
    """``derive_seed`` for several purposes of one hand at once (the same values, sooner)."""
    start = hashlib.blake2b(f"{seed}:{number}:".encode(), digest_size=8)
    seeds = []
    for purpose in purposes:
        digest = start.copy()
        digest.update(purpose.encode())
        seeds.append(int.from_bytes(digest.digest(), "big") >> 1)
    return seeds


@cache
def _rotation(players: int, shift: int) -> tuple[int, ...]:
    return tuple((s - shift) % players for s in range(players))


@cache
def _purposes(players: int) -> tuple[str, ...]:
    return ("deck", *(f"bot{entrant}" for entrant in range(players)))


def play_hand(match: Match, number: int) -> tuple[Hand, tuple[int, ...]]:
    """Hand ``number`` of the match, played out with fresh stacks; and the entrant in each
    seat. Each bot decides from its own seat's view."""
    seating = match.seating(number)
    deck_seed, *bot_seeds = derive_seeds(match.seed, number, _purposes(match.players))
    bots = [make_bot(match.bots[entrant], bot_seeds[entrant]) for entrant in seating]
    hand = Hand(match.variant, match.stakes, [match.buy_in * match.stakes.big_bet] * len(bots),
                match.rules, Deck.seeded(deck_seed))
    view = hand.view
    while not hand.is_over:
        actor = hand.actor
        assert actor is not None
        hand.act(bots[actor].act(view(actor + 1)))  # the player to act: the hand knows who
    return hand, seating


def phh_text(match: Match, number: int, hand: Hand, seating: tuple[int, ...]) -> str:
    return dumps(from_hand(hand, hand=number, _seed=match.seed,
                           players=[match.names[e] for e in seating]))


@dataclass(frozen=True, slots=True)
class Chunk:
    """Hands ``first`` to ``first + count - 1``: each entrant's net in each, and their PHH."""

    first: int
    nets: np.ndarray
    phh: tuple[str, ...] = ()
    cpu_seconds: float = 0.0  # of the process that played it


def play_chunk(match: Match, first: int, count: int, write_phh: bool = False) -> Chunk:
    started = time.process_time()
    texts: list[str] = []
    rows: list[list[int]] = []
    for row in range(count):
        number = first + row
        hand, seating = play_hand(match, number)
        net = [0] * match.players
        stacks, starting = hand.stacks, hand.starting_stacks
        for seat, entrant in enumerate(seating):
            net[entrant] = stacks[seat] - starting[seat]
        rows.append(net)
        if write_phh:
            texts.append(phh_text(match, number, hand, seating))
    nets = np.array(rows, dtype=np.int64).reshape(count, match.players)
    return Chunk(first, nets, tuple(texts), time.process_time() - started)


def chunk_size(hands: int, workers: int) -> int:
    """Hands per chunk: enough chunks to keep every worker busy and the progress bar moving,
    few enough that scheduling costs little. Results do not depend on it."""
    return max(1, min(500, math.ceil(hands / (workers * 8))))


MAX_HANDS = 100_000_000  # hands in one run: their results, 8 players, are 6.4 GB


def chunks(hands: int, size: int) -> list[tuple[int, int]]:
    """(first hand number, count) for each chunk, in order."""
    return [(first, min(size, hands - first + 1)) for first in range(1, hands + 1, size)]


@dataclass(frozen=True, slots=True)
class Standing:
    """An entrant's result: net chips, and big bets per 100 hands with a 95% interval."""

    name: str
    bot: str
    hands: int
    net: int
    bb_per_100: float
    se: float  # standard error of bb_per_100; nan with fewer than two hands

    @property
    def ci95(self) -> tuple[float, float]:
        half = Z95 * self.se
        return self.bb_per_100 - half, self.bb_per_100 + half


def bb_per_100(nets: np.ndarray, big_bet: int) -> tuple[float, float]:
    """Mean result in big bets per 100 hands, and its standard error (sample standard
    deviation over hands, over the square root of the number of hands)."""
    per_hand = np.asarray(nets, dtype=np.float64) / big_bet * 100
    n = len(per_hand)
    if n == 0:
        return math.nan, math.nan
    # From the integer total: a net of 0 is exactly 0.0 (a float mean may be -1e-17, "-0.0").
    mean = float(np.asarray(nets).sum()) / big_bet * 100 / n
    se = float(per_hand.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
    return mean, se


@dataclass(slots=True)
class Results:
    """``nets[h, k]``: entrant ``k``'s net in chips in hand ``h + 1``."""

    match: Match
    nets: np.ndarray
    seconds: float
    workers: int = 1
    backend: str = "process"
    cpu_seconds: float = 0.0  # the workers' processor time, all together

    @property
    def hands(self) -> int:
        return len(self.nets)

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds if self.seconds > 0 else math.inf

    def standings(self) -> list[Standing]:
        """Every entrant in seating order."""
        out = []
        for k, name in enumerate(self.match.names):
            mean, se = bb_per_100(self.nets[:, k], self.match.stakes.big_bet)
            out.append(Standing(name, self.match.bots[k], self.hands, int(self.nets[:, k].sum()),
                                mean, se))
        return out

    def running(self, points: int = RUNNING_POINTS) -> tuple[np.ndarray, np.ndarray]:
        """Hand numbers and each entrant's total net in chips after them (at most ``points``
        of them, evenly spaced, the last hand always included)."""
        totals = np.cumsum(self.nets, axis=0)
        at = np.unique(np.linspace(1, self.hands, min(points, self.hands)).round().astype(int))
        return at, totals[at - 1]

    def running_bb_per_100(self, at: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each entrant's big bets per 100 hands, and its standard error, after each number
        of hands in ``at`` (rows) — what ``bb_per_100`` gives for the hands so far."""
        per_hand = self.nets / self.match.stakes.big_bet * 100
        played = at[:, None].astype(np.float64)
        means = np.cumsum(per_hand, axis=0)[at - 1] / played
        squares = np.cumsum(per_hand ** 2, axis=0)[at - 1] / played
        with np.errstate(invalid="ignore", divide="ignore"):
            variance = (squares - means ** 2) * played / (played - 1)
            se = np.sqrt(np.clip(variance, 0, None) / played)
        return means, se

    def to_json(self) -> dict[str, object]:
        match = self.match
        at, totals = self.running()
        document: dict[str, object] = {
            "variant": str(match.variant),
            "rules": match.rules.name,
            "stakes": [match.stakes.ante, match.stakes.bring_in, match.stakes.small_bet,
                       match.stakes.big_bet],
            "buy_in_big_bets": match.buy_in,
            "seed": match.seed,
            "hands": self.hands,
            "players": match.players,
            "rotate": match.rotate,
            "seating": ("entrant k (from 0) sits in seat (k + hand - 1) % players + 1"
                        if match.rotate else "entrant k (from 0) sits in seat k + 1"),
            "seconds": round(self.seconds, 3),
            "hands_per_second": round(self.hands_per_second, 1),
            "cpu_seconds": round(self.cpu_seconds, 3),
            "workers": self.workers,
            "backend": self.backend,
            "standings": [{"name": s.name, "bot": s.bot, "hands": s.hands, "net_chips": s.net,
                           "bb_per_100": _number(s.bb_per_100), "se_bb_per_100": _number(s.se),
                           "ci95_bb_per_100": [_number(v) for v in s.ci95]}
                          for s in self.standings()],
            "running": {"hands": at.tolist(), "net_chips": totals.T.tolist()},
        }
        if self.hands <= PER_HAND_LIMIT:
            document["per_hand_net_chips"] = self.nets.T.tolist()
        return document

    def json_text(self, **fields: object) -> str:
        """``to_json`` with ``fields`` first, one field a line (long lists stay on theirs)."""
        document = {**fields, **self.to_json()}
        return "{\n" + ",\n".join(f" {json.dumps(k)}: {json.dumps(v)}"
                                   for k, v in document.items()) + "\n}\n"


def _number(value: float) -> float | None:
    return None if math.isnan(value) else round(value, 4)


def choose_engine(match: Match, engine: str, phh_out: bool = False) -> str:
    """"fast" or "reference": the engine that plays ``match`` when ``engine`` is asked for.

    ``auto`` is the batch engine where every bot has a fast form (``FAST_BOTS``) and the rules
    are ones it plays, else the reference engine; ``fast`` where it cannot be is an error
    saying why. Both write the same PHH (``phh_out`` is kept for callers; it changes
    nothing)."""
    if engine not in ENGINES:
        raise SimulationError(f"engine {engine!r}: choose from {', '.join(ENGINES)}")
    if engine == "reference":
        return engine
    slow = next((bot for bot in match.bots if bot not in FAST_BOTS), None)
    why = None
    if slow is not None:
        why = (f"the {slow!r} bot has no fast form (only {', '.join(sorted(FAST_BOTS))} "
               f"do); use --engine reference")
    else:
        from stud.fast.game import NotImplementedPolicy, game_vector

        try:
            game_vector(match.variant, match.stakes, match.rules, match.players)
        except NotImplementedPolicy as error:
            why = f"{error}; use --engine reference"
    if why is None:
        return "fast"
    if engine == "fast":
        raise SimulationError(f"the fast engine cannot play this match: {why}")
    return "reference"


def simulate(match: Match, hands: int, workers: int = 1, backend: Backend = "process",
             phh_out: Path | None = None, progress: bool = True,
             size: int | None = None, engine: Engine = "reference") -> Results:
    """Play ``hands`` hands of ``match``; write each as ``phh_out/NUMBER.phh`` if asked.

    The process backend runs the chunks in this process (one worker) or on a pool of
    ``workers`` processes. The Ray backend joins the cluster at ``RAY_ADDRESS`` (or starts a
    local Ray, or uses one already started) and runs every chunk as a task: Ray runs as many
    at once as the cluster has CPUs, and ``workers`` only sizes the chunks; stud must be
    installed on every node. PHH files are written here, by this process, in either case.

    ``engine`` (``choose_engine``): "fast" plays the hands on the compiled batch engine
    (``sim_fast``), the same hands with the same nets as the reference engine's.

    ``progress`` shows a bar on standard error when it is a terminal. ``size`` (hands per
    chunk) is for tests; it changes nothing in the results.
    """
    if hands < 1:
        raise SimulationError(f"hands {hands}: play at least one hand")
    if hands > MAX_HANDS:  # every hand's result is kept, a row of int64 a hand
        raise SimulationError(f"hands {hands}: at most {MAX_HANDS:,} in one run (every "
                              f"hand's result is kept); run more with other seeds")
    if workers < 1:
        raise SimulationError(f"workers {workers}: at least one")
    if backend not in BACKENDS:
        raise SimulationError(f"backend {backend!r}: choose from {', '.join(BACKENDS)}")
    fast = choose_engine(match, engine, phh_out is not None) == "fast"
    if phh_out is not None:
        phh_out.mkdir(parents=True, exist_ok=True)
    plan = chunks(hands, size or (fast_chunk_size(hands, workers) if fast
                                  else chunk_size(hands, workers)))
    nets = np.zeros((hands, match.players), dtype=np.int64)
    if fast and backend == "process":  # its kernels loaded (or compiled) before the clock runs
        _load_fast_engine(progress)
    bar = _progress_bar(hands, progress)
    cpu_seconds = 0.0
    started = time.perf_counter()
    run = _run_ray if backend == "ray" else _run_processes
    try:
        for chunk in run(match, plan, workers, phh_out is not None, fast):
            nets[chunk.first - 1:chunk.first - 1 + len(chunk.nets)] = chunk.nets
            if phh_out is not None:
                for number, text in enumerate(chunk.phh, start=chunk.first):
                    (phh_out / f"{number}.phh").write_text(text, encoding="utf-8")
            cpu_seconds += chunk.cpu_seconds
            bar(len(chunk.nets))
    finally:
        bar(0, close=True)
    return Results(match, nets, time.perf_counter() - started, workers, backend, cpu_seconds)


def fast_chunk_size(hands: int, workers: int) -> int:
    """Hands per chunk on the batch engine: a few chunks a worker, each a large batch."""
    return max(1, min(FAST_CHUNK, math.ceil(hands / (workers * 4))))


def _job(fast: bool) -> tuple[Callable[..., Chunk], str]:
    if not fast:
        return play_chunk, __name__
    from stud.sim_fast import play_chunk_fast

    return play_chunk_fast, "stud.sim_fast_workers"  # imported with its kernels loaded


def _load_fast_engine(progress: bool) -> None:
    """The fast engine's kernels, loaded from numba's cache or, the first time, compiled: not
    counted in the run's speed, and said on standard error when it took long (a compile)."""
    from stud.sim_fast import warm

    began = time.perf_counter()
    warm()
    took = time.perf_counter() - began
    if progress and took > 3:
        print(f"compiled the fast engine in {took:.0f} s (once: later runs load it from "
              f"numba's cache; not counted in the speed below)", file=sys.stderr)


def _run_processes(match: Match, plan: list[tuple[int, int]], workers: int,
                   write_phh: bool, fast: bool) -> Iterator[Chunk]:
    job, preload = _job(fast)
    return in_processes(job, [(match, first, count, write_phh) for first, count in plan],
                        workers, preload)


def in_processes(job: Callable[..., T], calls: Sequence[tuple[object, ...]], workers: int,
                 preload: str) -> Iterator[T]:
    """``job(*call)`` for each call, on up to ``workers`` processes (here when one), as they
    finish. Workers fork from a clean, single-threaded server that has imported ``preload``
    once: safe whatever threads this process holds (progress bar, Ray), and quick after the
    first."""
    if workers == 1 or len(calls) == 1:
        for call in calls:
            yield job(*call)
        return
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([preload])
    with ProcessPoolExecutor(max_workers=min(workers, len(calls)), mp_context=context) as pool:
        futures = [pool.submit(job, *call) for call in calls]
        try:
            for future in as_completed(futures):
                yield future.result()
        except BaseException:
            for future in futures:
                future.cancel()
            raise


def _run_ray(match: Match, plan: list[tuple[int, int]], workers: int,
             write_phh: bool, fast: bool) -> Iterator[Chunk]:
    try:
        import ray
    except ImportError:
        raise SimulationError("the ray backend needs Ray: pip install 'stud[ray]'") from None
    started_here = not ray.is_initialized()
    if started_here:
        address = os.environ.get("RAY_ADDRESS")
        try:
            ray.init(address=address, log_to_driver=False)
        except Exception as error:  # noqa: BLE001 - Ray raises many kinds; say which failed
            where = f"the Ray cluster at {address}" if address else "a local Ray"
            raise SimulationError(f"cannot start or reach {where}: {error}") from None
    try:
        job, _ = _job(fast)
        task = ray.remote(num_cpus=1)(job)
        shared = ray.put(match)
        pending = [task.remote(shared, first, count, write_phh) for first, count in plan]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield ray.get(done[0])
    finally:
        if started_here:
            ray.shutdown()


def _progress_bar(total: int, wanted: bool) -> Callable[..., None]:
    """A function that advances a tqdm bar on standard error (or does nothing)."""
    if not wanted or not sys.stderr.isatty():
        return lambda step, close=False: None
    from tqdm import tqdm

    bar = tqdm(total=total, unit="hand", file=sys.stderr, leave=False)

    def advance(step: int, close: bool = False) -> None:
        bar.update(step)
        if close:
            bar.close()

    return advance


def plot_running(results: Results, path: Path) -> None:
    """A PNG of the running results: each entrant's net in big bets, and its big bets per 100
    hands with the 95% interval, against hands played."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    big_bet = results.match.stakes.big_bet
    at, totals = results.running()
    means, se = results.running_bb_per_100(at)
    figure, (top, bottom) = plt.subplots(2, 1, figsize=(9, 7), sharex=True)
    for k, name in enumerate(results.match.names):
        line, = top.plot(at, totals[:, k] / big_bet, label=name, linewidth=1.2)
        mean, band = means[:, k], Z95 * se[:, k]
        bottom.plot(at, mean, color=line.get_color(), linewidth=1.2)
        bottom.fill_between(at, mean - band, mean + band, color=line.get_color(), alpha=0.15)
    top.axhline(0, color="grey", linewidth=0.6)
    bottom.axhline(0, color="grey", linewidth=0.6)
    # The first hands' wide intervals would flatten the rest: scale to the last 90%.
    settled = at > results.hands // 10
    if settled.sum() > 1:
        band = Z95 * np.nan_to_num(se[settled])
        low, high = float((means[settled] - band).min()), float((means[settled] + band).max())
        margin = 0.05 * (high - low) or 1.0
        bottom.set_ylim(low - margin, high + margin)
    top.set_ylabel("net (big bets)")
    bottom.set_ylabel("big bets per 100 hands (95% CI)")
    bottom.set_xlabel("hands")
    match = results.match
    top.set_title(f"{match.variant.full_name} ({match.rules.name} rules), {results.hands} hands, "
                  f"seed {match.seed}")
    top.legend(loc="upper left", fontsize="small")
    figure.tight_layout()
    figure.savefig(path, format="png", dpi=100)
    plt.close(figure)


__all__ = ["BACKENDS", "ENGINES", "FAST_BOTS", "Chunk", "Match", "Results", "SimulationError",
           "Standing", "bb_per_100", "choose_engine", "chunks", "derive_seed", "derive_seeds",
           "play_chunk", "play_hand", "plot_running", "simulate"]
