"""A finished sit-and-go: each player's finishing place and prize, and the hands played."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from stud.tournament.rotation import Rotation
from stud.tournament.structure import Level


@dataclass(frozen=True, slots=True)
class Placing:
    """Where the player in ``seat`` finished: ``finish`` is the place (the best of the
    ``tied`` places shared with others who busted in the same hand with the same stack),
    ``prize`` the chips of the prize pool won, ``hand`` the hand they busted in (the last
    hand, for the winner). ``bot`` is the bot's name, or None for a person."""

    seat: int
    name: str
    bot: str | None
    finish: int
    tied: int
    prize: int
    hand: int

    @property
    def average_place(self) -> float:
        """The mean of the places covered (3.5 for a tie for 3rd and 4th): a tie's finish in
        averages, so that a tournament's finishes always add up the same."""
        return self.finish + (self.tied - 1) / 2


@dataclass(frozen=True, slots=True)
class Outcome:
    """``placings`` in finishing order (then seat order); their prizes add up to
    ``prize_pool``."""

    game: Rotation
    buy_in: int
    prize_pool: int
    hands: int
    last_level: Level
    placings: tuple[Placing, ...]

    @property
    def winner(self) -> Placing:
        return self.placings[0]

    def hands_by_game(self) -> dict[str, int]:
        """How many hands each game was played for, in the rotation's order."""
        counts = Counter(self.game.variant(n).value for n in range(1, self.hands + 1))
        return {game.value: counts[game.value] for game in dict.fromkeys(self.game.games)
                if counts[game.value]}

    def to_json(self) -> dict[str, object]:
        """``{"variant", "buy_in", "prize_pool", "hands", "players": [{"seat", "bot",
        "finish", "prize"}]}``, the players in finishing order."""
        return {"variant": self.game.name, "buy_in": self.buy_in, "prize_pool": self.prize_pool,
                "hands": self.hands,
                "players": [{"seat": p.seat, "bot": p.bot, "finish": p.finish, "prize": p.prize}
                            for p in self.placings]}


__all__ = ["Outcome", "Placing"]
