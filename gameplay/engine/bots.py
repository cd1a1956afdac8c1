"""The bots by level, behind one call: the site names a seat's level, the engine picks the bot.

`beginner` is the rules-of-thumb bot (`bot`), instant; `strong` samples the hidden hands and
solves them (`strong_bot`), within `budget` seconds. Both see one seat's observation only.
"""

from __future__ import annotations

import random

from gameplay.engine import bot
from gameplay.engine.observation import Observation

LEVELS: tuple[str, ...] = ("beginner", "strong")


def choose(level: str, obs: Observation, rng: random.Random, *, budget: float = 1.0) -> int:
    """The action of the bot of `level` at the seat `obs` belongs to; ValueError for an unknown level."""
    if level == "beginner":
        return bot.choose_action(obs, rng)
    if level == "strong":
        from gameplay.engine import strong_bot  # the sampler and solver load only for a strong bot

        return strong_bot.choose_action(obs, rng, budget=budget)
    raise ValueError(f"unknown bot level {level!r}")
