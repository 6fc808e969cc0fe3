"""How a simulation's jobs run: on worker processes (``Pool``) or on a Ray cluster
(``RayTasks``), taken back in the plan's order (``in_order``), and what Ctrl-C leaves
(``Interrupted``): the runners of ``stud.sim.simulate`` and of ``tournament --runs``
(``stud.tournament.series``)."""

from __future__ import annotations

import math
import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Generic, Protocol, TypeVar

T = TypeVar("T")


def since(started: float) -> float:
    """Seconds since ``started`` (a ``perf_counter`` reading), or 0 for NaN (not started)."""
    return 0.0 if math.isnan(started) else time.perf_counter() - started


R = TypeVar("R")


class Interrupted(KeyboardInterrupt, Generic[R]):
    """Ctrl-C stopped a run: ``results`` are those of what it had played, from the first hand
    (or run) on, with nothing missing (``Results.partial``). A ``KeyboardInterrupt``, so that a
    caller that does not look for it stops as before."""

    def __init__(self, results: R) -> None:
        super().__init__()
        self.results = results


class Numbered(Protocol):
    @property
    def first(self) -> int: ...


N = TypeVar("N", bound=Numbered)


def in_order(parts: Iterable[N], plan: Sequence[tuple[int, int]]) -> Iterator[N]:
    """``parts`` (as they finish, in any order) in the plan's order, each as soon as every part
    before it has come: what has been taken at any moment runs from the first without a gap."""
    waiting: dict[int, N] = {}
    firsts = iter([first for first, _ in plan])
    wanted = next(firsts, None)
    for part in parts:
        waiting[part.first] = part
        while wanted in waiting:
            yield waiting.pop(wanted)
            wanted = next(firsts, None)


_BARRIER: Any = None  # in a worker: where its warm-up waits for the others' (Pool)


def _start_worker(barrier: Any) -> None:
    """A worker leaves Ctrl-C to the process that started it (which stops it at once, with
    no traceback from here), and keeps the barrier its warm-up waits at."""
    global _BARRIER
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _BARRIER = barrier


def _warm_worker(warm_up: Callable[..., object] | None, args: tuple[object, ...]) -> None:
    try:
        if warm_up is not None:
            warm_up(*args)
    finally:  # each worker takes one warm-up: none is free before every one has started
        _BARRIER.wait()


class Pool:
    """Jobs on ``workers`` processes (in this process when one), forked from a clean,
    single-threaded server that has imported ``preload`` once: safe whatever threads this
    process holds (progress bar, Ray), and quick after the first.

    Entering starts the workers and has each call ``warm_up(*args)`` (what the jobs will load
    on first use), so that a clock started then counts only the jobs. Leaving on an exception
    (Ctrl-C) cancels the jobs not started and ends the workers at once."""

    def __init__(self, workers: int, preload: str,
                 warm_up: Callable[..., object] | None = None,
                 args: tuple[object, ...] = ()) -> None:
        self.workers, self.preload, self.warm_up, self.args = workers, preload, warm_up, args
        self._executor: ProcessPoolExecutor | None = None
        self._futures: list[Future[Any]] = []

    def __enter__(self) -> Pool:
        from stud.sim import SimulationError  # stud.sim imports this module

        if self.workers == 1:
            return self
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([self.preload])
        self._executor = ProcessPoolExecutor(self.workers, context, initializer=_start_worker,
                                             initargs=(context.Barrier(self.workers),))
        try:
            self._futures = [self._executor.submit(_warm_worker, self.warm_up, self.args)
                             for _ in range(self.workers)]  # each submit starts a worker
            for future in self._futures:
                future.result()
        except BrokenProcessPool:
            self._stop()
            raise SimulationError(
                "a worker process stopped as it started; from a script, start the run under "
                "`if __name__ == \"__main__\":` (each worker imports the script)") from None
        except BaseException:
            self._stop()
            raise
        return self

    def run(self, job: Callable[..., T], calls: Sequence[tuple[object, ...]]) -> Iterator[T]:
        """``job(*call)`` for each call, as they finish."""
        if self._executor is None:
            for call in calls:
                yield job(*call)
            return
        self._futures = [self._executor.submit(job, *call) for call in calls]
        for future in as_completed(self._futures):
            yield future.result()

    def __exit__(self, kind: object, error: BaseException | None, trace: object) -> None:
        if self._executor is not None:
            if error is None:
                self._executor.shutdown()
            else:
                self._stop()

    def _stop(self) -> None:
        """Cancel the jobs not started and end the workers now, not when their jobs end."""
        assert self._executor is not None
        for future in self._futures:
            future.cancel()
        # The executor's own processes, as many as it has started (even while the workers
        # were being started: one waiting for the others would wait for ever), and no other.
        workers = list((getattr(self._executor, "_processes", None) or {}).values())
        for process in workers:
            process.terminate()
        self._executor.shutdown(wait=True, cancel_futures=True)
        for process in workers:
            process.join()


class RayTasks:
    """Jobs as Ray tasks on the cluster at ``RAY_ADDRESS`` (or a local Ray, or one already
    started), joined on entering; leaving on an exception (Ctrl-C) cancels the tasks left."""

    def __init__(self) -> None:
        self._started_here = False
        self._pending: list[Any] = []

    def __enter__(self) -> RayTasks:
        from stud.sim import SimulationError  # stud.sim imports this module

        try:
            import ray
        except ImportError:
            raise SimulationError("the ray backend needs Ray: pip install 'stud[ray]'") from None
        if not ray.is_initialized():
            address = os.environ.get("RAY_ADDRESS")
            try:
                ray.init(address=address, log_to_driver=False)
            except Exception as error:  # noqa: BLE001 - Ray raises many kinds; say which failed
                where = f"the Ray cluster at {address}" if address else "a local Ray"
                raise SimulationError(f"cannot start or reach {where}: {error}") from None
            self._started_here = True
        return self

    def run(self, job: Callable[..., T], calls: Sequence[tuple[object, ...]]) -> Iterator[T]:
        import ray

        task = ray.remote(num_cpus=1)(job)
        self._pending = [task.remote(*call) for call in calls]
        while self._pending:
            done, self._pending = ray.wait(self._pending, num_returns=1)
            yield ray.get(done[0])

    def __exit__(self, kind: object, error: BaseException | None, trace: object) -> None:
        import ray

        try:
            if error is not None:
                for task in self._pending:
                    ray.cancel(task, force=True)
        finally:
            if self._started_here:
                ray.shutdown()
