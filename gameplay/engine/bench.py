"""Random playouts per second through the public `legal_actions()` / `apply()`.

This is the number compared with OpenSpiel's skat playouts (peers/skat_playouts.py): a 32-card deck,
default rules, a seeded random source, every redeal passed, a random legal card each turn.
The random card is drawn exactly as `random.Random.choice` draws it (same bits, same card,
so the same games are played); only the call into `random.py` is inlined, because at 32
cards a deal that call would otherwise cost as much as the engine's `apply()`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from gameplay.engine.cards import PASS
from gameplay.engine.match import MatchState
from gameplay.engine.rules import Rules

#: _BITS[n] = n.bit_length(), as random._randbelow computes it.
_BITS = tuple(n.bit_length() for n in range(64))


def run(seconds: float, seed: int = 1) -> float:
    """Play random deals for `seconds`; return deals per second."""
    rng = random.Random(seed)  # noqa: S311 - a seeded source, as the benchmark requires
    rules = Rules()

    def play_match() -> int:
        getrandbits = rng.getrandbits
        bits = _BITS
        state = MatchState(rules, rng=rng)
        legal_actions = state.legal_actions
        apply = state.apply
        while state.winner is None:
            actions = legal_actions()
            n = len(actions)
            if actions[-1] == PASS:
                apply(PASS)
                continue
            # rng.choice(actions), inlined: same draws, same result
            k = bits[n]
            j = getrandbits(k)
            while j >= n:
                j = getrandbits(k)
            apply(actions[j])
        return len(state.deals)

    return _deals_per_second(seconds, play_match)


def run_with_choice(seconds: float, seed: int = 1) -> float:
    """The same benchmark calling `rng.choice` (for comparison; plays the very same games)."""
    rng = random.Random(seed)  # noqa: S311
    rules = Rules()

    def play_match() -> int:
        choice = rng.choice
        state = MatchState(rules, rng=rng)
        legal_actions = state.legal_actions
        apply = state.apply
        while state.winner is None:
            actions = legal_actions()
            apply(PASS if actions[-1] == PASS else choice(actions))
        return len(state.deals)

    return _deals_per_second(seconds, play_match)


def _deals_per_second(seconds: float, play_match: Callable[[], int]) -> float:
    """Play matches until `seconds` have passed; the deals they had, per second."""
    deals = 0
    start = time.perf_counter()
    while True:
        deals += play_match()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return deals / elapsed
