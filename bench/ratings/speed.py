"""How fast the pure rating model learns: match updates (and predictions) a second, one process.

    .venv/bin/python -m bench.ratings.speed [--matches 50000] [--players 2000]

Matches are simulated first (bench/ratings/sim.py, not timed); then the timer runs over
``RatingState.update`` alone, and over ``predict`` + ``update`` as the harness and the site's
full recompute call them. The goal is at least 20,000 updates a second.
"""

from __future__ import annotations

import argparse
import random
import time

from ratings.core.model import RatingState

from .peers import model_match
from .sim import SimMatch, play_match


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=50_000)
    ap.add_argument("--players", type=int, default=2_000)
    args = ap.parse_args()
    rng = random.Random(1)
    ids = [f"p{i}" for i in range(args.players)]
    strength = {p: rng.gauss(0, 0.25) for p in ids}
    matches = []
    for i in range(args.matches):
        a, b, c, d = rng.sample(ids, 4)
        diff = strength[a] + strength[b] - strength[c] - strength[d]
        winner, eyes, deals = play_match(rng, diff)
        sim = SimMatch((a, b), (c, d), i / 100, winner, eyes, deals, 0.5, False)
        matches.append(model_match(sim, "points"))
    deals_per_match = sum(len(m.deals or ()) for m in matches) / len(matches)
    state = RatingState()
    state.predict(matches[0])  # builds the match table once, outside the timer
    t0 = time.perf_counter()
    for m in matches:
        state.update(m)
    t1 = time.perf_counter()
    state = RatingState()
    state.predict(matches[0])
    t2 = time.perf_counter()
    for m in matches:
        state.predict(m)
        state.update(m)
    t3 = time.perf_counter()
    n = len(matches)
    print(f"{n} matches, {args.players} players, {deals_per_match:.1f} deals a match")
    print(f"update only:        {n / (t1 - t0):,.0f} match updates/s ({1e6 * (t1 - t0) / n:.1f} µs each)")
    print(f"predict + update:   {n / (t3 - t2):,.0f} matches/s ({1e6 * (t3 - t2) / n:.1f} µs each)")


if __name__ == "__main__":
    main()
