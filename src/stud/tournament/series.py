"""Many sit-and-gos among bots, on one process or several: each bot's average finish and its
return on the buy-in, with 95% intervals.

Run ``k`` (from 1) is the sit-and-go of seed ``seed + k - 1`` (so any run can be played again
alone), with the entrants moved ``k - 1`` seats round the table: entrant ``e`` (from 0) sits in
seat ``(e + k - 1) % players + 1``, so over any ``players`` runs in a row each entrant has had
every seat once. The results do not depend on the number of workers.

A bot's result in a run is the mean over its entrants (all its seats at that table), so runs
are the independent samples: the interval is the mean over runs plus or minus 1.96 standard
errors (``stud.sim``'s). A finish shared by a tie counts as the mean of the places it covers.

>>> from stud.tournament import sit_and_go
>>> series = Series(sit_and_go("stud", players=3), ("random", "station", "station"), seed=5)
>>> results = run_series(series, runs=4)
>>> [(s.bot, s.seats) for s in results.standings()]
[('random', 1), ('station', 2)]
>>> sum(s.average_finish * s.seats for s in results.standings())  # 1 + 2 + 3 every run
6.0
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from stud.sim import Z95, bb_per_100, chunks
from stud.sim_runners import Interrupted, Pool, in_order, since
from stud.tournament.sitandgo import SitAndGo, Tournament, TournamentError


@dataclass(frozen=True, slots=True)
class Series:
    """Runs of ``tournament`` among ``bots`` (entrant ``e``'s bot is ``bots[e]``)."""

    tournament: Tournament
    bots: tuple[str, ...]
    seed: int = 0

    def __post_init__(self) -> None:
        if len(self.bots) != self.tournament.players:
            raise TournamentError(f"{len(self.bots)} bots for a sit-and-go of "
                                  f"{self.tournament.players} players")

    def seating(self, run: int) -> tuple[int, ...]:
        """The entrant (from 0) in each seat, seat 1 first, in run ``run`` (from 1)."""
        n = self.tournament.players
        shift = (run - 1) % n
        return tuple((seat - shift) % n for seat in range(n))


@dataclass(frozen=True, slots=True)
class Runs:
    """Runs ``first`` to ``first + len(hands) - 1``: each entrant's finish and prize in each
    (rows are runs, columns entrants), and the hands each run took."""

    first: int
    finishes: np.ndarray
    prizes: np.ndarray
    hands: np.ndarray
    cpu_seconds: float = 0.0


def play_runs(series: Series, first: int, count: int) -> Runs:
    started = time.process_time()
    n = series.tournament.players
    finishes = np.zeros((count, n), dtype=np.float64)
    prizes = np.zeros((count, n), dtype=np.int64)
    hands = np.zeros(count, dtype=np.int64)
    for row in range(count):
        run = first + row
        seating = series.seating(run)
        outcome = SitAndGo.with_bots(series.tournament, [series.bots[e] for e in seating],
                                     series.seed + run - 1).play()
        for placing in outcome.placings:
            entrant = seating[placing.seat - 1]
            finishes[row, entrant] = placing.average_place
            prizes[row, entrant] = placing.prize
        hands[row] = outcome.hands
    return Runs(first, finishes, prizes, hands, time.process_time() - started)


@dataclass(frozen=True, slots=True)
class BotStanding:
    """One bot's results over the runs: its seats at the table, average finish and return on
    the buy-in (percent; -100 for a run it won nothing), each with a standard error."""

    bot: str
    seats: int
    runs: int
    wins: int
    average_finish: float
    finish_se: float
    roi: float
    roi_se: float

    @property
    def finish_ci95(self) -> tuple[float, float]:
        return _interval(self.average_finish, self.finish_se)

    @property
    def roi_ci95(self) -> tuple[float, float]:
        return _interval(self.roi, self.roi_se)


def _interval(mean: float, se: float) -> tuple[float, float]:
    return mean - Z95 * se, mean + Z95 * se


@dataclass(frozen=True, slots=True)
class SeriesResults:
    series: Series
    finishes: np.ndarray
    prizes: np.ndarray
    hands: np.ndarray
    seconds: float
    workers: int = 1
    cpu_seconds: float = 0.0
    runs_asked: int | None = None  # more than ``runs`` when the series was interrupted

    @property
    def runs(self) -> int:
        return len(self.hands)

    @property
    def partial(self) -> bool:
        """Whether the series stopped (Ctrl-C) before every run asked for was played."""
        return self.runs_asked is not None and self.runs < self.runs_asked

    @property
    def tournaments_per_second(self) -> float:
        return self.runs / self.seconds if self.seconds > 0 else math.inf

    def standings(self) -> list[BotStanding]:
        """Every bot, in the order first named."""
        bots = self.series.bots
        buy_in = self.series.tournament.buy_in
        out = []
        for bot in dict.fromkeys(bots):
            columns = [e for e, name in enumerate(bots) if name == bot]
            finish = self.finishes[:, columns].mean(axis=1)
            net = (self.prizes[:, columns] - buy_in).mean(axis=1)
            # sim's mean and standard error over hands: of finishes with a "big bet" of 100
            # (the plain mean), of the nets in buy-ins per 100 (the return in percent).
            mean_finish, finish_se = bb_per_100(finish, 100)
            roi, roi_se = bb_per_100(net, buy_in)
            wins = int((self.finishes[:, columns] == 1.0).sum())
            out.append(BotStanding(bot, len(columns), self.runs, wins, mean_finish, finish_se,
                                   roi, roi_se))
        return out

    def to_json(self) -> dict[str, object]:
        t = self.series.tournament
        return {
            "variant": t.game.name, "buy_in": t.buy_in, "prize_pool": t.prize_pool,
            "players": t.players, "structure": t.structure.name, "seed": self.series.seed,
            "runs": self.runs,
            "runs_asked": self.runs if self.runs_asked is None else self.runs_asked,
            "partial": self.partial, "hands": int(self.hands.sum()),
            "seconds": round(self.seconds, 3),
            "tournaments_per_second": round(self.tournaments_per_second, 1),
            "workers": self.workers,
            "bots": [{"bot": s.bot, "seats": s.seats, "wins": s.wins,
                      "average_finish": _number(s.average_finish),
                      "ci95_finish": [_number(v) for v in s.finish_ci95],
                      "roi_percent": _number(s.roi),
                      "ci95_roi_percent": [_number(v) for v in s.roi_ci95]}
                     for s in self.standings()],
        }


def _number(value: float) -> float | None:
    return None if math.isnan(value) else round(value, 4)


def run_series(series: Series, runs: int, workers: int = 1, size: int | None = None
               ) -> SeriesResults:
    """Play ``runs`` sit-and-gos of ``series`` on ``workers`` processes (``size`` runs a
    chunk: for tests; the results do not depend on it).

    The clock starts once the workers are up. Ctrl-C stops the series at once and raises
    ``stud.sim_runners.Interrupted`` with the results of runs 1 to N (``SeriesResults.partial``)."""
    if runs < 1:
        raise TournamentError(f"runs {runs}: play at least one")
    if workers < 1:
        raise TournamentError(f"workers {workers}: at least one")
    plan = chunks(runs, size or runs_per_chunk(runs, workers))
    n = series.tournament.players
    finishes = np.zeros((runs, n), dtype=np.float64)
    prizes = np.zeros((runs, n), dtype=np.int64)
    hands = np.zeros(runs, dtype=np.int64)
    played, cpu_seconds, started = 0, 0.0, math.nan
    calls = [(series, first, count) for first, count in plan]
    try:
        with Pool(min(workers, len(plan)), __name__) as pool:
            started = time.perf_counter()
            for part in in_order(pool.run(play_runs, calls), plan):
                rows = slice(played, played + len(part.hands))
                finishes[rows], prizes[rows], hands[rows] = part.finishes, part.prizes, part.hands
                played += len(part.hands)
                cpu_seconds += part.cpu_seconds
    except KeyboardInterrupt:
        raise Interrupted(SeriesResults(series, finishes[:played].copy(),
                                        prizes[:played].copy(), hands[:played].copy(),
                                        since(started), workers, cpu_seconds, runs)) from None
    return SeriesResults(series, finishes, prizes, hands, since(started), workers, cpu_seconds,
                         runs)


def runs_per_chunk(runs: int, workers: int) -> int:
    """Runs per chunk: a sit-and-go is some hundred hands, so a few dozen at most, that Ctrl-C
    throws away little (the runs of chunks not finished) and every worker stays busy."""
    return max(1, min(25, math.ceil(runs / (workers * 8))))


__all__ = ["BotStanding", "Runs", "Series", "SeriesResults", "play_runs", "run_series"]
