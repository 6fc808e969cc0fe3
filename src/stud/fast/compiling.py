"""Saying on standard error that stud's numba kernels are being compiled, while it happens.

A kernel compiles on its first call in a process unless numba's cache holds it (``compiled``):
the whole fast engine takes tens of seconds the first time on a machine, and a part reached
later (the showdown's evaluators, a policy) a few more when first reached. ``CompileNotice``
wraps calls that may compile: when a compile of one of stud's kernels inside the call has
run ``DELAY`` seconds, it says so on standard error, and when the call returns, how long
it took. A call that compiles nothing, loads its kernels from numba's cache, or compiles
for less than ``DELAY`` says nothing. Entering and leaving costs a microsecond or two, so a
vectorised environment wraps every step in it.

>>> import io
>>> said = io.StringIO()
>>> with CompileNotice(out=said):
...     pass  # nothing compiled
>>> said.getvalue()
''
"""

from __future__ import annotations

import sys
import threading
import time
from types import TracebackType
from typing import Any, TextIO

from numba.core import event

DELAY = 2.0  # seconds of compiling before it is said
_KIND = "numba:compile"


def _ours(compile_event: Any) -> bool:
    """Whether the event compiles one of stud's kernels (not the user's own numba code)."""
    data = compile_event.data
    dispatcher = data.get("dispatcher") if isinstance(data, dict) else None
    module = getattr(getattr(dispatcher, "py_func", None), "__module__", "") or ""
    return module == "stud" or module.startswith("stud.")


class CompileNotice(event.Listener):
    """A context manager (reusable, not reentrant): a compile of stud's kernels inside it
    that runs ``delay`` seconds is said on ``out`` (standard error) as it runs, and its
    time when the context ends; ``note`` is added to that last line (sim's "not counted in
    the speed below")."""

    def __init__(self, note: str = "", out: TextIO | None = None, delay: float = DELAY) -> None:
        self.note = note
        self.out = out
        self.delay = delay
        self._began: float | None = None
        self._timer: threading.Timer | None = None
        self._said = False

    def on_start(self, compile_event: Any) -> None:
        if self._began is None and _ours(compile_event):
            self._began = time.perf_counter()
            self._timer = threading.Timer(self.delay, self._say_compiling)
            self._timer.daemon = True
            self._timer.start()

    def on_end(self, compile_event: Any) -> None:
        pass

    def _say(self, text: str) -> None:
        print(text, file=self.out or sys.stderr, flush=True)

    def _say_compiling(self) -> None:
        self._said = True
        self._say("compiling the fast engine (once: later runs load it from numba's cache) ...")

    def __enter__(self) -> CompileNotice:
        self._began, self._timer, self._said = None, None, False
        event.register(_KIND, self)
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        event.unregister(_KIND, self)
        timer, began = self._timer, self._began
        if timer is None or began is None:
            return
        timer.cancel()
        timer.join()
        if self._said:
            note = f"; {self.note}" if self.note else ""
            self._say(f"compiled the fast engine in {time.perf_counter() - began:.0f} s "
                      f"(once: later runs load it from numba's cache{note})")
