"""A game (variant, stakes, rules, players) as the fast engine's game vector.

Every policy of ``stud.rules`` is read here, once; a policy this file does not know is refused
by name, so the fast engine never silently plays other rules than the engine would.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from stud.fast import layout as L
from stud.rules import POLICIES, Rules, RulesError, Stakes, Variant

# Every policy the fast engine plays, each as the engine does. ``all_in_muck`` changes only a
# replay that chooses show or muck; the fast engine's showdown is the engine's automatic one.
IMPLEMENTED: frozenset[str] = frozenset({
    "open_pair_big_bet", "max_bets", "heads_up_uncapped", "first_actor_tie", "odd_chip",
    "deck_exhaustion", "short_bring_in", "short_all_in", "fold_facing_all_in_bring_in",
    "short_bring_in_completes", "all_in_raise_for_less", "odd_chip_shares", "hi_lo_halves",
    "scoop_split", "all_in_muck", "free_fold",
})


class NotImplementedPolicy(RulesError):
    """Rules with a policy the fast engine does not play."""


def game_vector(variant: Variant, stakes: Stakes, rules: Rules, players: int
                ) -> npt.NDArray[Any]:
    """The int64 vector the kernels read the game from (``layout.G_*``)."""
    missing = [p for p in POLICIES if p not in IMPLEMENTED]
    if missing:
        raise NotImplementedPolicy(
            f"the fast engine does not implement the policy {missing[0]!r} "
            f"({getattr(rules, missing[0])!r}); use stud.engine.Hand for these rules")
    g = np.zeros(L.GAME_SIZE, dtype=np.int64)
    g[L.G_PLAYERS] = players
    g[L.G_VARIANT] = L.VARIANTS.index(variant.value)
    g[L.G_ANTE] = stakes.ante
    g[L.G_BRING_IN] = stakes.bring_in
    g[L.G_SMALL] = stakes.small_bet
    g[L.G_BIG] = stakes.big_bet
    g[L.G_MAX_BETS] = rules.max_bets
    g[L.G_HEADS_UP_UNCAPPED] = rules.heads_up_uncapped
    g[L.G_OPEN_PAIR_BIG_BET] = rules.open_pair_big_bet
    g[L.G_TIE_BY_SUIT] = rules.first_actor_tie == "suit"
    g[L.G_ODD_CHIP_BY_SUIT] = rules.odd_chip == "suit"
    g[L.G_RESHUFFLE] = rules.deck_exhaustion == "reshuffle"
    g[L.G_SHORT_BRING_IN_FULL] = rules.short_bring_in == "full"
    g[L.G_HALF_BET] = rules.short_all_in == "half_bet"
    g[L.G_FOLD_FACING_ALL_IN_BRING_IN] = rules.fold_facing_all_in_bring_in
    g[L.G_SHORT_BRING_IN_COMPLETES] = rules.short_bring_in_completes
    g[L.G_ALL_IN_RAISE_FOR_LESS] = rules.all_in_raise_for_less
    g[L.G_ODD_CHIPS_ALL_TO_FIRST] = rules.odd_chip_shares == "all_to_first"
    g[L.G_ANY_LOW_HALVES] = rules.hi_lo_halves == "any_low"
    g[L.G_SCOOP_HALVES] = rules.scoop_split == "halves"
    g[L.G_FREE_FOLD] = rules.free_fold
    return g
