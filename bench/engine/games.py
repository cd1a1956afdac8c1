"""Random deals per second of Bilka, Kozyol khvalyony and Bilka for two, in one run.

The same loop as the engine's own benchmark (`gameplay/engine/bench.py`, `python -m gameplay.engine
bench`) for each game in turn: default rules of the game, a seeded random source, whole matches,
every redeal question answered "play", a random legal card each turn drawn exactly as
`random.Random.choice` draws it (the call inlined). A deal counts when it is played to its end
(a Kozyol catch ends one early; every redeal question is passed, so none is redealt). Deals per
CPU second is printed beside deals per wall second because the machine is shared. Prints which
build of Bilka's state ran (the mypyc one or pure Python: Kozyol and Bilka for two are always pure
Python), then one line per game, again for each of `--rounds`, so a busy machine shows as spread.

Usage: .venv/bin/python -m bench.engine.games [--seconds 5] [--seed 1] [--rounds 1]
"""

from __future__ import annotations

import argparse
import os
import random
import time
from typing import Any

import gameplay.engine.state as bilka_state
from gameplay.engine.bilka2 import Bilka2Rules
from gameplay.engine.cards import PASS
from gameplay.engine.games import AnyRules, new_match
from gameplay.engine.kozyol import KozyolRules
from gameplay.engine.rules import Rules

#: _BITS[n] = n.bit_length(), as random._randbelow computes it.
_BITS = tuple(n.bit_length() for n in range(64))

GAMES: dict[str, AnyRules] = {"bilka": Rules(), "kozyol": KozyolRules(), "bilka-2": Bilka2Rules()}


def run(rules: AnyRules, seconds: float, seed: int) -> dict[str, Any]:
    """Play random matches of `rules`' game for `seconds`: played deals and cards per second."""
    rng = random.Random(seed)  # noqa: S311 - a seeded source, as the benchmark requires
    getrandbits = rng.getrandbits
    bits = _BITS
    played = redeals = cards = matches = 0
    start = time.perf_counter()
    cpu = time.process_time()
    while True:
        state = new_match(rules, rng=rng)
        legal_actions = state.legal_actions
        apply = state.apply
        while state.winner is None:
            actions = legal_actions()
            n = len(actions)
            if actions[-1] == PASS:
                apply(PASS)
                continue
            k = bits[n]
            j = getrandbits(k)
            while j >= n:
                j = getrandbits(k)
            apply(actions[j])
        matches += 1
        for log in state.deals:
            if log.outcome == "redeal":
                redeals += 1
            else:
                played += 1
                cards += len(log.plays)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    return {"deals_per_s": played / elapsed, "redeals": redeals, "cards_per_s": cards / elapsed,
            "matches": matches, "deals": played, "cpu_s": time.process_time() - cpu, "wall_s": elapsed}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=5.0, help="per game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    native = not bilka_state.__file__.endswith(".py")
    print(f"bilka state: {'mypyc build' if native else 'pure Python'}; kozyol, bilka-2: pure Python; "
          f"load average {os.getloadavg()[0]:.2f}")
    for _ in range(args.rounds):
        for game, rules in GAMES.items():
            r = run(rules, args.seconds, args.seed)
            print(f"{game:8} {r['deals_per_s']:9,.0f} deals/s  {r['deals'] / r['cpu_s']:9,.0f} deals/CPU s  "
                  f"{r['cards_per_s']:11,.0f} cards/s  ({r['deals']:,} deals in {r['matches']:,} matches, "
                  f"{r['wall_s']:.1f} s wall, {r['cpu_s']:.1f} s CPU)")


if __name__ == "__main__":
    main()
