"""Sit-and-go tournaments: structures of levels, payouts, the stud rotation, placing busted
players, and ``SitAndGo``, which plays one at a ``stud.table.Table`` hand by hand.

Pure: no I/O and no clock (a timed structure is told the minutes played); every deck comes from
the tournament's seed and the hand's number. ``stud.tournament.series`` plays many on several
processes.
"""

from stud.tournament.eliminations import Finish, place_busted, prize_shares
from stud.tournament.payouts import DEFAULT_PAYOUTS, PayoutError, payout_table, prizes
from stud.tournament.rotation import STUD_ROTATION, Rotation, RotationError
from stud.tournament.sitandgo import (
    GAMES,
    Entrant,
    HandRecord,
    SitAndGo,
    Tournament,
    TournamentError,
    parse_game,
    sit_and_go,
)
from stud.tournament.standings import Outcome, Placing
from stud.tournament.structure import (
    STRUCTURES,
    Level,
    Structure,
    StructureError,
    ladder,
    structure,
)

__all__ = [
    "DEFAULT_PAYOUTS",
    "GAMES",
    "STRUCTURES",
    "STUD_ROTATION",
    "Entrant",
    "Finish",
    "HandRecord",
    "Level",
    "Outcome",
    "PayoutError",
    "Placing",
    "Rotation",
    "RotationError",
    "SitAndGo",
    "Structure",
    "StructureError",
    "Tournament",
    "TournamentError",
    "ladder",
    "parse_game",
    "payout_table",
    "place_busted",
    "prize_shares",
    "prizes",
    "sit_and_go",
    "structure",
]
