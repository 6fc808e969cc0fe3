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
import os
import sys
import time
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from statistics import NormalDist
from typing import Literal

import numpy as np

from stud.bots import BOTS, make_bot
from stud.cards import Deck
from stud.engine import Hand
from stud.history.phh import dumps, from_hand
from stud.rules import Rules, Stakes, Variant
from stud.sim_runners import Interrupted, Pool, RayTasks, in_order, since

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
    unknown = next((bot for bot in match.bots if bot not in BOTS), None)
    if unknown is not None:  # known where the run started (simulate checks), not here
        raise SimulationError(
            f"unknown bot {unknown!r} in a worker process: register a bot of your own in "
            f"stud.bots.BOTS when a module the workers import is imported (at the top level of "
            f"your script or of a module it imports, not inside a function or under `if "
            f"__name__ == \"__main__\":`), or run on one worker")
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
    few enough that scheduling costs little, small enough that Ctrl-C throws away little (the
    hands of the chunks not finished: a few seconds of the slowest bots). Results do not
    depend on it."""
    return max(1, min(200, math.ceil(hands / (workers * 8))))


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
    hands_asked: int | None = None  # more than ``hands`` when the run was interrupted

    @property
    def hands(self) -> int:
        return len(self.nets)

    @property
    def partial(self) -> bool:
        """Whether the run stopped (Ctrl-C) before every hand asked for was played."""
        return self.hands_asked is not None and self.hands < self.hands_asked

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
            "hands_asked": self.hands if self.hands_asked is None else self.hands_asked,
            "partial": self.partial,  # interrupted: the results of hands 1 to "hands"
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
    installed on every node. PHH files are written here, by this process, in either case,
    each whole or not at all (``write_atomically``), in hand order.

    ``engine`` (``choose_engine``): "fast" plays the hands on the compiled batch engine
    (``sim_fast``), the same hands with the same nets as the reference engine's.

    The clock (``Results.seconds``) starts once the workers are up and have played the
    match's first hands unseen, so what is loaded or compiled on first use is not counted.

    Ctrl-C (``KeyboardInterrupt``) stops the run at once (no chunk is waited for) and raises
    ``Interrupted``, whose ``results`` are those of hands 1 to N (the chunks are taken back in
    hand order): with ``phh_out``, exactly the hands whose files are written.

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
    unknown = next((bot for bot in match.bots if bot not in BOTS), None)
    if unknown is not None:
        raise SimulationError(f"unknown bot {unknown!r}: choose from {', '.join(BOTS)}, or "
                              f"register yours in stud.bots.BOTS")
    fast = choose_engine(match, engine, phh_out is not None) == "fast"
    write_phh = phh_out is not None
    if phh_out is not None:
        phh_out.mkdir(parents=True, exist_ok=True)
    plan = chunks(hands, size or (fast_chunk_size(hands, workers) if fast
                                  else chunk_size(hands, workers)))
    job, preload, warm_up = _job(fast)
    processes = min(workers, len(plan))
    runner: Pool | RayTasks = (RayTasks() if backend == "ray" else
                               Pool(processes, preload, warm_up, (match, write_phh)))
    calls = [(match, first, count, write_phh) for first, count in plan]
    nets = np.zeros((hands, match.players), dtype=np.int64)
    played, cpu_seconds, started = 0, 0.0, math.nan
    writing_to = 0  # the last hand of the chunk whose files are being written
    bar = _progress_bar(0, False)
    try:
        if fast:  # compiled (or loaded) here, once, before any worker loads it from the cache
            _warm_fast_engine(match, write_phh, progress)
        elif backend == "process" and processes == 1:
            warm_up(match, write_phh)
        with runner:
            bar = _progress_bar(hands, progress)
            started = time.perf_counter()
            for chunk in in_order(runner.run(job, calls), plan):
                nets[played:played + len(chunk.nets)] = chunk.nets
                if phh_out is not None:  # a hand counts once its file is written
                    writing_to = chunk.first + len(chunk.nets) - 1
                    for number, text in enumerate(chunk.phh, start=chunk.first):
                        write_atomically(phh_out / f"{number}.phh", text)
                        played = number
                played = chunk.first + len(chunk.nets) - 1
                cpu_seconds += chunk.cpu_seconds
                bar(len(chunk.nets))
    except KeyboardInterrupt:
        if phh_out is not None:  # a file renamed into place just before ``played`` was set
            while played < writing_to and (phh_out / f"{played + 1}.phh").exists():
                played += 1
        raise Interrupted(Results(match, nets[:played].copy(), since(started), workers,
                                  backend, cpu_seconds, hands)) from None
    finally:
        bar(0, close=True)
    return Results(match, nets, since(started), workers, backend, cpu_seconds, hands)


def write_atomically(path: Path, text: str) -> None:
    """``path`` holding ``text``: written beside it under a name no reader takes for a hand
    history, then renamed over it, so that an interrupt leaves the whole file or none."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def fast_chunk_size(hands: int, workers: int) -> int:
    """Hands per chunk on the batch engine: a few chunks a worker, each a large batch."""
    return max(1, min(FAST_CHUNK, math.ceil(hands / (workers * 4))))


def _job(fast: bool) -> tuple[Callable[..., Chunk], str, Callable[[Match, bool], None]]:
    """What plays a chunk, the module the workers' server imports first, and what warms a
    worker up for a match."""
    if not fast:
        return play_chunk, __name__, warm_reference
    from stud.sim_fast import play_chunk_fast, warm

    return play_chunk_fast, "stud.sim_fast_workers", warm  # imported with its kernels loaded


def warm_reference(match: Match, write_phh: bool = False) -> None:
    """Play the match's first hand unseen: its bots' modules imported (and what they compile
    on first use compiled), and in a worker, its bots known there (``play_chunk``)."""
    play_chunk(match, 1, 1, write_phh)


def _warm_fast_engine(match: Match, write_phh: bool, progress: bool) -> None:
    """The fast engine's kernels for ``match``, loaded from numba's cache or, the first time,
    compiled: not counted in the run's speed. With ``progress``, a compile is said on standard
    error while it runs (``CompileNotice``), and a load from the cache that took long too."""
    from numba.core import event

    from stud.fast.compiling import CompileNotice
    from stud.sim_fast import warm

    began = time.perf_counter()
    with event.install_recorder("numba:compile") as compiles, \
            CompileNotice("not counted in the speed below") if progress else nullcontext():
        warm(match, write_phh)
    took = time.perf_counter() - began
    if progress and not compiles.buffer and took > 3:
        print(f"loaded the fast engine from numba's cache in {took:.0f} s (not counted in the "
              f"speed below)", file=sys.stderr)


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
    marker = "o" if len(at) == 1 else None  # one hand: a point, where a line would be nothing
    for k, name in enumerate(results.match.names):
        line, = top.plot(at, totals[:, k] / big_bet, label=name, linewidth=1.2, marker=marker)
        mean, band = means[:, k], Z95 * se[:, k]
        bottom.plot(at, mean, color=line.get_color(), linewidth=1.2, marker=marker)
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
    if marker:
        bottom.set_xticks(at)  # "1", not 0.96 to 1.04
    top.set_ylabel("net (big bets)")
    bottom.set_ylabel("big bets per 100 hands (95% CI)")
    bottom.set_xlabel("hands")
    match = results.match
    hands = f"{results.hands} hand{'' if results.hands == 1 else 's'}"
    top.set_title(f"{match.variant.full_name} ({match.rules.name} rules), {hands}, "
                  f"seed {match.seed}")
    top.legend(loc="upper left", fontsize="small")
    figure.tight_layout()
    figure.savefig(path, format="png", dpi=100)
    plt.close(figure)


__all__ = ["BACKENDS", "ENGINES", "FAST_BOTS", "Chunk", "Interrupted", "Match", "Results",
           "SimulationError", "Standing", "bb_per_100", "choose_engine", "chunks", "derive_seed",
           "derive_seeds", "play_chunk", "play_hand", "plot_running", "simulate",
           "write_atomically"]
