"""The bot levels a table may seat, by name, so the site dispatches on a level string.

`beginner`: `bot.py`, instant heuristics. `strong`: `strong_bot.py`, sampled hidden hands solved
double-dummy within a time budget per decision (the budget is ignored by the beginner).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from gameplay.engine import bot, strong_bot
from gameplay.engine.observation import Observation

DEFAULT_BUDGET: Final = strong_bot.DEFAULT_BUDGET


def _beginner(obs: Observation, rng: random.Random, *, budget: float = DEFAULT_BUDGET) -> int:
    return bot.choose_action(obs, rng)


def _strong(obs: Observation, rng: random.Random, *, budget: float = DEFAULT_BUDGET) -> int:
    return strong_bot.choose_action(obs, rng, budget=budget)


#: level name -> choose(obs, rng, *, budget) -> action
LEVELS: Final[dict[str, Callable[..., int]]] = {"beginner": _beginner, "strong": _strong}


def choose(level: str, obs: Observation, rng: random.Random, *, budget: float = DEFAULT_BUDGET) -> int:
    """The action of a bot of `level` ("beginner" or "strong") for the seat of `obs`."""
    try:
        play = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown bot level {level!r}; one of {', '.join(LEVELS)}") from None
    return play(obs, rng, budget=budget)


__all__ = ["DEFAULT_BUDGET", "LEVELS", "choose"]
