"""A child process that ends with its parent (the store's process, a worker of several)."""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os

_PR_SET_PDEATHSIG = 1


def end_with(parent: int, signal: int) -> bool:
    """Have the kernel send this process ``signal`` when its parent ends, even by SIGKILL
    (Linux; elsewhere nothing is asked). False when the parent, process ``parent``, has ended
    already (before the ask could count)."""
    name = ctypes.util.find_library("c")
    if name is not None:
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(name, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal)
    return os.getppid() == parent
