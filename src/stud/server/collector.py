"""The garbage collector of a long-running server (``stud serve``).

CPython's full collection scans every object the process holds; with hundreds of tables in
play that stops every table at once for a few hundred milliseconds. Measured with
``bench/web_load.py`` (250 tables, 1,000 clients, 30 s): with the default thresholds, 9 full
collections, the longest 407 ms, and an action's p99 of 328 ms. So the server, once loaded,
freezes what it holds (modules and the app: never garbage, no longer scanned), collects young
objects less often (most of a hand's objects then die before they are promoted), and makes a
full collection about a tenth as often.

The middle collections then came every 5 s or so and took 70-84 ms each (timed with
``gc.callbacks`` under the same load: 14 in 75 s, and 12 of the event loop's 12 stalls over
40 ms): with ten young collections between them, a middle collection had ten collections' worth
of survivors to scan, most of them a hand's objects, which live for seconds. Made after every
second young collection instead, they took 25 ms (42 at most), the loop stalled over 40 ms half
as often, and the collector's time in all was the same (2.0 s in 75 s against 2.4). Full
collections stay about as rare in wall time (every 300 middle ones, about 8 minutes, as 100
were before).
"""

from __future__ import annotations

import gc

YOUNG = 5_000  # allocations between young collections (CPython's default: 700)
MIDDLE = 2  # young collections between middle ones (the default: 10)
FULL = 300  # middle collections between full ones (the default: 10)


def tune_for_serving() -> None:
    """Call once the server is loaded, before it serves."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG, MIDDLE, FULL)
