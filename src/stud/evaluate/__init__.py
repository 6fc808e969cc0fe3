"""Hand values for stud: high, 8-or-better low, A-5 low, and the ranking of up cards."""

from stud.evaluate.high import category, high_value
from stud.evaluate.low import NO_LOW, a5_value, low8_value
from stud.evaluate.showing import showing_high, showing_low

__all__ = [
    "NO_LOW",
    "a5_value",
    "category",
    "high_value",
    "low8_value",
    "showing_high",
    "showing_low",
]
