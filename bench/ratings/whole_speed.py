"""Whole-history ratings: how fast, and how far one corrected result moves everyone else.

    .venv/bin/python -m bench.ratings.whole_speed [--sizes 10000,100000] [--million] [--flips 10]

Speed: ``ratings.core.whole.fit_whole`` (tolerance 0.01 display points) on simulated streams of
uneven activity (``bench.ratings.sim.simulate("mix")``), timed after the simulation, with the
Newton steps and conjugate-gradient iterations it took (``--million`` also measures it on a
stream of random fours of 3,000 players, as ``bench/ratings/speed.py`` makes, over 1,000 days).
Days are counted whole, as the site counts them. The filter (``RatingState`` replayed) on
the same matches for comparison, and whole-history again after one result an eighth of the way in
is corrected, warm-started from the fit before (what a correction on the site would run).

Stability: on a stream of 200 players with rotating partners (6,000 matches), one result in the
first quarter is mirrored (the two pairs swap seats: every deal and the result go the other way),
and both systems recompute. For players who did not play that match: how far their current
ratings move (median, p99, max display points) and the share whose move is within the deviation
their card shows. ``--flips`` such corrections, pooled.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from dataclasses import replace

from ratings.core.model import Match, RatingState
from ratings.core.whole import WholeFit, display, fit_whole

from .peers import model_match
from .sim import SimMatch, play_match, simulate
from .whole_monotone import mirrored


def _filter(matches: list[Match]) -> RatingState:
    st = RatingState()
    for m in matches:
        st.update(m)
    return st


def _stream(n: int) -> list[Match]:
    if n >= 500_000:
        rng = random.Random(1)
        ids = [f"p{i}" for i in range(3000)]
        strength = {p: rng.gauss(0, 0.25) for p in ids}
        out = []
        for i in range(n):
            a, b, c, d = rng.sample(ids, 4)
            winner, eyes, deals = play_match(rng, strength[a] + strength[b] - strength[c] - strength[d])
            sim = SimMatch((a, b), (c, d), float(i * 1000 // n), winner, eyes, deals, 0.5, False)
            out.append(model_match(sim, "points"))
        return out
    players = 200 if n <= 20_000 else 500
    st = simulate("mix", 1, players=players, per_player=4 * n // players)
    return [_whole_days(model_match(m, "points")) for m in st.matches]


def _whole_days(m: Match) -> Match:
    """Days counted whole, as the site counts them (a player's matches of one day share a point)."""
    return replace(m, day=float(math.floor(m.day or 0.0)))


def speed(sizes: list[int]) -> None:
    for n in sizes:
        t0 = time.perf_counter()
        ms = _stream(n)
        t1 = time.perf_counter()
        fit = fit_whole(ms)
        t2 = time.perf_counter()
        _filter(ms)
        t3 = time.perf_counter()
        i = len(ms) // 8
        again = fit_whole([*ms[:i], mirrored(ms[i]), *ms[i + 1 :]], start=fit)
        t4 = time.perf_counter()
        print(
            f"{len(ms):>9,} matches ({len(fit.players)} players; simulated in {t1 - t0:.0f} s): "
            f"whole-history {t2 - t1:6.1f} s, {fit.sweeps} Newton steps, {fit.iterations} CG iterations; "
            f"filter {t3 - t2:5.1f} s; whole-history again after one corrected result, from the last "
            f"fit: {t4 - t3:.1f} s, {again.sweeps} steps, {again.iterations} iterations",
            flush=True,
        )


def _moves(before: dict[str, tuple[float, float]], after: dict[str, tuple[float, float]], skip: set[str]):  # type: ignore[no-untyped-def]
    out = []
    for pid, (r0, _) in before.items():
        if pid in skip:
            continue
        r1, dev = after[pid]
        out.append((abs(r1 - r0), dev))
    return out


def _shown(fit: WholeFit) -> dict[str, tuple[float, float]]:
    return {p: display((v[0], v[1]), fit.params) for p, v in fit.players.items()}


def stability(flips: int) -> None:
    ms = [_whole_days(model_match(m, "points")) for m in simulate("rotating", 7, players=200).matches]
    rng = random.Random(7)
    base_f = _filter(ms)
    base_w = fit_whole(ms, tol=0.001)
    pools: dict[str, list[tuple[float, float]]] = {"filter": [], "whole-history": []}
    for _ in range(flips):
        i = rng.randrange(len(ms) // 4)
        changed = [*ms[:i], mirrored(ms[i]), *ms[i + 1 :]]
        involved = {*ms[i].ns, *ms[i].ew}
        st = _filter(changed)
        pools["filter"] += _moves(
            {p: base_f.display(p) for p in base_f.players}, {p: st.display(p) for p in st.players}, involved
        )
        fit = fit_whole(changed, tol=0.001, start=base_w)
        pools["whole-history"] += _moves(_shown(base_w), _shown(fit), involved)
    print(f"stability: {flips} old results mirrored in a stream of 6,000 matches, 200 players (rotating)")
    for name, moves in pools.items():
        d = sorted(m for m, _ in moves)
        within = sum(1 for m, dev in moves if m <= dev) / len(moves)
        p99 = d[min(len(d) - 1, int(0.99 * len(d)))]
        print(
            f"  {name:14s} uninvolved players' move: median {statistics.median(d):.2f}, p99 {p99:.2f}, "
            f"max {d[-1]:.2f} display points; within their deviation: {100 * within:.1f}%"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="10000,100000")
    ap.add_argument("--million", action="store_true")
    ap.add_argument("--flips", type=int, default=10)
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s] + ([1_000_000] if args.million else [])
    speed(sizes)
    if args.flips:
        stability(args.flips)


if __name__ == "__main__":
    main()
