"""The fast lane: many hands of stud at once in compiled kernels, equal to ``stud.engine``.

``Batch`` holds N hands of one game in arrays; numba kernels deal, order, bet and award them
as the engine does, every policy of ``stud.rules`` included (``game.IMPLEMENTED``; rules with a
policy it does not know are refused by name). ``tests/fast`` plays the two side by side and
compares every step; ``bench/fast_agree.py`` does so over millions of hands.

Importing ``stud.fast`` compiles nothing: the kernels compile (or load from numba's cache in
``__pycache__``) on their first call.
"""

from stud.fast.batch import Award, Batch, IllegalChoice, Legal
from stud.fast.decks import shuffled_decks
from stud.fast.game import IMPLEMENTED, NotImplementedPolicy
from stud.fast.layout import ACTION_NAMES
from stud.fast.policies import POLICIES

__all__ = ["ACTION_NAMES", "IMPLEMENTED", "POLICIES", "Award", "Batch", "IllegalChoice", "Legal",
           "NotImplementedPolicy", "shuffled_decks"]
