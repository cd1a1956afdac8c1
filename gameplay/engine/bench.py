"""Random playouts per second through the public `legal_actions()` / `apply()`.

This is the number compared with OpenSpiel's skat playouts (issue 2): a 32-card deck,
default rules, a seeded random source, every redeal passed, a random legal card each turn.
"""

from __future__ import annotations

import random
import time

from gameplay.engine.rules import Rules
from gameplay.engine.state import PASS, MatchState


def run(seconds: float, seed: int = 1) -> float:
    """Play random deals for `seconds`; return deals per second."""
    rng = random.Random(seed)  # noqa: S311 - a seeded source, as the benchmark requires
    rules = Rules()
    choice = rng.choice
    deals = 0
    start = time.perf_counter()
    while True:
        state = MatchState(rules, rng=rng)
        legal_actions = state.legal_actions
        apply = state.apply
        while state.winner is None:
            actions = legal_actions()
            apply(PASS if actions[-1] == PASS else choice(actions))
        deals += len(state.deals)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return deals / elapsed
