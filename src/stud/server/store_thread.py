"""The one thread that calls the store, and its group commit.

Every store call of the server runs on one thread, in the order the calls were made (SQLite
has one writer; the event loop must never wait on the database). The writes of a hand's start
and end and of the time banks after it (``store.GROUPED``) are not run one transaction each:
they wait in a list, and when the thread comes to them it takes every one waiting and makes
them in one transaction with one commit (``Store.write_together``, which keeps each write whole
if another fails). Under load, with a write queued behind others, a hand then costs a share of
one commit instead of a commit of its own, and the thread, which shares the interpreter's lock
with the event loop, spends less time waiting for it. ``stud serve`` goes further and runs the
same loop in a process of its own (``stud.server.store_process``), where it shares nothing.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from stud.server.store import GROUPED, Store

T = TypeVar("T")
Waiting = tuple[str, tuple[Any, ...], "asyncio.Future[Any]"]


class StoreThread:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="stud-store")
        self._lock = threading.Lock()  # guards _waiting: the event loop adds, the thread takes
        self._waiting: list[Waiting] = []

    async def call(self, call: Callable[..., T], *args: object) -> T:
        """``call(*args)`` on the store's thread; a grouped write joins the writes waiting."""
        loop = asyncio.get_running_loop()
        name = getattr(call, "__name__", "")
        if name not in GROUPED or getattr(call, "__self__", None) is not self.store:
            return await loop.run_in_executor(self._executor, call, *args)
        future: asyncio.Future[T] = loop.create_future()
        with self._lock:
            self._waiting.append((name, args, future))
            first = len(self._waiting) == 1
        if first:  # later ones join it until the thread takes them
            self._executor.submit(self._write_waiting, loop)
        return await future

    def _write_waiting(self, loop: asyncio.AbstractEventLoop) -> None:
        with self._lock:
            waiting, self._waiting = self._waiting, []
        try:
            outcomes = self.store.write_together([(name, args) for name, args, _ in waiting])
        except BaseException as error:  # not even one transaction could be had
            outcomes = [error] * len(waiting)
        try:
            loop.call_soon_threadsafe(_settle, [f for _, _, f in waiting], outcomes)
        except RuntimeError:  # the loop closed: nobody is waiting for the answers
            pass

    def close(self) -> None:
        """Wait for every call made so far, then stop the thread."""
        self._executor.shutdown(wait=True)


def _settle(futures: list[asyncio.Future[Any]], outcomes: list[Any]) -> None:
    for future, outcome in zip(futures, outcomes, strict=True):
        if future.done():  # its caller was cancelled; the write was made all the same
            continue
        if isinstance(outcome, BaseException):
            future.set_exception(outcome)
        else:
            future.set_result(outcome)
