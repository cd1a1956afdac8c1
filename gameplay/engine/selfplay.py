"""Whole matches played by the engine's bots: the demo data and the archive's tests use them, so
every replay and figure is made of real, legal records rather than hand-written ones."""

from __future__ import annotations

import random

from gameplay.engine.bot import BeginnerBot
from gameplay.engine.match import MatchState
from gameplay.engine.rules import Rules
from gameplay.engine.shuffle import Shuffle
from gameplay.engine.state import Phase


def bot_match(rules: Rules | None = None, *, seed: int = 1, players: dict[str, str] | None = None,
              provable: bool = False, stop_after: int | None = None) -> MatchState:
    """Play a match with four beginner bots, seeded so the same seed plays the same match.

    `provable`: deal by bilka-shuffle/1 (seeds drawn from `seed`), as the live tables do.
    `stop_after`: stop after that many cards and answers (a match in progress)."""
    rng = random.Random(seed)  # noqa: S311 - a seeded source: the same seed plays the same match
    shuffle = None
    if provable:
        seeds = tuple(rng.getrandbits(64).to_bytes(8, "big").hex() for _ in range(4))
        match_seed = rng.getrandbits(256).to_bytes(32, "big")
        shuffle = Shuffle((seeds[0], seeds[1], seeds[2], seeds[3]), seed=match_seed)
    state = MatchState(rules or Rules(), rng=rng, players=players, shuffle=shuffle)
    bots = [BeginnerBot(random.Random(seed * 4 + seat)) for seat in range(4)]  # noqa: S311
    steps = 0
    while state.phase != Phase.OVER and (stop_after is None or steps < stop_after):
        if state.phase == Phase.REDEAL:
            seat = state.redeal_pending[0]
            state.apply(bots[seat](state.observation(seat)), seat)
        else:
            seat = state.to_move if state.to_move is not None else 0
            state.apply(bots[seat](state.observation(seat)))
        steps += 1
    return state
