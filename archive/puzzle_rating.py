"""The puzzles' difficulty and the solvers' puzzle rating: one Glicko game per first attempt (pure).

A first attempt is a game between the person and the puzzle: solving it is the person's win,
missing it the puzzle's. Both sides move by Glicko's one-period update (Glickman, "The Glicko
system", 1995, steps 2 of each side with one game), so a new puzzle (deviation 350) finds its level
in a few attempts and a settled one moves little; the deviation never falls below `MIN_DEVIATION`,
so a puzzle whose level was mis-learnt can still move.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

START_RATING = 1500.0
START_DEVIATION = 350.0
MIN_DEVIATION = 60.0
_Q = math.log(10) / 400


@dataclass(frozen=True)
class Glicko:
    rating: float
    deviation: float


def _g(deviation: float) -> float:
    return 1 / math.sqrt(1 + 3 * _Q * _Q * deviation * deviation / (math.pi * math.pi))


def expected(player: Glicko, opponent: Glicko) -> float:
    """The chance `player` wins against `opponent`, by Glicko's E."""
    return 1 / (1 + 10 ** (-_g(opponent.deviation) * (player.rating - opponent.rating) / 400))


def update(player: Glicko, opponent: Glicko, score: float) -> Glicko:
    """`player` after one game against `opponent` (score 1 won, 0 lost)."""
    g = _g(opponent.deviation)
    e = expected(player, opponent)
    d2 = 1 / (_Q * _Q * g * g * e * (1 - e))
    precision = 1 / (player.deviation * player.deviation) + 1 / d2
    rating = player.rating + _Q / precision * g * (score - e)
    return Glicko(rating, max(MIN_DEVIATION, math.sqrt(1 / precision)))


def attempt(person: Glicko, puzzle: Glicko, solved: bool) -> tuple[Glicko, Glicko]:
    """The person and the puzzle after the person's first attempt at it."""
    score = 1.0 if solved else 0.0
    return update(person, puzzle, score), update(puzzle, person, 1 - score)
