"""Numbers as people and files write them: the digits 0 to 9 only.

``str.isdigit`` also takes "²" or "⑤", which ``int`` refuses with Python's own words, and
``str.isdecimal`` takes "٥" or "５", which ``int`` reads: neither is what a hand history, a
URL or a player means by a number.

>>> [all_digits(text) for text in ("10", "", "²", "５", "-1")]
[True, False, False, False, False]
"""

from __future__ import annotations


def all_digits(text: str) -> bool:
    """True for a non-empty text of the digits 0 to 9 only."""
    return text.isascii() and text.isdigit()
