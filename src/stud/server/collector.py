"""The garbage collector of a long-running server (``stud serve``).

CPython's full collection scans every object the process holds; with hundreds of tables in
play that stops every table at once for a few hundred milliseconds. Measured with
``bench/web_load.py`` (250 tables, 1,000 clients, 30 s): with the default thresholds, 9 full
collections, the longest 407 ms, and an action's p99 of 328 ms. So the server, once loaded,
freezes what it holds (modules and the app: never garbage, no longer scanned), collects young
objects less often (most of a hand's objects then die before they are promoted), and makes a
full collection about a tenth as often.
"""

from __future__ import annotations

import gc

YOUNG = 5_000  # allocations between young collections (CPython's default: 700)
MIDDLE = 10  # young collections between middle ones (the default)
FULL = 100  # middle collections between full ones (the default: 10)


def tune_for_serving() -> None:
    """Call once the server is loaded, before it serves."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG, MIDDLE, FULL)
